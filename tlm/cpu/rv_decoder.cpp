#include "tlm/cpu/rv_decoder.h"

namespace ssdvp::cpu {
namespace {

uint32_t bits_of(uint32_t value, unsigned high, unsigned low) {
  return (value >> low) & ((1u << (high - low + 1)) - 1u);
}

int32_t sign_extend(uint32_t value, unsigned width) {
  const uint32_t sign = 1u << (width - 1);
  return static_cast<int32_t>((value ^ sign) - sign);
}

DecodedInstruction make(Op op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm,
                        uint8_t length) {
  DecodedInstruction d;
  d.op = op;
  d.rd = static_cast<uint8_t>(rd);
  d.rs1 = static_cast<uint8_t>(rs1);
  d.rs2 = static_cast<uint8_t>(rs2);
  d.imm = imm;
  d.length = length;
  return d;
}

DecodedInstruction illegal(uint8_t length) {
  DecodedInstruction d;
  d.length = length;
  return d;
}

// ---- F (32-bit encodings only) ----

// Rounding-mode fields 5 and 6 are reserved; 7 selects frm.
bool valid_rounding(unsigned rm) { return rm <= 4 || rm == kDynamicRounding; }

DecodedInstruction make_float(Op op, unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3,
                              unsigned rm) {
  DecodedInstruction d = make(op, rd, rs1, rs2, 0, 4);
  d.rs3 = static_cast<uint8_t>(rs3);
  d.rm = static_cast<uint8_t>(rm);
  return d;
}

// OP-FP (opcode 0x53), single precision only: funct7 selects the operation, and funct3 is the
// rounding mode of the rounding ones or a sub-operation of the others.
DecodedInstruction decode_op_fp(uint32_t b) {
  const unsigned rd = bits_of(b, 11, 7);
  const unsigned rs1 = bits_of(b, 19, 15);
  const unsigned rs2 = bits_of(b, 24, 20);
  const unsigned funct3 = bits_of(b, 14, 12);
  auto rounded = [&](Op op) {
    return valid_rounding(funct3) ? make_float(op, rd, rs1, rs2, 0, funct3) : illegal(4);
  };
  auto plain = [&](Op op) { return make_float(op, rd, rs1, rs2, 0, 0); };
  switch (bits_of(b, 31, 25)) {
    case 0x00: return rounded(Op::kFaddS);
    case 0x04: return rounded(Op::kFsubS);
    case 0x08: return rounded(Op::kFmulS);
    case 0x0C: return rounded(Op::kFdivS);
    case 0x2C: return rs2 == 0 ? rounded(Op::kFsqrtS) : illegal(4);
    case 0x10:
      if (funct3 == 0) return plain(Op::kFsgnjS);
      if (funct3 == 1) return plain(Op::kFsgnjnS);
      if (funct3 == 2) return plain(Op::kFsgnjxS);
      return illegal(4);
    case 0x14:
      if (funct3 == 0) return plain(Op::kFminS);
      if (funct3 == 1) return plain(Op::kFmaxS);
      return illegal(4);
    case 0x60:
      if (rs2 == 0) return rounded(Op::kFcvtWS);
      if (rs2 == 1) return rounded(Op::kFcvtWuS);
      return illegal(4);
    case 0x68:
      if (rs2 == 0) return rounded(Op::kFcvtSW);
      if (rs2 == 1) return rounded(Op::kFcvtSWu);
      return illegal(4);
    case 0x70:
      if (rs2 == 0 && funct3 == 0) return plain(Op::kFmvXW);
      if (rs2 == 0 && funct3 == 1) return plain(Op::kFclassS);
      return illegal(4);
    case 0x78:
      return rs2 == 0 && funct3 == 0 ? plain(Op::kFmvWX) : illegal(4);
    case 0x50:
      if (funct3 == 2) return plain(Op::kFeqS);
      if (funct3 == 1) return plain(Op::kFltS);
      if (funct3 == 0) return plain(Op::kFleS);
      return illegal(4);
  }
  return illegal(4);  // other funct7 values, the D and Q formats among them
}

// ---- 32-bit encodings ----

int32_t imm_i(uint32_t b) { return sign_extend(bits_of(b, 31, 20), 12); }
int32_t imm_s(uint32_t b) { return sign_extend((bits_of(b, 31, 25) << 5) | bits_of(b, 11, 7), 12); }
int32_t imm_b(uint32_t b) {
  return sign_extend((bits_of(b, 31, 31) << 12) | (bits_of(b, 7, 7) << 11) |
                         (bits_of(b, 30, 25) << 5) | (bits_of(b, 11, 8) << 1),
                     13);
}
int32_t imm_u(uint32_t b) { return static_cast<int32_t>(b & 0xFFFFF000u); }
int32_t imm_j(uint32_t b) {
  return sign_extend((bits_of(b, 31, 31) << 20) | (bits_of(b, 19, 12) << 12) |
                         (bits_of(b, 20, 20) << 11) | (bits_of(b, 30, 21) << 1),
                     21);
}

DecodedInstruction decode_32(uint32_t b) {
  const unsigned rd = bits_of(b, 11, 7);
  const unsigned rs1 = bits_of(b, 19, 15);
  const unsigned rs2 = bits_of(b, 24, 20);
  const unsigned funct3 = bits_of(b, 14, 12);
  const unsigned funct7 = bits_of(b, 31, 25);
  auto r = [&](Op op) { return make(op, rd, rs1, rs2, 0, 4); };
  auto i = [&](Op op) { return make(op, rd, rs1, 0, imm_i(b), 4); };

  switch (bits_of(b, 6, 0)) {
    case 0x37: return make(Op::kLui, rd, 0, 0, imm_u(b), 4);
    case 0x17: return make(Op::kAuipc, rd, 0, 0, imm_u(b), 4);
    case 0x6F: return make(Op::kJal, rd, 0, 0, imm_j(b), 4);
    case 0x67: return funct3 == 0 ? i(Op::kJalr) : illegal(4);
    case 0x63: {
      static constexpr Op kBranches[8] = {Op::kBeq,     Op::kBne,  Op::kIllegal, Op::kIllegal,
                                          Op::kBlt,     Op::kBge,  Op::kBltu,    Op::kBgeu};
      const Op op = kBranches[funct3];
      return op == Op::kIllegal ? illegal(4) : make(op, 0, rs1, rs2, imm_b(b), 4);
    }
    case 0x03: {
      static constexpr Op kLoads[8] = {Op::kLb,  Op::kLh,  Op::kLw,      Op::kIllegal,
                                       Op::kLbu, Op::kLhu, Op::kIllegal, Op::kIllegal};
      const Op op = kLoads[funct3];
      return op == Op::kIllegal ? illegal(4) : i(op);
    }
    case 0x23: {
      static constexpr Op kStores[3] = {Op::kSb, Op::kSh, Op::kSw};
      return funct3 < 3 ? make(kStores[funct3], 0, rs1, rs2, imm_s(b), 4) : illegal(4);
    }
    case 0x13: {
      switch (funct3) {
        case 0: return i(Op::kAddi);
        case 2: return i(Op::kSlti);
        case 3: return i(Op::kSltiu);
        case 4: return i(Op::kXori);
        case 6: return i(Op::kOri);
        case 7: return i(Op::kAndi);
        // Shifts: funct7 also holds shamt[5], which must be 0 on RV32.
        case 1: return funct7 == 0 ? make(Op::kSlli, rd, rs1, 0, rs2, 4) : illegal(4);
        case 5:
          if (funct7 == 0x00) return make(Op::kSrli, rd, rs1, 0, rs2, 4);
          if (funct7 == 0x20) return make(Op::kSrai, rd, rs1, 0, rs2, 4);
          return illegal(4);
      }
      return illegal(4);
    }
    case 0x33: {
      if (funct7 == 0x00) {
        static constexpr Op kOps[8] = {Op::kAdd, Op::kSll, Op::kSlt, Op::kSltu,
                                       Op::kXor, Op::kSrl, Op::kOr,  Op::kAnd};
        return r(kOps[funct3]);
      }
      if (funct7 == 0x01) {
        static constexpr Op kOps[8] = {Op::kMul, Op::kMulh, Op::kMulhsu, Op::kMulhu,
                                       Op::kDiv, Op::kDivu, Op::kRem,    Op::kRemu};
        return r(kOps[funct3]);
      }
      if (funct7 == 0x20 && funct3 == 0) return r(Op::kSub);
      if (funct7 == 0x20 && funct3 == 5) return r(Op::kSra);
      return illegal(4);
    }
    case 0x0F:
      // Unused fence fields (rd, rs1, fm) are ignored as the base ISA requires.
      if (funct3 == 0) return make(Op::kFence, 0, 0, 0, 0, 4);
      if (funct3 == 1) return make(Op::kFenceI, 0, 0, 0, 0, 4);
      return illegal(4);
    case 0x73: {
      switch (funct3) {
        case 0:
          switch (b) {
            case 0x00000073u: return make(Op::kEcall, 0, 0, 0, 0, 4);
            case 0x00100073u: return make(Op::kEbreak, 0, 0, 0, 0, 4);
            case 0x30200073u: return make(Op::kMret, 0, 0, 0, 0, 4);
            case 0x10500073u: return make(Op::kWfi, 0, 0, 0, 0, 4);
          }
          return illegal(4);
        case 1: return make(Op::kCsrrw, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
        case 2: return make(Op::kCsrrs, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
        case 3: return make(Op::kCsrrc, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
        case 5: return make(Op::kCsrrwi, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
        case 6: return make(Op::kCsrrsi, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
        case 7: return make(Op::kCsrrci, rd, rs1, 0, static_cast<int32_t>(bits_of(b, 31, 20)), 4);
      }
      return illegal(4);
    }
    case 0x07: return funct3 == 2 ? i(Op::kFlw) : illegal(4);
    case 0x27: return funct3 == 2 ? make(Op::kFsw, 0, rs1, rs2, imm_s(b), 4) : illegal(4);
    case 0x43: case 0x47: case 0x4B: case 0x4F: {
      // R4 format: rs3 in bits 31:27, fmt in 26:25 (only S = 0 exists without D).
      static constexpr Op kFused[4] = {Op::kFmaddS, Op::kFmsubS, Op::kFnmsubS, Op::kFnmaddS};
      if (bits_of(b, 26, 25) != 0 || !valid_rounding(funct3)) return illegal(4);
      return make_float(kFused[bits_of(b, 3, 2)], rd, rs1, rs2, bits_of(b, 31, 27), funct3);
    }
    case 0x53: return decode_op_fp(b);
    case 0x2F: {
      if (funct3 != 2) return illegal(4);
      switch (bits_of(b, 31, 27)) {
        case 0x02: return rs2 == 0 ? r(Op::kLrW) : illegal(4);
        case 0x03: return r(Op::kScW);
        case 0x01: return r(Op::kAmoswapW);
        case 0x00: return r(Op::kAmoaddW);
        case 0x04: return r(Op::kAmoxorW);
        case 0x0C: return r(Op::kAmoandW);
        case 0x08: return r(Op::kAmoorW);
        case 0x10: return r(Op::kAmominW);
        case 0x14: return r(Op::kAmomaxW);
        case 0x18: return r(Op::kAmominuW);
        case 0x1C: return r(Op::kAmomaxuW);
      }
      return illegal(4);
    }
  }
  return illegal(4);
}

// ---- 16-bit encodings (RV32C) ----

unsigned c_reg_low(uint32_t b, unsigned low) { return 8 + bits_of(b, low + 2, low); }  // x8..x15

int32_t c_imm6(uint32_t b) { return sign_extend((bits_of(b, 12, 12) << 5) | bits_of(b, 6, 2), 6); }

int32_t c_jump_offset(uint32_t b) {
  const uint32_t offset = (bits_of(b, 12, 12) << 11) | (bits_of(b, 11, 11) << 4) |
                          (bits_of(b, 10, 9) << 8) | (bits_of(b, 8, 8) << 10) |
                          (bits_of(b, 7, 7) << 6) | (bits_of(b, 6, 6) << 7) |
                          (bits_of(b, 5, 3) << 1) | (bits_of(b, 2, 2) << 5);
  return sign_extend(offset, 12);
}

int32_t c_branch_offset(uint32_t b) {
  const uint32_t offset = (bits_of(b, 12, 12) << 8) | (bits_of(b, 11, 10) << 3) |
                          (bits_of(b, 6, 5) << 6) | (bits_of(b, 4, 3) << 1) |
                          (bits_of(b, 2, 2) << 5);
  return sign_extend(offset, 9);
}

// Offset of C.LW/C.SW: uimm[5:3] = b[12:10], uimm[2] = b[6], uimm[6] = b[5].
int32_t c_word_offset(uint32_t b) {
  return static_cast<int32_t>((bits_of(b, 12, 10) << 3) | (bits_of(b, 6, 6) << 2) |
                              (bits_of(b, 5, 5) << 6));
}

DecodedInstruction decode_16(uint32_t b) {
  const unsigned funct3 = bits_of(b, 15, 13);
  const unsigned rd = bits_of(b, 11, 7);  // also rs1 in the CI/CR formats
  const unsigned rs2 = bits_of(b, 6, 2);
  constexpr unsigned kSp = 2;
  constexpr unsigned kRa = 1;

  switch (bits_of(b, 1, 0)) {
    case 0:
      switch (funct3) {
        case 0: {  // C.ADDI4SPN; nzuimm = 0 (the all-zero halfword included) is reserved
          const uint32_t nzuimm = (bits_of(b, 12, 11) << 4) | (bits_of(b, 10, 7) << 6) |
                                  (bits_of(b, 6, 6) << 2) | (bits_of(b, 5, 5) << 3);
          if (nzuimm == 0) return illegal(2);
          return make(Op::kAddi, c_reg_low(b, 2), kSp, 0, static_cast<int32_t>(nzuimm), 2);
        }
        case 2:  // C.LW
          return make(Op::kLw, c_reg_low(b, 2), c_reg_low(b, 7), 0, c_word_offset(b), 2);
        case 3:  // C.FLW (RV32)
          return make(Op::kFlw, c_reg_low(b, 2), c_reg_low(b, 7), 0, c_word_offset(b), 2);
        case 6:  // C.SW
          return make(Op::kSw, 0, c_reg_low(b, 7), c_reg_low(b, 2), c_word_offset(b), 2);
        case 7:  // C.FSW (RV32)
          return make(Op::kFsw, 0, c_reg_low(b, 7), c_reg_low(b, 2), c_word_offset(b), 2);
      }
      return illegal(2);  // C.FLD/C.FSD (no D) and the reserved funct3 = 4

    case 1:
      switch (funct3) {
        case 0:  // C.NOP / C.ADDI (the rd = 0 or imm = 0 forms are hints: they execute as is)
          return make(Op::kAddi, rd, rd, 0, c_imm6(b), 2);
        case 1:  // C.JAL (RV32 only)
          return make(Op::kJal, kRa, 0, 0, c_jump_offset(b), 2);
        case 2:  // C.LI
          return make(Op::kAddi, rd, 0, 0, c_imm6(b), 2);
        case 3: {
          if (rd == kSp) {  // C.ADDI16SP
            const uint32_t nzimm = (bits_of(b, 12, 12) << 9) | (bits_of(b, 6, 6) << 4) |
                                   (bits_of(b, 5, 5) << 6) | (bits_of(b, 4, 3) << 7) |
                                   (bits_of(b, 2, 2) << 5);
            if (nzimm == 0) return illegal(2);
            return make(Op::kAddi, kSp, kSp, 0, sign_extend(nzimm, 10), 2);
          }
          const int32_t nzimm = c_imm6(b);  // C.LUI
          if (nzimm == 0) return illegal(2);
          return make(Op::kLui, rd, 0, 0, static_cast<int32_t>(static_cast<uint32_t>(nzimm) << 12),
                      2);
        }
        case 4: {
          const unsigned rd_low = c_reg_low(b, 7);
          switch (bits_of(b, 11, 10)) {
            case 0:  // C.SRLI; shamt[5] = 1 is reserved on RV32
              if (bits_of(b, 12, 12) != 0) return illegal(2);
              return make(Op::kSrli, rd_low, rd_low, 0, static_cast<int32_t>(rs2), 2);
            case 1:  // C.SRAI
              if (bits_of(b, 12, 12) != 0) return illegal(2);
              return make(Op::kSrai, rd_low, rd_low, 0, static_cast<int32_t>(rs2), 2);
            case 2:  // C.ANDI
              return make(Op::kAndi, rd_low, rd_low, 0, c_imm6(b), 2);
            case 3: {
              if (bits_of(b, 12, 12) != 0) return illegal(2);  // C.SUBW/C.ADDW are RV64
              static constexpr Op kOps[4] = {Op::kSub, Op::kXor, Op::kOr, Op::kAnd};
              return make(kOps[bits_of(b, 6, 5)], rd_low, rd_low, c_reg_low(b, 2), 0, 2);
            }
          }
          return illegal(2);
        }
        case 5:  // C.J
          return make(Op::kJal, 0, 0, 0, c_jump_offset(b), 2);
        case 6:  // C.BEQZ
          return make(Op::kBeq, 0, c_reg_low(b, 7), 0, c_branch_offset(b), 2);
        case 7:  // C.BNEZ
          return make(Op::kBne, 0, c_reg_low(b, 7), 0, c_branch_offset(b), 2);
      }
      return illegal(2);

    case 2:
      switch (funct3) {
        case 0:  // C.SLLI; shamt[5] = 1 is reserved on RV32
          if (bits_of(b, 12, 12) != 0) return illegal(2);
          return make(Op::kSlli, rd, rd, 0, static_cast<int32_t>(rs2), 2);
        case 2: {  // C.LWSP; rd = 0 is reserved
          if (rd == 0) return illegal(2);
          const uint32_t offset =
              (bits_of(b, 12, 12) << 5) | (bits_of(b, 6, 4) << 2) | (bits_of(b, 3, 2) << 6);
          return make(Op::kLw, rd, kSp, 0, static_cast<int32_t>(offset), 2);
        }
        case 3: {  // C.FLWSP; unlike C.LWSP, every rd (f0 included) is valid
          const uint32_t offset =
              (bits_of(b, 12, 12) << 5) | (bits_of(b, 6, 4) << 2) | (bits_of(b, 3, 2) << 6);
          return make(Op::kFlw, rd, kSp, 0, static_cast<int32_t>(offset), 2);
        }
        case 4:
          if (bits_of(b, 12, 12) == 0) {
            if (rs2 == 0) {  // C.JR; rs1 = 0 is reserved
              if (rd == 0) return illegal(2);
              return make(Op::kJalr, 0, rd, 0, 0, 2);
            }
            return make(Op::kAdd, rd, 0, rs2, 0, 2);  // C.MV
          }
          if (rs2 == 0) {
            if (rd == 0) return make(Op::kEbreak, 0, 0, 0, 0, 2);  // C.EBREAK
            return make(Op::kJalr, kRa, rd, 0, 0, 2);             // C.JALR
          }
          return make(Op::kAdd, rd, rd, rs2, 0, 2);  // C.ADD
        case 6: {  // C.SWSP
          const uint32_t offset = (bits_of(b, 12, 9) << 2) | (bits_of(b, 8, 7) << 6);
          return make(Op::kSw, 0, kSp, rs2, static_cast<int32_t>(offset), 2);
        }
        case 7: {  // C.FSWSP
          const uint32_t offset = (bits_of(b, 12, 9) << 2) | (bits_of(b, 8, 7) << 6);
          return make(Op::kFsw, 0, kSp, rs2, static_cast<int32_t>(offset), 2);
        }
      }
      return illegal(2);  // C.FLDSP/C.FSDSP: no D
  }
  return illegal(2);
}

}  // namespace

DecodedInstruction decode_instruction(uint32_t bits) {
  return instruction_length(bits) == 4 ? decode_32(bits) : decode_16(bits & 0xFFFFu);
}

CostClass cost_class_of(Op op) {
  switch (op) {
    case Op::kJal: case Op::kJalr:
      return CostClass::kJump;
    case Op::kBeq: case Op::kBne: case Op::kBlt: case Op::kBge: case Op::kBltu: case Op::kBgeu:
      return CostClass::kBranch;
    case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu: case Op::kFlw:
      return CostClass::kLoad;
    case Op::kSb: case Op::kSh: case Op::kSw: case Op::kFsw:
      return CostClass::kStore;
    case Op::kMul: case Op::kMulh: case Op::kMulhsu: case Op::kMulhu:
      return CostClass::kMul;
    case Op::kDiv: case Op::kDivu: case Op::kRem: case Op::kRemu:
      return CostClass::kDiv;
    case Op::kCsrrw: case Op::kCsrrs: case Op::kCsrrc:
    case Op::kCsrrwi: case Op::kCsrrsi: case Op::kCsrrci:
      return CostClass::kCsr;
    case Op::kLrW: case Op::kScW: case Op::kAmoswapW: case Op::kAmoaddW: case Op::kAmoxorW:
    case Op::kAmoandW: case Op::kAmoorW: case Op::kAmominW: case Op::kAmomaxW:
    case Op::kAmominuW: case Op::kAmomaxuW:
      return CostClass::kAtomic;
    case Op::kFence: case Op::kFenceI:
      return CostClass::kFence;
    case Op::kFaddS: case Op::kFsubS: case Op::kFmulS:
    case Op::kFsgnjS: case Op::kFsgnjnS: case Op::kFsgnjxS: case Op::kFminS: case Op::kFmaxS:
    case Op::kFcvtWS: case Op::kFcvtWuS: case Op::kFcvtSW: case Op::kFcvtSWu:
    case Op::kFmvXW: case Op::kFmvWX: case Op::kFeqS: case Op::kFltS: case Op::kFleS:
    case Op::kFclassS:
      return CostClass::kFpu;
    case Op::kFdivS:
      return CostClass::kFdiv;
    case Op::kFsqrtS:
      return CostClass::kFsqrt;
    case Op::kFmaddS: case Op::kFmsubS: case Op::kFnmsubS: case Op::kFnmaddS:
      return CostClass::kFma;
    case Op::kMret:
      return CostClass::kTrapReturn;
    case Op::kEcall: case Op::kEbreak: case Op::kIllegal: case Op::kNotDecoded:
      return CostClass::kTrapOnly;
    default:
      return CostClass::kAlu;  // integer ALU, lui/auipc, wfi
  }
}

bool writes_float_register(Op op) {
  switch (op) {
    case Op::kFlw:
    case Op::kFmaddS: case Op::kFmsubS: case Op::kFnmsubS: case Op::kFnmaddS:
    case Op::kFaddS: case Op::kFsubS: case Op::kFmulS: case Op::kFdivS: case Op::kFsqrtS:
    case Op::kFsgnjS: case Op::kFsgnjnS: case Op::kFsgnjxS: case Op::kFminS: case Op::kFmaxS:
    case Op::kFcvtSW: case Op::kFcvtSWu: case Op::kFmvWX:
      return true;
    default:
      return false;
  }
}

}  // namespace ssdvp::cpu
