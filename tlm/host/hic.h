// The host interface controller (interface/hic_regs.h, hic_cmd.h): NVMe-like on the host side,
// two rings in controller memory on the firmware side.
//
// Host side: one submission/completion queue pair per host stream. The host model writes a
// command and rings the doorbell (submit); the HIC fetches commands in round-robin order over the
// queues while it has a free command slot (cmd_id), each fetch a 64-byte transfer to the device
// over the link, and posts a completion (16 bytes to the host) when the firmware completes the
// command. Sector ranges are widened to whole logical pages, flagged partial where they do not
// cover a page.
//
// Firmware side: fetched commands and finished transfers become events the HIC writes by DMA into
// the event ring, raising HIC_IRQ_EVENT; the firmware's requests (DATA_IN, DATA_OUT, COMPLETE)
// are read by DMA from the request ring when it rings HIC_RQ_TAIL. A DATA_IN moves the page over
// the link and then writes its data tag (the host's new version of that LPN) into the buffer
// slot; a DATA_OUT reads the slot's tag and hands it to the host when it arrives there. Each
// transfer moves the page's covered sectors only. A malformed request or register access stops
// the run through the error handler with what was wrong.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "interface/data_tag.h"
#include "interface/hic_cmd.h"
#include "tlm/bus/register_bank.h"
#include "tlm/host/host_link.h"
#include "tlm/host/workload.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp::host {

// A command as the host submits it (an NVMe submission-queue entry).
struct HostCommand {
  uint32_t host_tag = 0;  // the host's id of the command, handed back with its data and completion
  HostOp op = HostOp::kRead;
  uint64_t first_sector = 0;
  uint32_t sector_count = 0;  // 0 for a flush
  bool fua = false;           // writes: HIC_CMD_FUA
};

// The host memory and interrupt side the HIC talks to (the host model).
class HicHost {
 public:
  virtual ~HicHost() = default;
  // DATA_IN: the data tag of page `lpn` that command `host_tag` writes.
  virtual data_tag_t write_data(uint32_t host_tag, uint32_t lpn) = 0;
  // DATA_OUT: page `lpn` of read `host_tag` arrived in host memory holding `tag`.
  virtual void read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) = 0;
  // The completion of `host_tag` arrived with `status` (HIC_STATUS_*).
  virtual void completed(uint32_t host_tag, uint8_t status) = 0;
};

class Hic : public sc_core::sc_module {
 public:
  static constexpr uint32_t kCommandBytes = 64;     // submission-queue entry
  static constexpr uint32_t kCompletionBytes = 16;  // completion-queue entry

  tlm_utils::simple_target_socket<Hic> socket;  // registers, mapped at MM_HIC_BASE
  tlm_utils::simple_initiator_socket<Hic> dma;  // to the router: rings and buffer slots

  // Throws std::runtime_error naming the scenario key for an invalid host configuration.
  // `waves` is nullable.
  Hic(sc_core::sc_module_name name, const HostConfig& config, WaveWriter* waves);

  // The interrupt line (to the interrupt controller, IRQ_SRC_HIC): level high while an enabled
  // interrupt status bit is set.
  void connect_interrupt(std::function<void(bool level)> line) { interrupt_ = std::move(line); }
  // Called once, at the first malformed request or register access; the HIC then stops.
  void on_error(std::function<void(const std::string& message)> handler) {
    error_handler_ = std::move(handler);
  }
  // The host side; attached before the first command is submitted.
  void attach_host(HicHost& host) { host_ = &host; }

  // Power-on reset: the HIC returns to its state at construction: registers at their reset
  // values, rings stopped, not failed, no command held or queued (the host's queue pairs stay,
  // empty), no event, request or transfer pending, the link idle, statistics zero. A high
  // interrupt line falls; the handlers and the host stay attached. Valid only while the HIC's
  // processes wait for work, not in the middle of a ring access (each takes one memory access):
  // e.g. between runs of the simulation that ended with no activity left.
  void reset();
  // The power is cut now: the HIC returns to its power-on state as in reset(), at any moment
  // (a ring access under way is abandoned), but keeps its statistics and the link's. Every
  // command it held or had queued is lost without a completion: the host fails them
  // (HostModel::power_lost).
  void power_cut();

  // The firmware has started the rings (HIC_ENABLE): the host may submit.
  bool enabled() const { return enabled_; }
  const sc_core::sc_event& enabled_event() const { return enabled_event_; }

  // Host side. add_queue returns the id of a new queue pair; submit writes a command into the
  // queue and rings its doorbell at the current simulated time.
  unsigned add_queue();
  void submit(unsigned queue, const HostCommand& command);

  uint64_t lpn_count() const { return lpn_count_; }
  uint32_t sectors_per_page() const { return sectors_per_page_; }
  const HostLink& link() const { return link_; }
  // Commands fetched, events posted, requests served by kind, ring high-water marks, the link.
  void report(nlohmann::json& out) const;

 private:
  // A command the firmware holds (its cmd_id is the index in slots_).
  struct Slot {
    bool busy = false;
    HostCommand command;
    hic_event_t event{};               // the command event the firmware got
    std::vector<bool> transferred;     // per page: at least one transfer finished
    uint32_t transfers_in_flight = 0;
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  void declare_registers();

  // Register side effects.
  void write_enable(uint32_t value, const sc_core::sc_time& delay);
  void write_ring_layout(const char* name, uint32_t offset, uint32_t value, uint32_t old);
  void write_event_head(uint32_t value, const sc_core::sc_time& delay);
  void write_request_tail(uint32_t value, const sc_core::sc_time& delay);
  void update_interrupt();
  // Everything of reset() but the statistics.
  void reset_controller();

  // Processes.
  void post_events_thread();
  void requests_thread();
  void run_due_actions();

  void try_fetch();
  hic_event_t command_event(uint32_t cmd_id, const HostCommand& command) const;
  void serve_request(const hic_request_t& request);
  void start_data_in(uint32_t cmd_id, const hic_request_t& request);
  void start_data_out(uint32_t cmd_id, const hic_request_t& request);
  void complete(uint32_t cmd_id, const hic_request_t& request);
  void transfer_done(uint32_t cmd_id, uint32_t page_index, uint32_t buffer);
  uint64_t page_transfer_bytes(const hic_event_t& event, uint32_t page_index) const;
  void queue_event(const hic_event_t& event);

  // Timed actions (link arrivals), run in time order, ties in the order they were scheduled.
  void at(uint64_t time_ps, std::function<void()> action);
  // DMA through the router; false (after reporting the error) when the access failed. `what()`
  // describes the transfer: it is formatted only for that report, not on every access.
  template <typename Describe>
  bool dma_access(tlm::tlm_command command, uint32_t address, void* data, unsigned length,
                  sc_core::sc_time& delay, const Describe& what);
  void fail(const std::string& message);
  uint64_t now_ps() const;
  void record(std::optional<WaveWriter::SignalId> signal, uint64_t value, uint64_t time_ps);
  uint32_t event_ring_count() const;
  uint32_t request_ring_count() const;

  HostConfig config_;
  HostLink link_;
  uint64_t lpn_count_;
  uint32_t sectors_per_page_;
  RegisterBank registers_;
  WaveWriter* waves_;
  HicHost* host_ = nullptr;
  std::function<void(bool)> interrupt_;
  std::function<void(const std::string&)> error_handler_;

  bool enabled_ = false;
  bool failed_ = false;
  bool interrupt_level_ = false;
  uint32_t event_base_ = 0, event_entries_ = 0, event_head_ = 0, event_tail_ = 0;
  uint32_t request_base_ = 0, request_entries_ = 0, request_head_ = 0, request_tail_ = 0;
  uint32_t irq_status_ = 0;
  uint32_t irq_enable_ = 0;

  std::vector<std::deque<HostCommand>> queues_;
  unsigned next_queue_ = 0;  // round-robin arbitration
  uint64_t queued_commands_ = 0;
  std::vector<Slot> slots_;
  std::set<uint32_t> free_slots_;  // lowest cmd_id first, so runs are reproducible
  uint32_t busy_slots_ = 0;
  std::deque<hic_event_t> pending_events_;

  // Timed actions, a min-heap on (time, sequence): a heap in a vector allocates no node per
  // action, as a map does.
  struct TimedAction {
    uint64_t time_ps;
    uint64_t sequence;
    std::function<void()> run;
    bool operator>(const TimedAction& other) const {
      return time_ps != other.time_ps ? time_ps > other.time_ps : sequence > other.sequence;
    }
  };
  std::vector<TimedAction> actions_;
  // Every DMA reuses one payload: constructing one allocates its extension array. DMAs never
  // overlap, as the memories answer without waiting.
  tlm::tlm_generic_payload dma_payload_;
  uint64_t action_sequence_ = 0;
  // Counts power cuts: a process that waited through one drops the access it was making.
  uint64_t power_epoch_ = 0;
  sc_core::sc_event action_event_;
  sc_core::sc_event enabled_event_;
  sc_core::sc_event post_event_;
  sc_core::sc_event doorbell_event_;

  // Statistics.
  uint64_t commands_fetched_ = 0;
  uint64_t events_posted_ = 0;
  uint64_t data_in_requests_ = 0;
  uint64_t data_out_requests_ = 0;
  uint64_t completions_ = 0;
  uint32_t max_event_ring_ = 0;
  uint32_t max_busy_slots_ = 0;
  uint64_t event_ring_full_waits_ = 0;

  std::optional<WaveWriter::SignalId> wave_commands_;
  std::optional<WaveWriter::SignalId> wave_submissions_;
  std::optional<WaveWriter::SignalId> wave_event_ring_;
  std::optional<WaveWriter::SignalId> wave_request_ring_;
};

}  // namespace ssdvp::host
