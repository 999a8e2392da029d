// Per-phase FTL metrics from the firmware's statistics block (interface/fw_stats.h). The SoC
// takes a snapshot (the block, read by debug access, plus the harts' counters, the host's
// completed commands and the NAND's erase counts) at the start and end of every workload phase
// and at the end of the run; this turns the differences into the metrics of stats.json "ftl":
//
// {address, boot_complete,
//  memory: {sram: {budget_bytes, used_bytes}, dram: {...}, regions: [{name, bytes, location}]},
//  phases: [{name, finished, <metrics>}], run: {<metrics> from reset to the end of the run}}
//
// <metrics>: host_commands, host_read_pages, host_write_pages, host_trim_pages,
//   write_buffer_read_hits, partial_page_merges,
//   map: {lookups, hits, misses, predictions, mispredictions, updates, update_misses, evictions,
//         dirty_evictions, prefetched, hit_ratio (hits / lookups)},
//   tp_reads, tp_writes (translation pages read and programmed),
//   flash_reads: {host, translation, translation_host, gc, rmw},
//   flash_reads_per_host_read ((host + translation_host) / host_read_pages: the double-read ratio),
//   pages_programmed: {host, gc, translation, padding},
//   waf ((host + gc + translation + padding programmed) / host_write_pages),
//   blocks_erased, gc: {invocations, foreground, pages_moved}, wl_migrations,
//   retired: {groups (retired after a failed program or erase), rescued (retired groups whose
//             valid pages GC moved off), valid_pages_left (still on retired groups at the end)},
//   erase_count: {min, mean, max} over the good blocks at the snapshot that ends the span,
//   firmware: {instructions, cycles, sleep_cycles, instructions_per_command, cycles_per_command,
//              awake_cycles_per_command} (all harts; cycles include sleep, awake ones do not).
// A ratio whose denominator is 0 is null.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interface/fw_stats.h"

namespace ssdvp {

class FtlMetrics {
 public:
  struct EraseCounts {
    uint32_t min = 0;
    double mean = 0;
    uint32_t max = 0;
  };

  struct Snapshot {
    fw_stats_t stats{};
    uint64_t instructions = 0;  // instret of all harts
    uint64_t cycles = 0;        // cycles of all harts, sleep included
    uint64_t sleep_cycles = 0;  // of those, in WFI
    uint64_t host_commands = 0; // commands the host saw completed
    EraseCounts erase_counts;
  };

  // `address`: where the firmware keeps the block (its `fw_stats` symbol).
  explicit FtlMetrics(uint32_t address) : address_(address) {}

  uint32_t address() const { return address_; }
  // Why a block read from the firmware is not a statistics block this platform understands, or
  // nullopt when it is.
  std::optional<std::string> problem(const fw_stats_t& stats) const;

  void phase_begin(const std::string& name, const Snapshot& snapshot);
  void phase_end(const Snapshot& snapshot, bool finished);
  bool in_phase() const { return open_.has_value(); }

  // The "ftl" section, `final` being the snapshot at the end of the run.
  nlohmann::json to_json(const Snapshot& final) const;
  // The metrics of the span from `begin` to `end`.
  static nlohmann::json span_metrics(const Snapshot& begin, const Snapshot& end);

 private:
  struct OpenPhase {
    std::string name;
    Snapshot begin;
  };

  uint32_t address_;
  std::optional<OpenPhase> open_;
  std::vector<nlohmann::json> phases_;
};

}  // namespace ssdvp
