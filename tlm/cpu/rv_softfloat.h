// IEEE 754-2008 binary32 arithmetic as the RISC-V F extension defines it: five rounding modes,
// the accrued exception flags with tininess detected after rounding, and the canonical NaN as
// every NaN result. Operands and results are bit patterns. The host FPU cannot round to nearest
// with ties away from zero, and its flags are neither portable nor cheap to read, so results are
// computed on integers; in round-to-nearest-even, add, sub, mul, div, sqrt and fma first try a
// host fast path that is exact by construction (rv_softfloat.cpp says why).
#pragma once

#include <cstdint>

namespace ssdvp::cpu::softfloat {

// The rm/frm encodings 0..4 (5 and 6 are reserved, 7 is "dynamic": the executor resolves them).
enum class Rounding : uint8_t {
  kNearestEven = 0,
  kTowardZero = 1,
  kDown = 2,
  kUp = 3,
  kNearestMaxMagnitude = 4,
};

// Exception flags, at their fflags bit positions.
enum Flag : uint32_t {
  kInexact = 1u << 0,
  kUnderflow = 1u << 1,
  kOverflow = 1u << 2,
  kDivideByZero = 1u << 3,
  kInvalid = 1u << 4,
};

constexpr uint32_t kCanonicalNan = 0x7FC00000u;

// Each operation ORs the exceptions it raises into `flags`.
uint32_t add(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags);
uint32_t sub(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags);
uint32_t mul(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags);
uint32_t div(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags);
uint32_t sqrt(uint32_t a, Rounding rm, uint32_t& flags);
// a * b + c with a single rounding. inf * 0 raises invalid even when c is a quiet NaN.
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint32_t& flags);

// minimumNumber / maximumNumber (IEEE 754-2019, RISC-V F 2.2): -0 < +0, a NaN operand yields the
// other operand, two NaNs the canonical NaN; a signalling NaN raises invalid.
uint32_t min(uint32_t a, uint32_t b, uint32_t& flags);
uint32_t max(uint32_t a, uint32_t b, uint32_t& flags);

// Comparisons: eq is quiet (invalid only for a signalling NaN), lt and le signal on any NaN.
bool eq(uint32_t a, uint32_t b, uint32_t& flags);
bool lt(uint32_t a, uint32_t b, uint32_t& flags);
bool le(uint32_t a, uint32_t b, uint32_t& flags);

// The fclass.s mask: bit 0 -inf, 1 negative normal, 2 negative subnormal, 3 -0, 4 +0,
// 5 positive subnormal, 6 positive normal, 7 +inf, 8 signalling NaN, 9 quiet NaN.
uint32_t classify(uint32_t a);

// Float to integer: rounded in rm, then saturated with invalid when out of range (NaN counts as
// +infinity); an in-range inexact result raises inexact.
int32_t to_int32(uint32_t a, Rounding rm, uint32_t& flags);
uint32_t to_uint32(uint32_t a, Rounding rm, uint32_t& flags);
uint32_t from_int32(int32_t value, Rounding rm, uint32_t& flags);
uint32_t from_uint32(uint32_t value, Rounding rm, uint32_t& flags);

}  // namespace ssdvp::cpu::softfloat
