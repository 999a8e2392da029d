#include "tlm/cpu/rv_softfloat.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <utility>

namespace ssdvp::cpu::softfloat {
namespace {

// The fast paths round binary64 values to binary32 with the host: no wider intermediates.
static_assert(FLT_EVAL_METHOD == 0, "binary64 arithmetic must be evaluated in binary64");

using Uint128 = unsigned __int128;

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kMagnitudeMask = 0x7FFFFFFFu;
constexpr uint32_t kFractionMask = 0x007FFFFFu;
constexpr uint32_t kHiddenBit = 0x00800000u;
constexpr uint32_t kQuietBit = 0x00400000u;
constexpr uint32_t kInfinity = 0x7F800000u;
constexpr uint32_t kMaxFinite = 0x7F7FFFFFu;
constexpr int32_t kMinExponent = -149;  // weight of a subnormal's last bit

bool sign_of(uint32_t a) { return (a >> 31) != 0; }
uint32_t sign_bit(bool negative) { return negative ? kSignBit : 0u; }
bool is_nan(uint32_t a) { return (a & kMagnitudeMask) > kInfinity; }
bool is_signalling_nan(uint32_t a) { return is_nan(a) && (a & kQuietBit) == 0; }
bool is_infinity(uint32_t a) { return (a & kMagnitudeMask) == kInfinity; }
bool is_zero(uint32_t a) { return (a & kMagnitudeMask) == 0; }
bool is_finite(uint32_t a) { return (a & kInfinity) != kInfinity; }

float to_host(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
uint32_t from_host(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// A finite non-zero magnitude: sig * 2^exp.
struct Unpacked {
  uint32_t sig;
  int32_t exp;
};

Unpacked unpack(uint32_t a) {
  const uint32_t field = (a >> 23) & 0xFFu;
  if (field == 0) return {a & kFractionMask, kMinExponent};
  return {(a & kFractionMask) | kHiddenBit, static_cast<int32_t>(field) - 150};
}

// The same with sig in [2^23, 2^24), subnormals included.
Unpacked unpack_normalized(uint32_t a) {
  Unpacked u = unpack(a);
  const int lead = __builtin_clz(u.sig) - 8;
  u.sig <<= lead;
  u.exp -= lead;
  return u;
}

// Shifts right, folding the bits shifted out into bit 0 (the sticky bit).
uint64_t shift_right_jam(uint64_t value, uint32_t count) {
  if (count == 0) return value;
  if (count >= 64) return value != 0;
  return (value >> count) | static_cast<uint64_t>((value << (64 - count)) != 0);
}

Uint128 shift_right_jam(Uint128 value, uint32_t count) {
  if (count == 0) return value;
  if (count >= 128) return value != 0;
  return (value >> count) | static_cast<Uint128>((value << (128 - count)) != 0);
}

// Whether the magnitude `kept` (with `rest` below its last bit, `half` being one half of that
// bit) rounds up to kept + 1.
bool rounds_up(bool negative, uint64_t kept, uint64_t rest, uint64_t half, Rounding rm) {
  switch (rm) {
    case Rounding::kNearestEven: return rest > half || (rest == half && (kept & 1u) != 0);
    case Rounding::kTowardZero: return false;
    case Rounding::kDown: return negative && rest != 0;
    case Rounding::kUp: return !negative && rest != 0;
    case Rounding::kNearestMaxMagnitude: return rest >= half;
  }
  return false;
}

uint32_t overflow_result(bool negative, Rounding rm) {
  const bool to_infinity = rm == Rounding::kNearestEven || rm == Rounding::kNearestMaxMagnitude ||
                           (rm == Rounding::kDown && negative) ||
                           (rm == Rounding::kUp && !negative);
  return sign_bit(negative) | (to_infinity ? kInfinity : kMaxFinite);
}

// Rounds (-1)^negative * sig * 2^exp to binary32 (sig != 0). Bit 0 of sig may be a sticky bit
// standing for non-zero bits below it; callers keep it at least two bits below the result's
// last bit after normalisation.
uint32_t round_pack(bool negative, int32_t exp, uint64_t sig, Rounding rm, uint32_t& flags) {
  const int lead = __builtin_clzll(sig);
  const uint64_t normalized = sig << lead;  // in [2^63, 2^64)
  exp -= lead;
  const int32_t top = exp + 63;  // the value lies in [2^top, 2^(top + 1))
  const int32_t last = top - 23 > kMinExponent ? top - 23 : kMinExponent;
  uint32_t shift = static_cast<uint32_t>(last - exp);  // >= 40
  uint64_t bits = normalized;
  if (shift > 62) {
    bits = shift_right_jam(bits, shift - 62);
    shift = 62;
  }
  const uint64_t kept = bits >> shift;
  const uint64_t rest = bits & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  const uint64_t rounded = kept + rounds_up(negative, kept, rest, half, rm);
  if (rest != 0) {
    flags |= kInexact;
    // Tininess after rounding: would the result, rounded to 24 bits with an unbounded exponent,
    // stay below 2^-126? Below 2^-127 it always does; in [2^-127, 2^-126) unless it rounds up.
    if (top < -126) {
      bool tiny = true;
      if (top == -127) {
        const uint64_t kept24 = normalized >> 40;
        const uint64_t rest24 = normalized & ((uint64_t{1} << 40) - 1);
        tiny = kept24 + rounds_up(negative, kept24, rest24, uint64_t{1} << 39, rm) <
               (uint64_t{1} << 24);
      }
      if (tiny) flags |= kUnderflow;
    }
  }
  // A carry out of the significand increments the exponent field, as the encoding is ordered.
  const uint64_t magnitude = (static_cast<uint64_t>(last - kMinExponent) << 23) + rounded;
  if (magnitude >= kInfinity) {
    flags |= kOverflow | kInexact;
    return overflow_result(negative, rm);
  }
  return sign_bit(negative) | static_cast<uint32_t>(magnitude);
}

uint32_t invalid(uint32_t& flags) {
  flags |= kInvalid;
  return kCanonicalNan;
}

// The result of an operation with a NaN operand.
uint32_t nan_result(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_signalling_nan(a) || is_signalling_nan(b)) flags |= kInvalid;
  return kCanonicalNan;
}

// An exact zero sum of operands of opposite signs: +0, or -0 when rounding down.
uint32_t exact_zero_sum(Rounding rm) { return rm == Rounding::kDown ? kSignBit : 0u; }

// Round-to-nearest-even fast paths on the host FPU, for finite operands. Each computes a binary64
// value v that rounds to binary32 exactly as the exact result x does, and that is a binary32
// value only if v = x; the host's binary64 -> binary32 conversion, in its rounding mode, which
// the simulator leaves at round-to-nearest-even (with flush-to-zero and denormals-are-zero off),
// then gives the correctly rounded result. Why v qualifies:
// - mul: the product of two 24-bit significands has at most 48 bits and binary64's exponent
//   range holds every product of binary32 values: v = x.
// - add: exact when one operand is zero or when the exponents of the operands' last significand
//   bits differ by d <= 28 (the sum's integer significand then has at most 24 + d + 1 <= 53
//   bits): v = x. Wider gaps go to the integer path.
// - div: v = x rounded to binary64. If v is a binary32 value then v = x: otherwise, with v in
//   [1, 2) after scaling, x - v = N / (mb * 2^23) for a non-zero integer N and a divisor
//   significand mb < 2^24, so |x - v| > 2^-47, more than v's half ulp 2^-53. Rounding twice is
//   innocuous since 53 >= 2 * 24 + 1 (Figueroa).
// - sqrt: the same. Scaled so that a is in [1, 4) and v in [1, 2), a - v^2 is a multiple of
//   2^-46, so a non-zero |x - v| = |a - v^2| / (x + v) >= 2^-48; and 53 >= 2 * 24 + 2.
// - fma: the product is exact; TwoSum gives the exact error e of s = product + c, and v is s
//   rounded to odd (s itself, or its neighbour towards s + e when s's last bit is even and
//   e != 0), which preserves the binary32 rounding since 53 >= 24 + 2 (Boldo and Melquiond);
//   an odd v has 53 significant bits, so it is no binary32 value.
// Flags then follow from v: invalid cannot occur; the result overflows exactly when the
// conversion gives infinity; it is inexact exactly when it differs from v; and it is never tiny,
// since only v = 0 (an exact zero, with the host's signs) or |v| >= 2^-126 (hence |x| >= 2^-126)
// are taken. Everything else goes to the integer implementation.
bool round_nearest_fast(double exact, uint32_t& result, uint32_t& flags) {
  if (exact != 0.0 && std::fabs(exact) < static_cast<double>(FLT_MIN)) return false;
  const float rounded = static_cast<float>(exact);
  if (std::isinf(rounded)) {
    flags |= kOverflow | kInexact;
  } else if (static_cast<double>(rounded) != exact) {
    flags |= kInexact;
  }
  result = from_host(rounded);
  return true;
}

bool add_nearest_fast(uint32_t a, uint32_t b, uint32_t& result, uint32_t& flags) {
  if (!is_finite(a) || !is_finite(b)) return false;
  if (!is_zero(a) && !is_zero(b)) {
    const int32_t gap =
        static_cast<int32_t>((a >> 23) & 0xFFu) - static_cast<int32_t>((b >> 23) & 0xFFu);
    // Raw exponent fields: a subnormal's field (0) is one below its true exponent, which can only
    // widen the gap, so the test stays conservative.
    if (gap > 28 || gap < -28) return false;
  }
  const double exact = static_cast<double>(to_host(a)) + static_cast<double>(to_host(b));
  return round_nearest_fast(exact, result, flags);
}

bool mul_nearest_fast(uint32_t a, uint32_t b, uint32_t& result, uint32_t& flags) {
  if (!is_finite(a) || !is_finite(b)) return false;
  const double exact = static_cast<double>(to_host(a)) * static_cast<double>(to_host(b));
  return round_nearest_fast(exact, result, flags);
}

bool div_nearest_fast(uint32_t a, uint32_t b, uint32_t& result, uint32_t& flags) {
  if (!is_finite(a) || !is_finite(b) || is_zero(b)) return false;
  const double quotient = static_cast<double>(to_host(a)) / static_cast<double>(to_host(b));
  return round_nearest_fast(quotient, result, flags);
}

bool sqrt_nearest_fast(uint32_t a, uint32_t& result, uint32_t& flags) {
  if (!is_finite(a) || sign_of(a)) return false;  // -0 and negatives take the integer path
  return round_nearest_fast(std::sqrt(static_cast<double>(to_host(a))), result, flags);
}

bool fma_nearest_fast(uint32_t a, uint32_t b, uint32_t c, uint32_t& result, uint32_t& flags) {
  if (!is_finite(a) || !is_finite(b) || !is_finite(c)) return false;
  const double product = static_cast<double>(to_host(a)) * static_cast<double>(to_host(b));
  const double addend = to_host(c);
  const double sum = product + addend;
  // TwoSum: product + addend = sum + error exactly.
  const double addend_part = sum - product;
  const double error = (product - (sum - addend_part)) + (addend - addend_part);
  double odd = sum;
  if (error != 0) {
    uint64_t bits;
    std::memcpy(&bits, &sum, sizeof bits);
    if ((bits & 1u) == 0) {
      // The neighbour towards the exact value: a larger magnitude when error has sum's sign.
      bits = (error > 0) == (sum > 0) ? bits + 1 : bits - 1;
      std::memcpy(&odd, &bits, sizeof odd);
    }
  }
  return round_nearest_fast(odd, result, flags);
}

uint32_t add_general(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  const bool negative_a = sign_of(a);
  const bool negative_b = sign_of(b);
  if (is_infinity(a)) {
    if (is_infinity(b) && negative_a != negative_b) return invalid(flags);
    return a;
  }
  if (is_infinity(b)) return b;
  if (is_zero(a) && is_zero(b)) return negative_a == negative_b ? a : exact_zero_sum(rm);
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;

  Unpacked big = unpack(a);
  Unpacked small = unpack(b);
  bool big_negative = negative_a;
  bool small_negative = negative_b;
  if (big.exp < small.exp) {
    std::swap(big, small);
    std::swap(big_negative, small_negative);
  }
  // 39 spare bits below the significands: the smaller operand loses bits to the sticky bit only
  // when the gap exceeds 39, and then the result keeps its leading bit near bit 62.
  const uint64_t big_sig = uint64_t{big.sig} << 39;
  const uint64_t small_sig =
      shift_right_jam(uint64_t{small.sig} << 39, static_cast<uint32_t>(big.exp - small.exp));
  const int32_t exp = big.exp - 39;
  if (big_negative == small_negative) {
    return round_pack(big_negative, exp, big_sig + small_sig, rm, flags);
  }
  if (big_sig == small_sig) return exact_zero_sum(rm);
  if (big_sig > small_sig) return round_pack(big_negative, exp, big_sig - small_sig, rm, flags);
  return round_pack(small_negative, exp, small_sig - big_sig, rm, flags);
}

uint32_t mul_general(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  const bool negative = sign_of(a) != sign_of(b);
  if (is_infinity(a) || is_infinity(b)) {
    if (is_zero(a) || is_zero(b)) return invalid(flags);
    return sign_bit(negative) | kInfinity;
  }
  if (is_zero(a) || is_zero(b)) return sign_bit(negative);
  const Unpacked ua = unpack(a);
  const Unpacked ub = unpack(b);
  return round_pack(negative, ua.exp + ub.exp, uint64_t{ua.sig} * ub.sig, rm, flags);
}

// floor(sqrt(value)) for value < 2^63.
uint64_t integer_sqrt(uint64_t value) {
  auto root = static_cast<uint64_t>(std::sqrt(static_cast<double>(value)));
  while (root * root > value) --root;
  while ((root + 1) * (root + 1) <= value) ++root;
  return root;
}

// Three-way compare of non-NaN values in the order -inf < ... < -0 < +0 < ... < +inf.
bool ordered_less(uint32_t a, uint32_t b) {
  const bool negative_a = sign_of(a);
  if (negative_a != sign_of(b)) return negative_a;
  return negative_a ? a > b : a < b;
}

template <bool kSigned>
uint32_t to_integer(uint32_t a, Rounding rm, uint32_t& flags) {
  constexpr uint32_t kPositiveLimit = kSigned ? 0x7FFFFFFFu : 0xFFFFFFFFu;
  constexpr uint32_t kNegativeLimit = kSigned ? 0x80000000u : 0u;  // magnitude allowed below zero
  const bool negative = sign_of(a) && !is_nan(a);  // NaN saturates like +infinity
  const uint32_t saturated = negative ? kNegativeLimit : kPositiveLimit;
  if (!is_finite(a)) {
    flags |= kInvalid;
    return saturated;
  }
  if (is_zero(a)) return 0;
  const Unpacked u = unpack(a);
  uint64_t magnitude = 0;
  bool inexact = false;
  if (u.exp >= 0) {
    if (u.exp > 8) {  // >= 2^32 for a normal significand (>= 2^23)
      flags |= kInvalid;
      return saturated;
    }
    magnitude = uint64_t{u.sig} << u.exp;
  } else {
    const uint32_t shift = static_cast<uint32_t>(-u.exp);
    if (shift > 40) {  // below 2^-16: only the sticky information remains
      magnitude = rounds_up(negative, 0, 1, 2, rm);
      inexact = true;
    } else {
      const uint64_t sig = u.sig;
      const uint64_t kept = sig >> shift;
      const uint64_t rest = sig & ((uint64_t{1} << shift) - 1);
      magnitude = kept + rounds_up(negative, kept, rest, uint64_t{1} << (shift - 1), rm);
      inexact = rest != 0;
    }
  }
  if (magnitude > (negative ? uint64_t{kNegativeLimit} : uint64_t{kPositiveLimit})) {
    flags |= kInvalid;
    return saturated;
  }
  if (inexact) flags |= kInexact;
  const auto value = static_cast<uint32_t>(magnitude);
  return negative ? 0u - value : value;
}

uint32_t from_integer(bool negative, uint32_t magnitude, Rounding rm, uint32_t& flags) {
  if (magnitude == 0) return 0;  // +0 in every rounding mode
  return round_pack(negative, 0, magnitude, rm, flags);
}

}  // namespace

uint32_t add(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  uint32_t result;
  if (rm == Rounding::kNearestEven && add_nearest_fast(a, b, result, flags)) return result;
  return add_general(a, b, rm, flags);
}

uint32_t sub(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  // Flipping a NaN's sign changes neither its kind nor the (canonical) result.
  return add(a, b ^ kSignBit, rm, flags);
}

uint32_t mul(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  uint32_t result;
  if (rm == Rounding::kNearestEven && mul_nearest_fast(a, b, result, flags)) return result;
  return mul_general(a, b, rm, flags);
}

uint32_t div(uint32_t a, uint32_t b, Rounding rm, uint32_t& flags) {
  uint32_t result;
  if (rm == Rounding::kNearestEven && div_nearest_fast(a, b, result, flags)) return result;
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  const bool negative = sign_of(a) != sign_of(b);
  if (is_infinity(a)) {
    if (is_infinity(b)) return invalid(flags);
    return sign_bit(negative) | kInfinity;
  }
  if (is_infinity(b)) return sign_bit(negative);
  if (is_zero(b)) {
    if (is_zero(a)) return invalid(flags);
    flags |= kDivideByZero;
    return sign_bit(negative) | kInfinity;
  }
  if (is_zero(a)) return sign_bit(negative);
  const Unpacked ua = unpack_normalized(a);
  const Unpacked ub = unpack_normalized(b);
  // The quotient of significands in [2^23, 2^24) scaled by 2^40 has at least 40 bits.
  const uint64_t dividend = uint64_t{ua.sig} << 40;
  const uint64_t quotient = dividend / ub.sig;
  const bool remainder = dividend % ub.sig != 0;
  return round_pack(negative, ua.exp - ub.exp - 40, quotient | remainder, rm, flags);
}

uint32_t sqrt(uint32_t a, Rounding rm, uint32_t& flags) {
  uint32_t result;
  if (rm == Rounding::kNearestEven && sqrt_nearest_fast(a, result, flags)) return result;
  if (is_nan(a)) return nan_result(a, a, flags);
  if (is_zero(a)) return a;  // sqrt(-0) = -0
  if (sign_of(a)) return invalid(flags);
  if (is_infinity(a)) return a;
  Unpacked u = unpack_normalized(a);
  uint64_t sig = u.sig;
  if (u.exp & 1) {  // make the exponent even so it halves exactly
    sig <<= 1;
    u.exp -= 1;
  }
  // sig < 2^25, so the radicand stays below 2^63 and its root has at least 31 bits.
  const uint64_t radicand = sig << 38;
  const uint64_t root = integer_sqrt(radicand);
  const bool remainder = root * root != radicand;
  return round_pack(false, (u.exp - 38) / 2, root | remainder, rm, flags);
}

uint32_t fma(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint32_t& flags) {
  uint32_t result;
  if (rm == Rounding::kNearestEven && fma_nearest_fast(a, b, c, result, flags)) return result;
  if ((is_infinity(a) && is_zero(b)) || (is_zero(a) && is_infinity(b))) return invalid(flags);
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    if (is_signalling_nan(c)) flags |= kInvalid;
    return nan_result(a, b, flags);
  }
  const bool product_negative = sign_of(a) != sign_of(b);
  const bool addend_negative = sign_of(c);
  if (is_infinity(a) || is_infinity(b)) {
    if (is_infinity(c) && addend_negative != product_negative) return invalid(flags);
    return sign_bit(product_negative) | kInfinity;
  }
  if (is_infinity(c)) return c;
  if (is_zero(a) || is_zero(b)) {
    if (is_zero(c)) return product_negative == addend_negative ? c : exact_zero_sum(rm);
    return c;
  }
  const Unpacked ua = unpack(a);
  const Unpacked ub = unpack(b);
  const uint64_t product = uint64_t{ua.sig} * ub.sig;  // exact, < 2^48
  const int32_t product_exp = ua.exp + ub.exp;
  if (is_zero(c)) return round_pack(product_negative, product_exp, product, rm, flags);

  // Both terms with their leading bit at most at bit 119 and many zero bits below: aligning the
  // smaller one loses bits to the sticky bit only when it is far below the other, whose leading
  // bits then survive any cancellation.
  const Unpacked uc = unpack(c);
  Uint128 x = static_cast<Uint128>(product) << 72;
  int32_t x_exp = product_exp - 72;
  Uint128 y = static_cast<Uint128>(uc.sig) << 96;
  int32_t y_exp = uc.exp - 96;
  if (x_exp >= y_exp) {
    y = shift_right_jam(y, static_cast<uint32_t>(x_exp - y_exp));
    y_exp = x_exp;
  } else {
    x = shift_right_jam(x, static_cast<uint32_t>(y_exp - x_exp));
    x_exp = y_exp;
  }
  Uint128 sum;
  bool negative;
  if (product_negative == addend_negative) {
    sum = x + y;
    negative = product_negative;
  } else if (x == y) {
    return exact_zero_sum(rm);
  } else if (x > y) {
    sum = x - y;
    negative = product_negative;
  } else {
    sum = y - x;
    negative = addend_negative;
  }
  int32_t exp = x_exp;
  const auto high = static_cast<uint64_t>(sum >> 64);
  if (high != 0) {
    const auto excess = static_cast<uint32_t>(64 - __builtin_clzll(high));
    sum = shift_right_jam(sum, excess);
    exp += static_cast<int32_t>(excess);
  }
  return round_pack(negative, exp, static_cast<uint64_t>(sum), rm, flags);
}

uint32_t min(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_signalling_nan(a) || is_signalling_nan(b)) flags |= kInvalid;
  if (is_nan(a)) return is_nan(b) ? kCanonicalNan : b;
  if (is_nan(b)) return a;
  return ordered_less(b, a) ? b : a;
}

uint32_t max(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_signalling_nan(a) || is_signalling_nan(b)) flags |= kInvalid;
  if (is_nan(a)) return is_nan(b) ? kCanonicalNan : b;
  if (is_nan(b)) return a;
  return ordered_less(a, b) ? b : a;
}

bool eq(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_signalling_nan(a) || is_signalling_nan(b)) flags |= kInvalid;
    return false;
  }
  return a == b || (is_zero(a) && is_zero(b));
}

bool lt(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kInvalid;
    return false;
  }
  if (is_zero(a) && is_zero(b)) return false;
  return ordered_less(a, b);
}

bool le(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kInvalid;
    return false;
  }
  if (is_zero(a) && is_zero(b)) return true;
  return a == b || ordered_less(a, b);
}

uint32_t classify(uint32_t a) {
  const bool negative = sign_of(a);
  if (is_nan(a)) return is_signalling_nan(a) ? 1u << 8 : 1u << 9;
  if (is_infinity(a)) return negative ? 1u << 0 : 1u << 7;
  if (is_zero(a)) return negative ? 1u << 3 : 1u << 4;
  if ((a & kInfinity) == 0) return negative ? 1u << 2 : 1u << 5;  // subnormal
  return negative ? 1u << 1 : 1u << 6;
}

int32_t to_int32(uint32_t a, Rounding rm, uint32_t& flags) {
  return static_cast<int32_t>(to_integer<true>(a, rm, flags));
}

uint32_t to_uint32(uint32_t a, Rounding rm, uint32_t& flags) {
  return to_integer<false>(a, rm, flags);
}

uint32_t from_int32(int32_t value, Rounding rm, uint32_t& flags) {
  const bool negative = value < 0;
  const auto bits = static_cast<uint32_t>(value);
  const uint32_t magnitude = negative ? 0u - bits : bits;
  return from_integer(negative, magnitude, rm, flags);
}

uint32_t from_uint32(uint32_t value, Rounding rm, uint32_t& flags) {
  return from_integer(false, value, rm, flags);
}

}  // namespace ssdvp::cpu::softfloat
