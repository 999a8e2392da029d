// Simulated time helpers shared by the models: the platform runs at 1 ps resolution and every
// configured time is an integer number of picoseconds, so conversions stay exact integers.
#pragma once

#include <cstdint>
#include <optional>

#include <systemc>

namespace ssdvp {

// Sets the SystemC time resolution to 1 ps. Safe to call more than once; throws
// std::runtime_error if the resolution was already fixed at another value.
void use_picosecond_resolution();

// Inline: every bus access and model event converts times.
inline uint64_t to_ps(const sc_core::sc_time& time) {
  return time.value();  // the resolution is 1 ps (use_picosecond_resolution)
}
sc_core::sc_time from_ps(uint64_t ps);

// A clock given in Hz: exact conversions between its cycles and picoseconds, also for clocks
// whose period is not a whole number of picoseconds (rounding is explicit at each call).
class Clock {
 public:
  // Throws std::runtime_error naming `what` unless 1 <= hz <= 1e12 (a period of at least 1 ps).
  Clock(uint64_t hz, const char* what);

  uint64_t hz() const { return hz_; }
  // Start time of cycle `cycles`, rounded down to the picosecond. Inline for the whole-period
  // case, which every bus access takes.
  uint64_t cycles_to_ps(uint64_t cycles) const {
    uint64_t ps = 0;
    if (whole_ps_per_cycle_ != 0 && !__builtin_mul_overflow(cycles, whole_ps_per_cycle_, &ps)) {
      return ps;
    }
    return fractional_cycles_to_ps(cycles);
  }
  sc_core::sc_time cycles_to_time(uint64_t cycles) const { return from_ps(cycles_to_ps(cycles)); }
  // Whole cycles elapsed in `ps`.
  uint64_t ps_to_cycles_floor(uint64_t ps) const;
  // Cycles needed to cover `ps` (a latency costs a started cycle in full).
  uint64_t ps_to_cycles_ceil(uint64_t ps) const;
  // The first picosecond at which `cycles` whole cycles have elapsed; nullopt when that lies
  // beyond 64-bit picoseconds (the count is never reached in a simulation).
  std::optional<uint64_t> first_ps_with_cycles(uint64_t cycles) const;

 private:
  uint64_t fractional_cycles_to_ps(uint64_t cycles) const;

  uint64_t hz_;
  // The period when it is a whole number of picoseconds (800 MHz: 1250), else 0: the
  // conversions are then a multiply or a 64-bit divide instead of 128-bit arithmetic.
  uint64_t whole_ps_per_cycle_;
};

}  // namespace ssdvp
