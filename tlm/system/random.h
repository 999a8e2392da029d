// The platform's seeded random numbers (workload generators, NAND faults and bad blocks). Every
// draw is defined here bit for bit: std::mt19937 would be reproducible, but the standard
// distributions are not specified exactly, and a seeded run must give the same result with any
// compiler and standard library. Header-only so that components without SystemC (nand_model)
// share it without linking the models.
#pragma once

#include <cstdint>

namespace ssdvp {

// One step of splitmix64: advances `state` and returns a well-mixed 64-bit value. Used to seed
// the generator and to derive independent seeds from one.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman and Vigna), seeded from one 64-bit seed through splitmix64.
class Random {
 public:
  explicit Random(uint64_t seed) {
    // splitmix64 never yields four zero words in a row, the one state xoshiro cannot leave.
    for (uint64_t& word : state_) word = splitmix64(seed);
  }

  uint64_t next_u64() {
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

  // Uniform in [0, bound), bound > 0, without modulo bias (Lemire's multiply-and-reject).
  uint64_t below(uint64_t bound) {
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

  // Uniform in [0, 1), 53 random bits.
  double unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // True with probability ppm / 1e6.
  bool chance_ppm(uint32_t ppm) { return ppm != 0 && next_u64() % 1'000'000 < ppm; }

 private:
  static uint64_t rotate_left(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

  uint64_t state_[4];
};

}  // namespace ssdvp
