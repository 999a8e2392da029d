// A scenario: the YAML file (or the embedded default) plus --set overrides, resolved into the
// typed configuration of one run per sweep point. Every key it accepts is a parameter of the
// registry in parameters.h; this file only walks the YAML, applies overrides and expands sweeps.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/system/soc_config.h"

namespace ssdvp {

// Where a run writes its results (scenario section `output`).
struct OutputConfig {
  std::string dir = "results";
  std::string vcd;            // empty: no waveforms
  uint64_t vcd_start_ps = 0;
  uint64_t vcd_end_ps = 0;    // 0 = until the end of the run
  std::string trace_insn;     // empty: no instruction trace
  bool profile = false;
  uint32_t profile_top = 20;
};

struct Scenario {
  std::string name;
  std::string source;       // the file or "<default scenario>" it came from
  std::string sweep_label;  // "" without a sweep, else "sram.size=256KiB,firmware.scheme=tpftl"
  SocConfig soc;
  OutputConfig output;
  // Every parameter's final value nested by key path ({"cpu": {"clock": "800MHz"}}): sizes,
  // times, frequencies and enums as canonical text that parses back to the same value, counts and
  // reals as numbers, booleans as booleans; record lists as arrays of objects
  // ({"workload": {"phases": [{"name": "measure", "streams": [...]}]}}).
  nlohmann::json resolved;
};

// A scenario that cannot be resolved. The message names where the value came from
// ("file:line:column" or "--set key=value"), the key path and the allowed values or range.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `yaml_text`; `source` names it in errors, and relative paths in it resolve against the
// directory of `source`. `overrides` are "key.path=value" strings (ssdsim --set), applied in order
// after the file and before the sweep is expanded; an override of a swept key replaces that
// sweep axis, and "sweep.key.path=[v1, v2]" adds or replaces one. A key of a record carries its
// indices ("workload.phases[1].streams[0].pattern"); a record list's key takes a YAML list that
// replaces it ("workload.phases=[{...}]").
// Returns one Scenario per sweep point, the first sweep key varying slowest; one without a sweep.
std::vector<Scenario> load_scenarios(const std::string& yaml_text, const std::string& source,
                                     const std::vector<std::string>& overrides);

// The whole file as text; throws ScenarioError naming the path when it cannot be read.
std::string read_scenario_file(const std::string& path);

// `ssdsim --list-params`: key, type and unit, default, allowed range or values, description.
void print_parameters(std::ostream& out);
// `ssdsim --params-table`: the same as a Markdown table, README's parameter table.
void print_parameters_markdown(std::ostream& out);

}  // namespace ssdvp
