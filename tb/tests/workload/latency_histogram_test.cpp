// Latency histograms: percentiles against the exact nearest-rank values of known data within the
// documented bound, exact count/min/max/mean, merging, the bucket listing and bounded memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "tlm/host/latency_histogram.h"

namespace ssdvp::host {
namespace {

// The exact percentile as LatencyHistogram defines it: rank max(1, round(p / 100 * n)).
uint64_t exact_percentile(const std::vector<uint64_t>& sorted, double p) {
  const double wanted = p / 100.0 * static_cast<double>(sorted.size());
  const size_t rank = std::clamp<size_t>(static_cast<size_t>(std::llround(wanted)), 1,
                                         sorted.size());
  return sorted[rank - 1];
}

// Latency-like data: a log-uniform spread from 1 us to 100 ms plus a tail up to 1000 s, from a
// fixed linear congruential sequence.
std::vector<uint64_t> known_latencies(size_t count) {
  std::vector<uint64_t> values;
  uint64_t state = 12345;
  for (size_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) * 0x1.0p-53;
    const double decades = i % 1000 == 0 ? 9.0 : 5.0;  // 0.1 % of samples reach 1000 s
    values.push_back(static_cast<uint64_t>(1000.0 * std::pow(10.0, u * decades)));
  }
  return values;
}

TEST(LatencyHistogram, PercentilesAreWithinTheBoundOfTheExactValues) {
  const std::vector<uint64_t> values = known_latencies(100'000);
  LatencyHistogram histogram;
  for (const uint64_t value : values) histogram.record(value);
  std::vector<uint64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (const double p : {0.0, 0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    const uint64_t exact = exact_percentile(sorted, p);
    const double allowed = static_cast<double>(exact) * LatencyHistogram::kMaxRelativeError;
    EXPECT_NEAR(static_cast<double>(histogram.percentile(p)), static_cast<double>(exact), allowed)
        << "p" << p;
  }
  EXPECT_EQ(histogram.percentile(0.0), sorted.front());
  EXPECT_EQ(histogram.percentile(100.0), sorted.back());
}

TEST(LatencyHistogram, CountMinMaxAndMeanAreExact) {
  const std::vector<uint64_t> values = known_latencies(10'000);
  LatencyHistogram histogram;
  long double sum = 0;
  for (const uint64_t value : values) {
    histogram.record(value);
    sum += value;
  }
  EXPECT_EQ(histogram.count(), values.size());
  EXPECT_EQ(histogram.min(), *std::min_element(values.begin(), values.end()));
  EXPECT_EQ(histogram.max(), *std::max_element(values.begin(), values.end()));
  EXPECT_DOUBLE_EQ(histogram.mean(), static_cast<double>(sum / values.size()));

  // The sum does not overflow 64 bits.
  LatencyHistogram huge;
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  huge.record(max);
  huge.record(max);
  EXPECT_DOUBLE_EQ(huge.mean(), static_cast<double>(max));
  EXPECT_EQ(huge.percentile(50.0), max);
}

TEST(LatencyHistogram, SmallValuesAreExactAndEmptyGivesZeros) {
  LatencyHistogram empty;
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.min(), 0u);
  EXPECT_EQ(empty.max(), 0u);
  EXPECT_EQ(empty.mean(), 0.0);
  EXPECT_EQ(empty.percentile(99.0), 0u);
  EXPECT_TRUE(empty.buckets().empty());

  LatencyHistogram small;
  std::vector<uint64_t> values;
  for (uint64_t v = 0; v < 256; ++v) {
    small.record(255 - v);
    values.push_back(v);
  }
  for (const double p : {1.0, 10.0, 33.3, 50.0, 77.7, 99.0}) {
    EXPECT_EQ(small.percentile(p), exact_percentile(values, p)) << p;
  }
  EXPECT_THROW(small.percentile(-1.0), std::invalid_argument);
  EXPECT_THROW(small.percentile(100.5), std::invalid_argument);
  EXPECT_THROW(small.percentile(std::nan("")), std::invalid_argument);
}

TEST(LatencyHistogram, BucketsHoldTheirValuesAndAreNarrowRelativeToThem) {
  LatencyHistogram histogram;
  const std::vector<uint64_t> values = {0,    1,          127,        128,     255,
                                        256,  257,        1000,       65535,   1'000'000,
                                        1'000'000'000'000ull, std::numeric_limits<uint64_t>::max()};
  for (const uint64_t value : values) {
    LatencyHistogram single;
    single.record(value);
    const std::vector<LatencyHistogram::Bucket> buckets = single.buckets();
    ASSERT_EQ(buckets.size(), 1u);
    EXPECT_LE(buckets[0].lower, value);
    EXPECT_GE(buckets[0].upper, value);
    EXPECT_EQ(buckets[0].count, 1u);
    // Exact below 256; above, a bucket is at most 1/128 of its lower bound wide.
    if (value < 256) {
      EXPECT_EQ(buckets[0].lower, buckets[0].upper);
    }
    EXPECT_LE(static_cast<double>(buckets[0].upper - buckets[0].lower + 1),
              std::max(1.0, static_cast<double>(buckets[0].lower) / 128.0));
    histogram.record(value);
  }
  const std::vector<LatencyHistogram::Bucket> buckets = histogram.buckets();
  uint64_t total = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    total += buckets[i].count;
    if (i > 0) {
      EXPECT_GT(buckets[i].lower, buckets[i - 1].upper);
    }
  }
  EXPECT_EQ(total, values.size());
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
  const std::vector<uint64_t> values = known_latencies(20'000);
  LatencyHistogram all, first, second;
  for (size_t i = 0; i < values.size(); ++i) {
    all.record(values[i]);
    (i % 3 == 0 ? first : second).record(values[i]);
  }
  LatencyHistogram merged;
  merged.merge(first);
  merged.merge(second);
  merged.merge(LatencyHistogram{});
  EXPECT_EQ(merged.count(), all.count());
  EXPECT_EQ(merged.min(), all.min());
  EXPECT_EQ(merged.max(), all.max());
  EXPECT_DOUBLE_EQ(merged.mean(), all.mean());
  for (const double p : {50.0, 99.0, 99.99}) EXPECT_EQ(merged.percentile(p), all.percentile(p));
  const auto a = merged.buckets(), b = all.buckets();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].lower, b[i].lower);
    EXPECT_EQ(a[i].count, b[i].count);
  }
}

TEST(LatencyHistogram, MemoryIsBoundedByTheValueRangeNotTheSampleCount) {
  LatencyHistogram histogram;
  const std::vector<uint64_t> values = known_latencies(10'000);
  for (int round = 0; round < 50; ++round) {
    for (const uint64_t value : values) histogram.record(value);
  }
  EXPECT_EQ(histogram.count(), 500'000u);
  // Up to 1000 s = 10^12 ns < 2^40: the octaves up to 2^39 with 128 buckets each.
  const size_t up_to_1000_s = (40 - LatencyHistogram::kSubBucketBits + 1) * 128;
  EXPECT_LE(histogram.counters(), up_to_1000_s);
  histogram.record(std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(histogram.counters(), LatencyHistogram::kMaxBuckets);
  EXPECT_EQ(LatencyHistogram::kMaxBuckets, 7424u);
}

}  // namespace
}  // namespace ssdvp::host
