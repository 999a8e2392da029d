// A fake of the firmware's flash layer (firmware/ftl/flash.h) for host tests of its users: the
// flash.h functions with C linkage over a NAND array in memory. Operations complete only when the
// test says so, in the order it picks; completing one carries it out on the array and queues its
// completion for flash_drain, as the NFC interrupt would.
//
// NAND semantics: a page holds page_bytes of data and oob_bytes of OOB; a read returns what the
// last program of that page wrote (an erased page reads as all 0xFF with NFC_STATUS_ERASED, a page
// whose program failed reads with NFC_STATUS_ECC_FAIL); a program writes a whole wordline on
// `planes` planes (bits_per_cell pages each, io entries plane-major) into erased pages, wordlines
// of a block in submission order (a die runs its operations in order, whatever order the test
// completes them in). Breaking a rule, or changing a buffer while its program is in flight, is a
// firmware bug: the fake reports it as a test failure.
//
// A power cut (power_cut) keeps the array and loses everything else: operations in flight never
// complete and completions not yet drained are gone. The operation a die is running (its oldest
// program or erase in flight) may be interrupted: an interrupted program leaves every page of its
// wordline on every plane reading as an ECC failure with no data, the wordline consumed (the
// block's next program goes to the next wordline); an interrupted erase leaves every page of the
// block reading as an ECC failure, and programming it before another erase is a firmware bug.
#ifndef SSDVP_TB_TESTS_FTL_STORE_FAKE_FLASH_H
#define SSDVP_TB_TESTS_FTL_STORE_FAKE_FLASH_H

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

extern "C" {
#include "ftl/flash.h"
}

namespace ssdvp::test {

// One submitted operation, not yet completed.
struct FakeFlashOp {
  flash_op_t *op;
  uint32_t kind;  // NFC_OP_*
  uint32_t vpn;   // as the firmware addressed it
  uint32_t ppn;   // the NAND address it converts to
  uint32_t planes;
  std::vector<std::vector<uint32_t>> data;  // a program's page data, taken at submission
  std::vector<std::vector<uint32_t>> oob;
};

class FakeFlash {
 public:
  // Takes op_count records from `arena` through flash_init, as the firmware does; `blocks`
  // converts VPNs. One fake at a time.
  FakeFlash(const nand_geometry_t &geometry, const block_manager_t *blocks, uint32_t op_count,
            arena_t *arena);
  ~FakeFlash();
  FakeFlash(const FakeFlash &) = delete;
  FakeFlash &operator=(const FakeFlash &) = delete;

  static FakeFlash *live() { return live_; }
  // Serves the layer the first flash_init call names (ftl_core.flash when the FTL boots through
  // ftl_init) instead of one of its own; until then no layer is live.
  explicit FakeFlash(const nand_geometry_t &geometry);

  flash_layer_t *layer() { return layer_; }
  // Binds the layer flash_init names, once, for a fake built without one.
  bool bind(flash_layer_t *layer);
  const nand_geometry_t &geometry() const { return layer_->geometry; }

  // Submitted operations not yet completed, oldest first.
  const std::vector<FakeFlashOp> &in_flight() const { return in_flight_; }
  // Carries out in_flight()[index] and queues its completion; returns its status.
  uint32_t complete(size_t index);
  // Completes every operation in flight, oldest first.
  void complete_all();
  // The next `count` programs fail (NFC_STATUS_PROGRAM_FAIL; their pages read as ECC failures).
  void fail_programs(uint32_t count) { programs_to_fail_ += count; }

  // Cuts the power (see above); with `interrupt`, the program or erase each die is running is
  // interrupted, else every operation in flight is dropped untouched. The layer is left for the
  // next flash_init. Returns the operations interrupted.
  uint32_t power_cut(bool interrupt);

  // What WFI does in a harness that runs the firmware's main loop (tb/tests/ftl_runtime): by
  // default completes the oldest operation in flight; a test may pick another (a random one).
  // With nothing in flight the firmware would sleep forever: the fake throws.
  void set_wait_for_interrupt(std::function<void(FakeFlash &)> wait) { wait_ = std::move(wait); }
  void wait_for_interrupt();
  uint32_t interrupt_waits() const { return interrupt_waits_; }

  // Callbacks the firmware has not drained yet.
  size_t completions_waiting() const { return queue_.size(); }

  uint64_t reads() const { return reads_; }
  uint64_t programs() const { return programs_; }
  uint64_t erases() const { return erases_; }

  // The array: data (page_bytes / 4 words) and OOB (oob_words) of the page at a VPN, all 0xFF
  // if erased.
  std::vector<uint32_t> data(uint32_t vpn) const;
  std::vector<uint32_t> oob(uint32_t vpn) const;

  // The flash.h entry points (fake_flash.cpp forwards the C functions here).
  bool init(const nand_geometry_t *geometry, const block_manager_t *blocks, uint32_t op_count,
            arena_t *arena);
  flash_op_t *take(flash_done_fn done, void *owner);
  void point_io(flash_op_t *op, uint32_t i, void *buffer, bool with_oob, uint32_t meta_bytes);
  void submit(flash_op_t *op, uint32_t kind, uint32_t vpn, uint32_t planes);
  // submit by NAND address (flash_read_ppn, flash_erase_ppn): the VPN is BLOCK_NONE.
  void submit_ppn(flash_op_t *op, uint32_t kind, uint32_t ppn, uint32_t planes);
  uint32_t drain();
  bool completion_waiting() const { return completions_waiting() != 0; }

 private:
  struct Page {
    bool failed;  // a program failed here: unreadable until erased
    std::vector<uint32_t> data;
    std::vector<uint32_t> oob;
  };
  struct IoTarget {  // where io entry i of a record moves data (the nfc_io_t holds 32 bits)
    void *buffer;
    uint32_t *oob;
    uint32_t bytes;
  };
  uint32_t op_index(const flash_op_t *op) const { return (uint32_t)(op - layer_->ops); }
  uint32_t plane_stride() const { return layer_->geometry.blocks * layer_->geometry.pages; }
  uint32_t block_key(uint32_t ppn) const { return ppn / layer_->geometry.pages; }
  uint32_t die_of(uint32_t ppn) const { return ppn / (plane_stride() * layer_->geometry.planes); }
  void submit_at(flash_op_t *op, uint32_t kind, uint32_t vpn, uint32_t ppn, uint32_t planes);
  void interrupt(const FakeFlashOp &pending);
  uint32_t page_words() const { return layer_->geometry.page_bytes / 4u; }
  bool check_address(uint32_t ppn, uint32_t planes) const;
  uint32_t read(const FakeFlashOp &pending);
  uint32_t program(const FakeFlashOp &pending);
  void erase(const FakeFlashOp &pending);
  void run(const nfc_completion_t &completion);

  static FakeFlash *live_;
  flash_layer_t own_layer_{};
  flash_layer_t *layer_ = &own_layer_;
  bool bound_ = true;
  std::vector<std::vector<IoTarget>> targets_;  // [record][io entry]
  std::vector<bool> busy_;                      // a record is submitted and not completed
  std::unordered_map<uint32_t, Page> pages_;    // programmed pages by PPN
  std::unordered_map<uint32_t, uint32_t> next_wordline_;  // by block (PPN / pages)
  std::vector<FakeFlashOp> in_flight_;
  std::deque<nfc_completion_t> queue_;
  std::function<void(FakeFlash &)> wait_;
  uint32_t programs_to_fail_ = 0;
  uint32_t interrupt_waits_ = 0;
  uint64_t reads_ = 0;
  uint64_t programs_ = 0;
  uint64_t erases_ = 0;
};

}  // namespace ssdvp::test

#endif
