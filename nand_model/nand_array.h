// The flash array of the SSD: every die's blocks and pages, as state and contents, with the
// rules of rules.h, wear (erase counts, endurance), factory and grown bad blocks, fault
// injection, sparse storage (page_store.h) and what a power loss leaves. Operations are
// instantaneous here: the flash controller (tlm/nfc) applies each at the simulated time its
// array phase ends.
//
// Statuses (numerically the NFC_STATUS_* of interface/nfc_desc.h):
// - a read of a page not programmed since its block's erase returns kErased and the erased
//   pattern; a read may fail with kEccFail (fault injection, or a power loss: below);
// - factory bad blocks answer every operation with kBadBlock; a block that failed a program or
//   an erase becomes a grown bad block: programs and erases answer kBadBlock, reads still return
//   what it held (so the firmware can move it);
// - a program fails (kProgramFail) by fault injection; an erase fails by fault injection or
//   when it would exceed the endurance (nand.endurance erases per block); either failure marks
//   the block bad, and a failed erase leaves it erased.
//
// A power loss does not reset the array (a reboot finds what was programmed), but it stops the
// program or erase in its array phase (tPROG, tBERS). The controller has applied that operation
// already, so interrupt_program and interrupt_erase turn it into what the cut leaves, the same
// every time (not drawn by fault injection):
// - an interrupted program: every page of its wordline reads kEccFail with no data. The
//   wordline stays programmed (cells part-way to their levels cannot be programmed again), so
//   the block's next wordline is the one after it. The wordline programmed before it keeps its
//   data by default: paired-page (lower-page) corruption comes from programming a wordline's
//   pages in separate passes, and a full-sequence program writes them all in one. Parts whose
//   earlier wordline an interrupted program disturbs are modelled, simply, by
//   PreviousWordline::kLost: that whole wordline reads kEccFail too.
// - an interrupted erase: every page of the block reads kEccFail, erased or not before, and a
//   program of it breaks the rule kEraseCompleted until the block is erased again (a
//   part-erased block may even read as erased, yet what is programmed on it does not hold). It
//   counts as an erase for wear: its pulses stressed the cells, and counting it never
//   underestimates.
// Either state lasts until the block's next erase (one that fails included: it leaves the block
// erased) or reset(). A bad block is left as it is: the operation it refused or failed did not
// write. Measured behaviour behind this: Tseng, Grupp, Swanson, "Understanding the impact of
// power loss on flash memory", DAC 2011 (an interrupted program can corrupt earlier programmed
// data; an incomplete erase makes later programs of the block unreliable).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "nand_model/fault_injector.h"
#include "nand_model/geometry.h"
#include "nand_model/page_store.h"
#include "nand_model/rules.h"
#include "nand_model/timing.h"
#include "tlm/system/soc_config.h"

namespace ssdvp::nand {

enum class Status : uint8_t { kOk = 0, kErased = 1, kEccFail = 2, kProgramFail = 3, kBadBlock = 4 };

// What an interrupted program does to the wordline programmed before it in the same block.
enum class PreviousWordline : uint8_t { kKept, kLost };

class NandArray {
 public:
  // Throws std::runtime_error naming the nand.* key of an invalid configuration.
  NandArray(const NandConfig& config, uint64_t seed);

  const Geometry& geometry() const { return geometry_; }
  const Timing& timing() const { return timing_; }

  // Back to the state at construction: every block erased with no wear, only the factory bad
  // blocks, the fault injection streams at their seed, nothing stored. The geometry and timing
  // stay (the same objects, so references to them remain valid).
  void reset();

  // Reads page `ppn` (inside the geometry) into `view`.
  Status read(uint32_t ppn, PageView& view);
  // Full-sequence program of the wordline whose LSB page is `ppn`: pages[0 .. bits_per_cell).
  // Throws RuleViolation for a target that is not the block's next erased wordline.
  Status program(uint32_t ppn, const PageImage* pages);
  // The rule a program of the wordline at `ppn` (inside the geometry) would break, if any; none
  // for a bad block, which answers kBadBlock.
  std::optional<Violation> program_violation(uint32_t ppn) const;
  // Erases the block holding `ppn`.
  Status erase(uint32_t ppn);

  // A power loss during the tPROG of the program applied last to the block holding `ppn`: the
  // wordline holding `ppn` (and with kLost the one before it) reads kEccFail until the block's
  // next erase. Throws std::invalid_argument naming the address when that wordline is not the
  // block's last programmed one (no program of it can be in its array phase).
  void interrupt_program(uint32_t ppn, PreviousWordline previous = PreviousWordline::kKept);
  // A power loss during the tBERS of the erase applied to the block holding `ppn`: every page
  // reads kEccFail and programs break kEraseCompleted until the block's next erase. Throws
  // std::invalid_argument naming the address when the block holds programmed pages (no erase of
  // it can be in its array phase).
  void interrupt_erase(uint32_t ppn);

  // Wear and bad blocks, by block index (geometry().block_index).
  uint32_t erase_count(uint64_t block) const { return blocks_[block].erase_count; }
  uint32_t programmed_pages(uint64_t block) const { return blocks_[block].next_page; }
  bool is_bad(uint64_t block) const { return blocks_[block].bad != BadKind::kGood; }
  bool is_factory_bad(uint64_t block) const { return blocks_[block].bad == BadKind::kFactory; }
  uint64_t factory_bad_blocks() const { return factory_bad_; }
  uint64_t grown_bad_blocks() const { return grown_bad_; }
  uint32_t endurance() const { return endurance_; }

  // Host memory accounting (no RSS): bytes held for the contents of programmed pages (tags,
  // spare bytes, metadata pages and their blocks' containers, the list of wordlines interrupted
  // programs left unreadable), of which spare bytes written by programs; the fixed per-block
  // state; and the pages programmed since their block's erase (interrupted wordlines included).
  uint64_t page_storage_bytes() const { return page_storage_bytes_; }
  uint64_t oob_bytes_stored() const { return oob_bytes_stored_; }
  uint64_t block_state_bytes() const { return blocks_.capacity() * sizeof(BlockState); }
  uint64_t programmed_page_count() const { return programmed_pages_; }

 private:
  enum class BadKind : uint8_t { kGood, kFactory, kGrown };
  enum class Interrupted : uint8_t {
    kNothing,
    kProgram,  // some of its wordlines are in unreadable_wordlines_
    kErase,
  };
  struct BlockState {
    uint32_t erase_count = 0;
    uint32_t next_page = 0;  // pages programmed since the last erase
    BadKind bad = BadKind::kGood;
    Interrupted interrupted = Interrupted::kNothing;  // in the padding: the state stays 24 bytes
    std::unique_ptr<BlockPages> pages;  // nullptr until the first program
  };

  // The PPN of the LSB page of the wordline holding `ppn`.
  uint32_t wordline_lsb_ppn(uint32_t ppn) const;
  bool unreadable(const BlockState& block, uint32_t ppn) const;
  void mark_unreadable(uint32_t wordline_ppn);
  void mark_grown_bad(BlockState& block);
  void discard_pages(uint64_t block_index);

  NandConfig config_;  // what reset() constructs again
  uint64_t seed_;
  Geometry geometry_;
  Timing timing_;
  FaultInjector faults_;
  uint32_t endurance_;
  std::vector<BlockState> blocks_;
  // The LSB-page PPNs of the wordlines interrupted programs left unreadable, sorted: a power
  // loss adds one or two, so a list costs less than a field in every block.
  std::vector<uint32_t> unreadable_wordlines_;
  uint64_t factory_bad_ = 0;
  uint64_t grown_bad_ = 0;
  uint64_t page_storage_bytes_ = 0;
  uint64_t oob_bytes_stored_ = 0;
  uint64_t programmed_pages_ = 0;
};

}  // namespace ssdvp::nand
