// LeaFTL's conflict resolution buffer (firmware/ftl/map/leaftl_crb): long random sequences of
// inserts, erases and run removals against a reference (each offset's run), with the layout's
// rules checked after each step: runs increasing and in start order, no offset twice, offset 0
// only as the first byte, separators everywhere else; each run copied out whole by its start.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

extern "C" {
#include "ftl/map/leaftl_crb.h"
}

namespace {

// The reference: run id -> its offsets.
using Runs = std::map<int, std::set<uint32_t>>;

std::vector<std::vector<uint32_t>> parse(const leaftl_crb_t& crb) {
  std::vector<std::vector<uint32_t>> runs;
  for (uint32_t i = 0; i < crb.length; ++i) {
    if (i == 0 || crb.bytes[i] == 0) runs.emplace_back();
    if (i != 0 && crb.bytes[i] == 0) continue;
    runs.back().push_back(crb.bytes[i]);
  }
  return runs;
}

void expect_matches(const leaftl_crb_t& crb, const Runs& reference) {
  const std::vector<std::vector<uint32_t>> runs = parse(crb);
  std::vector<std::vector<uint32_t>> expected;
  for (const auto& [id, offsets] : reference) {
    if (!offsets.empty()) expected.emplace_back(offsets.begin(), offsets.end());
  }
  std::sort(expected.begin(), expected.end());  // by first offset: runs are disjoint
  ASSERT_EQ(runs, expected);
  std::set<uint32_t> seen;
  for (const std::vector<uint32_t>& run : runs) {
    ASSERT_FALSE(run.empty()) << "no empty run";
    uint8_t copied[256];
    const uint32_t copied_length = leaftl_crb_run(&crb, run.front(), copied);
    EXPECT_EQ(std::vector<uint32_t>(copied, copied + copied_length), run);
    for (uint32_t offset : run) {
      ASSERT_TRUE(seen.insert(offset).second) << "offset " << offset << " twice";
      EXPECT_EQ(leaftl_crb_start_of(&crb, offset), static_cast<int32_t>(run.front()));
    }
  }
  for (uint32_t offset = 0; offset < 256; ++offset) {
    const bool starts_run =
        std::any_of(runs.begin(), runs.end(), [&](const auto& run) { return run.front() == offset; });
    uint8_t copied[256];
    if (!starts_run) {
      EXPECT_EQ(leaftl_crb_run(&crb, offset, copied), 0u) << offset;
    }
    if (!seen.count(offset)) {
      EXPECT_EQ(leaftl_crb_start_of(&crb, offset), -1) << offset;
    }
  }
}

TEST(LeaftlCrb, RandomInsertsErasesAndRemovalsMatchTheReference) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<uint32_t> offset(0, 255), length(1, 24), percent(0, 99);
  alignas(4) static uint8_t bytes[LEAFTL_CRB_MAX_BYTES];
  for (int round = 0; round < 20; ++round) {
    leaftl_crb_t crb;
    leaftl_crb_init(&crb, bytes, sizeof bytes);
    Runs reference;
    int next_id = 0;
    for (int step = 0; step < 400; ++step) {
      const uint32_t roll = percent(rng);
      if (roll < 60) {
        std::set<uint32_t> chosen;
        const uint32_t first = offset(rng), n = length(rng);
        for (uint32_t i = 0; i < n; ++i) chosen.insert(std::min(255u, first + offset(rng) % 40));
        const std::vector<uint8_t> run(chosen.begin(), chosen.end());
        ASSERT_TRUE(leaftl_crb_insert(&crb, run.data(), static_cast<uint32_t>(run.size())));
        for (auto& [id, offsets] : reference) {
          for (uint32_t o : chosen) offsets.erase(o);
        }
        reference[next_id++] = chosen;
      } else if (roll < 85) {
        const uint32_t o = offset(rng);
        leaftl_crb_erase(&crb, o);
        for (auto& [id, offsets] : reference) offsets.erase(o);
      } else if (!reference.empty()) {
        const std::vector<std::vector<uint32_t>> runs = parse(crb);
        if (runs.empty()) continue;
        const uint32_t start = runs[offset(rng) % runs.size()].front();
        leaftl_crb_remove_run(&crb, start);
        for (auto& [id, offsets] : reference) {
          if (!offsets.empty() && *offsets.begin() == start) offsets.clear();
        }
      }
      ASSERT_NO_FATAL_FAILURE(expect_matches(crb, reference)) << "round " << round << " step "
                                                              << step;
    }
  }
}

TEST(LeaftlCrb, OffsetZeroIsNoSeparatorAndANewStartMovesTheOldOne) {
  alignas(4) static uint8_t bytes[LEAFTL_CRB_MAX_BYTES];
  leaftl_crb_t crb;
  leaftl_crb_init(&crb, bytes, sizeof bytes);
  const uint8_t first[] = {0, 3, 9};
  const uint8_t second[] = {4, 5};
  ASSERT_TRUE(leaftl_crb_insert(&crb, second, 2));
  ASSERT_TRUE(leaftl_crb_insert(&crb, first, 3));
  EXPECT_EQ(crb.length, 6u) << "0 3 9 | 4 5";
  EXPECT_EQ(leaftl_crb_start_of(&crb, 0), 0);
  EXPECT_EQ(leaftl_crb_start_of(&crb, 9), 0);
  EXPECT_EQ(leaftl_crb_start_of(&crb, 5), 4);
  // The paper's Figure 9 case: a new run starting where an old one starts takes that offset, and
  // the old run now starts at its next offset.
  const uint8_t same_start[] = {4, 7};
  ASSERT_TRUE(leaftl_crb_insert(&crb, same_start, 2));
  EXPECT_EQ(leaftl_crb_start_of(&crb, 5), 5);
  EXPECT_EQ(leaftl_crb_start_of(&crb, 4), 4);
  EXPECT_EQ(leaftl_crb_start_of(&crb, 7), 4);
}

TEST(LeaftlCrb, ARunThatDoesNotFitChangesNothing) {
  alignas(4) static uint8_t bytes[8];
  leaftl_crb_t crb;
  leaftl_crb_init(&crb, bytes, sizeof bytes);
  const uint8_t a[] = {10, 11, 12};
  const uint8_t b[] = {20, 21, 22, 23, 24};
  ASSERT_TRUE(leaftl_crb_insert(&crb, a, 3));
  EXPECT_FALSE(leaftl_crb_insert(&crb, b, 5)) << "3 + 1 + 5 bytes > 8";
  EXPECT_EQ(crb.length, 3u);
  EXPECT_EQ(leaftl_crb_start_of(&crb, 20), -1);
  const uint8_t c[] = {11, 12, 30, 31};
  EXPECT_TRUE(leaftl_crb_insert(&crb, c, 4)) << "it takes 11 and 12 from the first: 10 | 11 12 30 31";
  EXPECT_EQ(crb.length, 6u);
}

}  // namespace
