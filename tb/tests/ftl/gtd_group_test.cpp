// Group-based allocation (firmware/ftl/gc/gtd_group.c, firmware/ftl/fsp/gtd_group.c): host
// wordlines hold one GTD-entry group's pages and go to its stream, and GC collects a whole group
// in LPN order: the one at its stripe limit, else the one holding more than its share with the
// most invalid pages (its emptiest stripe alone when the group's open stripe has room for it),
// or a stripe of another stream alone when that frees more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/fsp/grouping.h"
#include "ftl/gc/gtd_group.h"
#include "ftl/gc/victim.h"
#include "ftl/policy.h"
#include "ftl/write_buffer.h"
#include "lib/metrics.h"
}

namespace {

constexpr uint32_t kCWDP = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                           BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;
// A TP maps 4 LPNs and a group holds 2 TPs: 8 LPNs, half a stripe of 16 pages (its share: 1).
constexpr uint32_t kEntriesPerTp = 4;
constexpr uint32_t kLpns = 64;  // 8 groups
constexpr uint32_t kSlots = 32;

struct GtdGroupTest : ::testing::Test {
  // 2 units (channels) x 48 blocks of 8 pages (4 two-bit wordlines): 48 stripes of 16 pages.
  nand_geometry_t geometry{2, 1, 1, 1, 48, 8, 4096, 64, 2};
  alignas(8) uint8_t meta[131072];
  alignas(8) uint8_t data[kSlots * 512];
  arena_t meta_arena, data_arena;
  block_manager_t blocks;
  write_buffer_t wb;
  boot_config_t boot{};
  fw_stats_t stats{};

  void start(uint32_t spare_stripes, uint32_t lone_stripe = BOOT_GTD_LONE_EMPTY) {
    arena_init(&meta_arena, meta, sizeof meta, FW_STATS_LOCATION_SRAM);
    arena_init(&data_arena, data, sizeof data, FW_STATS_LOCATION_DRAM);
    ASSERT_TRUE(block_init(&blocks, &geometry, false, kCWDP, BLOCK_BUILTIN_STREAMS + 8,
                           &meta_arena));
    ASSERT_TRUE(wb_init(&wb, kSlots, 512, false, &meta_arena, &data_arena));
    boot.ftl_gtd_group_tps = 2;
    boot.ftl_gtd_group_spare_stripes = spare_stripes;
    boot.ftl_gtd_group_lone_stripe = lone_stripe;
    policy_listeners_reset();
    metrics_init(&stats);
    policy_env_t env{&boot, &meta_arena, nullptr, &blocks, &wb, kLpns, kEntriesPerTp};
    ASSERT_TRUE(victim_policy_gtd_group.init(&env));
    ASSERT_TRUE(policy_listen(victim_policy_gtd_group.listener));
    ASSERT_TRUE(grouping_policy_gtd_group.init(&env)) << "the second policy shares the groups";
    ASSERT_EQ(gtd_groups.count, 8u);
    ASSERT_EQ(gtd_groups.share, 1u);
    ASSERT_EQ(blocks.stream_count, BLOCK_BUILTIN_STREAMS + 8) << "streams added once";
  }
  void TearDown() override { policy_listeners_reset(); }

  uint32_t stream(uint32_t group) const { return gtd_groups.first_stream + group; }

  // Takes `programs` programs of the stream (valid, settled); answers the stripe of the last.
  uint32_t program(uint32_t stream_id, uint32_t programs) {
    uint32_t vpn = BLOCK_NONE;
    for (uint32_t p = 0; p < programs; ++p) {
      vpn = block_alloc_wordline(&blocks, stream_id, 0);
      EXPECT_NE(vpn, BLOCK_NONE);
      for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
        block_page_validate(&blocks, vpn + i);
        block_page_settled(&blocks, vpn + i);
      }
    }
    return block_stripe_of(&blocks, vpn);
  }
  // Invalidates `count` valid pages of a stripe.
  void invalidate(uint32_t stripe, uint32_t count) {
    for (uint32_t p = 0; p < blocks.stripe_pages && count > 0; ++p) {
      const uint32_t vpn = stripe * blocks.stripe_pages + p;
      if (block_page_valid(&blocks, vpn)) {
        block_page_invalidate(&blocks, vpn);
        --count;
      }
    }
  }
  bool select(victim_choice_t& choice) {
    choice = victim_choice_t{};
    choice.stream = BLOCK_STREAM_GC;
    return victim_policy_gtd_group.select(&blocks, &choice);
  }
};

// Each wordline is one group's oldest eligible pages, the first group to have a whole wordline
// of them (else the most), to the group's stream; a group being collected waits.
TEST_F(GtdGroupTest, EachWordlineHoldsOneGroupsPagesAndGoesToItsStream) {
  ASSERT_NO_FATAL_FAILURE(start(4));
  std::mt19937 rng(5);
  for (uint32_t round = 0; round < 200; ++round) {
    while (wb.free_count > 0) {
      const uint32_t lpn = rng() % kLpns;
      const uint32_t slot = wb_write(&wb, lpn, 1, 0, nullptr);
      if (slot == WB_NONE) break;
      wb_filled(&wb, slot);
    }
    std::vector<uint32_t> per_group(gtd_groups.count, 0);
    uint32_t first_best = gtd_groups.count;
    for (const list_node_t* node = wb.dirty_lru.prev; node != &wb.dirty_lru; node = node->prev) {
      const wb_slot_t* slot = LIST_ENTRY(node, wb_slot_t, link);
      if (!wb_eligible(&wb, static_cast<uint32_t>(slot - wb.slots))) continue;
      ++per_group[slot->lpn / 8];
    }
    // A wordline is 2 pages: the first group, oldest page first, to have 2 eligible, else the
    // first to reach the most.
    const uint32_t most =
        std::min<uint32_t>(2, *std::max_element(per_group.begin(), per_group.end()));
    std::vector<uint32_t> running(gtd_groups.count, 0);
    for (const list_node_t* node = wb.dirty_lru.prev; node != &wb.dirty_lru; node = node->prev) {
      const wb_slot_t* slot = LIST_ENTRY(node, wb_slot_t, link);
      if (!wb_eligible(&wb, static_cast<uint32_t>(slot - wb.slots))) continue;
      if (++running[slot->lpn / 8] == most && first_best == gtd_groups.count) {
        first_best = slot->lpn / 8;
      }
    }
    grouping_choice_t choice{};
    choice.stream = BLOCK_STREAM_HOST;
    const uint32_t count = grouping_policy_gtd_group.select(&wb, 2, &choice);
    ASSERT_EQ(count, most);
    ASSERT_EQ(choice.stream, stream(first_best));
    for (uint32_t i = 0; i < count; ++i) {
      EXPECT_EQ(wb.slots[choice.slots[i]].lpn / 8, first_best);
    }
    for (uint32_t i = 0; i < count; ++i) {
      wb_start_program(&wb, choice.slots[i]);
      wb_programmed(&wb, choice.slots[i]);
      wb_release(&wb, choice.slots[i]);
    }
  }
  // A group being collected takes no host programs.
  gtd_groups.collecting[3] = 1;
  for (uint32_t round = 0; round < 50; ++round) {
    grouping_choice_t choice{};
    const uint32_t count = grouping_policy_gtd_group.select(&wb, 2, &choice);
    for (uint32_t i = 0; i < count; ++i) EXPECT_NE(wb.slots[choice.slots[i]].lpn / 8, 3u);
    for (uint32_t i = 0; i < count; ++i) {
      wb_start_program(&wb, choice.slots[i]);
      wb_programmed(&wb, choice.slots[i]);
      wb_release(&wb, choice.slots[i]);
    }
  }
  gtd_groups.collecting[3] = 0;
}

// Groups 1 and 2 each hold two stripes (more than their share of one); group 2's hold more
// invalid pages, and its open stripe has no room for the 10 valid pages of its full one
// (ftl.gtd_group.lone_stripe: fits): GC
// closes the open stripe and collects both its stripes, fewest valid first, in LPN order over its
// two TPs. Group 5, within its share, is never chosen, however many invalid pages it holds.
TEST_F(GtdGroupTest, CollectsTheGroupOverItsShareWithTheMostInvalidPagesWholeInLpnOrder) {
  ASSERT_NO_FATAL_FAILURE(start(4, BOOT_GTD_LONE_FITS));
  const uint32_t programs = blocks.programs_per_stripe;
  const uint32_t g1_full = program(stream(1), programs);
  const uint32_t g1_open = program(stream(1), 2);
  const uint32_t g2_full = program(stream(2), programs);
  const uint32_t g2_open = program(stream(2), 4);
  const uint32_t g5_full = program(stream(5), programs);
  invalidate(g1_full, 4);
  invalidate(g2_full, 6);
  invalidate(g5_full, 14);
  ASSERT_EQ(gtd_groups.stripes[1], 2u);
  ASSERT_EQ(gtd_groups.stripes[5], 1u);
  victim_choice_t choice;
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(2));
  EXPECT_EQ(choice.first_tp, 4u);
  EXPECT_EQ(choice.tp_count, 2u);
  ASSERT_EQ(choice.count, 2u);
  // The open stripe (8 valid) was closed and comes first: fewer valid pages than the full one's 10.
  EXPECT_EQ(choice.stripes[0], g2_open);
  EXPECT_EQ(choice.stripes[1], g2_full);
  EXPECT_EQ(blocks.stripes[g2_open].state, BLOCK_FULL);
  EXPECT_EQ(blocks.streams[stream(2)].open_stripe, BLOCK_NONE);
  EXPECT_EQ(blocks.streams[stream(1)].open_stripe, g1_open) << "only the chosen group closes";
  EXPECT_EQ(gtd_groups.collecting[2], 2u);
  // Chosen once: the next choice is group 1, whose open stripe has room for the 12 valid pages of
  // its full one: that stripe alone, in LPN order over the group's TPs; group 5 never.
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(1));
  ASSERT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stripes[0], g1_full);
  EXPECT_EQ(choice.first_tp, 2u);
  EXPECT_EQ(choice.tp_count, 2u);
  EXPECT_EQ(blocks.streams[stream(1)].open_stripe, g1_open) << "the stripe it fills stays open";
  EXPECT_EQ(gtd_groups.collections, 1u);
  EXPECT_EQ(gtd_groups.stripe_collections, 1u);
  EXPECT_EQ(gtd_groups.collecting[1], 1u);
  EXPECT_FALSE(select(choice)) << "group 5 holds its share only: collecting it frees nothing";
  // Group 2's stripes erased: no longer being collected.
  for (uint32_t stripe : {g2_open, g2_full}) {
    block_mark_victim(&blocks, stripe);
    invalidate(stripe, blocks.stripe_pages);
    for (uint32_t position = 0; position < blocks.unit_count; ++position) {
      block_member_erased(&blocks, stripe, position, true);
    }
    block_stripe_erased(&blocks, stripe);
  }
  EXPECT_EQ(gtd_groups.collecting[2], 0u);
  EXPECT_EQ(gtd_groups.stripes[2], 0u);
}

// A group over its share frees a stripe even when none of its pages is invalid (a stripe closed
// early by its last collection holds only valid pages, and unwritten ones): it is still chosen,
// whole when its open stripe has no room for the closed one's pages, else (lone_stripe: fits)
// that stripe alone.
TEST_F(GtdGroupTest, AGroupOverItsShareIsCollectedWithNoInvalidPage) {
  ASSERT_NO_FATAL_FAILURE(start(4, BOOT_GTD_LONE_FITS));
  const uint32_t closed = program(stream(3), 5);
  block_stream_close(&blocks, stream(3));
  const uint32_t open = program(stream(3), 4);
  ASSERT_EQ(gtd_groups.stripes[3], 2u);
  victim_choice_t choice;
  ASSERT_TRUE(select(choice)) << "collecting group 3's stripes frees one";
  EXPECT_EQ(choice.stream, stream(3));
  EXPECT_EQ(choice.count, 2u);
  EXPECT_EQ(choice.stripes[0], open);
  EXPECT_EQ(choice.stripes[1], closed);
  EXPECT_EQ(choice.tp_count, 2u);

  const uint32_t small = program(stream(4), 2);
  block_stream_close(&blocks, stream(4));
  program(stream(4), 1);
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(4));
  ASSERT_EQ(choice.count, 1u) << "its 4 pages fit in the open stripe's 14";
  EXPECT_EQ(choice.stripes[0], small);
  EXPECT_EQ(choice.tp_count, 2u);
}

// lone_stripe fits: the room the open stripe has counts its pages still in flight (programs not
// yet mapped): they are the host's rewrites of pages the full stripe holds. A stripe the host has
// wholly rewritten goes alone at no cost, whatever the room.
TEST_F(GtdGroupTest, TheOpenStripesPagesInFlightCountAsRoom) {
  ASSERT_NO_FATAL_FAILURE(start(4, BOOT_GTD_LONE_FITS));
  const uint32_t programs = blocks.programs_per_stripe;
  const uint32_t full = program(stream(2), programs);
  const uint32_t open = program(stream(2), 3);  // 6 pages mapped
  for (uint32_t p = 0; p < 2; ++p) {            // 4 more allocated, not yet mapped
    ASSERT_NE(block_alloc_wordline(&blocks, stream(2), 0), BLOCK_NONE);
  }
  ASSERT_EQ(blocks.stripes[open].unsettled_pages, 4u);
  invalidate(full, 6);  // 10 valid: more than the 6 pages unallocated, not than 6 + 4
  victim_choice_t choice;
  ASSERT_TRUE(select(choice));
  ASSERT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stripes[0], full);
  EXPECT_EQ(choice.stream, stream(2));

  const uint32_t rewritten = program(stream(6), programs);
  invalidate(rewritten, blocks.stripe_pages);
  block_stream_close(&blocks, stream(6));
  const uint32_t second = program(stream(6), programs);  // full: the stream has no open stripe
  ASSERT_EQ(blocks.streams[stream(6)].open_stripe, BLOCK_NONE);
  ASSERT_NE(second, rewritten);
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(6));
  ASSERT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stripes[0], rewritten);
}

// lone_stripe empty (the paper's whole groups): a stripe the host has wholly rewritten is
// collected alone, moving nothing; one with a valid page left takes its whole group, however much
// room the open stripe has.
TEST_F(GtdGroupTest, OnlyAStripeWithNoValidPageGoesAloneByDefault) {
  ASSERT_NO_FATAL_FAILURE(start(4));
  const uint32_t programs = blocks.programs_per_stripe;
  const uint32_t rewritten = program(stream(3), programs);
  invalidate(rewritten, blocks.stripe_pages);
  program(stream(3), 2);
  const uint32_t nearly = program(stream(5), programs);
  invalidate(nearly, blocks.stripe_pages - 1);
  const uint32_t open = program(stream(5), 1);
  victim_choice_t choice;
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(3));
  ASSERT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stripes[0], rewritten);
  EXPECT_EQ(gtd_groups.stripe_collections, 1u);
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(5));
  ASSERT_EQ(choice.count, 2u) << "its 1 valid page does not go alone";
  EXPECT_EQ(choice.stripes[0], nearly);
  EXPECT_EQ(choice.stripes[1], open);
  EXPECT_EQ(gtd_groups.collections, 1u);
}

// A group reaching its share plus ftl.gtd_group.spare_stripes is due whatever the pools say,
// and collected before a group with more invalid pages.
TEST_F(GtdGroupTest, AGroupAtItsStripeLimitIsDueAndCollectedFirst) {
  ASSERT_NO_FATAL_FAILURE(start(2));  // limit: 1 + 2 stripes
  const uint32_t programs = blocks.programs_per_stripe;
  program(stream(6), programs);
  program(stream(6), programs);
  const uint32_t busy = program(stream(0), programs);
  program(stream(0), 1);
  invalidate(busy, 12);
  EXPECT_FALSE(victim_policy_gtd_group.due(&blocks));
  program(stream(6), 1);  // its third stripe
  EXPECT_TRUE(victim_policy_gtd_group.due(&blocks));
  victim_choice_t choice;
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.stream, stream(6));
  EXPECT_EQ(choice.count, 3u);
  EXPECT_FALSE(victim_policy_gtd_group.due(&blocks)) << "no longer due while collected";
}

// A translation stripe holding more invalid pages than any group is collected alone, in VPN
// order, to where GC sent it.
TEST_F(GtdGroupTest, AStripeOfAnotherStreamFreeingMoreIsCollectedAlone) {
  ASSERT_NO_FATAL_FAILURE(start(4));
  const uint32_t programs = blocks.programs_per_stripe;
  const uint32_t tps = program(BLOCK_STREAM_TRANSLATION, programs);
  invalidate(tps, 15);
  const uint32_t full = program(stream(4), programs);
  program(stream(4), 1);
  invalidate(full, 3);
  victim_choice_t choice;
  ASSERT_TRUE(select(choice));
  EXPECT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stripes[0], tps);
  EXPECT_EQ(choice.stream, static_cast<uint32_t>(BLOCK_STREAM_GC));
  EXPECT_EQ(choice.tp_count, 0u);
}

}  // namespace
