#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/fsp/grouping.h"
#include "ftl/write_buffer.h"
}

namespace {

struct WriteBufferTest : ::testing::Test {
  alignas(8) uint8_t meta[4096];
  alignas(8) uint8_t data[8 * 512];
  arena_t meta_arena, data_arena;
  write_buffer_t wb;
  void SetUp() override {
    arena_init(&meta_arena, meta, sizeof meta, FW_STATS_LOCATION_SRAM);
    arena_init(&data_arena, data, sizeof data, FW_STATS_LOCATION_DRAM);
    ASSERT_TRUE(wb_init(&wb, 8, 512, &meta_arena, &data_arena));
  }
  // A host write whose data has arrived.
  uint32_t write(uint32_t lpn) {
    uint32_t slot = wb_write(&wb, lpn);
    if (slot != WB_NONE) wb_filled(&wb, slot);
    return slot;
  }
  std::vector<uint32_t> select(uint32_t count) {
    std::vector<uint32_t> slots(count);
    slots.resize(grouping_policy_baseline.select(&wb, count, slots.data()));
    return slots;
  }
};

TEST_F(WriteBufferTest, SlotsArePageSizedInTheDataArena) {
  EXPECT_EQ(data_arena.used, 8u * 512u);
  EXPECT_EQ(wb_data(&wb, 3), data + 3 * 512);
  alignas(8) static uint8_t small[100];
  arena_t too_small;
  arena_init(&too_small, small, sizeof small, FW_STATS_LOCATION_SRAM);
  write_buffer_t other;
  EXPECT_FALSE(wb_init(&other, 8, 512, &meta_arena, &too_small));
}

TEST_F(WriteBufferTest, RewritesAreAbsorbedAndReadsFindTheNewestCopy) {
  uint32_t a = write(10);
  uint32_t b = write(11);
  EXPECT_NE(a, b);
  EXPECT_EQ(write(10), a);
  EXPECT_EQ(wb.dirty_count, 2u);
  EXPECT_EQ(wb.free_count, 6u);
  EXPECT_EQ(wb_find(&wb, 10), a);
  EXPECT_EQ(wb_find(&wb, 12), WB_NONE);
}

TEST_F(WriteBufferTest, BaselineTakesTheLruTailInOrder) {
  uint32_t s10 = write(10);
  uint32_t s11 = write(11);
  uint32_t s12 = write(12);
  write(10);  // 10 becomes the most recent
  EXPECT_EQ(select(2), (std::vector<uint32_t>{s11, s12}));
  EXPECT_EQ(select(8), (std::vector<uint32_t>{s11, s12, s10}));
  ASSERT_EQ(grouping_policy_for(BOOT_FSP_BASELINE), &grouping_policy_baseline);
  EXPECT_EQ(grouping_policy_for(BOOT_FSP_COUNT), nullptr);
}

TEST_F(WriteBufferTest, ANewerCopyWaitsForTheOlderOneInFlight) {
  uint32_t old_copy = write(5);
  wb_start_program(&wb, old_copy);
  EXPECT_EQ(wb.dirty_count, 0u);
  uint32_t new_copy = write(5);
  EXPECT_NE(new_copy, old_copy);
  EXPECT_EQ(wb_find(&wb, 5), new_copy);
  EXPECT_FALSE(wb_eligible(&wb, new_copy));
  EXPECT_TRUE(select(4).empty());
  EXPECT_FALSE(wb_trim(&wb, 5));  // the trim must follow the write in flight
  wb_programmed(&wb, old_copy);
  wb_release(&wb, old_copy);
  EXPECT_TRUE(wb_eligible(&wb, new_copy));
  EXPECT_EQ(wb_find(&wb, 5), new_copy);  // releasing the older copy keeps the newer one indexed
  EXPECT_EQ(select(4), (std::vector<uint32_t>{new_copy}));
  EXPECT_TRUE(wb_trim(&wb, 5));
  EXPECT_EQ(wb_find(&wb, 5), WB_NONE);
  EXPECT_EQ(wb.free_count, 8u);
}

TEST_F(WriteBufferTest, AFillingSlotIsNotProgrammedAndAFailedProgramRequeuesAtTheTail) {
  uint32_t filling = wb_write(&wb, 1);
  uint32_t ready = write(2);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{ready}));
  wb_filled(&wb, filling);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{filling, ready}));
  wb_start_program(&wb, filling);
  wb_requeue(&wb, filling);
  EXPECT_EQ(wb.dirty_count, 2u);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{filling, ready}));
  wb_write(&wb, 2);  // a rewrite refills the slot: not eligible until its data is in
  EXPECT_EQ(select(4), (std::vector<uint32_t>{filling}));
}

TEST_F(WriteBufferTest, AProgrammedSlotServesReadsUntilReleased) {
  uint32_t slot = write(9);
  wb_start_program(&wb, slot);
  wb_programmed(&wb, slot);
  EXPECT_EQ(wb_find(&wb, 9), slot);
  EXPECT_EQ(wb.slots[slot].state, WB_SLOT_UPDATING);
  wb_release(&wb, slot);
  EXPECT_EQ(wb_find(&wb, 9), WB_NONE);
}

TEST_F(WriteBufferTest, AFullBufferRefusesNewLpnsButAbsorbsRewrites) {
  for (uint32_t lpn = 0; lpn < 8; ++lpn) ASSERT_NE(write(lpn), WB_NONE);
  EXPECT_EQ(write(100), WB_NONE);
  EXPECT_NE(write(3), WB_NONE);
  EXPECT_TRUE(wb_trim(&wb, 3));
  EXPECT_NE(write(100), WB_NONE);
}

}  // namespace
