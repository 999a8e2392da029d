// The M extension's division results, edge cases included (division by zero, the signed
// overflow), shared by the interpreter and the translator so both give the same answers.
#pragma once

#include <cstdint>
#include <limits>

namespace ssdvp::cpu {

inline uint32_t rv_div(uint32_t a, uint32_t b) {
  const auto dividend = static_cast<int32_t>(a);
  const auto divisor = static_cast<int32_t>(b);
  if (divisor == 0) return ~0u;
  if (dividend == std::numeric_limits<int32_t>::min() && divisor == -1) return a;  // overflow
  return static_cast<uint32_t>(dividend / divisor);
}

inline uint32_t rv_divu(uint32_t a, uint32_t b) { return b == 0 ? ~0u : a / b; }

inline uint32_t rv_rem(uint32_t a, uint32_t b) {
  const auto dividend = static_cast<int32_t>(a);
  const auto divisor = static_cast<int32_t>(b);
  if (divisor == 0) return a;
  if (dividend == std::numeric_limits<int32_t>::min() && divisor == -1) return 0;
  return static_cast<uint32_t>(dividend % divisor);
}

inline uint32_t rv_remu(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

}  // namespace ssdvp::cpu
