#include "tlm/host/synthetic_rng.h"

namespace ssdvp::host {

namespace {

uint64_t rotate_left(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

}  // namespace

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

WorkloadRng::WorkloadRng(uint64_t seed) {
  // splitmix64 never yields four zero words in a row, the one state xoshiro cannot leave.
  for (uint64_t& word : state_) word = splitmix64(seed);
}

uint64_t WorkloadRng::next_u64() {
  const uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

uint64_t WorkloadRng::below(uint64_t bound) {
  unsigned __int128 product = static_cast<unsigned __int128>(next_u64()) * bound;
  uint64_t low = static_cast<uint64_t>(product);
  if (low < bound) {
    // Reject the few products whose low word falls in the biased remainder.
    const uint64_t threshold = -bound % bound;
    while (low < threshold) {
      product = static_cast<unsigned __int128>(next_u64()) * bound;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
}

double WorkloadRng::unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

}  // namespace ssdvp::host
