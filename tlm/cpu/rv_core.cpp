#include "tlm/cpu/rv_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "tlm/cpu/rv_arith.h"
#include "tlm/cpu/rv_csr.h"
#include "tlm/cpu/rv_decode_cache.h"
#include "tlm/cpu/rv_decoder.h"
#include "tlm/cpu/rv_disasm.h"
#include "tlm/cpu/rv_reservations.h"
#include "tlm/cpu/rv_softfloat.h"
#include "tlm/cpu/rv_translator.h"

namespace ssdvp::cpu {
namespace {

// Exception causes (mcause with the interrupt bit clear).
enum ExceptionCause : uint32_t {
  kInstructionAccessFault = 1,
  kIllegalInstruction = 2,
  kBreakpoint = 3,
  kLoadAddressMisaligned = 4,
  kLoadAccessFault = 5,
  kStoreAddressMisaligned = 6,
  kStoreAccessFault = 7,
  kEcallFromMachine = 11,
};

constexpr unsigned kMaxDirectRegions = 8;
constexpr uint32_t kFloatSignBit = 0x80000000u;

// The slot a new entry of a region table takes: the next free one, else the next in turn.
unsigned take_slot(unsigned& count, unsigned& next_victim) {
  if (count < kMaxDirectRegions) return count++;
  const unsigned index = next_victim;
  next_victim = (next_victim + 1) % kMaxDirectRegions;
  return index;
}

uint32_t mask_of(uint32_t len) { return len == 4 ? ~0u : (1u << (8 * len)) - 1; }

// Largest naturally aligned piece (4, 2 or 1 bytes) that starts at addr and fits in remaining.
uint32_t piece_length(uint32_t addr, uint32_t remaining) {
  if ((addr & 3) == 0 && remaining >= 4) return 4;
  if ((addr & 1) == 0 && remaining >= 2) return 2;
  return 1;
}

uint32_t class_cost(CostClass cost_class, const InstructionCosts& costs) {
  switch (cost_class) {
    case CostClass::kAlu: return costs.alu;
    case CostClass::kBranch: return costs.branch_not_taken;
    case CostClass::kJump: return costs.jump;
    case CostClass::kLoad: return costs.load;
    case CostClass::kStore: return costs.store;
    case CostClass::kMul: return costs.mul;
    case CostClass::kDiv: return costs.div;
    case CostClass::kCsr: return costs.csr;
    case CostClass::kAtomic: return costs.atomic;
    case CostClass::kFence: return costs.fence;
    case CostClass::kFpu: return costs.fpu;
    case CostClass::kFdiv: return costs.fdiv;
    case CostClass::kFsqrt: return costs.fsqrt;
    case CostClass::kFma: return costs.fma;
    case CostClass::kTrapReturn: return costs.trap;
    case CostClass::kTrapOnly: return 0;
  }
  return 0;
}

// Cost of each slot op byte; an undecoded slot costs nothing (the fill does not retire).
std::array<uint32_t, 256> make_op_costs(const InstructionCosts& costs) {
  std::array<uint32_t, 256> table{};
  for (unsigned op_byte = 0; op_byte < table.size(); ++op_byte) {
    const unsigned op = op_byte & ~unsigned{kWideOp};
    if (op == static_cast<unsigned>(Op::kNotDecoded) || op >= static_cast<unsigned>(Op::kCount)) {
      continue;
    }
    table[op_byte] = class_cost(cost_class_of(static_cast<Op>(op)), costs);
  }
  return table;
}


}  // namespace

struct Core::State {
  State(uint32_t hart, BusInterface& bus_, Reservations& reservations_,
        const InstructionCosts& costs_)
      : hart_id(hart),
        bus(bus_),
        reservations(reservations_),
        costs(costs_),
        branch_taken_extra(static_cast<uint64_t>(costs_.branch_taken) -
                           static_cast<uint64_t>(costs_.branch_not_taken)),
        op_costs(make_op_costs(costs_)),
        csrs(hart) {
    if (Translator::available()) translator = std::make_unique<Translator>(translator_layout());
  }

  // ---- configuration ----
  const uint32_t hart_id;
  BusInterface& bus;
  Reservations& reservations;
  const InstructionCosts costs;
  const uint64_t branch_taken_extra;  // added to a taken branch's not-taken cost (mod 2^64)
  const std::array<uint32_t, 256> op_costs;  // class cost by slot op byte (either length)

  // ---- architectural state ----
  std::array<uint32_t, kSinkRegister + 1> x{};
  std::array<uint32_t, 32> f{};  // binary32 bit patterns
  uint32_t pc = 0;
  CsrFile csrs;
  bool in_trap = false;  // between a trap entry and mret (traps nest, as the spec allows)
  TrapRecord last_trap;
  // The last exception taken and the retired count then: the same exception at the same pc
  // with nothing retired since is a trap loop (the architectural state is then the same).
  uint32_t loop_cause = 0;
  uint32_t loop_pc = 0;
  uint64_t loop_retired = ~uint64_t{0};

  // ---- counters (cycles() and instret() are these; mcycle/minstret add the CSR offsets) ----
  uint64_t cycle = 0;
  uint64_t retired = 0;
  uint64_t sleep = 0;
  uint64_t loads = 0;
  uint64_t stores = 0;

  // ---- run control ----
  // The inner loop runs while cycle < cycle_limit, on a copy it reloads after slow code; 0 ends
  // it early.
  uint64_t cycle_limit = 0;
  bool interrupt_check = false;  // an interrupt may have become takeable inside the batch
  StopReason stop = StopReason::kBudget;

  // ---- memory ----
  std::array<DirectRegion, kMaxDirectRegions> regions{};
  unsigned region_count = 0;
  unsigned next_region_victim = 0;
  // Copies of the regions the last direct load and store used: one range test on the fast path.
  // Only regions with 4-aligned base and size qualify, so an aligned access in range fits.
  DirectRegion read_window;
  DirectRegion write_window;
  // The read window before the last refill: translated loads try it second, since firmware
  // alternates between two regions (ROM constants and SRAM data) and would miss one each time.
  DirectRegion previous_read_window;
  uint32_t window_latency_max = 0;  // the largest of their latencies (translated blocks' bound)
  // Ranges the bus refused direct access to (peripherals): every MMIO access would otherwise ask
  // the bus again.
  std::array<DirectRegion, kMaxDirectRegions> refused{};
  unsigned refused_count = 0;
  unsigned next_refused_victim = 0;
  DecodeCache decode_cache;
  uint32_t current_page = DecodeCache::kNoPage;  // one-entry cache in front of decode_cache
  CachedInstruction* current_slots = nullptr;
  // Pages a store may have to act on (decoded code, the tohost page) lie within these bounds; a
  // store outside them skips the exact test. Empty while first > last.
  uint32_t watch_first_page = DecodeCache::kNoPage;
  uint32_t watch_last_page = 0;

  // ---- tohost ----
  uint32_t tohost_address = 0;
  uint32_t tohost_page = DecodeCache::kNoPage;
  bool tohost_written = false;
  uint32_t tohost_value = 0;

  // ---- slow-mode hooks ----
  std::ostream* trace = nullptr;
  uint32_t profile_base = 0;
  uint32_t profile_size = 0;
  std::vector<uint64_t> profile;

  // ---- translating back end (null where the host has none) ----
  std::unique_ptr<Translator> translator;
  bool translate = true;

  template <bool kHooks>
  void execute();
  // The batch on translated blocks, with the interpreter for what they leave out.
  void execute_translated();
  TranslatorLayout translator_layout() const;
  static bool fetch_for_translator(void* state, uint32_t addr, uint32_t& bits);
  static void run_for_translator(void* state, uint64_t slot_bits);

  // Regions
  const DirectRegion* find_region(uint32_t addr, uint32_t len, bool DirectRegion::*permission) {
    for (unsigned i = 0; i < region_count; ++i) {
      const DirectRegion& region = regions[i];
      if (region.*permission && region.contains(addr, len)) return &region;
    }
    return nullptr;
  }
  // Points `window` at the region of an aligned access that missed it, when the region can serve
  // as a window; misaligned accesses leave it alone.
  void refill_window(DirectRegion& window, uint32_t addr, uint32_t len,
                     bool DirectRegion::*permission) {
    if ((addr & (len - 1)) != 0) return;
    const DirectRegion* region = find_region(addr, len, permission);
    if (region != nullptr && ((region->base | region->size) & 3u) == 0) {
      if (&window == &read_window) previous_read_window = read_window;
      window = *region;
      window_latency_max = std::max({read_window.read_cycles, previous_read_window.read_cycles,
                                     write_window.write_cycles});
    }
  }
  void clear_windows() {
    read_window = DirectRegion{};
    previous_read_window = DirectRegion{};
    write_window = DirectRegion{};
    window_latency_max = 0;
  }
  const DirectRegion* find_or_request_region(uint32_t addr, uint32_t len,
                                             bool DirectRegion::*permission);

  // Memory paths. They do not trap: the caller raises the exception it needs.
  bool fetch_halfword(uint32_t addr, uint32_t& value);
  // The instruction at addr; on failure fault_addr is the halfword that could not be fetched.
  bool fetch_bits(uint32_t addr, uint32_t& bits, uint32_t& fault_addr);
  bool read_slow(uint32_t addr, uint32_t len, uint32_t& value);
  bool write_slow(uint32_t addr, uint32_t len, uint32_t value);
  bool read_piece(uint32_t addr, uint32_t len, uint32_t& value);
  bool write_piece(uint32_t addr, uint32_t len, uint32_t value);
  bool write_data(uint32_t addr, uint32_t len, uint32_t value);
  // The loop's loads and stores that its windows do not cover; they raise the access fault.
  std::optional<uint32_t> read_for_load(uint32_t addr, uint32_t len);
  bool write_for_store(uint32_t addr, uint32_t len, uint32_t value);
  void after_store(uint32_t addr, uint32_t len, uint32_t value);
  bool store_watched(uint32_t addr, uint32_t len) const {
    const uint32_t first = DecodeCache::page_of(addr);
    const uint32_t last = DecodeCache::page_of(addr + len - 1);
    if (last < watch_first_page || first > watch_last_page) return false;
    return store_hits_watched_page(first, last);
  }
  // store_watched for an aligned store, which stays within one page.
  bool aligned_store_watched(uint32_t addr) const {
    const uint32_t page = DecodeCache::page_of(addr);
    if (page - watch_first_page > watch_last_page - watch_first_page) return false;
    return store_hits_watched_page(page, page);
  }
  __attribute__((noinline)) bool store_hits_watched_page(uint32_t first, uint32_t last) const {
    return decode_cache.holds_code(first) || decode_cache.holds_code(last) ||
           first == tohost_page || last == tohost_page;
  }
  void watch_page(uint32_t page) {
    watch_first_page = std::min(watch_first_page, page);
    watch_last_page = std::max(watch_last_page, page);
  }
  // Marks the pages of the instruction at addr as code, so stores into them act on it.
  void watch_code(uint32_t addr, uint32_t length) {
    const uint32_t first_page = DecodeCache::page_of(addr);
    const uint32_t last_page = DecodeCache::page_of(addr + length - 1);
    decode_cache.mark_code(first_page);
    decode_cache.mark_code(last_page);
    watch_page(first_page);
    watch_page(last_page);
  }

  // Decode cache
  // Decodes the instruction at addr into its slot; raises the fetch fault instead if it has none.
  bool fill_slot(uint32_t addr);
  void flush_decode_cache() {
    decode_cache.flush();
    if (translator) translator->flush();
    current_page = DecodeCache::kNoPage;
    current_slots = nullptr;
    watch_first_page = DecodeCache::kNoPage;
    watch_last_page = 0;
    if (tohost_page != DecodeCache::kNoPage) watch_page(tohost_page);
  }

  // Traps and the slow instructions (they work on the members: the loop syncs around them).
  void raise_exception(uint32_t cause, uint32_t tval);
  // Illegal instruction found at execution (not at decode): mtval gets the bits at pc.
  void raise_illegal_instruction();
  void take_pending_interrupt();
  void request_interrupt_check() {
    if (csrs.interrupt_to_take() >= 0) {
      interrupt_check = true;
      cycle_limit = 0;
    }
  }
  void execute_csr(CachedInstruction e);
  void execute_atomic(CachedInstruction e);
  // The F computational instructions; false when they are illegal (FS off, frm invalid). By
  // value, as the other slow paths: a reference would force the loop's copy into memory.
  bool execute_float(CachedInstruction e);
  void execute_mret();
  void after_instruction(uint32_t start_pc, uint64_t start_cycle, uint64_t start_retired);
  CsrFile::Counters counters() const { return {cycle, retired}; }
};

// ---------------------------------------------------------------------------------------------
// Memory

const DirectRegion* Core::State::find_or_request_region(uint32_t addr, uint32_t len,
                                                        bool DirectRegion::*permission) {
  if (const DirectRegion* region = find_region(addr, len, permission)) return region;
  for (unsigned i = 0; i < refused_count; ++i) {
    if (refused[i].contains(addr, 1)) return nullptr;
  }
  const DirectRegion offered = bus.direct_region(addr);
  if (offered.host == nullptr && offered.contains(addr, 1)) {
    refused[take_slot(refused_count, next_refused_victim)] = offered;
    return nullptr;
  }
  if (offered.size == 0 || offered.host == nullptr || !offered.contains(addr, 1)) return nullptr;
  unsigned index = region_count;
  for (unsigned i = 0; i < region_count; ++i) {
    if (regions[i].base == offered.base) index = i;  // refresh a grant that changed
  }
  if (index == region_count) index = take_slot(region_count, next_region_victim);
  regions[index] = offered;
  clear_windows();  // a window may copy the region just replaced
  const DirectRegion& region = regions[index];
  return (region.*permission && region.contains(addr, len)) ? &region : nullptr;
}

bool Core::State::fetch_halfword(uint32_t addr, uint32_t& value) {
  const DirectRegion* region = find_or_request_region(addr, 2, &DirectRegion::executable);
  if (region == nullptr) return false;
  uint16_t halfword;
  std::memcpy(&halfword, region->host + (addr - region->base), 2);
  value = halfword;
  return true;
}

bool Core::State::fetch_bits(uint32_t addr, uint32_t& bits, uint32_t& fault_addr) {
  uint32_t low = 0;
  if (!fetch_halfword(addr, low)) {
    fault_addr = addr;
    return false;
  }
  bits = low;
  if (instruction_length(low) == 2) return true;
  uint32_t high = 0;
  if (!fetch_halfword(addr + 2, high)) {
    fault_addr = addr + 2;
    return false;
  }
  bits |= high << 16;
  return true;
}

bool Core::State::read_piece(uint32_t addr, uint32_t len, uint32_t& value) {
  if (const DirectRegion* region = find_or_request_region(addr, len, &DirectRegion::readable)) {
    value = 0;
    std::memcpy(&value, region->host + (addr - region->base), len);
    cycle += region->read_cycles;
    return true;
  }
  value = 0;
  uint64_t extra_cycles = 0;
  const bool ok = bus.read(addr, &value, len, extra_cycles);
  cycle += extra_cycles;
  return ok;
}

bool Core::State::write_piece(uint32_t addr, uint32_t len, uint32_t value) {
  if (const DirectRegion* region = find_or_request_region(addr, len, &DirectRegion::writable)) {
    std::memcpy(region->host + (addr - region->base), &value, len);
    cycle += region->write_cycles;
    return true;
  }
  uint64_t extra_cycles = 0;
  const bool ok = bus.write(addr, &value, len, extra_cycles);
  cycle += extra_cycles;
  return ok;
}

// A misaligned access inside one direct region is one host copy; elsewhere it is split into
// aligned pieces for the bus. Either way it costs costs.misaligned for the extra access.
bool Core::State::read_slow(uint32_t addr, uint32_t len, uint32_t& value) {
  if ((addr & (len - 1)) == 0) return read_piece(addr, len, value);
  cycle += costs.misaligned;
  if (const DirectRegion* region = find_or_request_region(addr, len, &DirectRegion::readable)) {
    value = 0;
    std::memcpy(&value, region->host + (addr - region->base), len);
    cycle += region->read_cycles;
    return true;
  }
  value = 0;
  for (uint32_t done = 0; done < len;) {
    const uint32_t piece = piece_length(addr + done, len - done);
    uint32_t part = 0;
    if (!read_piece(addr + done, piece, part)) return false;
    value |= (part & mask_of(piece)) << (8 * done);
    done += piece;
  }
  return true;
}

bool Core::State::write_slow(uint32_t addr, uint32_t len, uint32_t value) {
  if ((addr & (len - 1)) == 0) return write_piece(addr, len, value);
  cycle += costs.misaligned;
  if (const DirectRegion* region = find_or_request_region(addr, len, &DirectRegion::writable)) {
    std::memcpy(region->host + (addr - region->base), &value, len);
    cycle += region->write_cycles;
    return true;
  }
  for (uint32_t done = 0; done < len;) {
    const uint32_t piece = piece_length(addr + done, len - done);
    if (!write_piece(addr + done, piece, (value >> (8 * done)) & mask_of(piece))) return false;
    done += piece;
  }
  return true;
}

// A store from the slow instructions (atomics); the inner loop inlines its own fast path.
bool Core::State::write_data(uint32_t addr, uint32_t len, uint32_t value) {
  if (!write_slow(addr, len, value)) return false;
  reservations.on_store(hart_id, addr, len);
  if (store_watched(addr, len)) after_store(addr, len, value);
  return true;
}

std::optional<uint32_t> Core::State::read_for_load(uint32_t addr, uint32_t len) {
  refill_window(read_window, addr, len, &DirectRegion::readable);
  uint32_t value = 0;
  if (!read_slow(addr, len, value)) {
    raise_exception(kLoadAccessFault, addr);
    return std::nullopt;
  }
  ++loads;
  return value;
}

bool Core::State::write_for_store(uint32_t addr, uint32_t len, uint32_t value) {
  refill_window(write_window, addr, len, &DirectRegion::writable);
  if (!write_data(addr, len, value)) {
    raise_exception(kStoreAccessFault, addr);
    return false;
  }
  ++stores;
  return true;
}

// A store into a page holding decoded code, or into the tohost page.
void Core::State::after_store(uint32_t addr, uint32_t len, uint32_t value) {
  decode_cache.invalidate(addr, len);
  if (translator) translator->invalidate(addr, len);
  if (addr == tohost_address && tohost_page != DecodeCache::kNoPage && len == 4 && value != 0) {
    tohost_written = true;
    tohost_value = value;
    stop = StopReason::kHalt;
    cycle_limit = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Decode cache

bool Core::State::fill_slot(uint32_t addr) {
  uint32_t bits = 0;
  uint32_t fault_addr = 0;
  if (!fetch_bits(addr, bits, fault_addr)) {
    raise_exception(kInstructionAccessFault, fault_addr);
    return false;
  }
  const DecodedInstruction decoded = decode_instruction(bits);
  const CachedInstruction filled = make_slot(decoded, bits);
  // Looked up again: asking the bus for a region may have flushed the cache.
  decode_cache.page_slots(DecodeCache::page_of(addr))[DecodeCache::slot_of(addr)] = filled;
  watch_code(addr, decoded.length);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Traps

// The privileged spec takes an exception whenever one occurs, inside a handler too (it
// overwrites mepc, mcause, mtval and mstatus like any other); environments that probe CSRs with
// mtvec past the access rely on it. Only a hart that can never go on is stopped.
void Core::State::raise_exception(uint32_t cause, uint32_t tval) {
  --retired;  // the excepting instruction does not retire
  last_trap = TrapRecord{cause, pc, tval};
  if (cause == loop_cause && pc == loop_pc && retired == loop_retired) {
    // Nothing else changes, so the platform reports the hart exactly as it faulted.
    stop = StopReason::kTrapLoop;
    cycle_limit = 0;
    return;
  }
  loop_cause = cause;
  loop_pc = pc;
  loop_retired = retired;
  cycle += costs.trap;
  pc = csrs.enter_trap(cause, pc, tval);
  in_trap = true;
}

void Core::State::raise_illegal_instruction() {
  uint32_t bits = 0;
  uint32_t unused_fault = 0;
  fetch_bits(pc, bits, unused_fault);  // it was just executed, so it can be fetched
  raise_exception(kIllegalInstruction, bits);
}

void Core::State::take_pending_interrupt() {
  const int cause = csrs.interrupt_to_take();
  if (cause < 0) return;
  const uint32_t mcause = csr::kInterruptFlag | static_cast<uint32_t>(cause);
  last_trap = TrapRecord{mcause, pc, 0};
  cycle += costs.trap;
  pc = csrs.enter_trap(mcause, pc, 0);
  in_trap = true;
}

void Core::State::execute_mret() {
  pc = csrs.return_from_trap();
  in_trap = false;
  request_interrupt_check();
}

// Counters as CSR reads see them: before this instruction's cost and retirement.
void Core::State::execute_csr(CachedInstruction e) {
  const uint32_t address = static_cast<uint32_t>(e.imm);
  const Op op = e.op();
  const bool immediate = op == Op::kCsrrwi || op == Op::kCsrrsi || op == Op::kCsrrci;
  const uint32_t operand = immediate ? e.rs1 : x[e.rs1];
  const CsrFile::Counters before{cycle - op_costs[e.op_byte], retired - 1};
  uint32_t old_value = 0;
  bool ok = csrs.read(address, before, old_value);
  if (ok) {
    // csrrs/csrrc with x0 (or uimm 0) do not write, so they may read a read-only CSR.
    switch (op) {
      case Op::kCsrrw: case Op::kCsrrwi:
        ok = csrs.write(address, operand, counters());
        break;
      case Op::kCsrrs: case Op::kCsrrsi:
        if (e.rs1 != 0) ok = csrs.write(address, old_value | operand, counters());
        break;
      default:
        if (e.rs1 != 0) ok = csrs.write(address, old_value & ~operand, counters());
        break;
    }
  }
  if (!ok) return raise_illegal_instruction();
  x[e.rd] = old_value;
  pc += e.length();
  if (address == csr::kMstatus || address == csr::kMie) request_interrupt_check();
}

void Core::State::execute_atomic(CachedInstruction e) {
  const uint32_t addr = x[e.rs1];
  uint32_t old_value = 0;
  const Op op = e.op();
  if (op == Op::kLrW) {
    if (addr & 3) return raise_exception(kLoadAddressMisaligned, addr);
    if (!read_slow(addr, 4, old_value)) return raise_exception(kLoadAccessFault, addr);
    ++loads;
    reservations.reserve(hart_id, addr);
    x[e.rd] = old_value;
    pc += e.length();
    return;
  }
  if (addr & 3) return raise_exception(kStoreAddressMisaligned, addr);
  if (op == Op::kScW) {
    uint32_t failed = 1;
    if (reservations.take(hart_id, addr)) {
      if (!write_data(addr, 4, x[e.rs2])) return raise_exception(kStoreAccessFault, addr);
      ++stores;
      failed = 0;
    }
    x[e.rd] = failed;
    pc += e.length();
    return;
  }
  if (!read_slow(addr, 4, old_value)) return raise_exception(kStoreAccessFault, addr);
  const uint32_t operand = x[e.rs2];
  const auto signed_old = static_cast<int32_t>(old_value);
  const auto signed_operand = static_cast<int32_t>(operand);
  uint32_t result = 0;
  switch (op) {
    case Op::kAmoswapW: result = operand; break;
    case Op::kAmoaddW: result = old_value + operand; break;
    case Op::kAmoxorW: result = old_value ^ operand; break;
    case Op::kAmoandW: result = old_value & operand; break;
    case Op::kAmoorW: result = old_value | operand; break;
    case Op::kAmominW: result = signed_old < signed_operand ? old_value : operand; break;
    case Op::kAmomaxW: result = signed_old > signed_operand ? old_value : operand; break;
    case Op::kAmominuW: result = old_value < operand ? old_value : operand; break;
    default: result = old_value > operand ? old_value : operand; break;  // kAmomaxuW
  }
  if (!write_data(addr, 4, result)) return raise_exception(kStoreAccessFault, addr);
  ++loads;
  ++stores;
  x[e.rd] = old_value;
  pc += e.length();
}

bool Core::State::execute_float(CachedInstruction e) {
  if (!csrs.fpu_enabled()) return false;
  const uint32_t mode = e.rm() == kDynamicRounding ? csrs.frm() : e.rm();
  if (mode > static_cast<uint32_t>(softfloat::Rounding::kNearestMaxMagnitude)) return false;
  const auto rm = static_cast<softfloat::Rounding>(mode);
  const uint32_t a = f[e.rs1];
  const uint32_t b = f[e.rs2];
  uint32_t flags = 0;
  auto write_fd = [&](uint32_t value) {
    f[e.rd] = value;
    csrs.mark_fpu_dirty();
  };
  switch (e.op()) {
    case Op::kFaddS: write_fd(softfloat::add(a, b, rm, flags)); break;
    case Op::kFsubS: write_fd(softfloat::sub(a, b, rm, flags)); break;
    case Op::kFmulS: write_fd(softfloat::mul(a, b, rm, flags)); break;
    case Op::kFdivS: write_fd(softfloat::div(a, b, rm, flags)); break;
    case Op::kFsqrtS: write_fd(softfloat::sqrt(a, rm, flags)); break;
    // Negating an operand is exact, and a NaN stays a NaN of the same kind.
    case Op::kFmaddS: write_fd(softfloat::fma(a, b, f[e.rs3()], rm, flags)); break;
    case Op::kFmsubS: write_fd(softfloat::fma(a, b, f[e.rs3()] ^ kFloatSignBit, rm, flags)); break;
    case Op::kFnmsubS: write_fd(softfloat::fma(a ^ kFloatSignBit, b, f[e.rs3()], rm, flags)); break;
    case Op::kFnmaddS:
      write_fd(softfloat::fma(a ^ kFloatSignBit, b, f[e.rs3()] ^ kFloatSignBit, rm, flags));
      break;
    case Op::kFsgnjS: write_fd((a & ~kFloatSignBit) | (b & kFloatSignBit)); break;
    case Op::kFsgnjnS: write_fd((a & ~kFloatSignBit) | (~b & kFloatSignBit)); break;
    case Op::kFsgnjxS: write_fd(a ^ (b & kFloatSignBit)); break;
    case Op::kFminS: write_fd(softfloat::min(a, b, flags)); break;
    case Op::kFmaxS: write_fd(softfloat::max(a, b, flags)); break;
    case Op::kFcvtWS: x[e.rd] = static_cast<uint32_t>(softfloat::to_int32(a, rm, flags)); break;
    case Op::kFcvtWuS: x[e.rd] = softfloat::to_uint32(a, rm, flags); break;
    case Op::kFcvtSW:
      write_fd(softfloat::from_int32(static_cast<int32_t>(x[e.rs1]), rm, flags));
      break;
    case Op::kFcvtSWu: write_fd(softfloat::from_uint32(x[e.rs1], rm, flags)); break;
    case Op::kFmvXW: x[e.rd] = a; break;
    case Op::kFmvWX: write_fd(x[e.rs1]); break;
    case Op::kFeqS: x[e.rd] = softfloat::eq(a, b, flags); break;
    case Op::kFltS: x[e.rd] = softfloat::lt(a, b, flags); break;
    case Op::kFleS: x[e.rd] = softfloat::le(a, b, flags); break;
    case Op::kFclassS: x[e.rd] = softfloat::classify(a); break;
    default: return false;  // not an F computational instruction: never dispatched here
  }
  if (flags != 0) csrs.accrue_fflags(flags);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Translated blocks

TranslatorLayout Core::State::translator_layout() const {
  const auto offset = [this](const void* member) {
    return static_cast<size_t>(static_cast<const char*>(member) -
                               reinterpret_cast<const char*>(this));
  };
  TranslatorLayout layout;
  layout.x = offset(x.data());
  layout.pc = offset(&pc);
  layout.cycle = offset(&cycle);
  layout.retired = offset(&retired);
  layout.loads = offset(&loads);
  layout.stores = offset(&stores);
  layout.read_window = offset(&read_window);
  layout.write_window = offset(&write_window);
  layout.previous_read_window = offset(&previous_read_window);
  layout.watch_first_page = offset(&watch_first_page);
  layout.watch_last_page = offset(&watch_last_page);
  layout.tohost_page = offset(&tohost_page);
  layout.cycle_limit = offset(&cycle_limit);
  layout.window_latency_max = offset(&window_latency_max);
  layout.reservations_active = &reservations.active_harts();
  layout.code_pages = decode_cache.code_page_bits();
  layout.op_costs = op_costs.data();
  const CsrFile::FieldOffsets csr_fields = CsrFile::field_offsets();
  const size_t csr_base = offset(&csrs);
  layout.mip = csr_base + csr_fields.mip;
  layout.mie = csr_base + csr_fields.mie;
  layout.cycle_offset = csr_base + csr_fields.cycle_offset;
  layout.instret_offset = csr_base + csr_fields.instret_offset;
  layout.job_kind = csr_base + csr_fields.job_kind;
  layout.job_kind_since = csr_base + csr_fields.job_kind_since;
  layout.job_kind_cycles = csr_base + csr_fields.job_kind_cycles;
  layout.hart_id = hart_id;
  layout.run_instruction = &State::run_for_translator;
  layout.branch_taken_extra = branch_taken_extra;
  return layout;
}

// Fetches for the translator; the page becomes watched code, so stores into it drop its blocks.
bool Core::State::fetch_for_translator(void* state, uint32_t addr, uint32_t& bits) {
  State& s = *static_cast<State*>(state);
  uint32_t unused_fault = 0;
  if (!s.fetch_bits(addr, bits, unused_fault)) return false;
  s.watch_code(addr, instruction_length(bits));
  return true;
}

// The instructions that end a translated block on the interpreter's code, as its handlers run them.
void Core::State::run_for_translator(void* state, uint64_t slot_bits) {
  State& s = *static_cast<State*>(state);
  CachedInstruction e;
  static_assert(std::is_trivially_copyable_v<CachedInstruction>, "a slot travels as its bytes");
  std::memcpy(static_cast<void*>(&e), &slot_bits, sizeof(e));
  const Op op = e.op();
  if (is_float_computational(op)) {
    if (s.execute_float(e)) {
      s.pc += e.length();
    } else {
      s.raise_illegal_instruction();
    }
  } else if (op >= Op::kLrW && op <= Op::kAmomaxuW) {
    s.execute_atomic(e);
  } else {
    s.execute_csr(e);
  }
}

void Core::State::execute_translated() {
  const uint64_t end = cycle_limit;
  while (cycle < cycle_limit) {
    const TranslatedBlock& block = translator->block_at(pc, &State::fetch_for_translator, this);
    uint64_t span = block.interpreter_cycles;
    if (block.instructions != 0) {
      // A block runs only if it cannot reach the limit before its last instruction, so the batch
      // ends where the interpreter would end it.
      const uint64_t bound =
          block.static_cost + uint64_t{block.memory_accesses} * window_latency_max;
      if (bound < cycle_limit - cycle) {
        if (translator->run(this, block) == Translator::kNormalExit) continue;
        span = 1;  // a side exit: the interpreter runs that one instruction
      } else {
        span = end - cycle;  // the batch ends about here: the interpreter finishes it
      }
    }
    cycle_limit = std::min(end, cycle + span);
    execute<false>();
    if (cycle_limit == 0) return;  // slow code ended the batch
    cycle_limit = end;
  }
}

// ---------------------------------------------------------------------------------------------
// Hooks (slow mode only)

void Core::State::after_instruction(uint32_t start_pc, uint64_t start_cycle,
                                    uint64_t start_retired) {
  if (trace != nullptr && retired != start_retired) {
    uint32_t bits = 0;
    uint32_t unused_fault = 0;
    fetch_bits(start_pc, bits, unused_fault);
    const bool compressed = instruction_length(bits) == 2;
    *trace << fmt::format("{} {:>12} {:08x}: {:<8}  {}\n", hart_id, start_cycle, start_pc,
                          compressed ? fmt::format("{:04x}", bits & 0xFFFFu)
                                     : fmt::format("{:08x}", bits),
                          disassemble(bits, start_pc));
  }
  if (!profile.empty() && start_pc - profile_base < profile_size) {
    profile[(start_pc - profile_base) / 2] += cycle - start_cycle;
  }
}

// ---------------------------------------------------------------------------------------------
// The execution loop

// The loop's helpers must inline: a call would take the addresses of the loop's locals and keep
// them in memory.
#define SSDVP_INLINE __attribute__((always_inline))
// Threaded dispatch: every handler ends by retiring its instruction and jumping straight to the
// next one's handler (SSDVP_NEXT), so each handler has an indirect jump of its own for the host's
// branch predictor, and there is no loop head to return to. The handlers are labels; `handlers`
// maps each slot op byte to its label.
// The operands of the instruction at ip; each handler loads only those it uses.
#define SSDVP_OPERANDS                                   \
  const CachedInstruction& e = *ip;                      \
  [[maybe_unused]] const uint32_t& a = x[e.rs1];         \
  [[maybe_unused]] const uint32_t& b = x[e.rs2];
// Ends the batch once the budget is spent, else charges the class cost of the instruction at ip
// and jumps to its handler.
#define SSDVP_DISPATCH()                                 \
  do {                                                   \
    if (local_cycle >= local_cycle_limit) goto batch_end; \
    if constexpr (kHooks) {                              \
      start_pc = local_pc();                             \
      start_cycle = local_cycle;                         \
      start_retired = local_retired;                     \
    }                                                    \
    local_cycle += op_costs[ip->op_byte];                \
    goto* handlers[ip->op_byte];                         \
  } while (0)
// Retires the instruction a handler finished (a trap already took it back) and goes on.
#define SSDVP_NEXT()                                     \
  do {                                                   \
    if constexpr (kHooks) {                              \
      sync_out();                                        \
      after_instruction(start_pc, start_cycle, start_retired); \
    }                                                    \
    ++local_retired;                                     \
    SSDVP_DISPATCH();                                    \
  } while (0)
// The rare ops have one handler for both lengths and step by the slot's length bit.
#define SSDVP_ANY_LENGTH(OP) OP##_any
// The frequent ops have a handler per encoding length (the op byte's kWideOp bit), so the step
// to the next slot is the constant kStep in each and no register carries the length.
#define SSDVP_EACH_LENGTH(OP, ...)                       \
  OP##_narrow : {                                        \
    [[maybe_unused]] constexpr uint32_t kStep = 1;       \
    SSDVP_OPERANDS                                       \
    __VA_ARGS__                                          \
  }                                                      \
  SSDVP_NEXT();                                          \
  OP##_wide : {                                          \
    [[maybe_unused]] constexpr uint32_t kStep = 2;       \
    SSDVP_OPERANDS                                       \
    __VA_ARGS__                                          \
  }                                                      \
  SSDVP_NEXT();
// Registers the handlers of an op in `handlers`.
#define SSDVP_ON_EACH_LENGTH(OP)                                        \
  handlers[static_cast<uint8_t>(Op::OP)] = &&OP##_narrow;               \
  handlers[static_cast<uint8_t>(Op::OP) | kWideOp] = &&OP##_wide;
#define SSDVP_ON_ANY_LENGTH(OP)                                         \
  handlers[static_cast<uint8_t>(Op::OP)] = &&OP##_any;                  \
  handlers[static_cast<uint8_t>(Op::OP) | kWideOp] = &&OP##_any;

template <bool kHooks>
void Core::State::execute() {
  // ip is the slot of the instruction at pc in the decoded page at page_base. Straight-line code
  // and jumps within the page only move ip; running off the page's end lands on its guard slots,
  // which are never decoded, and a jump out of the page looks the target up.
  constexpr uint32_t kPageBytes = 1u << DecodeCache::kPageShift;
  uint32_t page_base = 0;
  const CachedInstruction* slots = nullptr;
  const CachedInstruction* ip = nullptr;
  uint64_t local_cycle = 0;
  uint64_t local_retired = 0;
  uint64_t local_cycle_limit = 0;
  auto local_pc = [&]() SSDVP_INLINE { return page_base + 2 * static_cast<uint32_t>(ip - slots); };
  auto enter = [&](uint32_t target) SSDVP_INLINE {
    const uint32_t page = DecodeCache::page_of(target);
    if (page != current_page) {
      current_page = page;
      current_slots = decode_cache.page_slots(page);
    }
    slots = current_slots;
    page_base = target & ~(kPageBytes - 1);
    ip = slots + DecodeCache::slot_of(target);
  };
  // Members are the truth while slow code runs (bus callbacks read cycles() and pc()). The loop
  // counts an instruction as retired when it ends; the members count the one in progress (a
  // trap takes it back).
  auto sync_out = [&]() SSDVP_INLINE {
    pc = local_pc();
    cycle = local_cycle;
    retired = local_retired + 1;
  };
  auto sync_in = [&]() SSDVP_INLINE {
    // Slow code may have trapped, flushed the decode cache or ended the batch.
    enter(pc);
    local_cycle = cycle;
    local_retired = retired - 1;
    local_cycle_limit = cycle_limit;
  };
  enter(pc);
  local_cycle = cycle;
  local_retired = retired;
  local_cycle_limit = cycle_limit;
  auto jump_by = [&](int32_t offset) SSDVP_INLINE {
    const uint32_t index = static_cast<uint32_t>(ip - slots) + static_cast<uint32_t>(offset >> 1);
    if (index < DecodeCache::kSlotsPerPage) {
      ip = slots + index;
    } else {
      enter(local_pc() + static_cast<uint32_t>(offset));
    }
  };
  auto write_rd = [&](const CachedInstruction& e, uint32_t step, uint32_t value) SSDVP_INLINE {
    x[e.rd] = value;
    ip += step;
  };
  // Loads len bytes at rs1 + imm and hands `finish` the destination register and the value,
  // zero-extended; a trap skips it. The slow path reads rd first: it may clear the slot.
  // The window tests are the loop's whole memory fast path: a miss goes out of line (which
  // refills the window), so no value has to outlive a call and stay in memory.
  auto load = [&](const CachedInstruction& e, uint32_t len, auto&& finish) SSDVP_INLINE {
    const uint32_t addr = x[e.rs1] + static_cast<uint32_t>(e.imm);
    if ((addr & (len - 1)) == 0 && addr - read_window.base < read_window.size) {
      uint32_t value = 0;
      std::memcpy(&value, read_window.host + (addr - read_window.base), len);
      local_cycle += read_window.read_cycles;
      ++loads;
      finish(e.rd, value);
      return;
    }
    const uint8_t rd = e.rd;
    sync_out();
    const std::optional<uint32_t> value = read_for_load(addr, len);
    sync_in();
    if (value) finish(rd, *value);
  };
  auto load_into_x = [&](uint32_t step) SSDVP_INLINE {
    return [&, step](uint8_t rd, uint32_t value) SSDVP_INLINE {
      x[rd] = value;
      ip += step;
    };
  };
  auto store = [&](const CachedInstruction& e, uint32_t step, uint32_t len,
                   uint32_t value) SSDVP_INLINE {
    const uint32_t addr = x[e.rs1] + static_cast<uint32_t>(e.imm);
    if ((addr & (len - 1)) != 0 || addr - write_window.base >= write_window.size) {
      sync_out();
      if (write_for_store(addr, len, value)) pc += 2 * step;
      sync_in();
      return;
    }
    uint8_t* const target = write_window.host + (addr - write_window.base);
    std::memcpy(target, &value, len);
    local_cycle += write_window.write_cycles;
    ++stores;
    reservations.on_store(hart_id, addr, len);
    ip += step;
    if (aligned_store_watched(addr)) {
      uint32_t stored = 0;  // read back: keeping `value` for this rare path would spill it
      std::memcpy(&stored, target, len);
      sync_out();
      after_store(addr, len, stored);
      sync_in();
    }
  };
  auto branch = [&](const CachedInstruction& e, uint32_t step, bool taken) SSDVP_INLINE {
    if (taken) {
      jump_by(e.imm);
      local_cycle += branch_taken_extra;
    } else {
      ip += step;
    }
  };
  // The slow instructions work on the members.
  auto slow = [&](auto&& body) SSDVP_INLINE {
    sync_out();
    body();
    sync_in();
  };

  // The handler of each slot op byte, filled on the first batch (labels are this function's).
  static const void* handlers[256];
  static bool handlers_ready = false;
  if (!handlers_ready) {
    for (const void*& handler : handlers) handler = &&no_handler;
    SSDVP_ON_ANY_LENGTH(kNotDecoded)
    SSDVP_ON_ANY_LENGTH(kIllegal)
    SSDVP_ON_EACH_LENGTH(kLui) SSDVP_ON_EACH_LENGTH(kAuipc)
    SSDVP_ON_EACH_LENGTH(kJal) SSDVP_ON_EACH_LENGTH(kJalr)
    SSDVP_ON_EACH_LENGTH(kBeq) SSDVP_ON_EACH_LENGTH(kBne) SSDVP_ON_EACH_LENGTH(kBlt)
    SSDVP_ON_EACH_LENGTH(kBge) SSDVP_ON_EACH_LENGTH(kBltu) SSDVP_ON_EACH_LENGTH(kBgeu)
    SSDVP_ON_EACH_LENGTH(kLb) SSDVP_ON_EACH_LENGTH(kLh) SSDVP_ON_EACH_LENGTH(kLw)
    SSDVP_ON_EACH_LENGTH(kLbu) SSDVP_ON_EACH_LENGTH(kLhu)
    SSDVP_ON_EACH_LENGTH(kSb) SSDVP_ON_EACH_LENGTH(kSh) SSDVP_ON_EACH_LENGTH(kSw)
    SSDVP_ON_EACH_LENGTH(kAddi) SSDVP_ON_EACH_LENGTH(kSlti) SSDVP_ON_EACH_LENGTH(kSltiu)
    SSDVP_ON_EACH_LENGTH(kXori) SSDVP_ON_EACH_LENGTH(kOri) SSDVP_ON_EACH_LENGTH(kAndi)
    SSDVP_ON_EACH_LENGTH(kSlli) SSDVP_ON_EACH_LENGTH(kSrli) SSDVP_ON_EACH_LENGTH(kSrai)
    SSDVP_ON_EACH_LENGTH(kAdd) SSDVP_ON_EACH_LENGTH(kSub) SSDVP_ON_EACH_LENGTH(kSll)
    SSDVP_ON_EACH_LENGTH(kSlt) SSDVP_ON_EACH_LENGTH(kSltu) SSDVP_ON_EACH_LENGTH(kXor)
    SSDVP_ON_EACH_LENGTH(kSrl) SSDVP_ON_EACH_LENGTH(kSra) SSDVP_ON_EACH_LENGTH(kOr)
    SSDVP_ON_EACH_LENGTH(kAnd)
    SSDVP_ON_EACH_LENGTH(kMul) SSDVP_ON_EACH_LENGTH(kMulh) SSDVP_ON_EACH_LENGTH(kMulhsu)
    SSDVP_ON_EACH_LENGTH(kMulhu) SSDVP_ON_EACH_LENGTH(kDiv) SSDVP_ON_EACH_LENGTH(kDivu)
    SSDVP_ON_EACH_LENGTH(kRem) SSDVP_ON_EACH_LENGTH(kRemu)
    SSDVP_ON_EACH_LENGTH(kFence)
    SSDVP_ON_ANY_LENGTH(kFenceI) SSDVP_ON_ANY_LENGTH(kWfi) SSDVP_ON_ANY_LENGTH(kEcall)
    SSDVP_ON_ANY_LENGTH(kEbreak) SSDVP_ON_ANY_LENGTH(kMret) SSDVP_ON_ANY_LENGTH(kCsrrs)
    SSDVP_ON_ANY_LENGTH(kCsrrw) SSDVP_ON_ANY_LENGTH(kCsrrc) SSDVP_ON_ANY_LENGTH(kCsrrwi)
    SSDVP_ON_ANY_LENGTH(kCsrrsi) SSDVP_ON_ANY_LENGTH(kCsrrci)
    SSDVP_ON_ANY_LENGTH(kLrW) SSDVP_ON_ANY_LENGTH(kScW) SSDVP_ON_ANY_LENGTH(kAmoswapW)
    SSDVP_ON_ANY_LENGTH(kAmoaddW) SSDVP_ON_ANY_LENGTH(kAmoxorW) SSDVP_ON_ANY_LENGTH(kAmoandW)
    SSDVP_ON_ANY_LENGTH(kAmoorW) SSDVP_ON_ANY_LENGTH(kAmominW) SSDVP_ON_ANY_LENGTH(kAmomaxW)
    SSDVP_ON_ANY_LENGTH(kAmominuW) SSDVP_ON_ANY_LENGTH(kAmomaxuW)
    SSDVP_ON_ANY_LENGTH(kFlw) SSDVP_ON_ANY_LENGTH(kFsw)
    SSDVP_ON_ANY_LENGTH(kFmaddS) SSDVP_ON_ANY_LENGTH(kFmsubS) SSDVP_ON_ANY_LENGTH(kFnmsubS)
    SSDVP_ON_ANY_LENGTH(kFnmaddS) SSDVP_ON_ANY_LENGTH(kFaddS) SSDVP_ON_ANY_LENGTH(kFsubS)
    SSDVP_ON_ANY_LENGTH(kFmulS) SSDVP_ON_ANY_LENGTH(kFdivS) SSDVP_ON_ANY_LENGTH(kFsqrtS)
    SSDVP_ON_ANY_LENGTH(kFsgnjS) SSDVP_ON_ANY_LENGTH(kFsgnjnS) SSDVP_ON_ANY_LENGTH(kFsgnjxS)
    SSDVP_ON_ANY_LENGTH(kFminS) SSDVP_ON_ANY_LENGTH(kFmaxS) SSDVP_ON_ANY_LENGTH(kFcvtWS)
    SSDVP_ON_ANY_LENGTH(kFcvtWuS) SSDVP_ON_ANY_LENGTH(kFcvtSW) SSDVP_ON_ANY_LENGTH(kFcvtSWu)
    SSDVP_ON_ANY_LENGTH(kFmvXW) SSDVP_ON_ANY_LENGTH(kFmvWX) SSDVP_ON_ANY_LENGTH(kFeqS)
    SSDVP_ON_ANY_LENGTH(kFltS) SSDVP_ON_ANY_LENGTH(kFleS) SSDVP_ON_ANY_LENGTH(kFclassS)
    // Every op the decoder produces needs its handlers: a missing one fails the first batch.
    for (unsigned op = static_cast<unsigned>(Op::kIllegal); op < static_cast<unsigned>(Op::kCount);
         ++op) {
      if (handlers[op] == &&no_handler || handlers[op | kWideOp] == &&no_handler) {
        throw std::logic_error(fmt::format("ISS: op {} has no handler", op));
      }
    }
    handlers_ready = true;
  }

  [[maybe_unused]] uint32_t start_pc = 0;
  [[maybe_unused]] uint64_t start_cycle = 0;
  [[maybe_unused]] uint64_t start_retired = 0;
  SSDVP_DISPATCH();

SSDVP_ANY_LENGTH(kNotDecoded):
  if (ip >= slots + DecodeCache::kSlotsPerPage) {
    enter(local_pc());  // a guard slot: straight-line code went on into the next page
    SSDVP_DISPATCH();
  }
  // Nothing retires: the fill takes back the count, a fetch fault's trap does too.
  slow([&] {
    if (fill_slot(pc)) --retired;
  });
  ++local_retired;
  SSDVP_DISPATCH();  // the freshly decoded slot (or the trap handler)
SSDVP_ANY_LENGTH(kIllegal): {
  SSDVP_OPERANDS
  slow([&] { raise_exception(kIllegalInstruction, static_cast<uint32_t>(e.imm)); });
}
  SSDVP_NEXT();

SSDVP_EACH_LENGTH(kLui, write_rd(e, kStep, static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kAuipc, write_rd(e, kStep, local_pc() + static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kJal, {
  x[e.rd] = local_pc() + 2 * kStep;
  jump_by(e.imm);
})
SSDVP_EACH_LENGTH(kJalr, {
  const uint32_t target = (a + static_cast<uint32_t>(e.imm)) & ~1u;
  x[e.rd] = local_pc() + 2 * kStep;
  enter(target);
})

SSDVP_EACH_LENGTH(kBeq, branch(e, kStep, a == b);)
SSDVP_EACH_LENGTH(kBne, branch(e, kStep, a != b);)
SSDVP_EACH_LENGTH(kBlt, branch(e, kStep, static_cast<int32_t>(a) < static_cast<int32_t>(b));)
SSDVP_EACH_LENGTH(kBge,
                  branch(e, kStep, static_cast<int32_t>(a) >= static_cast<int32_t>(b));)
SSDVP_EACH_LENGTH(kBltu, branch(e, kStep, a < b);)
SSDVP_EACH_LENGTH(kBgeu, branch(e, kStep, a >= b);)

SSDVP_EACH_LENGTH(kLb, {
  load(e, 1, [&](uint8_t rd, uint32_t value) SSDVP_INLINE {
    x[rd] = static_cast<uint32_t>(static_cast<int8_t>(value));
    ip += kStep;
  });
})
SSDVP_EACH_LENGTH(kLh, {
  load(e, 2, [&](uint8_t rd, uint32_t value) SSDVP_INLINE {
    x[rd] = static_cast<uint32_t>(static_cast<int16_t>(value));
    ip += kStep;
  });
})
SSDVP_EACH_LENGTH(kLw, load(e, 4, load_into_x(kStep));)
SSDVP_EACH_LENGTH(kLbu, load(e, 1, load_into_x(kStep));)
SSDVP_EACH_LENGTH(kLhu, load(e, 2, load_into_x(kStep));)
SSDVP_EACH_LENGTH(kSb, store(e, kStep, 1, b);)
SSDVP_EACH_LENGTH(kSh, store(e, kStep, 2, b);)
SSDVP_EACH_LENGTH(kSw, store(e, kStep, 4, b);)

SSDVP_EACH_LENGTH(kAddi, write_rd(e, kStep, a + static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kSlti, write_rd(e, kStep, static_cast<int32_t>(a) < e.imm);)
SSDVP_EACH_LENGTH(kSltiu, write_rd(e, kStep, a < static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kXori, write_rd(e, kStep, a ^ static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kOri, write_rd(e, kStep, a | static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kAndi, write_rd(e, kStep, a & static_cast<uint32_t>(e.imm));)
SSDVP_EACH_LENGTH(kSlli, write_rd(e, kStep, a << e.imm);)
SSDVP_EACH_LENGTH(kSrli, write_rd(e, kStep, a >> e.imm);)
SSDVP_EACH_LENGTH(kSrai, {
  write_rd(e, kStep, static_cast<uint32_t>(static_cast<int32_t>(a) >> e.imm));
})

SSDVP_EACH_LENGTH(kAdd, write_rd(e, kStep, a + b);)
SSDVP_EACH_LENGTH(kSub, write_rd(e, kStep, a - b);)
SSDVP_EACH_LENGTH(kSll, write_rd(e, kStep, a << (b & 31));)
SSDVP_EACH_LENGTH(kSlt,
                  write_rd(e, kStep, static_cast<int32_t>(a) < static_cast<int32_t>(b));)
SSDVP_EACH_LENGTH(kSltu, write_rd(e, kStep, a < b);)
SSDVP_EACH_LENGTH(kXor, write_rd(e, kStep, a ^ b);)
SSDVP_EACH_LENGTH(kSrl, write_rd(e, kStep, a >> (b & 31));)
SSDVP_EACH_LENGTH(kSra, write_rd(e, kStep, static_cast<uint32_t>(static_cast<int32_t>(a) >>
                                                                 (b & 31)));)
SSDVP_EACH_LENGTH(kOr, write_rd(e, kStep, a | b);)
SSDVP_EACH_LENGTH(kAnd, write_rd(e, kStep, a & b);)

SSDVP_EACH_LENGTH(kMul, write_rd(e, kStep, a * b);)
SSDVP_EACH_LENGTH(kMulh, {
  const int64_t product = int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b);
  write_rd(e, kStep, static_cast<uint32_t>(static_cast<uint64_t>(product) >> 32));
})
SSDVP_EACH_LENGTH(kMulhsu, {
  const int64_t product = int64_t{static_cast<int32_t>(a)} * int64_t{b};
  write_rd(e, kStep, static_cast<uint32_t>(static_cast<uint64_t>(product) >> 32));
})
SSDVP_EACH_LENGTH(kMulhu, write_rd(e, kStep, static_cast<uint32_t>((uint64_t{a} * b) >> 32));)
SSDVP_EACH_LENGTH(kDiv, write_rd(e, kStep, rv_div(a, b));)
SSDVP_EACH_LENGTH(kDivu, write_rd(e, kStep, rv_divu(a, b));)
SSDVP_EACH_LENGTH(kRem, write_rd(e, kStep, rv_rem(a, b));)
SSDVP_EACH_LENGTH(kRemu, write_rd(e, kStep, rv_remu(a, b));)

SSDVP_EACH_LENGTH(kFence, ip += kStep;)
SSDVP_ANY_LENGTH(kFenceI): {
  SSDVP_OPERANDS
  ip += e.halfwords();
  slow([&] { flush_decode_cache(); });
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kWfi): {
  SSDVP_OPERANDS
  ip += e.halfwords();
  if (!csrs.pending_and_enabled()) {
    stop = StopReason::kWfi;
    cycle_limit = 0;
    local_cycle_limit = 0;
  }
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kEcall):
  slow([&] { raise_exception(kEcallFromMachine, 0); });
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kEbreak):
  slow([&] { raise_exception(kBreakpoint, 0); });
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kMret):
  slow([&] { execute_mret(); });
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kCsrrs): {
  SSDVP_OPERANDS
  uint32_t value = 0;
  if (e.rs1 == 0 && csrs.read_plain(static_cast<uint32_t>(e.imm), value)) {
    x[e.rd] = value;
    ip += e.halfwords();
  } else {
    slow([&] { execute_csr(e); });
  }
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kCsrrw): SSDVP_ANY_LENGTH(kCsrrc):
SSDVP_ANY_LENGTH(kCsrrwi): SSDVP_ANY_LENGTH(kCsrrsi): SSDVP_ANY_LENGTH(kCsrrci): {
  SSDVP_OPERANDS
  slow([&] { execute_csr(e); });
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kLrW): SSDVP_ANY_LENGTH(kScW): SSDVP_ANY_LENGTH(kAmoswapW):
SSDVP_ANY_LENGTH(kAmoaddW): SSDVP_ANY_LENGTH(kAmoxorW): SSDVP_ANY_LENGTH(kAmoandW):
SSDVP_ANY_LENGTH(kAmoorW): SSDVP_ANY_LENGTH(kAmominW): SSDVP_ANY_LENGTH(kAmomaxW):
SSDVP_ANY_LENGTH(kAmominuW): SSDVP_ANY_LENGTH(kAmomaxuW): {
  SSDVP_OPERANDS
  slow([&] { execute_atomic(e); });
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kFlw): {
  SSDVP_OPERANDS
  if (!csrs.fpu_enabled()) {
    slow([&] { raise_illegal_instruction(); });
  } else {
    const uint32_t step = e.halfwords();
    load(e, 4, [&](uint8_t rd, uint32_t value) SSDVP_INLINE {
      f[rd] = value;
      csrs.mark_fpu_dirty();
      ip += step;
    });
  }
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kFsw): {
  SSDVP_OPERANDS
  if (!csrs.fpu_enabled()) {
    slow([&] { raise_illegal_instruction(); });
  } else {
    store(e, e.halfwords(), 4, f[e.rs2]);
  }
}
  SSDVP_NEXT();
SSDVP_ANY_LENGTH(kFmaddS): SSDVP_ANY_LENGTH(kFmsubS): SSDVP_ANY_LENGTH(kFnmsubS):
SSDVP_ANY_LENGTH(kFnmaddS): SSDVP_ANY_LENGTH(kFaddS): SSDVP_ANY_LENGTH(kFsubS):
SSDVP_ANY_LENGTH(kFmulS): SSDVP_ANY_LENGTH(kFdivS): SSDVP_ANY_LENGTH(kFsqrtS):
SSDVP_ANY_LENGTH(kFsgnjS): SSDVP_ANY_LENGTH(kFsgnjnS): SSDVP_ANY_LENGTH(kFsgnjxS):
SSDVP_ANY_LENGTH(kFminS): SSDVP_ANY_LENGTH(kFmaxS): SSDVP_ANY_LENGTH(kFcvtWS):
SSDVP_ANY_LENGTH(kFcvtWuS): SSDVP_ANY_LENGTH(kFcvtSW): SSDVP_ANY_LENGTH(kFcvtSWu):
SSDVP_ANY_LENGTH(kFmvXW): SSDVP_ANY_LENGTH(kFmvWX): SSDVP_ANY_LENGTH(kFeqS):
SSDVP_ANY_LENGTH(kFltS): SSDVP_ANY_LENGTH(kFleS): SSDVP_ANY_LENGTH(kFclassS): {
  SSDVP_OPERANDS
  if (execute_float(e)) {
    ip += e.halfwords();
  } else {
    slow([&] { raise_illegal_instruction(); });
  }
}
  SSDVP_NEXT();

no_handler:
  throw std::logic_error(fmt::format("ISS: op byte {:#04x} at pc {:#010x} has no handler",
                                     ip->op_byte, local_pc()));
batch_end:
  pc = local_pc();
  cycle = local_cycle;
  retired = local_retired;
}

#undef SSDVP_ON_ANY_LENGTH
#undef SSDVP_ON_EACH_LENGTH
#undef SSDVP_EACH_LENGTH
#undef SSDVP_ANY_LENGTH
#undef SSDVP_NEXT
#undef SSDVP_DISPATCH
#undef SSDVP_OPERANDS
#undef SSDVP_INLINE

// ---------------------------------------------------------------------------------------------
// Core

Core::Core(uint32_t hart_id, BusInterface& bus, Reservations& reservations,
           const InstructionCosts& costs)
    : state_(std::make_unique<State>(hart_id, bus, reservations, costs)) {
  if (hart_id >= Reservations::kMaxHarts) {
    throw std::runtime_error(fmt::format("RISC-V core: hart id {} out of range 0..{}", hart_id,
                                         Reservations::kMaxHarts - 1));
  }
  // A batch of instructions costing no cycle would never reach its budget: the hart would hang
  // its simulation. Only the misaligned cost, on top of a load's or a store's, may be 0.
  const std::pair<const char*, uint32_t> instruction_costs[] = {
      {"alu", costs.alu}, {"branch_taken", costs.branch_taken},
      {"branch_not_taken", costs.branch_not_taken}, {"jump", costs.jump}, {"load", costs.load},
      {"store", costs.store}, {"mul", costs.mul}, {"div", costs.div}, {"csr", costs.csr},
      {"atomic", costs.atomic}, {"fence", costs.fence}, {"trap", costs.trap}, {"fpu", costs.fpu},
      {"fdiv", costs.fdiv}, {"fsqrt", costs.fsqrt}, {"fma", costs.fma}};
  for (const auto& [name, cost] : instruction_costs) {
    if (cost == 0) {
      throw std::runtime_error(fmt::format(
          "RISC-V core: cost of {} is 0 cycles; every instruction takes at least 1", name));
    }
  }
}

Core::~Core() = default;

void Core::reset(uint32_t reset_pc) {
  State& s = *state_;
  if (reset_pc & 1u) {
    throw std::runtime_error(
        fmt::format("hart {}: reset pc {:#010x} is odd; instructions are 2-byte aligned",
                    s.hart_id, reset_pc));
  }
  s.x.fill(0);
  s.f.fill(0);
  s.pc = reset_pc;
  s.csrs.reset(s.cycle);
  s.in_trap = false;
  s.last_trap = TrapRecord{};
  s.loop_retired = ~uint64_t{0};
  s.stop = StopReason::kBudget;
  s.tohost_written = false;
  s.tohost_value = 0;
  s.reservations.clear(s.hart_id);
  s.flush_decode_cache();
}

StopReason Core::run(uint64_t cycle_budget) {
  State& s = *state_;
  const uint64_t end = cycle_budget > std::numeric_limits<uint64_t>::max() - s.cycle
                           ? std::numeric_limits<uint64_t>::max()
                           : s.cycle + cycle_budget;
  s.stop = StopReason::kBudget;
  s.take_pending_interrupt();
  const bool hooks = s.trace != nullptr || !s.profile.empty();
  for (;;) {
    s.interrupt_check = false;
    s.cycle_limit = end;
    if (hooks) {
      s.execute<true>();
    } else if (translating()) {
      s.execute_translated();
    } else {
      s.execute<false>();
    }
    if (s.stop != StopReason::kBudget || !s.interrupt_check) break;
    s.take_pending_interrupt();  // raised or enabled inside the batch
  }
  return s.stop;
}

void Core::request_stop() {
  state_->stop = StopReason::kHalt;
  state_->cycle_limit = 0;
}

void Core::set_interrupt_pending(uint32_t bit, bool level) {
  if (bit != kMsip && bit != kMtip && bit != kMeip) {
    throw std::runtime_error(fmt::format(
        "hart {}: interrupt bit {:#x} is not one of kMsip ({:#x}), kMtip ({:#x}), kMeip ({:#x})",
        state_->hart_id, bit, uint32_t{kMsip}, uint32_t{kMtip}, uint32_t{kMeip}));
  }
  state_->csrs.set_pending(bit, level);
  if (level) state_->request_interrupt_check();
}

bool Core::wakeup_pending() const { return state_->csrs.pending_and_enabled(); }

void Core::add_sleep_cycles(uint64_t cycles) {
  state_->cycle += cycles;
  state_->sleep += cycles;
}

void Core::set_tohost_address(uint32_t addr) {
  state_->tohost_address = addr;
  state_->tohost_page = addr == 0 ? DecodeCache::kNoPage : DecodeCache::page_of(addr);
  if (state_->tohost_page != DecodeCache::kNoPage) state_->watch_page(state_->tohost_page);
}

bool Core::tohost_written() const { return state_->tohost_written; }
uint32_t Core::tohost_value() const { return state_->tohost_value; }

void Core::flush_decode_cache() { state_->flush_decode_cache(); }

void Core::invalidate_direct_regions() {
  state_->clear_windows();
  state_->region_count = 0;
  state_->next_region_victim = 0;
  state_->refused_count = 0;
  state_->next_refused_victim = 0;
  // Decoded code came through the revoked grants: fetch it again under the new ones.
  state_->flush_decode_cache();
}

uint32_t Core::hart_id() const { return state_->hart_id; }
uint32_t Core::pc() const { return state_->pc; }

uint32_t Core::reg(unsigned index) const {
  if (index >= 32) {
    throw std::runtime_error(fmt::format("hart {}: register x{} out of range x0..x31",
                                         state_->hart_id, index));
  }
  return state_->x[index];
}

void Core::set_reg(unsigned index, uint32_t value) {
  if (index >= 32) {
    throw std::runtime_error(fmt::format("hart {}: register x{} out of range x0..x31",
                                         state_->hart_id, index));
  }
  if (index != 0) state_->x[index] = value;
}

uint32_t Core::freg(unsigned index) const {
  if (index >= 32) {
    throw std::runtime_error(fmt::format("hart {}: register f{} out of range f0..f31",
                                         state_->hart_id, index));
  }
  return state_->f[index];
}

void Core::set_freg(unsigned index, uint32_t bits) {
  if (index >= 32) {
    throw std::runtime_error(fmt::format("hart {}: register f{} out of range f0..f31",
                                         state_->hart_id, index));
  }
  state_->f[index] = bits;
}

uint64_t Core::cycles() const { return state_->cycle; }
uint64_t Core::instret() const { return state_->retired; }
uint64_t Core::sleep_cycles() const { return state_->sleep; }
uint64_t Core::timed_cycles() const {
  return state_->cycle - state_->csrs.zero_time_cycles(state_->cycle);
}
bool Core::in_zero_time() const { return state_->csrs.in_zero_time(); }
uint64_t Core::job_kind_cycles(uint32_t kind) const {
  if (kind >= JOB_KIND_LIMIT) {
    throw std::runtime_error(fmt::format("hart {}: job kind {} out of range 0..{}",
                                         state_->hart_id, kind, JOB_KIND_LIMIT - 1));
  }
  return state_->csrs.job_kind_cycles(kind, state_->cycle);
}
uint64_t Core::loads() const { return state_->loads; }
uint64_t Core::stores() const { return state_->stores; }
bool Core::in_trap() const { return state_->in_trap; }
const TrapRecord& Core::last_trap() const { return state_->last_trap; }

bool Core::read_csr(uint32_t csr, uint32_t& value) const {
  return state_->csrs.read(csr, state_->counters(), value);
}

void Core::set_translation(bool enabled) { state_->translate = enabled; }
bool Core::translating() const { return state_->translate && state_->translator != nullptr; }

void Core::set_instruction_trace(std::ostream* out) { state_->trace = out; }

void Core::enable_profile(uint32_t base, uint32_t size) {
  if ((base & 1u) != 0 || size == 0 || size - 1 > std::numeric_limits<uint32_t>::max() - base) {
    throw std::runtime_error(fmt::format(
        "hart {}: profile range base {:#010x} size {:#x} must have an even base, a non-zero size "
        "and end within the 32-bit address space",
        state_->hart_id, base, size));
  }
  state_->profile_base = base;
  state_->profile_size = size;
  state_->profile.assign((size + 1) / 2, 0);
}

const std::vector<uint64_t>& Core::profile_cycles() const { return state_->profile; }

}  // namespace ssdvp::cpu
