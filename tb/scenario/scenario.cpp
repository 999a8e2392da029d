#include "tb/scenario/scenario.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include "tb/scenario/fio_job.h"
#include "tb/scenario/parameters.h"
#include "tlm/host/synthetic_profile.h"

namespace ssdvp {

namespace {

constexpr const char* kSweepKey = "sweep";
// Each point of a sweep is a run in a child process: no real sweep comes near this many. The
// limit keeps a mistyped sweep from exhausting memory before the first run, and the product of
// the axes' lengths from overflowing.
constexpr size_t kMaxSweepPoints = 10'000;

std::string join_key(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string where_in_file(const std::string& source, const YAML::Mark& mark) {
  if (mark.is_null()) return source;
  return fmt::format("{}:{}:{}", source, mark.line + 1, mark.column + 1);
}

// Where YAML nodes came from: the scenario file (errors give line and column) or a --set
// override (errors quote the override). Relative paths in values resolve against base_dir.
struct Origin {
  std::string name;
  bool in_file;
  std::string base_dir;

  std::string at(const YAML::Mark& mark) const {
    return in_file ? where_in_file(name, mark) : name;
  }
};

std::string describe(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "no value";
  return fmt::format("'{}'", node.Scalar());
}

std::vector<std::string> allowed_keys(const std::string& section) {
  std::vector<std::string> keys = section_keys(section);
  if (section.empty()) keys.push_back(kSweepKey);
  return keys;
}

// A key as the scenario writes it ("workload.phases[1].streams[0].pattern") and as the registry
// knows it ("workload.phases[].streams[].pattern"), with the record indices it names.
struct KeyPath {
  std::string schema;
  std::string shown;
  RecordIndices indices;

  KeyPath child(const std::string& name) const {
    return {join_key(schema, name), join_key(shown, name), indices};
  }
  KeyPath element(size_t index) const {
    KeyPath path{schema + "[]", fmt::format("{}[{}]", shown, index), indices};
    path.indices.push_back(index);
    return path;
  }
};

// Resolves a key written with indices against the registry: a parameter or a whole record list.
// Anything else throws, naming the first component that does not exist (with the keys its
// section does have), a path that continues below a parameter, a section named where a value is
// expected, or a list without an index.
KeyPath resolve_key(const std::string& where, const std::string& text) {
  KeyPath path;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const bool last = dot == std::string::npos;
    std::string component = text.substr(start, last ? dot : dot - start);
    std::optional<size_t> index;
    const size_t bracket = component.find('[');
    if (bracket != std::string::npos) {
      const std::string digits = component.substr(bracket + 1, component.size() - bracket - 2);
      if (component.back() != ']' || digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        throw_scenario_error(where, text,
                             fmt::format("'{}' is not name[index] with a non-negative index",
                                         component));
      }
      index = std::stoul(digits);
      component.resize(bracket);
    }
    const KeyPath next = path.child(component);
    const std::string rest = last ? "" : text.substr(dot + 1);
    if (const Parameter* p = find_parameter(next.schema)) {
      if (index) {
        throw_scenario_error(where, text,
                             fmt::format("{} is a {} parameter, not a list", next.shown,
                                         p->kind_text()));
      }
      if (!last) {
        throw_scenario_error(where, text,
                             fmt::format("unknown key: {} is a {} parameter and has no keys",
                                         next.shown, p->kind_text()));
      }
      return next;
    }
    if (find_record_list(next.schema)) {
      if (!index) {
        if (last) return next;
        throw_scenario_error(where, text,
                             fmt::format("{} is a list of records: name one, e.g. {}[0].{}",
                                         next.shown, next.shown, rest));
      }
      path = next.element(*index);
      if (last) {
        throw_scenario_error(where, text,
                             fmt::format("names a record, not a value; its keys: {}",
                                         fmt::join(allowed_keys(path.schema), ", ")));
      }
    } else if (!component.empty() && is_section(next.schema)) {
      if (index) {
        throw_scenario_error(where, text, fmt::format("{} is a section, not a list", next.shown));
      }
      if (last) {
        throw_scenario_error(where, text,
                             fmt::format("names a section, not a value; its keys: {}",
                                         fmt::join(allowed_keys(next.schema), ", ")));
      }
      path = next;
    } else {
      throw_scenario_error(where, text,
                           fmt::format("unknown key; allowed keys{}: {}",
                                       path.shown.empty() ? "" : " of " + path.shown,
                                       fmt::join(allowed_keys(path.schema), ", ")));
    }
    start = dot + 1;
  }
}

// For a key of a YAML map that names no parameter, list or section there: throws resolve_key's
// explanation, or (an indexed key written inside a map) says where indexed keys belong.
[[noreturn]] void throw_unknown_key(const std::string& where, const std::string& text) {
  resolve_key(where, text);
  throw_scenario_error(where, text,
                       "indexed keys are for --set and sweep; in the file, write the value inside "
                       "its record of the list");
}

bool takes_entries(const Parameter& parameter) {
  return parameter.kind == ParamKind::kSizeWeights || parameter.kind == ParamKind::kCountWeights ||
         parameter.kind == ParamKind::kDeviceList;
}

// Keys of a stream record that mean something only for a synthetic stream or only for a trace
// replay; giving one to the other kind of stream is a mistake worth an error.
const std::set<std::string>& synthetic_stream_keys() {
  static const std::set<std::string> keys = {
      "pattern", "read_fraction", "trim_fraction", "fua_fraction", "fsync", "sizes", "size", "alpha",
      "hot_space_fraction", "hot_access_fraction", "db_initial_size", "db_final_size",
      "insert_fraction", "hot_window", "hot_rewrites", "frozen_fraction", "offset",
      "working_set", "align", "profile", "footprint_scale", "read_hot_share", "write_hot_share",
      "write_runs", "read_sizes", "workset", "workset_seed", "workset_chunk", "workset_fill"};
  return keys;
}
const std::set<std::string>& trace_stream_keys() {
  static const std::set<std::string> keys = {"format", "follow_timestamps", "time_scale",
                                             "devices", "fold"};
  return keys;
}
constexpr const char* kStreamRecord = "workload.phases[].streams[]";
// A phase's fio job file: applied before the other keys of its record, which then win.
constexpr const char* kFioKey = "workload.phases[].fio";

// How many record indices a key takes: one per "[]" in it.
size_t record_depth(const std::string& key) {
  return static_cast<size_t>(std::count(key.begin(), key.end(), '['));
}

// A scenario whose record lists each hold one default record: where record defaults are read.
Scenario scenario_with_default_records() {
  Scenario scenario;
  for (const RecordList& list : record_lists()) {
    list.reset(scenario, RecordIndices(record_depth(list.key), 0), 1);
  }
  return scenario;
}

// One sweep dimension: a parameter (of a record, with its indices) and its values, parsed.
struct SweepAxis {
  const Parameter* parameter;
  KeyPath key;
  std::string where;
  std::vector<ParamValue> values;
};

class ScenarioResolver {
 public:
  explicit ScenarioResolver(const std::string& source)
      : file_{source, true, std::filesystem::path(source).parent_path().string()} {
    base_.source = source;
  }

  void apply_file(const std::string& yaml_text) {
    YAML::Node root;
    try {
      root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& error) {
      throw ScenarioError(fmt::format("{}: YAML syntax error: {}",
                                      file_.at(error.mark), error.msg));
    }
    apply_section(root, KeyPath{}, YAML::Mark::null_mark(), file_);
  }

  void apply_override(const std::string& override_text) {
    const std::string where = "--set " + override_text;
    const Origin origin{where, false, ""};
    const size_t equals = override_text.find('=');
    if (equals == std::string::npos) {
      throw ScenarioError(fmt::format("{}: expected key.path=value", where));
    }
    const std::string key_text = override_text.substr(0, equals);
    const std::string value = override_text.substr(equals + 1);
    const std::string sweep_prefix = std::string(kSweepKey) + ".";
    if (key_text == kSweepKey) {
      throw_scenario_error(where, key_text,
                           "set one sweep axis at a time: sweep.key.path=[v1, v2]");
    }
    if (key_text.rfind(sweep_prefix, 0) == 0) {
      apply_override_sweep(where, key_text.substr(sweep_prefix.size()), value);
      return;
    }
    const KeyPath key = resolve_key(where, key_text);
    check_indices(where, key);
    if (const RecordList* list = find_record_list(key.schema)) {
      apply_list(*list, load_value(where, key, value), YAML::Mark::null_mark(), key, origin);
      return;
    }
    const Parameter& parameter = *find_parameter(key.schema);
    parameter.store(base_, parse_text(parameter, value, key, origin), key.indices);
    mark_given(parameter, key);
    if (key.schema == kFioKey) apply_fio_job(key, where);
    // The override pins the value: a sweep of the same key in the file no longer applies.
    axes_.erase(std::remove_if(axes_.begin(), axes_.end(),
                               [&](const SweepAxis& axis) { return axis.key.shown == key.shown; }),
                axes_.end());
  }

  std::vector<Scenario> expand() const {
    // Lists cannot be swept, so every point has the records the base has.
    for (const SweepAxis& axis : axes_) check_indices(axis.where, axis.key);
    size_t points = 1;
    for (const SweepAxis& axis : axes_) {
      if (axis.values.size() > kMaxSweepPoints / points) {
        std::vector<size_t> lengths;
        for (const SweepAxis& each : axes_) lengths.push_back(each.values.size());
        throw_scenario_error(axis.where, join_key(kSweepKey, axis.key.shown),
                             fmt::format("{} points are more than the {} runs a sweep may have",
                                         fmt::join(lengths, " x "), kMaxSweepPoints));
      }
      points *= axis.values.size();
    }
    std::vector<Scenario> scenarios;
    scenarios.reserve(points);
    std::set<std::string> given = given_;
    for (const SweepAxis& axis : axes_) given.insert(axis.key.shown);
    for (size_t point = 0; point < points; ++point) {
      Scenario scenario = base_;
      // Mixed-radix digits of `point`, the last axis varying fastest.
      std::vector<std::string> label_parts(axes_.size());
      size_t rest = point;
      for (size_t i = axes_.size(); i-- > 0;) {
        const SweepAxis& axis = axes_[i];
        const ParamValue& value = axis.values[rest % axis.values.size()];
        rest /= axis.values.size();
        axis.parameter->store(scenario, value, axis.key.indices);
        label_parts[i] = fmt::format("{}={}", axis.key.shown, axis.parameter->format(value));
      }
      scenario.sweep_label = fmt::format("{}", fmt::join(label_parts, ","));
      apply_trace_profiles(scenario, given);
      check_consistency(scenario);
      scenario.resolved = resolve(scenario);
      scenarios.push_back(std::move(scenario));
    }
    return scenarios;
  }

  // A scenario without a name is called after its file.
  void name_after_file_if_unnamed() {
    if (!base_.name.empty()) return;
    const std::string stem = std::filesystem::path(file_.name).stem().string();
    base_.name = stem.empty() ? file_.name : stem;
  }

 private:
  // A map of keys: the top level, a section ("cpu") or a record ("workload.phases[0]").
  void apply_section(const YAML::Node& node, const KeyPath& section, const YAML::Mark& key_mark,
                     const Origin& origin) {
    if (node.IsNull()) return;
    if (!node.IsMap()) {
      const std::string where = origin.at(mark_of(node, key_mark));
      throw_scenario_error(where, section.shown.empty() ? "<top level>" : section.shown,
                           fmt::format("expected {} with keys {}; got {}",
                                       section.indices.empty() ? "a section" : "a record",
                                       fmt::join(allowed_keys(section.schema), ", "),
                                       describe(node)));
    }
    std::map<std::string, YAML::Mark> seen;
    // A phase's job file sets its streams and limits first: the keys given beside it win.
    // (Copies only: assigning a YAML::Node writes into the node it refers to.)
    const auto is_fio = [&](const YAML::Node& key) {
      return key.IsScalar() && section.child(key.Scalar()).schema == kFioKey;
    };
    std::vector<std::pair<YAML::Node, YAML::Node>> entries;
    for (const auto& entry : node) {
      if (is_fio(entry.first)) entries.emplace_back(entry.first, entry.second);
    }
    for (const auto& entry : node) {
      if (!is_fio(entry.first)) entries.emplace_back(entry.first, entry.second);
    }
    for (const auto& entry : entries) {
      const std::string name = key_text(entry.first, section.shown, origin);
      const KeyPath key = section.child(name);
      const std::string where = origin.at(entry.first.Mark());
      // Brackets name a record of a list, which a section writes as a YAML list (a sweep's keys
      // and --set take indices); here a key holding them would match a record field's schema
      // ("workload.phases[].name") with no index.
      if (name.find_first_of("[]") != std::string::npos) {
        throw_scenario_error(where, key.shown,
                             "a key here cannot hold '[' or ']': write a list's records as a "
                             "YAML list (workload: {phases: [{name: ...}]}); indices are for "
                             "sweep keys and --set");
      }
      if (!seen.emplace(name, entry.first.Mark()).second) {
        throw_scenario_error(where, key.shown, "duplicate key");
      }
      if (section.schema.empty() && name == kSweepKey) {
        apply_file_sweep(entry.second, entry.first.Mark());
      } else if (const Parameter* parameter = find_parameter(key.schema)) {
        parameter->store(base_, parse_node(*parameter, entry.second, entry.first.Mark(), key,
                                           origin),
                         key.indices);
        mark_given(*parameter, key);
        if (key.schema == kFioKey) apply_fio_job(key, where);
      } else if (const RecordList* list = find_record_list(key.schema)) {
        apply_list(*list, entry.second, entry.first.Mark(), key, origin);
      } else if (is_section(key.schema)) {
        apply_section(entry.second, key, entry.first.Mark(), origin);
      } else {
        throw_unknown_key(where, key.shown);
      }
    }
    // A shorthand and its full form both given: which one was meant is unclear.
    for (const auto& [name, mark] : seen) {
      const Parameter* parameter = find_parameter(section.child(name).schema);
      if (parameter && !parameter->shorthand_of.empty() && seen.count(parameter->shorthand_of)) {
        throw_scenario_error(origin.at(mark), section.child(name).shown,
                             fmt::format("give {} or {}, not both", name,
                                         parameter->shorthand_of));
      }
    }
  }

  // A list of records replaces the list it names.
  void apply_list(const RecordList& list, const YAML::Node& node, const YAML::Mark& key_mark,
                  const KeyPath& key, const Origin& origin) {
    // The keys given in the records it replaces are gone with them.
    forget_given_records(key.shown);
    if (node.IsNull()) {
      list.reset(base_, key.indices, 0);
      return;
    }
    if (!node.IsSequence()) {
      throw_scenario_error(origin.at(mark_of(node, key_mark)), key.shown,
                           fmt::format("expected a list of records with keys {}; got {}",
                                       fmt::join(allowed_keys(key.schema + "[]"), ", "),
                                       describe(node)));
    }
    list.reset(base_, key.indices, node.size());
    for (size_t i = 0; i < node.size(); ++i) {
      const YAML::Node element = node[i];
      const KeyPath record = key.element(i);
      if (!element.IsMap()) {
        throw_scenario_error(origin.at(mark_of(element, key_mark)), record.shown,
                             fmt::format("expected a record with keys {}; got {}",
                                         fmt::join(allowed_keys(record.schema), ", "),
                                         describe(element)));
      }
      apply_section(element, record, key_mark, origin);
    }
  }

  ParamValue parse_node(const Parameter& parameter, const YAML::Node& node,
                        const YAML::Mark& key_mark, const KeyPath& key,
                        const Origin& origin) const {
    const std::string where = origin.at(mark_of(node, key_mark));
    if (node.IsScalar()) {
      return resolve_path(parameter, parameter.parse(node.Scalar(), where, key.shown), key,
                          where, origin);
    }
    if ((parameter.kind == ParamKind::kSizeWeights ||
         parameter.kind == ParamKind::kCountWeights) &&
        node.IsMap()) {
      std::vector<ValueEntry> entries;
      for (const auto& entry : node) {
        const std::string value_where = origin.at(mark_of(entry.second, entry.first.Mark()));
        if (!entry.first.IsScalar() || !entry.second.IsScalar()) {
          throw_scenario_error(value_where, key.shown,
                               fmt::format("expected {}: weight, got {}: {}",
                                           parameter.kind == ParamKind::kSizeWeights ? "size"
                                                                                     : "count",
                                           describe(entry.first), describe(entry.second)));
        }
        entries.push_back({entry.first.Scalar(), origin.at(entry.first.Mark()),
                           entry.second.Scalar(), value_where});
      }
      return parameter.parse_entries(entries, where, key.shown);
    }
    if (parameter.kind == ParamKind::kDeviceList && node.IsSequence()) {
      std::vector<ValueEntry> entries;
      for (const auto& element : node) {
        const std::string element_where = origin.at(mark_of(element, key_mark));
        if (!element.IsScalar()) {
          throw_scenario_error(element_where, key.shown,
                               fmt::format("expected a device, got {}", describe(element)));
        }
        entries.push_back({"", "", element.Scalar(), element_where});
      }
      return parameter.parse_entries(entries, where, key.shown);
    }
    if (node.IsMap()) {
      const auto first = node.begin();
      throw_unknown_key(origin.at(first->first.Mark()),
                        join_key(key.shown, key_text(first->first, key.shown, origin)));
    }
    throw_scenario_error(where, key.shown,
                         fmt::format("expected a {}, got {}; allowed {}", parameter.kind_text(),
                                     describe(node), parameter.allowed_text()));
  }

  // The value of --set key=value: YAML for maps and lists, else the text as it is.
  ParamValue parse_text(const Parameter& parameter, const std::string& text, const KeyPath& key,
                        const Origin& origin) const {
    if (takes_entries(parameter)) {
      return parse_node(parameter, load_value(origin.name, key, text), YAML::Mark::null_mark(),
                        key, origin);
    }
    return resolve_path(parameter, parameter.parse(text, origin.name, key.shown), key,
                        origin.name, origin);
  }

  static YAML::Node load_value(const std::string& where, const KeyPath& key,
                               const std::string& text) {
    try {
      return YAML::Load(text);
    } catch (const YAML::Exception& error) {
      throw_scenario_error(where, key.shown, fmt::format("not valid YAML: {}", error.msg));
    }
  }

  // A relative path resolves against the directory of the file it was written in (the working
  // directory for --set); the file must exist.
  static ParamValue resolve_path(const Parameter& parameter, ParamValue value, const KeyPath& key,
                                 const std::string& where, const Origin& origin) {
    if (parameter.kind != ParamKind::kPath) return value;
    const std::string& written = std::get<std::string>(value);
    if (written.empty()) return value;
    std::filesystem::path path(written);
    if (path.is_relative() && !origin.base_dir.empty()) {
      path = (std::filesystem::path(origin.base_dir) / path).lexically_normal();
    }
    std::error_code error;
    if (!std::filesystem::exists(path, error) || std::filesystem::is_directory(path, error)) {
      throw_scenario_error(where, key.shown,
                           fmt::format("'{}' is not a file{}", written,
                                       path.string() == written
                                           ? ""
                                           : fmt::format(" (looked for '{}')", path.string())));
    }
    return path.string();
  }

  // Every index of `key` names an existing record.
  void check_indices(const std::string& where, const KeyPath& key) const {
    std::string list_key;
    std::string list_shown;
    size_t level = 0;
    size_t start = 0;
    while (level < key.indices.size()) {
      const size_t brackets = key.schema.find("[]", start);
      list_key = key.schema.substr(0, brackets);
      const size_t size =
          find_record_list(list_key)->size(base_, RecordIndices(key.indices.begin(),
                                                                key.indices.begin() + level));
      const size_t index = key.indices[level];
      list_shown = list_shown + key.schema.substr(start, brackets - start);
      if (index >= size) {
        throw_scenario_error(where, key.shown,
                             fmt::format("index {} is out of range: {} has {} record{}", index,
                                         list_shown, size, size == 1 ? "" : "s"));
      }
      list_shown += fmt::format("[{}]", index);
      start = brackets + 2;
      ++level;
    }
  }

  void apply_file_sweep(const YAML::Node& node, const YAML::Mark& key_mark) {
    if (node.IsNull()) return;
    if (!node.IsMap()) {
      throw_scenario_error(file_.at(mark_of(node, key_mark)), kSweepKey,
                           fmt::format("expected a map of key.path: [values], got {}",
                                       describe(node)));
    }
    std::set<std::string> seen;
    for (const auto& entry : node) {
      const std::string key_written = key_text(entry.first, kSweepKey, file_);
      const std::string where = file_.at(entry.first.Mark());
      const KeyPath key = swept_key(where, key_written);
      if (!seen.insert(key.shown).second) {
        throw_scenario_error(where, join_key(kSweepKey, key.shown), "duplicate key");
      }
      set_axis(parse_sweep_values(key, where, entry.second, entry.first.Mark(), file_));
    }
  }

  void apply_override_sweep(const std::string& where, const std::string& key_written,
                            const std::string& value) {
    const KeyPath key = swept_key(where, key_written);
    YAML::Node list;
    try {
      list = YAML::Load(value);
    } catch (const YAML::Exception& error) {
      throw_scenario_error(where, join_key(kSweepKey, key.shown),
                           fmt::format("expected a list [v1, v2, ...]: {}", error.msg));
    }
    set_axis(parse_sweep_values(key, where, list, YAML::Mark::null_mark(),
                                Origin{where, false, ""}));
  }

  static KeyPath swept_key(const std::string& where, const std::string& written) {
    const KeyPath key = resolve_key(where, written);
    if (find_record_list(key.schema)) {
      throw_scenario_error(where, join_key(kSweepKey, key.shown),
                           "a list of records cannot be swept; sweep keys of its records");
    }
    // The job file replaces the phase's streams, which other sweep axes may address.
    if (key.schema == kFioKey) {
      throw_scenario_error(where, join_key(kSweepKey, key.shown),
                           "a job file cannot be swept; sweep the keys of the streams it gives "
                           "(e.g. queue_depth), or write a scenario per job file");
    }
    return key;
  }

  SweepAxis parse_sweep_values(const KeyPath& key, const std::string& key_where,
                               const YAML::Node& node, const YAML::Mark& key_mark,
                               const Origin& origin) const {
    const Parameter& parameter = *find_parameter(key.schema);
    const std::string where = origin.at(mark_of(node, key_mark));
    const std::string sweep_key = join_key(kSweepKey, key.shown);
    if (!node.IsSequence()) {
      throw_scenario_error(where, sweep_key,
                           fmt::format("expected a list of values, got {}", describe(node)));
    }
    if (node.size() == 0) {
      throw_scenario_error(where, sweep_key, "the list of values is empty");
    }
    SweepAxis axis{&parameter, key, key_where, {}};
    for (const auto& element : node) {
      axis.values.push_back(parse_node(parameter, element, key_mark, key, origin));
    }
    return axis;
  }

  // An axis replaces an earlier one of the same key (a later --set sweep wins over the file).
  void set_axis(SweepAxis axis) {
    for (SweepAxis& existing : axes_) {
      if (existing.key.shown == axis.key.shown) {
        existing = std::move(axis);
        return;
      }
    }
    axes_.push_back(std::move(axis));
  }

  static std::string key_text(const YAML::Node& key_node, const std::string& section,
                              const Origin& origin) {
    if (!key_node.IsScalar()) {
      throw_scenario_error(origin.at(key_node.Mark()),
                           section.empty() ? "<top level>" : section,
                           "keys must be plain names");
    }
    return key_node.Scalar();
  }

  // A value without content (`key:` and nothing) has no position of its own (yaml-cpp gives it
  // the next token's): use its key's.
  static YAML::Mark mark_of(const YAML::Node& node, const YAML::Mark& key_mark) {
    const YAML::Mark mark = node.Mark();
    return node.IsNull() || mark.is_null() ? key_mark : mark;
  }

  // The phase's job file (its `fio` key, just stored) gives the phase its streams and limits;
  // keys given for the streams it replaces are gone with them.
  void apply_fio_job(const KeyPath& key, const std::string& where) {
    host::PhaseConfig& phase = base_.soc.workload.phases.at(key.indices.at(0));
    if (phase.fio_job.empty()) return;
    try {
      apply_fio_job_file(phase.fio_job, phase);
    } catch (const ScenarioError& error) {
      throw_scenario_error(where, key.shown, error.what());
    }
    forget_given_records(key.shown.substr(0, key.shown.rfind('.')) + ".streams");
  }

  // Forgets the keys given in the records of the list `list_shown` ("workload.phases[0].streams").
  void forget_given_records(const std::string& list_shown) {
    const std::string records = list_shown + "[";
    for (auto it = given_.lower_bound(records);
         it != given_.end() && it->compare(0, records.size(), records) == 0;) {
      it = given_.erase(it);
    }
  }

  // A key the file or a --set gave (a shorthand counts as its full form): a trace profile leaves
  // it as it is.
  void mark_given(const Parameter& parameter, const KeyPath& key) {
    if (parameter.shorthand_of.empty()) {
      given_.insert(key.shown);
    } else {
      given_.insert(key.shown.substr(0, key.shown.rfind('.') + 1) + parameter.shorthand_of);
    }
  }

  // Each synthetic stream with a profile gets the profile's values for the keys not given.
  void apply_trace_profiles(Scenario& scenario, const std::set<std::string>& given) const {
    const std::string where = where_resolved(scenario);
    std::vector<host::PhaseConfig>& phases = scenario.soc.workload.phases;
    for (size_t i = 0; i < phases.size(); ++i) {
      for (size_t j = 0; j < phases[i].streams.size(); ++j) {
        host::StreamConfig& stream = phases[i].streams[j];
        const std::string shown = fmt::format("workload.phases[{}].streams[{}].", i, j);
        const auto is_given = [&](const std::string& name) {
          return given.count(shown + name) != 0;
        };
        // A trace stream with a profile is check_stream_keys' error.
        if (!stream.trace_path.empty()) continue;
        const host::TraceProfile* profile = host::find_trace_profile(stream.profile);
        // By value, not by being given: a resolved configuration gives every key and must load
        // again (a given working_set simply wins over the scaled footprint).
        if (!profile && stream.footprint_scale != host::StreamConfig{}.footprint_scale) {
          throw_scenario_error(where, shown + "footprint_scale",
                               "applies with a profile, and this stream has none");
        }
        if (profile) host::apply_trace_profile(*profile, stream, is_given);
      }
    }
  }

  std::string where_resolved(const Scenario& scenario) const {
    return scenario.sweep_label.empty()
               ? file_.name
               : fmt::format("{} ({})", file_.name, scenario.sweep_label);
  }

  void check_consistency(const Scenario& scenario) const {
    const OutputConfig& output = scenario.output;
    if (output.dir.empty()) {
      throw_scenario_error(where_resolved(scenario), "output.dir",
                           "'' names no directory; allowed any directory path (default "
                           "results)");
    }
    if (output.vcd_end_ps != 0 && output.vcd_end_ps <= output.vcd_start_ps) {
      const Parameter& end = *find_parameter("output.vcd_end");
      const Parameter& start = *find_parameter("output.vcd_start");
      throw_scenario_error(
          where_resolved(scenario), end.key,
          fmt::format("{} is not after {} = {}; allowed 0 (end of the run) or a later time",
                      end.format(uint64_t{output.vcd_end_ps}), start.key,
                      start.format(uint64_t{output.vcd_start_ps})));
    }
    check_workload(scenario);
  }

  void check_workload(const Scenario& scenario) const {
    const std::string where = where_resolved(scenario);
    const std::vector<host::PhaseConfig>& phases = scenario.soc.workload.phases;
    const Scenario defaults = scenario_with_default_records();
    std::set<std::string> phase_names;
    for (size_t i = 0; i < phases.size(); ++i) {
      const host::PhaseConfig& phase = phases[i];
      const std::string shown = fmt::format("workload.phases[{}]", i);
      if (phase.name.empty()) {
        throw_scenario_error(where, shown + ".name",
                             "a phase needs a name: its statistics are reported under it");
      }
      if (!phase_names.insert(phase.name).second) {
        throw_scenario_error(where, shown + ".name",
                             fmt::format("an earlier phase is named '{}' too; phase names are "
                                         "unique",
                                         phase.name));
      }
      if (phase.streams.empty()) {
        // An idle phase: the host sends nothing for its duration (background GC may run).
        if (phase.max_time_ps == 0 || phase.max_requests != 0 || phase.max_bytes != 0 ||
            phase.capacity_multiple != 0.0) {
          throw_scenario_error(where, shown + ".streams",
                               "a phase without streams is an idle phase: it needs a duration "
                               "and no requests, bytes or capacity_multiple");
        }
        continue;
      }
      bool synthetic = false;
      std::set<std::string> stream_names;
      for (size_t j = 0; j < phase.streams.size(); ++j) {
        const host::StreamConfig& stream = phase.streams[j];
        const std::string stream_shown = fmt::format("{}.streams[{}]", shown, j);
        const std::string name = stream.name.empty() ? fmt::format("stream{}", j) : stream.name;
        if (!stream_names.insert(name).second) {
          throw_scenario_error(where, stream_shown + ".name",
                               fmt::format("another stream of the phase is named '{}' too; "
                                           "stream names are unique in a phase",
                                           name));
        }
        const bool trace = !stream.trace_path.empty();
        synthetic = synthetic || !trace;
        check_stream_keys(scenario, defaults, {i, j}, trace, where, stream_shown);
      }
      if (synthetic && phase.max_requests == 0 && phase.max_bytes == 0 &&
          phase.max_time_ps == 0 && phase.capacity_multiple == 0.0) {
        throw_scenario_error(where, shown,
                             "synthetic streams never end: a phase with one needs a limit "
                             "(requests, bytes, capacity_multiple or duration)");
      }
    }
  }

  // Keys of synthetic streams on a trace stream, or of traces on a synthetic stream, must keep
  // their defaults.
  static void check_stream_keys(const Scenario& scenario, const Scenario& defaults,
                                const RecordIndices& indices, bool trace,
                                const std::string& where, const std::string& stream_shown) {
    const std::string prefix = std::string(kStreamRecord) + ".";
    for (const Parameter& p : record_parameters()) {
      if (p.key.rfind(prefix, 0) != 0 || !p.shorthand_of.empty()) continue;
      const std::string name = p.key.substr(prefix.size());
      const bool misplaced = trace ? synthetic_stream_keys().count(name) != 0
                                   : trace_stream_keys().count(name) != 0;
      if (misplaced && p.read(scenario, indices) != p.read(defaults, {0, 0})) {
        throw_scenario_error(
            where, fmt::format("{}.{}", stream_shown, name),
            trace ? fmt::format("applies to synthetic streams, and this one replays '{}'",
                                scenario.soc.workload.phases[indices[0]]
                                    .streams[indices[1]]
                                    .trace_path)
                  : std::string("applies to trace replay, and this stream has no trace"));
      }
    }
  }

  static nlohmann::json resolve(const Scenario& scenario) {
    nlohmann::json resolved = nlohmann::json::object();
    for (const Parameter& parameter : parameters()) {
      resolved[pointer_of(parameter.key)] = parameter.to_json(parameter.read(scenario));
    }
    for (const RecordList& list : record_lists()) {
      if (record_depth(list.key) == 0) resolved[pointer_of(list.key)] = resolve_list(scenario, list, {});
    }
    return resolved;
  }

  static nlohmann::json::json_pointer pointer_of(const std::string& key) {
    std::string pointer = "/" + key;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    return nlohmann::json::json_pointer(pointer);
  }

  // The records of `list` as a JSON array of objects, nested lists included.
  static nlohmann::json resolve_list(const Scenario& scenario, const RecordList& list,
                                     const RecordIndices& outer) {
    const std::string prefix = list.key + "[].";
    nlohmann::json records = nlohmann::json::array();
    for (size_t i = 0, size = list.size(scenario, outer); i < size; ++i) {
      RecordIndices indices = outer;
      indices.push_back(i);
      nlohmann::json record = nlohmann::json::object();
      for (const Parameter& p : record_parameters()) {
        const std::string rest = p.key.substr(std::min(p.key.size(), prefix.size()));
        if (p.key.rfind(prefix, 0) != 0 || rest.find('[') != std::string::npos ||
            !p.shorthand_of.empty()) {
          continue;
        }
        record[pointer_of(rest)] = p.to_json(p.read(scenario, indices));
      }
      for (const RecordList& inner : record_lists()) {
        const std::string rest = inner.key.substr(std::min(inner.key.size(), prefix.size()));
        if (inner.key.rfind(prefix, 0) != 0 || rest.find('[') != std::string::npos) continue;
        record[pointer_of(rest)] = resolve_list(scenario, inner, indices);
      }
      records.push_back(std::move(record));
    }
    return records;
  }

  Origin file_;
  Scenario base_;
  std::vector<SweepAxis> axes_;
  // Keys with indices ("workload.phases[1].streams[0].read_fraction") the file or --set gave.
  std::set<std::string> given_;
};

}  // namespace

std::vector<Scenario> load_scenarios(const std::string& yaml_text, const std::string& source,
                                     const std::vector<std::string>& overrides) {
  ScenarioResolver resolver(source);
  resolver.apply_file(yaml_text);
  for (const std::string& override_text : overrides) resolver.apply_override(override_text);
  resolver.name_after_file_if_unnamed();
  return resolver.expand();
}

std::string read_scenario_file(const std::string& path) {
  // A directory opens as a stream that reads as empty: the run would take the defaults.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw ScenarioError(
        fmt::format("scenario file '{}' is a directory; give a YAML file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioError(
        fmt::format("cannot read scenario file '{}': {}", path, std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(fmt::format("error reading scenario file '{}'", path));
  return text.str();
}

namespace {

struct ParameterRow {
  std::string key, kind, default_value, allowed, description;
};

// One row per parameter and record list, in registry order.
std::vector<ParameterRow> parameter_rows() {
  const Scenario defaults;
  std::vector<ParameterRow> rows;
  const auto add_parameter = [&](const Parameter& p, const Scenario& holder) {
    std::string default_value = p.format(p.read(holder, RecordIndices(record_depth(p.key), 0)));
    if (p.kind == ParamKind::kString || p.kind == ParamKind::kPath) {
      default_value = "\"" + default_value + "\"";
    }
    rows.push_back({p.key, p.kind_text(), default_value, p.allowed_text(), p.description});
  };
  for (const Parameter& p : parameters()) add_parameter(p, defaults);
  // Each record list, then the keys of its records (read from one default record).
  const Scenario records = scenario_with_default_records();
  for (const RecordList& list : record_lists()) {
    const std::string record = list.key + "[]";
    rows.push_back({list.key, "list", "[]", "records with the keys below", list.description});
    for (const Parameter& p : record_parameters()) {
      const std::string prefix = record + ".";
      if (p.key.rfind(prefix, 0) == 0 && p.key.find('[', prefix.size()) == std::string::npos) {
        add_parameter(p, records);
      }
    }
  }
  return rows;
}

// A table cell: a '|' would end the cell early.
std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}

}  // namespace

void print_parameters_markdown(std::ostream& out) {
  out << "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
  for (const ParameterRow& row : parameter_rows()) {
    out << fmt::format("| `{}` | {} | `{}` | {} | {} |\n", row.key, markdown_cell(row.kind),
                       markdown_cell(row.default_value), markdown_cell(row.allowed),
                       markdown_cell(row.description));
  }
}

void print_parameters(std::ostream& out) {
  const std::vector<ParameterRow> rows = parameter_rows();
  const ParameterRow header{"key", "type", "default", "allowed", "description"};
  size_t key_width = header.key.size(), kind_width = header.kind.size();
  size_t default_width = header.default_value.size(), allowed_width = header.allowed.size();
  for (const ParameterRow& row : rows) {
    key_width = std::max(key_width, row.key.size());
    kind_width = std::max(kind_width, row.kind.size());
    default_width = std::max(default_width, row.default_value.size());
    allowed_width = std::max(allowed_width, row.allowed.size());
  }
  const auto print_row = [&](const ParameterRow& row) {
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", row.key, key_width, row.kind,
                       kind_width, row.default_value, default_width, row.allowed, allowed_width,
                       row.description);
  };
  print_row(header);
  for (const ParameterRow& row : rows) print_row(row);
  out << "\nSizes: bytes or B, KiB, MiB, GiB, KB, MB, GB. Times need ps, ns, us, ms or s. "
         "Frequencies: Hz, kHz, MHz, GHz. Fractions are allowed when exact (1.5us).\n"
         "sweep: {key.path: [v1, v2, ...], ...} runs the cartesian product, first key slowest.\n"
         "Lists of records are YAML lists of maps; [] in a key stands for a record's index: "
         "--set workload.phases[1].streams[0].queue_depth=8 sets one key (sweeps take such keys "
         "too), --set workload.phases='[{...}, ...]' replaces a whole list.\n";
}

}  // namespace ssdvp
