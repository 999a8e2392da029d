// Latencies in nanoseconds in log-linear buckets, like HdrHistogram. Values below 256 each have a
// bucket of their own; above, every power-of-two range [2^k, 2^(k+1)) is split into 128 equal
// buckets, so a bucket is never wider than 1/128 of its lower bound. Memory depends on the value
// range, never on the number of samples: one 64-bit counter per bucket up to the highest value
// recorded, at most 7,424 counters (58 KiB) for any 64-bit value, 4,352 (34 KiB) for latencies
// up to 1000 s.
//
// count, min, max and the sum (so the mean) are exact. percentile(p) is the nearest-rank
// percentile: the value of rank max(1, round(p / 100 * count)) in ascending order. It is exact
// for p = 0 (min), for the last rank (max) and below 256 ns; otherwise it is the middle of the
// bucket that holds that rank, within kMaxRelativeError = 1/256 (0.39 %) of the exact value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdvp::host {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 7;
  static constexpr double kMaxRelativeError = 1.0 / (2u << kSubBucketBits);
  static constexpr size_t kMaxBuckets = (64 - kSubBucketBits + 1) << kSubBucketBits;

  // One bucket: the values lower..upper (inclusive) and how many were recorded in it.
  struct Bucket {
    uint64_t lower;
    uint64_t upper;
    uint64_t count;
  };

  void record(uint64_t value_ns);
  // Adds every sample of `other`.
  void merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  // 0 when empty.
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double mean() const;
  // p in [0, 100] (else std::invalid_argument); 0 when empty.
  uint64_t percentile(double p) const;
  // The buckets with samples, lowest first.
  std::vector<Bucket> buckets() const;
  // Counters held now (grows with the highest value recorded, never past kMaxBuckets).
  size_t counters() const { return counts_.size(); }

 private:
  static size_t bucket_of(uint64_t value);
  static Bucket bounds_of(size_t bucket);

  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  unsigned __int128 sum_ = 0;  // 10^8 samples of 1000 s overflow 64 bits
};

}  // namespace ssdvp::host
