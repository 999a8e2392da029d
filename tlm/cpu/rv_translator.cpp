#include "tlm/cpu/rv_translator.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "tlm/cpu/cpu_if.h"
#include "tlm/cpu/rv_arith.h"
#include "tlm/cpu/rv_csr.h"
#include "tlm/cpu/rv_decode_cache.h"
#include "tlm/cpu/rv_decoder.h"

#if defined(__x86_64__)
#include <sys/mman.h>

#include <xbyak/xbyak.h>
#endif

namespace ssdvp::cpu {
namespace {

constexpr uint32_t kPageShift = DecodeCache::kPageShift;
// Longest block: bounds the code of one block and the time before the budget is tested again.
constexpr uint32_t kMaxBlockInstructions = 64;
// The interpreter's share at F code: enough for a run of float instructions, short enough to
// come back to blocks soon after.
constexpr uint32_t kFloatRunCycles = 32;

enum class Kind { kInline, kEndsBlock, kInterpreterEndsBlock, kInterpreter };

bool is_csr(Op op) {
  return static_cast<unsigned>(op) >= static_cast<unsigned>(Op::kCsrrw) &&
         static_cast<unsigned>(op) <= static_cast<unsigned>(Op::kCsrrci);
}

// The CSR instructions coded inline, the ones firmware runs on its hot paths: reads of the
// counters, mip, mie, mhartid and mjobkind (csrrs and csrrc with x0, and their immediate forms
// with 0, write nothing), and writes of mjobkind, which only move its cycle accounting. None can
// trap, end the batch or make an interrupt takeable. The interpreter's code follows a read of mie
// with a check for a takeable interrupt, which finds none while blocks run: whatever makes one
// takeable (set_interrupt_pending, mret, writes of mstatus and mie) ends the batch.
bool is_inline_csr(const DecodedInstruction& d) {
  const auto address = static_cast<uint32_t>(d.imm);
  if (d.op == Op::kCsrrw || d.op == Op::kCsrrwi) return address == csr::kMjobkind;
  if (d.rs1 != 0) return false;
  switch (address) {
    case csr::kMcycle: case csr::kMcycleh: case csr::kCycle: case csr::kCycleh:
    case csr::kMinstret: case csr::kMinstreth: case csr::kInstret: case csr::kInstreth:
    case csr::kMip: case csr::kMie: case csr::kMhartid: case csr::kMjobkind:
      return true;
    default:
      return false;
  }
}

// What the translator does with an instruction: code for it inline; code for it and end the
// block (control transfers); end the block with a call to the interpreter's code for it (the
// other CSR instructions, F arithmetic, atomics: they may trap, end the batch or enable an
// interrupt); or leave it, and the block before it, to the interpreter.
Kind kind_of(const DecodedInstruction& d) {
  const Op op = d.op;
  if (is_float_computational(op)) return Kind::kInterpreterEndsBlock;
  if (is_csr(op)) return is_inline_csr(d) ? Kind::kInline : Kind::kInterpreterEndsBlock;
  switch (op) {
    case Op::kLrW: case Op::kScW: case Op::kAmoswapW: case Op::kAmoaddW: case Op::kAmoxorW:
    case Op::kAmoandW: case Op::kAmoorW: case Op::kAmominW: case Op::kAmomaxW:
    case Op::kAmominuW: case Op::kAmomaxuW:
      return Kind::kInterpreterEndsBlock;
    case Op::kJal: case Op::kJalr:
    case Op::kBeq: case Op::kBne: case Op::kBlt: case Op::kBge: case Op::kBltu: case Op::kBgeu:
      return Kind::kEndsBlock;
    case Op::kLui: case Op::kAuipc:
    case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu:
    case Op::kSb: case Op::kSh: case Op::kSw:
    case Op::kAddi: case Op::kSlti: case Op::kSltiu: case Op::kXori: case Op::kOri:
    case Op::kAndi: case Op::kSlli: case Op::kSrli: case Op::kSrai:
    case Op::kAdd: case Op::kSub: case Op::kSll: case Op::kSlt: case Op::kSltu: case Op::kXor:
    case Op::kSrl: case Op::kSra: case Op::kOr: case Op::kAnd:
    case Op::kMul: case Op::kMulh: case Op::kMulhsu: case Op::kMulhu:
    case Op::kDiv: case Op::kDivu: case Op::kRem: case Op::kRemu:
    case Op::kFence:
      return Kind::kInline;
    default:
      return Kind::kInterpreter;
  }
}

bool is_load(Op op) {
  return op == Op::kLb || op == Op::kLh || op == Op::kLw || op == Op::kLbu || op == Op::kLhu;
}
bool is_store(Op op) { return op == Op::kSb || op == Op::kSh || op == Op::kSw; }
bool is_float(Op op) {
  return static_cast<unsigned>(op) >= static_cast<unsigned>(Op::kFlw) &&
         static_cast<unsigned>(op) <= static_cast<unsigned>(Op::kFclassS);
}

struct Instruction {
  DecodedInstruction decoded;
  uint32_t bits = 0;
  uint32_t pc = 0;
  uint32_t cost = 0;
};

uint32_t divide_signed(uint32_t a, uint32_t b) { return rv_div(a, b); }
uint32_t divide_unsigned(uint32_t a, uint32_t b) { return rv_divu(a, b); }
uint32_t remainder_signed(uint32_t a, uint32_t b) { return rv_rem(a, b); }
uint32_t remainder_unsigned(uint32_t a, uint32_t b) { return rv_remu(a, b); }

}  // namespace

#if defined(__x86_64__)

namespace {

constexpr size_t kCodeBytes = size_t{32} << 20;
constexpr size_t kHugePageBytes = size_t{2} << 20;
// A block's code stays far below this; a fuller buffer is flushed before translating.
constexpr size_t kBlockCodeReserve = size_t{64} << 10;

// Registers while blocks run: rbx the state pointer; r12, r13, r14, r15 the hart's cycle,
// retired, load and store counters, written back when the blocks leave.
class BlockEmitter : public Xbyak::CodeGenerator {
 public:
  BlockEmitter(uint8_t* buffer, size_t size, const TranslatorLayout& layout,
               const Translator::DirectEntry* direct)
      : Xbyak::CodeGenerator(size, buffer), layout_(layout), direct_(direct) {}

  // The stubs every block shares, at the start of the buffer: enter(state, body) loads the
  // counters and jumps to the body; leave (eax: the exit code) writes them back and returns.
  void emit_stubs() {
    enter_ = getCurr();
    push(rbx);
    push(rbp);
    push(r12);
    push(r13);
    push(r14);
    push(r15);
    sub(rsp, 8);  // 16-byte aligned for the division helpers' calls
    mov(rbx, rdi);
    load_counters();
    jmp(rsi);
    L(leave_);
    store_counters();
    add(rsp, 8);
    pop(r15);
    pop(r14);
    pop(r13);
    pop(r12);
    pop(rbp);
    pop(rbx);
    ret();
  }

  uint32_t (*enter() const)(void*, const void*) {
    return reinterpret_cast<uint32_t (*)(void*, const void*)>(const_cast<uint8_t*>(enter_));
  }

  // Emits a block's body at the current position and returns it.
  const uint8_t* emit(const std::vector<Instruction>& block) {
    const uint8_t* body = getCurr();
    std::vector<Xbyak::Label> side_exits(block.size());
    std::vector<bool> side_exit_used(block.size(), false);
    Totals done;  // what the instructions so far add
    for (size_t k = 0; k < block.size(); ++k) {
      const Instruction& instruction = block[k];
      const DecodedInstruction& d = instruction.decoded;
      Totals after = done;
      after.add(instruction);
      if (kind_of(d) == Kind::kEndsBlock) {
        emit_control_transfer(instruction, after);
        break;
      }
      if (kind_of(d) == Kind::kInterpreterEndsBlock) {
        emit_interpreter_call(instruction, after);
        break;
      }
      if (is_load(d.op) || is_store(d.op)) side_exit_used[k] = true;
      if (is_csr(d.op)) {
        emit_csr(d, done, after);
      } else {
        emit_inline(d, instruction.pc, side_exits[k]);
      }
      done = after;
      if (k + 1 == block.size()) {
        count(done, 0);
        go_to(instruction.pc + d.length);
      }
    }
    // Side exits: the counters as the interpreter has them before instruction k.
    Totals prefix;
    for (size_t k = 0; k < block.size(); ++k) {
      if (side_exit_used[k]) {
        L(side_exits[k]);
        count(prefix, 0);
        mov(dword[rbx + layout_.pc], block[k].pc);
        mov(eax, Translator::kSideExit);
        jmp(leave_, T_NEAR);
      }
      prefix.add(block[k]);
    }
    return body;
  }

 private:
  struct Totals {
    uint32_t instructions = 0;
    uint64_t cycles = 0;
    uint32_t loads = 0;
    uint32_t stores = 0;
    void add(const Instruction& instruction) {
      instructions += 1;
      cycles += instruction.cost;
      if (is_load(instruction.decoded.op)) loads += 1;
      if (is_store(instruction.decoded.op)) stores += 1;
    }
  };

  Xbyak::Address x_reg(unsigned index) { return dword[rbx + (layout_.x + 4 * index)]; }
  static unsigned destination(const DecodedInstruction& d) {
    return d.rd == 0 ? kSinkRegister : d.rd;
  }

  // Adds what the instructions done cost and count (plus `extra` cycles) to the counters.
  void count(const Totals& totals, uint64_t extra) {
    add_constant(r12, totals.cycles + extra);
    if (totals.instructions != 0) add(r13, totals.instructions);
    if (totals.loads != 0) add(r14, totals.loads);
    if (totals.stores != 0) add(r15, totals.stores);
  }

  // Goes on at the pc in ecx: straight into its block when it is translated and fits the budget,
  // else back to the caller with the pc set.
  void go_to_ecx() {
    Xbyak::Label back;
    mov(eax, ecx);
    shr(eax, 1);
    and_(eax, Translator::kDirectEntries - 1);
    shl(rax, 4);
    static_assert(sizeof(Translator::DirectEntry) == 16, "the lookup scales by 16");
    mov(rdx, reinterpret_cast<uint64_t>(direct_));
    add(rdx, rax);
    cmp(dword[rdx + offsetof(Translator::DirectEntry, pc)], ecx);
    jne(back, T_NEAR);
    mov(rdx, qword[rdx + offsetof(Translator::DirectEntry, block)]);
    mov(eax, dword[rdx + offsetof(TranslatedBlock, memory_accesses)]);
    imul(eax, dword[rbx + layout_.window_latency_max]);
    add(eax, dword[rdx + offsetof(TranslatedBlock, static_cost)]);
    add(rax, r12);
    cmp(rax, qword[rbx + layout_.cycle_limit]);
    jae(back, T_NEAR);
    mov(rax, qword[rdx + offsetof(TranslatedBlock, body)]);
    test(rax, rax);
    jz(back, T_NEAR);
    jmp(rax);
    L(back);
    mov(dword[rbx + layout_.pc], ecx);
    xor_(eax, eax);
    jmp(leave_, T_NEAR);
  }
  void go_to(uint32_t pc) {
    mov(ecx, pc);
    go_to_ecx();
  }

  // The instruction runs on the interpreter's code, with the state as the interpreter has it
  // while running it (its cost charged, itself counted as retired); then the blocks go on from
  // whatever pc it left, unless it ended the batch (cycle_limit 0).
  void emit_interpreter_call(const Instruction& instruction, const Totals& after) {
    count(after, 0);
    store_counters();
    mov(dword[rbx + layout_.pc], instruction.pc);
    const CachedInstruction slot = make_slot(instruction.decoded, instruction.bits);
    uint64_t slot_bits = 0;
    static_assert(sizeof(slot) == sizeof(slot_bits), "a slot travels in one register");
    std::memcpy(&slot_bits, &slot, sizeof(slot));
    mov(rdi, rbx);
    mov(rsi, slot_bits);
    mov(rax, reinterpret_cast<uint64_t>(layout_.run_instruction));
    call(rax);
    load_counters();
    mov(ecx, dword[rbx + layout_.pc]);
    go_to_ecx();
  }

  void store_counters() {
    mov(qword[rbx + layout_.cycle], r12);
    mov(qword[rbx + layout_.retired], r13);
    mov(qword[rbx + layout_.loads], r14);
    mov(qword[rbx + layout_.stores], r15);
  }
  void load_counters() {
    mov(r12, qword[rbx + layout_.cycle]);
    mov(r13, qword[rbx + layout_.retired]);
    mov(r14, qword[rbx + layout_.loads]);
    mov(r15, qword[rbx + layout_.stores]);
  }

  void emit_control_transfer(const Instruction& instruction, const Totals& after) {
    const DecodedInstruction& d = instruction.decoded;
    const uint32_t next_pc = instruction.pc + d.length;
    const uint32_t target = instruction.pc + static_cast<uint32_t>(d.imm);
    if (d.op == Op::kJal) {
      mov(x_reg(destination(d)), next_pc);
      count(after, 0);
      go_to(target);
      return;
    }
    if (d.op == Op::kJalr) {
      mov(ecx, x_reg(d.rs1));  // before rd is written: rd may be rs1
      if (d.imm != 0) add(ecx, d.imm);
      and_(ecx, ~1u);
      mov(x_reg(destination(d)), next_pc);
      count(after, 0);
      go_to_ecx();
      return;
    }
    Xbyak::Label taken;
    mov(eax, x_reg(d.rs1));
    cmp(eax, x_reg(d.rs2));
    switch (d.op) {
      case Op::kBeq: je(taken, T_NEAR); break;
      case Op::kBne: jne(taken, T_NEAR); break;
      case Op::kBlt: jl(taken, T_NEAR); break;
      case Op::kBge: jge(taken, T_NEAR); break;
      case Op::kBltu: jb(taken, T_NEAR); break;
      default: jae(taken, T_NEAR); break;  // kBgeu
    }
    count(after, 0);
    go_to(next_pc);
    L(taken);
    count(after, layout_.branch_taken_extra);
    go_to(target);
  }

  void emit_inline(const DecodedInstruction& d, uint32_t pc, Xbyak::Label& side_exit) {
    const unsigned rd = destination(d);
    const int32_t imm = d.imm;
    switch (d.op) {
      case Op::kLui: mov(x_reg(rd), static_cast<uint32_t>(imm)); return;
      case Op::kAuipc: mov(x_reg(rd), pc + static_cast<uint32_t>(imm)); return;
      case Op::kFence: return;
      case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu:
        emit_load(d, side_exit);
        return;
      case Op::kSb: case Op::kSh: case Op::kSw:
        emit_store(d, side_exit);
        return;
      case Op::kAddi: case Op::kXori: case Op::kOri: case Op::kAndi:
        mov(eax, x_reg(d.rs1));
        if (d.op == Op::kAddi) add(eax, imm);
        if (d.op == Op::kXori) xor_(eax, imm);
        if (d.op == Op::kOri) or_(eax, imm);
        if (d.op == Op::kAndi) and_(eax, imm);
        mov(x_reg(rd), eax);
        return;
      case Op::kSlli: case Op::kSrli: case Op::kSrai:
        mov(eax, x_reg(d.rs1));
        if (d.op == Op::kSlli) shl(eax, imm & 31);
        if (d.op == Op::kSrli) shr(eax, imm & 31);
        if (d.op == Op::kSrai) sar(eax, imm & 31);
        mov(x_reg(rd), eax);
        return;
      case Op::kSlti: case Op::kSltiu:
        xor_(ecx, ecx);
        mov(eax, x_reg(d.rs1));
        cmp(eax, imm);
        if (d.op == Op::kSlti) setl(cl); else setb(cl);
        mov(x_reg(rd), ecx);
        return;
      case Op::kSlt: case Op::kSltu:
        xor_(ecx, ecx);
        mov(eax, x_reg(d.rs1));
        cmp(eax, x_reg(d.rs2));
        if (d.op == Op::kSlt) setl(cl); else setb(cl);
        mov(x_reg(rd), ecx);
        return;
      case Op::kAdd: case Op::kSub: case Op::kXor: case Op::kOr: case Op::kAnd: case Op::kMul:
        mov(eax, x_reg(d.rs1));
        if (d.op == Op::kAdd) add(eax, x_reg(d.rs2));
        if (d.op == Op::kSub) sub(eax, x_reg(d.rs2));
        if (d.op == Op::kXor) xor_(eax, x_reg(d.rs2));
        if (d.op == Op::kOr) or_(eax, x_reg(d.rs2));
        if (d.op == Op::kAnd) and_(eax, x_reg(d.rs2));
        if (d.op == Op::kMul) imul(eax, x_reg(d.rs2));
        mov(x_reg(rd), eax);
        return;
      case Op::kSll: case Op::kSrl: case Op::kSra:
        mov(eax, x_reg(d.rs1));
        mov(ecx, x_reg(d.rs2));  // x86 masks a 32-bit shift count to 5 bits, as RISC-V does
        if (d.op == Op::kSll) shl(eax, cl);
        if (d.op == Op::kSrl) shr(eax, cl);
        if (d.op == Op::kSra) sar(eax, cl);
        mov(x_reg(rd), eax);
        return;
      case Op::kMulh: case Op::kMulhsu: case Op::kMulhu:
        if (d.op == Op::kMulhu) mov(eax, x_reg(d.rs1)); else movsxd(rax, x_reg(d.rs1));
        if (d.op == Op::kMulh) movsxd(rcx, x_reg(d.rs2)); else mov(ecx, x_reg(d.rs2));
        imul(rax, rcx);  // the low 64 bits of the product are exact for every sign mix
        shr(rax, 32);
        mov(x_reg(rd), eax);
        return;
      case Op::kDiv: case Op::kDivu: case Op::kRem: case Op::kRemu: {
        uint32_t (*helper)(uint32_t, uint32_t) = divide_signed;
        if (d.op == Op::kDivu) helper = divide_unsigned;
        if (d.op == Op::kRem) helper = remainder_signed;
        if (d.op == Op::kRemu) helper = remainder_unsigned;
        mov(edi, x_reg(d.rs1));
        mov(esi, x_reg(d.rs2));
        mov(rax, reinterpret_cast<uint64_t>(helper));
        call(rax);
        mov(x_reg(rd), eax);
        return;
      }
      default:
        throw std::logic_error("translator: op has no inline code");
    }
  }

  // A CSR instruction is_inline_csr admits, with the values CsrFile::read and write would use:
  // a read sees the counters before the instruction's cost and retirement (`before`), as the
  // interpreter's code does; a write of mjobkind charges the cycles up to the end of the
  // instruction (`after`) to the kind it replaces.
  void emit_csr(const DecodedInstruction& d, const Totals& before, const Totals& after) {
    const unsigned rd = destination(d);
    if (d.op == Op::kCsrrw || d.op == Op::kCsrrwi) {  // mjobkind
      if (d.op == Op::kCsrrw) {
        mov(esi, x_reg(d.rs1));  // before rd is written: rd may be rs1
      } else {
        mov(esi, d.rs1);  // the immediate form's uimm
      }
      and_(esi, csr::kJobKindMask);
      mov(rcx, r12);
      add_constant(rcx, after.cycles);
      mov(eax, dword[rbx + layout_.job_kind]);
      mov(rdx, rcx);
      sub(rdx, qword[rbx + layout_.job_kind_since]);
      add(qword[rbx + rax * 8 + layout_.job_kind_cycles], rdx);
      mov(qword[rbx + layout_.job_kind_since], rcx);
      mov(dword[rbx + layout_.job_kind], esi);
      mov(x_reg(rd), eax);
      return;
    }
    switch (static_cast<uint32_t>(d.imm)) {
      case csr::kMcycle: case csr::kCycle:
        emit_counter_read(r12, before.cycles, layout_.cycle_offset, false, rd);
        return;
      case csr::kMcycleh: case csr::kCycleh:
        emit_counter_read(r12, before.cycles, layout_.cycle_offset, true, rd);
        return;
      case csr::kMinstret: case csr::kInstret:
        emit_counter_read(r13, before.instructions, layout_.instret_offset, false, rd);
        return;
      case csr::kMinstreth: case csr::kInstreth:
        emit_counter_read(r13, before.instructions, layout_.instret_offset, true, rd);
        return;
      case csr::kMhartid: mov(x_reg(rd), layout_.hart_id); return;
      case csr::kMip: mov(eax, dword[rbx + layout_.mip]); break;
      case csr::kMie: mov(eax, dword[rbx + layout_.mie]); break;
      case csr::kMjobkind: mov(eax, dword[rbx + layout_.job_kind]); break;
      default: throw std::logic_error("translator: CSR has no inline code");
    }
    mov(x_reg(rd), eax);
  }

  // The low or high word of a counter (its host register plus the instructions done's share)
  // plus its CSR offset, as the 64-bit sum wraps.
  void emit_counter_read(const Xbyak::Reg64& counter, uint64_t done, size_t csr_offset, bool high,
                         unsigned rd) {
    mov(rax, counter);
    add_constant(rax, done);
    add(rax, qword[rbx + csr_offset]);
    if (high) shr(rax, 32);
    mov(x_reg(rd), eax);
  }

  void add_constant(const Xbyak::Reg64& reg, uint64_t value) {
    if (value != 0) add(reg, static_cast<uint32_t>(value));
  }

  static uint32_t access_length(Op op) {
    if (op == Op::kLb || op == Op::kLbu || op == Op::kSb) return 1;
    if (op == Op::kLh || op == Op::kLhu || op == Op::kSh) return 2;
    return 4;
  }

  // The access's address in eax; a misaligned one takes the side exit (the interpreter splits it).
  void emit_address(const DecodedInstruction& d, Xbyak::Label& side_exit) {
    const uint32_t len = access_length(d.op);
    mov(eax, x_reg(d.rs1));
    if (d.imm != 0) add(eax, d.imm);
    if (len > 1) {
      test(eax, len - 1);
      jnz(side_exit, T_NEAR);
    }
  }

  // A load tries the read window, then the previous one; either is a direct region, so the
  // access costs that region's latency, as the interpreter's slow path would charge.
  void emit_load(const DecodedInstruction& d, Xbyak::Label& side_exit) {
    Xbyak::Label hit;
    emit_address(d, side_exit);
    lea(rsi, ptr[rbx + layout_.read_window]);
    mov(ecx, eax);
    sub(ecx, dword[rsi + offsetof(DirectRegion, base)]);
    cmp(ecx, dword[rsi + offsetof(DirectRegion, size)]);
    jb(hit, T_NEAR);
    lea(rsi, ptr[rbx + layout_.previous_read_window]);
    mov(ecx, eax);
    sub(ecx, dword[rsi + offsetof(DirectRegion, base)]);
    cmp(ecx, dword[rsi + offsetof(DirectRegion, size)]);
    jae(side_exit, T_NEAR);
    L(hit);
    mov(rdx, qword[rsi + offsetof(DirectRegion, host)]);
    switch (d.op) {
      case Op::kLb: movsx(eax, byte[rdx + rcx]); break;
      case Op::kLbu: movzx(eax, byte[rdx + rcx]); break;
      case Op::kLh: movsx(eax, word[rdx + rcx]); break;
      case Op::kLhu: movzx(eax, word[rdx + rcx]); break;
      default: mov(eax, dword[rdx + rcx]); break;
    }
    mov(edx, dword[rsi + offsetof(DirectRegion, read_cycles)]);
    add(r12, rdx);
    mov(x_reg(destination(d)), eax);
  }

  void emit_store(const DecodedInstruction& d, Xbyak::Label& side_exit) {
    // The interpreter's fast path: an aligned access inside the write window (offset in rcx).
    const size_t window = layout_.write_window;
    emit_address(d, side_exit);
    mov(ecx, eax);
    sub(ecx, dword[rbx + (window + offsetof(DirectRegion, base))]);
    cmp(ecx, dword[rbx + (window + offsetof(DirectRegion, size))]);
    jae(side_exit, T_NEAR);
    // A held reservation must hear the store, and a store into decoded code or the tohost page
    // has consequences: the interpreter does those.
    mov(rdx, reinterpret_cast<uint64_t>(layout_.reservations_active));
    cmp(dword[rdx], 0);
    jne(side_exit, T_NEAR);
    Xbyak::Label unwatched;
    mov(edx, eax);
    shr(edx, kPageShift);
    mov(esi, edx);
    sub(esi, dword[rbx + layout_.watch_first_page]);
    mov(edi, dword[rbx + layout_.watch_last_page]);
    sub(edi, dword[rbx + layout_.watch_first_page]);
    cmp(esi, edi);
    ja(unwatched, T_NEAR);
    cmp(edx, dword[rbx + layout_.tohost_page]);
    je(side_exit, T_NEAR);
    mov(esi, edx);
    shr(esi, 6);
    mov(rdi, reinterpret_cast<uint64_t>(layout_.code_pages));
    mov(rdi, qword[rdi + rsi * 8]);
    bt(rdi, rdx);  // the bit index is taken modulo 64
    jc(side_exit, T_NEAR);
    L(unwatched);
    mov(rdx, qword[rbx + (window + offsetof(DirectRegion, host))]);
    mov(esi, x_reg(d.rs2));
    switch (d.op) {
      case Op::kSb: mov(byte[rdx + rcx], sil); break;
      case Op::kSh: mov(word[rdx + rcx], si); break;
      default: mov(dword[rdx + rcx], esi); break;
    }
    mov(edx, dword[rbx + (window + offsetof(DirectRegion, write_cycles))]);
    add(r12, rdx);
  }

  const TranslatorLayout& layout_;
  const Translator::DirectEntry* direct_;
  const uint8_t* enter_ = nullptr;
  Xbyak::Label leave_;
};

}  // namespace

struct Translator::CodeBuffer {
  CodeBuffer(const TranslatorLayout& layout, const DirectEntry* direct) {
    // Mapped with a huge page's slack so the buffer can start on a huge page boundary: the
    // blocks' code (megabytes in a GC-heavy run, touched once per command) then takes a few TLB
    // entries instead of one per 4 KiB. The kernel may decline the advice; nothing depends on it.
    void* memory = mmap(nullptr, kCodeBytes + kHugePageBytes, PROT_READ | PROT_WRITE | PROT_EXEC,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      throw std::runtime_error("translator: cannot map memory for generated code");
    }
    mapping = static_cast<uint8_t*>(memory);
    const uintptr_t start = reinterpret_cast<uintptr_t>(mapping);
    base = mapping + ((kHugePageBytes - start % kHugePageBytes) % kHugePageBytes);
    madvise(base, kCodeBytes, MADV_HUGEPAGE);
    emitter = std::make_unique<BlockEmitter>(base, kCodeBytes, layout, direct);
    emitter->emit_stubs();
    stubs_size = emitter->getSize();
  }
  ~CodeBuffer() {
    emitter.reset();
    munmap(mapping, kCodeBytes + kHugePageBytes);
  }
  bool nearly_full() const { return emitter->getSize() + kBlockCodeReserve > kCodeBytes; }
  // Forgets every block; the stubs at the start stay.
  void reset() { emitter->setSize(stubs_size); }

  uint8_t* mapping = nullptr;  // the whole mapping
  uint8_t* base = nullptr;     // the buffer in it
  std::unique_ptr<BlockEmitter> emitter;
  size_t stubs_size = 0;
};

bool Translator::available() { return true; }

#else  // not x86-64: no code generator; State never asks for blocks.

struct Translator::CodeBuffer {
  CodeBuffer(const TranslatorLayout&, const DirectEntry*) {}
  bool nearly_full() const { return false; }
  void reset() {}
};

bool Translator::available() { return false; }

#endif

Translator::Translator(const TranslatorLayout& layout)
    : layout_(layout),
      direct_(kDirectEntries),
      code_(std::make_unique<CodeBuffer>(layout_, direct_.data())) {}

Translator::~Translator() = default;

const TranslatedBlock& Translator::find_or_translate(uint32_t pc, Fetch fetch, void* context) {
  auto found = blocks_.find(pc);
  if (found == blocks_.end()) {
    if (code_->nearly_full()) flush();
    // The straight-line run from pc within its page, up to its first control transfer.
    std::vector<Instruction> instructions;
    uint32_t interpreter_cycles = 1;
    const uint32_t page = pc >> kPageShift;
    uint32_t addr = pc;
    while (instructions.size() < kMaxBlockInstructions) {
      uint32_t bits = 0;
      if ((addr >> kPageShift) != page || !fetch(context, addr, bits)) break;
      const DecodedInstruction decoded = decode_instruction(bits);
      if (((addr + decoded.length - 1) >> kPageShift) != page) break;
      const Kind kind = kind_of(decoded);
      if (kind == Kind::kInterpreter) {
        if (instructions.empty() && is_float(decoded.op)) interpreter_cycles = kFloatRunCycles;
        break;
      }
      const uint8_t op_byte =
          static_cast<uint8_t>(static_cast<uint8_t>(decoded.op) | (decoded.length == 4 ? kWideOp : 0));
      instructions.push_back(Instruction{decoded, bits, addr, layout_.op_costs[op_byte]});
      addr += decoded.length;
      if (kind == Kind::kEndsBlock || kind == Kind::kInterpreterEndsBlock) break;
    }
    auto block = std::make_unique<TranslatedBlock>();
    block->pc = pc;
    block->end = addr;
    block->instructions = static_cast<uint32_t>(instructions.size());
    block->interpreter_cycles = interpreter_cycles;
    for (const Instruction& instruction : instructions) {
      block->static_cost += instruction.cost;
      if (is_load(instruction.decoded.op) || is_store(instruction.decoded.op)) {
        ++block->memory_accesses;
      }
    }
#if defined(__x86_64__)
    if (!instructions.empty()) {
      block->body = code_->emitter->emit(instructions);
    }
#endif
    blocks_by_page_[page].push_back(pc);
    found = blocks_.emplace(pc, std::move(block)).first;
  }
  direct_[(pc >> 1) & (kDirectEntries - 1)] = DirectEntry{pc, found->second.get()};
  return *found->second;
}

uint32_t Translator::run(void* state, const TranslatedBlock& block) {
#if defined(__x86_64__)
  return code_->emitter->enter()(state, block.body);
#else
  (void)state;
  (void)block;
  throw std::logic_error("translator: no code generator on this host");
#endif
}

void Translator::drop(uint32_t pc) {
  DirectEntry& entry = direct_[(pc >> 1) & (kDirectEntries - 1)];
  if (entry.pc == pc) entry = DirectEntry{};
  blocks_.erase(pc);
}

void Translator::invalidate(uint32_t addr, uint32_t len) {
  // Blocks never cross pages, so only the pages of the stored bytes matter (a store may wrap
  // past the top of the address space).
  constexpr uint64_t kPageMask = (uint64_t{1} << kPageShift) - 1;
  const uint64_t last_byte = uint64_t{addr} + len - 1;
  for (uint64_t first = addr; first <= last_byte; first = (first | kPageMask) + 1) {
    const auto low = static_cast<uint32_t>(first);  // the stored bytes in this page: low..high
    const auto high = static_cast<uint32_t>(std::min(last_byte, first | kPageMask));
    auto found = blocks_by_page_.find(low >> kPageShift);
    if (found == blocks_by_page_.end()) continue;
    std::vector<uint32_t>& starts = found->second;
    starts.erase(std::remove_if(starts.begin(), starts.end(),
                                [&](uint32_t start) {
                                  const TranslatedBlock& block = *blocks_.at(start);
                                  const uint64_t end = uint64_t{start} + (block.end - start);
                                  const bool overlaps = start <= high && low < end;
                                  if (overlaps) drop(start);
                                  return overlaps;
                                }),
                 starts.end());
  }
}

void Translator::flush() {
  blocks_.clear();
  blocks_by_page_.clear();
  std::fill(direct_.begin(), direct_.end(), DirectEntry{});
  code_->reset();
}

}  // namespace ssdvp::cpu
