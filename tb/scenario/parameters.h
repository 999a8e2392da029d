// The registry of every scenario parameter: its key path, kind, unit, allowed values, meaning
// and the field of the Scenario it sets. Defaults are not written here: they are read from a
// default-constructed Scenario (tlm/system/soc_config.h, scenario.h), so they live in one place.
// Adding a parameter is one line in parameters.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "tb/scenario/scenario.h"

namespace ssdvp {

enum class ParamKind {
  kString,
  kBool,
  kCount,      // plain non-negative integer; `unit` says what is counted
  kSize,       // bytes: 4096, 4KiB, 1.5MiB, 1MB
  kTime,       // picoseconds: 10ns, 1.5us (a unit is required; a bare 0 is accepted)
  kFrequency,  // hertz: 800MHz
  kEnum,       // one of `names`; stored as its index
};

// A parsed value: uint64_t for numeric kinds and enums, bool, or std::string.
using ParamValue = std::variant<uint64_t, bool, std::string>;

// The field a parameter writes; the registry checks that numeric limits fit its width.
using FieldRef = std::variant<uint32_t*, uint64_t*, bool*, std::string*>;

struct Parameter {
  std::string key;  // "cpu.cost.div"
  ParamKind kind = ParamKind::kCount;
  std::string unit;  // kCount only: "cycles", "harts"
  uint64_t min = 0;  // numeric kinds: inclusive range in the base unit (bytes, ps, Hz)
  uint64_t max = 0;
  uint64_t multiple_of = 1;
  bool zero_allowed = false;  // 0 (absent, no limit) is valid although below `min`
  std::vector<std::string> names;  // kEnum
  std::string description;
  FieldRef (*field)(Scenario&) = nullptr;

  // Parses value text; throws ScenarioError "<where>: <key>: <problem>; allowed <range>".
  ParamValue parse(const std::string& text, const std::string& where) const;
  // Canonical text of a value: the largest unit that represents it exactly ("1MiB", "800MHz").
  std::string format(const ParamValue& value) const;
  // The value as it goes into Scenario::resolved (numbers for counts, booleans for bools).
  nlohmann::json to_json(const ParamValue& value) const;
  void store(Scenario& scenario, const ParamValue& value) const;
  ParamValue read(const Scenario& scenario) const;
  // "1MHz..5GHz", "0 or 1MiB..2GiB", "ideal, dftl, ...", with the multiple and units if any.
  std::string allowed_text() const;
  // "size", "time", "count (cycles)", ...
  std::string kind_text() const;
};

// Every parameter, in the order --list-params prints them.
const std::vector<Parameter>& parameters();
// nullptr when `key` is not a parameter.
const Parameter* find_parameter(const std::string& key);

// True when `prefix` ("cpu", "cpu.cost", "" for the top level) has parameters below it.
bool is_section(const std::string& prefix);
// The keys directly inside a section, in registry order ("harts, clock, ..., cost").
std::vector<std::string> section_keys(const std::string& prefix);

// Throws ScenarioError "<where>: <key>: <problem>".
[[noreturn]] void throw_scenario_error(const std::string& where, const std::string& key,
                                       const std::string& problem);

}  // namespace ssdvp
