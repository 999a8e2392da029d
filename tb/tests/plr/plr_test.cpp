// firmware/ml/plr and firmware/lib/half.h: every segment checked by brute force on random and
// adversarial inputs (the error bound at every point, exactness and spacing of accurate
// segments, segments partitioning the input within span groups), binary16 against the nearest
// representable value, and the segments the paper's examples call for.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "lib/half.h"
#include "ml/plr.h"
}

namespace {

TEST(Half, EveryFiniteHalfSurvivesTheRoundTrip) {
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const uint16_t half = static_cast<uint16_t>(bits);
    if ((half & 0x7C00u) == 0x7C00u) continue;  // infinities and NaNs
    EXPECT_EQ(half_from_float(half_to_float(half)), half) << std::hex << bits;
  }
  EXPECT_EQ(half_to_float(0x3C00u), 1.0f);
  EXPECT_EQ(half_to_float(0x3800u), 0.5f);
  EXPECT_EQ(half_to_float(0x0001u), std::ldexp(1.0f, -24)) << "the smallest subnormal";
  EXPECT_EQ(half_from_float(1e9f), 0x7C00u) << "too large: infinity";
  EXPECT_EQ(half_from_float(std::ldexp(1.0f, -26)), 0u) << "below half the smallest subnormal";
}

TEST(Half, AFloatBecomesTheNearestHalfTiesToEven) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> exponent(-26.0f, 15.99f);  // below the largest half
  for (int i = 0; i < 200000; ++i) {
    const float value = std::exp2(exponent(rng));
    const uint16_t half = half_from_float(value);
    const float error = std::fabs(half_to_float(half) - value);
    const float above = half_to_float(static_cast<uint16_t>(half + 1u));
    ASSERT_LE(error, std::fabs(above - value)) << value;
    if (half != 0) {
      const float below = half_to_float(static_cast<uint16_t>(half - 1u));
      ASSERT_LE(error, std::fabs(value - below)) << value;
      if (error == std::fabs(value - below)) {
        ASSERT_EQ(half & 1u, 0u) << "a tie goes to the even half: " << value;
      }
    }
  }
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: the even one, 1.
  EXPECT_EQ(half_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);
  EXPECT_EQ(half_from_float(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);
}

struct Points {
  std::vector<uint32_t> x, y;
};

// Checks the segments against the points by brute force; `where` names the case.
void expect_valid(const Points& p, const std::vector<plr_segment_t>& segments, uint32_t gamma,
                  uint32_t span, const std::string& where) {
  size_t next = 0;
  for (const plr_segment_t& s : segments) {
    ASSERT_GT(s.points, 0u) << where;
    ASSERT_LE(next + s.points, p.x.size()) << where;
    EXPECT_EQ(s.first_x, p.x[next]) << where;
    EXPECT_EQ(s.last_x, p.x[next + s.points - 1]) << where;
    EXPECT_EQ(s.first_x / span, s.last_x / span) << "a segment crosses a group: " << where;
    if (gamma == 0) {
      EXPECT_TRUE(plr_accurate(&s)) << where;
    }
    for (size_t i = next; i < next + s.points; ++i) {
      const int64_t error =
          static_cast<int64_t>(static_cast<int32_t>(plr_predict(&s, p.x[i]) - p.y[i]));
      if (plr_accurate(&s)) {
        ASSERT_EQ(error, 0) << where << " point " << i;
        if (i > next) {
          ASSERT_EQ(p.x[i] - p.x[i - 1], plr_stride(s.slope)) << where << " " << i;
        }
      } else {
        ASSERT_LE(std::llabs(error), static_cast<int64_t>(gamma)) << where << " point " << i;
      }
    }
    next += s.points;
  }
  EXPECT_EQ(next, p.x.size()) << "every point in one segment: " << where;
}

std::vector<plr_segment_t> learn(const Points& p, uint32_t gamma, uint32_t span = 256) {
  std::vector<plr_segment_t> segments(p.x.size());
  const uint32_t n = plr_learn(p.x.data(), p.y.data(), static_cast<uint32_t>(p.x.size()), gamma,
                               span, segments.data());
  segments.resize(n);
  return segments;
}

// A flush batch: sorted distinct LPNs with random gaps, programmed to consecutive VPNs from a
// random base, now and then a jump (a new stripe).
Points batch(std::mt19937& rng, uint32_t count, uint32_t max_gap) {
  std::uniform_int_distribution<uint32_t> gap(1, max_gap), percent(0, 99), base(0, 1u << 24);
  Points p;
  uint32_t x = base(rng), y = base(rng);
  for (uint32_t i = 0; i < count; ++i) {
    p.x.push_back(x);
    p.y.push_back(y);
    x += gap(rng);
    y += percent(rng) < 3 ? 1 + percent(rng) * 37 : 1;
  }
  return p;
}

TEST(Plr, EverySegmentKeepsTheErrorBoundOnRandomBatches) {
  std::mt19937 rng(17);
  for (uint32_t gamma : {0u, 1u, 4u, 16u}) {
    for (uint32_t max_gap : {1u, 2u, 3u, 8u, 64u}) {
      for (int round = 0; round < 40; ++round) {
        const Points p = batch(rng, 600, max_gap);
        expect_valid(p, learn(p, gamma), gamma, 256,
                     "gamma " + std::to_string(gamma) + " gap " + std::to_string(max_gap));
      }
    }
  }
}

// What gamma is for: irregular runs fold into fewer segments as the bound grows.
TEST(Plr, ALargerGammaLearnsFewerSegments) {
  std::mt19937 rng(29);
  const Points p = batch(rng, 4096, 4);
  size_t previous = p.x.size() + 1;
  for (uint32_t gamma : {0u, 1u, 4u, 16u}) {
    const size_t segments = learn(p, gamma).size();
    EXPECT_LT(segments, previous) << "gamma " << gamma;
    previous = segments;
  }
  EXPECT_LT(previous * 8, p.x.size()) << "gamma 16: runs of at least eight points";
}

TEST(Plr, AdversarialInputsKeepTheBoundToo) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> any(0, 0xFFFFFFF0u);
  for (uint32_t gamma : {0u, 2u, 16u}) {
    Points zigzag, wild, steep;
    for (uint32_t i = 0; i < 512; ++i) {
      zigzag.x.push_back(i * 2 + (i % 2));          // strides 3, 1, 3, 1 ...
      zigzag.y.push_back(i + (i % 3 == 0 ? 40 : 0));  // and y jumping back and forth
      wild.x.push_back(i * 5);
      wild.y.push_back(any(rng));                     // y anywhere, VPNs near 2^32 included
      steep.x.push_back(1000 + i);
      steep.y.push_back(i * 1000);                    // slope 1000
    }
    expect_valid(zigzag, learn(zigzag, gamma), gamma, 256, "zigzag");
    expect_valid(wild, learn(wild, gamma), gamma, 256, "wild");
    expect_valid(steep, learn(steep, gamma, 64), gamma, 64, "steep");
  }
}

TEST(Plr, RunsBecomeOneAccurateSegmentPerGroup) {
  Points run, stride2, stride3;
  for (uint32_t i = 0; i < 256; ++i) {
    run.x.push_back(512 + i);
    run.y.push_back(9000 + i);
    stride2.x.push_back(512 + 2 * i);
    stride2.y.push_back(70 + i);
    stride3.x.push_back(768 + 3 * (i % 85));
    stride3.y.push_back(5 + i % 85);
  }
  stride3.x.resize(85);
  stride3.y.resize(85);
  const std::vector<plr_segment_t> one = learn(run, 0);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_TRUE(plr_accurate(&one[0]));
  EXPECT_EQ(half_to_float(one[0].slope), 1.0f);
  EXPECT_EQ(one[0].points, 256u);
  EXPECT_EQ(plr_predict(&one[0], 700), 9000u + 188u);
  const std::vector<plr_segment_t> halves = learn(stride2, 0);
  ASSERT_EQ(halves.size(), 2u) << "512 LPNs: two groups";
  EXPECT_EQ(half_to_float(halves[0].slope), 0.5f);
  EXPECT_EQ(plr_stride(halves[0].slope), 2u);
  const std::vector<plr_segment_t> thirds = learn(stride3, 0);
  ASSERT_EQ(thirds.size(), 1u);
  EXPECT_EQ(plr_stride(thirds[0].slope), 3u);
  expect_valid(stride3, thirds, 0, 256, "stride 3");
}

// The paper's Figure 6: LPNs 0, 1, 4, 5 at VPNs 64..67 are not one accurate segment, but one
// approximate segment with gamma 1.
TEST(Plr, IrregularRunsAreApproximateWithAGammaAndSplitWithout) {
  const Points p{{0, 1, 4, 5}, {64, 65, 66, 67}};
  const std::vector<plr_segment_t> exact = learn(p, 0);
  EXPECT_GT(exact.size(), 1u);
  expect_valid(p, exact, 0, 256, "gamma 0");
  const std::vector<plr_segment_t> loose = learn(p, 1);
  ASSERT_EQ(loose.size(), 1u);
  EXPECT_FALSE(plr_accurate(&loose[0]));
  expect_valid(p, loose, 1, 256, "gamma 1");
}

TEST(Plr, ASinglePointIsASegmentOfItsOwn) {
  const Points p{{77}, {123456}};
  const std::vector<plr_segment_t> one = learn(p, 0);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].first_x, 77u);
  EXPECT_EQ(one[0].last_x, 77u);
  EXPECT_EQ(plr_predict(&one[0], 77), 123456u);
}

}  // namespace
