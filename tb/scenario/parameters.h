// The registry of every scenario parameter: its key path, kind, unit, allowed values, meaning
// and the field of the Scenario it sets. Defaults are not written here: they are read from a
// default-constructed Scenario (tlm/system/soc_config.h, scenario.h), so they live in one place.
// Adding a parameter is one line in parameters.cpp.
//
// Lists of records (workload phases, the streams of a phase) are YAML lists of maps. A record
// list has a key of its own ("workload.phases"); the parameters of its records have keys with
// "[]" where the index goes ("workload.phases[].streams[].pattern") and are addressed with
// RecordIndices ({1, 0} for workload.phases[1].streams[0].pattern). Their defaults are those of
// a default-constructed record.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
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
  kEnum,       // one of `names`; stored as its index, or as the name in a string field
  kReal,       // a decimal number (0.9, 1e-3) in the range real_min..real_max
  kPath,       // a file; relative paths resolve against the scenario file's directory (the
               // working directory for --set) and the file must exist; "" = none
  kSizeWeights,  // request sizes with weights, {4KiB: 0.7, 64KiB: 0.3}, or one size (weight 1);
                 // sizes within min..max; weights positive, relative to their sum
  kCountWeights,  // the same with counts ({1: 0.6, 16: 0.4}, or one count); `unit` says what
                  // is counted
  kDeviceList,   // trace devices, [0, 3] or major:minor [8:0]; [] = all
};

using SizeWeights = std::vector<std::pair<uint64_t, double>>;  // bytes (or counts) -> weight
using DeviceList = std::vector<uint32_t>;

// A parsed value: uint64_t for integer kinds and enums, bool, std::string (strings, paths),
// double (reals), SizeWeights or DeviceList.
using ParamValue = std::variant<uint64_t, bool, std::string, double, SizeWeights, DeviceList>;

// The field a parameter writes; the registry checks that numeric limits fit its width.
using FieldRef =
    std::variant<uint32_t*, uint64_t*, bool*, std::string*, double*, SizeWeights*, DeviceList*>;

// Which record of each enclosing list a record parameter addresses, outermost first.
using RecordIndices = std::vector<size_t>;

// One element of a map or list value (k*Weights, kDeviceList) as the scenario wrote it, with
// where each part came from. A list element has no key.
struct ValueEntry {
  std::string key;
  std::string key_where;
  std::string value;
  std::string value_where;
};

struct Parameter {
  std::string key;  // "cpu.cost.div", "workload.phases[].streams[].pattern"
  ParamKind kind = ParamKind::kCount;
  std::string unit;  // kCount and kCountWeights: "cycles", "harts"
  uint64_t min = 0;  // numeric kinds: inclusive range in the base unit (bytes, ps, Hz)
  uint64_t max = 0;
  uint64_t multiple_of = 1;
  bool zero_allowed = false;  // 0 (absent, no limit) is valid although below `min`
  std::vector<std::string> names;  // kEnum
  double real_min = 0.0;  // kReal: the range; an open end excludes its bound
  double real_max = 0.0;
  bool real_min_open = false;
  bool real_max_open = false;
  // A shorthand writes the field of another parameter ("size" for "sizes"): it has no entry in
  // the resolved configuration, and one record may not give both.
  std::string shorthand_of;
  std::string description;
  FieldRef (*field)(Scenario&) = nullptr;
  FieldRef (*record_field)(Scenario&, const RecordIndices&) = nullptr;  // record parameters

  bool is_record_parameter() const { return record_field != nullptr; }

  // Parses value text; throws ScenarioError "<where>: <key>: <problem>; allowed <range>", with
  // `shown_key` (the key with its indices) in place of `key` when given.
  ParamValue parse(const std::string& text, const std::string& where) const;
  ParamValue parse(const std::string& text, const std::string& where,
                   const std::string& shown_key) const;
  // k*Weights and kDeviceList written as a map or a list; errors point at the entry.
  ParamValue parse_entries(const std::vector<ValueEntry>& entries, const std::string& where,
                           const std::string& shown_key) const;
  // Canonical text of a value: the largest unit that represents it exactly ("1MiB", "800MHz").
  std::string format(const ParamValue& value) const;
  // The value as it goes into Scenario::resolved (numbers for counts and reals, booleans for
  // bools, an object for size weights, a list for devices).
  nlohmann::json to_json(const ParamValue& value) const;
  // `indices` addresses the record of a record parameter; plain parameters take none.
  void store(Scenario& scenario, const ParamValue& value, const RecordIndices& indices = {}) const;
  ParamValue read(const Scenario& scenario, const RecordIndices& indices = {}) const;
  // "1MHz..5GHz", "0 or 1MiB..2GiB", "ideal, dftl, ...", with the multiple and units if any.
  std::string allowed_text() const;
  // "size", "time", "count (cycles)", ...
  std::string kind_text() const;
};

// A list of records: the scenario writes it as a YAML list of maps.
struct RecordList {
  std::string key;  // "workload.phases", "workload.phases[].streams"
  std::string description;
  // The records now in the list addressed by `outer` (the indices of the enclosing records).
  size_t (*size)(const Scenario&, const RecordIndices& outer) = nullptr;
  // Replaces the list by `count` default records.
  void (*reset)(Scenario&, const RecordIndices& outer, size_t count) = nullptr;
};

// Every plain (not record) parameter, in the order --list-params prints them.
const std::vector<Parameter>& parameters();
// The parameters of records, in the order --list-params prints them.
const std::vector<Parameter>& record_parameters();
const std::vector<RecordList>& record_lists();
// nullptr when `key` is not a parameter (plain or record; record keys are written with "[]").
const Parameter* find_parameter(const std::string& key);
// nullptr when `key` ("workload.phases[].streams") is not a record list.
const RecordList* find_record_list(const std::string& key);

// True when `prefix` ("cpu", "cpu.cost", "workload.phases[]", "" for the top level) has
// parameters or record lists below it.
bool is_section(const std::string& prefix);
// The keys directly inside a section, in registry order ("harts, clock, ..., cost").
std::vector<std::string> section_keys(const std::string& prefix);

// Throws ScenarioError "<where>: <key>: <problem>".
[[noreturn]] void throw_scenario_error(const std::string& where, const std::string& key,
                                       const std::string& problem);

}  // namespace ssdvp
