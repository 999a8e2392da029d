#include "tlm/host/latency_histogram.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ssdvp::host {

namespace {

constexpr uint64_t kSubBuckets = uint64_t{1} << LatencyHistogram::kSubBucketBits;

unsigned highest_bit(uint64_t value) { return 63 - static_cast<unsigned>(__builtin_clzll(value)); }

}  // namespace

size_t LatencyHistogram::bucket_of(uint64_t value) {
  if (value < kSubBuckets) return static_cast<size_t>(value);
  // [2^k, 2^(k+1)) holds buckets of width 2^(k - s): the s bits below the top one pick it.
  const unsigned shift = highest_bit(value) - kSubBucketBits;
  return static_cast<size_t>(kSubBuckets + shift * kSubBuckets + ((value >> shift) - kSubBuckets));
}

LatencyHistogram::Bucket LatencyHistogram::bounds_of(size_t bucket) {
  if (bucket < kSubBuckets) return {bucket, bucket, 0};
  const uint64_t shift = (bucket - kSubBuckets) / kSubBuckets;
  const uint64_t sub = (bucket - kSubBuckets) % kSubBuckets;
  const uint64_t lower = (kSubBuckets + sub) << shift;
  return {lower, lower + ((uint64_t{1} << shift) - 1), 0};
}

void LatencyHistogram::record(uint64_t value_ns) {
  const size_t bucket = bucket_of(value_ns);
  if (bucket >= counts_.size()) counts_.resize(bucket + 1, 0);
  ++counts_[bucket];
  min_ = count_ == 0 ? value_ns : std::min(min_, value_ns);
  max_ = std::max(max_, value_ns);
  sum_ += value_ns;
  ++count_;
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (other.counts_.size() > counts_.size()) counts_.resize(other.counts_.size(), 0);
  for (size_t i = 0; i < other.counts_.size(); ++i) counts_[i] += other.counts_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  count_ += other.count_;
}

double LatencyHistogram::mean() const {
  if (count_ == 0) return 0.0;
  return static_cast<double>(static_cast<long double>(sum_) / count_);
}

uint64_t LatencyHistogram::percentile(double p) const {
  if (!(p >= 0.0 && p <= 100.0)) {
    throw std::invalid_argument(fmt::format("percentile {} is not in [0, 100]", p));
  }
  if (count_ == 0) return 0;
  const long double wanted = static_cast<long double>(p) / 100 * count_;
  const uint64_t rank = std::clamp<uint64_t>(static_cast<uint64_t>(std::llroundl(wanted)), 1,
                                             count_);
  if (rank == 1) return min_;
  if (rank == count_) return max_;
  uint64_t seen = 0;
  for (size_t bucket = 0; bucket < counts_.size(); ++bucket) {
    seen += counts_[bucket];
    if (seen >= rank) {
      const Bucket bounds = bounds_of(bucket);
      const uint64_t middle = bounds.lower + (bounds.upper - bounds.lower) / 2;
      return std::clamp(middle, min_, max_);
    }
  }
  return max_;  // unreachable: the counts add up to count_
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::buckets() const {
  std::vector<Bucket> result;
  for (size_t bucket = 0; bucket < counts_.size(); ++bucket) {
    if (counts_[bucket] == 0) continue;
    Bucket bounds = bounds_of(bucket);
    bounds.count = counts_[bucket];
    result.push_back(bounds);
  }
  return result;
}

}  // namespace ssdvp::host
