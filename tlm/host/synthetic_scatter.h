// Where the ranks of a skewed distribution land in the working set. Zipf rank 1, 2, 3 ... would
// otherwise be the first, second, third page of the region: the hot data would be one sequential
// run, which no real workload is and which flatters every mapping scheme. RankScatter is a fixed
// pseudo-random permutation of 0..n-1 from the seed: a 4-round Feistel network over the smallest
// even-bit power-of-two domain that holds n, with cycle walking back into 0..n-1. It needs no
// table (O(1) memory for any n) and costs a few hashes per sample (the domain is below 4n, so
// fewer than 4 walks are expected).
#pragma once

#include <cstdint>

namespace ssdvp::host {

class RankScatter {
 public:
  // n >= 1.
  RankScatter(uint64_t n, uint64_t seed);

  // The position of `rank` (0..n-1), a bijection of 0..n-1.
  uint64_t position(uint64_t rank) const;

 private:
  uint64_t feistel(uint64_t value) const;

  static constexpr int kRounds = 4;
  uint64_t n_;
  unsigned half_bits_;
  uint64_t half_mask_;
  uint64_t round_keys_[kRounds];
};

}  // namespace ssdvp::host
