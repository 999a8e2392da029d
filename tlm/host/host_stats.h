// Statistics the host model keeps per workload phase: per op (read, write, trim, flush) the
// commands, bytes, errors and a latency histogram (submission to completion, in ns); IOPS and
// bandwidth over the phase; queue occupancy (the time-weighted mean of the commands outstanding,
// and its maximum); and a time series of the same per interval, the intervals counted from the
// phase start. Everything is exact integers of simulated time, so runs are reproducible.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tlm/host/latency_histogram.h"
#include "tlm/host/workload.h"

namespace ssdvp::host {

class HostStats {
 public:
  static constexpr size_t kOps = 4;  // HostOp values

  struct OpStats {
    uint64_t commands = 0;
    uint64_t bytes = 0;
    uint64_t errors = 0;  // completions with a status other than OK
    LatencyHistogram latency_ns;
  };

  struct Interval {
    uint64_t start_ps = 0;
    uint64_t end_ps = 0;
    std::array<uint64_t, kOps> commands{};
    std::array<uint64_t, kOps> bytes{};
    std::array<unsigned __int128, kOps> latency_sum_ps{};
    unsigned __int128 outstanding_area = 0;  // commands outstanding x ps
  };

  struct Phase {
    std::string name;
    uint64_t start_ps = 0;
    uint64_t end_ps = 0;
    bool finished = false;  // false: the run ended inside the phase
    // Host time the simulation spent in the phase: the simulator's speed per workload phase.
    std::chrono::steady_clock::time_point wall_start;
    double wall_seconds = 0;
    uint64_t submitted = 0;
    uint64_t power_loss_failed = 0;  // commands outstanding when the power was cut
    std::array<OpStats, kOps> ops;
    unsigned __int128 outstanding_area = 0;
    uint64_t max_outstanding = 0;
    std::vector<Interval> intervals;
  };

  // interval_ps 0: no time series.
  explicit HostStats(uint64_t interval_ps);

  void begin_phase(const std::string& name, uint64_t now_ps);
  void submitted(uint64_t now_ps);
  void completed(HostOp op, uint64_t bytes, uint64_t latency_ps, bool ok, uint64_t now_ps);
  // A command outstanding when the power was cut: it failed without a completion (not counted
  // as completed, nor in the latencies).
  void lost_to_power(uint64_t now_ps);
  // Closes the current phase at now_ps: `finished` after its last completion, else because the
  // run ended inside it.
  void end_phase(uint64_t now_ps, bool finished);
  bool in_phase() const { return in_phase_; }
  // A page read back by the verification after a power loss (HostModel::verify_guaranteed),
  // `ok` when the oracle accepted it.
  void verified(bool ok) {
    ++verified_pages_;
    verification_failures_ += ok ? 0 : 1;
  }
  uint64_t verified_pages() const { return verified_pages_; }
  uint64_t verification_failures() const { return verification_failures_; }

  const std::vector<Phase>& phases() const { return phases_; }
  uint64_t commands_completed() const { return commands_completed_; }
  uint64_t outstanding() const { return outstanding_; }

  // {"phases": [{name, start_ps, end_ps, finished, duration_s, commands, errors,
  //   power_loss_failed, bytes, iops,
  //   bandwidth_mb_s, queue_occupancy: {mean, max}, ops: {read: {commands, bytes, errors, iops,
  //   bandwidth_mb_s, latency_ns: {mean, min, p50, p99, p99.9, p99.99, max, buckets}}, ...},
  //   timeseries: {columns, rows}}], verification: {pages, failures}}; MB are 10^6 bytes.
  nlohmann::json to_json() const;
  // phase,op,lower_ns,upper_ns,count: every non-empty histogram bucket.
  void write_latency_csv(std::ostream& out) const;
  // One row per interval of each phase (columns as timeseries_columns()).
  void write_timeseries_csv(std::ostream& out) const;
  static const std::vector<std::string>& timeseries_columns();

 private:
  void advance(uint64_t now_ps);
  Interval& interval_at(uint64_t time_ps);
  std::vector<nlohmann::json> interval_row(const Phase& phase, const Interval& interval) const;

  uint64_t interval_ps_;
  std::vector<Phase> phases_;
  bool in_phase_ = false;
  uint64_t outstanding_ = 0;
  uint64_t last_change_ps_ = 0;
  uint64_t commands_completed_ = 0;
  uint64_t verified_pages_ = 0;
  uint64_t verification_failures_ = 0;
};

// "read", "write", "trim", "flush".
const char* host_op_name(HostOp op);

}  // namespace ssdvp::host
