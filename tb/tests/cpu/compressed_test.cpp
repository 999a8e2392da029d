// RV32C: every compressed form must behave exactly like the 32-bit instruction it expands to.
// Each case executes the compressed encoding and its expansion from the same state and compares
// the registers, memory and next pc; the reserved encodings must raise illegal instruction.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

struct Snapshot {
  std::array<uint32_t, 32> regs{};
  uint32_t pc = 0;
  uint32_t mcause = 0;
  uint32_t mepc = 0;
  std::vector<uint32_t> memory;  // the first KiB of SRAM
};

class CompressedTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;
  static constexpr uint32_t kWindow = TestBus::kSramBase;

  // Every register points into SRAM with a distinct offset, so any of them works as a base.
  void set_state(std::initializer_list<std::pair<unsigned, uint32_t>> overrides) {
    for (unsigned i = 1; i < 32; ++i) core.set_reg(i, kWindow + 0x100 + 0x10 * i);
    for (const auto& [index, value] : overrides) core.set_reg(index, value);
    for (uint32_t offset = 0; offset < 0x400; offset += 4) {
      bus.poke32(kWindow + offset, 0xA5000000u + offset);
    }
  }

  template <typename Instruction>
  Snapshot run_one(Instruction instruction,
                   std::initializer_list<std::pair<unsigned, uint32_t>> overrides) {
    Program p = program();
    p << instruction;
    start(p);
    set_state(overrides);
    step();
    Snapshot snapshot;
    for (unsigned i = 0; i < 32; ++i) snapshot.regs[i] = core.reg(i);
    snapshot.pc = core.pc();
    snapshot.mcause = csr_value(csr::kMcause);
    snapshot.mepc = csr_value(csr::kMepc);
    for (uint32_t offset = 0; offset < 0x400; offset += 4) {
      snapshot.memory.push_back(bus.peek32(kWindow + offset));
    }
    return snapshot;
  }

  // link: the register a jump-and-link writes (x0 if none): pc + 2 for the compressed form,
  // pc + 4 for the expansion.
  void expect_equivalent(uint16_t compressed, uint32_t expanded,
                         std::initializer_list<std::pair<unsigned, uint32_t>> overrides = {},
                         unsigned link = 0) {
    const Snapshot c = run_one(compressed, overrides);
    const Snapshot e = run_one(expanded, overrides);
    SCOPED_TRACE(::testing::Message() << std::hex << "compressed 0x" << compressed
                                      << " expanded 0x" << expanded);
    for (unsigned i = 1; i < 32; ++i) {
      if (i == link) {
        EXPECT_EQ(c.regs[i], kAt + 2);
        EXPECT_EQ(e.regs[i], kAt + 4);
      } else {
        EXPECT_EQ(c.regs[i], e.regs[i]) << "x" << i;
      }
    }
    EXPECT_EQ(c.regs[0], 0u);
    if (e.pc == kAt + 4) {
      EXPECT_EQ(c.pc, kAt + 2);  // both fell through
    } else {
      EXPECT_EQ(c.pc, e.pc);
    }
    EXPECT_EQ(c.mcause, e.mcause);
    EXPECT_EQ(c.mepc, e.mepc);
    EXPECT_EQ(c.memory, e.memory);
  }

  void expect_illegal(uint16_t compressed) {
    Program p = program();
    p << compressed << static_cast<uint16_t>(c_nop());
    start(p);
    step();
    SCOPED_TRACE(::testing::Message() << std::hex << "compressed 0x" << compressed);
    EXPECT_EQ(core.pc(), kHandler);
    EXPECT_EQ(csr_value(csr::kMcause), 2u);
    EXPECT_EQ(csr_value(csr::kMepc), kAt);
    EXPECT_EQ(csr_value(csr::kMtval), compressed);
  }
};

TEST_F(CompressedTest, StackPointerForms) {
  expect_equivalent(c_addi4spn(a0, 16), addi(a0, sp, 16));
  expect_equivalent(c_addi4spn(s1, 1020), addi(s1, sp, 1020));
  expect_equivalent(c_addi16sp(-64), addi(sp, sp, -64));
  expect_equivalent(c_addi16sp(496), addi(sp, sp, 496));
  expect_equivalent(c_lwsp(a0, 12), lw(a0, sp, 12));
  expect_equivalent(c_lwsp(t6, 252), lw(t6, sp, 252));
  expect_equivalent(c_swsp(a0, 16), sw(a0, sp, 16));
  expect_equivalent(c_swsp(t6, 252), sw(t6, sp, 252));
}

TEST_F(CompressedTest, RegisterBasedLoadsAndStores) {
  expect_equivalent(c_lw(a0, a1, 4), lw(a0, a1, 4));
  expect_equivalent(c_lw(s0, a5, 124), lw(s0, a5, 124));
  expect_equivalent(c_sw(a0, a1, 8), sw(a0, a1, 8));
  expect_equivalent(c_sw(a5, s0, 64), sw(a5, s0, 64));
}

TEST_F(CompressedTest, ImmediateForms) {
  expect_equivalent(c_nop(), addi(zero, zero, 0));
  expect_equivalent(c_addi(a0, -5), addi(a0, a0, -5));
  expect_equivalent(c_addi(t6, 31), addi(t6, t6, 31));
  expect_equivalent(c_li(a0, -7), addi(a0, zero, -7));
  expect_equivalent(c_li(s2, 17), addi(s2, zero, 17));
  expect_equivalent(c_lui(a0, -1), lui(a0, 0xFFFFF));
  expect_equivalent(c_lui(t0, 31), lui(t0, 0x1F));
  expect_equivalent(c_slli(a0, 7), slli(a0, a0, 7));
  expect_equivalent(c_slli(t6, 31), slli(t6, t6, 31));
  expect_equivalent(c_srli(s0, 3), srli(s0, s0, 3), {{s0, 0x80000010u}});
  expect_equivalent(c_srai(s1, 4), srai(s1, s1, 4), {{s1, 0x80000010u}});
  expect_equivalent(c_andi(a5, -2), andi(a5, a5, -2), {{a5, 0xFFFFFFFFu}});
  expect_equivalent(c_andi(s0, 21), andi(s0, s0, 21), {{s0, 0xFFFFFFFFu}});
}

TEST_F(CompressedTest, RegisterForms) {
  expect_equivalent(c_sub(a0, a1), sub(a0, a0, a1));
  expect_equivalent(c_xor(s0, a5), xor_(s0, s0, a5));
  expect_equivalent(c_or(a2, a3), or_(a2, a2, a3), {{a3, 0x0F0F0F0Fu}});
  expect_equivalent(c_and(a4, s1), and_(a4, a4, s1), {{s1, 0x0000FFFFu}});
  expect_equivalent(c_mv(a0, t6), add(a0, zero, t6));
  expect_equivalent(c_add(s2, a1), add(s2, s2, a1));
}

TEST_F(CompressedTest, JumpsAndBranches) {
  expect_equivalent(c_j(100), jal(zero, 100));
  expect_equivalent(c_j(-2048), jal(zero, -2048));
  expect_equivalent(c_jal(-64), jal(ra, -64), {}, ra);
  expect_equivalent(c_jal(2046), jal(ra, 2046), {}, ra);
  expect_equivalent(c_jr(a0), jalr(zero, a0, 0), {{a0, 0x3002}});
  expect_equivalent(c_jalr(t1), jalr(ra, t1, 0), {{t1, 0x3000}}, ra);
  expect_equivalent(c_jalr(ra), jalr(ra, ra, 0), {{ra, 0x3000}}, ra);  // target is the old ra
  expect_equivalent(c_beqz(s0, -32), beq(s0, zero, -32), {{s0, 0}});
  expect_equivalent(c_beqz(s0, -32), beq(s0, zero, -32), {{s0, 1}});
  expect_equivalent(c_bnez(a5, 254), bne(a5, zero, 254), {{a5, 1}});
  expect_equivalent(c_bnez(a5, -256), bne(a5, zero, -256), {{a5, 0}});
}

TEST_F(CompressedTest, Ebreak) { expect_equivalent(c_ebreak(), ebreak()); }

TEST_F(CompressedTest, HintsExecuteAsTheirExpansion) {
  expect_equivalent(c_li(zero, 5), addi(zero, zero, 5));
  expect_equivalent(c_addi(a0, 0), addi(a0, a0, 0));
  expect_equivalent(c_mv(zero, a0), add(zero, zero, a0));
  expect_equivalent(c_slli(a0, 0), slli(a0, a0, 0));
}

TEST_F(CompressedTest, ReservedEncodingsAreIllegal) {
  expect_illegal(c_addi4spn(a0, 0));  // nzuimm = 0
  expect_illegal(c_lui(a0, 0));       // nzimm = 0
  expect_illegal(c_addi16sp(0));      // nzimm = 0
  expect_illegal(c_jr(zero));         // c.jr x0
  expect_illegal(c_lwsp(zero, 4));    // rd = x0
  expect_illegal(c_slli(a0, 32));     // shamt[5] = 1 on RV32
  expect_illegal(c_srli(a0, 33));
  expect_illegal(c_srai(a0, 33));
  expect_illegal(0x8000);  // quadrant 0, funct3 = 4
  expect_illegal(0x9D01);  // c.subw (RV64)
  expect_illegal(0x9D21);  // c.addw (RV64)
  expect_illegal(0x9D41);  // reserved
  expect_illegal(0x9D61);  // reserved
}

// No D extension. (The F forms, legal once mstatus.FS is on, are in rv32f_test.cpp.)
TEST_F(CompressedTest, DoublePrecisionFormsAreIllegal) {
  expect_illegal(0x2188);  // c.fld fa0,0(a1)
  expect_illegal(0xA188);  // c.fsd fa0,0(a1)
  expect_illegal(0x2502);  // c.fldsp fa0,0(sp)
  expect_illegal(0xA02A);  // c.fsdsp fa0,0(sp)
}

}  // namespace
}  // namespace ssdvp::cpu::test
