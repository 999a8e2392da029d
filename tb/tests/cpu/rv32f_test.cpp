// RV32F on the hart, apart from the arithmetic (rv32f_arithmetic_test.cpp): sign injection,
// minimum/maximum, compares, fclass, conversions with their saturation table, moves, loads and
// stores with the compressed forms, mstatus.FS, the rounding-mode field and frm, fcsr, and the
// cost of each F instruction class.
#include <cstdint>
#include <vector>

#include "tb/tests/cpu/float_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;
using namespace f32;

constexpr uint32_t kMstatusBase = csr::kMstatusMppMachine;

// ---- sign injection ----

TEST_F(FloatTest, SignInjectionTouchesOnlyTheSignBit) {
  struct Row {
    uint32_t a, b, sgnj, sgnjn, sgnjx;
  };
  const Row rows[] = {
      {kOne, 0xC0000000, kNegOne, kOne, kNegOne},
      {kNegOne, kTwo, kOne, kNegOne, kNegOne},
      {kNegOne, 0xC0000000, kNegOne, kOne, kOne},
      // NaNs are moved bit for bit: no canonical NaN, no invalid flag.
      {kSignallingNan, kNegOne, 0xFF800001, kSignallingNan, 0xFF800001},
      {kQuietNanPayload, kOne, kQuietNanPayload, 0xFFC12345, kQuietNanPayload},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(::testing::Message() << std::hex << row.a << " " << row.b);
    Outcome r = execute(fsgnj_s(fa0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.fa0, row.sgnj);
    EXPECT_EQ(r.fflags, 0u);
    r = execute(fsgnjn_s(fa0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.fa0, row.sgnjn);
    EXPECT_EQ(r.fflags, 0u);
    r = execute(fsgnjx_s(fa0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.fa0, row.sgnjx);
    EXPECT_EQ(r.fflags, 0u);
  }
  // The fmv.s / fneg.s / fabs.s idioms: both sources the same register.
  EXPECT_EQ(execute(fsgnj_s(fa0, fa1, fa1), 0xC0400000).fa0, 0xC0400000u);
  EXPECT_EQ(execute(fsgnjn_s(fa0, fa1, fa1), 0xC0400000).fa0, kThree);
  EXPECT_EQ(execute(fsgnjx_s(fa0, fa1, fa1), 0xC0400000).fa0, kThree);
}

// ---- fmin / fmax (minimumNumber / maximumNumber) ----

TEST_F(FloatTest, MinMaxFollowTheCurrentSpec) {
  struct Row {
    const char* what;
    uint32_t a, b, min, max, flags;
  };
  const Row rows[] = {
      {"ordered", kOne, kTwo, kOne, kTwo, 0},
      {"negative", kNegOne, 0xC0000000, 0xC0000000, kNegOne, 0},
      {"-0 < +0", kNegZero, kZero, kNegZero, kZero, 0},
      {"+0 > -0", kZero, kNegZero, kNegZero, kZero, 0},
      {"infinities", kNegInf, kMax, kNegInf, kMax, 0},
      {"subnormal", 0x80000001, kZero, 0x80000001, kZero, 0},
      {"quiet NaN first", kQuietNanPayload, kOne, kOne, kOne, 0},
      {"quiet NaN second", kNegOne, kNegQuietNan, kNegOne, kNegOne, 0},
      {"signalling NaN", kSignallingNan, kOne, kOne, kOne, kNV},
      {"signalling NaN second", kTwo, kNegSignallingNan, kTwo, kTwo, kNV},
      {"two quiet NaNs", kQuietNanPayload, kNegQuietNan, kQuietNan, kQuietNan, 0},
      {"signalling and quiet NaN", kSignallingNan, kQuietNanPayload, kQuietNan, kQuietNan, kNV},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    Outcome r = execute(fmin_s(fa0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.fa0, row.min) << std::hex << r.fa0;
    EXPECT_EQ(r.fflags, row.flags);
    r = execute(fmax_s(fa0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.fa0, row.max) << std::hex << r.fa0;
    EXPECT_EQ(r.fflags, row.flags);
  }
}

// ---- feq / flt / fle ----

TEST_F(FloatTest, ComparesQuietAndSignalling) {
  struct Row {
    const char* what;
    uint32_t a, b;
    uint32_t eq, lt, le;
    uint32_t eq_flags, order_flags;  // feq's; flt's and fle's
  };
  const Row rows[] = {
      {"less", kOne, kTwo, 0, 1, 1, 0, 0},
      {"greater", kTwo, kOne, 0, 0, 0, 0, 0},
      {"equal", kOne, kOne, 1, 0, 1, 0, 0},
      {"-0 == +0", kNegZero, kZero, 1, 0, 1, 0, 0},
      {"+0 == -0", kZero, kNegZero, 1, 0, 1, 0, 0},
      {"negative", kNegOne, 0xC0000000, 0, 0, 0, 0, 0},
      {"infinities", kNegInf, 0xFF7FFFFF, 0, 1, 1, 0, 0},
      {"equal infinities", kInf, kInf, 1, 0, 1, 0, 0},
      {"subnormal above zero", kZero, kMinSubnormal, 0, 1, 1, 0, 0},
      {"quiet NaN", kQuietNan, kOne, 0, 0, 0, 0, kNV},
      {"quiet NaN second", kOne, kQuietNanPayload, 0, 0, 0, 0, kNV},
      {"two quiet NaNs", kQuietNan, kQuietNan, 0, 0, 0, 0, kNV},
      {"signalling NaN", kSignallingNan, kOne, 0, 0, 0, kNV, kNV},
      {"signalling NaN second", kOne, kNegSignallingNan, 0, 0, 0, kNV, kNV},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.what);
    Outcome r = execute(feq_s(a0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.a0, row.eq);
    EXPECT_EQ(r.fflags, row.eq_flags);
    EXPECT_EQ(r.fa0, kUnwritten);
    r = execute(flt_s(a0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.a0, row.lt);
    EXPECT_EQ(r.fflags, row.order_flags);
    r = execute(fle_s(a0, fa1, fa2), row.a, row.b);
    EXPECT_EQ(r.a0, row.le);
    EXPECT_EQ(r.fflags, row.order_flags);
  }
}

// ---- fclass ----

TEST_F(FloatTest, ClassifiesAllTenClasses) {
  struct Row {
    uint32_t value, mask;
  };
  const Row rows[] = {
      {kNegInf, 1u << 0},        {kNegOne, 1u << 1},       {0xFF7FFFFF, 1u << 1},
      {0x80000001, 1u << 2},     {0x807FFFFF, 1u << 2},    {kNegZero, 1u << 3},
      {kZero, 1u << 4},          {kMinSubnormal, 1u << 5}, {kMaxSubnormal, 1u << 5},
      {kMinNormal, 1u << 6},     {kMax, 1u << 6},          {kInf, 1u << 7},
      {kSignallingNan, 1u << 8}, {kNegSignallingNan, 1u << 8},
      {kQuietNan, 1u << 9},      {kNegQuietNan, 1u << 9},  {0x7FFFFFFF, 1u << 9},
  };
  for (const Row& row : rows) {
    const Outcome r = execute(fclass_s(a0, fa1), row.value);
    EXPECT_EQ(r.a0, row.mask) << std::hex << row.value;
    EXPECT_EQ(r.fflags, 0u) << std::hex << row.value;  // even for a signalling NaN
  }
}

// ---- conversions ----

struct ConvertRow {
  const char* what;
  uint32_t input;  // float bits (to integer) or the integer (to float)
  uint32_t results[5];  // RNE, RTZ, RDN, RUP, RMM
  uint32_t flags[5];
};

#define SAME5(x) {x, x, x, x, x}

class FloatConvertTest : public FloatTest {
 public:
  // The input goes to fa1 and to a1, so one helper serves both directions.
  Outcome execute_for(uint32_t instruction, uint32_t input) {
    return execute(instruction, input, 0, 0, 0, input);
  }
};

template <typename Fixture>
void check(Fixture* test, uint32_t (*make)(uint32_t rm), bool integer_result,
           const std::vector<ConvertRow>& rows) {
  for (const ConvertRow& row : rows) {
    for (uint32_t mode = 0; mode < 5; ++mode) {
      SCOPED_TRACE(::testing::Message() << row.what << " rm " << mode);
      const auto r = test->execute_for(make(mode), row.input);
      const uint32_t result = integer_result ? r.a0 : r.fa0;
      EXPECT_EQ(result, row.results[mode]) << std::hex << result;
      EXPECT_EQ(r.fflags, row.flags[mode]);
    }
  }
}

TEST_F(FloatConvertTest, FloatToSignedWordRoundsAndSaturates) {
  const std::vector<ConvertRow> rows = {
      {"1.5", 0x3FC00000, {2, 1, 1, 2, 2}, SAME5(kNX)},
      {"2.5", 0x40200000, {2, 2, 2, 3, 3}, SAME5(kNX)},
      {"-1.5", 0xBFC00000, {0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFE},
       SAME5(kNX)},
      {"-2.5", 0xC0200000, {0xFFFFFFFE, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFD},
       SAME5(kNX)},
      {"0.5", kHalf, {0, 0, 0, 1, 1}, SAME5(kNX)},
      {"-0.5", 0xBF000000, {0, 0, 0xFFFFFFFF, 0, 0xFFFFFFFF}, SAME5(kNX)},
      {"smallest subnormal", kMinSubnormal, {0, 0, 0, 1, 0}, SAME5(kNX)},
      {"-0", kNegZero, SAME5(0u), SAME5(0u)},
      {"1e9 exact", 0x4E6E6B28, SAME5(1000000000u), SAME5(0u)},
      {"largest below 2^31", 0x4EFFFFFF, SAME5(0x7FFFFF80u), SAME5(0u)},
      {"2^31 saturates", 0x4F000000, SAME5(0x7FFFFFFFu), SAME5(kNV)},
      {"-2^31 fits", 0xCF000000, SAME5(0x80000000u), SAME5(0u)},
      {"below -2^31 saturates", 0xCF000001, SAME5(0x80000000u), SAME5(kNV)},
      {"max", kMax, SAME5(0x7FFFFFFFu), SAME5(kNV)},
      {"+inf", kInf, SAME5(0x7FFFFFFFu), SAME5(kNV)},
      {"-inf", kNegInf, SAME5(0x80000000u), SAME5(kNV)},
      {"quiet NaN", kQuietNan, SAME5(0x7FFFFFFFu), SAME5(kNV)},
      {"negative NaN counts as +inf", kNegQuietNan, SAME5(0x7FFFFFFFu), SAME5(kNV)},
      {"signalling NaN", kSignallingNan, SAME5(0x7FFFFFFFu), SAME5(kNV)},
  };
  check(this, [](uint32_t rm) { return fcvt_w_s(a0, fa1, rm); }, true, rows);
}

TEST_F(FloatConvertTest, FloatToUnsignedWordRoundsAndSaturates) {
  const std::vector<ConvertRow> rows = {
      {"1.5", 0x3FC00000, {2, 1, 1, 2, 2}, SAME5(kNX)},
      // -0.4 rounds to 0 (in range, inexact) except in RDN, where -1 is out of range.
      {"-0.4", 0xBECCCCCD, SAME5(0u), {kNX, kNX, kNV, kNX, kNX}},
      // -0.5: RNE ties to 0; RDN and RMM give -1: out of range.
      {"-0.5", 0xBF000000, SAME5(0u), {kNX, kNX, kNV, kNX, kNV}},
      {"-1", kNegOne, SAME5(0u), SAME5(kNV)},
      {"-0", kNegZero, SAME5(0u), SAME5(0u)},
      {"2^31 fits", 0x4F000000, SAME5(0x80000000u), SAME5(0u)},
      {"largest below 2^32", 0x4F7FFFFF, SAME5(0xFFFFFF00u), SAME5(0u)},
      {"2^32 saturates", 0x4F800000, SAME5(0xFFFFFFFFu), SAME5(kNV)},
      {"+inf", kInf, SAME5(0xFFFFFFFFu), SAME5(kNV)},
      {"-inf", kNegInf, SAME5(0u), SAME5(kNV)},
      {"quiet NaN", kQuietNan, SAME5(0xFFFFFFFFu), SAME5(kNV)},
      {"negative NaN counts as +inf", kNegQuietNan, SAME5(0xFFFFFFFFu), SAME5(kNV)},
  };
  check(this, [](uint32_t rm) { return fcvt_wu_s(a0, fa1, rm); }, true, rows);
}

TEST_F(FloatConvertTest, SignedWordToFloatRounds) {
  const std::vector<ConvertRow> rows = {
      {"0 is +0", 0, SAME5(kZero), SAME5(0u)},
      {"-1", 0xFFFFFFFF, SAME5(kNegOne), SAME5(0u)},
      // 2^24 + 1 lies halfway between 2^24 (0x4B800000, even) and 2^24 + 2.
      {"2^24 + 1", 16777217, {0x4B800000, 0x4B800000, 0x4B800000, 0x4B800001, 0x4B800001},
       SAME5(kNX)},
      // 2^24 + 3 lies halfway between 2^24 + 2 (odd significand) and 2^24 + 4.
      {"2^24 + 3", 16777219, {0x4B800002, 0x4B800001, 0x4B800001, 0x4B800002, 0x4B800002},
       SAME5(kNX)},
      {"-(2^24 + 1)", static_cast<uint32_t>(-16777217),
       {0xCB800000, 0xCB800000, 0xCB800001, 0xCB800000, 0xCB800001}, SAME5(kNX)},
      {"INT_MIN", 0x80000000, SAME5(0xCF000000u), SAME5(0u)},
      // 2^31 - 1 between 2^31 - 128 (0x4EFFFFFF) and 2^31.
      {"INT_MAX", 0x7FFFFFFF, {0x4F000000, 0x4EFFFFFF, 0x4EFFFFFF, 0x4F000000, 0x4F000000},
       SAME5(kNX)},
  };
  check(this, [](uint32_t rm) { return fcvt_s_w(fa0, a1, rm); }, false, rows);
}

TEST_F(FloatConvertTest, UnsignedWordToFloatRounds) {
  const std::vector<ConvertRow> rows = {
      {"0 is +0", 0, SAME5(kZero), SAME5(0u)},
      {"1", 1, SAME5(kOne), SAME5(0u)},
      {"2^31", 0x80000000, SAME5(0x4F000000u), SAME5(0u)},
      // 2^32 - 1 between 2^32 - 256 (0x4F7FFFFF) and 2^32.
      {"UINT_MAX", 0xFFFFFFFF, {0x4F800000, 0x4F7FFFFF, 0x4F7FFFFF, 0x4F800000, 0x4F800000},
       SAME5(kNX)},
  };
  check(this, [](uint32_t rm) { return fcvt_s_wu(fa0, a1, rm); }, false, rows);
}

#undef SAME5

// ---- moves, loads and stores ----

TEST_F(FloatTest, MovesAreBitExact) {
  Outcome r = execute(fmv_x_w(a0, fa1), kSignallingNan);
  EXPECT_EQ(r.a0, kSignallingNan);
  EXPECT_EQ(r.fflags, 0u);
  r = execute(fmv_w_x(fa0, a1), 0, 0, 0, 0, 0xFFC12345);
  EXPECT_EQ(r.fa0, 0xFFC12345u);
  EXPECT_EQ(r.fflags, 0u);
}

TEST_F(FloatTest, IntegerDestinationX0IsDropped) {
  // fcvt.w.s x0 still raises its flags.
  Outcome r = execute(fcvt_w_s(zero, fa1, rne), 0x3FC00000);
  EXPECT_EQ(core.reg(zero), 0u);
  EXPECT_EQ(r.fflags, kNX);
  execute(fmv_x_w(zero, fa1), kOne);
  EXPECT_EQ(core.reg(zero), 0u);
  execute(fclass_s(zero, fa1), kOne);
  EXPECT_EQ(core.reg(zero), 0u);
}

TEST_F(FloatTest, F0IsARealRegister) {
  const Outcome r = execute(fadd_s(ft0, fa1, fa2), kOne, kTwo);
  EXPECT_EQ(core.freg(ft0), kThree);
  EXPECT_EQ(r.fa0, kUnwritten);
}

class FloatMemoryTest : public FloatTest {
 protected:
  // Runs `code` after turning the FPU on; a1 = kData, sp = kData + 64.
  void run_with_fpu(const std::vector<uint32_t>& code, int steps_after) {
    Program p = program();
    p << csrrs(zero, csr::kMstatus, t5);
    for (uint32_t instruction : code) p << instruction;
    start(p);
    core.set_reg(t5, csr::kMstatusFsInitial);
    core.set_reg(a1, kData);
    core.set_reg(sp, kData + 64);
    steps(1 + steps_after);
  }
};

TEST_F(FloatMemoryTest, LoadAndStoreWords) {
  bus.poke32(kData, kSignallingNan);
  bus.poke32(kData + 4, 0x3F8CCCCD);
  run_with_fpu({flw(fa0, a1, 0), flw(ft0, a1, 4), fsw(fa0, a1, 8), fsw(ft0, a1, 12)}, 4);
  EXPECT_EQ(core.freg(fa0), kSignallingNan);  // loads do not canonicalise
  EXPECT_EQ(core.freg(ft0), 0x3F8CCCCDu);
  EXPECT_EQ(bus.peek32(kData + 8), kSignallingNan);
  EXPECT_EQ(bus.peek32(kData + 12), 0x3F8CCCCDu);
  EXPECT_EQ(csr_value(csr::kFflags), 0u);
  EXPECT_EQ(core.loads(), 2u);
  EXPECT_EQ(core.stores(), 2u);
}

TEST_F(FloatMemoryTest, MisalignedAndFaultingAccesses) {
  bus.poke32(kData, 0x11223344);
  bus.poke32(kData + 4, 0x55667788);
  run_with_fpu({flw(fa0, a1, 2)}, 1);
  EXPECT_EQ(core.freg(fa0), 0x77881122u);  // bytes 2..5, little-endian: performed, not trapped
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5) << flw(fa0, a2, 0);
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_reg(a2, TestBus::kErrorBase);
  steps(2);
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), 5u);  // load access fault
  EXPECT_EQ(csr_value(csr::kMtval), TestBus::kErrorBase);
}

TEST_F(FloatMemoryTest, CompressedLoadsAndStores) {
  bus.poke32(kData + 4, 0x40490FDB);
  bus.poke32(kData + 64 + 204, 0xC0490FDB);
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5)
    << c_flw(fs1, a1, 4)      // fs1 = [kData + 4]
    << c_fsw(fs1, a1, 124)    // [kData + 124] = fs1
    << c_flwsp(ft0, 204)      // f0 = [sp + 204]: offset bits 7:6 and 3:2 set
    << c_fswsp(ft0, 252);     // [sp + 252] = f0
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_reg(a1, kData);
  core.set_reg(sp, kData + 64);
  steps(5);
  EXPECT_EQ(core.freg(fs1), 0x40490FDBu);
  EXPECT_EQ(bus.peek32(kData + 124), 0x40490FDBu);
  EXPECT_EQ(core.freg(ft0), 0xC0490FDBu);
  EXPECT_EQ(bus.peek32(kData + 64 + 252), 0xC0490FDBu);
  EXPECT_EQ(core.pc(), kCode + 4 * kPrologueInstructions + 4 + 4 * 2);  // csrrs, four c.*
}

// ---- mstatus.FS ----

// With FS = Off (the reset state) every F instruction, compressed forms included, is illegal.
TEST_F(FloatTest, EveryFInstructionTrapsWhileTheFpuIsOff) {
  const uint32_t wide[] = {
      flw(fa0, a1, 0),          fsw(fa0, a1, 0),           fmadd_s(fa0, fa1, fa2, fa3),
      fmsub_s(fa0, fa1, fa2, fa3), fnmsub_s(fa0, fa1, fa2, fa3), fnmadd_s(fa0, fa1, fa2, fa3),
      fadd_s(fa0, fa1, fa2),    fsub_s(fa0, fa1, fa2),     fmul_s(fa0, fa1, fa2),
      fdiv_s(fa0, fa1, fa2),    fsqrt_s(fa0, fa1),         fsgnj_s(fa0, fa1, fa2),
      fsgnjn_s(fa0, fa1, fa2),  fsgnjx_s(fa0, fa1, fa2),   fmin_s(fa0, fa1, fa2),
      fmax_s(fa0, fa1, fa2),    fcvt_w_s(a0, fa1),         fcvt_wu_s(a0, fa1),
      fcvt_s_w(fa0, a1),        fcvt_s_wu(fa0, a1),        fmv_x_w(a0, fa1),
      fmv_w_x(fa0, a1),         feq_s(a0, fa1, fa2),       flt_s(a0, fa1, fa2),
      fle_s(a0, fa1, fa2),      fclass_s(a0, fa1),
      csrrs(a0, csr::kFflags, zero), csrrs(a0, csr::kFrm, zero), csrrs(a0, csr::kFcsr, zero),
      csrrw(zero, csr::kFcsr, a1), csrrwi(zero, csr::kFrm, 1),
  };
  constexpr uint32_t kFirst = kCode + 4 * kPrologueInstructions;
  for (uint32_t instruction : wide) {
    Program p = program();
    p << instruction;
    start(p);
    core.set_reg(a1, kData);
    core.set_freg(fa0, kUnwritten);
    step();
    SCOPED_TRACE(::testing::Message() << std::hex << "instruction 0x" << instruction);
    EXPECT_EQ(core.pc(), kHandler);
    EXPECT_EQ(csr_value(csr::kMcause), 2u);
    EXPECT_EQ(csr_value(csr::kMepc), kFirst);
    EXPECT_EQ(csr_value(csr::kMtval), instruction);
    EXPECT_EQ(core.freg(fa0), kUnwritten);
  }
  const uint16_t compressed[] = {c_flw(fa0, a1, 0), c_fsw(fa0, a1, 0), c_flwsp(fa0, 0),
                                 c_fswsp(fa0, 0)};
  for (uint16_t instruction : compressed) {
    Program p = program();
    p << instruction;
    start(p);
    step();
    SCOPED_TRACE(::testing::Message() << std::hex << "instruction 0x" << instruction);
    EXPECT_EQ(core.pc(), kHandler);
    EXPECT_EQ(csr_value(csr::kMtval), instruction);
  }
  uint32_t value = 0;
  EXPECT_FALSE(core.read_csr(csr::kFflags, value));
}

TEST_F(FloatTest, FsTracksWritesToFloatingPointState) {
  constexpr uint32_t kInitial = kMstatusBase | csr::kMstatusFsInitial;
  constexpr uint32_t kClean = kMstatusBase | csr::kMstatusFsClean;
  constexpr uint32_t kDirty = kMstatusBase | csr::kMstatusFsDirty | csr::kMstatusSd;
  struct Step {
    const char* what;
    uint32_t instruction;
    uint32_t mstatus_after;
  };
  // t5 = FS Initial, t6 = FS Clean, t4 = the FS field; fa1 = 1.0, fa2 = qNaN; a1 = kData.
  const Step sequence[] = {
      {"turn on", csrrs(zero, csr::kMstatus, t5), kInitial},
      {"feq without NaN", feq_s(a0, fa1, fa1), kInitial},
      {"fmv.x.w", fmv_x_w(a0, fa1), kInitial},
      {"fsw", fsw(fa1, a1, 0), kInitial},
      {"fclass", fclass_s(a0, fa2), kInitial},
      {"frflags reads only", csrrs(a0, csr::kFflags, zero), kInitial},
      {"fadd writes f", fadd_s(fa0, fa1, fa1), kDirty},
      {"clear FS", csrrc(zero, csr::kMstatus, t4), kMstatusBase},
      {"set Clean", csrrs(zero, csr::kMstatus, t6), kClean},
      {"fcvt.w.s exact", fcvt_w_s(a0, fa1), kClean},
      {"flt with a NaN raises NV", flt_s(a0, fa1, fa2), kDirty},
      {"clear FS again", csrrc(zero, csr::kMstatus, t4), kMstatusBase},
      {"set Clean again", csrrs(zero, csr::kMstatus, t6), kClean},
      {"fsrm writes frm", csrrw(zero, csr::kFrm, zero), kDirty},
      {"clear FS a third time", csrrc(zero, csr::kMstatus, t4), kMstatusBase},
      {"set Clean a third time", csrrs(zero, csr::kMstatus, t6), kClean},
      {"flw writes f", flw(fa3, a1, 0), kDirty},
  };
  Program p = program();
  for (const Step& s : sequence) p << s.instruction << csrrs(s3, csr::kMstatus, zero);
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_reg(t6, csr::kMstatusFsClean);
  core.set_reg(t4, csr::kMstatusFs);
  core.set_reg(a1, kData);
  core.set_freg(fa1, kOne);
  core.set_freg(fa2, kQuietNan);
  EXPECT_EQ(csr_value(csr::kMstatus), kMstatusBase);  // FS = Off after reset
  for (const Step& s : sequence) {
    steps(2);
    EXPECT_EQ(core.reg(s3), s.mstatus_after) << s.what;
  }
  // Writing SD has no effect; writing FS = Off turns the unit off again.
  Program q = program();
  q << csrrs(zero, csr::kMstatus, t5) << csrrw(zero, csr::kMstatus, t6)
    << csrrs(s3, csr::kMstatus, zero);
  start(q);
  core.set_reg(t5, csr::kMstatusFsDirty);
  core.set_reg(t6, csr::kMstatusSd);
  steps(3);
  EXPECT_EQ(core.reg(s3), kMstatusBase);
}

TEST_F(FloatTest, TrapEntryAndMretKeepFs) {
  Program handler(kHandler);
  handler << mret();
  bus.load(handler.base(), handler.bytes());
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5) << ecall();
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial | csr::kMstatusMie);
  steps(2);
  ASSERT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMstatus),
            kMstatusBase | csr::kMstatusFsInitial | csr::kMstatusMpie);  // MIE -> MPIE
  step();  // mret
  EXPECT_EQ(csr_value(csr::kMstatus),
            kMstatusBase | csr::kMstatusFsInitial | csr::kMstatusMpie | csr::kMstatusMie);
}

// ---- rounding-mode field and frm ----

TEST_F(FloatTest, ReservedStaticRoundingModesAreIllegal) {
  for (uint32_t rm : {5u, 6u}) {
    expect_illegal(fadd_s(fa0, fa1, fa2, rm));
    expect_illegal(fdiv_s(fa0, fa1, fa2, rm));
    expect_illegal(fsqrt_s(fa0, fa1, rm));
    expect_illegal(fmadd_s(fa0, fa1, fa2, fa3, rm));
    expect_illegal(fnmadd_s(fa0, fa1, fa2, fa3, rm));
    expect_illegal(fcvt_w_s(a0, fa1, rm));
    expect_illegal(fcvt_s_wu(fa0, a1, rm));
  }
}

TEST_F(FloatTest, DynamicRoundingWithAnInvalidFrmIsIllegal) {
  for (uint32_t frm : {5u, 6u, 7u}) {
    expect_illegal(fadd_s(fa0, fa1, fa2, dyn), frm);
    expect_illegal(fmul_s(fa0, fa1, fa2, dyn), frm);
    expect_illegal(fsqrt_s(fa0, fa1, dyn), frm);
    expect_illegal(fmsub_s(fa0, fa1, fa2, fa3, dyn), frm);
    expect_illegal(fcvt_wu_s(a0, fa1, dyn), frm);
    expect_illegal(fcvt_s_w(fa0, a1, dyn), frm);
  }
}

TEST_F(FloatTest, FrmMattersOnlyForDynamicRounding) {
  // A static mode ignores an invalid frm; instructions without rounding ignore frm altogether.
  EXPECT_EQ(execute(fadd_s(fa0, fa1, fa2, rup), kOne, 0x33800000, 0, 7).fa0, 0x3F800001u);
  EXPECT_EQ(execute(fsgnjn_s(fa0, fa1, fa2), kOne, kOne, 0, 7).fa0, kNegOne);
  EXPECT_EQ(execute(fmin_s(fa0, fa1, fa2), kOne, kTwo, 0, 6).fa0, kOne);
  EXPECT_EQ(execute(feq_s(a0, fa1, fa2), kOne, kOne, 0, 5).a0, 1u);
  EXPECT_EQ(execute(fclass_s(a0, fa1), kOne, 0, 0, 7).a0, 1u << 6);
  EXPECT_EQ(execute(fmv_x_w(a0, fa1), kOne, 0, 0, 7).a0, kOne);
  // The same static-mode instruction under every frm.
  for (uint32_t frm = 0; frm < 8; ++frm) {
    EXPECT_EQ(execute(fadd_s(fa0, fa1, fa2, rtz), kOne, 0x33800001, 0, frm).fa0, kOne) << frm;
  }
}

TEST_F(FloatTest, MalformedEncodingsAreIllegal) {
  expect_illegal(fp_op(0x01, fa0, fa1, fa2, 7));            // fadd.d
  expect_illegal(fmadd_s(fa0, fa1, fa2, fa3) | (1u << 25));  // fmadd.d
  expect_illegal(fmadd_s(fa0, fa1, fa2, fa3) | (3u << 25));  // fmadd.q
  expect_illegal(fsqrt_s(fa0, fa1) | (1u << 20));           // rs2 != 0
  expect_illegal(fp_op(0x60, a0, fa1, 2, 7));                // fcvt.l.s (RV64)
  expect_illegal(fp_op(0x68, fa0, a1, 3, 7));                // fcvt.s.lu (RV64)
  expect_illegal(fp_op(0x10, fa0, fa1, fa2, 3));             // fsgnj funct3 = 3
  expect_illegal(fp_op(0x14, fa0, fa1, fa2, 2));             // fmin/fmax funct3 = 2
  expect_illegal(fp_op(0x50, a0, fa1, fa2, 3));              // compare funct3 = 3
  expect_illegal(fp_op(0x70, a0, fa1, 0, 2));                // fmv.x.w/fclass funct3 = 2
  expect_illegal(fp_op(0x70, a0, fa1, 1, 0));                // fmv.x.w with rs2 != 0
  expect_illegal(fp_op(0x70, a0, fa1, 1, 1));                // fclass with rs2 != 0
  expect_illegal(fp_op(0x78, fa0, a1, 0, 1));                // fmv.w.x funct3 = 1
  expect_illegal(fp_op(0x7C, fa0, fa1, fa2, 0));             // unassigned funct7
  expect_illegal(i_type(0, a1, 3, fa0, 0x07));               // fld
  expect_illegal(s_type(0, fa0, a1, 3, 0x27));               // fsd
}

// ---- fcsr ----

TEST_F(FloatTest, FcsrIsFrmAndFflags) {
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5)
    << csrrw(zero, csr::kFcsr, a1)   // all ones: frm = 7, fflags = 0x1F, bits 31:8 dropped
    << csrrs(a2, csr::kFcsr, zero) << csrrs(a3, csr::kFrm, zero) << csrrs(a4, csr::kFflags, zero)
    << csrrw(zero, csr::kFrm, a5)    // 0x2A: frm keeps 3 bits
    << csrrwi(zero, csr::kFflags, 0x12)
    << csrrs(a6, csr::kFcsr, zero)
    << csrrci(zero, csr::kFflags, 0x10) << csrrsi(zero, csr::kFflags, 0x01)
    << csrrs(a7, csr::kFcsr, zero);
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_reg(a1, 0xFFFFFFFF);
  core.set_reg(a5, 0x2A);
  steps(11);
  EXPECT_EQ(core.reg(a2), 0xFFu);
  EXPECT_EQ(core.reg(a3), 7u);
  EXPECT_EQ(core.reg(a4), 0x1Fu);
  EXPECT_EQ(core.reg(a6), (2u << 5) | 0x12u);
  EXPECT_EQ(core.reg(a7), (2u << 5) | 0x03u);
}

TEST_F(FloatTest, FlagsAccrueUntilSoftwareClearsThem) {
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5)
    << fdiv_s(fa0, fa1, fa2)            // 1 / 0: DZ
    << fadd_s(fa0, fa1, fa3)            // 1 + 2^-24: NX
    << fadd_s(fa0, fa1, fa1)            // exact: nothing new
    << csrrs(a2, csr::kFflags, zero)
    << csrrw(a3, csr::kFflags, zero)    // read and clear
    << fmul_s(fa0, fa1, fa1)            // exact
    << csrrs(a4, csr::kFflags, zero);
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_freg(fa1, kOne);
  core.set_freg(fa2, kZero);
  core.set_freg(fa3, 0x33800000);
  steps(8);
  EXPECT_EQ(core.reg(a2), kDZ | kNX);
  EXPECT_EQ(core.reg(a3), kDZ | kNX);
  EXPECT_EQ(core.reg(a4), 0u);
}

TEST(FloatMisaTest, MisaHasF) {
  constexpr uint32_t kF = 1u << ('F' - 'A');
  EXPECT_NE(csr::kMisaValue & kF, 0u);
}

// ---- timing ----

InstructionCosts float_costs() {
  InstructionCosts costs;
  costs.alu = 1;
  costs.csr = 2;
  costs.load = 3;
  costs.store = 4;
  costs.fpu = 5;
  costs.fdiv = 7;
  costs.fsqrt = 11;
  costs.fma = 13;
  return costs;
}

class FloatTimingTest : public FloatTest {
 protected:
  FloatTimingTest() : FloatTest(float_costs()) {
    bus.sram_read_cycles = 17;
    bus.sram_write_cycles = 19;
  }
};

TEST_F(FloatTimingTest, EachClassCostsItsConfiguredCycles) {
  struct Timed {
    uint32_t instruction;
    uint64_t cycles;
  };
  const Timed wide[] = {
      {fadd_s(fa0, fa1, fa2), 5},        {fsub_s(fa0, fa1, fa2), 5},
      {fmul_s(fa0, fa1, fa2), 5},        {fdiv_s(fa0, fa1, fa2), 7},
      {fsqrt_s(fa0, fa1), 11},           {fmadd_s(fa0, fa1, fa2, fa3), 13},
      {fmsub_s(fa0, fa1, fa2, fa3), 13}, {fnmsub_s(fa0, fa1, fa2, fa3), 13},
      {fnmadd_s(fa0, fa1, fa2, fa3), 13}, {fsgnj_s(fa0, fa1, fa2), 5},
      {fsgnjn_s(fa0, fa1, fa2), 5},      {fsgnjx_s(fa0, fa1, fa2), 5},
      {fmin_s(fa0, fa1, fa2), 5},        {fmax_s(fa0, fa1, fa2), 5},
      {fcvt_w_s(a0, fa1), 5},            {fcvt_wu_s(a0, fa1), 5},
      {fcvt_s_w(fa0, a2), 5},            {fcvt_s_wu(fa0, a2), 5},
      {fmv_x_w(a0, fa1), 5},             {fmv_w_x(fa0, a2), 5},
      {feq_s(a0, fa1, fa2), 5},          {flt_s(a0, fa1, fa2), 5},
      {fle_s(a0, fa1, fa2), 5},          {fclass_s(a0, fa1), 5},
      {flw(fa0, a1, 0), 3 + 17},         {fsw(fa0, a1, 4), 4 + 19},
  };
  Program p = program();
  p << csrrs(zero, csr::kMstatus, t5);
  for (const Timed& t : wide) p << t.instruction;
  p << c_flw(fa0, a1, 8) << c_fsw(fa0, a1, 12);
  start(p);
  core.set_reg(t5, csr::kMstatusFsInitial);
  core.set_reg(a1, kData);
  core.set_reg(a2, 3);
  core.set_freg(fa1, kTwo);
  core.set_freg(fa2, kThree);
  core.set_freg(fa3, kOne);
  step();
  for (const Timed& t : wide) {
    const uint64_t before = core.cycles();
    step();
    EXPECT_EQ(core.cycles() - before, t.cycles) << std::hex << t.instruction;
  }
  uint64_t before = core.cycles();
  step();
  EXPECT_EQ(core.cycles() - before, 3u + 17u);  // c.flw
  before = core.cycles();
  step();
  EXPECT_EQ(core.cycles() - before, 4u + 19u);  // c.fsw
  EXPECT_EQ(csr_value(csr::kMcause), 0u);       // nothing trapped
}

}  // namespace
}  // namespace ssdvp::cpu::test
