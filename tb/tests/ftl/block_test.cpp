#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/gc/victim.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "lib/metrics.h"
}

namespace {

constexpr uint32_t order_of(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3) {
  return l0 | l1 << 2 | l2 << 4 | l3 << 6;
}
constexpr uint32_t kCWDP = order_of(BOOT_ALLOC_LEVEL_CHANNEL, BOOT_ALLOC_LEVEL_WAY,
                                    BOOT_ALLOC_LEVEL_DIE, BOOT_ALLOC_LEVEL_PLANE);
constexpr uint32_t kPDWC = order_of(BOOT_ALLOC_LEVEL_PLANE, BOOT_ALLOC_LEVEL_DIE,
                                    BOOT_ALLOC_LEVEL_WAY, BOOT_ALLOC_LEVEL_CHANNEL);

struct BlockTest : ::testing::Test {
  nand_geometry_t geometry{2, 2, 1, 2, 4, 8, 4096, 64, 2};  // 8 planes, 4 wordlines per block
  alignas(8) uint8_t memory[16384];
  arena_t arena;
  block_manager_t blocks;
  void SetUp() override { arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM); }
  void init(bool multi_plane, uint32_t order) {
    ASSERT_TRUE(block_init(&blocks, &geometry, multi_plane, order, &arena));
  }
  uint32_t ppn(uint32_t channel, uint32_t way, uint32_t plane, uint32_t block, uint32_t page) {
    nand_address_t a{channel, way, 0, plane, block, page};
    return nand_ppn(&geometry, &a);
  }
};

TEST_F(BlockTest, OrderMustNameEachLevelOnce) {
  EXPECT_TRUE(block_order_valid(kCWDP));
  EXPECT_TRUE(block_order_valid(kPDWC));
  EXPECT_FALSE(block_order_valid(order_of(0, 0, 2, 3)));
  EXPECT_FALSE(block_order_valid(kCWDP | 1u << 8));
}

TEST_F(BlockTest, CwdpStripesChannelsFirstThenWaysThenPlanes) {
  init(false, kCWDP);
  EXPECT_EQ(blocks.unit_count, 8u);
  std::vector<uint32_t> expected = {ppn(0, 0, 0, 0, 0), ppn(1, 0, 0, 0, 0), ppn(0, 1, 0, 0, 0),
                                    ppn(1, 1, 0, 0, 0), ppn(0, 0, 1, 0, 0), ppn(1, 0, 1, 0, 0),
                                    ppn(0, 1, 1, 0, 0), ppn(1, 1, 1, 0, 0),
                                    // second round: wordline 1 = page bits_per_cell
                                    ppn(0, 0, 0, 0, 2)};
  for (uint32_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), expected[i]) << i;
  }
}

TEST_F(BlockTest, PdwcStripesPlanesFirstAndStreamsUseSeparateBlocks) {
  init(false, kPDWC);
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 1, 0, 0));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 1, 0, 0, 0));
  // GC and translation pages each keep one open block, opened in the unit with the most free
  // blocks (the first such unit): units 0-2 gave a block to the host.
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 1, 1, 0, 0));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0), ppn(1, 0, 0, 0, 0));
  // Their next wordlines stay in those blocks instead of striping.
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 1, 1, 0, 2));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0), ppn(1, 0, 0, 0, 2));
  EXPECT_EQ(blocks.groups[block_group_of(&blocks, ppn(0, 1, 1, 0, 0))].stream, BLOCK_STREAM_GC);
  EXPECT_EQ(block_max_open_groups(&blocks), 8u + 2u);
  EXPECT_EQ(block_free_groups(&blocks), 8u * 4u - 5u);
  EXPECT_EQ(block_min_free(&blocks), 3u);
  // A stream that needs a new block and finds every unit at keep_free gets none.
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 1, 1, 0, 4));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 1, 1, 0, 6));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 4), BLOCK_NONE);
}

TEST_F(BlockTest, GroupsFillAndDynamicWearLevellingTakesTheLeastWorn) {
  init(false, kCWDP);
  // Use only unit 0 by allocating a full round each time and keeping unit 0's results.
  auto next_on_unit0 = [&] {
    uint32_t first = block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
    for (uint32_t i = 1; i < blocks.unit_count; ++i) block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
    return first;
  };
  for (uint32_t wl = 0; wl < 4; ++wl) EXPECT_EQ(next_on_unit0(), ppn(0, 0, 0, 0, wl * 2));
  uint32_t group0 = block_group_of(&blocks, ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(blocks.groups[group0].state, BLOCK_FULL);
  EXPECT_EQ(blocks.groups[group0].unsettled_pages, 8u);
  EXPECT_FALSE(block_collectable(&blocks, group0));
  for (uint32_t page = 0; page < 8; ++page) block_page_settled(&blocks, ppn(0, 0, 0, 0, page));
  EXPECT_TRUE(block_collectable(&blocks, group0));
  // Wear blocks 1 and 2 so block 3 is the least worn after block 0 is erased twice.
  for (uint32_t b = 1; b <= 2; ++b) {
    uint32_t g = block_group_of(&blocks, ppn(0, 0, 0, b, 0));
    for (int i = 0; i < 3; ++i) block_erased(&blocks, g), blocks.free_count[0]--;
  }
  block_mark_victim(&blocks, group0);
  block_erased(&blocks, group0);
  block_mark_victim(&blocks, group0);
  blocks.free_count[0]--;
  block_erased(&blocks, group0);
  EXPECT_EQ(blocks.groups[group0].erase_count, 2u);
  EXPECT_EQ(next_on_unit0(), ppn(0, 0, 0, 3, 0));  // 0 erases
  block_wear_t wear = block_wear(&blocks);
  EXPECT_EQ(wear.min, 0u);
  EXPECT_EQ(wear.max, 3u);
  EXPECT_EQ(wear.sum, 2u + 3u + 3u);
  EXPECT_EQ(wear.groups, 32u);
}

TEST_F(BlockTest, GcOpensTheMostWornFreeGroupWhenAskedAndTheLeastWornOtherwise) {
  nand_geometry_t one_unit{1, 1, 1, 1, 4, 8, 4096, 64, 2};
  geometry = one_unit;
  init(false, kCWDP);
  const uint32_t erases[4] = {3, 7, 1, 7};
  for (uint32_t b = 0; b < 4; ++b) blocks.groups[b].erase_count = erases[b];
  // Cold data (a wear-levelling batch) goes to the most-worn group, the first of equals.
  blocks.gc_opens_most_worn = true;
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 0, 0, 1, 0));
  // The choice matters only to the GC stream, and only when it opens a group.
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0), ppn(0, 0, 0, 2, 0));
  blocks.gc_opens_most_worn = false;
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 0, 0, 1, 2));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 0, 0, 0));
}

TEST_F(BlockTest, GcOpensAFreeGroupThatLagsBeyondTheStaticSpreadInAnyUnit) {
  nand_geometry_t two_units{2, 1, 1, 1, 4, 8, 4096, 64, 2};
  geometry = two_units;
  init(false, kCWDP);
  ASSERT_EQ(blocks.unit_count, 2u);
  // Unit 0 is down to two free groups, one of them the youngest of all; unit 1 has four.
  const uint32_t erases[8] = {9, 9, 5, 2, 4, 4, 4, 4};
  for (uint32_t g = 0; g < 8; ++g) blocks.groups[g].erase_count = erases[g];
  for (uint32_t g = 0; g < 2; ++g) blocks.groups[g].state = BLOCK_FULL;
  blocks.free_count[0] -= 2;
  blocks.free_total -= 2;
  // Group 3 lags the most worn (9) by 7: not beyond a spread of 7, so GC keeps the pools even.
  blocks.wl_static_spread = 7;
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(1, 0, 0, 0, 0));
  blocks.single_open[BLOCK_STREAM_GC] = BLOCK_NONE;  // as if that group had filled
  // Beyond a spread of 6 it is GC's next group, though its unit has fewer free groups.
  blocks.wl_static_spread = 6;
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0), ppn(0, 0, 0, 3, 0));
  // Only the GC stream takes it; the others open in the unit with the most free groups.
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0), ppn(1, 0, 0, 1, 0));
}

TEST_F(BlockTest, ValidityCountsAndEraseClears) {
  init(false, kCWDP);
  uint32_t first = block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
  uint32_t group = block_group_of(&blocks, first);
  block_page_validate(&blocks, first);
  block_page_validate(&blocks, first + 1);
  block_page_validate(&blocks, first + 1);  // idempotent
  EXPECT_EQ(blocks.groups[group].valid_pages, 2u);
  block_page_invalidate(&blocks, first);
  block_page_invalidate(&blocks, first);
  EXPECT_EQ(blocks.groups[group].valid_pages, 1u);
  EXPECT_FALSE(block_page_valid(&blocks, first));
  EXPECT_TRUE(block_page_valid(&blocks, first + 1));
  block_page_invalidate(&blocks, first + 1);
  block_mark_victim(&blocks, group);
  block_erased(&blocks, group);
  EXPECT_EQ(blocks.groups[group].state, BLOCK_FREE);
  EXPECT_EQ(blocks.groups[group].erase_count, 1u);
}

TEST_F(BlockTest, EachStreamCountsTheGroupsItOpenedUntilErasedOrRetired) {
  init(false, kCWDP);
  // A host wordline on each of two units, two GC wordlines in one group, one TP wordline.
  const uint32_t host = block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
  block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
  const uint32_t gc = block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0);
  block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0);
  block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0);
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_HOST], 2u);
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_GC], 1u);
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_TRANSLATION], 1u);
  EXPECT_EQ(blocks.free_total, blocks.group_count - 4u);
  block_mark_victim(&blocks, block_group_of(&blocks, host));
  block_erased(&blocks, block_group_of(&blocks, host));
  block_retire(&blocks, block_group_of(&blocks, gc));
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_HOST], 1u);
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_GC], 0u);
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_TRANSLATION], 1u);
  // Retiring a free group takes nothing from the streams.
  block_retire(&blocks, block_group_of(&blocks, host));
  EXPECT_EQ(blocks.stream_groups[BLOCK_STREAM_HOST], 1u);
}

TEST_F(BlockTest, MultiPlaneGroupsSpanTheDiesPlanes) {
  init(true, kCWDP);
  EXPECT_EQ(blocks.unit_count, 4u);
  EXPECT_EQ(blocks.pages_per_wordline_unit, 4u);
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(1, 0, 0, 0, 0));
  // Plane 1 of a die belongs to the same group as plane 0.
  EXPECT_EQ(block_group_of(&blocks, ppn(0, 0, 1, 2, 5)), block_group_of(&blocks, ppn(0, 0, 0, 2, 0)));
  uint32_t group = block_group_of(&blocks, ppn(0, 0, 0, 0, 0));
  block_page_validate(&blocks, ppn(0, 0, 1, 0, 0));
  EXPECT_EQ(blocks.groups[group].valid_pages, 1u);
  block_page_invalidate(&blocks, ppn(0, 0, 1, 0, 0));
  block_page_validate(&blocks, ppn(0, 0, 1, 0, 3));
  blocks.groups[group].valid_pages = 0;  // as GC leaves it after moving the page
  block_erased(&blocks, group);
  EXPECT_FALSE(block_page_valid(&blocks, ppn(0, 0, 1, 0, 3)));
}

TEST_F(BlockTest, GroupOfInvertsGroupPpnForAnyGeometry) {
  // Powers of two take shifts, the others divisions: both must agree with block_group_ppn.
  const nand_geometry_t shapes[] = {{2, 2, 1, 2, 4, 8, 4096, 64, 2}, {1, 3, 1, 2, 5, 12, 4096, 64, 3}};
  for (const nand_geometry_t &shape : shapes) {
    for (bool multi_plane : {false, true}) {
      geometry = shape;
      SetUp();
      init(multi_plane, kCWDP);
      for (uint32_t group = 0; group < blocks.group_count; ++group) {
        for (uint32_t plane = 0; plane < blocks.unit_planes; ++plane) {
          for (uint32_t page = 0; page < geometry.pages; ++page) {
            uint32_t ppn = block_group_ppn(&blocks, group, page) +
                           plane * geometry.blocks * geometry.pages;
            ASSERT_EQ(block_group_of(&blocks, ppn), group) << ppn;
          }
        }
      }
    }
  }
}

TEST_F(BlockTest, RetiredGroupsAreSkippedAndExhaustionAnswersNone) {
  nand_geometry_t tiny{1, 1, 1, 1, 2, 2, 4096, 64, 1};
  geometry = tiny;
  init(false, kCWDP);
  // Opening a group needs more than keep_free free groups in the unit (the GC reserve).
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 2), BLOCK_NONE);
  uint32_t first = block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 1);
  EXPECT_EQ(first, ppn(0, 0, 0, 0, 0));
  block_retire(&blocks, block_group_of(&blocks, first));
  EXPECT_EQ(blocks.retired_groups, 1u);
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 0, 1, 0));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), ppn(0, 0, 0, 1, 1));
  EXPECT_EQ(block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0), BLOCK_NONE);
  EXPECT_EQ(block_min_free(&blocks), 0u);
  EXPECT_EQ(block_wear(&blocks).groups, 1u);
}

// Programs (validates) or just settles every page of the wordline at `first`.
void settle_wordline(block_manager_t* blocks, uint32_t first, bool valid) {
  for (uint32_t i = 0; i < blocks->pages_per_wordline_unit; ++i) {
    const uint32_t page = block_program_page_ppn(blocks, first, i);
    if (valid) block_page_validate(blocks, page);
    block_page_settled(blocks, page);
  }
}

TEST_F(BlockTest, ARetiredGroupHoldingDataIsDueForRescueOnceEveryPageSettles) {
  init(false, kCWDP);
  fw_stats_t stats{};
  metrics_init(&stats);
  block_register_metrics(&blocks);
  const auto *retired = static_cast<const uint32_t *>(metrics_find("retired.groups"));
  const auto *valid_left =
      static_cast<const uint32_t *>(metrics_find("retired.valid_pages_left"));
  ASSERT_NE(retired, nullptr);
  ASSERT_NE(valid_left, nullptr);
  const uint32_t first = block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0);
  const uint32_t second = block_alloc_wordline(&blocks, BLOCK_STREAM_GC, 0);
  const uint32_t group = block_group_of(&blocks, first);
  ASSERT_EQ(block_group_of(&blocks, second), group);
  settle_wordline(&blocks, first, true);
  // The second wordline's program fails; a second failure in flight on the group adds nothing.
  block_retire(&blocks, group);
  block_retire(&blocks, group);
  EXPECT_EQ(blocks.retired_groups, 1u);
  EXPECT_EQ(*retired, 1u);
  EXPECT_EQ(*valid_left, blocks.pages_per_wordline_unit);
  // Not due while the failed wordline's pages are unsettled: validity is not final yet.
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
  settle_wordline(&blocks, second, false);
  EXPECT_EQ(blocks.rescues_due, 1u);
  EXPECT_EQ(block_take_rescue(&blocks, false), group);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
  EXPECT_EQ(blocks.groups[group].state, BLOCK_RETIRED);
  // GC moving the data off leaves no valid page on retired groups.
  for (uint32_t i = 0; i < blocks.pages_per_wordline_unit; ++i) {
    block_page_invalidate(&blocks, block_program_page_ppn(&blocks, first, i));
  }
  EXPECT_EQ(blocks.retired_valid_pages, 0u);
  EXPECT_EQ(*valid_left, 0u);
}

TEST_F(BlockTest, ARetiredGroupWithoutDataNeedsNoRescue) {
  init(false, kCWDP);
  const uint32_t first = block_alloc_wordline(&blocks, BLOCK_STREAM_HOST, 0);
  block_retire(&blocks, block_group_of(&blocks, first));
  settle_wordline(&blocks, first, false);
  EXPECT_EQ(blocks.rescues_due, 0u);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
}

TEST_F(BlockTest, DataOnlyRescuesLeaveTranslationGroupsDue) {
  init(false, kCWDP);
  const uint32_t tp_page = block_alloc_wordline(&blocks, BLOCK_STREAM_TRANSLATION, 0);
  const uint32_t group = block_group_of(&blocks, tp_page);
  settle_wordline(&blocks, tp_page, true);
  block_retire(&blocks, group);
  EXPECT_EQ(block_take_rescue(&blocks, true), BLOCK_NONE);
  EXPECT_EQ(block_take_rescue(&blocks, false), group);
}

TEST_F(BlockTest, GreedyPicksTheFullGroupWithFewestValidPagesAndColdestTheLeastErased) {
  init(false, kCWDP);
  ASSERT_EQ(victim_policy_for(BOOT_GC_VICTIM_GREEDY), &victim_policy_greedy);
  EXPECT_EQ(victim_policy_for(BOOT_GC_VICTIM_COUNT), nullptr);
  EXPECT_EQ(victim_policy_greedy.select(&blocks, BLOCK_NONE), BLOCK_NONE);
  const uint32_t valid[4] = {5, 2, 7, 2};
  const uint32_t erases[4] = {4, 3, 1, 9};
  for (uint32_t b = 0; b < 4; ++b) {
    block_group_t &g = blocks.groups[b];
    g.state = BLOCK_FULL;
    g.valid_pages = valid[b];
    g.erase_count = erases[b];
  }
  blocks.groups[9].state = BLOCK_FULL;  // unit 2
  blocks.groups[9].valid_pages = 1;
  EXPECT_EQ(victim_policy_greedy.select(&blocks, 0), 1u);  // first of the two with 2
  EXPECT_EQ(victim_policy_greedy.select(&blocks, BLOCK_NONE), 9u);
  blocks.groups[9].unsettled_pages = 1;  // a program or update still pending: not yet
  EXPECT_EQ(victim_policy_greedy.select(&blocks, BLOCK_NONE), 1u);
  blocks.groups[9].unsettled_pages = 0;
  blocks.groups[9].erase_count = 2;
  EXPECT_EQ(victim_coldest(&blocks), 2u);
}

TEST(Gtd, StartsUnmappedAndAnswersTheOldLocation) {
  alignas(8) static uint8_t memory[256];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
  gtd_t gtd;
  EXPECT_FALSE(gtd_init(&gtd, 100, &arena));
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
  ASSERT_TRUE(gtd_init(&gtd, 10, &arena));
  EXPECT_EQ(arena.regions[0].bytes, 40u);
  for (uint32_t tp = 0; tp < 10; ++tp) EXPECT_EQ(gtd_get(&gtd, tp), PPN_UNMAPPED);
  EXPECT_EQ(gtd_set(&gtd, 3, 77), PPN_UNMAPPED);
  EXPECT_EQ(gtd_set(&gtd, 3, 78), 77u);
  EXPECT_EQ(gtd_get(&gtd, 3), 78u);
}

}  // namespace
