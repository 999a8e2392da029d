#include "tb/tests/cpu/float_reference.h"

#include <cfloat>
#include <cmath>
#include <cstring>

namespace ssdvp::cpu::test::reference {
namespace {

constexpr uint32_t kNx = 1;
constexpr uint32_t kUf = 2;
constexpr uint32_t kOf = 4;
constexpr uint32_t kDz = 8;
constexpr uint32_t kNv = 16;
constexpr uint32_t kCanonicalNan = 0x7FC00000u;
constexpr int kRne = 0, kRtz = 1, kRdn = 2, kRup = 3, kRmm = 4;

double value_of(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t bits_of(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

uint64_t bits_of(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

bool is_signalling(uint32_t bits) {
  return (bits & 0x7FFFFFFFu) > 0x7F800000u && (bits & 0x00400000u) == 0;
}

int sign_of(double d) { return (d > 0) - (d < 0); }

// The exact value: `approx`, or strictly between approx and its binary64 neighbour on the side
// `direction` (the sign of exact - approx).
struct Exact {
  double approx;
  int direction;
};

// A binary32 value (as a binary64) as significand * 2^exponent with |significand| < 2^24.
void integer_significand(double value, int64_t& significand, int& exponent) {
  int e;
  const double fraction = std::frexp(value, &e);  // in [0.5, 1)
  significand = static_cast<int64_t>(std::ldexp(fraction, 24));
  exponent = e - 24;
}

// x * y + z computed exactly on integers when the terms' last bits are at most 70 binades apart
// (the sum then fits in 127 bits), then truncated to 53 bits with the side of the remainder.
// Independent of TwoSum, which the fast path under test uses. x, y, z non-zero and finite.
bool exact_fused(double x, double y, double z, Exact& out) {
  int64_t mx, my, mz;
  int ex, ey, ez;
  integer_significand(x, mx, ex);
  integer_significand(y, my, ey);
  integer_significand(z, mz, ez);
  const int64_t mp = mx * my;  // exact: below 2^48
  const int ep = ex + ey;
  const int low = ep < ez ? ep : ez;
  const int high = ep < ez ? ez : ep;
  if (high - low > 70) return false;
  // Scaled by multiplication: a left shift of a negative value is undefined.
  const __int128 one = 1;
  const __int128 sum = static_cast<__int128>(mp) * (one << (ep - low)) +
                       static_cast<__int128>(mz) * (one << (ez - low));
  const bool negative = sum < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(sum)
                                         : static_cast<unsigned __int128>(sum);
  int bits = 0;
  for (unsigned __int128 m = magnitude; m != 0; m >>= 1) ++bits;
  const int shift = bits > 53 ? bits - 53 : 0;
  const unsigned __int128 rest = magnitude & ((static_cast<unsigned __int128>(1) << shift) - 1);
  magnitude >>= shift;
  const double truncated = std::ldexp(static_cast<double>(static_cast<uint64_t>(magnitude)),
                                      low + shift);
  // The exact value lies beyond the truncation, away from zero.
  out = {negative ? -truncated : truncated, rest == 0 ? 0 : (negative ? -1 : 1)};
  return true;
}

Exact two_sum(double a, double b) {
  const double s = a + b;
  const double b_part = s - a;
  const double error = (a - (s - b_part)) + (b - b_part);
  return {s, sign_of(error)};
}

// Rounding to odd: between two binary64 neighbours, the one with an odd last bit.
double round_to_odd(Exact x) {
  if (x.direction == 0 || (bits_of(x.approx) & 1u) != 0) return x.approx;
  return std::nextafter(x.approx, x.direction > 0 ? INFINITY : -INFINITY);
}

// `magnitude` rounded to a multiple of 2^quantum_exponent (exact binary64 steps: scaling by a
// power of two, floor, subtraction of the floor).
double round_magnitude(double magnitude, int quantum_exponent, bool negative, int rm) {
  const double scaled = std::ldexp(magnitude, -quantum_exponent);
  const double lower = std::floor(scaled);
  const double rest = scaled - lower;
  bool up = false;
  switch (rm) {
    case kRne: up = rest > 0.5 || (rest == 0.5 && std::fmod(lower, 2.0) == 1.0); break;
    case kRtz: up = false; break;
    case kRdn: up = negative && rest > 0; break;
    case kRup: up = !negative && rest > 0; break;
    case kRmm: up = rest >= 0.5; break;
  }
  return std::ldexp(lower + (up ? 1.0 : 0.0), quantum_exponent);
}

// Rounds a non-zero finite binary64 value (already rounded to odd) to binary32.
Result round_to_float(double value, int rm) {
  const bool negative = value < 0;
  const double magnitude = std::fabs(value);
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  const int quantum = exponent - 24;  // 24 significant bits
  const double unbounded = round_magnitude(magnitude, quantum, negative, rm);
  const double bounded = round_magnitude(magnitude, quantum > -149 ? quantum : -149, negative, rm);
  Result r;
  const bool inexact = bounded != magnitude;
  if (inexact) r.flags |= kNx;
  if (unbounded >= std::ldexp(1.0, 128)) {
    const bool to_infinity = rm == kRne || rm == kRmm || (rm == kRdn && negative) ||
                             (rm == kRup && !negative);
    r.flags |= kOf | kNx;
    r.bits = (negative ? 0x80000000u : 0u) | (to_infinity ? 0x7F800000u : 0x7F7FFFFFu);
    return r;
  }
  if (inexact && unbounded < static_cast<double>(FLT_MIN)) r.flags |= kUf;
  // `bounded` is a binary32 value, so this conversion is exact in any host mode.
  r.bits = bits_of(static_cast<float>(negative ? -bounded : bounded));
  return r;
}

Result round_exact(Exact x, int rm) { return round_to_float(round_to_odd(x), rm); }

Result nan_result(bool invalid) { return {kCanonicalNan, invalid ? kNv : 0u}; }

// Results that are NaN, infinite or zero, decided from the binary64 result of the same
// operation (exact for these cases) and IEEE 754's rules; false when the value is finite and
// non-zero. `operands` are the binary32 inputs; `zero_sum` marks an addition whose exact zero
// takes -0 in RDN unless both terms are zeros of the same sign.
bool special(double host_result, const uint32_t* operands, int count, bool zero_sum,
             bool same_signed_zero_terms, int rm, Result& r) {
  bool any_nan = false;
  bool any_signalling = false;
  for (int i = 0; i < count; ++i) {
    any_nan = any_nan || std::isnan(value_of(operands[i]));
    any_signalling = any_signalling || is_signalling(operands[i]);
  }
  if (std::isnan(host_result)) {
    r = nan_result(any_signalling || !any_nan);  // a NaN from non-NaN operands is invalid
    return true;
  }
  if (std::isinf(host_result)) {
    r = {bits_of(static_cast<float>(host_result)), 0};
    return true;
  }
  if (host_result == 0) {
    if (zero_sum && !same_signed_zero_terms) {
      r = {rm == kRdn ? 0x80000000u : 0u, 0};
    } else {
      r = {bits_of(static_cast<float>(host_result)), 0};
    }
    return true;
  }
  return false;
}

bool zero_terms_of_same_sign(double x, double y) {
  return x == 0 && y == 0 && std::signbit(x) == std::signbit(y);
}

Result to_integer(uint32_t a, int rm, bool is_signed) {
  const double x = value_of(a);
  const double high = is_signed ? 2147483647.0 : 4294967295.0;
  const double low = is_signed ? -2147483648.0 : 0.0;
  if (std::isnan(x)) return {is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu, kNv};
  const bool negative = x < 0;
  const double rounded =
      std::isinf(x) ? x : std::copysign(round_magnitude(std::fabs(x), 0, negative, rm), x);
  if (rounded > high) return {is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu, kNv};
  if (rounded < low) return {is_signed ? 0x80000000u : 0u, kNv};
  const uint32_t flags = rounded != x ? kNx : 0u;
  if (is_signed) return {static_cast<uint32_t>(static_cast<int32_t>(rounded)), flags};
  return {static_cast<uint32_t>(rounded), flags};
}

}  // namespace

Result add(uint32_t a, uint32_t b, int rm) {
  const double x = value_of(a);
  const double y = value_of(b);
  const uint32_t operands[] = {a, b};
  Result r;
  if (special(x + y, operands, 2, true, zero_terms_of_same_sign(x, y), rm, r)) return r;
  return round_exact(two_sum(x, y), rm);
}

Result sub(uint32_t a, uint32_t b, int rm) { return add(a, b ^ 0x80000000u, rm); }

Result mul(uint32_t a, uint32_t b, int rm) {
  const double product = value_of(a) * value_of(b);
  const uint32_t operands[] = {a, b};
  Result r;
  if (special(product, operands, 2, false, false, rm, r)) return r;
  return round_exact({product, 0}, rm);
}

Result div(uint32_t a, uint32_t b, int rm) {
  const double x = value_of(a);
  const double y = value_of(b);
  const uint32_t operands[] = {a, b};
  Result r;
  if (special(x / y, operands, 2, false, false, rm, r)) {
    if (y == 0 && x != 0 && std::isfinite(x)) r.flags |= kDz;
    return r;
  }
  const double q = x / y;
  const double remainder = std::fma(-q, y, x);  // exact
  return round_exact({q, sign_of(remainder) * sign_of(y)}, rm);
}

Result sqrt(uint32_t a, int rm) {
  const double x = value_of(a);
  const uint32_t operands[] = {a};
  Result r;
  if (special(std::sqrt(x), operands, 1, false, false, rm, r)) return r;
  const double s = std::sqrt(x);
  const double remainder = std::fma(-s, s, x);  // exact
  return round_exact({s, sign_of(remainder)}, rm);
}

Result fma(uint32_t a, uint32_t b, uint32_t c, int rm) {
  const double x = value_of(a);
  const double y = value_of(b);
  const double z = value_of(c);
  // RISC-V: infinity times zero is invalid even when the addend is a quiet NaN.
  if ((std::isinf(x) && y == 0) || (x == 0 && std::isinf(y))) return nan_result(true);
  const double product = x * y;  // exact
  const uint32_t operands[] = {a, b, c};
  Result r;
  if (special(product + z, operands, 3, true, zero_terms_of_same_sign(product, z), rm, r)) {
    return r;
  }
  Exact exact;
  if (product != 0 && z != 0 && exact_fused(x, y, z, exact)) return round_exact(exact, rm);
  return round_exact(two_sum(product, z), rm);
}

Result to_int32(uint32_t a, int rm) { return to_integer(a, rm, true); }
Result to_uint32(uint32_t a, int rm) { return to_integer(a, rm, false); }

Result from_int32(int32_t value, int rm) {
  if (value == 0) return {0, 0};
  return round_to_float(static_cast<double>(value), rm);
}

Result from_uint32(uint32_t value, int rm) {
  if (value == 0) return {0, 0};
  return round_to_float(static_cast<double>(value), rm);
}

}  // namespace ssdvp::cpu::test::reference
