#include "tlm/system/sim_time.h"

#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp {
namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000;

uint64_t checked_narrow(unsigned __int128 value, const char* what) {
  if (value > std::numeric_limits<uint64_t>::max()) {
    throw std::runtime_error(fmt::format("{} overflows 64 bits", what));
  }
  return static_cast<uint64_t>(value);
}

}  // namespace

void use_picosecond_resolution() {
  static bool done = false;
  if (done) return;
  try {
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  } catch (const sc_core::sc_report&) {
    // Already specified or fixed: acceptable only if it is 1 ps (checked below).
  }
  const sc_core::sc_time resolution = sc_core::sc_get_time_resolution();
  if (resolution != sc_core::sc_time(1, sc_core::SC_PS)) {
    throw std::runtime_error(fmt::format(
        "SystemC time resolution is already fixed at {}; the models need 1 ps (create the Soc "
        "before any other sc_time)",
        resolution.to_string()));
  }
  done = true;
}

sc_core::sc_time from_ps(uint64_t ps) { return sc_core::sc_time::from_value(ps); }

Clock::Clock(uint64_t hz, const char* what) : hz_(hz), whole_ps_per_cycle_(0) {
  if (hz == 0 || hz > kPsPerSecond) {
    throw std::runtime_error(
        fmt::format("{} = {} Hz is out of range: allowed 1 .. {} Hz", what, hz, kPsPerSecond));
  }
  if (kPsPerSecond % hz == 0) whole_ps_per_cycle_ = kPsPerSecond / hz;
}

uint64_t Clock::fractional_cycles_to_ps(uint64_t cycles) const {
  return checked_narrow(static_cast<unsigned __int128>(cycles) * kPsPerSecond / hz_,
                        "simulated time in ps");
}

uint64_t Clock::ps_to_cycles_floor(uint64_t ps) const {
  if (whole_ps_per_cycle_ != 0) return ps / whole_ps_per_cycle_;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(ps) * hz_ / kPsPerSecond);
}

uint64_t Clock::ps_to_cycles_ceil(uint64_t ps) const {
  if (whole_ps_per_cycle_ != 0) return ps / whole_ps_per_cycle_ + (ps % whole_ps_per_cycle_ != 0);
  const unsigned __int128 scaled = static_cast<unsigned __int128>(ps) * hz_;
  return static_cast<uint64_t>((scaled + kPsPerSecond - 1) / kPsPerSecond);
}

std::optional<uint64_t> Clock::first_ps_with_cycles(uint64_t cycles) const {
  uint64_t whole = 0;
  if (whole_ps_per_cycle_ != 0 && !__builtin_mul_overflow(cycles, whole_ps_per_cycle_, &whole)) {
    return whole;
  }
  const unsigned __int128 ps =
      (static_cast<unsigned __int128>(cycles) * kPsPerSecond + hz_ - 1) / hz_;
  if (ps > std::numeric_limits<uint64_t>::max()) return std::nullopt;
  return static_cast<uint64_t>(ps);
}

}  // namespace ssdvp
