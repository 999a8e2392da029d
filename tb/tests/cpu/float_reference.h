// An independent binary32 reference for the softfloat tests, built the way Berkeley TestFloat's
// reference is: from exact results, by a different method than the one under test.
//
// Exact values come from binary64 arithmetic only where it is exact or where the exact error is
// recoverable:
// - a product of two binary32 values is exact in binary64 (24 + 24 <= 53 significand bits);
// - a sum is not always exact (the operands' exponents may differ by up to 277), but TwoSum gives
//   the exact error e of s = fl(a + b), a + b = s + e;
// - a quotient q = fl(a / b) has an exactly representable remainder r = fma(-q, b, a), whose sign
//   says on which side of q the exact quotient lies; likewise r = fma(-s, s, a) for s = fl(sqrt a);
// - a fused a * b + c is summed exactly on 128-bit integers when its terms are at most 70
//   binades apart, and otherwise is the exact product plus c with TwoSum's error.
// Each such value is brought to one binary64 number by rounding to odd, which preserves the
// correctly rounded binary32 result in every rounding mode (53 >= 24 + 2 bits), and is then
// rounded to binary32 by scaling and floor() on binary64, with no use of the host's rounding
// modes or exception flags.
#pragma once

#include <cstdint>

namespace ssdvp::cpu::test::reference {

// Rounding modes in the rm encoding: 0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM.
constexpr int kRoundingModes = 5;

struct Result {
  uint32_t bits = 0;
  uint32_t flags = 0;  // fflags bits: NX 1, UF 2, OF 4, DZ 8, NV 16
  bool operator==(const Result& other) const {
    return bits == other.bits && flags == other.flags;
  }
};

Result add(uint32_t a, uint32_t b, int rm);
Result sub(uint32_t a, uint32_t b, int rm);
Result mul(uint32_t a, uint32_t b, int rm);
Result div(uint32_t a, uint32_t b, int rm);
Result sqrt(uint32_t a, int rm);
Result fma(uint32_t a, uint32_t b, uint32_t c, int rm);
Result to_int32(uint32_t a, int rm);   // bits = the integer register value
Result to_uint32(uint32_t a, int rm);
Result from_int32(int32_t value, int rm);
Result from_uint32(uint32_t value, int rm);

}  // namespace ssdvp::cpu::test::reference
