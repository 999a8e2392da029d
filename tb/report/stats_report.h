// stats.json of a run and the summary table ssdsim prints.
//
// Determinism rule: every field that depends on the wall clock sits under "simulator" and has
// "wall", "mips" or "speed" in its name. Dropping those keys, two runs of the same scenario must
// give identical stats.json files; new wall-clock fields must follow the same naming.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "tb/scenario/scenario.h"

namespace ssdvp {

struct RunOutcome {
  // "exit", "tohost_pass", "tohost_fail", "fault", "max_time", "max_instructions", "hang"
  std::string outcome;
  int exit_code = 0;
  std::string message;
};

// {
//   "scenario":  {name, source, sweep_label},
//   "config":    scenario.resolved,
//   "outcome":   {outcome, exit_code, message},
//   "harts":     platform["harts"], passed through (per hart: instret, cycles, sleep_cycles,
//                job_cycles {<job kind>: cycles}, ...),
//   "host":      platform["host"] when present, passed through (the host model's statistics),
//   "ftl":       platform["ftl"] when present, passed through (tlm/system/ftl_metrics.h),
//   "platform":  every other key of `platform` (simulated_time_ps, ...),
//   "simulator": {wall_seconds, simulated_seconds, instructions (sum of instret),
//                 mips (instructions / wall_seconds / 1e6),
//                 sim_speed (simulated seconds per wall second),
//                 phases_wall: [{name, wall_seconds}] (the host time of each workload phase,
//                 taken out of host.phases)}
// }
// `platform` is what the SoC reports and must hold "harts" (an array of objects with "instret")
// and "simulated_time_ps"; an unknown outcome or a missing key throws std::runtime_error. A
// wall time of 0 (too short to measure) gives mips and sim_speed 0.
nlohmann::json make_stats(const Scenario& scenario, const RunOutcome& outcome,
                          nlohmann::json platform, double wall_seconds);

// Writes `json` indented (an array of plain values on one line), creating missing parent
// directories; errors name the path.
void write_json(const std::string& path, const nlohmann::json& json);

// Removes, at any depth, the fields the determinism rule above names as wall-clock fields.
void drop_wall_clock_fields(nlohmann::json& stats);

// An aligned table: scenario, outcome, simulated time, per hart instret / cycles / sleep % /
// IPC (instructions per awake cycle) and a line of its cycles' shares by job kind, the host's
// phases (commands, IOPS, bandwidth, queue occupancy, latency percentiles per op) and oracle,
// the FTL's key figures per phase and its memory use, then wall time and MIPS.
void print_summary(std::ostream& out, const nlohmann::json& stats);

}  // namespace ssdvp
