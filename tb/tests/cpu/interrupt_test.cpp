// Machine interrupts: enables, priority, vectored mtvec, WFI and sleep, and interrupts raised
// by the platform from inside a bus access.
#include <cstdint>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

constexpr uint32_t kInterrupt = 0x80000000u;
constexpr uint32_t kAllEnables = (1u << 3) | (1u << 7) | (1u << 11);

class InterruptTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;

  void load_spinning_handler(uint32_t at = kHandler) {
    Program handler(at);
    handler << jal(zero, 0);
    load(handler);
  }
  // A program whose first two instructions set mie = t0 and mstatus.MIE.
  Program enabling_program() {
    Program p = program();
    p << csrrw(zero, csr::kMie, t0) << csrrsi(zero, csr::kMstatus, 8);
    return p;
  }
};

TEST_F(InterruptTest, TakenOnlyWhenEnabledInMieAndMstatus) {
  Program p = program();
  p << addi(a0, a0, 1) << csrrw(zero, csr::kMie, t0) << addi(a0, a0, 1)
    << csrrsi(zero, csr::kMstatus, 8) << addi(a0, a0, 100);
  start(p);
  load_spinning_handler();
  core.set_reg(t0, 1u << 7);
  core.set_interrupt_pending(kMtip, true);
  EXPECT_FALSE(core.wakeup_pending());  // mie still 0
  steps(3);
  EXPECT_EQ(core.pc(), kAt + 12);
  EXPECT_FALSE(core.in_trap());
  EXPECT_TRUE(core.wakeup_pending());  // enabled in mie, MIE still off
  step();  // sets MIE: the interrupt is taken at the next instruction boundary
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | 7u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 16);
  EXPECT_EQ(csr_value(csr::kMtval), 0u);
  EXPECT_EQ(core.reg(a0), 2u);
  EXPECT_EQ(csr_value(csr::kMstatus), 0x1880u);  // MPIE = 1, MIE = 0
}

TEST_F(InterruptTest, PriorityIsExternalThenSoftwareThenTimer) {
  struct Case {
    uint32_t pending;
    uint32_t cause;
  };
  const Case cases[] = {
      {kMsip | kMtip | kMeip, 11}, {kMsip | kMtip, 3}, {kMtip | kMeip, 11},
      {kMtip, 7},                  {kMsip, 3},         {kMeip, 11},
  };
  for (const Case& c : cases) {
    for (uint32_t bit : {kMsip, kMtip, kMeip}) core.set_interrupt_pending(bit, false);
    Program p = enabling_program();
    start(p);
    load_spinning_handler();
    core.set_reg(t0, kAllEnables);
    steps(2);
    for (uint32_t bit : {kMsip, kMtip, kMeip}) {
      core.set_interrupt_pending(bit, (c.pending & bit) != 0);
    }
    step();
    EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | c.cause) << std::hex << c.pending;
    EXPECT_EQ(csr_value(csr::kMepc), kAt + 8);
  }
}

TEST_F(InterruptTest, VectoredMtvecSendsInterruptsToBasePlusFourTimesCause) {
  constexpr uint32_t kVectors = 0x400;
  for (uint32_t bit : {kMsip, kMtip, kMeip}) {
    Program p = program();
    p << csrrw(zero, csr::kMtvec, a0) << csrrw(zero, csr::kMie, t0)
      << csrrsi(zero, csr::kMstatus, 8);
    start(p);
    core.set_reg(a0, kVectors | 1u);
    core.set_reg(t0, kAllEnables);
    steps(3);
    core.set_interrupt_pending(bit, true);
    const uint32_t cause = bit == kMsip ? 3 : bit == kMtip ? 7 : 11;
    load_spinning_handler(kVectors + 4 * cause);
    step();
    EXPECT_EQ(core.pc(), kVectors + 4 * cause) << cause;  // spinning in its vector
    EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | cause);
    core.set_interrupt_pending(bit, false);
  }
}

TEST_F(InterruptTest, WfiWithNothingPendingStopsTheRun) {
  Program p = program();
  p << wfi() << addi(a0, a0, 1);
  start(p);
  const uint64_t instret_before = core.instret();
  EXPECT_EQ(core.run(1000), StopReason::kWfi);
  EXPECT_EQ(core.pc(), kAt + 4);
  EXPECT_EQ(core.instret(), instret_before + 1);
  EXPECT_EQ(core.reg(a0), 0u);
  // The platform sleeps: cycles and mcycle advance, nothing retires.
  const uint64_t cycles_before = core.cycles();
  const uint32_t mcycle_before = csr_value(csr::kMcycle);
  core.add_sleep_cycles(100);
  EXPECT_EQ(core.cycles(), cycles_before + 100);
  EXPECT_EQ(core.sleep_cycles(), 100u);
  EXPECT_EQ(csr_value(csr::kMcycle), mcycle_before + 100);
  EXPECT_EQ(core.instret(), instret_before + 1);
  // With MIE clear, the next run just continues after the WFI.
  step();
  EXPECT_EQ(core.reg(a0), 1u);
}

TEST_F(InterruptTest, WfiIsANopWhenAnEnabledInterruptIsPending) {
  Program p = program();
  p << csrrw(zero, csr::kMie, t0) << wfi() << addi(a0, a0, 1) << jal(zero, 0);
  start(p);
  core.set_reg(t0, 1u << 3);
  core.set_interrupt_pending(kMsip, true);  // pending and enabled, but MIE = 0: no trap
  EXPECT_EQ(core.run(50), StopReason::kBudget);
  EXPECT_EQ(core.reg(a0), 1u);
  EXPECT_EQ(core.pc(), kAt + 12);
  EXPECT_FALSE(core.in_trap());
}

TEST_F(InterruptTest, InterruptWakesWfiAndIsTakenByTheNextRun) {
  Program p = enabling_program();
  p << wfi() << addi(a0, a0, 1);
  start(p);
  load_spinning_handler();
  core.set_reg(t0, 1u << 7);
  EXPECT_EQ(core.run(1000), StopReason::kWfi);
  EXPECT_FALSE(core.wakeup_pending());
  core.set_interrupt_pending(kMtip, true);
  EXPECT_TRUE(core.wakeup_pending());
  core.add_sleep_cycles(40);
  step();
  EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | 7u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 12);  // resumes after the WFI
  EXPECT_EQ(core.reg(a0), 0u);
}

TEST_F(InterruptTest, InterruptRaisedInsideABusAccessIsTakenAtTheNextBoundary) {
  bus.on_trigger = [&](uint32_t value) { core.set_interrupt_pending(kMeip, value != 0); };
  Program p = enabling_program();
  p << sw(a2, a1, 0) << addi(a0, a0, 1) << addi(a0, a0, 1);
  start(p);
  load_spinning_handler();
  core.set_reg(t0, 1u << 11);
  core.set_reg(a1, TestBus::kTriggerAddress);
  core.set_reg(a2, 1);
  core.run(1000);
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | 11u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 12);
  EXPECT_EQ(core.reg(a0), 0u);
  EXPECT_GE(core.cycles(), 1000u);  // the rest of the budget was spent in the handler
}

TEST_F(InterruptTest, InterruptRaisedBetweenRunsIsTakenAtTheStartOfTheNext) {
  Program p = enabling_program();
  p << addi(a0, a0, 1) << addi(a0, a0, 1) << addi(a0, a0, 1);
  start(p);
  load_spinning_handler();
  core.set_reg(t0, 1u << 7);
  steps(3);
  core.set_interrupt_pending(kMtip, true);
  step();
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 12);
  EXPECT_EQ(core.reg(a0), 1u);
}

TEST_F(InterruptTest, PendingInterruptIsTakenRightAfterMret) {
  Program p = enabling_program();
  p << ecall() << addi(a0, a0, 1);
  start(p);
  Program handler(kHandler);
  handler << csrrs(t5, csr::kMepc, zero) << addi(t5, t5, 4) << csrrw(zero, csr::kMepc, t5)
          << mret();
  load(handler);
  core.set_reg(t0, 1u << 7);
  steps(3);  // the two enables, then the ecall
  EXPECT_EQ(core.pc(), kHandler);
  core.set_interrupt_pending(kMtip, true);  // MIE is 0 inside the handler
  steps(4);
  // mret restored MIE, so the timer interrupt is taken before the addi.
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), kInterrupt | 7u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 12);
  EXPECT_EQ(core.reg(a0), 0u);
}

}  // namespace
}  // namespace ssdvp::cpu::test
