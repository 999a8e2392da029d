// The binary32 operations (rv_softfloat) against the independent reference (float_reference.h)
// on fixed-seed random samples in all five rounding modes, and on an enumeration of the
// boundaries of the round-to-nearest-even fast paths (exponent gaps around 28, results around
// 2^-126 and 2^128). The samples favour the hard cases: operands of nearby exponents (ties and
// cancellation), subnormals, values near overflow, short and all-ones significands, zeros,
// infinities and NaNs of both kinds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "tb/tests/cpu/float_reference.h"
#include "tlm/cpu/rv_softfloat.h"

namespace ssdvp::cpu::test {
namespace {

namespace sf = softfloat;
namespace ref = reference;

constexpr int kSamplesPerMode = 20000;
constexpr uint32_t kSeed = 20240611;

class OperandSource {
 public:
  explicit OperandSource(uint32_t seed) : rng_(seed) {}

  uint32_t next() { return rng_(); }

  uint32_t significand() {
    switch (next() % 6) {
      case 0: return 0;                                   // a power of two
      case 1: return 0x7FFFFF;                            // all ones
      case 2: return 1u << (next() % 23);                 // one bit
      case 3: return next() & 0x7FFFFF & ~(0x7FFFFFu >> (next() % 23));  // few high bits
      default: return next() & 0x7FFFFF;
    }
  }

  uint32_t exponent_field() {
    switch (next() % 10) {
      case 0: return 0;                       // zero or subnormal
      case 1: return 255;                     // infinity or NaN
      case 2: return 1 + next() % 3;          // just above the subnormals
      case 3: return 252 + next() % 3;        // near overflow
      case 4: return next() % 256;
      default: return 110 + next() % 36;      // around 1
    }
  }

  uint32_t any() {
    return (next() & 0x80000000u) | (exponent_field() << 23) | significand();
  }

  // An operand whose exponent is within `spread` binades of `near`'s (clamped to 0..255).
  uint32_t close_to(uint32_t near, int spread) {
    const int base = static_cast<int>((near >> 23) & 0xFF);
    int exponent = base + static_cast<int>(next() % (2 * spread + 1)) - spread;
    exponent = exponent < 0 ? 0 : (exponent > 255 ? 255 : exponent);
    return (next() & 0x80000000u) | (static_cast<uint32_t>(exponent) << 23) | significand();
  }

  // A second operand for a sum: usually within 30 binades of the first.
  uint32_t partner(uint32_t a) { return next() % 4 == 0 ? any() : close_to(a, 30); }

 private:
  std::mt19937 rng_;
};

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x", value);
  return text;
}

// Compares one case; reports at most a few mismatches per test to keep the output readable.
class Comparison {
 public:
  explicit Comparison(const char* operation) : operation_(operation) {}
  ~Comparison() { EXPECT_EQ(mismatches_, 0) << operation_ << ": mismatches in " << cases_; }

  void check(const std::string& operands, int rm, uint32_t bits, uint32_t flags,
             const ref::Result& expected) {
    ++cases_;
    if (bits == expected.bits && flags == expected.flags) return;
    if (++mismatches_ <= 5) {
      ADD_FAILURE() << operation_ << "(" << operands << ") rm " << rm << ": got " << hex(bits)
                    << " flags " << flags << ", expected " << hex(expected.bits) << " flags "
                    << expected.flags;
    }
  }

 private:
  const char* operation_;
  int cases_ = 0;
  int mismatches_ = 0;
};

using Binary = uint32_t (*)(uint32_t, uint32_t, sf::Rounding, uint32_t&);
using BinaryReference = ref::Result (*)(uint32_t, uint32_t, int);

void compare_binary(const char* name, Binary op, BinaryReference reference, bool related) {
  Comparison comparison(name);
  OperandSource source(kSeed);
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    for (int i = 0; i < kSamplesPerMode; ++i) {
      const uint32_t a = source.any();
      const uint32_t b = related ? source.partner(a) : source.any();
      uint32_t flags = 0;
      const uint32_t bits = op(a, b, static_cast<sf::Rounding>(rm), flags);
      comparison.check(hex(a) + ", " + hex(b), rm, bits, flags, reference(a, b, rm));
    }
  }
}

TEST(SoftfloatReferenceTest, Add) { compare_binary("add", sf::add, ref::add, true); }
TEST(SoftfloatReferenceTest, Sub) { compare_binary("sub", sf::sub, ref::sub, true); }
TEST(SoftfloatReferenceTest, Mul) { compare_binary("mul", sf::mul, ref::mul, false); }
TEST(SoftfloatReferenceTest, Div) { compare_binary("div", sf::div, ref::div, false); }

TEST(SoftfloatReferenceTest, Sqrt) {
  Comparison comparison("sqrt");
  OperandSource source(kSeed);
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    for (int i = 0; i < kSamplesPerMode; ++i) {
      uint32_t a = source.any();
      if (i % 4 != 0) a &= 0x7FFFFFFFu;  // mostly non-negative
      uint32_t flags = 0;
      const uint32_t bits = sf::sqrt(a, static_cast<sf::Rounding>(rm), flags);
      comparison.check(hex(a), rm, bits, flags, ref::sqrt(a, rm));
    }
  }
}

TEST(SoftfloatReferenceTest, Fma) {
  Comparison comparison("fma");
  OperandSource source(kSeed);
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    for (int i = 0; i < kSamplesPerMode; ++i) {
      const uint32_t a = source.any();
      const uint32_t b = source.any();
      // The addend near the product's exponent most of the time: cancellation and ties.
      uint32_t c = source.any();
      if (i % 4 != 0) {
        const int product_exponent = static_cast<int>((a >> 23) & 0xFF) +
                                     static_cast<int>((b >> 23) & 0xFF) - 127;
        const int clamped =
            product_exponent < 0 ? 0 : (product_exponent > 254 ? 254 : product_exponent);
        c = source.close_to(static_cast<uint32_t>(clamped) << 23, 26);
      }
      uint32_t flags = 0;
      const uint32_t bits = sf::fma(a, b, c, static_cast<sf::Rounding>(rm), flags);
      comparison.check(hex(a) + ", " + hex(b) + ", " + hex(c), rm, bits, flags,
                       ref::fma(a, b, c, rm));
    }
  }
}

TEST(SoftfloatReferenceTest, FloatToInteger) {
  Comparison to_signed("to_int32");
  Comparison to_unsigned("to_uint32");
  OperandSource source(kSeed);
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    for (int i = 0; i < kSamplesPerMode; ++i) {
      // Exponents from 2^-3 to 2^33 most of the time: fractions, ties and the saturation edges.
      uint32_t a = source.any();
      if (i % 4 != 0) a = (a & 0x807FFFFFu) | ((124u + source.next() % 37) << 23);
      const auto mode = static_cast<sf::Rounding>(rm);
      uint32_t flags = 0;
      const auto signed_result = static_cast<uint32_t>(sf::to_int32(a, mode, flags));
      to_signed.check(hex(a), rm, signed_result, flags, ref::to_int32(a, rm));
      flags = 0;
      const uint32_t unsigned_result = sf::to_uint32(a, mode, flags);
      to_unsigned.check(hex(a), rm, unsigned_result, flags, ref::to_uint32(a, rm));
    }
  }
}

TEST(SoftfloatReferenceTest, IntegerToFloat) {
  Comparison from_signed("from_int32");
  Comparison from_unsigned("from_uint32");
  OperandSource source(kSeed);
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    for (int i = 0; i < kSamplesPerMode; ++i) {
      const uint32_t value = source.next() >> (source.next() % 32);  // every bit length
      const uint32_t low_bits = value | (source.next() % 2);
      const auto mode = static_cast<sf::Rounding>(rm);
      uint32_t flags = 0;
      uint32_t bits = sf::from_int32(static_cast<int32_t>(low_bits), mode, flags);
      from_signed.check(hex(low_bits), rm, bits, flags,
                        ref::from_int32(static_cast<int32_t>(low_bits), rm));
      flags = 0;
      bits = sf::from_uint32(low_bits, mode, flags);
      from_unsigned.check(hex(low_bits), rm, bits, flags, ref::from_uint32(low_bits, rm));
    }
  }
}

// Sums and products across the fast path's limits: every exponent gap from 0 to 64 (it takes
// gaps up to 28; from about 54 on, a binary64 sum would hide the inexact flag), operands near the
// subnormal and overflow boundaries, in every mode.
TEST(SoftfloatReferenceTest, FastPathBoundaries) {
  Comparison sums("add");
  Comparison products("mul");
  const uint32_t significands[] = {0, 1, 0x7FFFFF, 0x400000, 0x2AAAAA, 0x555555, 0x000FFF};
  const uint32_t exponents[] = {1, 2, 3, 25, 26, 27, 60, 127, 200, 252, 253, 254};
  for (int rm = 0; rm < ref::kRoundingModes; ++rm) {
    const auto mode = static_cast<sf::Rounding>(rm);
    for (uint32_t ea : exponents) {
      for (uint32_t gap = 0; gap <= 64; ++gap) {
        for (uint32_t sa : significands) {
          for (uint32_t sb : significands) {
            for (uint32_t signs = 0; signs < 4; ++signs) {
              const uint32_t a = ((signs & 1u) << 31) | (ea << 23) | sa;
              const uint32_t eb = ea > gap ? ea - gap : 0;
              const uint32_t b = ((signs >> 1) << 31) | (eb << 23) | sb;
              uint32_t flags = 0;
              uint32_t bits = sf::add(a, b, mode, flags);
              sums.check(hex(a) + ", " + hex(b), rm, bits, flags, ref::add(a, b, rm));
              flags = 0;
              bits = sf::mul(a, b, mode, flags);
              products.check(hex(a) + ", " + hex(b), rm, bits, flags, ref::mul(a, b, rm));
            }
          }
        }
      }
    }
  }
}

// The comparisons and min/max against host binary32 comparisons, which are exact, and the
// spec's flag rules.
TEST(SoftfloatReferenceTest, ComparesAndMinMax) {
  OperandSource source(kSeed);
  auto value = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  };
  auto signalling = [](uint32_t bits) {
    return (bits & 0x7FFFFFFFu) > 0x7F800000u && (bits & 0x00400000u) == 0;
  };
  int mismatches = 0;
  for (int i = 0; i < kSamplesPerMode; ++i) {
    const uint32_t a = source.any();
    const uint32_t b = i % 2 ? source.partner(a) : (i % 3 ? a ^ 0x80000000u : a);
    const float x = value(a);
    const float y = value(b);
    const bool any_nan = std::isnan(x) || std::isnan(y);
    const uint32_t quiet_flag = signalling(a) || signalling(b) ? 16u : 0u;
    const uint32_t signalling_flag = any_nan ? 16u : 0u;
    uint32_t flags = 0;
    mismatches += sf::eq(a, b, flags) != (x == y) || flags != quiet_flag;
    flags = 0;
    mismatches += sf::lt(a, b, flags) != (x < y) || flags != signalling_flag;
    flags = 0;
    mismatches += sf::le(a, b, flags) != (x <= y) || flags != signalling_flag;
    // minimumNumber: the smaller by value, -0 below +0; a NaN loses to a number.
    uint32_t expected_min;
    uint32_t expected_max;
    if (std::isnan(x) && std::isnan(y)) {
      expected_min = expected_max = sf::kCanonicalNan;
    } else if (std::isnan(x)) {
      expected_min = expected_max = b;
    } else if (std::isnan(y)) {
      expected_min = expected_max = a;
    } else {
      const bool a_below = x < y || (x == y && std::signbit(x) && !std::signbit(y));
      expected_min = a_below ? a : b;
      expected_max = a_below ? b : a;
    }
    flags = 0;
    mismatches += sf::min(a, b, flags) != expected_min || flags != quiet_flag;
    flags = 0;
    mismatches += sf::max(a, b, flags) != expected_max || flags != quiet_flag;
    if (mismatches != 0) {
      ADD_FAILURE() << "compare/min/max of " << hex(a) << ", " << hex(b);
      break;
    }
  }
}

}  // namespace
}  // namespace ssdvp::cpu::test
