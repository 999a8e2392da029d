// The translating back end against the interpreter: random programs run on two harts, one with
// translation and one without, in batches of random budgets; after every batch both must agree on
// every register, the pc, every counter, and afterwards on memory and the bus accesses made.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tb/tests/cpu/encoder.h"
#include "tb/tests/cpu/test_bus.h"
#include "tlm/cpu/rv_core.h"
#include "tlm/cpu/rv_csr.h"
#include "tlm/cpu/rv_reservations.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;  // NOLINT: the encoder's mnemonics read like assembly

constexpr uint32_t kHandler = 0x0800;
constexpr uint32_t kCode = 0x1000;
// Registers the generator leaves alone: bases of the memories, the loop counter, the handler's.
constexpr uint32_t kSramBaseReg = s0;
constexpr uint32_t kMmioBaseReg = s1;
constexpr uint32_t kCodeBaseReg = s2;
constexpr uint32_t kErrorBaseReg = s3;
constexpr uint32_t kLoopReg = 20;  // s4
constexpr uint32_t kScratch[] = {a0, a1, a2, a3, a4, a5, a6, a7, t0, t1, t2, t3, t4};

class ProgramGenerator {
 public:
  explicit ProgramGenerator(uint32_t seed) : random_(seed) {}

  // The trap handler: skips the instruction that trapped (all generated ones that may trap are
  // 4 bytes long) and returns.
  Program handler() const {
    Program p(kHandler);
    p << csrrs(t6, csr::kMepc, zero) << addi(t6, t6, 4) << csrrw(zero, csr::kMepc, t6) << mret();
    return p;
  }

  // About `instructions` instructions; programs stay under 2 KiB so every store into the code
  // reaches its target with a 12-bit offset.
  Program program(unsigned instructions) {
    Program p(kCode);
    p.li(t6, kHandler);
    p << csrrw(zero, csr::kMtvec, t6);
    p.li(t6, csr::kMstatusFsInitial);
    p << csrrs(zero, csr::kMstatus, t6);
    p.li(kSramBaseReg, TestBus::kSramBase);
    p.li(kMmioBaseReg, TestBus::kMmioBase);
    p.li(kCodeBaseReg, kCode);
    p.li(kErrorBaseReg, TestBus::kErrorBase);
    for (const uint32_t reg : kScratch) p.li(reg, value());
    while (p.here() < kCode + 4 * instructions) emit(p);
    p << jal(zero, 0);  // spins until the budget ends
    return p;
  }

 private:
  uint32_t pick(uint32_t bound) { return std::uniform_int_distribution<uint32_t>(0, bound - 1)(random_); }
  uint32_t scratch() { return kScratch[pick(std::size(kScratch))]; }
  // Register values with the division and shift edge cases well represented.
  uint32_t value() {
    static constexpr uint32_t kEdges[] = {0, 1, ~0u, 0x80000000u, 0x7FFFFFFFu, 31, 32};
    return pick(3) == 0 ? kEdges[pick(std::size(kEdges))] : static_cast<uint32_t>(random_());
  }
  int32_t imm12() { return static_cast<int32_t>(pick(4096)) - 2048; }

  void emit(Program& p) {
    const uint32_t rd = scratch();
    const uint32_t a = scratch();
    const uint32_t b = scratch();
    switch (pick(18)) {
      case 0: {  // register-register
        static constexpr uint32_t (*kOps[])(uint32_t, uint32_t, uint32_t) = {
            add, sub, sll, slt, sltu, xor_, srl, sra, or_, and_,
            mul, mulh, mulhsu, mulhu, div, divu, rem, remu};
        p << kOps[pick(std::size(kOps))](pick(8) == 0 ? zero : rd, a, b);
        break;
      }
      case 1: {  // register-immediate
        static constexpr uint32_t (*kOps[])(uint32_t, uint32_t, int32_t) = {addi, slti, sltiu,
                                                                            xori, ori, andi};
        p << kOps[pick(std::size(kOps))](rd, a, imm12());
        break;
      }
      case 2:
        p << (pick(3) == 0 ? slli(rd, a, pick(32)) : pick(2) ? srli(rd, a, pick(32))
                                                             : srai(rd, a, pick(32)));
        break;
      case 3: p << (pick(2) ? lui(rd, pick(1u << 20)) : auipc(rd, pick(1u << 20))); break;
      case 4: case 5: case 6: {  // loads: mostly SRAM, sometimes code, MMIO or the error range
        static constexpr uint32_t (*kOps[])(uint32_t, uint32_t, int32_t) = {lb, lh, lw, lbu, lhu};
        p << kOps[pick(std::size(kOps))](rd, base(), offset());
        break;
      }
      case 7: case 8: {  // stores
        static constexpr uint32_t (*kOps[])(uint32_t, uint32_t, int32_t) = {sb, sh, sw};
        const uint32_t base_reg = base();
        if (base_reg == kCodeBaseReg) {
          // Rewrites an instruction ahead with another ALU instruction (self-modifying code).
          const uint32_t ahead = p.here() + 4 * (1 + pick(8)) - kCode;
          p.li(rd, addi(scratch(), scratch(), imm12()));
          p << sw(rd, kCodeBaseReg, static_cast<int32_t>(ahead));
        } else {
          p << kOps[pick(std::size(kOps))](a, base_reg, offset());
        }
        break;
      }
      case 9: case 10: {  // a forward branch over a few instructions
        static constexpr uint32_t (*kOps[])(uint32_t, uint32_t, int32_t) = {beq, bne, blt,
                                                                            bge, bltu, bgeu};
        p << kOps[pick(std::size(kOps))](a, b, 4 * static_cast<int32_t>(1 + pick(4)));
        break;
      }
      case 11: {  // a short loop
        const uint32_t body = 1 + pick(4);
        p.li(kLoopReg, 1 + pick(6));
        const uint32_t top = p.here();
        for (uint32_t i = 0; i < body; ++i) {
          p << addi(rd, rd, imm12());
        }
        p << addi(kLoopReg, kLoopReg, -1);
        p << bne(kLoopReg, zero, static_cast<int32_t>(top - p.here()));
        break;
      }
      case 12:  // jal forward, linking or not
        p << jal(pick(2) ? ra : zero, 4 * static_cast<int32_t>(1 + pick(3)));
        break;
      case 13: {  // jalr to a forward target (computed), or to an odd one
        p << auipc(rd, 0);
        p << jalr(pick(2) ? ra : zero, rd, 8 + 4 * static_cast<int32_t>(pick(3)) + (pick(4) == 0));
        break;
      }
      case 14: {  // CSRs: the reads and mjobkind writes blocks code inline, and counter writes
                  // (the interpreter's code) that move the offsets those reads add
        static constexpr uint32_t kInlineReads[] = {
            csr::kMcycle, csr::kMcycleh, csr::kCycle, csr::kCycleh, csr::kMinstret,
            csr::kMinstreth, csr::kInstret, csr::kInstreth, csr::kMip, csr::kMie,
            csr::kMhartid, csr::kMjobkind};
        static constexpr uint32_t kCounters[] = {csr::kMcycle, csr::kMcycleh, csr::kMinstret,
                                                 csr::kMinstreth};
        const uint32_t read = kInlineReads[pick(std::size(kInlineReads))];
        switch (pick(8)) {
          case 0: p << csrrc(rd, read, zero); break;
          case 1: p << (pick(2) ? csrrsi(rd, read, 0) : csrrci(rd, read, 0)); break;
          case 2: p << csrrw(pick(4) == 0 ? zero : rd, csr::kMjobkind, a); break;
          case 3: p << csrrwi(rd, csr::kMjobkind, pick(32)); break;
          case 4: p << csrrw(zero, kCounters[pick(std::size(kCounters))], a); break;
          default: p << csrrs(rd, read, zero); break;
        }
        break;
      }
      case 15: {  // F arithmetic on f0..f7, and moves between the register files
        const uint32_t fd = pick(8);
        const uint32_t fa = pick(8);
        const uint32_t fb = pick(8);
        switch (pick(6)) {
          case 0: p << fmv_w_x(fd, a); break;
          case 1: p << fadd_s(fd, fa, fb); break;
          case 2: p << fmul_s(fd, fa, fb); break;
          case 3: p << fdiv_s(fd, fa, fb); break;
          case 4: p << feq_s(rd, fa, fb); break;
          default: p << fcvt_s_w(fd, a); break;
        }
        break;
      }
      case 16:  // atomics on the SRAM (a misaligned base traps)
        switch (pick(3)) {
          case 0: p << lr_w(rd, kSramBaseReg); break;
          case 1: p << sc_w(rd, a, kSramBaseReg); break;
          default: p << amoadd_w(rd, a, kSramBaseReg); break;
        }
        break;
      default: {  // compressed instructions on the a/s registers the C formats reach
        const uint32_t c_rd = a0 + pick(6);  // a0..a5 are x10..x15
        switch (pick(5)) {
          case 0: p << c_addi(c_rd, static_cast<int32_t>(pick(63)) - 31); break;
          case 1: p << c_add(c_rd, scratch()); break;
          case 2: p << c_xor(c_rd, a0 + pick(6)); break;
          case 3: p << c_srli(c_rd, 1 + pick(31)); break;
          default: p << c_mv(c_rd, scratch()); break;
        }
        break;
      }
    }
  }

  uint32_t base() {
    const uint32_t choice = pick(16);
    if (choice == 0) return kMmioBaseReg;
    if (choice == 1) return kErrorBaseReg;
    if (choice == 2) return kCodeBaseReg;
    return kSramBaseReg;
  }
  // Offsets within 1 KiB, misaligned one time in eight.
  int32_t offset() { return static_cast<int32_t>(4 * pick(256) + (pick(8) == 0 ? 1 + pick(3) : 0)); }

  std::mt19937 random_;
};

struct Hart {
  Hart(const InstructionCosts& costs, bool translate, uint32_t hart_id = 0)
      : core(hart_id, bus, reservations, costs) {
    core.set_translation(translate);
  }
  TestBus bus;
  Reservations reservations;
  Core core;
};

void expect_same(const Core& translated, const Core& interpreted, const std::string& where) {
  ASSERT_EQ(translated.pc(), interpreted.pc()) << where;
  ASSERT_EQ(translated.cycles(), interpreted.cycles()) << where;
  ASSERT_EQ(translated.instret(), interpreted.instret()) << where;
  ASSERT_EQ(translated.loads(), interpreted.loads()) << where;
  ASSERT_EQ(translated.stores(), interpreted.stores()) << where;
  ASSERT_EQ(translated.in_trap(), interpreted.in_trap()) << where;
  for (unsigned r = 0; r < 32; ++r) {
    ASSERT_EQ(translated.reg(r), interpreted.reg(r)) << where << ", x" << r;
    ASSERT_EQ(translated.freg(r), interpreted.freg(r)) << where << ", f" << r;
  }
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) {
    ASSERT_EQ(translated.job_kind_cycles(kind), interpreted.job_kind_cycles(kind))
        << where << ", job kind " << kind;
  }
}

TEST(Translator, AgreesWithTheInterpreterOnRandomPrograms) {
  if (!Hart(InstructionCosts{}, true).core.translating()) {
    GTEST_SKIP() << "no translating back end on this host";
  }
  constexpr unsigned kPrograms = 300;
  for (uint32_t seed = 1; seed <= kPrograms; ++seed) {
    std::mt19937 random(seed);
    InstructionCosts costs;
    for (uint32_t* cost : {&costs.alu, &costs.branch_taken, &costs.branch_not_taken, &costs.jump,
                           &costs.load, &costs.store, &costs.mul, &costs.div, &costs.csr}) {
      *cost = 1 + random() % 4;
    }
    Hart translated(costs, true);
    Hart interpreted(costs, false);
    ASSERT_TRUE(translated.core.translating());
    ASSERT_FALSE(interpreted.core.translating());
    ProgramGenerator generator(seed);
    const Program handler = generator.handler();
    const Program program = generator.program(100 + random() % 280);
    const uint32_t sram_latency = random() % 3;
    const uint32_t ram_latency = random() % 3;
    for (Hart* hart : {&translated, &interpreted}) {
      hart->bus.sram_read_cycles = hart->bus.sram_write_cycles = sram_latency;
      hart->bus.ram_read_cycles = hart->bus.ram_write_cycles = ram_latency;
      hart->bus.mmio_cycles = 5;
      hart->bus.load(handler.base(), handler.bytes());
      hart->bus.load(program.base(), program.bytes());
      hart->core.flush_decode_cache();
      hart->core.reset(kCode);
    }
    uint64_t spent = 0;
    for (unsigned batch = 0; spent < 30'000; ++batch) {
      // Mostly short batches, so many end inside blocks, and some long ones.
      const uint64_t budget = random() % 8 == 0 ? 1 + random() % 5'000 : 1 + random() % 60;
      const StopReason translated_stop = translated.core.run(budget);
      const StopReason interpreted_stop = interpreted.core.run(budget);
      const std::string where =
          "seed " + std::to_string(seed) + ", batch " + std::to_string(batch);
      ASSERT_EQ(translated_stop, interpreted_stop) << where;
      expect_same(translated.core, interpreted.core, where);
      if (HasFatalFailure()) return;
      spent += budget;
      if (translated_stop == StopReason::kTrapLoop) break;
    }
    const std::string where = "seed " + std::to_string(seed) + ", memory";
    for (uint32_t addr = 0; addr < TestBus::kSramSize; addr += 4) {
      ASSERT_EQ(translated.bus.peek32(TestBus::kSramBase + addr),
                interpreted.bus.peek32(TestBus::kSramBase + addr))
          << where << " at SRAM +" << addr;
    }
    for (uint32_t addr = kCode; addr < program.here(); addr += 4) {
      ASSERT_EQ(translated.bus.peek32(addr), interpreted.bus.peek32(addr)) << where << " at " << addr;
    }
    ASSERT_EQ(translated.bus.accesses.size(), interpreted.bus.accesses.size()) << where;
    for (size_t i = 0; i < translated.bus.accesses.size(); ++i) {
      const TestBus::Access& t = translated.bus.accesses[i];
      const TestBus::Access& n = interpreted.bus.accesses[i];
      ASSERT_TRUE(t.write == n.write && t.addr == n.addr && t.len == n.len && t.value == n.value)
          << where << ", bus access " << i;
    }
  }
}

// The CSR instructions blocks code inline read, mid-block, what the interpreter's code reads: the
// counters with the class costs, memory latency and retirements of the instructions before them
// in the block and the offsets software wrote (here past a 32-bit carry), and a job-kind switch
// charges the kind it leaves up to its own end. The values are worked out by hand, and both back
// ends must give them.
TEST(Translator, InlineCsrReadsAndJobKindSwitchesSeeTheInterpretersCounters) {
  constexpr uint32_t kHartId = 3;
  Hart translated(InstructionCosts{}, true, kHartId);
  if (!translated.core.translating()) GTEST_SKIP() << "no translating back end on this host";
  Hart interpreted(InstructionCosts{}, false, kHartId);
  // Default costs: csr 2, alu 1, load 1 plus the SRAM's latency.
  Program p(kCode);
  p.li(s1, TestBus::kSramBase);
  p.li(t0, 0xFFFFFFF8u);
  p.li(t1, 0x12);
  p.li(t2, 100);
  p.li(t3, kMsip);
  p << lw(a1, s1, 0)  // the read window now holds the SRAM: the load below stays in its block
    << csrrw(zero, csr::kMie, t3) << csrrw(zero, csr::kMinstret, t2)
    << csrrw(zero, csr::kMcycleh, t1) << csrrw(zero, csr::kMcycle, t0)
    // One block from here (the write above, on the interpreter's code, ended the one before).
    << csrrs(a0, csr::kMcycle, zero)    // 0x12'FFFFFFF8, as written
    << lw(a1, s1, 0) << addi(a1, a1, 1)
    << csrrs(a2, csr::kMcycle, zero)    // + 2 + 1 + 5 + 1, past the carry
    << csrrs(a3, csr::kMinstret, zero)  // 100 at the mcycleh write, 6 retired since
    << csrrwi(a4, csr::kMjobkind, 3)
    << csrrs(a5, csr::kMcycleh, zero)   // the carry: 0x13'00000007
    << csrrs(a6, csr::kMjobkind, zero) << csrrs(a7, csr::kInstret, zero)
    << csrrs(s2, csr::kMip, zero) << csrrs(s3, csr::kMie, zero)
    << csrrs(t4, csr::kMhartid, zero) << csrrci(t5, csr::kCycle, 0)
    << jal(zero, 0);
  for (Hart* hart : {&translated, &interpreted}) {
    hart->bus.sram_read_cycles = 5;
    hart->bus.load(p.base(), p.bytes());
    hart->core.flush_decode_cache();
    hart->core.reset(kCode);
    hart->core.set_interrupt_pending(kMtip, true);  // not enabled in mie: never taken
    EXPECT_EQ(hart->core.run(300), StopReason::kBudget);
    const Core& core = hart->core;
    const char* back_end = hart == &translated ? "translated" : "interpreted";
    EXPECT_EQ(core.reg(a0), 0xFFFFFFF8u) << back_end;
    EXPECT_EQ(core.reg(a2), 0x00000001u) << back_end;
    EXPECT_EQ(core.reg(a3), 106u) << back_end;
    EXPECT_EQ(core.reg(a4), 0u) << back_end;
    EXPECT_EQ(core.reg(a5), 0x13u) << back_end;
    EXPECT_EQ(core.reg(a6), 3u) << back_end;
    EXPECT_EQ(core.reg(a7), 110u) << back_end;
    EXPECT_EQ(core.reg(s2), uint32_t{kMtip}) << back_end;
    EXPECT_EQ(core.reg(s3), uint32_t{kMsip}) << back_end;
    EXPECT_EQ(core.reg(t4), kHartId) << back_end;
    EXPECT_EQ(core.reg(t5), 0x13u) << back_end;  // 0x13'00000007 + six CSR reads
    // Kind 3 holds every cycle after the switch's end, where mcycle was 0x13'00000007.
    uint32_t low = 0;
    uint32_t high = 0;
    ASSERT_TRUE(core.read_csr(csr::kMcycle, low));
    ASSERT_TRUE(core.read_csr(csr::kMcycleh, high));
    const uint64_t mcycle = (uint64_t{high} << 32) | low;
    EXPECT_EQ(core.job_kind_cycles(3), mcycle - 0x13'00000007u) << back_end;
    EXPECT_EQ(core.job_kind_cycles(0) + core.job_kind_cycles(3), core.cycles()) << back_end;
  }
  expect_same(translated.core, interpreted.core, "after the run");
}

// A store that rewrites the next instruction of the running block: the translated block is
// dropped and the new instruction runs, as in the interpreter.
TEST(Translator, StoreIntoTheRunningBlockTakesEffect) {
  Hart hart(InstructionCosts{}, true);
  if (!hart.core.translating()) GTEST_SKIP() << "no translating back end on this host";
  Program p(kCode);
  p.li(a1, addi(a0, a0, 100));  // the replacement instruction
  p.li(a2, kCode);
  const uint32_t store_at = p.here();
  p << sw(a1, a2, static_cast<int32_t>(store_at + 4 - kCode));
  p << addi(a0, a0, 1);  // replaced before it runs
  p << jal(zero, 0);
  hart.bus.load(p.base(), p.bytes());
  hart.core.flush_decode_cache();
  hart.core.reset(kCode);
  hart.core.run(200);
  EXPECT_EQ(hart.core.reg(a0), 100u);
}

}  // namespace
}  // namespace ssdvp::cpu::test
