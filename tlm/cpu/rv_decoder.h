// RV32IMAFC + Zicsr decoder: turns a 32-bit or 16-bit encoding into one pre-decoded form that the
// executor, the decode cache and the disassembler share. A compressed instruction decodes to the
// operation of its 32-bit expansion, so the executor has a single implementation per operation.
#pragma once

#include <cstdint>

namespace ssdvp::cpu {

enum class Op : uint8_t {
  kNotDecoded = 0,  // decode-cache slot not filled yet (never produced by decode_instruction)
  kIllegal,
  // RV32I
  kLui, kAuipc, kJal, kJalr,
  kBeq, kBne, kBlt, kBge, kBltu, kBgeu,
  kLb, kLh, kLw, kLbu, kLhu,
  kSb, kSh, kSw,
  kAddi, kSlti, kSltiu, kXori, kOri, kAndi, kSlli, kSrli, kSrai,
  kAdd, kSub, kSll, kSlt, kSltu, kXor, kSrl, kSra, kOr, kAnd,
  kFence, kFenceI,
  kEcall, kEbreak, kMret, kWfi,
  // Zicsr: imm holds the CSR address; rs1 holds the register or, for the *i forms, the uimm.
  kCsrrw, kCsrrs, kCsrrc, kCsrrwi, kCsrrsi, kCsrrci,
  // M
  kMul, kMulh, kMulhsu, kMulhu, kDiv, kDivu, kRem, kRemu,
  // A (word only; the aq/rl bits need no action on this in-order core)
  kLrW, kScW,
  kAmoswapW, kAmoaddW, kAmoxorW, kAmoandW, kAmoorW,
  kAmominW, kAmomaxW, kAmominuW, kAmomaxuW,
  // F: rd, rs1, rs2 and rs3 name f registers except where the instruction moves to or from x
  // (flw/fsw base, fcvt.s.w[u]/fmv.w.x source, fcvt.w[u].s/fmv.x.w/compare/fclass destination).
  // rm holds the rounding mode of the instructions that round: 0..4, or 7 for frm (dynamic).
  kFlw, kFsw,
  kFmaddS, kFmsubS, kFnmsubS, kFnmaddS,
  kFaddS, kFsubS, kFmulS, kFdivS, kFsqrtS,
  kFsgnjS, kFsgnjnS, kFsgnjxS, kFminS, kFmaxS,
  kFcvtWS, kFcvtWuS, kFcvtSW, kFcvtSWu, kFmvXW, kFmvWX,
  kFeqS, kFltS, kFleS, kFclassS,
  kCount
};

// Timing class of an operation; each maps to one InstructionCosts field.
enum class CostClass : uint8_t {
  kAlu,
  kBranch,  // not-taken cost; a taken branch adds the difference to branch_taken
  kJump,
  kLoad,
  kStore,
  kMul,
  kDiv,
  kCsr,
  kAtomic,
  kFence,
  kFpu,     // float add/sub/mul, conversions, compares, sign injection, moves
  kFdiv,
  kFsqrt,
  kFma,     // the fused multiply-adds
  kTrapReturn,  // mret, charged like trap entry
  kTrapOnly,    // ecall, ebreak, illegal: they always trap, so only the trap cost applies
};

struct DecodedInstruction {
  Op op = Op::kIllegal;
  uint8_t rd = 0;
  uint8_t rs1 = 0;
  uint8_t rs2 = 0;
  uint8_t length = 4;  // 2 for a compressed encoding
  uint8_t rs3 = 0;     // the fused multiply-adds' addend
  uint8_t rm = 0;      // rounding mode field of the F instructions that round
  int32_t imm = 0;     // sign-extended immediate (for kLui/kAuipc already shifted left by 12)
};

// The dynamic rounding mode in an instruction's rm field: use frm.
constexpr uint8_t kDynamicRounding = 7;

// Length in bytes of the instruction whose low halfword is `low_bits`: 2 for a compressed
// encoding, 4 otherwise (the 48-bit and longer formats are decoded as illegal).
inline uint32_t instruction_length(uint32_t low_bits) { return (low_bits & 3u) == 3u ? 4u : 2u; }

// Decodes one instruction. For a compressed encoding only the low 16 bits are looked at.
DecodedInstruction decode_instruction(uint32_t bits);

CostClass cost_class_of(Op op);

// True when the operation's rd names an f register (so f0 is a real destination).
bool writes_float_register(Op op);

// The F computational instructions (all of F but flw and fsw).
inline bool is_float_computational(Op op) {
  return static_cast<unsigned>(op) >= static_cast<unsigned>(Op::kFmaddS) &&
         static_cast<unsigned>(op) <= static_cast<unsigned>(Op::kFclassS);
}

}  // namespace ssdvp::cpu
