// The random numbers of the workload generators. Every draw is defined here, bit for bit:
// std::mt19937 would be reproducible, but the standard distributions are not specified exactly,
// and a seeded run must give the same requests with any compiler and standard library.
#pragma once

#include <cstdint>

namespace ssdvp::host {

// One step of splitmix64: advances `state` and returns a well-mixed 64-bit value. Used to seed
// the generator and to derive independent seeds from one.
uint64_t splitmix64(uint64_t& state);

// xoshiro256** (Blackman and Vigna), seeded from one 64-bit seed through splitmix64.
class WorkloadRng {
 public:
  explicit WorkloadRng(uint64_t seed);

  uint64_t next_u64();
  // Uniform in [0, bound), bound > 0, without modulo bias (Lemire's multiply-and-reject).
  uint64_t below(uint64_t bound);
  // Uniform in [0, 1), 53 random bits.
  double unit();

 private:
  uint64_t state_[4];
};

}  // namespace ssdvp::host
