// ssdsim: the scenario testbench driver. Resolves a scenario (file or the embedded default, plus
// --set overrides), builds the SoC, runs the firmware and writes stats.json, latency.csv,
// timeseries.csv and ftl_timeseries.csv.
//
// Exit codes: 0 the firmware passed (exit 0 or tohost 1) or the workload is done; 1 it reported
// failure; 2 bad input (command line, scenario, ELF, a trace line found bad during the run); 3
// the run went wrong (fault, hang, time or instruction limit, integrity check, HIC misuse).
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <systemc>

#include "tb/report/profile_report.h"
#include "tb/report/stats_report.h"
#include "tb/scenario/scenario.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/fst_format.h"
#include "tlm/system/gtkwave_save_file.h"
#include "tlm/system/soc.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {
extern const char* const kDefaultScenarioYaml;
}

namespace {

using namespace ssdvp;

constexpr int kExitPass = 0;
constexpr int kExitFirmwareFailed = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitRunFailed = 3;

// DRAM given to bare programs run with --elf, so tests can use MM_DRAM_BASE.
constexpr const char* kElfModeDram = "dram.size=64MiB";

struct Options {
  std::string scenario_path;
  std::vector<std::string> overrides;
  std::string out_dir;
  std::string vcd;
  std::string vcd_start;
  std::string vcd_end;
  std::string trace_insn;
  std::string elf;
  bool profile = false;
  bool memory_map = false;
  bool list_params = false;
  bool params_table = false;
};

std::string outcome_name(Soc::RunResult::Outcome outcome) {
  using O = Soc::RunResult::Outcome;
  switch (outcome) {
    case O::kExit: return "exit";
    case O::kTohostPass: return "tohost_pass";
    case O::kTohostFail: return "tohost_fail";
    case O::kFault: return "fault";
    case O::kMaxTime: return "max_time";
    case O::kMaxInstructions: return "max_instructions";
    case O::kHang: return "hang";
    case O::kWorkloadDone: return "workload_done";
    case O::kWorkloadError: return "workload_error";
    case O::kIntegrityFailure: return "integrity_failure";
    case O::kHicError: return "hic_error";
  }
  return "unknown";
}

int exit_code_for(const Soc::RunResult& result) {
  using O = Soc::RunResult::Outcome;
  switch (result.outcome) {
    case O::kTohostPass: return kExitPass;
    case O::kWorkloadDone: return kExitPass;
    case O::kWorkloadError: return kExitBadInput;
    case O::kExit: return result.exit_code == 0 ? kExitPass : kExitFirmwareFailed;
    case O::kTohostFail: return kExitFirmwareFailed;
    default: return kExitRunFailed;
  }
}

constexpr const char* kFirmwareKey = "firmware.elf";
constexpr const char* kBuiltinPrefix = "builtin:";

// A firmware path from the command line is relative to the working directory; one in the
// scenario file is relative to the file (firmware_path), so the command line's are made absolute.
std::string command_line_firmware(const std::string& elf) {
  if (elf.empty() || elf.rfind(kBuiltinPrefix, 0) == 0) return elf;
  return std::filesystem::absolute(elf).lexically_normal().string();
}

// Command-line options become ordinary overrides, so the resolved configuration in stats.json
// records them like any other key.
std::vector<std::string> all_overrides(const Options& options) {
  std::vector<std::string> overrides;
  if (!options.elf.empty()) {
    overrides.push_back(kElfModeDram);
    overrides.push_back(std::string(kFirmwareKey) + "=" + command_line_firmware(options.elf));
  }
  const std::string firmware_override = std::string(kFirmwareKey) + "=";
  for (const std::string& override_text : options.overrides) {
    overrides.push_back(override_text.rfind(firmware_override, 0) == 0
                            ? firmware_override + command_line_firmware(override_text.substr(
                                                      firmware_override.size()))
                            : override_text);
  }
  if (!options.out_dir.empty()) overrides.push_back("output.dir=" + options.out_dir);
  if (!options.vcd.empty()) overrides.push_back("output.vcd=" + options.vcd);
  if (!options.vcd_start.empty()) overrides.push_back("output.vcd_start=" + options.vcd_start);
  if (!options.vcd_end.empty()) overrides.push_back("output.vcd_end=" + options.vcd_end);
  if (!options.trace_insn.empty()) overrides.push_back("output.trace_insn=" + options.trace_insn);
  if (options.profile) overrides.push_back("output.profile=true");
  return overrides;
}

// builtin:NAME is a test firmware built with the simulator (SSDVP_FIRMWARE_DIR/tests/NAME.elf).
std::string builtin_firmware(const std::string& name) {
  const std::filesystem::path directory = std::filesystem::path(SSDVP_FIRMWARE_DIR) / "tests";
  const std::filesystem::path path = directory / (name + ".elf");
  if (!name.empty() && std::filesystem::is_regular_file(path)) return path.string();
  std::vector<std::string> available;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".elf") available.push_back(entry.path().stem().string());
  }
  std::sort(available.begin(), available.end());
  throw std::runtime_error(fmt::format("{} = '{}{}': no such built-in firmware; available: {}",
                                       kFirmwareKey, kBuiltinPrefix, name,
                                       available.empty() ? "none" : fmt::format("{}", fmt::join(
                                                                        available, ", "))));
}

// The ELF to run: the product firmware by default, a built-in test firmware, or a file (a
// relative path is relative to the scenario file; the embedded default has no file).
std::string firmware_path(const Scenario& scenario, const std::string& scenario_file) {
  const std::string& elf = scenario.soc.firmware.elf;
  if (elf.empty()) return std::string(SSDVP_FIRMWARE_DIR) + "/firmware.elf";
  if (elf.rfind(kBuiltinPrefix, 0) == 0) {
    return builtin_firmware(elf.substr(std::string(kBuiltinPrefix).size()));
  }
  std::filesystem::path path(elf);
  if (path.is_relative() && !scenario_file.empty()) {
    path = (std::filesystem::path(scenario_file).parent_path() / path).lexically_normal();
  }
  return path.string();
}

// A line on the terminal, rewritten in place, for runs longer than a second: simulated time,
// host commands done and commands per wall second. Only when stderr is a terminal, so logs
// and pipes never see it.
class ProgressLine {
 public:
  explicit ProgressLine(const Soc& soc)
      : soc_(soc), enabled_(isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_) {}

  void update() {
    if (!enabled_) return;
    const Clock::time_point now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(500) || now - start_ < std::chrono::seconds(1)) {
      return;
    }
    last_ = now;
    const double wall = std::chrono::duration<double>(now - start_).count();
    const uint64_t commands = soc_.host_model().commands_completed();
    std::cerr << fmt::format("\r[ssdsim] simulated {:.6f} s, {} commands done, {:.0f} commands "
                             "per wall second   ",
                             sc_core::sc_time_stamp().to_seconds(), commands, commands / wall)
              << std::flush;
    shown_ = true;
  }

  // Ends the line so what follows starts on a fresh one.
  void finish() {
    if (shown_) std::cerr << "\n";
    shown_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  const Soc& soc_;
  bool enabled_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool shown_ = false;
};

void write_text_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  write(out);
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

// Made before the run, so a directory that cannot be written fails at once rather than after
// hours of simulation.
void prepare_output_dir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!error && !std::filesystem::is_directory(dir, error)) {
    error = std::make_error_code(std::errc::not_a_directory);
  }
  if (error) {
    throw std::runtime_error(fmt::format("output.dir = '{}': cannot create the directory: {}", dir,
                                         error.message()));
  }
  if (access(dir.c_str(), W_OK) != 0) {
    throw std::runtime_error(fmt::format("output.dir = '{}': cannot write into the directory: {}",
                                         dir, std::strerror(errno)));
  }
}

// Runs one resolved scenario in this process. SystemC elaborates once per process, so a sweep
// calls this in a child process per point.
int run_scenario(const Scenario& scenario, const std::string& scenario_file, bool memory_map_only) {
  const ElfImage elf =
      memory_map_only ? ElfImage{} : ElfImage::load(firmware_path(scenario, scenario_file));
  if (!memory_map_only) prepare_output_dir(scenario.output.dir);

  std::unique_ptr<WaveWriter> waves;
  const std::string& dump = scenario.output.vcd;
  if (!dump.empty() && !memory_map_only) {
    check_save_file_replaceable(save_file_path(dump));
    waves = is_fst_path(dump)
                ? std::make_unique<WaveWriter>(make_fst_format(dump), dump,
                                               scenario.output.vcd_start_ps,
                                               scenario.output.vcd_end_ps)
                : std::make_unique<WaveWriter>(dump, scenario.output.vcd_start_ps,
                                               scenario.output.vcd_end_ps);
  }
  Soc soc("soc", scenario.soc, waves.get());
  if (memory_map_only) {
    soc.print_memory_map(std::cout);
    return kExitPass;
  }
  soc.load_program(elf);

  std::ofstream trace_file;
  if (!scenario.output.trace_insn.empty()) {
    trace_file.open(scenario.output.trace_insn);
    if (!trace_file) {
      throw std::runtime_error(fmt::format("output.trace_insn = '{}': cannot write: {}",
                                           scenario.output.trace_insn, std::strerror(errno)));
    }
    soc.set_instruction_trace(&trace_file);
  }
  if (scenario.output.profile) soc.enable_profile();

  ProgressLine progress(soc);
  soc.on_progress([&progress] { progress.update(); });
  const auto wall_start = std::chrono::steady_clock::now();
  const Soc::RunResult result = soc.run();
  progress.finish();
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (waves) {
    waves->close();
    write_save_file(save_file_path(dump), dump, waves->signals(), waves->start_ps(),
                    waves->end_ps());
  }

  nlohmann::json platform;
  soc.report(platform);
  nlohmann::json stats = make_stats(
      scenario, RunOutcome{outcome_name(result.outcome), result.exit_code, result.message},
      std::move(platform), wall_seconds);
  if (scenario.output.profile) {
    const auto report_of = [&elf](const std::vector<std::pair<uint32_t, uint64_t>>& cycles) {
      std::vector<AddressCycles> samples;
      for (const auto& [address, spent] : cycles) samples.push_back({address, spent});
      return ProfileReport(elf, samples);
    };
    const ProfileReport profile = report_of(soc.profile());
    stats["profile"] = profile.to_json(scenario.output.profile_top);
    std::cout << profile.format_table(scenario.output.profile_top);
    nlohmann::json phases = nlohmann::json::array();
    for (const Soc::PhaseProfile& phase : soc.phase_profiles()) {
      const ProfileReport phase_profile = report_of(phase.cycles);
      phases.push_back({{"phase", phase.phase},
                        {"ended", phase.ended},
                        {"cycles", phase_profile.total_cycles()},
                        {"functions", phase_profile.to_json(scenario.output.profile_top)}});
    }
    stats["profile_phases"] = phases;
  }

  write_json(scenario.output.dir + "/stats.json", stats);
  const host::HostStats& host_stats = soc.host_model().stats();
  write_text_file(scenario.output.dir + "/latency.csv",
                  [&](std::ostream& out) { host_stats.write_latency_csv(out); });
  write_text_file(scenario.output.dir + "/timeseries.csv",
                  [&](std::ostream& out) { host_stats.write_timeseries_csv(out); });
  if (soc.has_ftl_metrics()) {
    write_text_file(scenario.output.dir + "/ftl_timeseries.csv",
                    [&](std::ostream& out) { soc.write_ftl_timeseries(out); });
  }
  print_summary(std::cout, stats);
  const int exit_code = exit_code_for(result);
  if (exit_code != kExitPass) std::cerr << "ssdsim: " << result.message << "\n";
  return exit_code;
}

// A directory name for a sweep point: its index and its label with path-unsafe characters
// replaced, so runs never overwrite each other.
std::string sweep_point_dir(const std::string& base, size_t index, const std::string& label) {
  std::string safe;
  for (const char c : label) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                                      c == '=' || c == '-' || c == '_') ? c : '_';
  return base + "/" + std::to_string(index) + "_" + safe;
}

int run_sweep(std::vector<Scenario> points, const std::string& scenario_file) {
  int worst = kExitPass;
  for (size_t i = 0; i < points.size(); ++i) {
    Scenario& point = points[i];
    point.output.dir = sweep_point_dir(point.output.dir, i, point.sweep_label);
    std::cout << "=== sweep point " << i + 1 << "/" << points.size() << ": " << point.sweep_label
              << " -> " << point.output.dir << "\n" << std::flush;
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("fork failed for a sweep point");
    if (child == 0) {
      int code = kExitRunFailed;
      try {
        code = run_scenario(point, scenario_file, false);
      } catch (const std::exception& error) {
        std::cerr << "ssdsim: error: " << error.what() << "\n";
        code = kExitBadInput;
      }
      std::cout.flush();
      _exit(code);
    }
    int status = 0;
    waitpid(child, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitRunFailed;
    worst = std::max(worst, code);
  }
  return worst;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  Options options;
  CLI::App app{"ssdsim: SSD-controller virtual platform. Runs a scenario (default: the embedded "
               "one) with the firmware on the RISC-V instruction-set model."};
  app.add_option("scenario", options.scenario_path, "Scenario YAML file");
  app.add_option("--set", options.overrides, "Override a scenario key: key.path=value")
      ->type_name("KEY=VALUE");
  app.add_option("--out", options.out_dir, "Output directory (output.dir)");
  app.add_option("--vcd", options.vcd,
                 "Write waveforms to this file (output.vcd; FST when it ends in .fst) and a "
                 "GTKWave save file next to it (.gtkw)");
  app.add_option("--vcd-start", options.vcd_start, "Waveform window start, e.g. 10us");
  app.add_option("--vcd-end", options.vcd_end, "Waveform window end, e.g. 2ms");
  app.add_option("--trace-insn", options.trace_insn, "Write an instruction trace to this file");
  app.add_flag("--profile", options.profile, "Report cycles per firmware function");
  app.add_flag("--memory-map", options.memory_map, "Print the SoC memory map and exit");
  app.add_option("--elf", options.elf,
                 "Run a bare RISC-V program (ends through tohost or the exit register)");
  app.add_flag("--list-params", options.list_params, "List every scenario parameter and exit");
  app.add_flag("--params-table", options.params_table,
               "Print every scenario parameter as README's Markdown table and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? kExitPass : kExitBadInput;
  }

  if (options.list_params) {
    print_parameters(std::cout);
    return kExitPass;
  }
  if (options.params_table) {
    print_parameters_markdown(std::cout);
    return kExitPass;
  }
  try {
    const bool from_file = !options.scenario_path.empty();
    const std::string yaml =
        from_file ? read_scenario_file(options.scenario_path) : std::string(kDefaultScenarioYaml);
    std::vector<Scenario> scenarios = load_scenarios(
        yaml, from_file ? options.scenario_path : "<default scenario>", all_overrides(options));
    if (scenarios.size() > 1 && !options.memory_map) {
      return run_sweep(std::move(scenarios), options.scenario_path);
    }
    return run_scenario(scenarios.front(), options.scenario_path, options.memory_map);
  } catch (const std::exception& error) {
    std::cerr << "ssdsim: error: " << error.what() << "\n";
    return kExitBadInput;
  }
}

// Our own main so the SystemC banner is off before the kernel starts; it would otherwise
// precede the firmware console on every run.
int main(int argc, char* argv[]) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
