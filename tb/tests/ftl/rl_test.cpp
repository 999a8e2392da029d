// The RL grouping policy (firmware/ftl/fsp/rl.c and its parts): the across-episode q-table
// against a hand-computed sequence, the latency term's buckets and percentiles, the state
// encoding, the group module's substitution rule (the paper's Figure 7), the rewrite triggers
// of RL and Frequency, and the episode's clearing of the short-term bits.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/fsp/access_history.h"
#include "ftl/fsp/grouping.h"
#include "ftl/fsp/q_table.h"
#include "ftl/fsp/read_latency.h"
#include "ftl/fsp/rl.h"
#include "ftl/policy.h"
#include "ftl/write_buffer.h"
#include "lib/metrics.h"
}

namespace {

TEST(QTable, UpdatesTheShadowAndRenewsTheActiveAsComputedByHand) {
  static q_table_t table;
  q_table_init(&table, 0.3f, 0.8f);
  EXPECT_EQ(q_table_best(&table, 5), 0u) << "all zero: the lowest action";
  // Q(5,1) <- 0.7 x 0 + 0.3 x (1 + 0.8 x Q(6,2) = 0) = 0.3
  q_table_update(&table, 5, 1, 1.0f, 6, 2);
  EXPECT_FLOAT_EQ(table.shadow[5][1], 0.3f);
  EXPECT_EQ(table.active[5][1], 0.0f) << "decisions see nothing before the renewal";
  EXPECT_EQ(q_table_best(&table, 5), 0u);
  // Q(6,2) <- 0.3 x (-1 + 0.8 x 0.3) = -0.228
  q_table_update(&table, 6, 2, -1.0f, 5, 1);
  EXPECT_FLOAT_EQ(table.shadow[6][2], -0.228f);
  // Q(5,1) <- 0.7 x 0.3 + 0.3 x (0.5 + 0.8 x -0.228) = 0.30528
  q_table_update(&table, 5, 1, 0.5f, 6, 2);
  EXPECT_FLOAT_EQ(table.shadow[5][1], 0.30528f);
  q_table_renew(&table);
  EXPECT_FLOAT_EQ(table.active[5][1], 0.30528f);
  EXPECT_FLOAT_EQ(table.active[6][2], -0.228f);
  EXPECT_EQ(q_table_best(&table, 5), 1u);
  EXPECT_EQ(q_table_best(&table, 6), 0u) << "a negative value loses to the zeros";
  q_table_update(&table, 6, 3, 2.0f, 6, 3);
  EXPECT_EQ(q_table_best(&table, 6), 0u);
  q_table_renew(&table);
  EXPECT_EQ(q_table_best(&table, 6), 3u);
}

TEST(ReadLatency, BucketsAreLogarithmicAndMonotonic) {
  EXPECT_EQ(read_latency_bucket(0), 0u);
  EXPECT_EQ(read_latency_bucket(7), 7u);
  EXPECT_EQ(read_latency_bucket(8), 8u);
  EXPECT_EQ(read_latency_bucket(15), 15u);
  EXPECT_EQ(read_latency_bucket(16), 16u);
  EXPECT_EQ(read_latency_bucket(18), 17u) << "16..31 in steps of 2";
  EXPECT_EQ(read_latency_bucket(0xFFFFFFFFu), READ_LATENCY_BUCKETS - 1u);
  uint32_t last = 0;
  for (uint64_t x = 1; x <= 0xFFFFFFFFull; x = x * 17 / 16 + 1) {
    const uint32_t bucket = read_latency_bucket(static_cast<uint32_t>(x));
    EXPECT_GE(bucket, last) << x;
    last = bucket;
  }
}

TEST(ReadLatency, TheLatestReadIsRewardedByThePercentilesAtTheLastRenewal) {
  static read_latency_t latency;
  read_latency_init(&latency);
  EXPECT_EQ(read_latency_reward_milli(&latency), 0) << "no read yet";
  // 100 reads of 8 KiB: 1 us .. 100 us per KiB, in 1 us steps.
  for (uint32_t us = 1; us <= 100; ++us) read_latency_add(&latency, us * 8000ull, 8192);
  EXPECT_EQ(read_latency_reward_milli(&latency), 0) << "no percentiles before a renewal";
  read_latency_renew(&latency);
  EXPECT_EQ(latency.thresholds[0], read_latency_bucket(70000));
  EXPECT_EQ(latency.thresholds[1], read_latency_bucket(90000));
  EXPECT_EQ(latency.thresholds[2], read_latency_bucket(99000));
  read_latency_add(&latency, 8 * 20000ull, 8192);
  EXPECT_EQ(read_latency_reward_milli(&latency), 1000) << "20 us/KiB: below the 70th";
  read_latency_add(&latency, 8 * 80000ull, 8192);
  EXPECT_EQ(read_latency_reward_milli(&latency), 500) << "80 us/KiB: below the 90th";
  read_latency_add(&latency, 8 * 95000ull, 8192);
  EXPECT_EQ(read_latency_reward_milli(&latency), 0) << "95 us/KiB: below the 99th";
  read_latency_add(&latency, 8 * 200000ull, 8192);
  EXPECT_EQ(read_latency_reward_milli(&latency), -1000) << "200 us/KiB: the tail";
  read_latency_add(&latency, 4 * 200000ull, 4096);
  EXPECT_EQ(read_latency_reward_milli(&latency), -1000) << "normalised per KiB";
}

TEST(RlState, EncodesReadsShortTermSizesAndThePreviousPageType) {
  alignas(8) static uint8_t memory[4096];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_DRAM);
  access_history_t history;
  ASSERT_TRUE(access_history_init(&history, 64, 16, &arena));
  wb_slot_t entry{};
  entry.lpn = 9;
  entry.request_pages = 4;
  EXPECT_EQ(rl_state(&history, &entry), 0u) << "never read, large, whole page, LSB";
  for (int i = 0; i < 4; ++i) access_history_read(&history, 9);
  access_history_written(&history, 9, 3, true);
  EXPECT_EQ(rl_state(&history, &entry), 2u << 5 | 1u << 4 | 3u) << "bin 2, read now, MSB";
  entry.request_pages = 1;
  entry.flags = WB_ENTRY_PARTIAL;
  EXPECT_EQ(rl_state(&history, &entry), 2u << 5 | 1u << 4 | 1u << 3 | 1u << 2 | 3u);
  entry.request_pages = 0;
  entry.flags = WB_ENTRY_REWRITE;
  EXPECT_EQ(rl_state(&history, &entry), 2u << 5 | 1u << 4 | 1u << 3 | 3u)
      << "a rewrite is small as its writer was (the history says so)";
  access_history_new_episode(&history);
  for (int i = 0; i < 3; ++i) access_history_read(&history, 9);
  EXPECT_EQ(rl_state(&history, &entry) >> 4, 3u << 1 | 1u) << "7 reads: bin 3";
  EXPECT_LT(rl_state(&history, &entry), Q_TABLE_STATES);
}

TEST(AccessHistory, AnEpisodeClearsTheShortTermBitsItSetAndAnOverflowClearsThemAll) {
  alignas(8) static uint8_t memory[4096];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_DRAM);
  access_history_t history;
  ASSERT_TRUE(access_history_init(&history, 256, 4, &arena));
  for (uint32_t lpn : {1u, 2u, 2u, 3u}) access_history_read(&history, lpn);
  EXPECT_EQ(history.episode_log_length, 3u) << "each LPN once";
  EXPECT_TRUE(access_history_short_term(&history, 2));
  EXPECT_FALSE(access_history_short_term(&history, 4));
  access_history_written(&history, 2, 1, false);
  EXPECT_TRUE(access_history_short_term(&history, 2)) << "a program keeps the episode's read";
  EXPECT_FALSE(access_history_read_since_written(&history, 2));
  EXPECT_TRUE(access_history_read_since_written(&history, 1));
  access_history_rewritten(&history, 1, 2);
  EXPECT_TRUE(access_history_read_since_written(&history, 1)) << "a rewrite keeps it";
  EXPECT_EQ(access_history_page_type(&history, 1), 2u);
  access_history_new_episode(&history);
  for (uint32_t lpn : {1u, 2u, 3u}) EXPECT_FALSE(access_history_short_term(&history, lpn));
  EXPECT_EQ(access_history_reads(&history, 2), 2u) << "the long term stays";
  for (uint32_t lpn = 10; lpn < 20; ++lpn) access_history_read(&history, lpn);
  EXPECT_EQ(history.episode_log_length, 5u) << "one past the capacity marks the overflow";
  access_history_new_episode(&history);
  for (uint32_t lpn = 10; lpn < 20; ++lpn) EXPECT_FALSE(access_history_short_term(&history, lpn));
  EXPECT_EQ(history.episode_log_length, 0u);
}

// Positions 0-7 of a 2-plane QLC wordline: types 0 1 2 3 0 1 2 3.
std::vector<uint32_t> group(const std::vector<uint8_t>& actions, uint32_t count = 8) {
  std::vector<uint8_t> taken(actions.size());
  std::array<uint32_t, 8> position{};
  rl_group(actions.data(), static_cast<uint32_t>(actions.size()), count, taken.data(),
           position.data());
  return std::vector<uint32_t>(position.begin(), position.begin() + count);
}

TEST(RlGroup, EachTypeTakesItsOldestCandidateThenANeighbourThenTheOldestLeft) {
  // One plane (4 positions), the paper's Figure 7: no CMSB candidate; MSB (3) and CLSB (1) are
  // its neighbours, and the one nearer the tail goes: candidate 3 (CLSB), older than 4 (MSB).
  EXPECT_EQ(group({0, 1, 3, 1, 3}, 4), (std::vector<uint32_t>{0, 1, 3, 2}));
  // Every type present: the oldest of each, in page order.
  EXPECT_EQ(group({3, 2, 1, 0, 0, 1, 2, 3, 0}),
            (std::vector<uint32_t>{3, 2, 1, 0, 4, 5, 6, 7}));
  // All LSB: two take the LSB positions, two more the CLSB positions (neighbours), and CMSB
  // and MSB have no neighbouring candidate: the oldest left fill them in page order.
  EXPECT_EQ(group({0, 0, 0, 0, 0, 0, 0, 0, 0}),
            (std::vector<uint32_t>{0, 2, 4, 5, 1, 3, 6, 7}));
  // The oldest candidate always goes, even when younger ones share its type.
  const std::vector<uint32_t> choice = group({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2});
  EXPECT_NE(std::find(choice.begin(), choice.end(), 0u), choice.end());
  // A neighbour is one type away, not two: MSB candidates do not stand in for CLSB.
  EXPECT_EQ(group({3, 3, 3, 3}, 4), (std::vector<uint32_t>{2, 3, 1, 0}))
      << "CMSB takes an MSB neighbour; LSB and CLSB the oldest left";
}

// The rewrite triggers through the policies' interface, on a one-LPN story.
struct RewriteTest : ::testing::Test {
  nand_geometry_t geometry{1, 1, 1, 2, 8, 16, 4096, 64, 4};
  alignas(8) uint8_t meta[131072];
  alignas(8) uint8_t data[64 * 512];
  arena_t meta_arena, data_arena;
  block_manager_t blocks;
  write_buffer_t wb;
  boot_config_t boot{};
  fw_stats_t stats;

  void start(const grouping_policy_t& policy) {
    arena_init(&meta_arena, meta, sizeof meta, FW_STATS_LOCATION_SRAM);
    arena_init(&data_arena, data, sizeof data, FW_STATS_LOCATION_DRAM);
    metrics_init(&stats);
    constexpr uint32_t kCWDP = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                               BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;
    ASSERT_TRUE(block_init(&blocks, &geometry, true, kCWDP, BLOCK_BUILTIN_STREAMS, &meta_arena));
    ASSERT_TRUE(wb_init(&wb, 64, 512, false, &meta_arena, &data_arena));
    boot.ftl_fsp_window = 100;
    boot.ftl_fsp_rl_episode_steps = 8;  // one wordline per episode
    boot.ftl_fsp_rl_episode_log = 16;
    boot.ftl_fsp_rl_alpha = 0.3f;
    boot.ftl_fsp_rl_gamma = 0.8f;
    policy_listeners_reset();
    policy_env_t env{&boot, &meta_arena, nullptr, &blocks, &wb, 1024, 1024};
    ASSERT_TRUE(policy.init(&env));
    ASSERT_TRUE(policy_listen(policy.listener));
  }
  void TearDown() override { policy_listeners_reset(); }
  static void read(uint32_t lpn, bool from_buffer = false) {
    policy_event_t event{};
    event.kind = from_buffer ? POLICY_HOST_READ_HIT : POLICY_HOST_READ;
    event.lpn = lpn;
    policy_emit(&event);
  }
  // Writes eight pages and programs them as the policy groups them: a whole episode.
  void program_wordline(const grouping_policy_t& policy, uint32_t first_lpn) {
    for (uint32_t lpn = first_lpn; lpn < first_lpn + 8; ++lpn) {
      wb_filled(&wb, wb_write(&wb, lpn, 1, 0, nullptr));
    }
    grouping_choice_t choice;
    ASSERT_EQ(policy.select(&wb, 8, &choice), 8u);
    policy.committed(&wb, &choice);
    for (uint32_t i = 0; i < 8; ++i) {
      wb_start_program(&wb, choice.slots[i]);
      wb_programmed(&wb, choice.slots[i]);
      wb_release(&wb, choice.slots[i]);
    }
  }
};

TEST_F(RewriteTest, RlRewritesHotDataReadFromSlowPagesOnlyWhenItWasReadInThisEpisode) {
  start(grouping_policy_rl);
  for (int i = 0; i < 5; ++i) read(7, i % 2 == 0);
  EXPECT_FALSE(grouping_policy_rl.rewrite_wanted(7, 3)) << "5 reads: bin 2";
  read(7);
  EXPECT_TRUE(grouping_policy_rl.rewrite_wanted(7, 3)) << "6 reads, read in this episode";
  EXPECT_TRUE(grouping_policy_rl.rewrite_wanted(7, 2)) << "CMSB is slow too";
  EXPECT_FALSE(grouping_policy_rl.rewrite_wanted(7, 1)) << "CLSB is fast enough";
  EXPECT_FALSE(grouping_policy_rl.rewrite_wanted(7, 0));
  program_wordline(grouping_policy_rl, 100);  // the episode ends
  EXPECT_FALSE(grouping_policy_rl.rewrite_wanted(7, 3)) << "not read in the new episode";
  read(7);
  EXPECT_TRUE(grouping_policy_rl.rewrite_wanted(7, 3));
}

TEST_F(RewriteTest, FrequencyRewritesOnTheReadCountAlone) {
  start(grouping_policy_frequency);
  for (int i = 0; i < 5; ++i) read(7);
  EXPECT_FALSE(grouping_policy_frequency.rewrite_wanted(7, 3));
  read(7, true);
  EXPECT_TRUE(grouping_policy_frequency.rewrite_wanted(7, 3)) << "a buffer hit is a read too";
  EXPECT_FALSE(grouping_policy_frequency.rewrite_wanted(7, 1));
  EXPECT_EQ(grouping_policy_baseline.rewrite_wanted, nullptr);
  EXPECT_EQ(grouping_policy_distance.rewrite_wanted, nullptr);
}

TEST_F(RewriteTest, ARewriteEntersTheBufferDirtyAtTheEvictionEnd) {
  start(grouping_policy_rl);
  for (uint32_t lpn = 0; lpn < 4; ++lpn) wb_filled(&wb, wb_write(&wb, lpn, 1, 0, nullptr));
  const uint32_t slot = wb_rewrite(&wb, 50);
  ASSERT_NE(slot, WB_NONE);
  EXPECT_TRUE(wb_eligible(&wb, slot)) << "its data is in: not filling";
  EXPECT_EQ(wb.slots[slot].flags, WB_ENTRY_REWRITE);
  EXPECT_EQ(wb.counters.rewrites, 1u);
  grouping_choice_t choice;
  ASSERT_EQ(grouping_policy_baseline.select(&wb, 4, &choice), 4u);
  EXPECT_EQ(choice.slots[0], slot) << "the oldest";
  EXPECT_EQ(wb_rewrite(&wb, 2), WB_NONE) << "a buffered copy is newer";
}

}  // namespace
