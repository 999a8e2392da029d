// Exceptions: ecall/ebreak/mret, misaligned accesses (performed or trapping), access faults from
// the bus, traps inside handlers, trap loops, tohost and request_stop.
#include <cstdint>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

class TrapTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;

  // Handler that skips the trapping 32-bit instruction: mepc += 4; mret.
  void load_skipping_handler() {
    Program handler(kHandler);
    handler << csrrs(t5, csr::kMepc, zero) << addi(t5, t5, 4) << csrrw(zero, csr::kMepc, t5)
            << mret();
    load(handler);
  }
  void expect_trap(uint32_t cause, uint32_t epc, uint32_t tval) {
    EXPECT_EQ(core.pc(), kHandler);
    EXPECT_EQ(csr_value(csr::kMcause), cause);
    EXPECT_EQ(csr_value(csr::kMepc), epc);
    EXPECT_EQ(csr_value(csr::kMtval), tval);
    EXPECT_TRUE(core.in_trap());
    EXPECT_EQ(core.last_trap().mcause, cause);
    EXPECT_EQ(core.last_trap().mepc, epc);
    EXPECT_EQ(core.last_trap().mtval, tval);
  }
};

TEST_F(TrapTest, EcallSavesStateAndMretRestoresIt) {
  Program p = program();
  p << csrrsi(zero, csr::kMstatus, 8)  // MIE = 1
    << ecall() << addi(a0, zero, 7);
  start(p);
  load_skipping_handler();
  step();
  const uint64_t retired_before = core.instret();
  step();
  expect_trap(11, kAt + 4, 0);
  EXPECT_EQ(core.instret(), retired_before);  // ecall does not retire
  EXPECT_EQ(csr_value(csr::kMstatus), 0x1880u);  // MIE -> MPIE, MIE cleared
  steps(4);  // the handler
  EXPECT_FALSE(core.in_trap());
  EXPECT_EQ(core.pc(), kAt + 8);
  EXPECT_EQ(csr_value(csr::kMstatus), 0x1888u);  // MIE restored, MPIE = 1
  step();
  EXPECT_EQ(core.reg(a0), 7u);
}

TEST_F(TrapTest, MretWithMpieClearLeavesInterruptsDisabled) {
  Program p = program();
  p << ecall();
  start(p);
  load_skipping_handler();
  steps(5);
  EXPECT_EQ(core.pc(), kAt + 4);
  EXPECT_EQ(csr_value(csr::kMstatus), 0x1880u);  // MIE = old MPIE = 0, MPIE = 1
}

TEST_F(TrapTest, EbreakReportsZeroTval) {
  Program p = program();
  p << ebreak();
  start(p);
  step();
  expect_trap(3, kAt, 0);
}

TEST_F(TrapTest, ExceptionsIgnoreVectoredMode) {
  Program p = program();
  p << csrrw(zero, csr::kMtvec, a0) << ecall();
  start(p);
  core.set_reg(a0, kHandler | 1u);
  steps(2);
  expect_trap(11, kAt + 4, 0);  // at the base, not base + 4 * 11
}

TEST_F(TrapTest, MisalignedLoadsAndStoresInDirectMemoryArePerformed) {
  bus.poke32(kData, 0x44332211u);
  bus.poke32(kData + 4, 0x88776655u);
  Program p = program();
  p << lw(a0, a1, 1) << lh(a2, a1, 3) << lhu(a3, a1, 7) << sw(a4, a1, 2) << lw(a5, a1, 2);
  start(p);
  core.set_reg(a1, kData);
  core.set_reg(a4, 0xDDCCBBAAu);
  bus.poke32(kData + 8, 0x0000FF99u);
  steps(5);
  EXPECT_EQ(core.reg(a0), 0x55443322u);
  EXPECT_EQ(core.reg(a2), 0x00005544u);
  EXPECT_EQ(core.reg(a3), 0x00009988u);
  EXPECT_EQ(bus.peek32(kData), 0xBBAA2211u);
  EXPECT_EQ(bus.peek32(kData + 4), 0x8877DDCCu);
  EXPECT_EQ(core.reg(a5), 0xDDCCBBAAu);
  EXPECT_EQ(core.pc(), kAt + 20);
  EXPECT_TRUE(bus.accesses.empty());  // all of it through the direct region
}

TEST_F(TrapTest, MisalignedAccessesOnTheSlowPathAreSplitIntoAlignedPieces) {
  constexpr uint32_t kMmio = TestBus::kMmioBase + 0x20;
  bus.poke32(kMmio, 0x44332211u);
  bus.poke32(kMmio + 4, 0x88776655u);
  Program p = program();
  p << lw(a0, a1, 2) << sw(a2, a1, 5) << lh(a3, a1, 3);
  start(p);
  core.set_reg(a1, kMmio);
  core.set_reg(a2, 0xDDCCBBAAu);
  step();
  EXPECT_EQ(core.reg(a0), 0x66554433u);
  ASSERT_EQ(bus.accesses.size(), 2u);
  EXPECT_EQ(bus.accesses[0].addr, kMmio + 2);
  EXPECT_EQ(bus.accesses[0].len, 2u);
  EXPECT_EQ(bus.accesses[1].addr, kMmio + 4);
  EXPECT_EQ(bus.accesses[1].len, 2u);
  step();
  // sw at +5: byte at +5, halfword at +6, byte at +8.
  ASSERT_EQ(bus.accesses.size(), 5u);
  EXPECT_EQ(bus.accesses[2].len, 1u);
  EXPECT_EQ(bus.accesses[2].value, 0xAAu);
  EXPECT_EQ(bus.accesses[3].addr, kMmio + 6);
  EXPECT_EQ(bus.accesses[3].value, 0xCCBBu);
  EXPECT_EQ(bus.accesses[4].addr, kMmio + 8);
  EXPECT_EQ(bus.accesses[4].value, 0xDDu);
  EXPECT_EQ(bus.peek32(kMmio + 4), 0xCCBBAA55u);
  EXPECT_EQ(bus.peek32(kMmio + 8) & 0xFFu, 0xDDu);
  step();
  EXPECT_EQ(core.reg(a3), 0x00005544u);
}

TEST_F(TrapTest, MisalignedAtomicsTrap) {
  struct Case {
    uint32_t instruction;
    uint32_t cause;
  };
  const Case cases[] = {
      {lr_w(a0, a1), 4},
      {sc_w(a0, a2, a1), 6},
      {amoadd_w(a0, a2, a1), 6},
      {amoswap_w(a0, a2, a1), 6},
  };
  for (const Case& c : cases) {
    Program p = program();
    p << c.instruction;
    start(p);
    core.set_reg(a1, kData + 2);
    step();
    expect_trap(c.cause, kAt, kData + 2);
  }
}

TEST_F(TrapTest, BusErrorsAreAccessFaults) {
  struct Case {
    uint32_t instruction;
    uint32_t address;
    uint32_t cause;
  };
  const Case cases[] = {
      {lw(a0, a1, 0), TestBus::kErrorBase, 5},
      {lbu(a0, a1, 0), 0x40000000u, 5},  // nothing mapped there
      {sw(a2, a1, 0), TestBus::kErrorBase + 8, 7},
      {sh(a2, a1, 0), TestBus::kErrorBase + 2, 7},
      {amoor_w(a0, a2, a1), TestBus::kErrorBase, 7},
      {lr_w(a0, a1), TestBus::kErrorBase, 5},
      {sw(a2, a1, 0), TestBus::kRamBase + TestBus::kRamSize, 7},
  };
  for (const Case& c : cases) {
    Program p = program();
    p << c.instruction;
    start(p);
    core.set_reg(a0, 0x5A5A5A5Au);
    core.set_reg(a1, c.address);
    step();
    expect_trap(c.cause, kAt, c.address);
    EXPECT_EQ(core.reg(a0), 0x5A5A5A5Au);  // the destination is not written
  }
}

TEST_F(TrapTest, FetchOutsideExecutableMemoryIsAnInstructionAccessFault) {
  const uint32_t targets[] = {TestBus::kSramBase + 0x40,  // direct region, not executable
                              TestBus::kMmioBase,         // no direct region
                              TestBus::kErrorBase};
  for (uint32_t target : targets) {
    Program p = program();
    p << jalr(zero, a1, 0);
    start(p);
    core.set_reg(a1, target);
    step();
    EXPECT_EQ(core.pc(), target);
    step();
    expect_trap(1, target, target);
  }
}

TEST_F(TrapTest, InstructionStraddlingTheEndOfExecutableMemoryFaultsOnItsSecondHalf) {
  constexpr uint32_t kLast = TestBus::kRamBase + TestBus::kRamSize - 2;
  Program tail(kLast);
  tail << static_cast<uint16_t>(addi(a0, a0, 1) & 0xFFFF);  // low half of a 32-bit encoding
  load(tail);
  Program p = program();
  p << jalr(zero, a1, 0);
  start(p);
  core.set_reg(a1, kLast);
  steps(2);
  expect_trap(1, kLast, kLast + 2);
}

TEST_F(TrapTest, AnExceptionInsideAHandlerIsTakenLikeAnyOther) {
  // The ecall's handler points mtvec at a second handler and faults on a load; the second one
  // skips the load and returns into the first, as the privileged spec nests traps.
  constexpr uint32_t kSecond = kHandler + 0x100;
  Program p = program();
  p << ecall();
  start(p);
  Program first(kHandler);
  first << csrrw(zero, csr::kMtvec, a4) << lw(a1, a2, 0) << addi(a0, zero, 1);
  load(first);
  Program second(kSecond);
  second << csrrs(t5, csr::kMepc, zero) << addi(t5, t5, 4) << csrrw(zero, csr::kMepc, t5)
         << mret();
  load(second);
  core.set_reg(a2, TestBus::kErrorBase + 4);
  core.set_reg(a4, kSecond);
  steps(3);  // ecall, the mtvec write, the faulting load
  EXPECT_EQ(core.pc(), kSecond);
  EXPECT_EQ(csr_value(csr::kMcause), 5u);
  EXPECT_EQ(csr_value(csr::kMepc), kHandler + 4);
  EXPECT_EQ(csr_value(csr::kMtval), TestBus::kErrorBase + 4);
  EXPECT_EQ(csr_value(csr::kMstatus) & 0x88u, 0u) << "MIE and MPIE both clear inside a handler";
  steps(5);  // the second handler, then the first handler's last instruction
  EXPECT_EQ(core.pc(), kHandler + 12);
  EXPECT_EQ(core.reg(a0), 1u);
}

TEST_F(TrapTest, ACsrProbeWithMtvecPastTheAccessGoesOnAfterIt) {
  // Bare-metal test environments probe optional CSRs this way: the illegal-instruction trap
  // lands on the next instruction, and no mret follows.
  Program p = program();
  p << csrrw(zero, csr::kMtvec, a0) << csrrw(zero, 0x180u /* satp */, zero)
    << addi(a1, zero, 7) << csrrw(zero, 0x3B0u /* pmpaddr0 */, zero) << addi(a1, a1, 1);
  start(p);
  core.set_reg(a0, kAt + 8);
  steps(2);  // the mtvec write, the probe
  EXPECT_EQ(core.pc(), kAt + 8);
  EXPECT_EQ(csr_value(csr::kMcause), 2u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt + 4);
  EXPECT_EQ(csr_value(csr::kMtval), csrrw(zero, 0x180u, zero));
  EXPECT_EQ(core.run(100), StopReason::kBudget) << "the second probe traps back to kAt + 8";
  EXPECT_NE(core.reg(a1), 0u);
}

TEST_F(TrapTest, AHandlerThatFaultsAtOnceIsATrapLoop) {
  Program p = program();
  p << ecall();
  start(p);
  Program handler(kHandler);
  handler << 0x00000000u;  // illegal: the handler traps to itself with nothing retired
  load(handler);
  EXPECT_EQ(core.run(100), StopReason::kTrapLoop);
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(core.last_trap().mcause, 2u);
  EXPECT_EQ(core.last_trap().mepc, kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), 2u);
  EXPECT_EQ(csr_value(csr::kMepc), kHandler);
}

TEST_F(TrapTest, ATrapVectorThatCannotBeFetchedIsATrapLoop) {
  Program p = program();
  p << csrrw(zero, csr::kMtvec, a0) << ecall();
  start(p);
  core.set_reg(a0, TestBus::kErrorBase);
  EXPECT_EQ(core.run(100), StopReason::kTrapLoop);
  EXPECT_EQ(core.last_trap().mcause, 1u);
  EXPECT_EQ(core.last_trap().mepc, TestBus::kErrorBase);
  EXPECT_EQ(core.last_trap().mtval, TestBus::kErrorBase);
}

TEST_F(TrapTest, TheSameExceptionAgainAfterRetiredInstructionsIsNoLoop) {
  // A handler that returns without skipping the ecall runs for ever, but it runs: each round
  // retires the handler's instructions, so the hart is not stopped.
  Program p = program();
  p << ecall();
  start(p);
  Program handler(kHandler);
  handler << addi(a0, a0, 1) << mret();
  load(handler);
  EXPECT_EQ(core.run(200), StopReason::kBudget);
  EXPECT_GT(core.reg(a0), 3u);
}

TEST_F(TrapTest, TohostStoreHaltsWithTheValue) {
  constexpr uint32_t kTohost = kData + 0x40;
  core.set_tohost_address(kTohost);
  Program p = program();
  p << sw(zero, a1, 0)   // zero: no halt
    << sb(a2, a1, 0)     // not a word: no halt
    << sw(a2, a1, 4)     // another address: no halt
    << sw(a2, a1, 0)     // halts after this instruction
    << addi(a0, zero, 9);
  start(p);
  core.set_reg(a1, kTohost);
  core.set_reg(a2, 0x2Bu);
  EXPECT_EQ(core.run(1000), StopReason::kHalt);
  EXPECT_TRUE(core.tohost_written());
  EXPECT_EQ(core.tohost_value(), 0x2Bu);
  EXPECT_EQ(core.pc(), kAt + 16);
  EXPECT_EQ(core.reg(a0), 0u);
}

TEST_F(TrapTest, RequestStopFromABusCallbackEndsTheRunAfterThatInstruction) {
  bus.on_trigger = [&](uint32_t) { core.request_stop(); };
  Program p = program();
  p << addi(a0, zero, 1) << sw(a0, a1, 0) << addi(a0, zero, 2);
  start(p);
  core.set_reg(a1, TestBus::kTriggerAddress);
  EXPECT_EQ(core.run(1000), StopReason::kHalt);
  EXPECT_EQ(core.pc(), kAt + 8);
  EXPECT_EQ(core.reg(a0), 1u);
  EXPECT_EQ(core.run(1), StopReason::kBudget);
  EXPECT_EQ(core.reg(a0), 2u);
}

TEST_F(TrapTest, ResetRejectsAnOddPc) {
  EXPECT_THROW(core.reset(0x1001), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::cpu::test
