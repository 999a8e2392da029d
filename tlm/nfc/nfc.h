// The NAND flash controller (interface/nfc_regs.h, nfc_desc.h) and the flash array behind it
// (nand_model). The firmware hands it descriptors through a ring in SRAM or DRAM and a doorbell;
// the NFC fetches them by DMA, queues each on its die, runs it on the die and its channel bus,
// moves data between the page register and memory by DMA, and posts a completion with an
// interrupt (IRQ_SRC_NFC).
//
// Timing, per operation (nand_model/timing.h gives each piece):
// - fetch: the descriptor and its io list are read by DMA when the doorbell is rung;
// - per die, operations run one at a time in submission order; the next waits in the die's
//   queue. A program first reads its write data from memory by DMA (the die waits);
// - the channel bus is shared by the dies of the channel: a die asks for it for each phase (a
//   read's or an erase's command and address cycles, a read's data out, a program's data in)
//   and holds it for the whole phase. Command phases, tens of nanoseconds, go before waiting
//   data phases so that idle dies start their array work early; within each kind, first come
//   first served;
// - between bus phases the die's array is busy (tR by page type, tPROG, tBERS) and the bus is
//   free for the other dies: dies overlap, transfers on one channel serialise;
// - read data: one ECC decoder per channel decodes each plane's page when its transfer ends
//   (nfc.ecc_decode per page, in transfer order), then DMA writes it to memory;
// - DMA: one engine, transfers in request order, each costing the memory's latency (through
//   the router, or its direct-memory pointer with the same latency) plus its bytes at
//   nfc.dma_bandwidth. User data moves as a tag but costs a page;
// - the completion is written to the completion ring by DMA, then the tail advances and the
//   interrupt is raised. A full completion ring holds completions back until CQ_HEAD moves.
//   Its latency_ns, and the latencies in the statistics, run from the doorbell that submitted
//   the descriptor to the start of the completion's write.
// The array (nand_array.h) changes when a phase ends: a read samples its pages at the end of
// tR, a program writes them at the end of its data in, an erase empties the block at the end of
// its command. A plane whose read failed (ECC, bad block) moves no data; an erased page moves
// the erased pattern.
// Everything is event driven: one SystemC method runs the NFC's own time-ordered action queue.
// Where the platform allows it (run_ahead_until), actions nothing outside the NFC observes at
// once (all but the completion's interrupt) run ahead of the kernel's clock, each with its own
// time, while nothing else is due before it: one wake-up covers the bus phases, array ends and
// transfers up to the next event of another model.
//
// A broken NAND rule or a malformed descriptor or register use is a firmware bug: the NFC
// stops and reports it (on_error) naming the descriptor, the address and the rule.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "interface/nfc_desc.h"
#include "nand_model/nand_array.h"
#include "tlm/bus/register_bank.h"
#include "tlm/nfc/nfc_monitor.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {

class Nfc : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Nfc> socket;         // registers
  tlm_utils::simple_initiator_socket<Nfc> dma_socket;  // DMA into the router

  SC_HAS_PROCESS(Nfc);
  // Throws std::runtime_error naming the nand.* / nfc.* key of an invalid configuration.
  Nfc(sc_core::sc_module_name name, const NandConfig& nand, const NfcConfig& nfc, uint64_t seed,
      WaveWriter* waves);
  ~Nfc() override;

  // The interrupt line: high while IRQ_STATUS & IRQ_ENABLE is not zero.
  void on_interrupt(std::function<void(bool level)> handler) { irq_handler_ = std::move(handler); }
  // Called once when the NFC stops on a firmware bug; without a handler, the simulation throws.
  void on_error(std::function<void(const std::string&)> handler) {
    error_handler_ = std::move(handler);
  }

  // Power-on reset: the NFC and its array return to their state at construction: registers at
  // their reset values, rings disabled, no operations, not stopped, DMA idle without direct-memory
  // regions, every block erased without wear (factory bad blocks only, fault injection back at
  // its seed), statistics zero. Operations in flight are dropped without a completion, so call it
  // once none is (outstanding() == 0) or the NFC has stopped. A high interrupt line falls (the
  // handler sees it); the handlers stay connected.
  void reset();
  // The power is cut now; the array keeps what it holds. Every operation queued or in flight is
  // dropped without a completion, and the controller returns to its power-on state as in
  // reset() (its statistics stay: they count the whole run). What each operation leaves:
  // - a program or an erase in its array phase (tPROG, tBERS running) is interrupted on the
  //   array (nand::NandArray::interrupt_program, interrupt_erase: its wordline, or its block,
  //   reads as an ECC failure until the block's next erase);
  // - a program still moving its data (from memory, or over the bus: the array changes only at
  //   the end of data in) and an erase still in its command phase leave the array untouched;
  // - an operation past its array phase (a read moving its data, any completion on its way)
  //   has changed the array already, or not at all: only its completion is lost;
  // - a read in tR is dropped.
  void power_cut();

  nand::NandArray& nand() { return nand_; }
  const nand::NandArray& nand() const { return nand_; }
  bool interrupt_level() const { return irq_level_; }
  // Descriptors fetched whose completion is not yet visible.
  uint32_t outstanding() const { return outstanding_; }
  bool stopped() const { return stopped_; }

  // The end of the kernel run in progress (sc_start). Actions run ahead only of another model's
  // event within it, so the run returns where and when it would have, with the NFC as it would
  // have been. 0 (the default) never runs ahead.
  void run_ahead_until(uint64_t ps) { run_ahead_until_ps_ = ps; }

  // Statistics as of end_ps: the array and its dies, channels and operations into `nand`, the
  // controller's queue, DMA and completions into `nfc`.
  void report(nlohmann::json& nand, nlohmann::json& nfc, uint64_t end_ps) const;

 private:
  enum class Stage : uint8_t {
    kQueued, kProgramData, kCommand, kArray, kDataOut, kDataIn, kDelivery
  };
  struct Op;
  struct Die;
  struct Channel;
  enum class ActionKind : uint8_t {
    kFetch,           // arg: the SQ tail the doorbell wrote
    kFetched,         // arg: op
    kProgramDataIn,   // arg: op (write data read from memory)
    kBusEnd,          // arg: channel
    kArrayEnd,        // arg: die
    kDelivered,       // arg: op (ECC decoded: write its data to memory, post its completion)
    kVisible,         // arg: op (completion written: advance the tail, interrupt)
    kCqHead,          // arg: the CQ head the firmware wrote
  };
  struct Action {
    uint64_t time_ps;
    uint64_t sequence;  // ties keep the order actions were scheduled in
    ActionKind kind;
    uint32_t arg;
    bool operator>(const Action& other) const {
      return time_ps != other.time_ps ? time_ps > other.time_ps : sequence > other.sequence;
    }
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  void declare_registers();
  void write_ring_register(uint32_t offset, const char* name, uint32_t value);
  void write_enable(uint32_t value);

  // The action queue and the method that runs it.
  void schedule(uint64_t time_ps, ActionKind kind, uint32_t arg);
  void run_actions();
  void dispatch(const Action& action);
  // The time before which actions may run ahead: the next activity of another model, when the
  // kernel run in progress reaches it; else now (none may).
  uint64_t next_activity_ps(uint64_t now) const;
  // The time of the action being run, which may be ahead of the kernel's; outside the action
  // loop (register accesses) the kernel's, as action_ps_ stays where the last loop left it.
  uint64_t now_ps() const { return std::max(action_ps_, kernel_ps()); }
  static uint64_t kernel_ps();

  // Operation flow.
  void fetch(uint32_t sq_tail);
  void fetched(uint32_t op_index);
  void try_start(uint32_t die_index);
  void program_data_in(uint32_t op_index);
  void request_bus(uint32_t die_index);
  void grant_bus(uint32_t channel_index);
  void bus_end(uint32_t channel_index);
  void array_end(uint32_t die_index);
  void release_die(uint32_t die_index);
  void decode_read(uint32_t op_index);
  void deliver(uint32_t op_index);
  void post_completion(uint32_t op_index);
  void completion_visible(uint32_t op_index);
  void cq_head_written(uint32_t head);

  // Reads the NAND pages of a read operation into its buffer (at the end of tR).
  void read_pages(Op& op);
  // Programs or erases every plane of the operation (at the end of its bus phase).
  void program_pages(Op& op);
  void erase_blocks(Op& op);
  void set_plane_status(Op& op, uint32_t plane, nand::Status status);

  // DMA: the transfer happens now; returns its duration. Stops the NFC on a bus error.
  uint64_t dma(tlm::tlm_command command, uint32_t address, void* data, uint32_t length,
               uint64_t charged_bytes, const char* what, const Op* op);
  // The memory latency of a transfer done through a direct-memory region, or nullopt.
  std::optional<uint64_t> dma_direct(tlm::tlm_command command, uint32_t address, void* data,
                                     uint32_t length);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  uint64_t dma_start() const;

  uint32_t allocate_op();
  void free_op(uint32_t op_index);
  void set_die_state(uint32_t die_index, DieState state);
  void set_outstanding(uint32_t count);
  void update_interrupt();
  std::string describe(const Op& op) const;
  // Drops every operation and returns the controller (not the array) to its power-on state.
  void reset_controller();
  // Stops the NFC and reports a firmware bug, at the failing action's time.
  void fail(const std::string& message);
  void report_failure(const std::string& message);

  nand::NandArray nand_;
  NfcConfig config_;
  NfcMonitor monitor_;
  RegisterBank registers_;
  std::function<void(bool)> irq_handler_;
  std::function<void(const std::string&)> error_handler_;

  std::priority_queue<Action, std::vector<Action>, std::greater<Action>> actions_;
  uint64_t action_sequence_ = 0;
  uint64_t wake_ps_ = UINT64_MAX;  // the time wake_ is notified for
  sc_core::sc_event wake_;
  uint64_t action_ps_ = 0;
  uint64_t run_ahead_until_ps_ = 0;
  // A failure found while running ahead, reported when the kernel reaches its action's time.
  std::string deferred_failure_;

  std::vector<Op> ops_;
  std::vector<uint32_t> free_ops_;
  std::vector<Die> dies_;
  std::vector<Channel> channels_;
  std::deque<uint32_t> held_completions_;  // waiting for room in the completion ring

  // Rings (indices modulo the entries).
  bool enabled_ = false;
  uint32_t sq_base_ = 0, sq_entries_ = 0, sq_head_ = 0, sq_fetch_ = 0;
  uint32_t cq_base_ = 0, cq_entries_ = 0, cq_head_ = 0, cq_tail_ = 0, cq_reserved_ = 0;
  uint32_t irq_status_ = 0, irq_enable_ = 0;
  bool irq_level_ = false;
  uint32_t outstanding_ = 0;
  uint64_t dma_free_ps_ = 0;
  // Memories that granted direct access (DMI): the same bytes and latency as a bus transfer,
  // without the router on every transfer.
  struct DirectRegion {
    uint64_t start;
    uint64_t end;  // inclusive
    uint8_t* host;
    uint64_t read_ps;
    uint64_t write_ps;
    bool writable;
  };
  std::vector<DirectRegion> direct_;
  bool stopped_ = false;
};

}  // namespace ssdvp
