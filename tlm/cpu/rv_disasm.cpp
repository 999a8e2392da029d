#include "tlm/cpu/rv_disasm.h"

#include <fmt/format.h>

#include "tlm/cpu/rv_csr.h"
#include "tlm/cpu/rv_decoder.h"

namespace ssdvp::cpu {
namespace {

constexpr const char* kRegisterNames[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

const char* reg(unsigned index) { return kRegisterNames[index & 31]; }

constexpr const char* kFloatRegisterNames[32] = {
    "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",  "fs0",  "fs1", "fa0",
    "fa1", "fa2", "fa3",  "fa4",  "fa5", "fa6", "fa7",  "fs2",  "fs3",  "fs4", "fs5",
    "fs6", "fs7", "fs8",  "fs9",  "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char* freg(unsigned index) { return kFloatRegisterNames[index & 31]; }

// The rounding-mode operand objdump appends when the mode is static (nothing for dynamic).
std::string rounding_suffix(const DecodedInstruction& d) {
  static constexpr const char* kModes[5] = {"rne", "rtz", "rdn", "rup", "rmm"};
  if (d.rm == kDynamicRounding) return "";
  return fmt::format(",{}", kModes[d.rm]);
}

// fflags, frm and fcsr as the suffix of objdump's frflags/fsrm/... aliases, or nullptr.
const char* float_csr_alias(uint32_t address) {
  switch (address) {
    case csr::kFflags: return "flags";
    case csr::kFrm: return "rm";
    case csr::kFcsr: return "csr";
  }
  return nullptr;
}

std::string csr_text(uint32_t address) {
  const char* name = csr_name(address);
  return name != nullptr ? std::string(name) : fmt::format("{:#x}", address);
}

// Suffix of an A-extension instruction from its aq (bit 26) and rl (bit 25) bits.
const char* ordering_suffix(uint32_t bits) {
  static constexpr const char* kSuffixes[4] = {"", ".rl", ".aq", ".aqrl"};
  return kSuffixes[(bits >> 25) & 3u];
}

std::string fence_set(uint32_t set) {
  if (set == 0) return "0";
  std::string text;
  if (set & 8u) text += 'i';
  if (set & 4u) text += 'o';
  if (set & 2u) text += 'r';
  if (set & 1u) text += 'w';
  return text;
}

const char* mnemonic_of(Op op) {
  switch (op) {
    case Op::kBeq: return "beq";
    case Op::kBne: return "bne";
    case Op::kBlt: return "blt";
    case Op::kBge: return "bge";
    case Op::kBltu: return "bltu";
    case Op::kBgeu: return "bgeu";
    case Op::kLb: return "lb";
    case Op::kLh: return "lh";
    case Op::kLw: return "lw";
    case Op::kLbu: return "lbu";
    case Op::kLhu: return "lhu";
    case Op::kSb: return "sb";
    case Op::kSh: return "sh";
    case Op::kSw: return "sw";
    case Op::kAddi: return "addi";
    case Op::kSlti: return "slti";
    case Op::kSltiu: return "sltiu";
    case Op::kXori: return "xori";
    case Op::kOri: return "ori";
    case Op::kAndi: return "andi";
    case Op::kSlli: return "slli";
    case Op::kSrli: return "srli";
    case Op::kSrai: return "srai";
    case Op::kAdd: return "add";
    case Op::kSub: return "sub";
    case Op::kSll: return "sll";
    case Op::kSlt: return "slt";
    case Op::kSltu: return "sltu";
    case Op::kXor: return "xor";
    case Op::kSrl: return "srl";
    case Op::kSra: return "sra";
    case Op::kOr: return "or";
    case Op::kAnd: return "and";
    case Op::kMul: return "mul";
    case Op::kMulh: return "mulh";
    case Op::kMulhsu: return "mulhsu";
    case Op::kMulhu: return "mulhu";
    case Op::kDiv: return "div";
    case Op::kDivu: return "divu";
    case Op::kRem: return "rem";
    case Op::kRemu: return "remu";
    case Op::kCsrrw: return "csrrw";
    case Op::kCsrrs: return "csrrs";
    case Op::kCsrrc: return "csrrc";
    case Op::kCsrrwi: return "csrrwi";
    case Op::kCsrrsi: return "csrrsi";
    case Op::kCsrrci: return "csrrci";
    case Op::kScW: return "sc.w";
    case Op::kAmoswapW: return "amoswap.w";
    case Op::kAmoaddW: return "amoadd.w";
    case Op::kAmoxorW: return "amoxor.w";
    case Op::kAmoandW: return "amoand.w";
    case Op::kAmoorW: return "amoor.w";
    case Op::kAmominW: return "amomin.w";
    case Op::kAmomaxW: return "amomax.w";
    case Op::kAmominuW: return "amominu.w";
    case Op::kAmomaxuW: return "amomaxu.w";
    case Op::kFlw: return "flw";
    case Op::kFsw: return "fsw";
    case Op::kFmaddS: return "fmadd.s";
    case Op::kFmsubS: return "fmsub.s";
    case Op::kFnmsubS: return "fnmsub.s";
    case Op::kFnmaddS: return "fnmadd.s";
    case Op::kFaddS: return "fadd.s";
    case Op::kFsubS: return "fsub.s";
    case Op::kFmulS: return "fmul.s";
    case Op::kFdivS: return "fdiv.s";
    case Op::kFsqrtS: return "fsqrt.s";
    case Op::kFsgnjS: return "fsgnj.s";
    case Op::kFsgnjnS: return "fsgnjn.s";
    case Op::kFsgnjxS: return "fsgnjx.s";
    case Op::kFminS: return "fmin.s";
    case Op::kFmaxS: return "fmax.s";
    case Op::kFcvtWS: return "fcvt.w.s";
    case Op::kFcvtWuS: return "fcvt.wu.s";
    case Op::kFcvtSW: return "fcvt.s.w";
    case Op::kFcvtSWu: return "fcvt.s.wu";
    case Op::kFmvXW: return "fmv.x.w";
    case Op::kFmvWX: return "fmv.w.x";
    case Op::kFeqS: return "feq.s";
    case Op::kFltS: return "flt.s";
    case Op::kFleS: return "fle.s";
    case Op::kFclassS: return "fclass.s";
    default: return "?";
  }
}

std::string branch_text(const DecodedInstruction& d, uint32_t target) {
  const char* rs1 = reg(d.rs1);
  const char* rs2 = reg(d.rs2);
  if (d.rs2 == 0) {
    switch (d.op) {
      case Op::kBeq: return fmt::format("beqz\t{},{:#x}", rs1, target);
      case Op::kBne: return fmt::format("bnez\t{},{:#x}", rs1, target);
      case Op::kBge: return fmt::format("bgez\t{},{:#x}", rs1, target);
      case Op::kBlt: return fmt::format("bltz\t{},{:#x}", rs1, target);
      default: break;
    }
  }
  if (d.rs1 == 0 && d.op == Op::kBge) return fmt::format("blez\t{},{:#x}", rs2, target);
  if (d.rs1 == 0 && d.op == Op::kBlt) return fmt::format("bgtz\t{},{:#x}", rs2, target);
  return fmt::format("{}\t{},{},{:#x}", mnemonic_of(d.op), rs1, rs2, target);
}

std::string csr_instruction_text(const DecodedInstruction& d) {
  const uint32_t address = static_cast<uint32_t>(d.imm);
  const std::string name = csr_text(address);
  const bool immediate = d.op == Op::kCsrrwi || d.op == Op::kCsrrsi || d.op == Op::kCsrrci;
  const std::string source = immediate ? fmt::format("{}", d.rs1) : std::string(reg(d.rs1));
  if (const char* alias = float_csr_alias(address)) {
    if (d.op == Op::kCsrrs && d.rs1 == 0) return fmt::format("fr{}\t{}", alias, reg(d.rd));
    if (d.op == Op::kCsrrw) {
      if (d.rd == 0) return fmt::format("fs{}\t{}", alias, source);
      return fmt::format("fs{}\t{},{}", alias, reg(d.rd), source);
    }
    // objdump 2.40 prints the destination even when it is zero here.
    if (d.op == Op::kCsrrwi && address != csr::kFcsr) {
      return fmt::format("fs{}i\t{},{}", alias, reg(d.rd), source);
    }
  }
  if (d.op == Op::kCsrrs && d.rs1 == 0) {
    switch (address) {
      case csr::kCycle: return fmt::format("rdcycle\t{}", reg(d.rd));
      case csr::kCycleh: return fmt::format("rdcycleh\t{}", reg(d.rd));
      case csr::kInstret: return fmt::format("rdinstret\t{}", reg(d.rd));
      case csr::kInstreth: return fmt::format("rdinstreth\t{}", reg(d.rd));
      case 0xC01: return fmt::format("rdtime\t{}", reg(d.rd));
      case 0xC81: return fmt::format("rdtimeh\t{}", reg(d.rd));
    }
    return fmt::format("csrr\t{},{}", reg(d.rd), name);
  }
  if (d.rd == 0) {
    switch (d.op) {
      case Op::kCsrrw: case Op::kCsrrwi: return fmt::format("csrw\t{},{}", name, source);
      case Op::kCsrrs: case Op::kCsrrsi: return fmt::format("csrs\t{},{}", name, source);
      default: return fmt::format("csrc\t{},{}", name, source);
    }
  }
  return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), reg(d.rd), name, source);
}

}  // namespace

std::string disassemble(uint32_t encoding, uint32_t pc) {
  const bool compressed = instruction_length(encoding) == 2;
  const uint32_t bits = compressed ? (encoding & 0xFFFFu) : encoding;
  const DecodedInstruction d = decode_instruction(bits);
  const char* rd = reg(d.rd);
  const char* rs1 = reg(d.rs1);
  const char* rs2 = reg(d.rs2);
  const uint32_t target = pc + static_cast<uint32_t>(d.imm);

  switch (d.op) {
    case Op::kNotDecoded:
    case Op::kCount:
    case Op::kIllegal:
      if (compressed && bits == 0) return "unimp";
      return fmt::format("{}\t{:#x}", compressed ? ".2byte" : ".4byte", bits);
    case Op::kLui:
    case Op::kAuipc:
      return fmt::format("{}\t{},{:#x}", d.op == Op::kLui ? "lui" : "auipc", rd,
                         static_cast<uint32_t>(d.imm) >> 12);
    case Op::kJal:
      if (d.rd == 0) return fmt::format("j\t{:#x}", target);
      if (d.rd == 1) return fmt::format("jal\t{:#x}", target);
      return fmt::format("jal\t{},{:#x}", rd, target);
    case Op::kJalr:
      if (d.rd == 0 && d.rs1 == 1 && d.imm == 0) return "ret";
      if (d.rd == 0) return d.imm == 0 ? fmt::format("jr\t{}", rs1)
                                       : fmt::format("jr\t{}({})", d.imm, rs1);
      if (d.rd == 1) return d.imm == 0 ? fmt::format("jalr\t{}", rs1)
                                       : fmt::format("jalr\t{}({})", d.imm, rs1);
      return fmt::format("jalr\t{},{}({})", rd, d.imm, rs1);
    case Op::kBeq: case Op::kBne: case Op::kBlt: case Op::kBge: case Op::kBltu: case Op::kBgeu:
      return branch_text(d, target);
    case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu:
      return fmt::format("{}\t{},{}({})", mnemonic_of(d.op), rd, d.imm, rs1);
    case Op::kSb: case Op::kSh: case Op::kSw:
      return fmt::format("{}\t{},{}({})", mnemonic_of(d.op), rs2, d.imm, rs1);
    case Op::kAddi:
      if (d.rd == 0 && d.rs1 == 0 && d.imm == 0) return "nop";
      if (d.rs1 == 0) return fmt::format("li\t{},{}", rd, d.imm);
      if (d.imm == 0) return fmt::format("mv\t{},{}", rd, rs1);
      return fmt::format("addi\t{},{},{}", rd, rs1, d.imm);
    case Op::kXori:
      if (d.imm == -1) return fmt::format("not\t{},{}", rd, rs1);
      return fmt::format("xori\t{},{},{}", rd, rs1, d.imm);
    case Op::kSltiu:
      if (d.imm == 1) return fmt::format("seqz\t{},{}", rd, rs1);
      return fmt::format("sltiu\t{},{},{}", rd, rs1, d.imm);
    case Op::kSlti: case Op::kOri: case Op::kAndi:
      return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), rd, rs1, d.imm);
    case Op::kSlli: case Op::kSrli: case Op::kSrai:
      return fmt::format("{}\t{},{},{:#x}", mnemonic_of(d.op), rd, rs1, d.imm);
    case Op::kAdd:
      if (compressed && d.rs1 == 0) return fmt::format("mv\t{},{}", rd, rs2);  // c.mv
      break;
    case Op::kSub:
      if (d.rs1 == 0) return fmt::format("neg\t{},{}", rd, rs2);
      break;
    case Op::kSltu:
      if (d.rs1 == 0) return fmt::format("snez\t{},{}", rd, rs2);
      break;
    case Op::kSlt:
      if (d.rs2 == 0) return fmt::format("sltz\t{},{}", rd, rs1);
      if (d.rs1 == 0) return fmt::format("sgtz\t{},{}", rd, rs2);
      break;
    case Op::kFence: {
      const uint32_t predecessors = (bits >> 24) & 15u;
      const uint32_t successors = (bits >> 20) & 15u;
      if ((bits >> 28) == 8 && predecessors == 3 && successors == 3) return "fence.tso";
      if (predecessors == 15 && successors == 15) return "fence";
      return fmt::format("fence\t{},{}", fence_set(predecessors), fence_set(successors));
    }
    case Op::kFenceI: return "fence.i";
    case Op::kEcall: return "ecall";
    case Op::kEbreak: return "ebreak";
    case Op::kMret: return "mret";
    case Op::kWfi: return "wfi";
    case Op::kCsrrw: case Op::kCsrrs: case Op::kCsrrc:
    case Op::kCsrrwi: case Op::kCsrrsi: case Op::kCsrrci:
      return csr_instruction_text(d);
    case Op::kLrW:
      return fmt::format("lr.w{}\t{},({})", ordering_suffix(bits), rd, rs1);
    case Op::kScW: case Op::kAmoswapW: case Op::kAmoaddW: case Op::kAmoxorW: case Op::kAmoandW:
    case Op::kAmoorW: case Op::kAmominW: case Op::kAmomaxW: case Op::kAmominuW:
    case Op::kAmomaxuW:
      return fmt::format("{}{}\t{},{},({})", mnemonic_of(d.op), ordering_suffix(bits), rd, rs2,
                         rs1);
    case Op::kFlw:
      return fmt::format("flw\t{},{}({})", freg(d.rd), d.imm, rs1);
    case Op::kFsw:
      return fmt::format("fsw\t{},{}({})", freg(d.rs2), d.imm, rs1);
    case Op::kFmaddS: case Op::kFmsubS: case Op::kFnmsubS: case Op::kFnmaddS:
      return fmt::format("{}\t{},{},{},{}{}", mnemonic_of(d.op), freg(d.rd), freg(d.rs1),
                         freg(d.rs2), freg(d.rs3), rounding_suffix(d));
    case Op::kFaddS: case Op::kFsubS: case Op::kFmulS: case Op::kFdivS:
      return fmt::format("{}\t{},{},{}{}", mnemonic_of(d.op), freg(d.rd), freg(d.rs1),
                         freg(d.rs2), rounding_suffix(d));
    case Op::kFsqrtS:
      return fmt::format("fsqrt.s\t{},{}{}", freg(d.rd), freg(d.rs1), rounding_suffix(d));
    case Op::kFsgnjS: case Op::kFsgnjnS: case Op::kFsgnjxS:
      if (d.rs1 == d.rs2) {
        const char* alias =
            d.op == Op::kFsgnjS ? "fmv.s" : d.op == Op::kFsgnjnS ? "fneg.s" : "fabs.s";
        return fmt::format("{}\t{},{}", alias, freg(d.rd), freg(d.rs1));
      }
      return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), freg(d.rd), freg(d.rs1), freg(d.rs2));
    case Op::kFminS: case Op::kFmaxS:
      return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), freg(d.rd), freg(d.rs1), freg(d.rs2));
    case Op::kFcvtWS: case Op::kFcvtWuS:
      return fmt::format("{}\t{},{}{}", mnemonic_of(d.op), rd, freg(d.rs1), rounding_suffix(d));
    case Op::kFcvtSW: case Op::kFcvtSWu:
      return fmt::format("{}\t{},{}{}", mnemonic_of(d.op), freg(d.rd), rs1, rounding_suffix(d));
    case Op::kFmvXW: case Op::kFclassS:
      return fmt::format("{}\t{},{}", mnemonic_of(d.op), rd, freg(d.rs1));
    case Op::kFmvWX:
      return fmt::format("fmv.w.x\t{},{}", freg(d.rd), rs1);
    case Op::kFeqS: case Op::kFltS: case Op::kFleS:
      return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), rd, freg(d.rs1), freg(d.rs2));
    default:
      break;
  }
  // The remaining register-register forms: mnemonic rd,rs1,rs2.
  return fmt::format("{}\t{},{},{}", mnemonic_of(d.op), rd, rs1, rs2);
}

}  // namespace ssdvp::cpu
