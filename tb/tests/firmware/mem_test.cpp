// fw_memcpy, fw_memmove and fw_memset (firmware/lib/mem.c) against the host's: every alignment of
// both ends and lengths across the word and 16-byte paths, overlapping moves both ways, and no
// byte outside the destination touched.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "firmware/lib/mem.h"

namespace {

constexpr size_t kArena = 160;
constexpr size_t kMaxLength = 70;

std::vector<uint8_t> Pattern(uint8_t seed) {
  std::vector<uint8_t> bytes(kArena);
  for (size_t i = 0; i < kArena; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 37u);
  }
  return bytes;
}

TEST(FirmwareMem, CopyMatchesHostAtEveryAlignmentAndLength) {
  const std::vector<uint8_t> source = Pattern(1);
  for (size_t to = 0; to < 8; ++to) {
    for (size_t from = 0; from < 8; ++from) {
      for (size_t length = 0; length <= kMaxLength; ++length) {
        std::vector<uint8_t> expected = Pattern(200);
        std::vector<uint8_t> actual = expected;
        std::memcpy(&expected[to], &source[from], length);
        void* returned = fw_memcpy(&actual[to], &source[from], length);
        ASSERT_EQ(returned, &actual[to]);
        ASSERT_EQ(actual, expected) << "to " << to << " from " << from << " length " << length;
      }
    }
  }
}

TEST(FirmwareMem, OverlappingMovesMatchHostBothWays) {
  for (size_t to = 0; to < 40; ++to) {
    for (size_t from = 0; from < 40; ++from) {
      for (size_t length = 0; length <= kMaxLength; length += 3) {
        std::vector<uint8_t> expected = Pattern(9);
        std::vector<uint8_t> actual = expected;
        std::memmove(&expected[to], &expected[from], length);
        void* returned = fw_memmove(&actual[to], &actual[from], length);
        ASSERT_EQ(returned, &actual[to]);
        ASSERT_EQ(actual, expected) << "to " << to << " from " << from << " length " << length;
      }
    }
  }
}

TEST(FirmwareMem, FillMatchesHostAtEveryAlignmentAndLength) {
  for (int value : {0, 0x5A, 0x1FF, -1}) {
    for (size_t to = 0; to < 8; ++to) {
      for (size_t length = 0; length <= kMaxLength; ++length) {
        std::vector<uint8_t> expected = Pattern(77);
        std::vector<uint8_t> actual = expected;
        std::memset(&expected[to], value, length);
        void* returned = fw_memset(&actual[to], value, length);
        ASSERT_EQ(returned, &actual[to]);
        ASSERT_EQ(actual, expected) << "value " << value << " to " << to << " length " << length;
      }
    }
  }
}

}  // namespace
