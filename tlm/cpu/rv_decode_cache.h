// Decode cache of one hart: pre-decoded instructions keyed by address. Each 4 KiB code page owns
// an array of 2048 slots (one per halfword, since compressed instructions are 2-byte aligned),
// allocated on first execution and filled as instructions are first executed. Two guard slots
// follow them and stay undecoded, so code running off the page's end finds an undecoded slot
// instead of the executor testing every step for the page's end. A bitmap over all
// pages tells a store in one bit test whether it may hit decoded code.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "tlm/cpu/rv_decoder.h"

namespace ssdvp::cpu {

// Register index that absorbs writes to x0, so x0 stays zero without a test per instruction.
constexpr unsigned kSinkRegister = 32;

// Set in a slot's op byte when the instruction is a 4-byte encoding (clear for compressed ones):
// the halfwords to the next slot are then 1 + the bit, one shift and one add.
constexpr unsigned kWideOpShift = 7;
constexpr uint8_t kWideOp = 1u << kWideOpShift;
static_assert(static_cast<unsigned>(Op::kCount) <= kWideOp, "Op values leave bit 7 free");

// One slot: an instruction ready to execute, in 8 bytes so hot code stays dense in the host's
// caches. The cost comes from a per-op table; the length is one bit of the op byte; the F
// computational instructions, which have no immediate, keep rs3 and rm in imm.
struct CachedInstruction {
  uint8_t op_byte = 0;  // Op, with kWideOp for a 4-byte encoding; 0 is Op::kNotDecoded
  uint8_t rd = 0;  // a write to x0 targets the sink register kSinkRegister instead (f0 is real)
  uint8_t rs1 = 0;
  uint8_t rs2 = 0;
  int32_t imm = 0;  // for Op::kIllegal: the instruction bits (what mtval reports)

  Op op() const { return static_cast<Op>(op_byte & ~kWideOp); }
  uint32_t halfwords() const { return 1u + (op_byte >> kWideOpShift); }
  uint32_t length() const { return 2 * halfwords(); }
  uint8_t rs3() const { return static_cast<uint8_t>(imm & 0xFF); }
  uint8_t rm() const { return static_cast<uint8_t>((imm >> 8) & 0xFF); }
};
static_assert(sizeof(CachedInstruction) == 8, "a slot stays 8 bytes: eight per cache line");

// The slot of a decoded instruction whose encoding is `bits`.
inline CachedInstruction make_slot(const DecodedInstruction& decoded, uint32_t bits) {
  CachedInstruction slot;
  slot.op_byte = static_cast<uint8_t>(decoded.op);
  if (decoded.length == 4) slot.op_byte |= kWideOp;
  slot.rd = decoded.rd == 0 && !writes_float_register(decoded.op) ? kSinkRegister : decoded.rd;
  slot.rs1 = decoded.rs1;
  slot.rs2 = decoded.rs2;
  if (decoded.op == Op::kIllegal) {
    slot.imm = static_cast<int32_t>(bits);
  } else if (is_float_computational(decoded.op)) {
    slot.imm = decoded.rs3 | decoded.rm << 8;
  } else {
    slot.imm = decoded.imm;
  }
  return slot;
}

class DecodeCache {
 public:
  static constexpr unsigned kPageShift = 12;
  static constexpr uint32_t kSlotsPerPage = (1u << kPageShift) / 2;
  // A 4-byte instruction in the last slot steps two slots past the end.
  static constexpr uint32_t kGuardSlots = 2;
  static constexpr uint32_t kNoPage = ~0u;  // no page number (page numbers have 20 bits)

  DecodeCache();

  static uint32_t page_of(uint32_t addr) { return addr >> kPageShift; }
  static uint32_t slot_of(uint32_t addr) { return (addr & ((1u << kPageShift) - 1)) >> 1; }

  // The slots of a page and its guard slots, allocated (all kNotDecoded) on first use.
  CachedInstruction* page_slots(uint32_t page) {
    RecentPage& recent = recent_[page % kRecentPages];
    if (recent.page == page) return recent.slots;
    return find_or_allocate(page);
  }

  // Records that the page holds decoded code, so stores into it invalidate.
  void mark_code(uint32_t page) { code_pages_[page >> 6] |= 1ull << (page & 63); }
  bool holds_code(uint32_t page) const { return (code_pages_[page >> 6] >> (page & 63)) & 1u; }
  // The bitmap itself, one bit per page (translated stores test it in place).
  const uint64_t* code_page_bits() const { return code_pages_.data(); }

  // Drops the decoded instructions overlapping [addr, addr + len), including a 32-bit one that
  // starts in the halfword before addr.
  void invalidate(uint32_t addr, uint32_t len);
  // Drops everything.
  void flush();

 private:
  static constexpr uint32_t kRecentPages = 64;
  struct Page {
    std::array<CachedInstruction, kSlotsPerPage + kGuardSlots> slots{};
  };
  struct RecentPage {
    uint32_t page = kNoPage;
    CachedInstruction* slots = nullptr;
  };

  CachedInstruction* find_or_allocate(uint32_t page);

  std::unordered_map<uint32_t, std::unique_ptr<Page>> pages_;
  std::array<RecentPage, kRecentPages> recent_{};  // direct-mapped front of pages_
  std::vector<uint64_t> code_pages_;               // one bit per 4 KiB page of the address space
};

}  // namespace ssdvp::cpu
