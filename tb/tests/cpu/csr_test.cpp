// Zicsr: read/write/set/clear semantics, read-only and unimplemented CSRs, the counters and the
// WARL fields of the machine CSRs.
#include <cstdint>
#include <stdexcept>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

class CsrTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;

  void expect_illegal_at(uint32_t pc, uint32_t instruction) {
    EXPECT_EQ(core.pc(), kHandler) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMcause), 2u) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMepc), pc) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMtval), instruction) << std::hex << instruction;
  }
  // Runs one CSR instruction at kAt with a0 = a0_value.
  void exec(uint32_t instruction, uint32_t a0_value = 0) {
    Program p = program();
    p << instruction;
    start(p);
    core.set_reg(a0, a0_value);
    step();
  }
};

TEST_F(CsrTest, MisaIsRv32ImafcAndIgnoresWrites) {
  // MXL = 1 and the extension bits A (0), C (2), F (5), I (8), M (12).
  constexpr uint32_t kExpected =
      0x40000000u | (1u << 0) | (1u << 2) | (1u << 5) | (1u << 8) | (1u << 12);
  Program p = program();
  p << csrrs(a1, csr::kMisa, zero) << csrrw(zero, csr::kMisa, a0) << csrrs(a2, csr::kMisa, zero);
  start(p);
  core.set_reg(a0, 0);
  steps(3);
  EXPECT_EQ(core.reg(a1), kExpected);
  EXPECT_EQ(core.reg(a2), kExpected);
  EXPECT_EQ(core.pc(), kAt + 12);
}

TEST_F(CsrTest, ReadWriteSetClear) {
  Program p = program();
  p << csrrw(a1, csr::kMscratch, a0)   // a1 = 0, mscratch = 0xF0F0
    << csrrs(a2, csr::kMscratch, a3)   // a2 = 0xF0F0, mscratch |= 0x000F
    << csrrc(a4, csr::kMscratch, a5)   // a4 = 0xF0FF, mscratch &= ~0x00F0
    << csrrwi(a6, csr::kMscratch, 21)  // a6 = 0xF00F, mscratch = 21
    << csrrsi(a7, csr::kMscratch, 10)  // a7 = 21, mscratch = 31
    << csrrci(s2, csr::kMscratch, 3)   // s2 = 31, mscratch = 28
    << csrrs(s3, csr::kMscratch, zero);
  start(p);
  core.set_reg(a0, 0xF0F0);
  core.set_reg(a3, 0x000F);
  core.set_reg(a5, 0x00F0);
  steps(7);
  EXPECT_EQ(core.reg(a1), 0u);
  EXPECT_EQ(core.reg(a2), 0xF0F0u);
  EXPECT_EQ(core.reg(a4), 0xF0FFu);
  EXPECT_EQ(core.reg(a6), 0xF00Fu);
  EXPECT_EQ(core.reg(a7), 21u);
  EXPECT_EQ(core.reg(s2), 31u);
  EXPECT_EQ(core.reg(s3), 28u);
}

// mzerotime (0x7C0, ssdvp's own): bit 0 only; the cycles run while it is set count in mcycle but
// not in timed_cycles(), which the hart turns into simulated time.
TEST_F(CsrTest, ZeroTimeCyclesCountInMcycleButPassNoTime) {
  Program p = program();
  p << csrrwi(zero, csr::kMzerotime, 3)  // bit 0 set (bit 1 is not kept)
    << csrrs(a1, csr::kMzerotime, zero) << addi(a2, a2, 1) << addi(a2, a2, 1)
    << addi(a2, a2, 1) << csrrwi(zero, csr::kMzerotime, 0) << csrrs(a3, csr::kMzerotime, zero)
    << addi(a2, a2, 1);
  start(p);
  const uint64_t cycles_before = core.cycles();
  const uint64_t timed_before = core.timed_cycles();
  EXPECT_EQ(cycles_before, timed_before) << "no zero time yet";
  step();
  EXPECT_TRUE(core.in_zero_time());
  steps(5);  // the read, three adds and the clearing write
  EXPECT_FALSE(core.in_zero_time());
  EXPECT_EQ(core.reg(a1), 1u);
  const uint64_t zero_span = core.cycles() - core.timed_cycles();
  EXPECT_GT(zero_span, 3u) << "the read and the three adds took no time";
  const uint64_t timed_mid = core.timed_cycles();
  steps(2);
  EXPECT_EQ(core.reg(a3), 0u);
  EXPECT_EQ(core.cycles() - core.timed_cycles(), zero_span) << "time passes again";
  EXPECT_GT(core.timed_cycles(), timed_mid);
}

// mjobkind (0x7C1, ssdvp's own): bits 3:0 (WARL), reset value 0, read back as written.
TEST_F(CsrTest, JobKindReadsBackWhatWasWrittenAndResetsToZero) {
  Program p = program();
  p << csrrs(a1, csr::kMjobkind, zero)   // 0 after reset
    << csrrwi(a2, csr::kMjobkind, 5)     // a2 = 0, kind 5
    << csrrs(a3, csr::kMjobkind, zero)   // 5
    << csrrw(a4, csr::kMjobkind, a0)     // a4 = 5, kind = a0's bits 3:0
    << csrrs(a5, csr::kMjobkind, zero);
  start(p);
  core.set_reg(a0, 0x1F3);
  steps(5);
  EXPECT_EQ(core.reg(a1), 0u);
  EXPECT_EQ(core.reg(a2), 0u);
  EXPECT_EQ(core.reg(a3), 5u);
  EXPECT_EQ(core.reg(a4), 5u);
  EXPECT_EQ(core.reg(a5), 3u) << "only bits 3:0 are kept";
  EXPECT_EQ(csr_value(csr::kMjobkind), 3u);

  // A hart reset returns the CSR to 0; the cycles charged so far stay where they were.
  uint64_t charged = 0;
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) charged += core.job_kind_cycles(kind);
  EXPECT_EQ(charged, core.cycles());
  const uint64_t kind3 = core.job_kind_cycles(3);
  EXPECT_GT(kind3, 0u);
  core.reset(kCode);
  EXPECT_EQ(csr_value(csr::kMjobkind), 0u);
  EXPECT_EQ(core.job_kind_cycles(3), kind3);
  steps(kPrologueInstructions);
  EXPECT_EQ(core.job_kind_cycles(3), kind3) << "after the reset the cycles go to kind 0";
  charged = 0;
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) charged += core.job_kind_cycles(kind);
  EXPECT_EQ(charged, core.cycles());
}

// Every cycle goes to the kind the CSR holds while it is spent: instructions with their memory
// latency, the CSR accesses (a switch is charged to the kind it leaves; the probe has the cost of
// any CSR access: an instruction that took no cycles would let a loop of them stall simulated
// time), and WFI sleep. The kinds sum to the hart's cycles.
TEST_F(CsrTest, CyclesAreChargedToTheJobKindInForce) {
  bus.sram_read_cycles = 7;
  Program p = program();
  p.li(s1, kData);
  p << csrrwi(zero, csr::kMjobkind, 2) << csrrs(a4, csr::kMjobkind, zero) << addi(a2, a2, 1)
    << addi(a2, a2, 1) << addi(a2, a2, 1) << lw(a3, s1, 0) << csrrwi(zero, csr::kMjobkind, 4)
    << wfi() << addi(a2, a2, 1);
  start(p);
  steps(2);  // the li (lui + addi)
  ASSERT_EQ(core.pc(), kAt + 8);
  step();  // the switch to kind 2
  const uint64_t before_kind2 = core.cycles();
  EXPECT_EQ(core.job_kind_cycles(0), before_kind2) << "the prologue and the switch itself";
  step();  // a read of the kind, charged to it
  EXPECT_EQ(core.reg(a4), 2u);
  const uint64_t read_cycles = core.cycles() - before_kind2;
  EXPECT_EQ(core.job_kind_cycles(2), read_cycles);
  steps(3);
  EXPECT_EQ(core.job_kind_cycles(2), read_cycles + 3u) << "the read and three ALU instructions";
  const uint64_t before_load = core.cycles();
  step();
  const uint64_t load_cycles = core.cycles() - before_load;
  EXPECT_EQ(load_cycles, 1u + 7u) << "the load's cost and the SRAM's latency";
  EXPECT_EQ(core.job_kind_cycles(2), read_cycles + 3u + load_cycles);
  step();  // the switch to kind 4, charged to kind 2
  const uint64_t kind2 = core.job_kind_cycles(2);
  EXPECT_EQ(kind2, core.cycles() - before_kind2);
  EXPECT_EQ(core.job_kind_cycles(4), 0u);
  const uint64_t at_kind4 = core.cycles();
  EXPECT_EQ(core.run(1000), StopReason::kWfi);
  const uint64_t wfi_cycles = core.cycles() - at_kind4;
  EXPECT_GT(wfi_cycles, 0u);
  core.add_sleep_cycles(500);
  EXPECT_EQ(core.job_kind_cycles(4), wfi_cycles + 500u) << "the WFI and the sleep";
  step();
  EXPECT_EQ(core.job_kind_cycles(4), core.cycles() - at_kind4);
  EXPECT_EQ(core.job_kind_cycles(2), kind2);
  uint64_t charged = 0;
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) charged += core.job_kind_cycles(kind);
  EXPECT_EQ(charged, core.cycles());
  EXPECT_THROW(core.job_kind_cycles(JOB_KIND_LIMIT), std::runtime_error);
}

TEST_F(CsrTest, ReadOnlyCsrsReadWithX0AndTrapOnWrite) {
  Reservations other_reservations;
  Core hart3(3, bus, other_reservations, InstructionCosts{});
  Program p(kCode);
  p << csrrs(a0, csr::kMhartid, zero) << csrrsi(a1, csr::kMhartid, 0);
  bus.load(p.base(), p.bytes());
  hart3.reset(kCode);
  hart3.run(1);
  hart3.run(1);
  EXPECT_EQ(hart3.reg(a0), 3u);
  EXPECT_EQ(hart3.reg(a1), 3u);
  EXPECT_EQ(hart3.pc(), kCode + 8);

  for (uint32_t id : {csr::kMvendorid, csr::kMarchid, csr::kMimpid}) {
    exec(csrrs(a1, id, zero), 0);
    EXPECT_EQ(core.reg(a1), 0u);
    EXPECT_EQ(core.pc(), kAt + 4);
  }
  const uint32_t writes[] = {
      csrrw(zero, csr::kMhartid, a0),   // write even of x0's value
      csrrs(a1, csr::kMhartid, a0),     // rs1 != x0 writes, even if a0 = 0
      csrrc(a1, csr::kMvendorid, a0),
      csrrwi(zero, csr::kMarchid, 0),
      csrrsi(a1, csr::kMimpid, 1),
      csrrw(zero, csr::kCycle, a0),
      csrrs(a1, csr::kInstreth, a0),
  };
  for (uint32_t instruction : writes) {
    exec(instruction, 0);
    expect_illegal_at(kAt, instruction);
  }
}

TEST_F(CsrTest, UnimplementedCsrsAreIllegal) {
  const uint32_t reads[] = {
      csrrs(a1, 0xC01, zero),  // time
      csrrs(a1, 0xC81, zero),  // timeh
      csrrs(a1, 0x302, zero),  // medeleg: no S mode
      csrrs(a1, 0x180, zero),  // satp
      csrrs(a1, 0x7C2, zero),  // custom, beyond mzerotime and mjobkind
      csrrw(zero, 0x123, a0),
  };
  for (uint32_t instruction : reads) {
    exec(instruction);
    expect_illegal_at(kAt, instruction);
  }
  uint32_t value = 0;
  EXPECT_FALSE(core.read_csr(0xC01, value));
  EXPECT_TRUE(core.read_csr(csr::kMscratch, value));
}

TEST_F(CsrTest, ThePerformanceMonitorMstatushAndMconfigptrExistAndReadAsZero) {
  // The spec requires mhpmcounter3..31 and mhpmevent3..31 (read-only zero is legal), mstatush on
  // RV32 and mconfigptr: probing them must not trap.
  for (uint32_t address : {csr::kMhpmcounter3, csr::kMhpmcounter31, csr::kMhpmcounter3h,
                           csr::kMhpmcounter31h, csr::kMhpmevent3, csr::kMhpmevent31,
                           csr::kHpmcounter3, csr::kHpmcounter31h, csr::kMstatush,
                           csr::kMconfigptr}) {
    exec(csrrs(a1, address, zero), 0);
    EXPECT_EQ(core.pc(), kAt + 4) << std::hex << address;
    EXPECT_EQ(core.reg(a1), 0u) << std::hex << address;
  }
  // The machine-level ones take writes and still read zero; the user views and mconfigptr are
  // read-only.
  for (uint32_t address : {csr::kMhpmcounter3, csr::kMhpmevent31, csr::kMstatush}) {
    exec(csrrw(a1, address, a0), 0x1234u);
    EXPECT_EQ(core.pc(), kAt + 4) << std::hex << address;
    uint32_t value = 1;
    EXPECT_TRUE(core.read_csr(address, value));
    EXPECT_EQ(value, 0u) << std::hex << address;
  }
  for (uint32_t address : {csr::kHpmcounter3, csr::kMconfigptr}) {
    exec(csrrw(zero, address, a0), 1);
    expect_illegal_at(kAt, csrrw(zero, address, a0));
  }
  // Just outside the ranges: hpmcounter 32 does not exist.
  exec(csrrs(a1, csr::kMhpmcounter31 + 1, zero));
  expect_illegal_at(kAt, csrrs(a1, csr::kMhpmcounter31 + 1, zero));
}

TEST_F(CsrTest, CyclesAndInstretCount) {
  // Default costs: csr = 2, alu = 1.
  Program p = program();
  p << csrrs(a0, csr::kMcycle, zero) << addi(t0, t0, 1) << addi(t0, t0, 1)
    << csrrs(a1, csr::kMcycle, zero) << csrrs(a2, csr::kMinstret, zero) << addi(t0, t0, 1)
    << csrrs(a3, csr::kInstret, zero) << csrrs(a4, csr::kCycle, zero);
  start(p);
  steps(8);
  EXPECT_EQ(core.reg(a1) - core.reg(a0), 2u + 1u + 1u);
  EXPECT_EQ(core.reg(a3) - core.reg(a2), 2u);  // the csrr of a2 and the addi retired between
  EXPECT_EQ(core.reg(a4), core.reg(a1) + 2u + 2u + 1u + 2u);
  // Counters read as of the start of the instruction; nothing was written, so mcycle = cycles().
  EXPECT_EQ(core.reg(a0), core.cycles() - (2 + 1 + 1 + 2 + 2 + 1 + 2 + 2));
  EXPECT_EQ(core.reg(a2), core.instret() - 4);
}

TEST_F(CsrTest, CounterWritesAreSeenByTheNextInstruction) {
  Program p = program();
  p << csrrw(zero, csr::kMcycle, a0) << csrrs(a1, csr::kMcycle, zero)
    << csrrw(zero, csr::kMinstret, a0) << csrrs(a2, csr::kMinstret, zero)
    << csrrw(zero, csr::kMcycleh, a3) << csrrs(a4, csr::kMcycleh, zero)
    << csrrs(a5, csr::kCycleh, zero)
    << csrrw(zero, csr::kMinstreth, a3) << csrrs(a6, csr::kInstreth, zero)
    << csrrs(a7, csr::kMinstret, zero);
  start(p);
  core.set_reg(a0, 1000);
  core.set_reg(a3, 7);
  const uint64_t cycles_before = core.cycles();
  steps(10);
  EXPECT_EQ(core.reg(a1), 1000u);
  EXPECT_EQ(core.reg(a2), 1000u);
  EXPECT_EQ(core.reg(a4), 7u);
  EXPECT_EQ(core.reg(a5), 7u);
  EXPECT_EQ(core.reg(a6), 7u);
  // minstret = 1000 after the write; six more instructions retired before the last read.
  EXPECT_EQ(core.reg(a7), 1006u);
  // The hart's own totals are not changed by software writes: the platform times with them.
  EXPECT_EQ(core.cycles() - cycles_before, 10u * 2u);
  uint32_t value = 0;
  ASSERT_TRUE(core.read_csr(csr::kMinstreth, value));
  EXPECT_EQ(value, 7u);
}

TEST_F(CsrTest, MachineCsrWarlFields) {
  Program p = program();
  p << csrrw(zero, csr::kMstatus, a0) << csrrs(a1, csr::kMstatus, zero)
    << csrrw(zero, csr::kMstatus, zero) << csrrs(a2, csr::kMstatus, zero)
    << csrrw(zero, csr::kMie, a0) << csrrs(a3, csr::kMie, zero)
    << csrrw(zero, csr::kMip, a0) << csrrs(a4, csr::kMip, zero)
    << csrrw(zero, csr::kMepc, a5) << csrrs(a6, csr::kMepc, zero)
    << csrrw(zero, csr::kMtvec, a7) << csrrs(s2, csr::kMtvec, zero)
    << csrrw(zero, csr::kMtvec, t3) << csrrs(s3, csr::kMtvec, zero)
    << csrrw(zero, csr::kMcause, a0) << csrrs(t4, csr::kMcause, zero)
    << csrrw(zero, csr::kMtval, a0) << csrrs(t5, csr::kMtval, zero);
  start(p);
  core.set_reg(a0, 0xFFFFFFFFu);
  core.set_reg(a5, 0x1235);
  core.set_reg(a7, 0x2001);  // vectored
  core.set_reg(t3, 0x3003);  // reserved mode 3: the mode stays vectored
  // mstatus would enable interrupts: none pending, so nothing is taken.
  steps(18);
  EXPECT_EQ(core.reg(a1), 0x80007888u);  // MIE, MPIE, MPP = M, FS = Dirty and so SD
  EXPECT_EQ(core.reg(a2), 0x1800u);      // MPP stays M
  EXPECT_EQ(core.reg(a3), 0x888u);   // MSIE, MTIE, MEIE
  EXPECT_EQ(core.reg(a4), 0u);       // mip ignores software writes
  EXPECT_EQ(core.reg(a6), 0x1234u);  // mepc bit 0 cleared
  EXPECT_EQ(core.reg(s2), 0x2001u);
  EXPECT_EQ(core.reg(s3), 0x3001u);
  EXPECT_EQ(core.reg(t4), 0xFFFFFFFFu);
  EXPECT_EQ(core.reg(t5), 0xFFFFFFFFu);
}

TEST_F(CsrTest, MipShowsThePlatformDrivenBits) {
  core.set_interrupt_pending(kMtip, true);
  core.set_interrupt_pending(kMeip, true);
  EXPECT_EQ(csr_value(csr::kMip), (1u << 7) | (1u << 11));
  core.set_interrupt_pending(kMtip, false);
  EXPECT_EQ(csr_value(csr::kMip), 1u << 11);
  EXPECT_THROW(core.set_interrupt_pending(1u << 5, true), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::cpu::test
