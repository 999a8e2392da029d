// RV32I and M instructions, one at a time: each test sets the source registers, executes one
// instruction and checks the result against values worked out by hand.
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

class Rv32imTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;  // the instruction under test

  // Executes `instruction` at kAt with the given registers set.
  void exec(uint32_t instruction, std::initializer_list<std::pair<unsigned, uint32_t>> regs) {
    Program p = program();
    p << instruction;
    start(p);
    for (const auto& [index, value] : regs) core.set_reg(index, value);
    step();
  }
  // rd = a0, rs1 = a1, rs2 = a2.
  uint32_t alu(uint32_t instruction, uint32_t rs1_value, uint32_t rs2_value = 0) {
    exec(instruction, {{a1, rs1_value}, {a2, rs2_value}});
    EXPECT_EQ(core.pc(), kAt + 4);
    return core.reg(a0);
  }
  void expect_illegal(uint32_t instruction) {
    exec(instruction, {});
    EXPECT_EQ(core.pc(), kHandler) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMcause), 2u) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMepc), kAt) << std::hex << instruction;
    EXPECT_EQ(csr_value(csr::kMtval), instruction) << std::hex << instruction;
  }
};

TEST_F(Rv32imTest, AddSubWrapAround) {
  EXPECT_EQ(alu(add(a0, a1, a2), 0xFFFFFFFFu, 1), 0u);
  EXPECT_EQ(alu(add(a0, a1, a2), 0x7FFFFFFFu, 1), 0x80000000u);
  EXPECT_EQ(alu(sub(a0, a1, a2), 0, 1), 0xFFFFFFFFu);
  EXPECT_EQ(alu(sub(a0, a1, a2), 0x80000000u, 1), 0x7FFFFFFFu);
}

TEST_F(Rv32imTest, LogicOperations) {
  EXPECT_EQ(alu(xor_(a0, a1, a2), 0xF0F0F0F0u, 0xFF00FF00u), 0x0FF00FF0u);
  EXPECT_EQ(alu(or_(a0, a1, a2), 0xF0F0F0F0u, 0x0000FF00u), 0xF0F0FFF0u);
  EXPECT_EQ(alu(and_(a0, a1, a2), 0xF0F0F0F0u, 0xFF00FF00u), 0xF000F000u);
}

TEST_F(Rv32imTest, RegisterShiftsUseTheLowFiveBits) {
  EXPECT_EQ(alu(sll(a0, a1, a2), 0x80000001u, 0), 0x80000001u);
  EXPECT_EQ(alu(sll(a0, a1, a2), 1, 31), 0x80000000u);
  EXPECT_EQ(alu(sll(a0, a1, a2), 1, 32), 1u);  // 32 & 31 = 0
  EXPECT_EQ(alu(sll(a0, a1, a2), 1, 33), 2u);
  EXPECT_EQ(alu(srl(a0, a1, a2), 0x80000000u, 31), 1u);
  EXPECT_EQ(alu(srl(a0, a1, a2), 0x80000000u, 0xFFFFFFE1u), 0x40000000u);  // shift by 1
  EXPECT_EQ(alu(sra(a0, a1, a2), 0x80000000u, 31), 0xFFFFFFFFu);
  EXPECT_EQ(alu(sra(a0, a1, a2), 0x80000000u, 36), 0xF8000000u);  // shift by 4
  EXPECT_EQ(alu(sra(a0, a1, a2), 0x40000000u, 30), 1u);
}

TEST_F(Rv32imTest, SetLessThanSignedAndUnsigned) {
  EXPECT_EQ(alu(slt(a0, a1, a2), 0xFFFFFFFFu, 1), 1u);  // -1 < 1
  EXPECT_EQ(alu(sltu(a0, a1, a2), 0xFFFFFFFFu, 1), 0u);
  EXPECT_EQ(alu(slt(a0, a1, a2), 5, 5), 0u);
  EXPECT_EQ(alu(sltu(a0, a1, a2), 0, 0x80000000u), 1u);
}

TEST_F(Rv32imTest, ImmediateArithmeticSignExtends) {
  EXPECT_EQ(alu(addi(a0, a1, -2048), 0x1000), 0x800u);
  EXPECT_EQ(alu(addi(a0, a1, 2047), 1), 0x800u);
  EXPECT_EQ(alu(slti(a0, a1, 0), 0xFFFFFFFFu), 1u);
  EXPECT_EQ(alu(slti(a0, a1, -1), 0), 0u);
  EXPECT_EQ(alu(sltiu(a0, a1, -1), 5), 1u);  // -1 compares as 0xFFFFFFFF
  EXPECT_EQ(alu(sltiu(a0, a1, -1), 0xFFFFFFFFu), 0u);
  EXPECT_EQ(alu(xori(a0, a1, -1), 0x12345678u), 0xEDCBA987u);
  EXPECT_EQ(alu(ori(a0, a1, -16), 0x5), 0xFFFFFFF5u);
  EXPECT_EQ(alu(andi(a0, a1, -16), 0x12345678u), 0x12345670u);
  EXPECT_EQ(alu(andi(a0, a1, 0x7FF), 0xFFFFFFFFu), 0x7FFu);
}

TEST_F(Rv32imTest, ImmediateShifts) {
  EXPECT_EQ(alu(slli(a0, a1, 31), 3), 0x80000000u);
  EXPECT_EQ(alu(srli(a0, a1, 4), 0x80000000u), 0x08000000u);
  EXPECT_EQ(alu(srai(a0, a1, 4), 0x80000000u), 0xF8000000u);
  EXPECT_EQ(alu(srai(a0, a1, 0), 0x80000000u), 0x80000000u);
}

TEST_F(Rv32imTest, ShiftAmountBitFiveIsIllegalOnRv32) {
  expect_illegal(slli(a0, a1, 1, /*funct7=*/0x01));
  expect_illegal(srli(a0, a1, 1, /*funct7=*/0x01));
  expect_illegal(srli(a0, a1, 1, /*funct7=*/0x21));  // srai with shamt[5]
}

TEST_F(Rv32imTest, LuiAndAuipc) {
  exec(lui(a0, 0x12345), {});
  EXPECT_EQ(core.reg(a0), 0x12345000u);
  exec(lui(a0, 0xFFFFF), {});
  EXPECT_EQ(core.reg(a0), 0xFFFFF000u);
  exec(auipc(a0, 0x00001), {});
  EXPECT_EQ(core.reg(a0), kAt + 0x1000u);
  exec(auipc(a0, 0xFFFFF), {});
  EXPECT_EQ(core.reg(a0), kAt - 0x1000u);
}

TEST_F(Rv32imTest, JalLinksAndJumps) {
  exec(jal(ra, 0x100), {});
  EXPECT_EQ(core.reg(ra), kAt + 4);
  EXPECT_EQ(core.pc(), kAt + 0x100);
  exec(jal(t0, -0x800), {});
  EXPECT_EQ(core.reg(t0), kAt + 4);
  EXPECT_EQ(core.pc(), kAt - 0x800);
}

TEST_F(Rv32imTest, JalrClearsBitZeroAndUsesTheOldBase) {
  exec(jalr(a0, a1, 3), {{a1, 0x2000}});
  EXPECT_EQ(core.pc(), 0x2002u);  // 0x2003 with bit 0 cleared
  EXPECT_EQ(core.reg(a0), kAt + 4);
  exec(jalr(a1, a1, -4), {{a1, 0x3000}});  // rd == rs1: the target uses the old value
  EXPECT_EQ(core.pc(), 0x2FFCu);
  EXPECT_EQ(core.reg(a1), kAt + 4);
}

TEST_F(Rv32imTest, BranchesTakenAndNotTaken) {
  struct Case {
    uint32_t instruction;
    uint32_t rs1;
    uint32_t rs2;
    bool taken;
  };
  const Case cases[] = {
      {beq(a1, a2, 64), 7, 7, true},           {beq(a1, a2, 64), 7, 8, false},
      {bne(a1, a2, 64), 7, 8, true},           {bne(a1, a2, 64), 7, 7, false},
      {blt(a1, a2, 64), 0xFFFFFFFFu, 0, true}, {blt(a1, a2, 64), 0, 0xFFFFFFFFu, false},
      {blt(a1, a2, 64), 3, 3, false},          {bge(a1, a2, 64), 3, 3, true},
      {bge(a1, a2, 64), 0, 0x80000000u, true}, {bge(a1, a2, 64), 0x80000000u, 0, false},
      {bltu(a1, a2, 64), 0, 0xFFFFFFFFu, true}, {bltu(a1, a2, 64), 0xFFFFFFFFu, 0, false},
      {bgeu(a1, a2, 64), 0xFFFFFFFFu, 0, true}, {bgeu(a1, a2, 64), 0, 1, false},
      {beq(a1, a2, -8), 1, 1, true},
  };
  for (const Case& c : cases) {
    exec(c.instruction, {{a1, c.rs1}, {a2, c.rs2}});
    const uint32_t offset = static_cast<uint32_t>(c.instruction == beq(a1, a2, -8) ? -8 : 64);
    EXPECT_EQ(core.pc(), c.taken ? kAt + offset : kAt + 4)
        << std::hex << c.instruction << " " << c.rs1 << " " << c.rs2;
  }
}

TEST_F(Rv32imTest, LoadsSignAndZeroExtend) {
  bus.poke32(kData, 0x80C0FF7Fu);  // bytes 7f ff c0 80
  auto load = [&](uint32_t instruction) {
    exec(instruction, {{a1, kData}});
    return core.reg(a0);
  };
  EXPECT_EQ(load(lb(a0, a1, 0)), 0x7Fu);
  EXPECT_EQ(load(lb(a0, a1, 1)), 0xFFFFFFFFu);
  EXPECT_EQ(load(lbu(a0, a1, 1)), 0xFFu);
  EXPECT_EQ(load(lb(a0, a1, 3)), 0xFFFFFF80u);
  EXPECT_EQ(load(lbu(a0, a1, 3)), 0x80u);
  EXPECT_EQ(load(lh(a0, a1, 0)), 0xFFFFFF7Fu);
  EXPECT_EQ(load(lhu(a0, a1, 0)), 0xFF7Fu);
  EXPECT_EQ(load(lh(a0, a1, 2)), 0xFFFF80C0u);
  EXPECT_EQ(load(lhu(a0, a1, 2)), 0x80C0u);
  EXPECT_EQ(load(lw(a0, a1, 0)), 0x80C0FF7Fu);
  bus.poke32(kData - 4, 0x11223344u);
  EXPECT_EQ(load(lw(a0, a1, -4)), 0x11223344u);
  EXPECT_EQ(core.loads(), 11u);  // one per exec: reset does not clear the counters
}

TEST_F(Rv32imTest, StoresWriteOnlyTheirBytes) {
  bus.poke32(kData, 0xAAAAAAAAu);
  exec(sb(a2, a1, 1), {{a1, kData}, {a2, 0x12345678u}});
  EXPECT_EQ(bus.peek32(kData), 0xAAAA78AAu);
  exec(sh(a2, a1, 2), {{a1, kData}, {a2, 0x12345678u}});
  EXPECT_EQ(bus.peek32(kData), 0x567878AAu);
  exec(sw(a2, a1, -4), {{a1, kData + 4}, {a2, 0xCAFEF00Du}});
  EXPECT_EQ(bus.peek32(kData), 0xCAFEF00Du);
  EXPECT_EQ(core.stores(), 3u);  // one per exec: reset does not clear the counters
}

TEST_F(Rv32imTest, WritesToX0AreDiscarded) {
  exec(addi(zero, zero, 5), {});
  EXPECT_EQ(core.reg(zero), 0u);
  bus.poke32(kData, 0x12345678u);
  exec(lw(zero, a1, 0), {{a1, kData}});
  EXPECT_EQ(core.reg(zero), 0u);
  EXPECT_EQ(core.pc(), kAt + 4);
  exec(jal(zero, 16), {});
  EXPECT_EQ(core.reg(zero), 0u);
  EXPECT_EQ(core.pc(), kAt + 16);
  exec(add(a0, zero, zero), {{a0, 99}});
  EXPECT_EQ(core.reg(a0), 0u);
  core.set_reg(zero, 7);
  EXPECT_EQ(core.reg(zero), 0u);
}

TEST_F(Rv32imTest, FenceIsANop) {
  exec(fence(), {{a0, 3}});
  EXPECT_EQ(core.pc(), kAt + 4);
  EXPECT_EQ(core.reg(a0), 3u);
}

TEST_F(Rv32imTest, Multiply) {
  EXPECT_EQ(alu(mul(a0, a1, a2), 0x10001u, 0x10001u), 0x00020001u);  // 0x1'0002'0001 truncated
  EXPECT_EQ(alu(mul(a0, a1, a2), 0xFFFFFFFFu, 3), 0xFFFFFFFDu);       // -1 * 3
  // mulh: signed x signed, high word.
  EXPECT_EQ(alu(mulh(a0, a1, a2), 0xFFFFFFFFu, 0xFFFFFFFFu), 0u);           // -1 * -1 = 1
  EXPECT_EQ(alu(mulh(a0, a1, a2), 0x80000000u, 0x80000000u), 0x40000000u);  // 2^62
  EXPECT_EQ(alu(mulh(a0, a1, a2), 0xFFFFFFFEu, 3), 0xFFFFFFFFu);            // -6
  EXPECT_EQ(alu(mulh(a0, a1, a2), 0x7FFFFFFFu, 0x7FFFFFFFu), 0x3FFFFFFFu);
  // mulhsu: signed rs1 x unsigned rs2.
  EXPECT_EQ(alu(mulhsu(a0, a1, a2), 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFFu);  // -(2^32 - 1)
  EXPECT_EQ(alu(mulhsu(a0, a1, a2), 0x80000000u, 0xFFFFFFFFu), 0x80000000u);
  EXPECT_EQ(alu(mulhsu(a0, a1, a2), 2, 0x80000000u), 1u);
  // mulhu: unsigned x unsigned.
  EXPECT_EQ(alu(mulhu(a0, a1, a2), 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu);
  EXPECT_EQ(alu(mulhu(a0, a1, a2), 0x80000000u, 2), 1u);
}

TEST_F(Rv32imTest, DivideAndRemainderEdgeCases) {
  EXPECT_EQ(alu(div(a0, a1, a2), 7, static_cast<uint32_t>(-2)), static_cast<uint32_t>(-3));
  EXPECT_EQ(alu(div(a0, a1, a2), static_cast<uint32_t>(-7), 2), static_cast<uint32_t>(-3));
  EXPECT_EQ(alu(div(a0, a1, a2), 5, 0), 0xFFFFFFFFu);
  EXPECT_EQ(alu(div(a0, a1, a2), 0x80000000u, 0xFFFFFFFFu), 0x80000000u);
  EXPECT_EQ(alu(divu(a0, a1, a2), 0xFFFFFFFFu, 2), 0x7FFFFFFFu);
  EXPECT_EQ(alu(divu(a0, a1, a2), 5, 0), 0xFFFFFFFFu);
  EXPECT_EQ(alu(rem(a0, a1, a2), static_cast<uint32_t>(-7), 2), static_cast<uint32_t>(-1));
  EXPECT_EQ(alu(rem(a0, a1, a2), 7, static_cast<uint32_t>(-2)), 1u);
  EXPECT_EQ(alu(rem(a0, a1, a2), 0x12345u, 0), 0x12345u);
  EXPECT_EQ(alu(rem(a0, a1, a2), 0x80000000u, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(alu(remu(a0, a1, a2), 0xFFFFFFFFu, 10), 5u);
  EXPECT_EQ(alu(remu(a0, a1, a2), 0x80000000u, 0), 0x80000000u);
}

TEST_F(Rv32imTest, ReservedAndUnimplementedEncodingsAreIllegal) {
  const uint32_t encodings[] = {
      0xFFFFFFFFu,                     // all ones
      0x00002063u | (a1 << 15),        // branch funct3 = 2
      0x00003003u | (a0 << 7),         // load funct3 = 3 (ld is RV64)
      0x00003023u,                     // store funct3 = 3 (sd)
      r_type(0x02, a2, a1, 0, a0, 0x33),  // OP funct7 = 2
      r_type(0x20, a2, a1, 1, a0, 0x33),  // sub-style funct7 on sll
      0x00001067u | (a0 << 7),         // jalr funct3 = 1
      0x10200073u,                     // sret (no S mode)
      0x00004073u,                     // SYSTEM funct3 = 4
      0x00002073u | (0x123u << 20),    // csrr of an unimplemented CSR
      0x0000202Fu | (0x05u << 27),     // AMO funct5 = 5
      0x0000302Fu,                     // AMO funct3 = 3 (RV64 .d)
      lr_w(a0, a1) | (a2 << 20),       // lr.w with rs2 != 0
      0x0000001Bu,                     // OP-IMM-32 (RV64)
      0x00000007u,                     // LOAD-FP (no F)
      0x0000007Fu,                     // 80-bit+ encoding space
      0x0000003Fu,                     // 48-bit encoding space
  };
  for (uint32_t encoding : encodings) expect_illegal(encoding);
}

TEST_F(Rv32imTest, AllZeroHalfwordIsIllegal) {
  Program p = program();
  p << static_cast<uint16_t>(0x0000) << static_cast<uint16_t>(0x0000);
  start(p);
  step();
  EXPECT_EQ(core.pc(), kHandler);
  EXPECT_EQ(csr_value(csr::kMcause), 2u);
  EXPECT_EQ(csr_value(csr::kMtval), 0u);
  EXPECT_EQ(csr_value(csr::kMepc), kAt);
}

}  // namespace
}  // namespace ssdvp::cpu::test
