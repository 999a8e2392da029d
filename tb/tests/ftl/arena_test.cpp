#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "lib/arena.h"
#include "lib/format.h"
}

namespace {

std::string printed;

int capture(const char *format, ...) {
  char line[256];
  va_list args;
  va_start(args, format);
  int length = fw_vsnprintf(line, sizeof line, format, args);
  va_end(args);
  printed += line;
  return length;
}

struct ArenaTest : ::testing::Test {
  alignas(8) uint8_t memory[1024];
  arena_t arena;
  void SetUp() override {
    printed.clear();
    std::memset(memory, 0xA5, sizeof memory);
    arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
  }
};

TEST_F(ArenaTest, AllocationsAreAlignedZeroedAndDisjoint) {
  auto *a = static_cast<uint8_t *>(arena_alloc(&arena, "a", 5));
  auto *b = static_cast<uint8_t *>(arena_alloc(&arena, "b", 17));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % ARENA_ALIGN, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % ARENA_ALIGN, 0u);
  EXPECT_GE(b, a + 5);
  for (int i = 0; i < 17; ++i) EXPECT_EQ(b[i], 0);
  EXPECT_EQ(arena.used, 8u + 24u);
  EXPECT_EQ(arena_free_bytes(&arena), 1024u - 32u);
  EXPECT_TRUE(arena_fits(&arena));
}

TEST_F(ArenaTest, AlignedAllocationsSkipToTheBoundaryAndCountTheGap) {
  ASSERT_NE(arena_alloc(&arena, "small", 8), nullptr);
  auto *ring = static_cast<uint8_t *>(arena_alloc_aligned(&arena, "ring", 64, 32));
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ring) % 32, 0u);
  uintptr_t offset = reinterpret_cast<uintptr_t>(ring) - reinterpret_cast<uintptr_t>(arena.base);
  EXPECT_EQ(arena.used, offset + 64u);
  // A refused aligned request gives the gap back.
  uint32_t used = arena.used;
  EXPECT_EQ(arena_alloc_aligned(&arena, "too_big", 2048, 32), nullptr);
  EXPECT_EQ(arena.used, used);
  EXPECT_STREQ(arena.first_refused, "too_big");
}

TEST_F(ArenaTest, UnalignedBaseCostsTheSkippedBytes) {
  arena_t shifted;
  arena_init(&shifted, memory + 3, 100, FW_STATS_LOCATION_SRAM);
  EXPECT_EQ(shifted.capacity, 100u - 5u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(shifted.base) % ARENA_ALIGN, 0u);
}

TEST_F(ArenaTest, ExactFitSucceedsAndOneMoreByteIsRefused) {
  ASSERT_NE(arena_alloc(&arena, "all", 1024), nullptr);
  EXPECT_EQ(arena_free_bytes(&arena), 0u);
  EXPECT_EQ(arena_alloc(&arena, "extra", 1), nullptr);
  EXPECT_FALSE(arena_fits(&arena));
}

TEST_F(ArenaTest, OverBudgetReportNamesEveryRegionAndTheRefusal) {
  ASSERT_NE(arena_alloc(&arena, "gtd", 400), nullptr);
  ASSERT_NE(arena_alloc(&arena, "write_buffer", 500), nullptr);
  EXPECT_EQ(arena_alloc(&arena, "map_cache", 300), nullptr);
  EXPECT_EQ(arena_alloc(&arena, "huge", 0xFFFFFFF0u), nullptr);  // rounding must not wrap
  EXPECT_EQ(arena.refused_count, 2u);
  EXPECT_EQ(arena.refused_bytes, 300u + 0xFFFFFFF0u);
  EXPECT_STREQ(arena.first_refused, "map_cache");
  arena_print_breakdown(&arena, "SRAM", capture);
  EXPECT_NE(printed.find("SRAM arena: 904 of 1024 bytes used"), std::string::npos) << printed;
  EXPECT_NE(printed.find("gtd"), std::string::npos);
  EXPECT_NE(printed.find("400"), std::string::npos);
  EXPECT_NE(printed.find("write_buffer"), std::string::npos);
  EXPECT_NE(printed.find("did not fit: 2 request(s)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("first \"map_cache\"; 120 bytes were free"), std::string::npos) << printed;
}

TEST_F(ArenaTest, AFullRegionTableRefusesAndIsNamedInTheBreakdown) {
  for (uint32_t i = 0; i < ARENA_MAX_REGIONS; ++i) {
    ASSERT_NE(arena_alloc(&arena, "r", 0), nullptr) << i;
  }
  EXPECT_EQ(arena_alloc(&arena, "one_too_many", 8), nullptr);
  EXPECT_STREQ(arena.first_refused, "one_too_many");
  EXPECT_FALSE(arena_fits(&arena));
  arena_print_breakdown(&arena, "SRAM", capture);
  EXPECT_NE(printed.find("the region table is full: ARENA_MAX_REGIONS is 128"), std::string::npos)
      << printed;
}

TEST_F(ArenaTest, ExportFillsTheStatisticsBlockPerMemory) {
  alignas(8) uint8_t dram_memory[256];
  arena_t dram;
  arena_init(&dram, dram_memory, sizeof dram_memory, FW_STATS_LOCATION_DRAM);
  arena_alloc(&arena, "gtd", 100);
  arena_alloc(&dram, "write_buffer", 200);
  fw_stats_t stats{};
  arena_export(&arena, &stats);
  arena_export(&dram, &stats);
  ASSERT_EQ(stats.region_count, 2u);
  // Names go out as 32-bit addresses: the controller's; a host build keeps their low bits.
  EXPECT_EQ(stats.regions[0].name,
            static_cast<uint32_t>(reinterpret_cast<uintptr_t>(arena.regions[0].name)));
  EXPECT_STREQ(arena.regions[0].name, "gtd");
  EXPECT_EQ(stats.regions[0].bytes, 100u);
  EXPECT_EQ(stats.regions[0].location, FW_STATS_LOCATION_SRAM);
  EXPECT_STREQ(dram.regions[0].name, "write_buffer");
  EXPECT_EQ(stats.regions[1].location, FW_STATS_LOCATION_DRAM);
  EXPECT_EQ(stats.sram_budget_bytes, 1024u);
  EXPECT_EQ(stats.sram_used_bytes, 104u);
  EXPECT_EQ(stats.dram_budget_bytes, 256u);
  EXPECT_EQ(stats.dram_used_bytes, 200u);
}

}  // namespace
