#include "tb/scenario/parameters.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "boot_config.h"
#include "memory_map.h"

namespace ssdvp {

namespace {

constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;
constexpr uint64_t kKB = 1000;
constexpr uint64_t kMB = 1000 * kKB;
constexpr uint64_t kGB = 1000 * kMB;
constexpr uint64_t kNs = 1000;  // times are in picoseconds
constexpr uint64_t kUs = 1000 * kNs;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint64_t kSecond = 1000 * kMs;
constexpr uint64_t kKHz = 1000;
constexpr uint64_t kMHz = 1000 * kKHz;
constexpr uint64_t kGHz = 1000 * kMHz;

// ---- Value syntax of the unit kinds ------------------------------------------------------------

struct Unit {
  const char* name;
  uint64_t scale;  // in the base unit (byte, ps, Hz)
};

struct UnitSystem {
  const char* what;             // "size", used in messages
  const char* base;             // what a whole number of base units is called in messages
  std::vector<Unit> units;      // largest first: the canonical form uses the first exact one
  const char* zero;             // canonical text of 0
  bool unit_required;
};

const UnitSystem& unit_system(ParamKind kind) {
  static const UnitSystem kSize{"size", "bytes",
                                {{"GiB", kGiB}, {"MiB", kMiB}, {"KiB", kKiB}, {"GB", kGB},
                                 {"MB", kMB}, {"KB", kKB}, {"B", 1}},
                                "0B", false};
  static const UnitSystem kTime{"time", "picoseconds",
                                {{"s", kSecond}, {"ms", kMs}, {"us", kUs}, {"ns", kNs}, {"ps", 1}},
                                "0s", true};
  static const UnitSystem kFrequency{"frequency", "hertz",
                                     {{"GHz", kGHz}, {"MHz", kMHz}, {"kHz", kKHz}, {"Hz", 1}},
                                     "0Hz", true};
  switch (kind) {
    case ParamKind::kSize: return kSize;
    case ParamKind::kTime: return kTime;
    default: return kFrequency;
  }
}

std::string unit_names(const UnitSystem& system) {
  std::vector<std::string> names;
  // Smallest first reads naturally in a list of allowed units.
  for (auto it = system.units.rbegin(); it != system.units.rend(); ++it) names.push_back(it->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string format_with_units(const UnitSystem& system, uint64_t value) {
  if (value == 0) return system.zero;
  for (const Unit& unit : system.units) {
    if (value % unit.scale == 0) return fmt::format("{}{}", value / unit.scale, unit.name);
  }
  return std::to_string(value);  // unreachable: the last unit has scale 1
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Longer fractions are refused as inexact: the units here need at most 12 decimals (ps in a
// second; binary sizes would need more only for sub-KiB fractions of GiB), and the 128-bit
// arithmetic below must not overflow.
constexpr size_t kMaxFractionDigits = 24;
// More integer digits than this exceed uint64 before any unit is applied.
constexpr size_t kMaxIntegerDigits = 20;

// ---- Registry entry builders: each parameter is one line in the table below --------------------

#define SSDVP_FIELD(member) [](Scenario& s) -> FieldRef { return &s.member; }

Parameter text(std::string key, const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p;
  p.key = std::move(key);
  p.kind = ParamKind::kString;
  p.description = description;
  p.field = field;
  return p;
}

Parameter flag(std::string key, const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = ParamKind::kBool;
  return p;
}

Parameter choice(std::string key, std::vector<std::string> names, const char* description,
                 FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = ParamKind::kEnum;
  p.names = std::move(names);
  return p;
}

Parameter numeric(ParamKind kind, std::string key, uint64_t min, uint64_t max,
                  const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = kind;
  p.min = min;
  p.max = max;
  return p;
}

Parameter count(std::string key, const char* unit, uint64_t min, uint64_t max,
                const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = numeric(ParamKind::kCount, std::move(key), min, max, description, field);
  p.unit = unit;
  return p;
}

Parameter size(std::string key, uint64_t min, uint64_t max, const char* description,
               FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kSize, std::move(key), min, max, description, field);
}

Parameter duration(std::string key, uint64_t min, uint64_t max, const char* description,
               FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kTime, std::move(key), min, max, description, field);
}

Parameter frequency(std::string key, uint64_t min, uint64_t max, const char* description,
                    FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kFrequency, std::move(key), min, max, description, field);
}

Parameter or_zero(Parameter p) {
  p.zero_allowed = true;
  return p;
}

Parameter multiple_of(uint64_t multiple, Parameter p) {
  p.multiple_of = multiple;
  return p;
}

Parameter cost(const char* name, const char* description, FieldRef (*field)(Scenario&)) {
  return count(std::string("cpu.cost.") + name, "cycles", 0, 1000, description, field);
}

std::vector<Parameter> build_registry() {
  std::vector<Parameter> registry = {
      text("name", "scenario name in stats.json (\"\" = the file name without extension)",
           SSDVP_FIELD(name)),
      count("seed", "", 0, kU32Max, "seed of every random choice, passed to the firmware",
            SSDVP_FIELD(soc.sim.seed)),
      duration("sim.max_time", 0, kUnlimited, "stop at this simulated time (0 = no limit)",
               SSDVP_FIELD(soc.sim.max_time_ps)),
      count("sim.max_instructions", "instructions", 0, kUnlimited,
            "stop after this many instructions over all harts (0 = no limit)",
            SSDVP_FIELD(soc.sim.max_instructions)),

      count("cpu.harts", "harts", 1, MM_MAX_HARTS, "controller cores sharing the bus",
            SSDVP_FIELD(soc.cpu.harts)),
      frequency("cpu.clock", 1 * kMHz, 4 * kGHz, "core clock (the boot config holds it in 32 bits)",
                SSDVP_FIELD(soc.cpu.clock_hz)),
      frequency("cpu.timebase", 1 * kKHz, 1 * kGHz, "CLINT mtime rate",
                SSDVP_FIELD(soc.cpu.timebase_hz)),
      duration("cpu.quantum", 1 * kNs, 10 * kMs, "temporal-decoupling quantum of each hart",
               SSDVP_FIELD(soc.cpu.quantum_ps)),
      multiple_of(16, size("cpu.stack_per_hart", 1 * kKiB, 1 * kMiB, "SRAM stack of each hart",
                           SSDVP_FIELD(soc.cpu.stack_bytes_per_hart))),
      cost("alu", "integer ALU instruction", SSDVP_FIELD(soc.cpu.cost.alu)),
      cost("branch_taken", "taken branch", SSDVP_FIELD(soc.cpu.cost.branch_taken)),
      cost("branch_not_taken", "branch not taken", SSDVP_FIELD(soc.cpu.cost.branch_not_taken)),
      cost("jump", "jal, jalr", SSDVP_FIELD(soc.cpu.cost.jump)),
      cost("load", "load, plus the memory's latency", SSDVP_FIELD(soc.cpu.cost.load)),
      cost("store", "store, plus the memory's latency", SSDVP_FIELD(soc.cpu.cost.store)),
      cost("mul", "multiply", SSDVP_FIELD(soc.cpu.cost.mul)),
      cost("div", "divide, remainder", SSDVP_FIELD(soc.cpu.cost.div)),
      cost("csr", "CSR access", SSDVP_FIELD(soc.cpu.cost.csr)),
      cost("atomic", "LR/SC and AMO", SSDVP_FIELD(soc.cpu.cost.atomic)),
      cost("fence", "fence, fence.i", SSDVP_FIELD(soc.cpu.cost.fence)),
      cost("misaligned", "extra per split misaligned access", SSDVP_FIELD(soc.cpu.cost.misaligned)),
      cost("trap", "trap entry and mret", SSDVP_FIELD(soc.cpu.cost.trap)),

      size("rom.size", 4 * kKiB, MM_ROM_WINDOW, "firmware ROM capacity",
           SSDVP_FIELD(soc.rom.size_bytes)),
      count("rom.latency_cycles", "cycles", 0, 1000, "ROM access latency",
            SSDVP_FIELD(soc.rom.latency_cycles)),
      size("sram.size", 16 * kKiB, MM_SRAM_WINDOW, "on-chip SRAM capacity",
           SSDVP_FIELD(soc.sram.size_bytes)),
      count("sram.latency_cycles", "cycles", 0, 1000, "SRAM access latency",
            SSDVP_FIELD(soc.sram.latency_cycles)),
      or_zero(size("dram.size", 1 * kMiB, MM_DRAM_WINDOW, "DRAM capacity (0 = no DRAM)",
                   SSDVP_FIELD(soc.dram.size_bytes))),
      duration("dram.latency", 0, 1 * kMs, "DRAM access latency",
               SSDVP_FIELD(soc.dram.latency_ps)),

      text("firmware.elf", "firmware image (\"\" = the one built with the simulator)",
           SSDVP_FIELD(soc.firmware.elf)),
      choice("firmware.scheme", BOOT_SCHEME_NAMES, "FTL mapping scheme",
             SSDVP_FIELD(soc.firmware.scheme)),

      text("output.dir", "directory of stats.json and the other results",
           SSDVP_FIELD(output.dir)),
      text("output.vcd", "waveform file (\"\" = none)", SSDVP_FIELD(output.vcd)),
      duration("output.vcd_start", 0, kUnlimited, "waveform window start",
               SSDVP_FIELD(output.vcd_start_ps)),
      duration("output.vcd_end", 0, kUnlimited, "waveform window end (0 = end of the run)",
               SSDVP_FIELD(output.vcd_end_ps)),
      text("output.trace_insn", "instruction trace file (\"\" = none)",
           SSDVP_FIELD(output.trace_insn)),
      flag("output.profile", "report cycles per firmware function", SSDVP_FIELD(output.profile)),
      count("output.profile_top", "functions", 1, 1000, "functions listed by the profile",
            SSDVP_FIELD(output.profile_top)),
  };
  // A limit beyond the field's width would be truncated when stored: a registry bug.
  Scenario probe;
  for (const Parameter& p : registry) {
    if (std::holds_alternative<uint32_t*>(p.field(probe)) && p.max > kU32Max) {
      throw std::logic_error(fmt::format("parameter {}: maximum {} exceeds its 32-bit field",
                                         p.key, p.max));
    }
  }
  return registry;
}

#undef SSDVP_FIELD

std::string quoted(const std::string& text) { return "'" + text + "'"; }

[[noreturn]] void fail_value(const Parameter& p, const std::string& where,
                             const std::string& problem) {
  throw_scenario_error(where, p.key, fmt::format("{}; allowed {}", problem, p.allowed_text()));
}

}  // namespace

void throw_scenario_error(const std::string& where, const std::string& key,
                          const std::string& problem) {
  throw ScenarioError(fmt::format("{}: {}: {}", where, key, problem));
}

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> registry = build_registry();
  return registry;
}

const Parameter* find_parameter(const std::string& key) {
  for (const Parameter& p : parameters()) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

bool is_section(const std::string& prefix) {
  if (prefix.empty()) return true;
  const std::string start = prefix + ".";
  return std::any_of(parameters().begin(), parameters().end(),
                     [&](const Parameter& p) { return p.key.rfind(start, 0) == 0; });
}

std::vector<std::string> section_keys(const std::string& prefix) {
  const std::string start = prefix.empty() ? "" : prefix + ".";
  std::vector<std::string> keys;
  for (const Parameter& p : parameters()) {
    if (p.key.rfind(start, 0) != 0) continue;
    const std::string rest = p.key.substr(start.size());
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(keys.begin(), keys.end(), child) == keys.end()) keys.push_back(child);
  }
  return keys;
}

std::string Parameter::kind_text() const {
  switch (kind) {
    case ParamKind::kString: return "string";
    case ParamKind::kBool: return "bool";
    case ParamKind::kCount: return unit.empty() ? "count" : fmt::format("count ({})", unit);
    case ParamKind::kSize: return "size";
    case ParamKind::kTime: return "time";
    case ParamKind::kFrequency: return "frequency";
    case ParamKind::kEnum: return "enum";
  }
  return "";
}

std::string Parameter::allowed_text() const {
  switch (kind) {
    case ParamKind::kString: return "any text";
    case ParamKind::kBool: return "true, false";
    case ParamKind::kEnum: return fmt::format("{}", fmt::join(names, ", "));
    default: break;
  }
  std::string range = max == kUnlimited ? fmt::format("{} or more", format(min))
                                        : fmt::format("{}..{}", format(min), format(max));
  if (zero_allowed) range = fmt::format("{} or {}", format(uint64_t{0}), range);
  if (multiple_of > 1) range += fmt::format(", a multiple of {}", format(multiple_of));
  return range;
}

ParamValue Parameter::parse(const std::string& value_text, const std::string& where) const {
  const auto fail = [&](const std::string& problem) { fail_value(*this, where, problem); };

  switch (kind) {
    case ParamKind::kString: return value_text;
    case ParamKind::kBool:
      if (value_text == "true") return true;
      if (value_text == "false") return false;
      fail_value(*this, where, fmt::format("{} is not a bool", quoted(value_text)));
    case ParamKind::kEnum: {
      const auto found = std::find(names.begin(), names.end(), value_text);
      if (found == names.end()) fail(fmt::format("{} is not a known name", quoted(value_text)));
      return static_cast<uint64_t>(found - names.begin());
    }
    default: break;
  }

  // Numeric kinds: digits, an optional fraction, optional spaces, then the unit.
  size_t pos = 0;
  while (pos < value_text.size() && is_digit(value_text[pos])) ++pos;
  const std::string integer_digits = value_text.substr(0, pos);
  std::string fraction_digits;
  if (pos < value_text.size() && value_text[pos] == '.' && !integer_digits.empty()) {
    const size_t start = ++pos;
    while (pos < value_text.size() && is_digit(value_text[pos])) ++pos;
    fraction_digits = value_text.substr(start, pos - start);
  }
  if (integer_digits.empty()) {
    fail(fmt::format("{} is not a {}", quoted(value_text),
                     kind == ParamKind::kCount ? "non-negative integer" : unit_system(kind).what));
  }
  while (pos < value_text.size() && value_text[pos] == ' ') ++pos;
  const std::string unit_text = value_text.substr(pos);

  uint64_t scale = 1;
  const char* base_name = "units";
  if (kind == ParamKind::kCount) {
    if (!unit_text.empty() || !fraction_digits.empty()) {
      fail(fmt::format("{} is not a non-negative integer", quoted(value_text)));
    }
  } else {
    const UnitSystem& system = unit_system(kind);
    base_name = system.base;
    const bool zero = integer_digits.find_first_not_of('0') == std::string::npos &&
                      fraction_digits.find_first_not_of('0') == std::string::npos;
    if (unit_text.empty() && system.unit_required && !zero) {
      fail(fmt::format("{} needs a unit ({})", quoted(value_text), unit_names(system)));
    }
    if (!unit_text.empty()) {
      const auto unit = std::find_if(system.units.begin(), system.units.end(),
                                     [&](const Unit& u) { return unit_text == u.name; });
      if (unit == system.units.end()) {
        fail(fmt::format("{} has an unknown unit {} (units: {})", quoted(value_text),
                         quoted(unit_text), unit_names(system)));
      }
      scale = unit->scale;
    }
  }

  // Exact decimal arithmetic: value = (integer + fraction / 10^d) * scale must be whole.
  const std::string significant_integer =
      integer_digits.substr(std::min(integer_digits.find_first_not_of('0'), integer_digits.size()));
  std::string significant_fraction = fraction_digits;
  significant_fraction.erase(significant_fraction.find_last_not_of('0') + 1);
  const std::string shown = quoted(value_text);
  if (significant_integer.size() > kMaxIntegerDigits) {
    fail(fmt::format("{} is out of range", shown));
  }
  if (significant_fraction.size() > kMaxFractionDigits) {
    fail(fmt::format("{} is not a whole number of {}", shown, base_name));
  }
  unsigned __int128 integer = 0;
  for (const char c : significant_integer) integer = integer * 10 + (c - '0');
  unsigned __int128 fraction = 0;
  unsigned __int128 fraction_scale = 1;
  for (const char c : significant_fraction) {
    fraction = fraction * 10 + (c - '0');
    fraction_scale *= 10;
  }
  const unsigned __int128 fraction_value = fraction * scale;
  if (fraction_value % fraction_scale != 0) {
    fail(fmt::format("{} is not a whole number of {}", shown, base_name));
  }
  const unsigned __int128 total = integer * scale + fraction_value / fraction_scale;
  if (total > kUnlimited) fail(fmt::format("{} is out of range", shown));
  const uint64_t value = static_cast<uint64_t>(total);

  if (!(value == 0 && zero_allowed) && (value < min || value > max)) {
    fail(fmt::format("{} is out of range", shown));
  }
  if (value % multiple_of != 0) {
    fail(fmt::format("{} is not a multiple of {}", shown, format(multiple_of)));
  }
  return value;
}

std::string Parameter::format(const ParamValue& value) const {
  switch (kind) {
    case ParamKind::kString: return std::get<std::string>(value);
    case ParamKind::kBool: return std::get<bool>(value) ? "true" : "false";
    case ParamKind::kEnum: return names.at(std::get<uint64_t>(value));
    case ParamKind::kCount: return std::to_string(std::get<uint64_t>(value));
    default: return format_with_units(unit_system(kind), std::get<uint64_t>(value));
  }
}

nlohmann::json Parameter::to_json(const ParamValue& value) const {
  switch (kind) {
    case ParamKind::kBool: return std::get<bool>(value);
    case ParamKind::kCount: return std::get<uint64_t>(value);
    default: return format(value);
  }
}

void Parameter::store(Scenario& scenario, const ParamValue& value) const {
  std::visit(
      [&](auto* target) {
        using Target = std::remove_pointer_t<decltype(target)>;
        if constexpr (std::is_same_v<Target, std::string> || std::is_same_v<Target, bool>) {
          *target = std::get<Target>(value);
        } else {
          // parse() checked the value against max, which the registry checked fits the field.
          *target = static_cast<Target>(std::get<uint64_t>(value));
        }
      },
      field(scenario));
}

ParamValue Parameter::read(const Scenario& scenario) const {
  // The binding hands out a mutable pointer; here it is only read.
  return std::visit(
      [](auto* source) -> ParamValue {
        using Source = std::remove_pointer_t<decltype(source)>;
        if constexpr (std::is_same_v<Source, std::string> || std::is_same_v<Source, bool>) {
          return *source;
        } else {
          return static_cast<uint64_t>(*source);
        }
      },
      field(const_cast<Scenario&>(scenario)));
}

}  // namespace ssdvp
