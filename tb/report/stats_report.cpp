#include "tb/report/stats_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "tlm/system/job_kinds.h"

namespace ssdvp {

namespace {

constexpr std::array<const char*, 11> kOutcomes = {
    "exit", "tohost_pass", "tohost_fail", "fault", "max_time", "max_instructions", "hang",
    "workload_done", "workload_error", "integrity_failure", "hic_error"};
constexpr std::array<const char*, 3> kHartCounters = {"instret", "cycles", "sleep_cycles"};
constexpr double kPsPerSecond = 1e12;

// A non-negative integer, whether the reporter stored it signed or unsigned.
bool is_count(const nlohmann::json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
}

void check_platform(const nlohmann::json& platform) {
  const auto fail = [](const std::string& problem) {
    throw std::runtime_error("platform report: " + problem);
  };
  if (!platform.is_object()) fail("expected an object");
  if (!platform.contains("simulated_time_ps") || !is_count(platform["simulated_time_ps"])) {
    fail("\"simulated_time_ps\" is missing or not a non-negative integer");
  }
  if (!platform.contains("harts") || !platform["harts"].is_array()) {
    fail("\"harts\" is missing or not an array");
  }
  for (size_t hart = 0; hart < platform["harts"].size(); ++hart) {
    const nlohmann::json& counters = platform["harts"][hart];
    for (const char* name : kHartCounters) {
      if (!counters.is_object() || !counters.contains(name) || !is_count(counters[name])) {
        fail(fmt::format("harts[{}].{} is missing or not a non-negative integer; each hart "
                         "needs {}",
                         hart, name, fmt::join(kHartCounters, ", ")));
      }
    }
  }
}

// "1.234 ms": three decimals in the largest unit that keeps the number at least 1.
std::string human_time(uint64_t ps) {
  static constexpr std::array<std::pair<const char*, double>, 5> kUnits = {
      {{"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}, {"ps", 1}}};
  for (const auto& [name, scale] : kUnits) {
    if (static_cast<double>(ps) >= scale) {
      return fmt::format("{:.3f} {}", static_cast<double>(ps) / scale, name);
    }
  }
  return "0 ps";
}

// Per workload phase: commands, IOPS, bandwidth, queue occupancy, and latency percentiles of
// each op that ran; then whether the integrity oracle was on and what it checked.
void print_host_summary(std::ostream& out, const nlohmann::json& stats) {
  if (!stats.contains("host")) return;
  const nlohmann::json& host = stats.at("host");
  const nlohmann::json& phases = host.at("phases");
  if (phases.empty()) return;
  for (const nlohmann::json& phase : phases) {
    out << fmt::format("phase {}{}: {} commands in {}, {:.0f} IOPS, {:.1f} MB/s, queue "
                       "occupancy {:.1f} (max {})\n",
                       phase.at("name").get<std::string>(),
                       phase.at("finished").get<bool>() ? "" : " (cut short by the run's end)",
                       phase.at("commands").get<uint64_t>(),
                       human_time(phase.at("end_ps").get<uint64_t>() -
                                  phase.at("start_ps").get<uint64_t>()),
                       phase.at("iops").get<double>(), phase.at("bandwidth_mb_s").get<double>(),
                       phase.at("queue_occupancy").at("mean").get<double>(),
                       phase.at("queue_occupancy").at("max").get<uint64_t>());
    for (const auto& [op, op_stats] : phase.at("ops").items()) {
      const uint64_t commands = op_stats.at("commands").get<uint64_t>();
      if (commands == 0) continue;
      const nlohmann::json& latency = op_stats.at("latency_ns");
      const auto us = [&](const char* key) { return latency.at(key).get<double>() / 1000.0; };
      out << fmt::format("  {:<6}{:>9} cmds  latency us: mean {:.1f}  p50 {:.1f}  p99 {:.1f}  "
                         "p99.9 {:.1f}  p99.99 {:.1f}  max {:.1f}{}\n",
                         op, commands, us("mean"), us("p50"), us("p99"), us("p99.9"),
                         us("p99.99"), us("max"),
                         op_stats.at("errors").get<uint64_t>() == 0
                             ? std::string()
                             : fmt::format("  errors {}", op_stats.at("errors").get<uint64_t>()));
    }
  }
  const nlohmann::json& oracle = host.at("oracle");
  out << fmt::format("{:<16}{}\n\n", "integrity",
                     oracle.at("enabled").get<bool>()
                         ? fmt::format("oracle on, {} pages checked",
                                       oracle.at("pages_checked").get<uint64_t>())
                         : std::string("oracle off"));
}

// Per hart the share of its cycles charged to each job kind (harts[].job_cycles), in the kinds'
// order (interface/job_kinds.h), the kinds with no cycles left out; then, when the hart also
// slept, the shares of the cycles not idle.
void print_job_cycles(std::ostream& out, const nlohmann::json& harts) {
  const std::string idle = kJobKindNames[JOB_KIND_IDLE];
  bool printed = false;
  for (size_t hart = 0; hart < harts.size(); ++hart) {
    if (!harts[hart].contains("job_cycles")) continue;
    const nlohmann::json& by_kind = harts[hart].at("job_cycles");
    std::vector<std::string> names(kJobKindNames.begin(), kJobKindNames.end());
    uint64_t total = 0;
    for (const auto& [kind, cycles] : by_kind.items()) {
      total += cycles.get<uint64_t>();
      if (std::find(names.begin(), names.end(), kind) == names.end()) names.push_back(kind);
    }
    const uint64_t awake = total - by_kind.value(idle, uint64_t{0});
    const auto shares = [&](uint64_t of, bool with_idle) {
      std::vector<std::string> parts;
      for (const std::string& name : names) {
        const uint64_t cycles = by_kind.value(name, uint64_t{0});
        if (cycles == 0 || (!with_idle && name == idle)) continue;
        parts.push_back(
            fmt::format("{} {:.1f} %", name, 100.0 * static_cast<double>(cycles) / of));
      }
      return fmt::format("{}", fmt::join(parts, ", "));
    };
    if (total == 0) continue;
    out << fmt::format("hart {} cycles: {}", hart, shares(total, true));
    if (awake != 0 && awake != total) out << fmt::format("; not idle: {}", shares(awake, false));
    out << "\n";
    printed = true;
  }
  if (printed) out << "\n";
}

// Per phase the FTL's key figures (tlm/system/ftl_metrics.h), and its memory use.
void print_ftl_summary(std::ostream& out, const nlohmann::json& stats) {
  if (!stats.contains("ftl")) return;
  const nlohmann::json& ftl = stats.at("ftl");
  if (ftl.contains("error")) {
    out << fmt::format("{:<16}{}\n\n", "ftl", ftl.at("error").get<std::string>());
    return;
  }
  const auto figure = [](const nlohmann::json& value, const char* format) {
    return value.is_null() ? std::string("-") : fmt::format(format, value.get<double>());
  };
  for (const nlohmann::json& phase : ftl.at("phases")) {
    // Bad blocks only when the phase had any: most runs inject no faults.
    const nlohmann::json& retired = phase.at("retired");
    const std::string bad_blocks =
        retired.at("groups").get<uint64_t>() == 0 && retired.at("rescued").get<uint64_t>() == 0
            ? std::string()
            : fmt::format(", retired {} (rescued {}, {} valid pages left)",
                          retired.at("groups").get<uint64_t>(),
                          retired.at("rescued").get<uint64_t>(),
                          retired.at("valid_pages_left").get<uint64_t>());
    out << fmt::format(
        "ftl {}: hit ratio {}, flash reads/host read {}, WAF {}, TP reads {} writes {}, GC {} "
        "(moved {}){}, erases min/mean/max {}/{:.1f}/{}, per command {} instructions {} "
        "cycles\n",
        phase.at("name").get<std::string>(), figure(phase.at("map").at("hit_ratio"), "{:.3f}"),
        figure(phase.at("flash_reads_per_host_read"), "{:.3f}"), figure(phase.at("waf"), "{:.3f}"),
        phase.at("tp_reads").get<uint64_t>(), phase.at("tp_writes").get<uint64_t>(),
        phase.at("gc").at("invocations").get<uint64_t>(),
        phase.at("gc").at("pages_moved").get<uint64_t>(), bad_blocks,
        phase.at("erase_count").at("min").get<uint64_t>(),
        phase.at("erase_count").at("mean").get<double>(),
        phase.at("erase_count").at("max").get<uint64_t>(),
        figure(phase.at("firmware").at("instructions_per_command"), "{:.0f}"),
        figure(phase.at("firmware").at("awake_cycles_per_command"), "{:.0f}"));
  }
  const nlohmann::json& memory = ftl.at("memory");
  out << fmt::format("{:<16}SRAM {} of {} bytes, DRAM {} of {} bytes, {} regions\n\n",
                     "ftl memory", memory.at("sram").at("used_bytes").get<uint64_t>(),
                     memory.at("sram").at("budget_bytes").get<uint64_t>(),
                     memory.at("dram").at("used_bytes").get<uint64_t>(),
                     memory.at("dram").at("budget_bytes").get<uint64_t>(),
                     memory.at("regions").size());
}

// The controller's silicon area (platform.area, tlm/system/controller_area.h): the total and
// its parts.
void print_area_summary(std::ostream& out, const nlohmann::json& stats) {
  const nlohmann::json& platform = stats.at("platform");
  if (!platform.contains("area")) return;
  const nlohmann::json& area = platform.at("area");
  const auto mm2 = [&](const char* key) { return area.at(key).get<double>(); };
  const uint32_t harts = area.at("harts").get<uint32_t>();
  const uint32_t channels = area.at("channels").get<uint32_t>();
  out << fmt::format("{:<16}{:.3f} mm2 at {}: SRAM {:.3f}, ROM {:.3f}, CPU {:.3f} ({} hart{}), "
                     "accel {:.3f}\n",
                     "area", mm2("total_mm2"), area.at("node").get<std::string>(),
                     mm2("sram_mm2"), mm2("rom_mm2"), mm2("cpu_mm2"), harts,
                     harts == 1 ? "" : "s", mm2("accel_mm2"));
  out << fmt::format("{:<16}fixed {:.3f}: HIC {:.3f}, NFC {:.3f} and ECC {:.3f} ({} channel{})\n\n",
                     "", mm2("fixed_mm2"), mm2("hic_mm2"), mm2("nfc_mm2"), mm2("ecc_mm2"),
                     channels, channels == 1 ? "" : "s");
}

}  // namespace

nlohmann::json make_stats(const Scenario& scenario, const RunOutcome& outcome,
                          nlohmann::json platform, double wall_seconds) {
  if (std::find(kOutcomes.begin(), kOutcomes.end(), outcome.outcome) == kOutcomes.end()) {
    throw std::runtime_error(fmt::format("unknown run outcome '{}'; allowed {}", outcome.outcome,
                                         fmt::join(kOutcomes, ", ")));
  }
  check_platform(platform);

  nlohmann::json stats = nlohmann::json::object();
  stats["scenario"] = {{"name", scenario.name},
                       {"source", scenario.source},
                       {"sweep_label", scenario.sweep_label}};
  stats["config"] = scenario.resolved;
  stats["outcome"] = {{"outcome", outcome.outcome},
                      {"exit_code", outcome.exit_code},
                      {"message", outcome.message}};
  uint64_t instructions = 0;
  for (const nlohmann::json& hart : platform["harts"]) {
    instructions += hart["instret"].get<uint64_t>();
  }
  // The sections move out of `platform`: the time series in them are large.
  stats["harts"] = std::move(platform["harts"]);
  platform.erase("harts");
  // The host time of each workload phase moves under "simulator", with the other wall-clock
  // figures.
  nlohmann::json phase_walls = nlohmann::json::array();
  if (platform.contains("host")) {
    stats["host"] = std::move(platform["host"]);
    platform.erase("host");
    for (nlohmann::json& phase : stats["host"]["phases"]) {
      if (phase.contains("wall_seconds")) {
        phase_walls.push_back({{"name", phase["name"]}, {"wall_seconds", phase["wall_seconds"]}});
        phase.erase("wall_seconds");
      }
    }
  }
  if (platform.contains("ftl")) {
    stats["ftl"] = std::move(platform["ftl"]);
    platform.erase("ftl");
  }
  const double simulated_seconds =
      static_cast<double>(platform["simulated_time_ps"].get<uint64_t>()) / kPsPerSecond;
  // How the firmware ran is a simulator fact: results are the same either way.
  const std::string cpu_backend = platform.value("cpu_backend", "interpreter");
  platform.erase("cpu_backend");
  stats["platform"] = std::move(platform);
  // JSON has no infinity: an unmeasurably short run reports rates of 0.
  const bool measured = wall_seconds > 0;
  stats["simulator"] = {
      {"wall_seconds", wall_seconds},
      {"simulated_seconds", simulated_seconds},
      {"instructions", instructions},
      {"mips", measured ? static_cast<double>(instructions) / wall_seconds / 1e6 : 0.0},
      {"sim_speed", measured ? simulated_seconds / wall_seconds : 0.0},
      {"phases_wall", phase_walls},
      {"cpu_backend", cpu_backend},
  };
  return stats;
}

void drop_wall_clock_fields(nlohmann::json& node) {
  if (!node.is_object()) return;
  for (auto it = node.begin(); it != node.end();) {
    const std::string& key = it.key();
    if (key.find("wall") != std::string::npos || key.find("mips") != std::string::npos ||
        key.find("speed") != std::string::npos) {
      it = node.erase(it);
    } else {
      drop_wall_clock_fields(it.value());
      ++it;
    }
  }
}

namespace {

// Indented like dump(2), except that an array of numbers, strings, booleans and nulls stays on
// one line: time series and histograms would otherwise take a line per value.
void write_indented(std::ostream& out, const nlohmann::json& node, int depth) {
  const std::string inner(2 * (depth + 1), ' ');
  const std::string outer(2 * depth, ' ');
  if (node.is_object() && !node.empty()) {
    out << "{\n";
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it != node.begin()) out << ",\n";
      out << inner << nlohmann::json(it.key()).dump() << ": ";
      write_indented(out, it.value(), depth + 1);
    }
    out << "\n" << outer << "}";
    return;
  }
  const bool flat = std::none_of(node.begin(), node.end(), [](const nlohmann::json& element) {
    return element.is_structured();
  });
  if (!node.is_array() || node.empty() || flat) {
    out << node.dump();
    return;
  }
  out << "[\n";
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it != node.begin()) out << ",\n";
    out << inner;
    write_indented(out, *it, depth + 1);
  }
  out << "\n" << outer << "]";
}

}  // namespace

void write_json(const std::string& path, const nlohmann::json& json) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  if (error) {
    throw std::runtime_error(fmt::format("cannot create the directory of '{}': {}", path,
                                         error.message()));
  }
  std::ofstream out(path);
  if (!out) {
    throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  }
  write_indented(out, json, 0);
  out << "\n";
  out.close();
  if (!out) throw std::runtime_error(fmt::format("error writing '{}'", path));
}

void print_summary(std::ostream& out, const nlohmann::json& stats) {
  const nlohmann::json& scenario = stats.at("scenario");
  const nlohmann::json& outcome = stats.at("outcome");
  const nlohmann::json& simulator = stats.at("simulator");
  const auto line = [&](const char* label, const std::string& value) {
    out << fmt::format("{:<16}{}\n", label, value);
  };

  line("scenario", fmt::format("{} ({})", scenario.at("name").get<std::string>(),
                               scenario.at("source").get<std::string>()));
  const std::string sweep_label = scenario.at("sweep_label").get<std::string>();
  if (!sweep_label.empty()) line("sweep point", sweep_label);
  line("outcome", fmt::format("{}, code {}", outcome.at("outcome").get<std::string>(),
                              outcome.at("exit_code").get<int>()));
  const std::string message = outcome.at("message").get<std::string>();
  if (!message.empty()) line("message", message);
  line("simulated time",
       human_time(stats.at("platform").at("simulated_time_ps").get<uint64_t>()));

  struct HartRow {
    std::string hart, instret, cycles, sleep, ipc;
  };
  std::vector<HartRow> rows = {{"hart", "instret", "cycles", "sleep %", "IPC awake"}};
  const nlohmann::json& harts = stats.at("harts");
  for (size_t hart = 0; hart < harts.size(); ++hart) {
    const uint64_t instret = harts[hart].at("instret").get<uint64_t>();
    const uint64_t cycles = harts[hart].at("cycles").get<uint64_t>();
    const uint64_t sleep = harts[hart].at("sleep_cycles").get<uint64_t>();
    const uint64_t awake = cycles > sleep ? cycles - sleep : 0;
    const std::string sleep_percent =
        cycles == 0 ? "-" : fmt::format("{:.1f}", 100.0 * static_cast<double>(sleep) / cycles);
    const std::string ipc =
        awake == 0 ? "-" : fmt::format("{:.3f}", static_cast<double>(instret) / awake);
    rows.push_back({std::to_string(hart), std::to_string(instret), std::to_string(cycles),
                    sleep_percent, ipc});
  }
  std::array<size_t, 5> width{};
  for (const HartRow& row : rows) {
    width[0] = std::max(width[0], row.hart.size());
    width[1] = std::max(width[1], row.instret.size());
    width[2] = std::max(width[2], row.cycles.size());
    width[3] = std::max(width[3], row.sleep.size());
    width[4] = std::max(width[4], row.ipc.size());
  }
  out << "\n";
  for (const HartRow& row : rows) {
    out << fmt::format("{:>{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}\n", row.hart, width[0],
                       row.instret, width[1], row.cycles, width[2], row.sleep, width[3], row.ipc,
                       width[4]);
  }
  out << "\n";
  print_job_cycles(out, harts);

  print_host_summary(out, stats);
  print_ftl_summary(out, stats);
  print_area_summary(out, stats);
  line("instructions", std::to_string(simulator.at("instructions").get<uint64_t>()));
  line("wall time", fmt::format("{:.3f} s", simulator.at("wall_seconds").get<double>()));
  line("MIPS", fmt::format("{:.2f} ({})", simulator.at("mips").get<double>(),
                           simulator.value("cpu_backend", "interpreter")));
  line("sim speed", fmt::format("{:.3g} simulated s per wall s",
                                simulator.at("sim_speed").get<double>()));
}

}  // namespace ssdvp
