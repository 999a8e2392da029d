// Fixture for the core tests: one hart on a TestBus, with helpers to load a program and step it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "tb/tests/cpu/encoder.h"
#include "tb/tests/cpu/test_bus.h"
#include "tlm/cpu/rv_core.h"
#include "tlm/cpu/rv_csr.h"
#include "tlm/cpu/rv_reservations.h"

namespace ssdvp::cpu::test {

class CoreTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kCode = 0x1000;     // programs start here
  static constexpr uint32_t kHandler = 0x0800;  // mtvec set by program()'s prologue
  static constexpr uint32_t kData = TestBus::kSramBase + 0x100;
  static constexpr int kPrologueInstructions = 3;

  explicit CoreTest(const InstructionCosts& costs = InstructionCosts{})
      : costs_(costs), core(0, bus, reservations, costs_) {
#ifdef SSDVP_INTERPRETER_ONLY
    core.set_translation(false);  // the cpu_tests_interpreter build
#endif
  }

  // A program at kCode that first points mtvec at kHandler (three instructions; uses t6).
  static enc::Program program() {
    enc::Program p(kCode);
    p.li(enc::t6, kHandler);
    p << enc::csrrw(enc::zero, csr::kMtvec, enc::t6);
    return p;
  }

  void load(const enc::Program& p) {
    bus.load(p.base(), p.bytes());
    core.flush_decode_cache();
  }
  // Loads a program made by program(), resets the hart and runs the prologue.
  void start(const enc::Program& p) {
    load(p);
    core.reset(p.base());
    steps(kPrologueInstructions);
    ASSERT_EQ(core.pc(), kCode + 4u * kPrologueInstructions);
  }
  // Every default cost is at least one cycle, so a budget of one cycle runs one instruction
  // (or takes one trap).
  StopReason step() { return core.run(1); }
  void steps(int count) {
    for (int i = 0; i < count; ++i) step();
  }
  uint32_t csr_value(uint32_t address) const {
    uint32_t value = 0;
    EXPECT_TRUE(core.read_csr(address, value)) << "csr " << address;
    return value;
  }

  TestBus bus;
  Reservations reservations;

 private:
  InstructionCosts costs_;

 protected:
  Core core;
};

}  // namespace ssdvp::cpu::test
