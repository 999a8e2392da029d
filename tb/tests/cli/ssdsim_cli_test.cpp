// ssdsim end to end: the default scenario boots the firmware, errors name what is wrong, and
// runs are deterministic.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tb/report/stats_report.h"

#include "tb/tests/support/ssdsim_runner.h"
#include "tb/tests/support/waveform_files.h"

namespace {

using namespace ssdvp::test;

using ssdvp::drop_wall_clock_fields;

TEST(Ssdsim, DefaultScenarioPrintsBannerAndWritesStats) {
  const std::string out = temp_dir("default");
  const SsdsimRun run = run_ssdsim("--out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("ssdvp firmware"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("1 hart"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("SRAM 1024 KiB"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("scheme dftl"), std::string::npos) << run.output;

  const nlohmann::json stats = read_json(out + "/stats.json");
  // The default scenario's workload runs the product FTL to its end.
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  EXPECT_EQ(stats["outcome"]["exit_code"], 0);
  ASSERT_EQ(stats["harts"].size(), 1u);
  EXPECT_GT(stats["harts"][0]["instret"].get<uint64_t>(), 100u);
  EXPECT_GE(stats["harts"][0]["cycles"].get<uint64_t>(),
            stats["harts"][0]["instret"].get<uint64_t>());
  EXPECT_EQ(stats["config"]["cpu"]["harts"], 1);
  EXPECT_GT(stats["simulator"]["mips"].get<double>(), 0.0);
}

TEST(Ssdsim, TwoHartsBothBoot) {
  const std::string out = temp_dir("harts2");
  const SsdsimRun run = run_ssdsim("--set cpu.harts=2 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("hart 0 online"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("hart 1 online"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("2 harts"), std::string::npos) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  ASSERT_EQ(stats["harts"].size(), 2u);
  EXPECT_GT(stats["harts"][1]["instret"].get<uint64_t>(), 0u);
}

TEST(Ssdsim, BannerFollowsTheScenario) {
  const std::string out = temp_dir("banner");
  // More SRAM than the default: the FTL's structures must still fit.
  const SsdsimRun run = run_ssdsim(
      "--set sram.size=2MiB --set firmware.scheme=tpftl --set dram.size=64MiB --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("SRAM 2048 KiB"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("scheme tpftl"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("DRAM 64 MiB"), std::string::npos) << run.output;
}

TEST(Ssdsim, SameScenarioTwiceGivesIdenticalStats) {
  const std::string a = temp_dir("determinism_a");
  const std::string b = temp_dir("determinism_b");
  ASSERT_EQ(run_ssdsim("--set cpu.harts=2 --out " + a).exit_code, 0);
  ASSERT_EQ(run_ssdsim("--set cpu.harts=2 --out " + b).exit_code, 0);
  nlohmann::json first = read_json(a + "/stats.json");
  nlohmann::json second = read_json(b + "/stats.json");
  // The output directory is part of the resolved configuration; it differs on purpose.
  first["config"]["output"].erase("dir");
  second["config"]["output"].erase("dir");
  drop_wall_clock_fields(first);
  drop_wall_clock_fields(second);
  EXPECT_EQ(first, second);
}

// The translating back end and the interpreter give the same results (two harts: the worker's
// jobs and the serving hart's interrupts are in the run).
TEST(Ssdsim, TranslatorAndInterpreterGiveIdenticalStats) {
  const std::string translated = temp_dir("backend_translator");
  const std::string interpreted = temp_dir("backend_interpreter");
  ASSERT_EQ(run_ssdsim("--set cpu.harts=2 --out " + translated).exit_code, 0);
  ASSERT_EQ(run_ssdsim("--set cpu.harts=2 --set cpu.translate=false --out " + interpreted)
                .exit_code,
            0);
  nlohmann::json first = read_json(translated + "/stats.json");
  nlohmann::json second = read_json(interpreted + "/stats.json");
#if defined(__x86_64__)
  EXPECT_EQ(first["simulator"]["cpu_backend"], "translator");
#endif
  EXPECT_EQ(second["simulator"]["cpu_backend"], "interpreter");
  // They differ on purpose in these keys.
  for (nlohmann::json* stats : {&first, &second}) {
    (*stats)["config"]["output"].erase("dir");
    (*stats)["config"]["cpu"].erase("translate");
    stats->erase("simulator");
  }
  drop_wall_clock_fields(first);
  drop_wall_clock_fields(second);
  EXPECT_EQ(first, second);
}

TEST(Ssdsim, UnknownKeyIsAnErrorNamingTheKey) {
  const SsdsimRun run = run_ssdsim("--set cpu.hartz=2");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("cpu.hartz"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("harts"), std::string::npos) << run.output;
}

TEST(Ssdsim, ScenarioFileErrorNamesFileAndLine) {
  const std::string dir = temp_dir("badfile");
  const std::string path = dir + "/bad.yaml";
  std::ofstream(path) << "name: bad\ncpu:\n  harts: 99\n";
  const SsdsimRun run = run_ssdsim(path);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("bad.yaml:3"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("cpu.harts"), std::string::npos) << run.output;
}

TEST(Ssdsim, MissingElfIsAnError) {
  const SsdsimRun run = run_ssdsim("--elf /nonexistent/program.elf");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("/nonexistent/program.elf"), std::string::npos) << run.output;
}

// ---- Bad input: each error names the option, file, key or address and what is allowed ---------

TEST(SsdsimBadInput, CommandLineErrorsNameTheOption) {
  const SsdsimRun unknown = run_ssdsim("--bogus");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--bogus"), std::string::npos) << unknown.output;
  const SsdsimRun no_value = run_ssdsim("--set");
  EXPECT_EQ(no_value.exit_code, 2) << no_value.output;
  EXPECT_NE(no_value.output.find("--set: 1 required KEY=VALUE missing"), std::string::npos)
      << no_value.output;
  const SsdsimRun two_files = run_ssdsim("a.yaml b.yaml");
  EXPECT_EQ(two_files.exit_code, 2) << two_files.output;
  EXPECT_NE(two_files.output.find("not expected: b.yaml"), std::string::npos) << two_files.output;
}

// A directory reads as an empty scenario: it ran the defaults before.
TEST(SsdsimBadInput, ScenarioThatIsADirectory) {
  const std::string dir = temp_dir("scenario_dir");
  const SsdsimRun run = run_ssdsim(dir + " --out " + dir + "/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("scenario file '" + dir + "' is a directory"), std::string::npos)
      << run.output;
}

// The output directory was made only after the run, which was lost with it.
TEST(SsdsimBadInput, OutputDirectoryThatCannotBeMadeFailsBeforeTheRun) {
  const std::string dir = temp_dir("out_blocked");
  std::ofstream(dir + "/file") << "in the way\n";
  const SsdsimRun run = run_ssdsim("--out " + dir + "/file/sub");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("output.dir = '" + dir + "/file/sub': cannot create the directory"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("hart 0 online"), std::string::npos) << run.output;
}

// An RV32 executable of one segment of `code` at `address`, its entry point.
std::string minimal_elf(uint32_t address, uint32_t code) {
  Elf32_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS32;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_EXEC;
  header.e_machine = EM_RISCV;
  header.e_version = EV_CURRENT;
  header.e_entry = address;
  header.e_phoff = sizeof(Elf32_Ehdr);
  header.e_ehsize = sizeof(Elf32_Ehdr);
  header.e_phentsize = sizeof(Elf32_Phdr);
  header.e_phnum = 1;
  Elf32_Phdr segment{};
  segment.p_type = PT_LOAD;
  segment.p_offset = sizeof(Elf32_Ehdr) + sizeof(Elf32_Phdr);
  segment.p_vaddr = segment.p_paddr = address;
  segment.p_filesz = segment.p_memsz = sizeof(code);
  segment.p_flags = PF_R | PF_X;
  std::string bytes(reinterpret_cast<const char*>(&header), sizeof header);
  bytes.append(reinterpret_cast<const char*>(&segment), sizeof segment);
  bytes.append(reinterpret_cast<const char*>(&code), sizeof code);
  return bytes;
}

TEST(SsdsimBadInput, ElfSegmentOutsideEveryMemoryNamesItsAddressAndTheMap) {
  const std::string dir = temp_dir("elf_outside");
  constexpr uint32_t kJumpToSelf = 0x0000006f;
  std::ofstream(dir + "/outside.elf", std::ios::binary) << minimal_elf(0x30000000, kJumpToSelf);
  const SsdsimRun run = run_ssdsim("--elf " + dir + "/outside.elf --out " + dir);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find(dir + "/outside.elf: segment at 0x30000000 of 0x4 bytes lies outside "
                                  "every memory of the SoC"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(std::regex_search(run.output, std::regex("0x10000000 - 0x100fffff +sram")))
      << run.output;
  // The same program in SRAM runs: the refusal is the address's.
  std::ofstream(dir + "/inside.elf", std::ios::binary) << minimal_elf(0x10000000, kJumpToSelf);
  EXPECT_EQ(run_ssdsim("--elf " + dir + "/inside.elf --set sim.max_time=1us --out " + dir)
                .exit_code,
            3);
}

TEST(Ssdsim, MemoryMapListsEveryTarget) {
  const SsdsimRun run = run_ssdsim("--memory-map --set dram.size=1GiB");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* name : {"rom", "sram", "dram", "sysctrl", "clint", "intc"}) {
    EXPECT_NE(run.output.find(name), std::string::npos) << name << "\n" << run.output;
  }
  EXPECT_TRUE(std::regex_search(run.output, std::regex("0x0*80000000", std::regex::icase)))
      << run.output;
}

TEST(Ssdsim, ProfileNamesFirmwareFunctions) {
  const std::string out = temp_dir("profile");
  // Every function: under the default workload fw_main is far from the busiest.
  const SsdsimRun run = run_ssdsim("--profile --set output.profile_top=1000 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  ASSERT_TRUE(stats.contains("profile")) << stats.dump(2);
  bool found_main = false;
  for (const auto& entry : stats["profile"]) {
    if (entry["function"] == "fw_main") found_main = true;
  }
  EXPECT_TRUE(found_main) << stats["profile"].dump(2);
}

TEST(Ssdsim, ProfileSplitsTheCyclesByWorkloadPhase) {
  const std::string out = temp_dir("profile_phases");
  const SsdsimRun run = run_ssdsim("--profile --set output.profile_top=1000 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  const nlohmann::json& host_phases = stats["host"]["phases"];
  const nlohmann::json& phases = stats["profile_phases"];
  ASSERT_EQ(phases.size(), host_phases.size()) << phases.dump(2);
  std::map<std::string, uint64_t> whole_run;
  uint64_t total = 0;
  for (const auto& entry : stats["profile"]) {
    whole_run[entry["function"]] = entry["cycles"];
    total += entry["cycles"].get<uint64_t>();
  }
  std::map<std::string, uint64_t> over_phases;
  uint64_t phase_total = 0;
  for (size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(phases[i]["phase"], host_phases[i]["name"]);
    EXPECT_TRUE(phases[i]["ended"].get<bool>());
    uint64_t cycles = 0;
    for (const auto& entry : phases[i]["functions"]) {
      cycles += entry["cycles"].get<uint64_t>();
      over_phases[entry["function"]] += entry["cycles"].get<uint64_t>();
    }
    EXPECT_EQ(phases[i]["cycles"].get<uint64_t>(), cycles);
    EXPECT_GT(cycles, 0u);
    phase_total += cycles;
  }
  // Each phase counts only its own span: boot lies before the first, so the phases sum to less.
  EXPECT_LT(phase_total, total);
  for (const auto& [function, cycles] : over_phases) {
    EXPECT_LE(cycles, whole_run[function]) << function;
  }
}

TEST(Ssdsim, WaveformHoldsEverySignalOfTheSaveFile) {
  const std::string out = temp_dir("vcd");
  const std::string vcd = out + "/ssdvp.vcd";
  const SsdsimRun run =
      run_ssdsim("--set cpu.harts=2 --set dram.size=64MiB --vcd " + vcd + " --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto variables = vcd_variables(vcd);
  ASSERT_FALSE(variables.empty());

  size_t shown = 0;
  for (const SaveFileTrace& trace :
       save_file_traces(std::string(SSDVP_SOURCE_DIR) + "/waves/ssdvp.gtkw")) {
    ASSERT_EQ(variables.count(trace.name), 1u)
        << trace.name << " is not in the waveform ssdsim writes";
    EXPECT_EQ(variables.at(trace.name), trace.width) << trace.name;
    ++shown;
  }
  EXPECT_GE(shown, 10u);
}

TEST(Ssdsim, MaxInstructionsStopsTheRun) {
  const std::string out = temp_dir("maxinsn");
  const SsdsimRun run = run_ssdsim("--set sim.max_instructions=50 --out " + out);
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "max_instructions");
}

}  // namespace

namespace {

// The text of `path` between the lines `begin` and `end`, or "" when they are missing.
std::string section_between(const std::string& path, const std::string& begin,
                            const std::string& end) {
  std::ifstream in(path);
  std::string line, section;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == end) return section;
    if (inside) section += line + "\n";
    if (line == begin) inside = true;
  }
  return "";
}

TEST(Ssdsim, ReadmeParameterTableIsTheRegistrys) {
  const SsdsimRun run = run_ssdsim("--params-table");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // Every firmware key of interface/firmware_params.def is in it, with its default.
  EXPECT_NE(run.output.find("| `ftl.tpftl.prefetch_max` | count (mappings) | `64` |"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("| `ftl.tp_flush_delay` | time | `10ms` |"), std::string::npos);
  const std::string readme = section_between(std::string(SSDVP_SOURCE_DIR) + "/README.md",
                                             "<!-- params-table:begin -->",
                                             "<!-- params-table:end -->");
  EXPECT_EQ(readme, run.output) << "README.md's parameter table is stale: run make params-table";
}

}  // namespace
