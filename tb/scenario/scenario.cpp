#include "tb/scenario/scenario.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include "tb/scenario/parameters.h"

namespace ssdvp {

namespace {

constexpr const char* kSweepKey = "sweep";

std::string join_key(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string where_in_file(const std::string& source, const YAML::Mark& mark) {
  if (mark.is_null()) return source;
  return fmt::format("{}:{}:{}", source, mark.line + 1, mark.column + 1);
}

// Where YAML nodes came from: the scenario file (errors give line and column) or a --set
// override (errors quote the override).
struct Origin {
  std::string name;
  bool in_file;

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

// Explains why `key` is not a parameter: the first path component that does not exist (with the
// keys its section does have), a path that continues below a parameter, or a section named where
// a value is expected.
[[noreturn]] void throw_unknown_key(const std::string& where, const std::string& key) {
  std::string section;
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    const std::string component = key.substr(start, dot == std::string::npos ? dot : dot - start);
    const std::string path = join_key(section, component);
    if (const Parameter* p = find_parameter(path)) {
      throw_scenario_error(where, key,
                           fmt::format("unknown key: {} is a {} parameter and has no keys", path,
                                       p->kind_text()));
    }
    if (component.empty() || !is_section(path)) {
      throw_scenario_error(where, key,
                           fmt::format("unknown key; allowed keys{}: {}",
                                       section.empty() ? "" : " of " + section,
                                       fmt::join(allowed_keys(section), ", ")));
    }
    if (dot == std::string::npos) {
      throw_scenario_error(where, key,
                           fmt::format("names a section, not a value; its keys: {}",
                                       fmt::join(allowed_keys(path), ", ")));
    }
    section = path;
    start = dot + 1;
  }
}

const Parameter& parameter_or_throw(const std::string& where, const std::string& key) {
  if (const Parameter* p = find_parameter(key)) return *p;
  throw_unknown_key(where, key);
}

// One sweep dimension: a parameter and its values, already parsed.
struct SweepAxis {
  const Parameter* parameter;
  std::vector<ParamValue> values;
};

class ScenarioResolver {
 public:
  explicit ScenarioResolver(const std::string& source) : file_{source, true} {
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
    apply_section(root, "", YAML::Mark::null_mark());
  }

  void apply_override(const std::string& override_text) {
    const std::string where = "--set " + override_text;
    const size_t equals = override_text.find('=');
    if (equals == std::string::npos) {
      throw ScenarioError(fmt::format("{}: expected key.path=value", where));
    }
    const std::string key = override_text.substr(0, equals);
    const std::string value = override_text.substr(equals + 1);
    const std::string sweep_prefix = std::string(kSweepKey) + ".";
    if (key == kSweepKey) {
      throw_scenario_error(where, key, "set one sweep axis at a time: sweep.key.path=[v1, v2]");
    }
    if (key.rfind(sweep_prefix, 0) == 0) {
      apply_override_sweep(where, key.substr(sweep_prefix.size()), value);
      return;
    }
    const Parameter& parameter = parameter_or_throw(where, key);
    parameter.store(base_, parameter.parse(value, where));
    // The override pins the value: a sweep of the same key in the file no longer applies.
    axes_.erase(std::remove_if(axes_.begin(), axes_.end(),
                               [&](const SweepAxis& axis) { return axis.parameter == &parameter; }),
                axes_.end());
  }

  std::vector<Scenario> expand() const {
    size_t points = 1;
    for (const SweepAxis& axis : axes_) points *= axis.values.size();
    std::vector<Scenario> scenarios;
    scenarios.reserve(points);
    for (size_t point = 0; point < points; ++point) {
      Scenario scenario = base_;
      // Mixed-radix digits of `point`, the last axis varying fastest.
      std::vector<std::string> label_parts(axes_.size());
      size_t rest = point;
      for (size_t i = axes_.size(); i-- > 0;) {
        const SweepAxis& axis = axes_[i];
        const ParamValue& value = axis.values[rest % axis.values.size()];
        rest /= axis.values.size();
        axis.parameter->store(scenario, value);
        label_parts[i] = fmt::format("{}={}", axis.parameter->key, axis.parameter->format(value));
      }
      scenario.sweep_label = fmt::format("{}", fmt::join(label_parts, ","));
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
  void apply_section(const YAML::Node& node, const std::string& section,
                     const YAML::Mark& key_mark) {
    if (node.IsNull()) return;
    if (!node.IsMap()) {
      const std::string where = file_.at(mark_of(node, key_mark));
      throw_scenario_error(where, section.empty() ? "<top level>" : section,
                           fmt::format("expected a section with keys {}; got {}",
                                       fmt::join(allowed_keys(section), ", "), describe(node)));
    }
    std::set<std::string> seen;
    for (const auto& entry : node) {
      const std::string name = key_text(entry.first, section, file_);
      const std::string key = join_key(section, name);
      const std::string where = file_.at(entry.first.Mark());
      if (!seen.insert(name).second) throw_scenario_error(where, key, "duplicate key");
      if (section.empty() && name == kSweepKey) {
        apply_file_sweep(entry.second, entry.first.Mark());
      } else if (const Parameter* parameter = find_parameter(key)) {
        apply_value(*parameter, entry.second, entry.first.Mark());
      } else if (is_section(key)) {
        apply_section(entry.second, key, entry.first.Mark());
      } else {
        throw_unknown_key(where, key);
      }
    }
  }

  void apply_value(const Parameter& parameter, const YAML::Node& node,
                   const YAML::Mark& key_mark) {
    parameter.store(base_, parse_node(parameter, node, key_mark, file_));
  }

  ParamValue parse_node(const Parameter& parameter, const YAML::Node& node,
                        const YAML::Mark& key_mark, const Origin& origin) const {
    const std::string where = origin.at(mark_of(node, key_mark));
    if (node.IsScalar()) return parameter.parse(node.Scalar(), where);
    if (node.IsMap()) {
      const auto first = node.begin();
      throw_unknown_key(origin.at(first->first.Mark()),
                        join_key(parameter.key, key_text(first->first, parameter.key, origin)));
    }
    throw_scenario_error(where, parameter.key,
                         fmt::format("expected a {}, got {}; allowed {}", parameter.kind_text(),
                                     describe(node), parameter.allowed_text()));
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
      const std::string key = key_text(entry.first, kSweepKey, file_);
      const std::string where = file_.at(entry.first.Mark());
      if (!seen.insert(key).second) {
        throw_scenario_error(where, join_key(kSweepKey, key), "duplicate key");
      }
      const Parameter& parameter = parameter_or_throw(where, key);
      set_axis(parse_sweep_values(parameter, entry.second, entry.first.Mark(), file_));
    }
  }

  void apply_override_sweep(const std::string& where, const std::string& key,
                            const std::string& value) {
    const Parameter& parameter = parameter_or_throw(where, key);
    YAML::Node list;
    try {
      list = YAML::Load(value);
    } catch (const YAML::Exception& error) {
      throw_scenario_error(where, join_key(kSweepKey, key),
                           fmt::format("expected a list [v1, v2, ...]: {}", error.msg));
    }
    set_axis(parse_sweep_values(parameter, list, YAML::Mark::null_mark(), Origin{where, false}));
  }

  SweepAxis parse_sweep_values(const Parameter& parameter, const YAML::Node& node,
                               const YAML::Mark& key_mark, const Origin& origin) const {
    const std::string where = origin.at(mark_of(node, key_mark));
    const std::string sweep_key = join_key(kSweepKey, parameter.key);
    if (!node.IsSequence()) {
      throw_scenario_error(where, sweep_key,
                           fmt::format("expected a list of values, got {}", describe(node)));
    }
    if (node.size() == 0) {
      throw_scenario_error(where, sweep_key, "the list of values is empty");
    }
    SweepAxis axis{&parameter, {}};
    for (const auto& element : node) {
      axis.values.push_back(parse_node(parameter, element, key_mark, origin));
    }
    return axis;
  }

  // An axis replaces an earlier one of the same key (a later --set sweep wins over the file).
  void set_axis(SweepAxis axis) {
    for (SweepAxis& existing : axes_) {
      if (existing.parameter == axis.parameter) {
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

  void check_consistency(const Scenario& scenario) const {
    const OutputConfig& output = scenario.output;
    if (output.vcd_end_ps != 0 && output.vcd_end_ps <= output.vcd_start_ps) {
      const Parameter& end = *find_parameter("output.vcd_end");
      const Parameter& start = *find_parameter("output.vcd_start");
      throw_scenario_error(
          scenario.sweep_label.empty() ? file_.name
                                       : fmt::format("{} ({})", file_.name, scenario.sweep_label),
          end.key,
          fmt::format("{} is not after {} = {}; allowed 0 (end of the run) or a later time",
                      end.format(uint64_t{output.vcd_end_ps}), start.key,
                      start.format(uint64_t{output.vcd_start_ps})));
    }
  }

  static nlohmann::json resolve(const Scenario& scenario) {
    nlohmann::json resolved = nlohmann::json::object();
    for (const Parameter& parameter : parameters()) {
      std::string pointer = "/" + parameter.key;
      std::replace(pointer.begin(), pointer.end(), '.', '/');
      resolved[nlohmann::json::json_pointer(pointer)] = parameter.to_json(parameter.read(scenario));
    }
    return resolved;
  }

  Origin file_;
  Scenario base_;
  std::vector<SweepAxis> axes_;
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

void print_parameters(std::ostream& out) {
  struct Row {
    std::string key, kind, default_value, allowed, description;
  };
  const Scenario defaults;
  std::vector<Row> rows;
  Row header{"key", "type", "default", "allowed", "description"};
  for (const Parameter& p : parameters()) {
    std::string default_value = p.format(p.read(defaults));
    if (p.kind == ParamKind::kString) default_value = "\"" + default_value + "\"";
    rows.push_back({p.key, p.kind_text(), default_value, p.allowed_text(), p.description});
  }
  size_t key_width = header.key.size(), kind_width = header.kind.size();
  size_t default_width = header.default_value.size(), allowed_width = header.allowed.size();
  for (const Row& row : rows) {
    key_width = std::max(key_width, row.key.size());
    kind_width = std::max(kind_width, row.kind.size());
    default_width = std::max(default_width, row.default_value.size());
    allowed_width = std::max(allowed_width, row.allowed.size());
  }
  const auto print_row = [&](const Row& row) {
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", row.key, key_width, row.kind,
                       kind_width, row.default_value, default_width, row.allowed, allowed_width,
                       row.description);
  };
  print_row(header);
  for (const Row& row : rows) print_row(row);
  out << "\nSizes: bytes or B, KiB, MiB, GiB, KB, MB, GB. Times need ps, ns, us, ms or s. "
         "Frequencies: Hz, kHz, MHz, GHz. Fractions are allowed when exact (1.5us).\n"
         "sweep: {key.path: [v1, v2, ...], ...} runs the cartesian product, first key slowest.\n";
}

}  // namespace ssdvp
