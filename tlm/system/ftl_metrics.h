// FTL metrics from the firmware's statistics block (interface/fw_stats.h): the arena regions and
// the metrics the firmware registered by name (firmware/lib/metrics.h). The SoC takes a snapshot
// (the block and every variable it points at, read by debug access, plus the harts' counters,
// the host's completed commands and the NAND's erase counts) at the start and end of every
// workload phase, every host.stats_interval within a phase and at the end of the run; this
// turns them into stats.json "ftl" and ftl_timeseries.csv:
//
// {address, boot_complete,
//  memory: {sram: {budget_bytes, used_bytes}, dram: {...}, regions: [{name, bytes, location}]},
//  phases: [{name, finished, <metrics>, series: {time_ns: [...], <column>: [...]}}],
//  run: {<metrics> from reset to the end of the run}}
//
// <metrics>: every registered metric, nested by the dots of its name: a counter's growth over
// the span, a gauge's value at its end, a histogram as {bucket_width, counts} (growth per
// bucket). Then what derives from them, when the firmware has the inputs (kRatios in the .cpp):
// map.hit_ratio, flash_reads_per_host_read, waf (every pages_programmed.* over
// host_write_pages), host_reads_lsb_fraction, gc.cycles_per_selection, tp_reads and tp_writes; and from the platform:
// erase_count {min, mean, max} over the good blocks at the span's end, and firmware
// {instructions, cycles, sleep_cycles, instructions_per_command, cycles_per_command,
// awake_cycles_per_command} (all harts, per host command completed), and in it harts: [{hart,
// cycles, sleep_cycles, job_cycles: {<job kind>: cycles}}] (each hart's, its cycles by the job
// kind the firmware charged them to: interface/job_kinds.h). A ratio whose denominator is 0 is
// null.
//
// A series column is a counter's growth from the phase's start, a gauge's value, or a ratio
// over the same span; each ratio also has a column "<name>_interval" over the span since the
// sample before. The last sample of a finished phase is taken at its end, so it equals the
// phase's metrics.
//
// Across a power loss the firmware boots again and zeroes its statistics block: the SoC hands
// the snapshot taken at the cut to carry_over, and from then on every counter, histogram and
// distribution bucket reads as its value at the cut plus what the new boot counted, so spans
// and series run on over reboots as if the counting had not stopped (the run's totals). Gauges
// are the new boot's. The new boot's metrics must be those of the same image at the same
// addresses (the same firmware and configuration boot again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "interface/fw_stats.h"
#include "tlm/system/job_kinds.h"

namespace ssdvp {

class FtlMetrics {
 public:
  struct EraseCounts {
    uint32_t min = 0;
    double mean = 0;
    uint32_t max = 0;
  };

  struct Region {
    std::string name;
    uint32_t bytes = 0;
    uint32_t location = FW_STATS_LOCATION_SRAM;
  };

  struct Metric {
    std::string name;
    uint32_t kind = FW_METRIC_COUNTER;
    uint32_t bucket_width = 1;
    uint32_t address = 0;          // of its value (its first bucket) in firmware memory
    uint32_t value_bytes = 8;
    std::vector<uint64_t> values;  // one, or one per bucket
  };

  // One hart's counters in a snapshot.
  struct HartCycles {
    uint64_t cycles = 0;
    uint64_t sleep_cycles = 0;
    JobKindCycles job_cycles{};    // by job kind (tlm/system/job_kinds.h); they sum to cycles
  };

  struct Snapshot {
    fw_stats_t block{};            // as read (header and tables)
    std::vector<Region> regions;
    std::vector<Metric> metrics;   // in registration order
    uint64_t instructions = 0;     // instret of all harts
    uint64_t cycles = 0;           // cycles of all harts, sleep included
    uint64_t sleep_cycles = 0;     // of those, in WFI
    std::vector<HartCycles> harts; // each hart's
    uint64_t host_commands = 0;    // commands the host saw completed
    EraseCounts erase_counts;
    uint64_t time_ps = 0;

    // The metric named `name`, looked for at index `hint` first (snapshots of one image list
    // their metrics in the same order); nullptr when there is none.
    const Metric* find(const std::string& name, size_t hint = SIZE_MAX) const;
  };

  // Copies `bytes` from firmware memory at `address`; false when they are not all there.
  using DebugRead = std::function<bool(uint32_t address, void* data, size_t bytes)>;
  // The host bytes behind `bytes` of firmware memory at `address` when they are plain memory
  // that a debug read copies from; nullptr for anything else (DebugRead reads that).
  using HostBytes = std::function<const uint8_t*(uint32_t address, size_t bytes)>;

  // `address`: where the firmware keeps the block (its `fw_stats` symbol).
  explicit FtlMetrics(uint32_t address) : address_(address) {}

  uint32_t address() const { return address_; }

  // Reads the block and what it points at into `snapshot` (the platform's fields untouched).
  // Returns why it is not a statistics block this platform understands, or nullopt.
  std::optional<std::string> read(const DebugRead& debug_read, Snapshot& snapshot) const;

  // `host_bytes` finds the phase's counters and gauges in host memory once, for its samples.
  void phase_begin(const std::string& name, const Snapshot& snapshot,
                   const HostBytes& host_bytes);
  // The open phase's counters and gauges now, read from the variables the table named when it
  // began (the table is filled at boot): cheaper than a snapshot, for the time series. Those
  // phase_begin found in host memory are read there, the others through `debug_read`.
  std::optional<std::string> read_sample(const DebugRead& debug_read,
                                         std::vector<uint64_t>& values) const;
  // A sample of the open phase at `time_ps` (ignored without one).
  void sample(uint64_t time_ps, const std::vector<uint64_t>& values);
  void phase_end(const Snapshot& snapshot, bool finished);
  bool in_phase() const { return open_.has_value(); }
  // The power was cut with the firmware's counters at `at_cut` (a snapshot read since the last
  // carry_over): later reads add them to what the firmware counts after its next boot.
  void carry_over(const Snapshot& at_cut);

  // The "ftl" section, `final` being the snapshot at the end of the run.
  nlohmann::json to_json(const Snapshot& final) const;
  // ftl_timeseries.csv: phase, time_ns, then the columns of the phases' series.
  void write_timeseries_csv(std::ostream& out) const;
  // The metrics of the span from `begin` to `end`.
  static nlohmann::json span_metrics(const Snapshot& begin, const Snapshot& end);

 private:
  // A ratio (kRatios in the .cpp) with its terms as positions in Phase::scalars.
  struct RatioTerms {
    size_t ratio;
    std::vector<size_t> numerator;
    std::vector<size_t> denominator;
  };

  struct Phase {
    std::string name;
    Snapshot begin;
    std::vector<size_t> scalars;         // begin.metrics indices of the counters and gauges
    std::vector<const uint8_t*> scalar_bytes;  // their values in host memory, or nullptr
    std::vector<uint64_t> begin_values;  // their values when the phase began
    std::vector<uint64_t> last_values;   // and at the last sample
    std::vector<RatioTerms> ratio_terms; // the ratios whose inputs the firmware has
    std::vector<std::string> columns;    // the scalars' names, then <ratio>, <ratio>_interval
    std::vector<uint64_t> times_ns;
    std::vector<double> cells;           // columns.size() per sample; NaN: null
    nlohmann::json metrics;              // once ended: name, finished and the span's metrics
  };

  std::optional<std::string> read_name(const DebugRead& debug_read, uint32_t address,
                                       std::string& name) const;
  static std::vector<uint64_t> scalar_values(const Phase& phase, const Snapshot& snapshot);
  static void add_row(Phase& phase, uint64_t time_ps, const std::vector<uint64_t>& values);
  static nlohmann::json series_json(const Phase& phase);

  uint32_t address_;
  mutable std::unordered_map<uint32_t, std::string> names_;  // by address: names never change
  // What a metric's value (each bucket) had reached at the last power cut: added to reads.
  uint64_t carried(const Metric& metric, size_t bucket) const;

  std::unordered_map<std::string, std::vector<uint64_t>> carried_;  // by metric name
  std::optional<Phase> open_;
  std::vector<Phase> phases_;
};

}  // namespace ssdvp
