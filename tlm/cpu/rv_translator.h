// Translating back end of the hart (x86-64 hosts): turns a straight-line run of RV32IM
// instructions, up to and including the control transfer that ends it, into host code that works
// directly on the hart's state. The interpreter stays the reference and the fallback: its code
// runs the atomic and F arithmetic instructions and the CSR instructions the translator does not
// code inline (all but reads of the counters, mip, mie, mhartid and mjobkind, and writes of
// mjobkind), which end a block (called from it); and it runs by itself the instructions the
// translator leaves out (flw, fsw, system instructions), every memory access that leaves the fast
// path (MMIO, misalignment, stores into watched pages, stores while a reservation is held), and
// the end of each batch, where a block could overrun the budget.
//
// Exactness: a block charges exactly what the interpreter would (each instruction's class cost,
// each access's window latency, a taken branch's extra), retires the same count, and leaves the
// hart at the same pc. It runs only when it cannot cross the batch's cycle limit (the caller
// checks the bound in TranslatedBlock), so batches end on the same instruction as they do in the
// interpreter. A memory access off the fast path leaves the block before that instruction (a
// side exit), with every counter as the interpreter would have it there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ssdvp::cpu {

// Where the translated code finds the hart's state: byte offsets from the state pointer it is
// called with, and the addresses of the few things outside it.
struct TranslatorLayout {
  size_t x = 0;             // uint32_t[33]: x0..x31 and the sink register
  size_t pc = 0;            // uint32_t
  size_t cycle = 0;         // uint64_t
  size_t retired = 0;       // uint64_t
  size_t loads = 0;         // uint64_t
  size_t stores = 0;        // uint64_t
  size_t read_window = 0;   // DirectRegion
  size_t write_window = 0;  // DirectRegion
  size_t previous_read_window = 0;  // DirectRegion: loads try it when read_window misses
  size_t watch_first_page = 0;  // uint32_t
  size_t watch_last_page = 0;   // uint32_t
  size_t tohost_page = 0;       // uint32_t
  size_t cycle_limit = 0;       // uint64_t: the batch ends when cycle reaches it
  size_t window_latency_max = 0;  // uint32_t: the largest of the windows' latencies
  const uint32_t* reservations_active = nullptr;  // non-zero while any hart holds a reservation
  const uint64_t* code_pages = nullptr;           // one bit per 4 KiB page holding decoded code
  const uint32_t* op_costs = nullptr;             // class cost by slot op byte (rv_core.cpp)
  // The CSR fields the inline CSR instructions use (CsrFile::FieldOffsets, here from the state
  // pointer), and mhartid.
  size_t mip = 0;
  size_t mie = 0;
  size_t cycle_offset = 0;
  size_t instret_offset = 0;
  size_t job_kind = 0;
  size_t job_kind_since = 0;
  size_t job_kind_cycles = 0;
  uint32_t hart_id = 0;
  // Runs one instruction (its decode-cache slot) on the interpreter's code, with the state's
  // members up to date; it may trap or end the batch.
  void (*run_instruction)(void* state, uint64_t slot) = nullptr;
  uint64_t branch_taken_extra = 0;
};

// One translated block. It may run when cycle + static_cost + memory_accesses x
// window_latency_max stays below the batch's cycle limit.
struct TranslatedBlock {
  uint32_t pc = 0;
  uint32_t end = 0;            // address after its last instruction
  uint32_t instructions = 0;   // 0: the instruction at pc is the interpreter's
  uint32_t static_cost = 0;    // class costs of all its instructions
  uint32_t memory_accesses = 0;
  const void* body = nullptr;  // its code (null when it has no instructions)
  // With no instructions: cycles the interpreter runs for from pc. One instruction, but for F
  // code, which comes in runs the interpreter takes whole.
  uint32_t interpreter_cycles = 1;
};

class Translator {
 public:
  // One entry per halfword of 256 KiB of code: more than the firmware's text (154 KiB), so hot
  // blocks do not evict each other (with 32 KiB they did, and each miss left the blocks for a
  // hash look-up: 9 per GC-heavy write). Only the entries in use take cache lines.
  static constexpr uint32_t kDirectEntries = 1u << 17;
  // The direct-mapped table from a pc to its block, which the generated code also reads.
  struct DirectEntry {
    uint32_t pc = ~0u;
    const TranslatedBlock* block = nullptr;
  };
  static constexpr uint32_t kNormalExit = 0;
  static constexpr uint32_t kSideExit = 1;
  // Reads the instruction bits at an address (the low halfword for a compressed one, both for a
  // 32-bit one); false when it cannot be fetched.
  using Fetch = bool (*)(void* context, uint32_t addr, uint32_t& bits);

  explicit Translator(const TranslatorLayout& layout);
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // True on hosts the translator generates code for.
  static bool available();

  // The block starting at pc, translated on first use. Its code lives until invalidate() or
  // flush() drops it.
  const TranslatedBlock& block_at(uint32_t pc, Fetch fetch, void* context) {
    const DirectEntry& entry = direct_[(pc >> 1) & (kDirectEntries - 1)];
    if (entry.pc == pc) return *entry.block;  // an empty entry's pc is odd: it never matches
    return find_or_translate(pc, fetch, context);
  }
  // Runs blocks from `block` on, chaining from one to the next while each fits the budget,
  // until one leaves: returns kNormalExit with the state at the next block's pc, or kSideExit
  // when the interpreter must run the instruction at the state's pc.
  uint32_t run(void* state, const TranslatedBlock& block);
  // Drops the blocks overlapping [addr, addr + len) (a store into code).
  void invalidate(uint32_t addr, uint32_t len);
  // Drops every block.
  void flush();

 private:
  struct CodeBuffer;
  friend struct CodeBuffer;

  const TranslatedBlock& find_or_translate(uint32_t pc, Fetch fetch, void* context);
  void drop(uint32_t pc);

  TranslatorLayout layout_;
  std::vector<DirectEntry> direct_;  // direct-mapped front of blocks_
  std::unique_ptr<CodeBuffer> code_;
  std::unordered_map<uint32_t, std::unique_ptr<TranslatedBlock>> blocks_;  // by start pc
  std::unordered_map<uint32_t, std::vector<uint32_t>> blocks_by_page_;    // start pcs per page
};

}  // namespace ssdvp::cpu
