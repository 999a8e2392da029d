// LeaFTL's 8-byte segments (firmware/ftl/map/leaftl_segment.h) from what PLR learns: they
// predict what PLR's segments predict, and cover exactly the LPNs learned, accurate ones by their
// stride, approximate ones through the group's CRB.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

extern "C" {
#include "ftl/map/leaftl_crb.h"
#include "ftl/map/leaftl_segment.h"
#include "ml/plr.h"
}

namespace {

TEST(LeaftlSegment, CoversExactlyTheLearnedLpnsAndPredictsAsPlr) {
  std::mt19937 rng(41);
  std::uniform_int_distribution<uint32_t> gap(1, 3), jump(0, 99);
  for (uint32_t gamma : {0u, 4u}) {
    for (int round = 0; round < 30; ++round) {
      // One group's LPNs, sorted, programmed to consecutive VPNs with an occasional jump.
      std::vector<uint32_t> x, y;
      uint32_t lpn = 512 + gap(rng) - 1, vpn = 70000;
      while (lpn < 768) {
        x.push_back(lpn);
        y.push_back(vpn);
        lpn += gap(rng);
        vpn += jump(rng) < 5 ? 50 : 1;
      }
      std::vector<plr_segment_t> learned(x.size());
      learned.resize(plr_learn(x.data(), y.data(), static_cast<uint32_t>(x.size()), gamma, 256,
                               learned.data()));
      alignas(4) static uint8_t crb_bytes[LEAFTL_CRB_MAX_BYTES];
      leaftl_crb_t crb;
      leaftl_crb_init(&crb, crb_bytes, sizeof crb_bytes);
      size_t next = 0;
      std::vector<std::set<uint32_t>> offsets;
      for (const plr_segment_t& s : learned) {
        std::set<uint32_t> mine;
        std::vector<uint8_t> run;
        for (size_t i = next; i < next + s.points; ++i) {
          mine.insert(x[i] % 256);
          run.push_back(static_cast<uint8_t>(x[i] % 256));
        }
        if (!plr_accurate(&s)) {
          ASSERT_TRUE(leaftl_crb_insert(&crb, run.data(), static_cast<uint32_t>(run.size())));
        }
        offsets.push_back(mine);
        next += s.points;
      }
      next = 0;
      for (size_t k = 0; k < learned.size(); ++k) {
        const leaftl_segment_t segment = leaftl_segment_of(&learned[k], 512);
        EXPECT_EQ(leaftl_segment_accurate(&segment), plr_accurate(&learned[k]));
        for (size_t i = next; i < next + learned[k].points; ++i) {
          EXPECT_EQ(leaftl_segment_predict(&segment, x[i] % 256), plr_predict(&learned[k], x[i]));
        }
        for (uint32_t offset = 0; offset < 256; ++offset) {
          EXPECT_EQ(leaftl_segment_covers(&segment, offset, &crb), offsets[k].count(offset) == 1)
              << "gamma " << gamma << " segment " << k << " offset " << offset;
        }
        next += learned[k].points;
      }
    }
  }
}

}  // namespace
