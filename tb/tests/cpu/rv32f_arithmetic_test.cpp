// RV32F arithmetic instructions (fadd, fsub, fmul, fdiv, fsqrt and the fused multiply-adds) on
// the hart: each row is run in all five static rounding modes and again with the mode taken from
// frm (rm = dyn). Expected results are worked out by hand in the comments: the exact value, the
// binary32 neighbours around it and the rule of each mode; tininess is detected after rounding.
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "tb/tests/cpu/float_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;
using namespace f32;

struct Expected {
  uint32_t bits;
  uint32_t flags;
};

// Results in rm order: RNE, RTZ, RDN, RUP, RMM.
struct Row {
  const char* what;
  uint32_t a;
  uint32_t b;
  uint32_t c;
  Expected by_mode[5];
};

class FloatArithmeticTest : public FloatTest {
 protected:
  // make(rm) builds the instruction (fa0 <- fa1, fa2, fa3) with rounding field rm.
  template <typename Make>
  void check_rows(const char* mnemonic, Make make, const Row* rows, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const Row& row = rows[i];
      for (uint32_t mode = 0; mode < 5; ++mode) {
        const Expected& want = row.by_mode[mode];
        SCOPED_TRACE(::testing::Message() << mnemonic << " " << row.what << " rm " << mode);
        const Outcome static_rm = execute(make(mode), row.a, row.b, row.c);
        EXPECT_EQ(static_rm.fa0, want.bits) << std::hex << static_rm.fa0;
        EXPECT_EQ(static_rm.fflags, want.flags);
        const Outcome dynamic_rm = execute(make(dyn), row.a, row.b, row.c, mode);
        EXPECT_EQ(dynamic_rm.fa0, want.bits) << std::hex << dynamic_rm.fa0 << " (frm)";
        EXPECT_EQ(dynamic_rm.fflags, want.flags) << "(frm)";
      }
    }
  }
};

// Every mode alike.
constexpr Row same(const char* what, uint32_t a, uint32_t b, uint32_t c, uint32_t bits,
                   uint32_t flags) {
  const Expected e{bits, flags};
  return {what, a, b, c, {e, e, e, e, e}};
}

// ---- fadd / fsub ----
// 1 + 2^-24 lies halfway between 1 (even) and 1 + 2^-23 (0x3F800001, odd).
const Row kAdd[] = {
    {"tie to even below", kOne, 0x33800000, 0,
     {{kOne, kNX}, {kOne, kNX}, {kOne, kNX}, {0x3F800001, kNX}, {0x3F800001, kNX}}},
    {"negative tie", kNegOne, 0xB3800000, 0,
     {{kNegOne, kNX}, {kNegOne, kNX}, {0xBF800001, kNX}, {kNegOne, kNX}, {0xBF800001, kNX}}},
    // 1 + 3 * 2^-24: halfway between 0x3F800001 (odd) and 0x3F800002 (even).
    {"tie to even above", 0x3F800001, 0x33800000, 0,
     {{0x3F800002, kNX}, {0x3F800001, kNX}, {0x3F800001, kNX}, {0x3F800002, kNX},
      {0x3F800002, kNX}}},
    // 1 + 2^-24 + 2^-47: just above the tie, nearest modes round up.
    {"just above a tie", kOne, 0x33800001, 0,
     {{0x3F800001, kNX}, {kOne, kNX}, {kOne, kNX}, {0x3F800001, kNX}, {0x3F800001, kNX}}},
    // 1 + 2^-24 - 2^-48: just below the tie, nearest modes round down (RMM too).
    {"just below a tie", kOne, 0x337FFFFF, 0,
     {{kOne, kNX}, {kOne, kNX}, {kOne, kNX}, {0x3F800001, kNX}, {kOne, kNX}}},
    // 2^30 + 2^6 + 2^-17: the ulp is 2^7, the part above 2^30 is just over half an ulp.
    {"sticky bits decide", 0x4E800000, 0x42800001, 0,
     {{0x4E800001, kNX}, {0x4E800000, kNX}, {0x4E800000, kNX}, {0x4E800001, kNX},
      {0x4E800001, kNX}}},
    // 1 + 2^-30: operands 30 binades apart.
    {"far apart", kOne, 0x30800000, 0,
     {{kOne, kNX}, {kOne, kNX}, {kOne, kNX}, {0x3F800001, kNX}, {kOne, kNX}}},
    same("exact", kOne, kTwo, 0, kThree, 0),
    // x + (-x) is +0 except in RDN, where it is -0.
    {"exact cancellation", kOne, kNegOne, 0,
     {{kZero, 0}, {kZero, 0}, {kNegZero, 0}, {kZero, 0}, {kZero, 0}}},
    same("-0 + -0", kNegZero, kNegZero, 0, kNegZero, 0),
    {"+0 + -0", kZero, kNegZero, 0,
     {{kZero, 0}, {kZero, 0}, {kNegZero, 0}, {kZero, 0}, {kZero, 0}}},
    same("x + 0 keeps x", 0x3F8CCCCD, kNegZero, 0, 0x3F8CCCCD, 0),
    // 2 * max = 2^128 * (1 - 2^-24): overflows; RTZ and the mode towards the other infinity
    // give max.
    {"overflow", kMax, kMax, 0,
     {{kInf, kOF | kNX}, {kMax, kOF | kNX}, {kMax, kOF | kNX}, {kInf, kOF | kNX},
      {kInf, kOF | kNX}}},
    {"negative overflow", 0xFF7FFFFF, 0xFF7FFFFF, 0,
     {{kNegInf, kOF | kNX}, {0xFF7FFFFF, kOF | kNX}, {kNegInf, kOF | kNX},
      {0xFF7FFFFF, kOF | kNX}, {kNegInf, kOF | kNX}}},
    // max + 2^103 is halfway between max (odd) and 2^128: nearest-even overflows, RTZ does not.
    {"overflow by rounding", kMax, 0x73000000, 0,
     {{kInf, kOF | kNX}, {kMax, kNX}, {kMax, kNX}, {kInf, kOF | kNX}, {kInf, kOF | kNX}}},
    {"no overflow below the tie", kMax, 0x72800000, 0,
     {{kMax, kNX}, {kMax, kNX}, {kMax, kNX}, {kInf, kOF | kNX}, {kMax, kNX}}},
    // Subnormal sums are exact: no underflow.
    same("subnormal sum", kMinSubnormal, kMaxSubnormal, 0, kMinNormal, 0),
    same("subnormal difference", kMinNormal, 0x80000001, 0, kMaxSubnormal, 0),
    same("inf + x", kInf, kMax, 0, kInf, 0),
    same("inf - inf", kInf, kNegInf, 0, kQuietNan, kNV),
    same("qNaN", kQuietNanPayload, kOne, 0, kQuietNan, 0),
    same("negative qNaN", kOne, kNegQuietNan, 0, kQuietNan, 0),
    same("sNaN", kSignallingNan, kOne, 0, kQuietNan, kNV),
    same("sNaN + inf", kInf, kNegSignallingNan, 0, kQuietNan, kNV),
};

TEST_F(FloatArithmeticTest, Add) {
  check_rows("fadd.s", [](uint32_t rm) { return fadd_s(fa0, fa1, fa2, rm); }, kAdd,
             std::size(kAdd));
}

// fsub negates the second operand: the same rows with b's sign flipped (NaNs stay NaNs).
TEST_F(FloatArithmeticTest, SubIsAddOfTheNegation) {
  for (const Row& add_row : kAdd) {
    Row row = add_row;
    row.b ^= 0x80000000u;
    check_rows("fsub.s", [](uint32_t rm) { return fsub_s(fa0, fa1, fa2, rm); }, &row, 1);
  }
}

// ---- fmul ----
const Row kMul[] = {
    // (1 + 2^-23) * 1.5 = 1.5 + 2^-23 + 2^-24: halfway between 0x3FC00001 (odd) and 0x3FC00002.
    {"tie", 0x3F800001, kOneAndHalf, 0,
     {{0x3FC00002, kNX}, {0x3FC00001, kNX}, {0x3FC00001, kNX}, {0x3FC00002, kNX},
      {0x3FC00002, kNX}}},
    {"negative tie", 0x3F800001, 0xBFC00000, 0,
     {{0xBFC00002, kNX}, {0xBFC00001, kNX}, {0xBFC00002, kNX}, {0xBFC00001, kNX},
      {0xBFC00002, kNX}}},
    // (1 + 3 * 2^-23) * 1.5 = 1.5 + 4 * 2^-23 + 2^-24: the lower neighbour 0x3FC00004 is even.
    {"tie to the even lower", 0x3F800003, kOneAndHalf, 0,
     {{0x3FC00004, kNX}, {0x3FC00004, kNX}, {0x3FC00004, kNX}, {0x3FC00005, kNX},
      {0x3FC00005, kNX}}},
    same("exact", kThree, kHalf, 0, kOneAndHalf, 0),
    same("subnormal operand", kMinSubnormal, 0x4B000000, 0, kMinNormal, 0),  // 2^-149 * 2^23
    same("exact subnormal result", kMinNormal, kHalf, 0, 0x00400000, 0),    // tiny but exact
    // 2^-149 * 0.5 = 2^-150: halfway between 0 and the smallest subnormal.
    {"underflow to zero", kMinSubnormal, kHalf, 0,
     {{kZero, kUF | kNX}, {kZero, kUF | kNX}, {kZero, kUF | kNX}, {kMinSubnormal, kUF | kNX},
      {kMinSubnormal, kUF | kNX}}},
    {"negative underflow", 0x80000001, kHalf, 0,
     {{kNegZero, kUF | kNX}, {kNegZero, kUF | kNX}, {0x80000001, kUF | kNX},
      {kNegZero, kUF | kNX}, {0x80000001, kUF | kNX}}},
    // (1 - 2^-23) * 2^-126 * (1 + 2^-23) = 2^-126 - 2^-172. Rounded to 24 bits with an unbounded
    // exponent it reaches 2^-126 in RNE, RUP and RMM: not tiny, so inexact without underflow.
    // RTZ and RDN stay below 2^-126: tiny, and the result is the largest subnormal.
    {"tininess after rounding", 0x3F7FFFFE, 0x00800001, 0,
     {{kMinNormal, kNX}, {kMaxSubnormal, kUF | kNX}, {kMaxSubnormal, kUF | kNX},
      {kMinNormal, kNX}, {kMinNormal, kNX}}},
    {"tininess after rounding, negative", 0x3F7FFFFE, 0x80800001, 0,
     {{0x80800000, kNX}, {0x807FFFFF, kUF | kNX}, {0x80800000, kNX},
      {0x807FFFFF, kUF | kNX}, {0x80800000, kNX}}},
    // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150 is exact at 24 bits, so tiny; as a subnormal it is
    // halfway and RNE gives 2^-126 anyway: the result is normal, yet underflow is raised.
    {"tiny though rounded to the smallest normal", 0x3F7FFFFF, kMinNormal, 0,
     {{kMinNormal, kUF | kNX}, {kMaxSubnormal, kUF | kNX}, {kMaxSubnormal, kUF | kNX},
      {kMinNormal, kUF | kNX}, {kMinNormal, kUF | kNX}}},
    {"overflow", kMax, kTwo, 0,
     {{kInf, kOF | kNX}, {kMax, kOF | kNX}, {kMax, kOF | kNX}, {kInf, kOF | kNX},
      {kInf, kOF | kNX}}},
    same("signed zero", kNegZero, kThree, 0, kNegZero, 0),
    same("inf * -1", kInf, kNegOne, 0, kNegInf, 0),
    same("inf * 0", kInf, kZero, 0, kQuietNan, kNV),
    same("0 * -inf", kZero, kNegInf, 0, kQuietNan, kNV),
    same("qNaN * 0", kQuietNan, kZero, 0, kQuietNan, 0),
    same("sNaN", kOne, kSignallingNan, 0, kQuietNan, kNV),
};

TEST_F(FloatArithmeticTest, Mul) {
  check_rows("fmul.s", [](uint32_t rm) { return fmul_s(fa0, fa1, fa2, rm); }, kMul,
             std::size(kMul));
}

// ---- fdiv ----
const Row kDiv[] = {
    // 1/3 = 2^-2 * 1.0101...b: the 23 fraction bits are 0x2AAAAA, then 1010...: above half.
    {"one third", kOne, kThree, 0,
     {{0x3EAAAAAB, kNX}, {0x3EAAAAAA, kNX}, {0x3EAAAAAA, kNX}, {0x3EAAAAAB, kNX},
      {0x3EAAAAAB, kNX}}},
    {"minus one third", kNegOne, kThree, 0,
     {{0xBEAAAAAB, kNX}, {0xBEAAAAAA, kNX}, {0xBEAAAAAB, kNX}, {0xBEAAAAAA, kNX},
      {0xBEAAAAAB, kNX}}},
    same("exact", kThree, kTwo, 0, kOneAndHalf, 0),
    // 2^-126 / 3 in units of 2^-149 is 2^23 / 3 = 2796202.67: subnormal and inexact.
    {"underflow", kMinNormal, kThree, 0,
     {{0x002AAAAB, kUF | kNX}, {0x002AAAAA, kUF | kNX}, {0x002AAAAA, kUF | kNX},
      {0x002AAAAB, kUF | kNX}, {0x002AAAAB, kUF | kNX}}},
    same("subnormal dividend", kMinSubnormal, kMinNormal, 0, 0x34000000, 0),  // 2^-23
    {"overflow", kMax, kHalf, 0,
     {{kInf, kOF | kNX}, {kMax, kOF | kNX}, {kMax, kOF | kNX}, {kInf, kOF | kNX},
      {kInf, kOF | kNX}}},
    same("x / +0", kOne, kZero, 0, kInf, kDZ),
    same("x / -0", kOne, kNegZero, 0, kNegInf, kDZ),
    same("-x / +0", kNegOne, kZero, 0, kNegInf, kDZ),
    same("inf / 0 is not a division by zero", kInf, kZero, 0, kInf, 0),
    same("0 / 0", kZero, kZero, 0, kQuietNan, kNV),
    same("inf / inf", kInf, kNegInf, 0, kQuietNan, kNV),
    same("0 / -x", kZero, kNegOne, 0, kNegZero, 0),
    same("x / inf", kOne, kNegInf, 0, kNegZero, 0),
    same("qNaN / 0", kQuietNan, kZero, 0, kQuietNan, 0),
    same("sNaN", kSignallingNan, kOne, 0, kQuietNan, kNV),
};

TEST_F(FloatArithmeticTest, Div) {
  check_rows("fdiv.s", [](uint32_t rm) { return fdiv_s(fa0, fa1, fa2, rm); }, kDiv,
             std::size(kDiv));
}

// ---- fsqrt ----
const Row kSqrt[] = {
    // sqrt(2) = 1.41421356237...; neighbours 0x3FB504F3 = 1.41421353816... (2.4e-8 below) and
    // 0x3FB504F4 = 1.41421365737... (9.5e-8 above).
    {"sqrt 2", kTwo, 0, 0,
     {{0x3FB504F3, kNX}, {0x3FB504F3, kNX}, {0x3FB504F3, kNX}, {0x3FB504F4, kNX},
      {0x3FB504F3, kNX}}},
    // sqrt(2^-149) = sqrt(2) * 2^-75: the same significand, exponent field 127 - 75 = 52.
    {"sqrt of the smallest subnormal", kMinSubnormal, 0, 0,
     {{0x1A3504F3, kNX}, {0x1A3504F3, kNX}, {0x1A3504F3, kNX}, {0x1A3504F4, kNX},
      {0x1A3504F3, kNX}}},
    same("exact", kFour, 0, 0, kTwo, 0),
    same("exact odd exponent", 0x3E800000, 0, 0, kHalf, 0),  // sqrt(0.25)
    same("-0", kNegZero, 0, 0, kNegZero, 0),
    same("+inf", kInf, 0, 0, kInf, 0),
    same("negative", kNegOne, 0, 0, kQuietNan, kNV),
    same("-inf", kNegInf, 0, 0, kQuietNan, kNV),
    same("negative subnormal", 0x80000001, 0, 0, kQuietNan, kNV),
    same("qNaN", kNegQuietNan, 0, 0, kQuietNan, 0),
    same("sNaN", kSignallingNan, 0, 0, kQuietNan, kNV),
};

TEST_F(FloatArithmeticTest, Sqrt) {
  check_rows("fsqrt.s", [](uint32_t rm) { return fsqrt_s(fa0, fa1, rm); }, kSqrt,
             std::size(kSqrt));
}

// ---- fused multiply-add: a * b + c with one rounding ----
const Row kFmadd[] = {
    // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; rounding the product first would give 1 and
    // then 0.
    same("single rounding keeps the low product bits", 0x3F800001, 0x3F7FFFFE, kNegOne, 0xA8800000,
         0),
    // (1 + 2^-23)^2 + 2^-24 = 1 + 2^-22 + 2^-24 + 2^-46: just above the tie between 0x3F800002
    // and 0x3F800003. A rounded product (1 + 2^-22) plus 2^-24 would be an exact tie (RNE:
    // 0x3F800002).
    {"one rounding of the exact sum", 0x3F800001, 0x3F800001, 0x33800000,
     {{0x3F800003, kNX}, {0x3F800002, kNX}, {0x3F800002, kNX}, {0x3F800003, kNX},
      {0x3F800003, kNX}}},
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is a tie between 0x3F801000 (even) and 0x3F801001; the
    // addend 2^-80, far below even binary64 precision at 1, decides it: up.
    {"a tiny addend breaks a tie", 0x3F800800, 0x3F800800, 0x17800000,
     {{0x3F801001, kNX}, {0x3F801000, kNX}, {0x3F801000, kNX}, {0x3F801001, kNX},
      {0x3F801001, kNX}}},
    {"a tiny negative addend breaks a tie", 0x3F800800, 0x3F800800, 0x97800000,
     {{0x3F801000, kNX}, {0x3F801000, kNX}, {0x3F801000, kNX}, {0x3F801001, kNX},
      {0x3F801000, kNX}}},
    // max * 2 overflows as a product, but the exact sum max * 2 - max = max is representable.
    same("no intermediate overflow", kMax, kTwo, 0xFF7FFFFF, kMax, 0),
    // 2^-149 * 0.5 + 0: the product alone is rounded.
    {"underflow", kMinSubnormal, kHalf, kZero,
     {{kZero, kUF | kNX}, {kZero, kUF | kNX}, {kZero, kUF | kNX}, {kMinSubnormal, kUF | kNX},
      {kMinSubnormal, kUF | kNX}}},
    // 1 * 1 + (-1): exact zero, -0 only in RDN.
    {"exact zero", kOne, kOne, kNegOne,
     {{kZero, 0}, {kZero, 0}, {kNegZero, 0}, {kZero, 0}, {kZero, 0}}},
    same("zero product keeps the addend", kZero, kMax, 0x3F8CCCCD, 0x3F8CCCCD, 0),
    same("(-0 * 1) + -0", kNegZero, kOne, kNegZero, kNegZero, 0),
    {"(+0 * 1) + -0", kZero, kOne, kNegZero,
     {{kZero, 0}, {kZero, 0}, {kNegZero, 0}, {kZero, 0}, {kZero, 0}}},
    same("inf * 0 + qNaN is invalid", kInf, kZero, kQuietNan, kQuietNan, kNV),
    same("inf * 1 - inf", kInf, kOne, kNegInf, kQuietNan, kNV),
    same("inf * 1 + inf", kInf, kOne, kInf, kInf, 0),
    same("x * y + inf", kMax, kMax, kNegInf, kNegInf, 0),
    same("qNaN addend", kOne, kOne, kQuietNanPayload, kQuietNan, 0),
    same("sNaN addend", kOne, kOne, kSignallingNan, kQuietNan, kNV),
    same("sNaN factor", kNegSignallingNan, kOne, kOne, kQuietNan, kNV),
};

TEST_F(FloatArithmeticTest, Fmadd) {
  check_rows("fmadd.s", [](uint32_t rm) { return fmadd_s(fa0, fa1, fa2, fa3, rm); }, kFmadd,
             std::size(kFmadd));
}

// fmsub = a * b - c, fnmsub = -(a * b) + c, fnmadd = -(a * b) - c. Negating an operand is exact,
// so each is checked on the fmadd rows through an identity.
// -(x) rounded in a mode is -(x rounded in the mirrored mode): results negated (the canonical NaN
// stays), RDN and RUP swapped.
Row negated_result(const Row& row) {
  auto flip = [](Expected e) {
    if (e.bits != kQuietNan) e.bits ^= 0x80000000u;
    return e;
  };
  Row mirrored = row;
  mirrored.by_mode[0] = flip(row.by_mode[0]);
  mirrored.by_mode[1] = flip(row.by_mode[1]);
  mirrored.by_mode[2] = flip(row.by_mode[3]);
  mirrored.by_mode[3] = flip(row.by_mode[2]);
  mirrored.by_mode[4] = flip(row.by_mode[4]);
  return mirrored;
}

TEST_F(FloatArithmeticTest, FmsubFnmsubFnmadd) {
  for (const Row& base : kFmadd) {
    // fmsub(a, b, -c) = a * b + c: the fmadd results.
    Row fmsub_row = base;
    fmsub_row.c ^= 0x80000000u;
    check_rows("fmsub.s", [](uint32_t rm) { return fmsub_s(fa0, fa1, fa2, fa3, rm); }, &fmsub_row,
               1);
    // fnmadd(a, b, c) = -(a * b + c), except an exact zero from opposite-signed terms: that is
    // +0 (RDN: -0) whichever way the terms are negated.
    const bool cancels = base.by_mode[0].bits == kZero && base.by_mode[2].bits == kNegZero;
    const Row fnmadd_row = cancels ? base : negated_result(base);
    check_rows("fnmadd.s", [](uint32_t rm) { return fnmadd_s(fa0, fa1, fa2, fa3, rm); },
               &fnmadd_row, 1);
    // fnmsub(a, b, -c) = -(a * b) - c = fnmadd(a, b, c).
    Row fnmsub_row = fnmadd_row;
    fnmsub_row.c ^= 0x80000000u;
    check_rows("fnmsub.s", [](uint32_t rm) { return fnmsub_s(fa0, fa1, fa2, fa3, rm); },
               &fnmsub_row, 1);
  }
}

TEST_F(FloatArithmeticTest, FusedFormsOnTheSingleRoundingCase) {
  // (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46.
  EXPECT_EQ(execute(fmsub_s(fa0, fa1, fa2, fa3, rne), 0x3F800001, 0x3F7FFFFE, kOne).fa0,
            0xA8800000u);  // -2^-46
  EXPECT_EQ(execute(fnmsub_s(fa0, fa1, fa2, fa3, rne), 0x3F800001, 0x3F7FFFFE, kOne).fa0,
            0x28800000u);  // +2^-46
  EXPECT_EQ(execute(fnmadd_s(fa0, fa1, fa2, fa3, rne), 0x3F800001, 0x3F7FFFFE, kNegOne).fa0,
            0x28800000u);  // +2^-46
}

}  // namespace
}  // namespace ssdvp::cpu::test
