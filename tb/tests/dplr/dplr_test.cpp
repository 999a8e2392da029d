// firmware/ml/dplr: the pieces LearnedFTL's DPLR cuts (large segments, the sharing of the other
// pieces among the gaps, demotion), their least-squares lines against a double-precision
// reference, exact predictions on contiguous runs up to large VPN offsets, and the structural
// invariants (at most max_pieces pieces covering [0, last x] without overlap) on random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "ml/dplr.h"
}

namespace {

struct Points {
  std::vector<uint16_t> x;
  std::vector<int32_t> y;
};

// Appends runs (contiguous in x and y) and scattered points (x two apart, never contiguous);
// whatever follows a run starts two x and 50 y after it, so runs stay maximal.
class Builder {
 public:
  explicit Builder(int32_t first_y = 0, uint16_t first_x = 0) : x_(first_x), y_(first_y) {}

  Builder& run(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) push(1, 1);
    x_ += 1;
    y_ += 49;
    return *this;
  }

  Builder& scattered(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) push(2, static_cast<int32_t>(1 + i % 3));
    return *this;
  }

  const Points& points() const { return p_; }

 private:
  void push(uint32_t dx, int32_t dy) {
    p_.x.push_back(static_cast<uint16_t>(x_));
    p_.y.push_back(y_);
    x_ += dx;
    y_ += dy;
  }

  Points p_;
  uint32_t x_;
  int32_t y_;
};

constexpr uint16_t kUnwritten = 0xBEEF;

std::vector<dplr_piece_t> fit(const Points& p, uint32_t max_pieces) {
  dplr_scratch_t scratch;
  std::memset(&scratch, 0xA5, sizeof scratch);  // no reliance on a zeroed workspace
  // Room for more than max_pieces: what lies beyond must stay unwritten.
  std::vector<dplr_piece_t> pieces(DPLR_MAX_PIECES + 4, dplr_piece_t{kUnwritten, 0.0f, 0.0f});
  const uint32_t n = dplr_fit(p.x.data(), p.y.data(), static_cast<uint32_t>(p.x.size()),
                              max_pieces, &scratch, pieces.data());
  for (size_t i = n; i < pieces.size(); ++i) {
    EXPECT_EQ(pieces[i].last_x, kUnwritten) << "written beyond the answered count: " << i;
  }
  pieces.resize(n);
  return pieces;
}

// The points each piece holds, as counts, in x order.
std::vector<size_t> piece_sizes(const Points& p, const std::vector<dplr_piece_t>& pieces) {
  std::vector<size_t> sizes(pieces.size(), 0);
  size_t piece = 0;
  for (uint16_t x : p.x) {
    while (piece < pieces.size() && pieces[piece].last_x < x) ++piece;
    if (piece == pieces.size()) break;
    ++sizes[piece];
  }
  return sizes;
}

// The first point index of each piece, and one past the last.
std::vector<size_t> piece_bounds(const Points& p, const std::vector<dplr_piece_t>& pieces) {
  std::vector<size_t> bounds{0};
  for (size_t size : piece_sizes(p, pieces)) bounds.push_back(bounds.back() + size);
  return bounds;
}

// At most max_pieces pieces, each holding at least one point and ending at a point's x, the last
// at the last point; dplr_find puts every x from 0 to the last point in exactly one piece.
void expect_structure(const Points& p, const std::vector<dplr_piece_t>& pieces,
                      uint32_t max_pieces, const std::string& where) {
  ASSERT_GE(pieces.size(), 1u) << where;
  ASSERT_LE(pieces.size(), max_pieces) << where;
  ASSERT_LE(pieces.size(), p.x.size()) << where;
  EXPECT_EQ(pieces.back().last_x, p.x.back()) << where;
  for (size_t i = 1; i < pieces.size(); ++i) {
    ASSERT_LT(pieces[i - 1].last_x, pieces[i].last_x) << where << " piece " << i;
  }
  const std::vector<size_t> bounds = piece_bounds(p, pieces);
  for (size_t i = 0; i < pieces.size(); ++i) {
    ASSERT_LT(bounds[i], bounds[i + 1]) << "an empty piece: " << where << " piece " << i;
    EXPECT_EQ(p.x[bounds[i + 1] - 1], pieces[i].last_x) << where << " piece " << i;
  }
  EXPECT_EQ(bounds.back(), p.x.size()) << where;
  const uint32_t count = static_cast<uint32_t>(pieces.size());
  uint32_t piece = 0;
  for (uint32_t x = 0; x <= p.x.back(); ++x) {
    if (x > pieces[piece].last_x) ++piece;
    ASSERT_EQ(dplr_find(pieces.data(), count, x), piece) << where << " x " << x;
  }
  EXPECT_EQ(dplr_find(pieces.data(), count, p.x.back() + 1u), count) << where;
  EXPECT_EQ(dplr_find(pieces.data(), count, 1u << 20), count) << where;
}

// Points [first, end) a piece predicts wrongly.
size_t misses(const Points& p, const dplr_piece_t& piece, size_t first, size_t end) {
  size_t wrong = 0;
  for (size_t i = first; i < end; ++i) wrong += dplr_predict(&piece, p.x[i]) != p.y[i];
  return wrong;
}

bool contiguous(const Points& p, size_t first, size_t end) {
  for (size_t i = first + 1; i < end; ++i) {
    if (p.x[i] != p.x[i - 1] + 1 || p.y[i] != p.y[i - 1] + 1) return false;
  }
  return true;
}

// Steps 1 and 2 as the header states them, written apart from the firmware's: the point counts
// of the pieces DPLR should cut, in x order.
std::vector<size_t> expected_sizes(const Points& p, uint32_t max_pieces) {
  using Range = std::pair<size_t, size_t>;  // [first, end) of the points
  const size_t m = p.x.size();
  std::vector<Range> large;
  for (size_t first = 0, end = 1; first < m; first = end, end = first + 1) {
    while (end < m && contiguous(p, end - 1, end + 1)) ++end;
    if ((end - first) * max_pieces > m) large.push_back({first, end});
  }
  std::vector<Range> gaps;
  for (;;) {
    gaps.clear();
    size_t from = 0;
    for (const Range& segment : large) {
      if (segment.first > from) gaps.push_back({from, segment.first});
      from = segment.second;
    }
    if (m > from) gaps.push_back({from, m});
    if (gaps.size() <= max_pieces - large.size()) break;
    // min_element: the first of equals.
    large.erase(std::min_element(large.begin(), large.end(), [](Range a, Range b) {
      return a.second - a.first < b.second - b.first;
    }));
  }
  size_t rest = 0;
  for (const Range& gap : gaps) rest += gap.second - gap.first;
  const size_t pieces = std::min<size_t>(max_pieces - large.size(), rest);
  std::vector<size_t> share(gaps.size(), 0);  // 0: not settled below one piece
  size_t open_pieces = pieces, open_points = rest;
  for (bool settled_more = true; settled_more;) {
    settled_more = false;
    std::vector<size_t> below;
    for (size_t g = 0; g < gaps.size(); ++g) {
      const size_t size = gaps[g].second - gaps[g].first;
      if (share[g] == 0 && open_pieces * size < open_points) below.push_back(g);
    }
    for (size_t g : below) {
      share[g] = 1;
      open_pieces -= 1;
      open_points -= gaps[g].second - gaps[g].first;
      settled_more = true;
    }
  }
  std::vector<size_t> remainder(gaps.size(), 0);
  size_t left = open_pieces;
  for (size_t g = 0; g < gaps.size(); ++g) {
    if (share[g] != 0) continue;
    const size_t size = gaps[g].second - gaps[g].first;
    share[g] = open_pieces * size / open_points;
    remainder[g] = open_pieces * size % open_points;
    left -= share[g];
  }
  for (; left > 0; --left) {
    const size_t g = std::max_element(remainder.begin(), remainder.end()) - remainder.begin();
    ++share[g];
    remainder[g] = 0;
  }
  std::vector<std::pair<size_t, size_t>> cuts;  // (first point, points) of every piece
  for (const Range& segment : large) {
    cuts.push_back({segment.first, segment.second - segment.first});
  }
  for (size_t g = 0; g < gaps.size(); ++g) {
    const size_t size = gaps[g].second - gaps[g].first;
    size_t first = gaps[g].first;
    for (size_t piece = 0; piece < share[g]; ++piece) {
      const size_t points = size / share[g] + (piece < size % share[g] ? 1 : 0);
      cuts.push_back({first, points});
      first += points;
    }
  }
  std::sort(cuts.begin(), cuts.end());
  std::vector<size_t> sizes;
  for (const auto& cut : cuts) sizes.push_back(cut.second);
  return sizes;
}

struct Line {
  double slope, intercept;
};

// Least squares in double over points [first, end).
Line reference_fit(const Points& p, size_t first, size_t end) {
  const double n = static_cast<double>(end - first);
  double mean_x = 0, mean_y = 0;
  for (size_t i = first; i < end; ++i) {
    mean_x += p.x[i];
    mean_y += p.y[i];
  }
  mean_x /= n;
  mean_y /= n;
  double sxx = 0, sxy = 0;
  for (size_t i = first; i < end; ++i) {
    sxx += (p.x[i] - mean_x) * (p.x[i] - mean_x);
    sxy += (p.x[i] - mean_x) * (p.y[i] - mean_y);
  }
  const double slope = sxx > 0 ? sxy / sxx : 1.0;
  return {slope, mean_y - slope * mean_x};
}

void expect_least_squares(const Points& p, const std::vector<dplr_piece_t>& pieces,
                          const std::string& where) {
  const std::vector<size_t> bounds = piece_bounds(p, pieces);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (bounds[i + 1] - bounds[i] < 2) continue;  // single points: their own rule
    const Line line = reference_fit(p, bounds[i], bounds[i + 1]);
    // binary32 sums: relative errors of about 1e-6; the intercept also inherits the slope's
    // error times x.
    EXPECT_NEAR(pieces[i].slope, line.slope, 1e-4 * (1.0 + std::fabs(line.slope)))
        << where << " piece " << i;
    const double scale = 1.0 + std::fabs(line.intercept) + std::fabs(line.slope) * p.x.back();
    EXPECT_NEAR(pieces[i].intercept, line.intercept, 1e-4 * scale) << where << " piece " << i;
  }
}

// Sorted distinct x with random gaps and y near a line with noise.
Points noisy(std::mt19937& rng, uint32_t count, double slope, double intercept, int noise) {
  std::uniform_int_distribution<uint32_t> gap(1, 6);
  std::uniform_int_distribution<int> jitter(-noise, noise);
  Points p;
  uint32_t x = gap(rng);
  for (uint32_t i = 0; i < count; ++i) {
    p.x.push_back(static_cast<uint16_t>(x));
    p.y.push_back(static_cast<int32_t>(std::lround(slope * x + intercept)) + jitter(rng));
    x += gap(rng);
  }
  return p;
}

TEST(Dplr, LinesMatchADoublePrecisionLeastSquaresFit) {
  std::mt19937 rng(11);
  for (uint32_t max_pieces : {1u, 3u, 8u, 32u}) {
    for (int round = 0; round < 10; ++round) {
      const Points p = noisy(rng, 1500, 0.75 + round * 0.5, -300.0 + round * 20000.0, 40);
      const std::vector<dplr_piece_t> pieces = fit(p, max_pieces);
      const std::string where = "max_pieces " + std::to_string(max_pieces);
      expect_structure(p, pieces, max_pieces, where);
      EXPECT_EQ(pieces.size(), max_pieces) << "no runs: every piece used, " << where;
      expect_least_squares(p, pieces, where);
    }
  }
}

TEST(Dplr, OnePieceIsOneLeastSquaresLine) {
  std::mt19937 rng(23);
  const Points p = noisy(rng, 700, 2.5, 1000.0, 300);
  const std::vector<dplr_piece_t> pieces = fit(p, 1);
  ASSERT_EQ(pieces.size(), 1u);
  const Line line = reference_fit(p, 0, p.x.size());
  EXPECT_NEAR(pieces[0].slope, line.slope, 1e-4 * line.slope);
  EXPECT_NEAR(pieces[0].intercept, line.intercept, 1e-3 * (1.0 + std::fabs(line.intercept)));
  // Runs do not count with one piece: none is longer than all the points.
  const Points runs = Builder().scattered(10).run(500).scattered(10).points();
  const std::vector<dplr_piece_t> one = fit(runs, 1);
  ASSERT_EQ(one.size(), 1u);
  const Line run_line = reference_fit(runs, 0, runs.x.size());
  EXPECT_NEAR(one[0].slope, run_line.slope, 1e-4 * run_line.slope);
  EXPECT_NEAR(one[0].intercept, run_line.intercept, 1e-3 * (1.0 + std::fabs(run_line.intercept)));
}

TEST(Dplr, AnExactLinePredictsEveryPoint) {
  struct Case {
    uint32_t stride, slope;
    int32_t intercept;
  };
  for (const Case c : {Case{1, 1, 5}, Case{2, 1, -7}, Case{1, 2, 100000}, Case{3, 3, -40},
                       Case{5, 4, 1 << 20}, Case{2, 7, 12}}) {
    for (uint32_t max_pieces : {1u, 2u, 8u}) {
      Points p;
      for (uint32_t i = 0; i < 900; ++i) {
        const uint32_t x = 17 + i * c.stride;
        p.x.push_back(static_cast<uint16_t>(x));
        p.y.push_back(static_cast<int32_t>(c.slope * x) + c.intercept);
      }
      const std::string where = "stride " + std::to_string(c.stride) + " slope " +
                                std::to_string(c.slope) + " pieces " + std::to_string(max_pieces);
      const std::vector<dplr_piece_t> pieces = fit(p, max_pieces);
      expect_structure(p, pieces, max_pieces, where);
      const std::vector<size_t> bounds = piece_bounds(p, pieces);
      for (size_t i = 0; i < pieces.size(); ++i) {
        EXPECT_EQ(misses(p, pieces[i], bounds[i], bounds[i + 1]), 0u) << where << " piece " << i;
      }
    }
  }
}

TEST(Dplr, AContiguousRunIsOneExactPiece) {
  for (uint32_t max_pieces : {1u, 2u, 8u, 32u}) {
    const Points p = Builder(3000, 40).run(1024).points();
    const std::vector<dplr_piece_t> pieces = fit(p, max_pieces);
    ASSERT_EQ(pieces.size(), 1u) << max_pieces;
    EXPECT_EQ(pieces[0].slope, 1.0f);
    EXPECT_EQ(pieces[0].intercept, 2960.0f);
    EXPECT_EQ(misses(p, pieces[0], 0, p.x.size()), 0u);
    expect_structure(p, pieces, max_pieces, "run");
  }
}

// Section 3.2's example: with 1024 points and 8 pieces the average is 128, so runs of 400 and 300
// are large segments and the run of 100 is not; the 324 other points fill 6 pieces: 2 for the 124
// before the 400, 4 for the 200 between the 400 and the 300 (largest remainder).
TEST(Dplr, LongRunsAreLargeSegmentsAndTheRestSharesTheOtherPieces) {
  const Points p =
      Builder(500).scattered(124).run(400).scattered(50).run(100).scattered(50).run(300).points();
  ASSERT_EQ(p.x.size(), 1024u);
  const std::vector<dplr_piece_t> pieces = fit(p, 8);
  expect_structure(p, pieces, 8, "paper");
  EXPECT_EQ(piece_sizes(p, pieces), (std::vector<size_t>{62, 62, 400, 50, 50, 50, 50, 300}));
  const std::vector<size_t> bounds = piece_bounds(p, pieces);
  for (size_t large : {2u, 7u}) {
    EXPECT_EQ(pieces[large].slope, 1.0f) << large;
    EXPECT_EQ(misses(p, pieces[large], bounds[large], bounds[large + 1]), 0u) << large;
  }
  expect_least_squares(p, pieces, "paper");
}

TEST(Dplr, WithoutLargeSegmentsThePiecesHoldNearEqualCounts) {
  const Points p = Builder().scattered(1003).points();
  const std::vector<dplr_piece_t> pieces = fit(p, 8);
  expect_structure(p, pieces, 8, "scattered");
  EXPECT_EQ(piece_sizes(p, pieces), (std::vector<size_t>{126, 126, 126, 125, 125, 125, 125, 125}));
  // Runs no longer than the average are no large segments: 3 pieces of 40 each.
  const Points short_runs = Builder().run(40).run(40).run(40).points();
  const std::vector<dplr_piece_t> three = fit(short_runs, 3);
  EXPECT_EQ(piece_sizes(short_runs, three), (std::vector<size_t>{40, 40, 40}));
  // Nor is a run of exactly the average: 4 pieces of 25 across it, not 10, 25, 33, 32.
  const Points average = Builder().scattered(10).run(25).scattered(65).points();
  EXPECT_EQ(piece_sizes(average, fit(average, 4)), (std::vector<size_t>{25, 25, 25, 25}));
  // One longer than the average is: 41 * 3 > 120.
  const Points one_long = Builder().run(39).run(41).run(40).points();
  const std::vector<dplr_piece_t> split = fit(one_long, 3);
  EXPECT_EQ(piece_sizes(one_long, split), (std::vector<size_t>{39, 41, 40}));
}

// A gap whose share is below one piece gets one; equal remainders go to the first gap.
TEST(Dplr, SharesAreProportionalWithAtLeastOnePiecePerGap) {
  const Points tie = Builder().scattered(10).run(30).scattered(10).points();
  EXPECT_EQ(piece_sizes(tie, fit(tie, 4)), (std::vector<size_t>{5, 5, 30, 10}));
  // 7 pieces for 90 and 4 points: 6.70 and 0.30, so 1 for the 4 and 6 for the 90.
  const Points small_gap = Builder().scattered(4).run(200).scattered(90).points();
  EXPECT_EQ(piece_sizes(small_gap, fit(small_gap, 8)),
            (std::vector<size_t>{4, 200, 15, 15, 15, 15, 15, 15}));
  // Fewer other points than pieces: one piece each, slope 1 through the point.
  const Points few = Builder(-20).scattered(2).run(8).points();
  const std::vector<dplr_piece_t> pieces = fit(few, 8);
  EXPECT_EQ(piece_sizes(few, pieces), (std::vector<size_t>{1, 1, 8}));
  expect_structure(few, pieces, 8, "few");
}

// N = 4 and 100 points: runs of 30, 27 and 28 are large (more than 25), but four gaps cannot share
// one piece. The 27 joins its gaps (three gaps, two pieces), then the 28 (two gaps, three pieces):
// one piece for the first 4 points, then the 30, then two pieces for the 66 after it.
TEST(Dplr, TheShortestLargeSegmentIsDemotedWhileGapsOutnumberPieces) {
  const Points p = Builder()
                       .scattered(4)
                       .run(30)
                       .scattered(4)
                       .run(27)
                       .scattered(4)
                       .run(28)
                       .scattered(3)
                       .points();
  ASSERT_EQ(p.x.size(), 100u);
  const std::vector<dplr_piece_t> pieces = fit(p, 4);
  expect_structure(p, pieces, 4, "demotion");
  EXPECT_EQ(piece_sizes(p, pieces), (std::vector<size_t>{4, 30, 33, 33}));
  EXPECT_EQ(misses(p, pieces[1], 4, 34), 0u);
  // Equal lengths: the first goes, then the first of the two left.
  const Points equal = Builder()
                           .scattered(4)
                           .run(28)
                           .scattered(4)
                           .run(28)
                           .scattered(4)
                           .run(28)
                           .scattered(4)
                           .points();
  EXPECT_EQ(piece_sizes(equal, fit(equal, 4)), (std::vector<size_t>{34, 34, 28, 4}));
}

TEST(Dplr, ASinglePointPieceHasSlopeOneThroughItsPoint) {
  const Points p{{5, 9, 20}, {100, 7, -3}};
  const std::vector<dplr_piece_t> pieces = fit(p, 3);
  ASSERT_EQ(pieces.size(), 3u);
  expect_structure(p, pieces, 3, "points");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(pieces[i].last_x, p.x[i]);
    EXPECT_EQ(pieces[i].slope, 1.0f);
    EXPECT_EQ(pieces[i].intercept, static_cast<float>(p.y[i] - p.x[i]));
    EXPECT_EQ(dplr_predict(&pieces[i], p.x[i]), p.y[i]);
  }
  EXPECT_EQ(dplr_predict(&pieces[0], 4), 99) << "the run through the point";
  const Points one{{65535}, {-2000000}};
  const std::vector<dplr_piece_t> single = fit(one, 8);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].last_x, 65535u);
  EXPECT_EQ(dplr_predict(&single[0], 65535), -2000000);
  expect_structure(one, single, 8, "one point");
}

// VPN offsets near 2^21 (and as far as the header promises, 2^24 - 2^16, and negative) with LPN
// offsets up to 2^16: absolute float sums would round, the fit relative to each piece's first
// point does not.
TEST(Dplr, LargeOffsetsStillPredictContiguousRunsExactly) {
  for (int32_t base : {(1 << 21) - 300, 1 << 21, (1 << 21) + 12345,
                       (1 << 24) - (1 << 16) - 2000, -(1 << 21), -(1 << 24) + (1 << 16)}) {
    for (uint16_t first_x : {uint16_t{0}, uint16_t{30000}, uint16_t{63000}}) {
      const Points p = Builder(base, first_x)
                           .scattered(124)
                           .run(400)
                           .scattered(50)
                           .run(100)
                           .scattered(50)
                           .run(300)
                           .points();
      const std::string where = "base " + std::to_string(base) + " x " + std::to_string(first_x);
      ASSERT_LT(p.x.back(), 65536u) << where;
      const std::vector<dplr_piece_t> pieces = fit(p, 8);
      expect_structure(p, pieces, 8, where);
      ASSERT_EQ(piece_sizes(p, pieces)[2], 400u) << where;
      const std::vector<size_t> bounds = piece_bounds(p, pieces);
      for (size_t large : {2u, 7u}) {
        EXPECT_EQ(misses(p, pieces[large], bounds[large], bounds[large + 1]), 0u)
            << where << " piece " << large;
      }
      const Points run = Builder(base, first_x).run(2000).points();
      const std::vector<dplr_piece_t> one = fit(run, 8);
      ASSERT_EQ(one.size(), 1u) << where;
      EXPECT_EQ(misses(run, one[0], 0, run.x.size()), 0u) << where;
    }
  }
}

TEST(Dplr, PredictionsRoundHalvesAwayFromZero) {
  const auto predict = [](float slope, float intercept, uint32_t x) {
    const dplr_piece_t piece{0, slope, intercept};
    return dplr_predict(&piece, x);
  };
  EXPECT_EQ(predict(0.0f, 2.5f, 0), 3);
  EXPECT_EQ(predict(0.0f, -2.5f, 0), -3);
  EXPECT_EQ(predict(0.0f, 2.4999998f, 0), 2);
  EXPECT_EQ(predict(0.0f, 0.49999997f, 0), 0) << "adding 0.5f first would make it 1";
  EXPECT_EQ(predict(0.0f, -0.49999997f, 0), 0);
  EXPECT_EQ(predict(1.0f, 8388608.0f, 1), 8388609) << "adding 0.5f first would make it 8388610";
  EXPECT_EQ(predict(1.5f, 0.0f, 3), 5);
  EXPECT_EQ(predict(-1.5f, 0.0f, 3), -5);
  EXPECT_EQ(predict(0.5f, -100.0f, 65535), 32668);
  EXPECT_EQ(predict(100000.0f, 0.0f, 65535), INT32_MAX) << "saturated";
  EXPECT_EQ(predict(-100000.0f, 0.0f, 65535), INT32_MIN) << "saturated";
}

TEST(Dplr, InvalidArgumentsFitNothing) {
  const Points p = Builder().scattered(10).points();
  dplr_scratch_t scratch;
  std::vector<dplr_piece_t> pieces(DPLR_MAX_PIECES + 1);
  EXPECT_EQ(dplr_fit(p.x.data(), p.y.data(), 0, 4, &scratch, pieces.data()), 0u);
  EXPECT_EQ(dplr_fit(p.x.data(), p.y.data(), 10, 0, &scratch, pieces.data()), 0u);
  EXPECT_EQ(dplr_fit(p.x.data(), p.y.data(), 10, DPLR_MAX_PIECES + 1, &scratch, pieces.data()),
            0u);
  EXPECT_EQ(dplr_fit(p.x.data(), p.y.data(), 10, DPLR_MAX_PIECES, &scratch, pieces.data()), 10u);
}

// Random mixes of runs and scattered points: the structure always holds, every piece made of one
// run predicts it exactly, the fit is deterministic, the pieces hold the counts an independent
// rendering of steps 1 and 2 expects, and when no large segment needs demoting each one is a
// piece of its own and the rest uses every piece it can.
TEST(Dplr, RandomInputsKeepTheInvariants) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> coin(0, 99);
  std::uniform_int_distribution<uint32_t> pieces_of(1, DPLR_MAX_PIECES);
  std::uniform_int_distribution<int32_t> base_of(-(1 << 21), 1 << 21);
  int demotions = 0;
  for (int round = 0; round < 400; ++round) {
    // Odd rounds: any mix. Even rounds: a few long runs between short scattered stretches and
    // few pieces, so that gaps often outnumber them and large segments are demoted.
    const bool few = round % 2 == 0;
    const uint32_t target = 1 + rng() % 2000;
    const uint32_t max_pieces = few ? 2 + rng() % 7 : pieces_of(rng);
    Builder builder(base_of(rng), static_cast<uint16_t>(rng() % 1000));
    uint32_t points = 0;
    for (uint32_t chunk = 0; points < target; ++chunk) {
      const bool run = few ? chunk % 2 == 1 : coin(rng) < 50;
      const uint32_t n = 1 + rng() % (few ? (run ? 300 : 20) : (coin(rng) < 20 ? 400 : 30));
      run ? builder.run(n) : builder.scattered(n);
      points += n;
    }
    const Points& p = builder.points();
    const std::string where = "round " + std::to_string(round);
    ASSERT_LT(p.x.back(), 65536u) << where;
    const std::vector<dplr_piece_t> pieces = fit(p, max_pieces);
    expect_structure(p, pieces, max_pieces, where);
    const std::vector<dplr_piece_t> again = fit(p, max_pieces);
    ASSERT_EQ(again.size(), pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_EQ(again[i].last_x, pieces[i].last_x) << where;
      EXPECT_EQ(std::memcmp(&again[i].slope, &pieces[i].slope, sizeof(float)), 0) << where;
      EXPECT_EQ(std::memcmp(&again[i].intercept, &pieces[i].intercept, sizeof(float)), 0) << where;
    }

    const std::vector<size_t> bounds = piece_bounds(p, pieces);
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (contiguous(p, bounds[i], bounds[i + 1])) {
        EXPECT_EQ(misses(p, pieces[i], bounds[i], bounds[i + 1]), 0u) << where << " piece " << i;
      }
    }

    // Large runs and the non-empty gaps around them.
    const size_t m = p.x.size();
    std::vector<std::pair<size_t, size_t>> large;
    size_t gaps = 0, rest = 0, gap_points = 0;
    for (size_t first = 0, end = 1; first < m; first = end, end = first + 1) {
      while (end < m && contiguous(p, end - 1, end + 1)) ++end;
      if ((end - first) * max_pieces > m) {
        large.push_back({first, end});
        gaps += gap_points > 0;
        gap_points = 0;
      } else {
        gap_points += end - first;
        rest += end - first;
      }
    }
    gaps += gap_points > 0;
    ASSERT_LT(large.size(), max_pieces) << where;
    EXPECT_EQ(piece_sizes(p, pieces), expected_sizes(p, max_pieces)) << where;
    if (gaps > max_pieces - large.size()) {
      ++demotions;
      continue;
    }
    EXPECT_EQ(pieces.size(), large.size() + std::min<size_t>(max_pieces - large.size(), rest))
        << where;
    for (const auto& [first, end] : large) {
      const uint32_t piece = dplr_find(pieces.data(), static_cast<uint32_t>(pieces.size()),
                                       p.x[first]);
      EXPECT_EQ(bounds[piece], first) << where;
      EXPECT_EQ(bounds[piece + 1], end) << where;
      EXPECT_EQ(misses(p, pieces[piece], first, end), 0u) << where;
    }
  }
  EXPECT_GE(demotions, 10) << "the even rounds demote now and then";
}

}  // namespace
