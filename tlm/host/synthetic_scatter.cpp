#include "tlm/host/synthetic_scatter.h"

#include "tlm/system/random.h"

namespace ssdvp::host {

namespace {

// The splitmix64 finalizer: a fast, well-mixing round function.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

RankScatter::RankScatter(uint64_t n, uint64_t seed) : n_(n) {
  unsigned bits = 0;
  while (bits < 64 && (uint64_t{1} << bits) < n) ++bits;
  // A balanced Feistel network needs an even number of bits, at least 2.
  half_bits_ = bits <= 2 ? 1 : (bits + 1) / 2;
  half_mask_ = (uint64_t{1} << half_bits_) - 1;
  for (uint64_t& key : round_keys_) key = splitmix64(seed);
}

uint64_t RankScatter::feistel(uint64_t value) const {
  uint64_t left = value >> half_bits_;
  uint64_t right = value & half_mask_;
  for (const uint64_t key : round_keys_) {
    const uint64_t next_right = left ^ (mix(right ^ key) & half_mask_);
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t RankScatter::position(uint64_t rank) const {
  // The permutation of the power-of-two domain, walked until it lands inside 0..n-1: still a
  // bijection of 0..n-1 because every cycle through a value outside comes back inside.
  uint64_t value = feistel(rank);
  while (value >= n_) value = feistel(value);
  return value;
}

}  // namespace ssdvp::host
