// Page-type-aware grouping (firmware/ftl/fsp/): the access history's encoding, and the
// frequency and distance policies against reference models of their choice, written here from
// their definitions over the buffer's LRU order, on random buffer states.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/fsp/access_history.h"
#include "ftl/fsp/grouping.h"
#include "ftl/policy.h"
#include "ftl/write_buffer.h"
}

namespace {

constexpr uint32_t kCWDP = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                           BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;
constexpr uint32_t kLpns = 4096;
constexpr uint32_t kSlots = 64;

TEST(AccessHistory, ReadsSaturateTheBinsFollowAndWritesKeepTheReads) {
  alignas(8) static uint8_t memory[kLpns + 64];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_DRAM);
  access_history_t history;
  ASSERT_TRUE(access_history_init(&history, kLpns, 0, &arena));
  const uint32_t expected_bins[] = {0, 0, 1, 1, 2, 2, 3, 3, 3, 3};
  for (uint32_t reads = 0; reads < 10; ++reads) {
    EXPECT_EQ(access_history_reads(&history, 7), std::min(reads, ACCESS_HISTORY_MAX_READS));
    EXPECT_EQ(access_history_read_bin(&history, 7), expected_bins[reads]) << reads;
    access_history_read(&history, 7);
  }
  EXPECT_EQ(access_history_page_type(&history, 7), 0u) << "never written: LSB";
  EXPECT_FALSE(access_history_small(&history, 7));
  access_history_written(&history, 7, 3, true);
  EXPECT_EQ(access_history_page_type(&history, 7), 3u);
  EXPECT_TRUE(access_history_small(&history, 7));
  EXPECT_EQ(access_history_reads(&history, 7), ACCESS_HISTORY_MAX_READS);
  access_history_written(&history, 7, 1, false);
  EXPECT_EQ(access_history_page_type(&history, 7), 1u);
  EXPECT_FALSE(access_history_small(&history, 7));
  EXPECT_EQ(access_history_reads(&history, 8), 0u) << "its neighbour is untouched";
  EXPECT_FALSE(access_history_init(&history, kLpns, 0, &arena)) << "no room for a second";
}

struct GroupingTest : ::testing::Test {
  // QLC, 2 planes with multi-plane: a program is 8 pages, plane-major (positions 0-3 plane 0).
  nand_geometry_t geometry{1, 1, 1, 2, 8, 16, 4096, 64, 4};
  alignas(8) uint8_t meta[65536];
  alignas(8) uint8_t data[kSlots * 512];
  arena_t meta_arena, data_arena;
  block_manager_t blocks;
  write_buffer_t wb;
  boot_config_t boot{};
  std::mt19937 rng{11};
  std::vector<uint32_t> reads = std::vector<uint32_t>(kLpns, 0);

  void start(const grouping_policy_t& policy, uint32_t window_percent) {
    arena_init(&meta_arena, meta, sizeof meta, FW_STATS_LOCATION_SRAM);
    arena_init(&data_arena, data, sizeof data, FW_STATS_LOCATION_DRAM);
    ASSERT_TRUE(block_init(&blocks, &geometry, true, kCWDP, BLOCK_BUILTIN_STREAMS, &meta_arena));
    ASSERT_TRUE(wb_init(&wb, kSlots, 512, false, &meta_arena, &data_arena));
    boot.ftl_fsp_window = window_percent;
    policy_listeners_reset();
    policy_env_t env{&boot, &meta_arena, nullptr, &blocks, &wb, kLpns, 1024};
    ASSERT_TRUE(policy.init(&env));
    if (policy.listener != nullptr) {
      ASSERT_TRUE(policy_listen(policy.listener));
    }
  }
  void TearDown() override { policy_listeners_reset(); }
  void host_read(uint32_t lpn) {
    policy_event_t event{};
    event.kind = POLICY_HOST_READ;
    event.lpn = lpn;
    policy_emit(&event);
    ++reads[lpn];
  }
  // Random writes (some still filling), reads of a hot few, some programs taken out.
  void churn(uint32_t steps) {
    std::uniform_int_distribution<uint32_t> any(0, kLpns - 1), hot(0, 63), percent(0, 99);
    for (uint32_t s = 0; s < steps; ++s) {
      const uint32_t roll = percent(rng);
      if (roll < 50 && wb.free_count > 0) {
        const uint32_t lpn = percent(rng) < 30 ? hot(rng) : any(rng);
        const uint32_t slot = wb_write(&wb, lpn, 1, 0, nullptr);
        if (slot != WB_NONE && percent(rng) < 90) wb_filled(&wb, slot);
      } else if (roll < 80) {
        host_read(percent(rng) < 70 ? hot(rng) : any(rng));
      } else if (wb.dirty_count > 40) {
        // The baseline takes the oldest out, as a program would.
        grouping_choice_t choice;
        const uint32_t n = grouping_policy_baseline.select(&wb, 8, &choice);
        for (uint32_t i = 0; i < n; ++i) {
          wb_start_program(&wb, choice.slots[i]);
          wb_programmed(&wb, choice.slots[i]);
          wb_release(&wb, choice.slots[i]);
        }
      }
    }
  }
  // The window by the reference: eligible dirty slots, least recently written first.
  std::vector<uint32_t> window(uint32_t percent) const {
    std::vector<uint32_t> dirty;
    for (uint32_t slot = 0; slot < kSlots; ++slot)
      if (wb_eligible(&wb, slot)) dirty.push_back(slot);
    std::sort(dirty.begin(), dirty.end(), [&](uint32_t a, uint32_t b) {
      return wb.slots[a].last_access < wb.slots[b].last_access;
    });
    dirty.resize(std::min<size_t>(dirty.size(), std::max<uint32_t>(8, kSlots * percent / 100)));
    return dirty;
  }
  static void fill_rest(std::vector<uint32_t>& chosen, const std::vector<uint32_t>& candidates,
                        std::vector<bool>& taken) {
    for (uint32_t& position : chosen) {
      if (position != WB_NONE) continue;
      const size_t next = std::find(taken.begin(), taken.end(), false) - taken.begin();
      taken[next] = true;
      position = candidates[next];
    }
  }
  std::vector<uint32_t> frequency_reference(uint32_t percent) const {
    const std::vector<uint32_t> candidates = window(percent);
    if (candidates.size() < 8) return candidates;
    std::vector<uint32_t> chosen(8, WB_NONE);
    std::vector<bool> taken(candidates.size(), false);
    for (size_t i = 0; i < candidates.size(); ++i) {
      const uint32_t r = std::min(reads[wb.slots[candidates[i]].lpn], 7u);
      const uint32_t type = 3 - (r > 5 ? 3 : r / 2);  // > 5 reads LSB ... 0-1 MSB
      for (uint32_t position = type; position < 8; position += 4) {
        if (chosen[position] == WB_NONE) {
          chosen[position] = candidates[i];
          taken[i] = true;
          break;
        }
      }
    }
    fill_rest(chosen, candidates, taken);
    return chosen;
  }
  std::vector<uint32_t> distance_reference(uint32_t percent) const {
    const std::vector<uint32_t> candidates = window(percent);
    if (candidates.size() < 8) return candidates;
    std::vector<uint32_t> chosen;
    std::vector<bool> taken(candidates.size(), false);
    for (size_t i = 0; i < candidates.size() && chosen.size() < 8; ++i) {
      const int64_t lpn = wb.slots[candidates[i]].lpn;
      const bool far = std::all_of(chosen.begin(), chosen.end(), [&](uint32_t slot) {
        return std::llabs(lpn - int64_t{wb.slots[slot].lpn}) > kSlots / 2;
      });
      if (far) {
        chosen.push_back(candidates[i]);
        taken[i] = true;
      }
    }
    chosen.resize(8, WB_NONE);
    fill_rest(chosen, candidates, taken);
    return chosen;
  }
  std::vector<uint32_t> select(const grouping_policy_t& policy) {
    grouping_choice_t choice;
    choice.stream = BLOCK_STREAM_HOST;
    const uint32_t n = policy.select(&wb, 8, &choice);
    EXPECT_EQ(choice.positions, n) << "no filler between the slots";
    return std::vector<uint32_t>(choice.slots, choice.slots + choice.positions);
  }
};

TEST_F(GroupingTest, FrequencyPutsTheMostReadPagesOnTheFastestTypesAsTheReferenceDoes) {
  for (uint32_t percent : {5u, 25u, 100u}) {
    start(grouping_policy_frequency, percent);
    std::fill(reads.begin(), reads.end(), 0);
    uint32_t full = 0, hot_on_lsb = 0;
    for (int round = 0; round < 400; ++round) {
      churn(5);
      const std::vector<uint32_t> chosen = select(grouping_policy_frequency);
      ASSERT_EQ(chosen, frequency_reference(percent)) << "window " << percent << "% round "
                                                      << round;
      if (chosen.size() == 8) {
        ++full;
        hot_on_lsb += reads[wb.slots[chosen[0]].lpn] > 5;
      }
    }
    EXPECT_GT(full, 100u) << percent;
    if (percent == 100) {
      EXPECT_GT(hot_on_lsb, 10u) << "read-hot pages reach LSB positions";
    }
  }
}

TEST_F(GroupingTest, DistanceSpreadsLpnsAsTheReferenceDoes) {
  for (uint32_t percent : {5u, 50u}) {
    start(grouping_policy_distance, percent);
    uint32_t full = 0;
    for (int round = 0; round < 400; ++round) {
      churn(5);
      const std::vector<uint32_t> chosen = select(grouping_policy_distance);
      ASSERT_EQ(chosen, distance_reference(percent)) << "window " << percent << "% round "
                                                     << round;
      full += chosen.size() == 8;
    }
    EXPECT_GT(full, 100u) << percent;
  }
}

TEST_F(GroupingTest, FrequencyPlacesByReadsAndTheOldestAlwaysGoes) {
  start(grouping_policy_frequency, 100);
  for (uint32_t lpn = 100; lpn < 110; ++lpn) {
    wb_filled(&wb, wb_write(&wb, lpn, 1, 0, nullptr));
  }
  for (int i = 0; i < 6; ++i) host_read(109);  // the newest page, six reads: LSB
  for (int i = 0; i < 4; ++i) host_read(108);  // four reads: CLSB
  for (int i = 0; i < 2; ++i) host_read(107);  // two: CMSB
  grouping_choice_t choice;
  ASSERT_EQ(grouping_policy_frequency.select(&wb, 8, &choice), 8u);
  std::vector<uint32_t> lpns;
  for (uint32_t position = 0; position < 8; ++position) {
    lpns.push_back(wb.slots[choice.slots[position]].lpn);
  }
  // Plane 0: LSB 109, CLSB 108, CMSB 107, MSB the oldest (100); plane 1's MSB the next unread
  // (101); the rest the oldest left, in order.
  EXPECT_EQ(lpns, (std::vector<uint32_t>{109, 108, 107, 100, 102, 103, 104, 101}));
}

}  // namespace
