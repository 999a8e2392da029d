// The host: runs the workload phases in order through the HIC, keeps the statistics and is the
// data-integrity oracle.
//
// - It starts when the firmware has started the HIC rings (like a host waiting for the
//   controller to be ready), then runs each phase: every stream keeps up to its queue_depth
//   commands outstanding on its own submission queue. A trace stream that follows timestamps
//   submits each request at its arrival time (the phase start plus the trace time), later when
//   the stream's queue is full; other streams submit whenever their queue has room.
// - A write or trim whose pages overlap a write or trim still in flight waits until that one
//   completes (fio's serialize_overlap), and so does the rest of its stream: concurrent writes
//   of one page have no defined order, so no oracle could check what a later read returns.
// - A phase stops submitting at its limits (requests, bytes or capacity_multiple times the
//   capacity, simulated time since its start) or when all its streams are exhausted, and ends
//   once its outstanding commands completed.
//   After the last phase the done handler ends the run.
// - Writes carry a data tag per page (the LPN and its new version); the oracle checks every
//   page a read returns (integrity_oracle.h has the rule). With host.oracle off, versions are
//   not tracked: every page written carries version 1 and reads are not checked.
// - Latency is measured from submission (the doorbell) to the completion's arrival.
// - Durability: writes flagged FUA and flushes tell the oracle what is guaranteed to survive a
//   power loss (integrity_oracle.h); after one, verify_guaranteed() reads every guaranteed LPN
//   back.
// - A power cut (power_lost) fails every outstanding command at once, without a completion
//   (stats: power_loss_failed per phase); the host then submits nothing until the controller is
//   ready again (the firmware starts the HIC rings: HIC_ENABLE, as at the first boot) and goes
//   on with the phase's remaining requests. A timed phase's clock runs on while the power is off.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "tlm/host/hic.h"
#include "tlm/host/host_stats.h"
#include "tlm/host/integrity_oracle.h"
#include "tlm/host/workload.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp::host {

class HostModel : public sc_core::sc_module, public HicHost {
 public:
  using SourceFactory = std::function<std::unique_ptr<RequestSource>(
      const StreamConfig& stream, uint64_t device_sectors, uint32_t sector_bytes, uint64_t seed)>;

  enum class Failure {
    kIntegrity,  // a read returned data the oracle does not accept
    kWorkload,   // a stream's source failed (a bad trace line) or produced an invalid request
  };

  // Builds every stream's request source now, so a bad trace or stream fails before the run
  // (std::runtime_error naming workload.phases[i].streams[j]). Attaches itself to `hic`.
  HostModel(sc_core::sc_module_name name, const HostConfig& config,
            const WorkloadConfig& workload, uint64_t seed, Hic& hic, WaveWriter* waves,
            SourceFactory factory = make_request_source);

  // Called once when the last phase ended, with a one-line summary.
  void on_done(std::function<void(const std::string& summary)> handler) {
    done_handler_ = std::move(handler);
  }
  // Called when a phase begins (ended false) and when it ends after its last completion (ended
  // true), at that simulated time: the SoC snapshots the firmware's statistics there.
  void on_phase(std::function<void(const std::string& name, bool ended)> handler) {
    phase_handler_ = std::move(handler);
  }
  // Called after every completion, with the commands completed so far in the run.
  void on_completion(std::function<void(uint64_t completed)> handler) {
    completion_handler_ = std::move(handler);
  }
  // Called once when the run cannot go on; the host model then stops.
  void on_failure(std::function<void(Failure failure, const std::string& message)> handler) {
    failure_handler_ = std::move(handler);
  }

  bool has_workload() const { return !phases_.empty(); }
  bool done() const { return done_; }
  const HostStats& stats() const { return stats_; }
  const IntegrityOracle& oracle() const { return oracle_; }
  IntegrityOracle& oracle() { return oracle_; }
  uint64_t commands_completed() const { return stats_.commands_completed(); }
  // Commands of one stream outstanding now, the most it ever had, and its commands submitted.
  uint32_t stream_outstanding(size_t phase, size_t stream) const;
  uint32_t stream_max_outstanding(size_t phase, size_t stream) const;
  uint64_t stream_submitted(size_t phase, size_t stream) const;

  // The verification after a power loss, once the controller is ready again: reads every LPN
  // with a guaranteed version (IntegrityOracle::guaranteed_lpns), one page per command in LPN
  // order, keeping up to the workload's largest queue depth outstanding on queue 0, and checks
  // each by the oracle's rule (the recovery rule for LPNs not written since the cut). Counts the
  // pages and failures in the host statistics (not in a phase's); logs each failure, and after
  // the pass reports the first through the failure handler (kIntegrity) with the count. Blocks:
  // call it from a SystemC thread, with no command of the workload outstanding. Returns the
  // failures.
  uint64_t verify_guaranteed();
  // The power was cut now: every outstanding command fails, the oracle hears of the cut, and
  // once the controller is ready again the phase goes on only after verify_guaranteed() ran
  // (with the oracle on). Returns how many commands failed.
  uint32_t power_lost();

  // The run ended (at `now_ps`, its final time): closes the statistics of a phase it cut short.
  void end_of_run(uint64_t now_ps);

  // {oracle: {enabled, pages_checked, lpns_tracked}, capacity_bytes, commands_completed,
  //  phases: [...] (host_stats.h)}.
  void report(nlohmann::json& out) const;

  // HicHost.
  data_tag_t write_data(uint32_t host_tag, uint32_t lpn) override;
  void read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) override;
  void completed(uint32_t host_tag, uint8_t status) override;

 private:
  struct Stream {
    StreamConfig config;
    std::string where;  // "workload.phases[0].streams[1]" and the stream's name
    unsigned queue = 0;
    std::unique_ptr<RequestSource> source;
    std::optional<HostRequest> next;  // taken from the source, not yet submitted
    bool exhausted = false;
    uint32_t outstanding = 0;
    uint32_t max_outstanding = 0;
    uint64_t submitted = 0;
  };

  struct Phase {
    PhaseConfig config;
    std::vector<Stream> streams;
  };

  // A command submitted and not yet completed; its host_tag is its index in commands_.
  struct Command {
    bool busy = false;
    Stream* stream = nullptr;
    HostOp op = HostOp::kRead;
    uint32_t first_lpn = 0;
    uint32_t pages = 0;
    bool fua = false;
    uint64_t flush_id = 0;  // flushes: the oracle's id
    uint64_t bytes = 0;
    uint64_t submit_ps = 0;
    // Per page: writes the version written, reads the oracle snapshot at submission.
    std::vector<uint32_t> page_values;
    // Trims: the pages covered whole, which become zeroes [first, end).
    uint32_t trim_first = 0;
    uint32_t trim_end = 0;
  };

  void run_thread();
  void run_phase(size_t index);
  // Submits what the streams may submit now; returns the earliest future arrival, if any.
  std::optional<uint64_t> submit_ready(Phase& phase);
  // The stream's next request if it may be submitted now (else nullopt, with the arrival time
  // of a request that is not due yet in `due_ps`).
  const HostRequest* ready_request(Stream& stream, std::optional<uint64_t>& due_ps);
  bool overlaps_write_in_flight(const HostRequest& request) const;
  void submit(Stream& stream, const HostRequest& request);
  bool phase_limit_reached(const PhaseConfig& phase) const;
  Command& command(uint32_t host_tag, const char* what);
  void fail(Failure failure, const std::string& message);
  uint64_t now_ps() const;

  HostConfig config_;
  Hic& hic_;
  WaveWriter* waves_;
  uint64_t device_sectors_;
  uint32_t sectors_per_page_;
  std::vector<Phase> phases_;
  // The verification's reads (verify_guaranteed): a stream outside the phases.
  Stream verify_stream_;
  uint64_t power_cuts_ = 0;
  bool verify_pending_ = false;  // cut since the last verification: one runs once ready
  std::optional<std::string> verify_failure_;  // the first failure of the running verification
  uint64_t verify_failures_ = 0;
  std::vector<Command> commands_;
  std::vector<uint32_t> free_tags_;
  std::unordered_set<uint32_t> lpns_being_written_;
  IntegrityOracle oracle_;
  HostStats stats_;

  // The running phase.
  uint64_t phase_start_ps_ = 0;
  uint64_t phase_requests_ = 0;
  uint64_t phase_bytes_ = 0;
  uint32_t outstanding_ = 0;

  bool done_ = false;
  bool failed_ = false;
  sc_core::sc_event wake_event_;
  std::function<void(const std::string&)> done_handler_;
  std::function<void(Failure, const std::string&)> failure_handler_;
  std::function<void(const std::string&, bool)> phase_handler_;
  std::function<void(uint64_t)> completion_handler_;

  std::optional<WaveWriter::SignalId> wave_outstanding_;
  std::optional<WaveWriter::SignalId> wave_completions_;
  std::optional<WaveWriter::SignalId> wave_completion_pulse_;
};

}  // namespace ssdvp::host
