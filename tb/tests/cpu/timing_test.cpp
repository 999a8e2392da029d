// Timing: every instruction class costs exactly its InstructionCosts value plus the target's
// latency, in the fast loop and in the slow (trace/profile) loop alike. The costs are distinct
// values so that a mix of instructions has one exact expected total.
#include <cstdint>
#include <sstream>
#include <string>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

InstructionCosts distinctive_costs() {
  InstructionCosts costs;
  costs.alu = 1;
  costs.branch_taken = 7;
  costs.branch_not_taken = 2;
  costs.jump = 3;
  costs.load = 5;
  costs.store = 4;
  costs.mul = 9;
  costs.div = 11;
  costs.csr = 13;
  costs.atomic = 17;
  costs.fence = 19;
  costs.misaligned = 23;
  costs.trap = 29;
  return costs;
}

constexpr uint32_t kSramRead = 2;
constexpr uint32_t kSramWrite = 6;
constexpr uint32_t kMmioLatency = 31;

class TimingTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;

  TimingTest() : CoreTest(distinctive_costs()) {
    bus.sram_read_cycles = kSramRead;
    bus.sram_write_cycles = kSramWrite;
    bus.mmio_cycles = kMmioLatency;
  }

  // One of each class; returns the number of instructions to step through it.
  int load_mix() {
    Program p = program();
    p << addi(a0, zero, 5)            // 1
      << addi(a1, zero, 3)            // 1
      << mul(a2, a0, a1)              // 9
      << div(a3, a0, a1)              // 11
      << lw(a4, s0, 0)                // 5 + 2
      << sw(a4, s0, 4)                // 4 + 6
      << beq(a0, a0, 8)               // 7, skips the next one
      << addi(a0, a0, 1)
      << bne(a0, a0, 8)               // 2
      << jal(ra, 8)                   // 3, skips the next one
      << addi(a0, a0, 1)
      << csrrs(a5, csr::kMscratch, zero)  // 13
      << amoadd_w(a6, a0, s0)         // 17 + 2 + 6
      << fence()                      // 19
      << lw(a7, s0, 1)                // 5 + 2 + 23 (misaligned, one extra access)
      << lw(t1, s1, 0)                // 5 + 31 (slow path)
      << sh(t1, s1, 4)                // 4 + 31 (slow path)
      << c_addi(a0, 1)                // 1
      << jalr(zero, t2, 0)            // 3
      << ecall();                     // 29 (trap entry; does not retire)
    Program handler(kHandler);
    handler << csrrs(t5, csr::kMepc, zero)  // 13
            << addi(t5, t5, 4)              // 1
            << csrrw(zero, csr::kMepc, t5)  // 13
            << mret();                      // 29
    start(p);
    load(handler);
    core.set_reg(s0, kData);
    core.set_reg(s1, TestBus::kMmioBase + 0x10);
    core.set_reg(t2, p.here() - 4);  // the jalr lands on the ecall
    return 17 + 1 + 4;
  }
  static constexpr uint64_t kMixCycles = 1 + 1 + 9 + 11 + (5 + 2) + (4 + 6) + 7 + 2 + 3 + 13 +
                                         (17 + 2 + 6) + 19 + (5 + 2 + 23) + (5 + 31) + (4 + 31) +
                                         1 + 3 + 29 + (13 + 1 + 13 + 29);
  static constexpr uint64_t kMixRetired = 17 + 4;
};

TEST_F(TimingTest, EachClassCostsItsConfiguredCycles) {
  const int instructions = load_mix();
  const uint64_t cycles_before = core.cycles();
  const uint64_t retired_before = core.instret();
  steps(instructions);
  EXPECT_EQ(core.cycles() - cycles_before, kMixCycles);
  EXPECT_EQ(core.instret() - retired_before, kMixRetired);
  EXPECT_FALSE(core.in_trap());
  EXPECT_EQ(core.reg(a0), 6u);  // the skipped increments did not run
}

TEST_F(TimingTest, OneRunOverTheWholeMixCostsTheSame) {
  load_mix();
  const uint64_t cycles_before = core.cycles();
  // The run ends at the first instruction boundary at or after the budget: the mret, here.
  EXPECT_EQ(core.run(kMixCycles - 1), StopReason::kBudget);
  EXPECT_EQ(core.cycles() - cycles_before, kMixCycles);
}

TEST_F(TimingTest, TheHookLoopChargesTheSameCycles) {
  load_mix();
  std::ostringstream trace;
  core.set_instruction_trace(&trace);
  const uint64_t cycles_before = core.cycles();
  core.run(kMixCycles - 1);
  EXPECT_EQ(core.cycles() - cycles_before, kMixCycles);
  std::string line;
  int lines = 0;
  for (std::istringstream in(trace.str()); std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, static_cast<int>(kMixRetired));  // one line per retired instruction
}

TEST_F(TimingTest, LoadsAndStoresAreCounted) {
  const int instructions = load_mix();
  const uint64_t loads_before = core.loads();
  const uint64_t stores_before = core.stores();
  steps(instructions);
  EXPECT_EQ(core.loads() - loads_before, 4u);   // 3 lw + the amo
  EXPECT_EQ(core.stores() - stores_before, 3u);  // sw, sh + the amo
}

TEST_F(TimingTest, InterruptEntryCostsTheTrapCycles) {
  Program p = program();
  p << csrrw(zero, csr::kMie, t0) << csrrsi(zero, csr::kMstatus, 8) << jal(zero, 0);
  Program handler(kHandler);
  handler << jal(zero, 0);
  start(p);
  load(handler);
  core.set_reg(t0, 1u << 7);
  steps(3);
  const uint64_t cycles_before = core.cycles();
  core.set_interrupt_pending(kMtip, true);
  step();  // the trap entry uses up the one-cycle budget
  EXPECT_EQ(core.cycles() - cycles_before, 29u);
  EXPECT_EQ(core.pc(), kHandler);
  step();
  EXPECT_EQ(core.cycles() - cycles_before, 29u + 3u);
}

TEST_F(TimingTest, BudgetEndsAtTheFirstBoundaryAtOrAfterIt) {
  Program p = program();
  p << addi(a0, a0, 1) << addi(a0, a0, 1) << div(a1, a0, a0) << addi(a0, a0, 1);
  start(p);
  const uint64_t cycles_before = core.cycles();
  core.run(3);  // two alu (2 cycles), then the div (11) starts before the budget is used up
  EXPECT_EQ(core.cycles() - cycles_before, 2u + 11u);
  EXPECT_EQ(core.pc(), kAt + 12);
}

// Found by fuzz/rv_core_fuzzer: with jump costing 0 cycles, `j .` never ended the batch.
TEST(InstructionCostsTest, EveryInstructionTakesACycleAtLeast) {
  TestBus bus;
  Reservations reservations;
  InstructionCosts costs;
  costs.jump = 0;
  try {
    Core core(0, bus, reservations, costs);
    ADD_FAILURE() << "a zero jump cost was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(),
                 "RISC-V core: cost of jump is 0 cycles; every instruction takes at least 1");
  }
  costs.jump = 1;
  costs.misaligned = 0;  // on top of a load's or store's own cost
  Core core(0, bus, reservations, costs);
  core.reset(TestBus::kRamBase);
  bus.poke32(TestBus::kRamBase, jal(zero, 0));
  EXPECT_EQ(core.run(100), StopReason::kBudget);
}

TEST_F(TimingTest, ProfileCountsCyclesPerInstructionAddress) {
  Program p = program();
  p << addi(a0, a0, 1) << mul(a1, a0, a0) << c_addi(a2, 1) << jal(zero, -10);
  start(p);
  core.enable_profile(kAt, 16);
  ASSERT_EQ(core.profile_cycles().size(), 8u);
  core.run(3 * (1 + 9 + 1 + 3));  // three iterations of the loop
  const std::vector<uint64_t>& profile = core.profile_cycles();
  EXPECT_EQ(profile[0], 3u * 1);   // addi at kAt
  EXPECT_EQ(profile[2], 3u * 9);   // mul at kAt + 4
  EXPECT_EQ(profile[4], 3u * 1);   // c.addi at kAt + 8
  EXPECT_EQ(profile[5], 3u * 3);   // jal at kAt + 10
  EXPECT_EQ(profile[1] + profile[3] + profile[6] + profile[7], 0u);
  EXPECT_THROW(core.enable_profile(kAt + 1, 16), std::runtime_error);
  EXPECT_THROW(core.enable_profile(kAt, 0), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::cpu::test
