// LeaFTL's log-structured group index (firmware/ftl/map/leaftl_group): long random sequences of
// learned batches, inserted as the scheme inserts them, with compactions in between, against a
// reference map. After every step each LPN of the group translates to its last write (exactly
// through an accurate segment, within gamma through an approximate one) or to nothing, and the
// layout keeps its rules: sorted by level then start, no overlap within a level, no empty level.
// The batches overlap at random, far more than the paper's traces (its Figure 12): groups reach
// hundreds of segments and levels, which is the point here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <vector>

extern "C" {
#include "ftl/map/leaftl_group.h"
#include "ml/plr.h"
}

namespace {

struct Harness {
  std::vector<leaftl_segment_t> segments = std::vector<leaftl_segment_t>(4096);
  std::vector<uint8_t> levels = std::vector<uint8_t>(4096);
  std::vector<uint8_t> crb = std::vector<uint8_t>(LEAFTL_CRB_MAX_BYTES);
  leaftl_group_t group{};
  std::map<uint32_t, uint32_t> reference;  // offset -> VPN of its last write
  uint32_t gamma;

  explicit Harness(uint32_t g) : gamma(g) {
    leaftl_group_init(&group, segments.data(), levels.data(), 4096, crb.data(),
                      LEAFTL_CRB_MAX_BYTES);
  }

  // Learns the batch (offsets increasing) and inserts its segments, in order.
  void write(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
    std::vector<plr_segment_t> learned(x.size());
    const uint32_t count = plr_learn(x.data(), y.data(), static_cast<uint32_t>(x.size()), gamma,
                                     LEAFTL_GROUP_LPNS, learned.data());
    uint32_t point = 0;
    for (uint32_t s = 0; s < count; ++s) {
      const leaftl_segment_t segment = leaftl_segment_of(&learned[s], 0);
      std::vector<uint8_t> offsets;
      for (uint32_t i = 0; i < learned[s].points; ++i) {
        offsets.push_back(static_cast<uint8_t>(x[point + i]));
      }
      point += learned[s].points;
      if (group.level_count + 1u >= LEAFTL_MAX_LEVELS) {
        leaftl_group_compact(&group);  // as the scheme does when the levels run out
      }
      ASSERT_LT(group.count, group.capacity);
      ASSERT_LT(group.level_count, LEAFTL_MAX_LEVELS);
      if (leaftl_segment_accurate(&segment)) {
        leaftl_group_insert(&group, &segment, nullptr, 0);
      } else {
        ASSERT_LE(group.crb.length + leaftl_group_crb_room(offsets.size()), group.crb.capacity);
        leaftl_group_insert(&group, &segment, offsets.data(), static_cast<uint32_t>(offsets.size()));
      }
    }
    for (size_t i = 0; i < x.size(); ++i) reference[x[i]] = y[i];
  }

  void check(const std::string& where) const {
    std::set<uint32_t> levels_seen;
    for (uint32_t i = 0; i < group.count; ++i) {
      levels_seen.insert(group.levels[i]);
      if (i > 0) {
        ASSERT_TRUE(group.levels[i - 1] < group.levels[i] ||
                    (group.levels[i - 1] == group.levels[i] &&
                     group.segments[i - 1].start + group.segments[i - 1].length <
                         group.segments[i].start))
            << "order or overlap within a level at " << i << ": " << where;
      }
    }
    ASSERT_EQ(levels_seen.size(), group.level_count) << where;
    if (group.level_count != 0) {
      ASSERT_EQ(*levels_seen.rbegin() + 1u, group.level_count) << where;
    }
    for (uint32_t offset = 0; offset < LEAFTL_GROUP_LPNS; ++offset) {
      leaftl_segment_t found;
      uint32_t searched = 0;
      const bool hit = leaftl_group_lookup(&group, offset, &found, &searched);
      const auto expected = reference.find(offset);
      if (expected == reference.end()) {
        ASSERT_FALSE(hit) << "offset " << offset << " never written: " << where;
        continue;
      }
      ASSERT_TRUE(hit) << "offset " << offset << " lost: " << where;
      ASSERT_GE(searched, 1u);
      ASSERT_LE(searched, group.level_count);
      const uint32_t predicted = leaftl_segment_predict(&found, offset);
      const int64_t error = static_cast<int64_t>(predicted) - expected->second;
      if (leaftl_segment_accurate(&found)) {
        ASSERT_EQ(error, 0) << "offset " << offset << ": " << where;
      } else {
        ASSERT_LE(std::abs(error), gamma) << "offset " << offset << ": " << where;
      }
    }
  }
};

// One batch: a sorted write-buffer flush (consecutive VPNs, runs of consecutive LPNs, strided
// runs and scattered LPNs), or a GC-like batch whose VPNs follow another order.
void random_batch(std::mt19937& rng, uint32_t& next_vpn, std::vector<uint32_t>& x,
                  std::vector<uint32_t>& y) {
  std::uniform_int_distribution<uint32_t> percent(0, 99), offset(0, 255), length(1, 64);
  std::set<uint32_t> chosen;
  const uint32_t kind = percent(rng);
  const uint32_t pieces = 1 + percent(rng) % 4;
  for (uint32_t p = 0; p < pieces; ++p) {
    const uint32_t first = offset(rng), n = length(rng);
    const uint32_t stride = kind < 20 ? 1 + percent(rng) % 4 : 1;
    for (uint32_t i = 0; i < n && first + i * stride < 256; ++i) {
      if (kind >= 70 && percent(rng) < 40) continue;  // gaps: approximate segments
      chosen.insert(first + i * stride);
    }
  }
  x.assign(chosen.begin(), chosen.end());
  y.clear();
  for (size_t i = 0; i < x.size(); ++i) {
    y.push_back(next_vpn);
    next_vpn += (kind >= 90 && percent(rng) < 10) ? 2 : 1;  // a filler page now and then
  }
  if (kind >= 95) std::shuffle(y.begin(), y.end(), rng);  // GC moving in another order
  next_vpn += 1000;
}

void run_sequence(uint32_t gamma, uint32_t seed) {
  std::mt19937 rng(seed);
  Harness harness(gamma);
  uint32_t next_vpn = 5000;
  std::uniform_int_distribution<uint32_t> percent(0, 99);
  for (int step = 0; step < 600; ++step) {
    std::vector<uint32_t> x, y;
    random_batch(rng, next_vpn, x, y);
    harness.write(x, y);
    std::ostringstream where;
    where << "gamma " << gamma << " seed " << seed << " step " << step;
    ASSERT_NO_FATAL_FAILURE(harness.check(where.str()));
    if (percent(rng) < 5) {
      const uint32_t before = harness.group.count;
      leaftl_group_compact(&harness.group);
      ASSERT_NO_FATAL_FAILURE(harness.check(where.str() + " after compaction"));
      ASSERT_LE(harness.group.count, before) << "compaction never adds segments";
    }
  }
  leaftl_group_compact(&harness.group);
  ASSERT_NO_FATAL_FAILURE(harness.check("final compaction"));
}

TEST(LeaftlGroup, AccurateSegmentsTranslateEveryLpnToItsLastWrite) {
  for (uint32_t seed = 1; seed <= 6; ++seed) ASSERT_NO_FATAL_FAILURE(run_sequence(0, seed));
}

TEST(LeaftlGroup, ApproximateSegmentsPredictWithinGammaOfTheLastWrite) {
  for (uint32_t gamma : {1u, 4u, 16u}) {
    for (uint32_t seed = 1; seed <= 4; ++seed) ASSERT_NO_FATAL_FAILURE(run_sequence(gamma, seed));
  }
}

// The paper's Figure 13: [0, 63] then [16, 31] on top leaves [0, 63] a level down; a segment that
// covers a whole older one on its level removes it, one on a lower level waits for compaction.
TEST(LeaftlGroup, FigureThirteenLevels) {
  Harness harness(0);
  std::vector<uint32_t> x, y;
  for (uint32_t i = 0; i <= 63; ++i) x.push_back(i), y.push_back(100 + i);
  harness.write(x, y);
  EXPECT_EQ(harness.group.level_count, 1u);
  x.clear(), y.clear();
  for (uint32_t i = 200; i <= 255; ++i) x.push_back(i), y.push_back(400 + i);
  harness.write(x, y);
  EXPECT_EQ(harness.group.level_count, 1u) << "no overlap: the same level";
  x.clear(), y.clear();
  for (uint32_t i = 16; i <= 31; ++i) x.push_back(i), y.push_back(1000 + i);
  harness.write(x, y);
  EXPECT_EQ(harness.group.level_count, 2u) << "[0, 63] still overlaps [16, 31]: a level down";
  harness.check("T2");
  leaftl_segment_t found;
  uint32_t searched;
  ASSERT_TRUE(leaftl_group_lookup(&harness.group, 50, &found, &searched));
  EXPECT_EQ(searched, 2u) << "LPN 50: level 1";
  x.clear(), y.clear();
  for (uint32_t i = 0; i <= 63; ++i) x.push_back(i), y.push_back(2000 + i);
  harness.write(x, y);
  EXPECT_EQ(harness.group.count, 3u) << "[16, 31] goes; the old [0, 63] waits a level down";
  EXPECT_EQ(harness.group.level_count, 2u);
  harness.check("T3");
  leaftl_group_compact(&harness.group);
  EXPECT_EQ(harness.group.count, 2u) << "compaction removes the old [0, 63]";
  EXPECT_EQ(harness.group.level_count, 1u);
  harness.check("T4");
}

// A partial group completed from its TP: the older mappings of the offsets no segment has go in
// as one level under the others; lookups still find every offset's last write, before and after
// more writes and a compaction.
TEST(LeaftlGroup, OlderMappingsGoUnderTheOthersAsALevelBelow) {
  for (uint32_t gamma : {0u, 4u}) {
    Harness harness(gamma);
    std::mt19937 rng(17 + gamma);
    uint32_t next_vpn = 0;
    std::vector<uint32_t> x, y;
    for (int batch = 0; batch < 6; ++batch) {
      random_batch(rng, next_vpn, x, y);
      harness.write(x, y);
    }
    // The TP's entries for the offsets the segments lack, in a random VPN order (GC moved them).
    std::vector<uint32_t> older_x, older_y;
    for (uint32_t offset = 0; offset < LEAFTL_GROUP_LPNS; ++offset) {
      if (harness.reference.count(offset) == 0 && offset % 3 != 0) {
        older_x.push_back(offset);
        older_y.push_back(500000 + (offset * 7919u) % 1000u);
      }
    }
    std::vector<plr_segment_t> learned(older_x.size());
    const uint32_t count = plr_learn(older_x.data(), older_y.data(),
                                     static_cast<uint32_t>(older_x.size()), 0, LEAFTL_GROUP_LPNS,
                                     learned.data());
    std::vector<leaftl_segment_t> below;
    for (uint32_t s = 0; s < count; ++s) below.push_back(leaftl_segment_of(&learned[s], 0));
    const uint32_t levels = harness.group.level_count;
    leaftl_group_add_level_below(&harness.group, below.data(), count);
    EXPECT_EQ(harness.group.level_count, levels + 1u) << "gamma " << gamma;
    for (size_t i = 0; i < older_x.size(); ++i) harness.reference[older_x[i]] = older_y[i];
    harness.check("completed, gamma " + std::to_string(gamma));
    for (int batch = 0; batch < 4; ++batch) {
      random_batch(rng, next_vpn, x, y);
      harness.write(x, y);
      harness.check("written over, gamma " + std::to_string(gamma));
    }
    leaftl_group_compact(&harness.group);
    harness.check("compacted, gamma " + std::to_string(gamma));
  }
}

}  // namespace
