// Fixture for the F instruction tests: one hart with the FPU switched on (mstatus.FS = Initial)
// that executes a single instruction on chosen register values, and the binary32 constants the
// tests share.
#pragma once

#include <cstdint>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {

// binary32 bit patterns.
namespace f32 {
constexpr uint32_t kZero = 0x00000000;
constexpr uint32_t kNegZero = 0x80000000;
constexpr uint32_t kOne = 0x3F800000;
constexpr uint32_t kNegOne = 0xBF800000;
constexpr uint32_t kHalf = 0x3F000000;
constexpr uint32_t kOneAndHalf = 0x3FC00000;
constexpr uint32_t kTwo = 0x40000000;
constexpr uint32_t kThree = 0x40400000;
constexpr uint32_t kFour = 0x40800000;
constexpr uint32_t kMax = 0x7F7FFFFF;         // (2 - 2^-23) * 2^127
constexpr uint32_t kMinNormal = 0x00800000;   // 2^-126
constexpr uint32_t kMaxSubnormal = 0x007FFFFF;
constexpr uint32_t kMinSubnormal = 0x00000001;  // 2^-149
constexpr uint32_t kInf = 0x7F800000;
constexpr uint32_t kNegInf = 0xFF800000;
constexpr uint32_t kQuietNan = 0x7FC00000;     // also the canonical NaN
constexpr uint32_t kQuietNanPayload = 0x7FC12345;
constexpr uint32_t kNegQuietNan = 0xFFC00000;
constexpr uint32_t kSignallingNan = 0x7F800001;
constexpr uint32_t kNegSignallingNan = 0xFFA00000;
}  // namespace f32

// fflags bits.
constexpr uint32_t kNX = 1;
constexpr uint32_t kUF = 2;
constexpr uint32_t kOF = 4;
constexpr uint32_t kDZ = 8;
constexpr uint32_t kNV = 16;

class FloatTest : public CoreTest {
 protected:
  using CoreTest::CoreTest;

  // The instruction under test sits after the prologue and two set-up instructions.
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions + 8;
  static constexpr uint32_t kUnwritten = 0xDEADBEEF;  // fa0 and a0 before the instruction

  struct Outcome {
    uint32_t fa0 = 0;
    uint32_t a0 = 0;
    uint32_t fflags = 0;
  };

  // Runs `instruction` with frm = `frm`, fa1..fa3 = the operands and a1 = `a1_value`; it reads
  // its operands from those registers and writes fa0 or a0. Fails the test if it traps.
  Outcome execute(uint32_t instruction, uint32_t fa1_bits, uint32_t fa2_bits = 0,
                  uint32_t fa3_bits = 0, uint32_t frm = 0, uint32_t a1_value = 0) {
    enc::Program p = program();
    p << enc::csrrs(enc::zero, csr::kMstatus, enc::t5) << enc::csrrw(enc::zero, csr::kFrm, enc::t4)
      << instruction;
    start(p);
    core.set_reg(enc::t5, csr::kMstatusFsInitial);
    core.set_reg(enc::t4, frm);
    core.set_reg(enc::a1, a1_value);
    core.set_reg(enc::a0, kUnwritten);
    core.set_freg(enc::fa0, kUnwritten);
    core.set_freg(enc::fa1, fa1_bits);
    core.set_freg(enc::fa2, fa2_bits);
    core.set_freg(enc::fa3, fa3_bits);
    steps(3);
    EXPECT_EQ(core.pc(), kAt + 4) << std::hex << "instruction 0x" << instruction << " trapped";
    return {core.freg(enc::fa0), core.reg(enc::a0), csr_value(csr::kFflags)};
  }

  // Runs `instruction` and expects an illegal-instruction trap on it.
  void expect_illegal(uint32_t instruction, uint32_t frm = 0) {
    enc::Program p = program();
    p << enc::csrrs(enc::zero, csr::kMstatus, enc::t5) << enc::csrrw(enc::zero, csr::kFrm, enc::t4)
      << instruction;
    start(p);
    core.set_reg(enc::t5, csr::kMstatusFsInitial);
    core.set_reg(enc::t4, frm);
    steps(3);
    EXPECT_EQ(core.pc(), kHandler) << std::hex << "instruction 0x" << instruction;
    EXPECT_EQ(csr_value(csr::kMcause), 2u) << std::hex << "instruction 0x" << instruction;
    EXPECT_EQ(csr_value(csr::kMepc), kAt) << std::hex << "instruction 0x" << instruction;
    EXPECT_EQ(csr_value(csr::kMtval), instruction) << std::hex << "instruction 0x" << instruction;
  }
};

}  // namespace ssdvp::cpu::test
