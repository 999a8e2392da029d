// A tiny RV32IMAFC + Zicsr assembler for the core tests: one function per instruction, so each
// test states its program explicitly. Register arguments are numbers (x0..x31, f0..f31); the
// compressed forms with 3-bit register fields take x8..x15 / f8..f15. encoder_test.cpp checks
// these against GNU as.
#pragma once

#include <cstdint>
#include <vector>

namespace ssdvp::cpu::test::enc {

// ABI register numbers used by the tests.
enum Reg : uint32_t {
  zero = 0, ra = 1, sp = 2, gp = 3, tp = 4, t0 = 5, t1 = 6, t2 = 7, s0 = 8, s1 = 9,
  a0 = 10, a1 = 11, a2 = 12, a3 = 13, a4 = 14, a5 = 15, a6 = 16, a7 = 17,
  s2 = 18, s3 = 19, t3 = 28, t4 = 29, t5 = 30, t6 = 31
};

// ABI names of the f registers used by the tests.
enum FReg : uint32_t {
  ft0 = 0, ft1 = 1, ft2 = 2, ft3 = 3, fs0 = 8, fs1 = 9,
  fa0 = 10, fa1 = 11, fa2 = 12, fa3 = 13, fa4 = 14, fa5 = 15, ft11 = 31
};

// Rounding-mode field values; dyn (frm) is GNU as's default.
enum Rm : uint32_t { rne = 0, rtz = 1, rdn = 2, rup = 3, rmm = 4, dyn = 7 };

constexpr uint32_t field(uint32_t value, unsigned high, unsigned low) {
  return (value >> low) & ((1u << (high - low + 1)) - 1u);
}

// ---- 32-bit formats ----
constexpr uint32_t r_type(uint32_t funct7, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t rd,
                          uint32_t opcode) {
  return (funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | opcode;
}
constexpr uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t funct3, uint32_t rd,
                          uint32_t opcode) {
  return (field(static_cast<uint32_t>(imm), 11, 0) << 20) | (rs1 << 15) | (funct3 << 12) |
         (rd << 7) | opcode;
}
constexpr uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t funct3,
                          uint32_t opcode = 0x23) {
  const auto u = static_cast<uint32_t>(imm);
  return (field(u, 11, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) |
         (field(u, 4, 0) << 7) | opcode;
}
constexpr uint32_t b_type(int32_t offset, uint32_t rs2, uint32_t rs1, uint32_t funct3) {
  const auto u = static_cast<uint32_t>(offset);
  return (field(u, 12, 12) << 31) | (field(u, 10, 5) << 25) | (rs2 << 20) | (rs1 << 15) |
         (funct3 << 12) | (field(u, 4, 1) << 8) | (field(u, 11, 11) << 7) | 0x63;
}

// upper: the 20-bit immediate as written in assembly (lui a0,0x12345).
constexpr uint32_t lui(uint32_t rd, uint32_t upper) { return (upper << 12) | (rd << 7) | 0x37; }
constexpr uint32_t auipc(uint32_t rd, uint32_t upper) { return (upper << 12) | (rd << 7) | 0x17; }
constexpr uint32_t jal(uint32_t rd, int32_t offset) {
  const auto u = static_cast<uint32_t>(offset);
  return (field(u, 20, 20) << 31) | (field(u, 10, 1) << 21) | (field(u, 11, 11) << 20) |
         (field(u, 19, 12) << 12) | (rd << 7) | 0x6F;
}
constexpr uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 0, rd, 0x67);
}

constexpr uint32_t beq(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 0); }
constexpr uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 1); }
constexpr uint32_t blt(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 4); }
constexpr uint32_t bge(uint32_t rs1, uint32_t rs2, int32_t off) { return b_type(off, rs2, rs1, 5); }
constexpr uint32_t bltu(uint32_t rs1, uint32_t rs2, int32_t off) {
  return b_type(off, rs2, rs1, 6);
}
constexpr uint32_t bgeu(uint32_t rs1, uint32_t rs2, int32_t off) {
  return b_type(off, rs2, rs1, 7);
}

constexpr uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 0, rd, 0x03);
}
constexpr uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 1, rd, 0x03);
}
constexpr uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 2, rd, 0x03);
}
constexpr uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 4, rd, 0x03);
}
constexpr uint32_t lhu(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 5, rd, 0x03);
}
constexpr uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 0); }
constexpr uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 1); }
constexpr uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 2); }

constexpr uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 0, rd, 0x13);
}
constexpr uint32_t slti(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 2, rd, 0x13);
}
constexpr uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 3, rd, 0x13);
}
constexpr uint32_t xori(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 4, rd, 0x13);
}
constexpr uint32_t ori(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 6, rd, 0x13);
}
constexpr uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 7, rd, 0x13);
}
// shamt is 5 bits; funct7 lets a test set the RV64 shamt[5] bit (illegal on RV32).
constexpr uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t shamt, uint32_t funct7 = 0) {
  return r_type(funct7, shamt, rs1, 1, rd, 0x13);
}
constexpr uint32_t srli(uint32_t rd, uint32_t rs1, uint32_t shamt, uint32_t funct7 = 0) {
  return r_type(funct7, shamt, rs1, 5, rd, 0x13);
}
constexpr uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t shamt) {
  return r_type(0x20, shamt, rs1, 5, rd, 0x13);
}

constexpr uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 0, rd, 0x33);
}
constexpr uint32_t sub(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0x20, rs2, rs1, 0, rd, 0x33);
}
constexpr uint32_t sll(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 1, rd, 0x33);
}
constexpr uint32_t slt(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 2, rd, 0x33);
}
constexpr uint32_t sltu(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 3, rd, 0x33);
}
constexpr uint32_t xor_(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 4, rd, 0x33);
}
constexpr uint32_t srl(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 5, rd, 0x33);
}
constexpr uint32_t sra(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0x20, rs2, rs1, 5, rd, 0x33);
}
constexpr uint32_t or_(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 6, rd, 0x33);
}
constexpr uint32_t and_(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(0, rs2, rs1, 7, rd, 0x33);
}

constexpr uint32_t mul(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 0, rd, 0x33);
}
constexpr uint32_t mulh(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 1, rd, 0x33);
}
constexpr uint32_t mulhsu(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 2, rd, 0x33);
}
constexpr uint32_t mulhu(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 3, rd, 0x33);
}
constexpr uint32_t div(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 4, rd, 0x33);
}
constexpr uint32_t divu(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 5, rd, 0x33);
}
constexpr uint32_t rem(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 6, rd, 0x33);
}
constexpr uint32_t remu(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, 7, rd, 0x33);
}

constexpr uint32_t fence() { return 0x0FF0000F; }  // fence iorw,iorw
constexpr uint32_t fence_i() { return 0x0000100F; }
constexpr uint32_t ecall() { return 0x00000073; }
constexpr uint32_t ebreak() { return 0x00100073; }
constexpr uint32_t mret() { return 0x30200073; }
constexpr uint32_t wfi() { return 0x10500073; }

constexpr uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (1u << 12) | (rd << 7) | 0x73;
}
constexpr uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (2u << 12) | (rd << 7) | 0x73;
}
constexpr uint32_t csrrc(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (3u << 12) | (rd << 7) | 0x73;
}
constexpr uint32_t csrrwi(uint32_t rd, uint32_t csr, uint32_t uimm) {
  return (csr << 20) | (uimm << 15) | (5u << 12) | (rd << 7) | 0x73;
}
constexpr uint32_t csrrsi(uint32_t rd, uint32_t csr, uint32_t uimm) {
  return (csr << 20) | (uimm << 15) | (6u << 12) | (rd << 7) | 0x73;
}
constexpr uint32_t csrrci(uint32_t rd, uint32_t csr, uint32_t uimm) {
  return (csr << 20) | (uimm << 15) | (7u << 12) | (rd << 7) | 0x73;
}

// A extension: funct5 selects the operation; aq/rl bits are left clear.
constexpr uint32_t amo(uint32_t funct5, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(funct5 << 2, rs2, rs1, 2, rd, 0x2F);
}
constexpr uint32_t lr_w(uint32_t rd, uint32_t rs1) { return amo(0x02, rd, rs1, 0); }
constexpr uint32_t sc_w(uint32_t rd, uint32_t rs2, uint32_t rs1) { return amo(0x03, rd, rs1, rs2); }
constexpr uint32_t amoswap_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x01, rd, rs1, rs2);
}
constexpr uint32_t amoadd_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x00, rd, rs1, rs2);
}
constexpr uint32_t amoxor_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x04, rd, rs1, rs2);
}
constexpr uint32_t amoand_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x0C, rd, rs1, rs2);
}
constexpr uint32_t amoor_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x08, rd, rs1, rs2);
}
constexpr uint32_t amomin_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x10, rd, rs1, rs2);
}
constexpr uint32_t amomax_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x14, rd, rs1, rs2);
}
constexpr uint32_t amominu_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x18, rd, rs1, rs2);
}
constexpr uint32_t amomaxu_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
  return amo(0x1C, rd, rs1, rs2);
}

// F: single precision. The fused multiply-adds are R4-type with fmt (bits 26:25) = 0 for S.
constexpr uint32_t flw(uint32_t rd, uint32_t rs1, int32_t imm) {
  return i_type(imm, rs1, 2, rd, 0x07);
}
constexpr uint32_t fsw(uint32_t rs2, uint32_t rs1, int32_t imm) {
  return s_type(imm, rs2, rs1, 2, 0x27);
}
constexpr uint32_t r4_type(uint32_t opcode, uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3,
                           uint32_t rm) {
  return (rs3 << 27) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | opcode;
}
constexpr uint32_t fmadd_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3,
                           uint32_t rm = dyn) {
  return r4_type(0x43, rd, rs1, rs2, rs3, rm);
}
constexpr uint32_t fmsub_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3,
                           uint32_t rm = dyn) {
  return r4_type(0x47, rd, rs1, rs2, rs3, rm);
}
constexpr uint32_t fnmsub_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3,
                            uint32_t rm = dyn) {
  return r4_type(0x4B, rd, rs1, rs2, rs3, rm);
}
constexpr uint32_t fnmadd_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rs3,
                            uint32_t rm = dyn) {
  return r4_type(0x4F, rd, rs1, rs2, rs3, rm);
}
// OP-FP: funct7 selects the operation; funct3 is the rounding mode or a sub-operation.
constexpr uint32_t fp_op(uint32_t funct7, uint32_t rd, uint32_t rs1, uint32_t rs2,
                         uint32_t funct3) {
  return r_type(funct7, rs2, rs1, funct3, rd, 0x53);
}
constexpr uint32_t fadd_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rm = dyn) {
  return fp_op(0x00, rd, rs1, rs2, rm);
}
constexpr uint32_t fsub_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rm = dyn) {
  return fp_op(0x04, rd, rs1, rs2, rm);
}
constexpr uint32_t fmul_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rm = dyn) {
  return fp_op(0x08, rd, rs1, rs2, rm);
}
constexpr uint32_t fdiv_s(uint32_t rd, uint32_t rs1, uint32_t rs2, uint32_t rm = dyn) {
  return fp_op(0x0C, rd, rs1, rs2, rm);
}
constexpr uint32_t fsqrt_s(uint32_t rd, uint32_t rs1, uint32_t rm = dyn) {
  return fp_op(0x2C, rd, rs1, 0, rm);
}
constexpr uint32_t fsgnj_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x10, rd, rs1, rs2, 0);
}
constexpr uint32_t fsgnjn_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x10, rd, rs1, rs2, 1);
}
constexpr uint32_t fsgnjx_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x10, rd, rs1, rs2, 2);
}
constexpr uint32_t fmin_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x14, rd, rs1, rs2, 0);
}
constexpr uint32_t fmax_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x14, rd, rs1, rs2, 1);
}
constexpr uint32_t fcvt_w_s(uint32_t rd, uint32_t rs1, uint32_t rm = dyn) {
  return fp_op(0x60, rd, rs1, 0, rm);
}
constexpr uint32_t fcvt_wu_s(uint32_t rd, uint32_t rs1, uint32_t rm = dyn) {
  return fp_op(0x60, rd, rs1, 1, rm);
}
constexpr uint32_t fcvt_s_w(uint32_t rd, uint32_t rs1, uint32_t rm = dyn) {
  return fp_op(0x68, rd, rs1, 0, rm);
}
constexpr uint32_t fcvt_s_wu(uint32_t rd, uint32_t rs1, uint32_t rm = dyn) {
  return fp_op(0x68, rd, rs1, 1, rm);
}
constexpr uint32_t fmv_x_w(uint32_t rd, uint32_t rs1) { return fp_op(0x70, rd, rs1, 0, 0); }
constexpr uint32_t fclass_s(uint32_t rd, uint32_t rs1) { return fp_op(0x70, rd, rs1, 0, 1); }
constexpr uint32_t fmv_w_x(uint32_t rd, uint32_t rs1) { return fp_op(0x78, rd, rs1, 0, 0); }
constexpr uint32_t feq_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x50, rd, rs1, rs2, 2);
}
constexpr uint32_t flt_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x50, rd, rs1, rs2, 1);
}
constexpr uint32_t fle_s(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return fp_op(0x50, rd, rs1, rs2, 0);
}

// ---- 16-bit formats (RV32C) ----
constexpr uint32_t low3(uint32_t reg) { return reg - 8; }  // x8..x15 -> 0..7

constexpr uint16_t c_addi4spn(uint32_t rd, uint32_t nzuimm) {
  return static_cast<uint16_t>((field(nzuimm, 5, 4) << 11) | (field(nzuimm, 9, 6) << 7) |
                               (field(nzuimm, 2, 2) << 6) | (field(nzuimm, 3, 3) << 5) |
                               (low3(rd) << 2) | 0x0);
}
constexpr uint16_t c_lw(uint32_t rd, uint32_t rs1, uint32_t uimm) {
  return static_cast<uint16_t>((2u << 13) | (field(uimm, 5, 3) << 10) | (low3(rs1) << 7) |
                               (field(uimm, 2, 2) << 6) | (field(uimm, 6, 6) << 5) |
                               (low3(rd) << 2));
}
constexpr uint16_t c_sw(uint32_t rs2, uint32_t rs1, uint32_t uimm) {
  return static_cast<uint16_t>((6u << 13) | (field(uimm, 5, 3) << 10) | (low3(rs1) << 7) |
                               (field(uimm, 2, 2) << 6) | (field(uimm, 6, 6) << 5) |
                               (low3(rs2) << 2));
}
// C.FLW / C.FSW: the C.LW / C.SW layout with funct3 3 / 7 and f8..f15.
constexpr uint16_t c_flw(uint32_t rd, uint32_t rs1, uint32_t uimm) {
  return static_cast<uint16_t>(c_lw(rd, rs1, uimm) | (1u << 13));
}
constexpr uint16_t c_fsw(uint32_t rs2, uint32_t rs1, uint32_t uimm) {
  return static_cast<uint16_t>(c_sw(rs2, rs1, uimm) | (1u << 13));
}
// CI format with a 6-bit immediate: imm[5] at bit 12, imm[4:0] at bits 6:2.
constexpr uint16_t ci(uint32_t funct3, uint32_t rd, int32_t imm, uint32_t quadrant) {
  const auto u = static_cast<uint32_t>(imm);
  return static_cast<uint16_t>((funct3 << 13) | (field(u, 5, 5) << 12) | (rd << 7) |
                               (field(u, 4, 0) << 2) | quadrant);
}
constexpr uint16_t c_nop() { return ci(0, 0, 0, 1); }
constexpr uint16_t c_addi(uint32_t rd, int32_t imm) { return ci(0, rd, imm, 1); }
constexpr uint16_t c_li(uint32_t rd, int32_t imm) { return ci(2, rd, imm, 1); }
// imm6: the value of nzimm[17:12] as a signed 6-bit number (c.lui a0,0xfffff has imm6 = -1).
constexpr uint16_t c_lui(uint32_t rd, int32_t imm6) { return ci(3, rd, imm6, 1); }
constexpr uint16_t c_addi16sp(int32_t imm) {
  const auto u = static_cast<uint32_t>(imm);
  return static_cast<uint16_t>((3u << 13) | (field(u, 9, 9) << 12) | (2u << 7) |
                               (field(u, 4, 4) << 6) | (field(u, 6, 6) << 5) |
                               (field(u, 8, 7) << 3) | (field(u, 5, 5) << 2) | 1u);
}
constexpr uint16_t c_jump(uint32_t funct3, int32_t offset) {
  const auto u = static_cast<uint32_t>(offset);
  return static_cast<uint16_t>((funct3 << 13) | (field(u, 11, 11) << 12) | (field(u, 4, 4) << 11) |
                               (field(u, 9, 8) << 9) | (field(u, 10, 10) << 8) |
                               (field(u, 6, 6) << 7) | (field(u, 7, 7) << 6) |
                               (field(u, 3, 1) << 3) | (field(u, 5, 5) << 2) | 1u);
}
constexpr uint16_t c_jal(int32_t offset) { return c_jump(1, offset); }
constexpr uint16_t c_j(int32_t offset) { return c_jump(5, offset); }
// shamt6: all six shamt bits, so a test can set the reserved shamt[5].
constexpr uint16_t c_shift(uint32_t funct2, uint32_t rd, uint32_t shamt6) {
  return static_cast<uint16_t>((4u << 13) | (field(shamt6, 5, 5) << 12) | (funct2 << 10) |
                               (low3(rd) << 7) | (field(shamt6, 4, 0) << 2) | 1u);
}
constexpr uint16_t c_srli(uint32_t rd, uint32_t shamt6) { return c_shift(0, rd, shamt6); }
constexpr uint16_t c_srai(uint32_t rd, uint32_t shamt6) { return c_shift(1, rd, shamt6); }
constexpr uint16_t c_andi(uint32_t rd, int32_t imm) {
  const auto u = static_cast<uint32_t>(imm);
  return static_cast<uint16_t>((4u << 13) | (field(u, 5, 5) << 12) | (2u << 10) | (low3(rd) << 7) |
                               (field(u, 4, 0) << 2) | 1u);
}
constexpr uint16_t c_arith(uint32_t funct2, uint32_t rd, uint32_t rs2) {
  return static_cast<uint16_t>((4u << 13) | (3u << 10) | (low3(rd) << 7) | (funct2 << 5) |
                               (low3(rs2) << 2) | 1u);
}
constexpr uint16_t c_sub(uint32_t rd, uint32_t rs2) { return c_arith(0, rd, rs2); }
constexpr uint16_t c_xor(uint32_t rd, uint32_t rs2) { return c_arith(1, rd, rs2); }
constexpr uint16_t c_or(uint32_t rd, uint32_t rs2) { return c_arith(2, rd, rs2); }
constexpr uint16_t c_and(uint32_t rd, uint32_t rs2) { return c_arith(3, rd, rs2); }
constexpr uint16_t c_branch(uint32_t funct3, uint32_t rs1, int32_t offset) {
  const auto u = static_cast<uint32_t>(offset);
  return static_cast<uint16_t>((funct3 << 13) | (field(u, 8, 8) << 12) | (field(u, 4, 3) << 10) |
                               (low3(rs1) << 7) | (field(u, 7, 6) << 5) | (field(u, 2, 1) << 3) |
                               (field(u, 5, 5) << 2) | 1u);
}
constexpr uint16_t c_beqz(uint32_t rs1, int32_t offset) { return c_branch(6, rs1, offset); }
constexpr uint16_t c_bnez(uint32_t rs1, int32_t offset) { return c_branch(7, rs1, offset); }
constexpr uint16_t c_slli(uint32_t rd, uint32_t shamt6) {
  return static_cast<uint16_t>((field(shamt6, 5, 5) << 12) | (rd << 7) |
                               (field(shamt6, 4, 0) << 2) | 2u);
}
constexpr uint16_t c_lwsp(uint32_t rd, uint32_t uimm) {
  return static_cast<uint16_t>((2u << 13) | (field(uimm, 5, 5) << 12) | (rd << 7) |
                               (field(uimm, 4, 2) << 4) | (field(uimm, 7, 6) << 2) | 2u);
}
constexpr uint16_t c_swsp(uint32_t rs2, uint32_t uimm) {
  return static_cast<uint16_t>((6u << 13) | (field(uimm, 5, 2) << 9) | (field(uimm, 7, 6) << 7) |
                               (rs2 << 2) | 2u);
}
// C.FLWSP / C.FSWSP: the C.LWSP / C.SWSP layout with funct3 3 / 7 (any f register).
constexpr uint16_t c_flwsp(uint32_t rd, uint32_t uimm) {
  return static_cast<uint16_t>(c_lwsp(rd, uimm) | (1u << 13));
}
constexpr uint16_t c_fswsp(uint32_t rs2, uint32_t uimm) {
  return static_cast<uint16_t>(c_swsp(rs2, uimm) | (1u << 13));
}
constexpr uint16_t c_cr(uint32_t bit12, uint32_t rd, uint32_t rs2) {
  return static_cast<uint16_t>((4u << 13) | (bit12 << 12) | (rd << 7) | (rs2 << 2) | 2u);
}
constexpr uint16_t c_jr(uint32_t rs1) { return c_cr(0, rs1, 0); }
constexpr uint16_t c_mv(uint32_t rd, uint32_t rs2) { return c_cr(0, rd, rs2); }
constexpr uint16_t c_ebreak() { return c_cr(1, 0, 0); }
constexpr uint16_t c_jalr(uint32_t rs1) { return c_cr(1, rs1, 0); }
constexpr uint16_t c_add(uint32_t rd, uint32_t rs2) { return c_cr(1, rd, rs2); }

// A program image: 32-bit and 16-bit instructions appended in order, little-endian.
class Program {
 public:
  explicit Program(uint32_t base) : base_(base) {}
  Program& operator<<(uint32_t instruction) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<uint8_t>(instruction >> (8 * i)));
    return *this;
  }
  Program& operator<<(uint16_t instruction) {
    bytes_.push_back(static_cast<uint8_t>(instruction));
    bytes_.push_back(static_cast<uint8_t>(instruction >> 8));
    return *this;
  }
  // li rd, value as lui + addi.
  Program& li(uint32_t rd, uint32_t value) {
    const uint32_t upper = (value + 0x800u) >> 12;
    const auto lower = static_cast<int32_t>(value - (upper << 12));
    return *this << lui(rd, upper & 0xFFFFFu) << addi(rd, rd, lower);
  }
  uint32_t base() const { return base_; }
  uint32_t here() const { return base_ + static_cast<uint32_t>(bytes_.size()); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  uint32_t base_;
  std::vector<uint8_t> bytes_;
};

}  // namespace ssdvp::cpu::test::enc
