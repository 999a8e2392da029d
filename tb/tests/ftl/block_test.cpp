#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/gc/victim.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/policy.h"
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

constexpr uint32_t kStreams = BLOCK_BUILTIN_STREAMS + 1;

struct BlockTest : ::testing::Test {
  nand_geometry_t geometry{2, 2, 1, 2, 4, 8, 4096, 64, 2};  // 8 planes, 4 wordlines per block
  alignas(8) uint8_t memory[16384];
  arena_t arena;
  block_manager_t blocks;
  void SetUp() override { arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM); }
  void init(bool multi_plane, uint32_t order) {
    ASSERT_TRUE(block_init(&blocks, &geometry, multi_plane, order, kStreams, &arena));
  }
  uint32_t ppn(uint32_t channel, uint32_t way, uint32_t plane, uint32_t block, uint32_t page) {
    nand_address_t a{channel, way, 0, plane, block, page};
    return nand_ppn(&geometry, &a);
  }
  uint32_t alloc(block_stream_t stream, uint32_t keep_free = 0) {
    return block_alloc_wordline(&blocks, stream, keep_free);
  }
  // Settles every page of the program at `first`, validating them first when `valid`.
  void settle(uint32_t first, bool valid) {
    for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
      if (valid) block_page_validate(&blocks, first + i);
      block_page_settled(&blocks, first + i);
    }
  }
  // Takes and settles every program left in the stream's open stripe (one it opens if none).
  void fill(block_stream_t stream, bool valid = true) {
    const uint32_t first = alloc(stream);
    settle(first, valid);
    const uint32_t stripe = block_stripe_of(&blocks, first);
    while (blocks.streams[stream].open_stripe == stripe) settle(alloc(stream), valid);
  }
  // Erases every member of a collected stripe.
  void erase(uint32_t stripe) {
    for (uint32_t position = 0; position < blocks.unit_count; ++position) {
      if (block_member_vpn(&blocks, stripe, position) != BLOCK_NONE) {
        block_member_erased(&blocks, stripe, position, true);
      }
    }
    block_stripe_erased(&blocks, stripe);
  }
};

TEST_F(BlockTest, PlacedTablesGoToTheirArenaAndThePerUnitOnesStay) {
  // ftl.block_tables.location = dram: what grows with the device leaves the SRAM arena.
  alignas(8) static uint8_t dram_memory[16384];
  arena_t dram;
  arena_init(&dram, dram_memory, sizeof dram_memory, FW_STATS_LOCATION_DRAM);
  ASSERT_TRUE(block_init_placed(&blocks, &geometry, true, kCWDP, kStreams, &arena, &dram));
  std::set<std::string> in_sram, in_dram;
  for (uint32_t i = 0; i < arena.region_count; ++i) in_sram.insert(arena.regions[i].name);
  for (uint32_t i = 0; i < dram.region_count; ++i) in_dram.insert(dram.regions[i].name);
  EXPECT_EQ(in_dram, (std::set<std::string>{"page_validity", "block_groups", "block_stripes",
                                            "block_stripe_members", "block_free_stripes",
                                            "block_victim_tree", "block_pool_trees"}));
  EXPECT_EQ(in_sram,
            (std::set<std::string>{"block_streams", "block_positions", "block_free_counts"}));
  // The same tables, as many bytes, as block_init puts in one arena.
  alignas(8) static uint8_t one_memory[16384];
  arena_t one;
  arena_init(&one, one_memory, sizeof one_memory, FW_STATS_LOCATION_SRAM);
  block_manager_t same;
  ASSERT_TRUE(block_init(&same, &geometry, true, kCWDP, kStreams, &one));
  EXPECT_EQ(one.used, arena.used + dram.used);
  // It serves as before.
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  settle(first, true);
  EXPECT_TRUE(block_page_valid(&blocks, first));
}

TEST_F(BlockTest, OrderMustNameEachLevelOnce) {
  EXPECT_TRUE(block_order_valid(kCWDP));
  EXPECT_TRUE(block_order_valid(kPDWC));
  EXPECT_FALSE(block_order_valid(order_of(0, 0, 2, 3)));
  EXPECT_FALSE(block_order_valid(kCWDP | 1u << 8));
}

TEST_F(BlockTest, ConsecutiveProgramsGetConsecutiveVpnsStripedChannelsFirst) {
  init(false, kCWDP);
  EXPECT_EQ(blocks.unit_count, 8u);
  EXPECT_EQ(blocks.stripe_count, 4u);
  EXPECT_EQ(blocks.stripe_pages, 8u * 8u);
  std::vector<uint32_t> expected = {ppn(0, 0, 0, 0, 0), ppn(1, 0, 0, 0, 0), ppn(0, 1, 0, 0, 0),
                                    ppn(1, 1, 0, 0, 0), ppn(0, 0, 1, 0, 0), ppn(1, 0, 1, 0, 0),
                                    ppn(0, 1, 1, 0, 0), ppn(1, 1, 1, 0, 0),
                                    // second round: wordline 1 = page bits_per_cell
                                    ppn(0, 0, 0, 0, 2)};
  for (uint32_t i = 0; i < expected.size(); ++i) {
    const uint32_t vpn = alloc(BLOCK_STREAM_HOST);
    EXPECT_EQ(vpn, i * blocks.pages_per_program) << i;
    EXPECT_EQ(block_vpn_to_ppn(&blocks, vpn), expected[i]) << i;
    EXPECT_EQ(block_vpn_to_ppn(&blocks, vpn + 1), expected[i] + 1) << "the program's MSB page";
  }
}

TEST_F(BlockTest, PdwcStripesPlanesFirstAndStreamsOpenStripesOfTheirOwn) {
  init(false, kPDWC);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 4), BLOCK_NONE) << "only keep_free stripes are free";
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST, 3)), ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST)), ppn(0, 0, 1, 0, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST)), ppn(0, 1, 0, 0, 0));
  // GC and translation pages each open a stripe of their own, striped the same way.
  const uint32_t gc = alloc(BLOCK_STREAM_GC);
  EXPECT_EQ(gc, blocks.stripe_pages);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, gc), ppn(0, 0, 0, 1, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_GC)), ppn(0, 0, 1, 1, 0));
  const uint32_t tp = alloc(BLOCK_STREAM_TRANSLATION);
  EXPECT_EQ(tp, 2u * blocks.stripe_pages);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, tp), ppn(0, 0, 0, 2, 0));
  EXPECT_EQ(blocks.stripes[block_stripe_of(&blocks, gc)].stream, BLOCK_STREAM_GC);
  EXPECT_EQ(block_max_open_stripes(&blocks), 3u);
  EXPECT_EQ(blocks.free_stripe_count, 1u);
  EXPECT_EQ(block_free_groups(&blocks), 8u * 4u - 3u * 8u);
  // An open stripe goes on for callers with the keep_free that opened it.
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 3), 3u * blocks.pages_per_program);
}

TEST_F(BlockTest, StreamsAddedAtBootOpenStripesOfTheirOwnAndReportTheirGroups) {
  init(false, kCWDP);
  fw_stats_t stats{};
  metrics_init(&stats);
  const block_stream_t cold = block_stream_add(&blocks, "cold");
  EXPECT_EQ(cold, BLOCK_BUILTIN_STREAMS);
  EXPECT_EQ(block_stream_add(&blocks, "one_too_many"), BLOCK_NONE) << "the capacity is 4";
  EXPECT_EQ(block_max_open_stripes(&blocks), 4u);
  block_register_metrics(&blocks);
  const uint32_t host = alloc(BLOCK_STREAM_HOST);
  const uint32_t cold_first = alloc(cold);
  EXPECT_NE(block_stripe_of(&blocks, cold_first), block_stripe_of(&blocks, host));
  EXPECT_EQ(alloc(cold), cold_first + blocks.pages_per_program);
  EXPECT_EQ(blocks.stripes[block_stripe_of(&blocks, cold_first)].stream, cold);
  const auto *groups = static_cast<const uint32_t *>(metrics_find("blocks.cold_groups"));
  ASSERT_NE(groups, nullptr);
  EXPECT_EQ(*groups, blocks.unit_count);
}

TEST_F(BlockTest, AStripeOpenedIntoTheReserveServesOnlyCallersWithinIt) {
  init(false, kCWDP);
  fill(BLOCK_STREAM_HOST);
  fill(BLOCK_STREAM_HOST);
  fill(BLOCK_STREAM_HOST);
  // One stripe's worth left: the host (reserve 1) is blocked, GC (reserve 0) opens it.
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 1), BLOCK_NONE);
  const uint32_t gc = alloc(BLOCK_STREAM_HOST, 0);
  ASSERT_NE(gc, BLOCK_NONE);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 1), BLOCK_NONE) << "the host must not spend GC's reserve";
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 0), gc + blocks.pages_per_program);
}

TEST_F(BlockTest, AStreamNameTooLongForItsGaugeIsRefused) {
  init(false, kCWDP);
  EXPECT_EQ(block_stream_add(&blocks, "a_name_far_too_long_for_the_gauge_it_gets"), BLOCK_NONE);
  EXPECT_EQ(block_stream_add(&blocks, "fits"), BLOCK_BUILTIN_STREAMS);
}

// A stream with no gauge (a policy adding many counts them itself) registers nothing.
TEST_F(BlockTest, AStreamWithoutANameHasNoGauge) {
  init(false, kCWDP);
  EXPECT_EQ(block_stream_add(&blocks, nullptr), BLOCK_BUILTIN_STREAMS);
  EXPECT_EQ(blocks.streams[BLOCK_BUILTIN_STREAMS].metric_name[0], '\0');
}

// Closing a stream's open stripe makes it FULL with the programs it took, collectable once they
// settle and keeping only its valid pages; the stream opens a new stripe next.
TEST_F(BlockTest, ClosingAnOpenStripeMakesItCollectableWithWhatItHolds) {
  init(false, kCWDP);
  block_stream_close(&blocks, BLOCK_STREAM_HOST);  // nothing open: nothing happens
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  const uint32_t stripe = block_stripe_of(&blocks, first);
  const uint32_t second = alloc(BLOCK_STREAM_HOST);
  settle(first, true);
  block_stream_close(&blocks, BLOCK_STREAM_HOST);
  EXPECT_EQ(blocks.stripes[stripe].state, BLOCK_FULL);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_HOST].open_stripe, BLOCK_NONE);
  EXPECT_FALSE(block_collectable(&blocks, stripe)) << "a program is still in flight";
  settle(second, false);
  EXPECT_TRUE(block_collectable(&blocks, stripe));
  EXPECT_EQ(block_stripe_kept_pages(&blocks, stripe), blocks.pages_per_program);
  EXPECT_EQ(block_fewest_valid_collectable(&blocks), stripe);
  const uint32_t next = alloc(BLOCK_STREAM_HOST);
  EXPECT_NE(block_stripe_of(&blocks, next), stripe);
}

TEST_F(BlockTest, VpnToPpnFollowsTheMembersForAnyGeometry) {
  // Powers of two take shifts, the others divisions: both must give the member's pages.
  const nand_geometry_t shapes[] = {{2, 2, 1, 2, 4, 8, 4096, 64, 2},
                                    {1, 3, 1, 2, 5, 12, 4096, 64, 3}};
  for (const nand_geometry_t &shape : shapes) {
    for (bool multi_plane : {false, true}) {
      geometry = shape;
      SetUp();
      init(multi_plane, kCWDP);
      std::set<uint32_t> seen;
      for (uint32_t program = 0; program < blocks.programs_per_stripe; ++program) {
        const uint32_t first = alloc(BLOCK_STREAM_HOST);
        ASSERT_EQ(first, program * blocks.pages_per_program);
        const uint32_t position = program % blocks.unit_count;
        const uint32_t wordline = program / blocks.unit_count;
        // A fresh device: every unit gives its block 0.
        const uint32_t group = blocks.position_unit[position] * blocks.groups_per_unit;
        for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
          const uint32_t plane = i / geometry.bits_per_cell;
          const uint32_t expected =
              block_group_ppn(&blocks, group, wordline * geometry.bits_per_cell +
                                                  i % geometry.bits_per_cell) +
              plane * geometry.blocks * geometry.pages;
          ASSERT_EQ(block_vpn_to_ppn(&blocks, first + i), expected) << first + i;
          ASSERT_EQ(block_member_of(&blocks, first + i), position);  // stripe 0
          ASSERT_EQ(block_member_page_vpn(&blocks, position,
                                          wordline * blocks.pages_per_program + i),
                    first + i);
          ASSERT_EQ(block_group_of(&blocks, expected), group);
          seen.insert(expected);
        }
      }
      EXPECT_EQ(seen.size(), blocks.stripe_pages) << "one physical page per VPN";
      EXPECT_EQ(blocks.streams[BLOCK_STREAM_HOST].open_stripe, BLOCK_NONE) << "the stripe is full";
      EXPECT_EQ(blocks.stripes[0].state, BLOCK_FULL);
    }
  }
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

TEST_F(BlockTest, StripesFillSettleAndDynamicWearLevellingTakesTheLeastWornOfEachUnit) {
  init(false, kCWDP);
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  const uint32_t stripe = block_stripe_of(&blocks, first);
  std::vector<uint32_t> programs{first};
  while (blocks.streams[BLOCK_STREAM_HOST].open_stripe == stripe) programs.push_back(alloc(BLOCK_STREAM_HOST));
  EXPECT_EQ(programs.size(), blocks.programs_per_stripe);
  EXPECT_EQ(blocks.stripes[stripe].state, BLOCK_FULL);
  for (uint32_t program : programs) settle(program, program != first);
  EXPECT_TRUE(block_collectable(&blocks, stripe));
  EXPECT_EQ(blocks.stripes[stripe].valid_pages, blocks.stripe_pages - blocks.pages_per_program);
  // A full stripe with one program not settled is not collectable.
  const uint32_t gc_first = alloc(BLOCK_STREAM_GC);
  fill(BLOCK_STREAM_GC);
  EXPECT_EQ(blocks.stripes[block_stripe_of(&blocks, gc_first)].state, BLOCK_FULL);
  EXPECT_FALSE(block_collectable(&blocks, block_stripe_of(&blocks, gc_first)));
  settle(gc_first, true);
  EXPECT_TRUE(block_collectable(&blocks, block_stripe_of(&blocks, gc_first)));
  // Collect the host stripe: its members return to their pools one erase older.
  for (uint32_t vpn = first; vpn < first + blocks.stripe_pages; ++vpn) {
    block_page_invalidate(&blocks, vpn);
  }
  block_mark_victim(&blocks, stripe);
  erase(stripe);
  EXPECT_EQ(blocks.stripes[stripe].state, BLOCK_FREE);
  EXPECT_EQ(blocks.groups[0].erase_count, 1u);
  EXPECT_EQ(blocks.free_stripe_count, 3u);
  EXPECT_EQ(block_free_groups(&blocks), 8u * 3u);
  // The host's next stripe takes the least-worn free group of each unit (block 2: block 0 was
  // erased once, block 1 holds the GC stripe); the GC stream asking for the most worn takes
  // block 0.
  const uint32_t host = alloc(BLOCK_STREAM_HOST);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, host), ppn(0, 0, 0, 2, 0));
  EXPECT_EQ(blocks.stripes[block_stripe_of(&blocks, host)].wear, 0u);
  blocks.gc_opens_most_worn = true;
  const uint32_t gc = alloc(BLOCK_STREAM_GC);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, gc), ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(blocks.stripes[block_stripe_of(&blocks, gc)].wear, 1u);
  block_wear_t wear = block_wear(&blocks);
  EXPECT_EQ(wear.min, 0u);
  EXPECT_EQ(wear.max, 1u);
  EXPECT_EQ(wear.sum, 8u);
  EXPECT_EQ(wear.groups, 32u);
}

TEST_F(BlockTest, ValidityCountsAndEraseClears) {
  init(false, kCWDP);
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  const uint32_t stripe = block_stripe_of(&blocks, first);
  block_page_validate(&blocks, first);
  block_page_validate(&blocks, first + 1);
  block_page_validate(&blocks, first + 1);  // idempotent
  EXPECT_EQ(blocks.stripes[stripe].valid_pages, 2u);
  block_page_invalidate(&blocks, first);
  block_page_invalidate(&blocks, first);
  EXPECT_EQ(blocks.stripes[stripe].valid_pages, 1u);
  EXPECT_FALSE(block_page_valid(&blocks, first));
  EXPECT_TRUE(block_page_valid(&blocks, first + 1));
  block_page_invalidate(&blocks, first + 1);
  block_page_validate(&blocks, first + blocks.stripe_pages - 1);  // stale bit of a last page
  blocks.stripes[stripe].valid_pages = 0;
  block_mark_victim(&blocks, stripe);
  erase(stripe);
  EXPECT_FALSE(block_page_valid(&blocks, first + blocks.stripe_pages - 1));
  EXPECT_EQ(blocks.groups[0].erase_count, 1u);
}

TEST_F(BlockTest, EachStreamCountsTheGroupsItsStripesHold) {
  init(false, kCWDP);
  fw_stats_t stats{};
  metrics_init(&stats);
  block_register_metrics(&blocks);
  const uint32_t host = alloc(BLOCK_STREAM_HOST);
  const uint32_t gc = alloc(BLOCK_STREAM_GC);
  const uint32_t tp = alloc(BLOCK_STREAM_TRANSLATION);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_HOST].groups, 8u);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_GC].groups, 8u);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_TRANSLATION].groups, 8u);
  EXPECT_EQ(*static_cast<const uint32_t *>(metrics_find("blocks.free_groups")), 8u);
  block_program_failed(&blocks, gc);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_GC].groups, 7u);
  settle(host, false);
  block_mark_victim(&blocks, block_stripe_of(&blocks, host));
  erase(block_stripe_of(&blocks, host));
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_HOST].groups, 0u);
  // A member whose erase fails is retired and stays out of the pool.
  const uint32_t tp_stripe = block_stripe_of(&blocks, tp);
  block_mark_victim(&blocks, tp_stripe);
  block_member_erased(&blocks, tp_stripe, 0, false);
  for (uint32_t position = 1; position < blocks.unit_count; ++position) {
    block_member_erased(&blocks, tp_stripe, position, true);
  }
  block_stripe_erased(&blocks, tp_stripe);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_TRANSLATION].groups, 0u);
  EXPECT_EQ(blocks.retired_groups, 2u);
  EXPECT_EQ(block_free_groups(&blocks), 8u * 4u - 8u - 1u);  // GC stripe, failed erase
  EXPECT_EQ(blocks.free_stripe_count, 3u);
  EXPECT_EQ(*static_cast<const uint32_t *>(metrics_find("blocks.host_groups")), 0u);
  EXPECT_EQ(*static_cast<const uint32_t *>(metrics_find("blocks.gc_groups")), 7u);
}

TEST_F(BlockTest, MultiPlaneProgramsSpanTheDiesPlanes) {
  init(true, kCWDP);
  EXPECT_EQ(blocks.unit_count, 4u);
  EXPECT_EQ(blocks.pages_per_program, 4u);
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, first), ppn(0, 0, 0, 0, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, first + 2), ppn(0, 0, 1, 0, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, first + 3), ppn(0, 0, 1, 0, 1));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST)), ppn(1, 0, 0, 0, 0));
  EXPECT_EQ(block_group_of(&blocks, ppn(0, 0, 1, 2, 5)), block_group_of(&blocks, ppn(0, 0, 0, 2, 0)));
  EXPECT_EQ(block_member_vpn(&blocks, 0, 1), 4u);
}

TEST_F(BlockTest, ARetiredMemberLeavesAHoleProgramsSkip) {
  nand_geometry_t two_units{2, 1, 1, 1, 2, 4, 4096, 64, 1};
  geometry = two_units;
  init(false, kCWDP);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 0u);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 1u);
  block_program_failed(&blocks, 1);
  EXPECT_EQ(blocks.streams[BLOCK_STREAM_HOST].groups, 1u);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 2u);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 4u);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 6u);
  EXPECT_EQ(blocks.stripes[0].state, BLOCK_FULL);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), 8u);
  // The retired member's pages stay readable where they are.
  EXPECT_EQ(block_vpn_to_ppn(&blocks, 1), ppn(1, 0, 0, 0, 0));
  EXPECT_EQ(block_member_vpn(&blocks, 0, 1), BLOCK_NONE);
}

TEST_F(BlockTest, ExhaustionAnswersNone) {
  nand_geometry_t tiny{1, 1, 1, 1, 2, 2, 4096, 64, 1};
  geometry = tiny;
  init(false, kCWDP);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 2), BLOCK_NONE);
  const uint32_t first = alloc(BLOCK_STREAM_HOST, 1);
  EXPECT_EQ(block_vpn_to_ppn(&blocks, first), ppn(0, 0, 0, 0, 0));
  block_program_failed(&blocks, first);
  EXPECT_EQ(blocks.retired_groups, 1u);
  EXPECT_EQ(blocks.stripes[0].state, BLOCK_FULL) << "no member left to program";
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST)), ppn(0, 0, 0, 1, 0));
  EXPECT_EQ(block_vpn_to_ppn(&blocks, alloc(BLOCK_STREAM_HOST)), ppn(0, 0, 0, 1, 1));
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), BLOCK_NONE);
  EXPECT_EQ(block_wear(&blocks).groups, 1u);
  // The stripe of the retired group comes free, but its unit has no free group to give it.
  block_mark_victim(&blocks, 0);
  erase(0);
  EXPECT_EQ(blocks.free_stripe_count, 1u);
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST), BLOCK_NONE);
}

TEST_F(BlockTest, ARetiredMemberHoldingDataIsDueForRescueOnceItsPagesSettle) {
  init(false, kCWDP);
  fw_stats_t stats{};
  metrics_init(&stats);
  block_register_metrics(&blocks);
  const auto *retired = static_cast<const uint32_t *>(metrics_find("retired.groups"));
  const auto *valid_left =
      static_cast<const uint32_t *>(metrics_find("retired.valid_pages_left"));
  ASSERT_NE(retired, nullptr);
  ASSERT_NE(valid_left, nullptr);
  std::vector<uint32_t> programs;
  for (uint32_t i = 0; i <= 2 * blocks.unit_count + 1; ++i) programs.push_back(alloc(BLOCK_STREAM_GC));
  const uint32_t stripe = block_stripe_of(&blocks, programs[0]);
  const uint32_t member = block_member_of(&blocks, programs[1]);
  EXPECT_EQ(member, stripe * blocks.unit_count + 1u);
  EXPECT_EQ(block_member_of(&blocks, programs[blocks.unit_count + 1]), member);
  settle(programs[1], true);
  // The member's second wordline fails while its third is still in flight.
  block_program_failed(&blocks, programs[blocks.unit_count + 1]);
  EXPECT_EQ(*retired, 1u);
  EXPECT_EQ(*valid_left, blocks.pages_per_program);
  EXPECT_EQ(blocks.stripes[stripe].members, blocks.unit_count - 1u);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE) << "a program is still in flight";
  // The third fails too: retired once, and now settled.
  block_program_failed(&blocks, programs[2 * blocks.unit_count + 1]);
  EXPECT_EQ(*retired, 1u);
  EXPECT_EQ(blocks.rescues_due, 1u);
  EXPECT_EQ(block_take_rescue(&blocks, false), member);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
  EXPECT_EQ(block_member_page_vpn(&blocks, member, 0), programs[1]);
  EXPECT_EQ(block_member_page_vpn(&blocks, member, blocks.pages_per_program),
            programs[blocks.unit_count + 1]);
  // The stripe goes on without it, and GC moving the data off leaves none on retired groups.
  EXPECT_NE(block_member_of(&blocks, alloc(BLOCK_STREAM_GC)), member);
  for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
    block_page_invalidate(&blocks, programs[1] + i);
  }
  EXPECT_EQ(*valid_left, 0u);
}

TEST_F(BlockTest, ARetiredMemberWithoutDataNeedsNoRescue) {
  init(false, kCWDP);
  block_program_failed(&blocks, alloc(BLOCK_STREAM_HOST));
  EXPECT_EQ(blocks.rescues_due, 0u);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
}

TEST_F(BlockTest, CollectingTheStripeTakesItsDueRescue) {
  init(false, kCWDP);
  const uint32_t first = alloc(BLOCK_STREAM_HOST);
  settle(first, true);
  uint32_t second_on_member = BLOCK_NONE;
  for (uint32_t i = 0; i < blocks.unit_count; ++i) second_on_member = alloc(BLOCK_STREAM_HOST);
  ASSERT_EQ(block_member_of(&blocks, second_on_member), block_member_of(&blocks, first));
  block_program_failed(&blocks, second_on_member);
  EXPECT_EQ(blocks.rescues_due, 1u);
  block_mark_victim(&blocks, block_stripe_of(&blocks, first));
  EXPECT_EQ(blocks.rescues_due, 0u);
  EXPECT_EQ(block_take_rescue(&blocks, false), BLOCK_NONE);
}

TEST_F(BlockTest, DataOnlyRescuesLeaveTranslationMembersDue) {
  init(false, kCWDP);
  const uint32_t tp_page = alloc(BLOCK_STREAM_TRANSLATION);
  settle(tp_page, true);
  std::vector<uint32_t> programs;
  for (uint32_t i = 0; i < blocks.unit_count; ++i) programs.push_back(alloc(BLOCK_STREAM_TRANSLATION));
  block_program_failed(&blocks, programs.back());  // the data's member, its second wordline
  EXPECT_EQ(block_take_rescue(&blocks, true), BLOCK_NONE);
  EXPECT_EQ(block_take_rescue(&blocks, false), block_member_of(&blocks, tp_page));
}

// What a policy listening to every stripe and page event heard, as (kind, stripe) pairs.
std::vector<std::pair<uint32_t, uint32_t>> block_events_heard;
void hear_block_event(const policy_event_t *event) {
  block_events_heard.push_back({event->kind, event->stripe});
}

TEST_F(BlockTest, PoliciesHearStripesOpenFillAndEraseAndPagesInvalidated) {
  init(false, kCWDP);
  policy_listeners_reset();
  block_events_heard.clear();
  static const policy_listener_t listener = {
      POLICY_EVENT_BIT(POLICY_STRIPE_OPENED) | POLICY_EVENT_BIT(POLICY_STRIPE_FULL) |
          POLICY_EVENT_BIT(POLICY_STRIPE_ERASED) | POLICY_EVENT_BIT(POLICY_PAGE_INVALIDATED),
      hear_block_event};
  ASSERT_TRUE(policy_listen(&listener));
  fill(BLOCK_STREAM_HOST);
  const uint32_t stripe = block_stripe_of(&blocks, 0);
  using Heard = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(block_events_heard, (Heard{{POLICY_STRIPE_OPENED, stripe}, {POLICY_STRIPE_FULL, stripe}}));
  block_events_heard.clear();
  block_page_invalidate(&blocks, 1);
  block_page_invalidate(&blocks, 1);  // already invalid: nothing to hear
  for (uint32_t vpn = 0; vpn < blocks.stripe_pages; ++vpn) block_page_invalidate(&blocks, vpn);
  EXPECT_EQ(block_events_heard.size(), blocks.stripe_pages);
  EXPECT_EQ(block_events_heard.front(), (std::pair<uint32_t, uint32_t>{POLICY_PAGE_INVALIDATED, stripe}));
  block_events_heard.clear();
  block_mark_victim(&blocks, stripe);
  erase(stripe);
  EXPECT_EQ(block_events_heard, (Heard{{POLICY_STRIPE_ERASED, stripe}}));
  policy_listeners_reset();
}

// The greedy policy's victim: a set of one, to the stream GC proposed; BLOCK_NONE for none.
uint32_t greedy(const block_manager_t *blocks) {
  victim_choice_t choice;
  choice.count = 0;
  choice.stream = BLOCK_STREAM_GC;
  if (!victim_policy_greedy.select(blocks, &choice)) return BLOCK_NONE;
  EXPECT_EQ(choice.count, 1u);
  EXPECT_EQ(choice.stream, BLOCK_STREAM_GC);
  return choice.stripes[0];
}

TEST_F(BlockTest, GreedyPicksTheStripeWithFewestValidPagesAndColdestTheLeastWorn) {
  init(false, kCWDP);
  EXPECT_EQ(greedy(&blocks), BLOCK_NONE);
  EXPECT_EQ(victim_coldest(&blocks), BLOCK_NONE);
  // Stripe 0 is collected once, then holds the GC stream's data on the most-worn groups (wear
  // 1); stripe 1 holds host data on groups never erased (wear 0).
  fill(BLOCK_STREAM_HOST);
  for (uint32_t vpn = 0; vpn < blocks.stripe_pages; ++vpn) block_page_invalidate(&blocks, vpn);
  block_mark_victim(&blocks, 0);
  erase(0);
  blocks.gc_opens_most_worn = true;
  fill(BLOCK_STREAM_GC);
  fill(BLOCK_STREAM_HOST);
  ASSERT_EQ(blocks.stripes[0].wear, 1u);
  ASSERT_EQ(blocks.stripes[1].wear, 0u);
  EXPECT_EQ(greedy(&blocks), 0u) << "all valid: the lowest index";
  EXPECT_EQ(victim_coldest(&blocks), 1u);
  const uint32_t second = blocks.stripe_pages;
  for (uint32_t vpn = second; vpn < second + 3; ++vpn) block_page_invalidate(&blocks, vpn);
  EXPECT_EQ(greedy(&blocks), 1u);
  for (uint32_t vpn = 0; vpn < 3; ++vpn) block_page_invalidate(&blocks, vpn);
  EXPECT_EQ(greedy(&blocks), 0u) << "as few: the lowest index";
  block_page_validate(&blocks, 0);
  EXPECT_EQ(greedy(&blocks), 1u);
  // A full stripe with fewer valid pages but a program still pending is not a candidate yet.
  const uint32_t pending = alloc(BLOCK_STREAM_HOST);
  while (blocks.streams[BLOCK_STREAM_HOST].open_stripe != BLOCK_NONE) {
    settle(alloc(BLOCK_STREAM_HOST), false);
  }
  EXPECT_EQ(greedy(&blocks), 1u);
  settle(pending, false);
  EXPECT_EQ(greedy(&blocks), 2u);
  EXPECT_EQ(victim_coldest(&blocks), 1u) << "the first of the two with wear 0";
  block_mark_victim(&blocks, 1);
  EXPECT_EQ(victim_coldest(&blocks), 2u);
  EXPECT_EQ(greedy(&blocks), 2u);
  block_mark_victim(&blocks, 2);
  EXPECT_EQ(victim_coldest(&blocks), 0u);
  EXPECT_EQ(greedy(&blocks), 0u);
}

// Two units of 4 groups: stripe 0 is filled and collected, and the erase of its member on unit 1
// fails. Unit 1 then has a group fewer than unit 0.
struct BlockRetiredByEraseTest : BlockTest {
  void SetUp() override {
    geometry = nand_geometry_t{2, 1, 1, 1, 4, 4, 4096, 64, 1};
    BlockTest::SetUp();
    init(false, kCWDP);
    fill(BLOCK_STREAM_HOST);
    for (uint32_t vpn = 0; vpn < blocks.stripe_pages; ++vpn) block_page_invalidate(&blocks, vpn);
    block_mark_victim(&blocks, 0);
    block_member_erased(&blocks, 0, 0, true);
    block_member_erased(&blocks, 0, 1, false);
    block_stripe_erased(&blocks, 0);
    ASSERT_EQ(blocks.retired_groups, 1u);
    ASSERT_EQ(block_free_groups(&blocks), 7u);
  }
};

TEST_F(BlockRetiredByEraseTest, OpeningAStripeLeavesTheReserveWholeWhenThePoolsAreUneven) {
  // 7 groups free, more than a reserve of 3 stripes' worth (6), but a stripe takes 2 of them.
  EXPECT_EQ(alloc(BLOCK_STREAM_HOST, 3), BLOCK_NONE);
  EXPECT_NE(alloc(BLOCK_STREAM_HOST, 2), BLOCK_NONE);
  EXPECT_EQ(block_free_groups(&blocks), 5u);
}

TEST_F(BlockRetiredByEraseTest, GreedyCountsTheGroupsAStripeLacksAsPagesItCannotFree) {
  fill(BLOCK_STREAM_HOST);  // stripes 0 to 2 take the rest of unit 1
  fill(BLOCK_STREAM_HOST);
  fill(BLOCK_STREAM_HOST);
  fill(BLOCK_STREAM_GC);    // stripe 3 opens with a hole: unit 0's group alone, all valid
  const uint32_t holed = 3;
  const uint32_t group_pages = blocks.wordlines * blocks.pages_per_program;
  ASSERT_EQ(blocks.stripes[holed].members, 1u);
  ASSERT_EQ(blocks.stripes[holed].valid_pages, group_pages);
  EXPECT_EQ(block_stripe_kept_pages(&blocks, holed), blocks.stripe_pages);
  for (uint32_t vpn = blocks.stripe_pages; vpn < blocks.stripe_pages + 3; ++vpn) {
    block_page_invalidate(&blocks, vpn);
  }
  EXPECT_EQ(greedy(&blocks), 1u) << "the holed stripe has fewer valid pages but frees none";
  const uint32_t member = holed * blocks.unit_count;  // position 0, unit 0's group
  for (uint32_t page = 0; page < 3; ++page) {
    block_page_invalidate(&blocks, block_member_page_vpn(&blocks, member, page));
  }
  EXPECT_EQ(greedy(&blocks), 1u) << "as many pages to free: the lowest index";
  block_page_invalidate(&blocks, block_member_page_vpn(&blocks, member, 3));
  EXPECT_EQ(greedy(&blocks), holed);
}

// The scans the ranked answers replace, in index order.
uint32_t scan_fewest_valid(const block_manager_t &blocks) {
  uint32_t best = BLOCK_NONE;
  for (uint32_t s = 0; s < blocks.stripe_count; ++s) {
    if (block_collectable(&blocks, s) &&
        (best == BLOCK_NONE ||
         block_stripe_kept_pages(&blocks, s) < block_stripe_kept_pages(&blocks, best))) {
      best = s;
    }
  }
  return best;
}

uint32_t scan_coldest(const block_manager_t &blocks) {
  uint32_t best = BLOCK_NONE;
  for (uint32_t s = 0; s < blocks.stripe_count; ++s) {
    if (block_collectable(&blocks, s) &&
        (best == BLOCK_NONE || blocks.stripes[s].wear < blocks.stripes[best].wear)) {
      best = s;
    }
  }
  return best;
}

uint32_t scan_free_group(const block_manager_t &blocks, uint32_t unit, bool most_worn) {
  uint32_t best = BLOCK_NONE;
  for (uint32_t g = unit * blocks.groups_per_unit; g < (unit + 1) * blocks.groups_per_unit; ++g) {
    if (blocks.groups[g].state != BLOCK_GROUP_FREE) continue;
    const uint32_t erases = blocks.groups[g].erase_count;
    if (best == BLOCK_NONE || (most_worn ? erases > blocks.groups[best].erase_count
                                         : erases < blocks.groups[best].erase_count)) {
      best = g;
    }
  }
  return best;
}

// Random programs, settles, program and erase failures, overwrites, collections and erases:
// after every step the ranked answers equal the scans'. Shapes with one stripe, a number of
// stripes that is not a power of two, and multi-plane units.
TEST_F(BlockTest, RankedVictimsAndFreeGroupsEqualAScanAfterRandomSteps) {
  struct Shape {
    nand_geometry_t geometry;
    bool multi_plane;
  };
  const Shape shapes[] = {{{2, 2, 1, 2, 4, 8, 4096, 64, 2}, false},
                          {{1, 3, 1, 2, 13, 12, 4096, 64, 3}, false},
                          {{1, 3, 1, 2, 13, 12, 4096, 64, 3}, true},
                          {{2, 1, 1, 1, 1, 4, 4096, 64, 1}, false},
                          {{1, 1, 1, 2, 7, 4, 4096, 64, 1}, true},
                          {{2, 1, 1, 2, 37, 8, 4096, 64, 2}, false}};
  uint32_t seed = 1;
  auto pick = [&seed](uint32_t n) {  // xorshift32: the same steps on every host
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed % n;
  };
  for (const Shape &shape : shapes) {
    geometry = shape.geometry;
    SetUp();
    init(shape.multi_plane, kCWDP);
    const uint32_t pages = blocks.stripe_count * blocks.stripe_pages;
    std::vector<uint32_t> pending;  // first VPNs of programs not settled
    uint32_t collected = 0;
    uint32_t ranked_answers = 0;
    for (uint32_t step = 0; step < 40000; ++step) {
      const uint32_t action = pick(16);
      if (action < 5) {
        blocks.gc_opens_most_worn = pick(2) == 0;
        const uint32_t first = alloc(pick(BLOCK_BUILTIN_STREAMS));
        if (first != BLOCK_NONE) pending.push_back(first);
      } else if (action < 9 && !pending.empty()) {
        const uint32_t index = pick((uint32_t)pending.size());
        const uint32_t first = pending[index];
        pending[index] = pending.back();
        pending.pop_back();
        if (pick(2000) == 0) {
          block_program_failed(&blocks, first);
        } else {
          for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
            if (pick(4) != 0) block_page_validate(&blocks, first + i);
            block_page_settled(&blocks, first + i);
          }
        }
      } else if (action < 13) {
        block_page_invalidate(&blocks, pick(pages));
      } else if (action < 14) {
        const uint32_t vpn = pick(pages);  // a page of a full stripe gains validity too
        if (blocks.stripes[block_stripe_of(&blocks, vpn)].state == BLOCK_FULL) {
          block_page_validate(&blocks, vpn);
        }
      } else if (block_free_groups(&blocks) <= 2 * blocks.unit_count || pick(8) == 0) {
        // Collect, mostly when the pools run low as GC does: the greedy victim, the coldest or
        // the last collectable stripe.
        uint32_t victim = action == 14 ? block_fewest_valid_collectable(&blocks)
                                       : block_coldest_collectable(&blocks);
        if (pick(3) == 0) {
          for (uint32_t s = 0; s < blocks.stripe_count; ++s) {
            if (block_collectable(&blocks, s)) victim = s;
          }
        }
        if (victim != BLOCK_NONE) {
          block_mark_victim(&blocks, victim);
          for (uint32_t i = 0; i < blocks.stripe_pages; ++i) {
            block_page_invalidate(&blocks, victim * blocks.stripe_pages + i);
          }
          for (uint32_t position = 0; position < blocks.unit_count; ++position) {
            if (block_member_vpn(&blocks, victim, position) != BLOCK_NONE) {
              block_member_erased(&blocks, victim, position, pick(2000) != 0);
            }
          }
          block_stripe_erased(&blocks, victim);
          ++collected;
        }
      }
      const uint32_t fewest = block_fewest_valid_collectable(&blocks);
      ASSERT_EQ(fewest, scan_fewest_valid(blocks)) << "step " << step;
      ASSERT_EQ(block_coldest_collectable(&blocks), scan_coldest(blocks)) << "step " << step;
      ranked_answers += fewest != BLOCK_NONE;
      std::vector<uint32_t> utilisation(BLOCK_UTILISATION_BUCKETS, 0);  // by a scan
      for (uint32_t s = 0; s < blocks.stripe_count; ++s) {
        if (block_collectable(&blocks, s)) {
          ++utilisation[std::min(blocks.stripes[s].valid_pages / blocks.utilisation_width,
                                 BLOCK_UTILISATION_BUCKETS - 1u)];
        }
      }
      ASSERT_EQ(std::vector<uint32_t>(blocks.utilisation,
                                      blocks.utilisation + BLOCK_UTILISATION_BUCKETS),
                utilisation)
          << "step " << step;
      for (uint32_t unit = 0; unit < blocks.unit_count; ++unit) {
        for (bool most_worn : {false, true}) {
          ASSERT_EQ(block_free_group_by_wear(&blocks, unit, most_worn),
                    scan_free_group(blocks, unit, most_worn))
              << "step " << step << " unit " << unit << " most_worn " << most_worn;
        }
      }
    }
    // The steps reached the cases that matter: stripes collected and erased many times over.
    EXPECT_GT(collected, 10u * blocks.stripe_count);
    EXPECT_GT(ranked_answers, 1000u);
  }
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
  for (uint32_t tp = 0; tp < 10; ++tp) EXPECT_EQ(gtd_get(&gtd, tp), VPN_UNMAPPED);
  EXPECT_EQ(gtd_set(&gtd, 3, 77), VPN_UNMAPPED);
  EXPECT_EQ(gtd_set(&gtd, 3, 78), 77u);
  EXPECT_EQ(gtd_get(&gtd, 3), 78u);
}

}  // namespace
