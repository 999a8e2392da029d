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
  virtual bool keeps_clean() const { return false; }
  void SetUp() override {
    arena_init(&meta_arena, meta, sizeof meta, FW_STATS_LOCATION_SRAM);
    arena_init(&data_arena, data, sizeof data, FW_STATS_LOCATION_DRAM);
    ASSERT_TRUE(wb_init(&wb, 8, 512, keeps_clean(), &meta_arena, &data_arena));
  }
  // A one-page host write whose data has arrived.
  uint32_t write(uint32_t lpn) {
    uint32_t slot = wb_write(&wb, lpn, 1, 0, nullptr);
    if (slot != WB_NONE) wb_filled(&wb, slot);
    return slot;
  }
  std::vector<uint32_t> select(uint32_t count) {
    grouping_choice_t choice;
    choice.stream = BLOCK_STREAM_HOST;
    uint32_t picked = grouping_policy_baseline.select(&wb, count, &choice);
    EXPECT_EQ(choice.positions, picked);  // the baseline substitutes no filler
    EXPECT_EQ(choice.stream, BLOCK_STREAM_HOST);
    return std::vector<uint32_t>(choice.slots, choice.slots + picked);
  }
};

TEST_F(WriteBufferTest, SlotsArePageSizedInTheDataArena) {
  EXPECT_EQ(data_arena.used, 8u * 512u);
  EXPECT_EQ(wb_data(&wb, 3), data + 3 * 512);
  alignas(8) static uint8_t small[100];
  arena_t too_small;
  arena_init(&too_small, small, sizeof small, FW_STATS_LOCATION_SRAM);
  write_buffer_t other;
  EXPECT_FALSE(wb_init(&other, 8, 512, false, &meta_arena, &too_small));
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
  uint32_t filling = wb_write(&wb, 1, 1, 0, nullptr);
  uint32_t ready = write(2);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{ready}));
  wb_filled(&wb, filling);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{filling, ready}));
  wb_start_program(&wb, filling);
  wb_requeue(&wb, filling);
  EXPECT_EQ(wb.dirty_count, 2u);
  EXPECT_EQ(select(4), (std::vector<uint32_t>{filling, ready}));
  wb_write(&wb, 2, 1, 0, nullptr);  // a rewrite refills the slot: not eligible until its data is in
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
  EXPECT_EQ(wb.counters.write_hits, 1u);
}

TEST_F(WriteBufferTest, WithoutCleanEntriesAProgrammedPageLeavesAndReadsAreNotCached) {
  uint32_t slot = write(9);
  wb_start_program(&wb, slot);
  wb_programmed(&wb, slot);
  wb_settle(&wb, slot);
  EXPECT_EQ(wb_find(&wb, 9), WB_NONE);
  EXPECT_EQ(wb.free_count, 8u);
  EXPECT_EQ(wb_fill(&wb, 4), WB_NONE);
  EXPECT_TRUE(wb_all_clean(&wb));
  // A read hit counts but leaves the write order alone: the tail is still the oldest write.
  uint32_t s1 = write(1);
  uint32_t s2 = write(2);
  wb_read_hit(&wb, s1);
  EXPECT_EQ(wb.counters.read_hits, 1u);
  EXPECT_EQ(select(1), (std::vector<uint32_t>{s1}));
  (void)s2;
}

TEST_F(WriteBufferTest, EachEntryRecordsTheRequestThatWroteIt) {
  bool hit = true;
  uint32_t slot = wb_write(&wb, 7, 3, WB_ENTRY_PARTIAL, &hit);
  EXPECT_FALSE(hit);
  EXPECT_EQ(wb.slots[slot].request_pages, 3u);
  EXPECT_EQ(wb.slots[slot].flags, WB_ENTRY_PARTIAL);
  wb_filled(&wb, slot);
  EXPECT_EQ(wb_write(&wb, 7, 70000, WB_ENTRY_REWRITE, &hit), slot);  // saturates, not wraps
  EXPECT_TRUE(hit);
  EXPECT_EQ(wb.slots[slot].request_pages, WB_REQUEST_PAGES_MAX);
  EXPECT_EQ(wb.slots[slot].flags, WB_ENTRY_REWRITE);
  EXPECT_EQ(wb.counters.rewrites, 1u);
}

struct DataCacheTest : WriteBufferTest {
  bool keeps_clean() const override { return true; }
  // Programs and maps a dirty slot: it stays as a clean entry.
  void program(uint32_t slot) {
    wb_start_program(&wb, slot);
    wb_programmed(&wb, slot);
    wb_settle(&wb, slot);
  }
};

TEST_F(DataCacheTest, AProgrammedPageStaysCleanAndServesReads) {
  uint32_t slot = write(9);
  program(slot);
  EXPECT_EQ(wb_find(&wb, 9), slot);
  EXPECT_EQ(wb.slots[slot].state, WB_SLOT_CLEAN);
  EXPECT_EQ(wb.clean_count, 1u);
  EXPECT_EQ(wb.dirty_count, 0u);
  EXPECT_TRUE(wb_all_clean(&wb));
  EXPECT_TRUE(select(4).empty());  // clean entries are never programmed again
}

TEST_F(DataCacheTest, AWriteToACleanEntryIsAHitAndMakesItDirty) {
  uint32_t slot = wb_fill(&wb, 5);
  ASSERT_NE(slot, WB_NONE);
  EXPECT_EQ(wb.counters.fills, 1u);
  EXPECT_EQ(wb.slots[slot].request_pages, 0u);
  EXPECT_EQ(write(5), slot);
  EXPECT_EQ(wb.slots[slot].state, WB_SLOT_DIRTY);
  EXPECT_EQ(wb.counters.write_hits, 1u);
  EXPECT_EQ(wb.clean_count, 0u);
  EXPECT_EQ(wb.dirty_count, 1u);
  EXPECT_FALSE(wb_all_clean(&wb));
  EXPECT_EQ(wb_fill(&wb, 5), WB_NONE);  // a buffered LPN is never filled twice
}

TEST_F(DataCacheTest, WritesEvictTheLeastRecentCleanEntryAndReadHitsRenewOne) {
  for (uint32_t lpn = 0; lpn < 8; ++lpn) ASSERT_NE(wb_fill(&wb, lpn), WB_NONE);
  EXPECT_EQ(wb.free_count, 0u);
  wb_read_hit(&wb, wb_find(&wb, 0));  // 0 becomes the most recent: 1 is the least
  ASSERT_NE(write(100), WB_NONE);
  EXPECT_EQ(wb_find(&wb, 1), WB_NONE);
  EXPECT_NE(wb_find(&wb, 0), WB_NONE);
  EXPECT_EQ(wb.counters.evictions, 1u);
  ASSERT_NE(wb_fill(&wb, 200), WB_NONE);  // a fill evicts the next least recent: 2
  EXPECT_EQ(wb_find(&wb, 2), WB_NONE);
  EXPECT_EQ(wb.counters.evictions, 2u);
}

TEST_F(DataCacheTest, DirtyEntriesAreNeverEvicted) {
  for (uint32_t lpn = 0; lpn < 8; ++lpn) ASSERT_NE(write(lpn), WB_NONE);
  EXPECT_EQ(wb_fill(&wb, 50), WB_NONE);
  EXPECT_EQ(write(51), WB_NONE);
  EXPECT_EQ(wb.counters.evictions, 0u);
}

TEST_F(DataCacheTest, AProgrammedPageTakesItsPlaceInTheLruByItsLastWrite) {
  uint32_t a = wb_fill(&wb, 10);  // oldest
  uint32_t b = write(11);
  uint32_t c = wb_fill(&wb, 12);
  for (uint32_t lpn = 13; lpn < 18; ++lpn) ASSERT_NE(wb_fill(&wb, lpn), WB_NONE);
  program(b);  // between a and c, not the most recent
  ASSERT_NE(write(100), WB_NONE);
  EXPECT_EQ(wb_find(&wb, 10), WB_NONE);
  ASSERT_NE(write(101), WB_NONE);
  EXPECT_EQ(wb_find(&wb, 11), WB_NONE);
  EXPECT_EQ(wb_find(&wb, 12), c);
  (void)a;
}

TEST_F(DataCacheTest, ANewerCopyLeavesTheOlderToBeReleasedAndATrimDropsACleanEntry) {
  uint32_t old_copy = write(5);
  wb_start_program(&wb, old_copy);
  uint32_t new_copy = write(5);
  wb_programmed(&wb, old_copy);
  wb_settle(&wb, old_copy);  // superseded: released, not kept
  EXPECT_EQ(wb.slots[old_copy].state, WB_SLOT_FREE);
  EXPECT_EQ(wb_find(&wb, 5), new_copy);
  program(new_copy);
  EXPECT_EQ(wb.slots[new_copy].state, WB_SLOT_CLEAN);
  EXPECT_TRUE(wb_trim(&wb, 5));
  EXPECT_EQ(wb_find(&wb, 5), WB_NONE);
  EXPECT_EQ(wb.free_count, 8u);
}

}  // namespace
