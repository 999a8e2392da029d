// Power losses end to end through ssdsim: the test firmware nand_writer (it prints what each
// boot finds on its block, see firmware/tests/power_loss/nand_writer.c) under cuts at given
// times, in a program's tPROG and in an erase's tBERS, with and without power-loss protection;
// the RAM disk under a write workload, whose outstanding commands fail at the cut and which the
// host resumes when the firmware is ready again; cuts drawn from the seed; and bad keys.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tb/tests/support/ssdsim_runner.h"

namespace {

using namespace ssdvp::test;

constexpr uint64_t kMs = 1'000'000'000;
constexpr uint64_t kUs = 1'000'000;

std::string nand_writer_arguments(const std::string& out, const std::string& sets) {
  return std::string(SSDVP_SOURCE_DIR) + "/tb/tests/power_loss/nand_writer.yaml" +
         " --set firmware.elf=" + SSDVP_FIRMWARE_DIR + "/power_loss/nand_writer.elf --out " + out +
         " " + sets;
}

// nand_writer never ends by itself: its runs end at their time limit (ssdsim's exit code 3).
SsdsimRun run_nand_writer(const std::string& out, const std::string& sets) {
  const SsdsimRun run = run_ssdsim(nand_writer_arguments(out, sets));
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_EQ(read_json(out + "/stats.json")["outcome"]["outcome"], "max_time") << run.output;
  return run;
}

// The firmware's lines after "nand_writer: " in the run's output.
std::vector<std::string> firmware_lines(const std::string& output) {
  std::vector<std::string> lines;
  const std::regex line("nand_writer: ([^\n]*)");
  for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
       it != std::sregex_iterator(); ++it) {
    lines.push_back((*it)[1]);
  }
  return lines;
}

// The lines of boot `boot` (from its "boot" line to the next one).
std::vector<std::string> boot_lines(const std::vector<std::string>& lines, unsigned boot) {
  std::vector<std::string> result;
  unsigned current = 0;
  for (const std::string& line : lines) {
    if (line.rfind("boot ", 0) == 0) current = static_cast<unsigned>(std::stoul(line.substr(5)));
    if (current == boot) result.push_back(line);
  }
  return result;
}

bool has_line_starting(const std::vector<std::string>& lines, const std::string& start) {
  for (const std::string& line : lines) {
    if (line.rfind(start, 0) == 0) return true;
  }
  return false;
}

// "program <w> from <a> to <b> status <s>": (a, b) in ps of the first program of wordline w.
std::pair<uint64_t, uint64_t> program_span(const std::vector<std::string>& lines, unsigned w) {
  const std::regex pattern("program " + std::to_string(w) + " from ([0-9]+) to ([0-9]+) status");
  for (const std::string& line : lines) {
    std::smatch match;
    if (std::regex_search(line, match, pattern)) {
      return {std::stoull(match[1]) * 1000, std::stoull(match[2]) * 1000};
    }
  }
  ADD_FAILURE() << "no program of wordline " << w;
  return {0, 0};
}

// The run without a cut: when the first boot programs wordline 1.
std::pair<uint64_t, uint64_t> uncut_program_span(unsigned wordline) {
  const std::string out = temp_dir("uncut");
  const SsdsimRun run = run_nand_writer(out, "");
  return program_span(firmware_lines(run.output), wordline);
}

std::string at_ps(uint64_t ps) { return "--set host.power_loss.at=" + std::to_string(ps) + "ps"; }

TEST(PowerLossScenario, ACutInTprogLosesThatWordlineAndKeepsTheOneBefore) {
  const auto [start, end] = uncut_program_span(1);
  ASSERT_GT(end - start, 1 * kMs);  // the program's tPROG (1.3 ms) ends at its completion
  const std::string out = temp_dir("tprog");
  const SsdsimRun run = run_nand_writer(out, at_ps(end - 300 * kUs));
  const std::vector<std::string> lines = firmware_lines(run.output);
  const std::vector<std::string> first = boot_lines(lines, 1);
  EXPECT_FALSE(has_line_starting(first, "program 1 ")) << run.output;  // never completed
  const std::vector<std::string> second = boot_lines(lines, 2);
  ASSERT_GE(second.size(), 4u) << run.output;
  EXPECT_EQ(second[0].substr(0, 15), "boot 2 cause 1 ");
  EXPECT_EQ(second[1], "found wordline 0 status 0 lpn 1000");
  EXPECT_EQ(second[2], "found wordline 1 status 2 lpn 0");  // ECC failure, no data
  EXPECT_EQ(second[3].substr(0, 10), "program 2 ");         // goes on after it
}

TEST(PowerLossScenario, ACutInTbersLeavesTheBlockUnreadableUntilErasedAgain) {
  // The first boot erases the block again after its 4 wordlines; 20 ms is in that erase.
  const std::string out = temp_dir("tbers");
  const SsdsimRun run = run_nand_writer(out, "--set host.power_loss.at=20ms");
  const std::vector<std::string> lines = firmware_lines(run.output);
  const std::vector<std::string> first = boot_lines(lines, 1);
  ASSERT_EQ(first.back().substr(0, 10), "program 3 ") << run.output;
  const std::vector<std::string> second = boot_lines(lines, 2);
  ASSERT_GE(second.size(), 7u) << run.output;
  for (unsigned wordline = 0; wordline < 4; ++wordline) {
    EXPECT_EQ(second[1 + wordline],
              "found wordline " + std::to_string(wordline) + " status 2 lpn 0");
  }
  EXPECT_EQ(second[5].substr(0, 6), "erase ");
  EXPECT_NE(second[5].find("status 0"), std::string::npos);
  EXPECT_EQ(second[6].substr(0, 10), "program 0 ");
}

TEST(PowerLossScenario, TheBootAfterAPowerLossSaysSoAndStartsAfterTheOffTime) {
  const std::string out = temp_dir("boot");
  const SsdsimRun run = run_nand_writer(
      out, "--set host.power_loss.at=12ms --set host.power_loss.off_time=3ms");
  const std::vector<std::string> lines = firmware_lines(run.output);
  ASSERT_TRUE(has_line_starting(lines, "boot 1 cause 0 ")) << run.output;
  const std::vector<std::string> second = boot_lines(lines, 2);
  ASSERT_FALSE(second.empty()) << run.output;
  const std::smatch match = [&] {
    std::smatch m;
    std::regex_search(second[0], m, std::regex("boot 2 cause 1 at ([0-9]+)"));
    return m;
  }();
  ASSERT_FALSE(match.empty()) << second[0];
  // The firmware's clock (simulated time) at its boot: after the 3 ms off, within 20 us of it.
  const uint64_t boot_ps = std::stoull(match[1]) * 1000;
  EXPECT_GE(boot_ps, 15 * kMs);
  EXPECT_LT(boot_ps, 15 * kMs + 20 * kUs);

  const nlohmann::json stats = read_json(out + "/stats.json");
  const nlohmann::json& power = stats["platform"]["power_loss"];
  EXPECT_EQ(power["boots"], 2u);
  EXPECT_EQ(power["cuts"][0]["cut_ps"], 12 * kMs);
  EXPECT_EQ(power["cuts"][0]["power_on_ps"], 15 * kMs);
  EXPECT_EQ(power["cuts"][0]["trigger"], "time");
}

TEST(PowerLossScenario, WithProtectionTheFirmwareFinishesItsProgramAndCutsTheHoldUpShort) {
  const auto [start, end] = uncut_program_span(1);
  const uint64_t fail_ps = end - 300 * kUs;
  const std::string out = temp_dir("plp");
  const SsdsimRun run = run_nand_writer(out, at_ps(fail_ps) + " --set ftl.plp=3ms");
  const std::vector<std::string> lines = firmware_lines(run.output);
  const std::vector<std::string> first = boot_lines(lines, 1);
  EXPECT_TRUE(has_line_starting(first, "program 1 ")) << run.output;
  EXPECT_TRUE(has_line_starting(first, "power failing at ")) << run.output;
  const std::vector<std::string> second = boot_lines(lines, 2);
  ASSERT_GE(second.size(), 3u) << run.output;
  EXPECT_EQ(second[2], "found wordline 1 status 0 lpn 1001");  // the program completed

  const nlohmann::json cut = read_json(out + "/stats.json")["platform"]["power_loss"]["cuts"][0];
  EXPECT_EQ(cut["plp"], true);
  EXPECT_EQ(cut["firmware_ready"], true);
  EXPECT_EQ(cut["fail_ps"], fail_ps);
  EXPECT_GT(cut["cut_ps"].get<uint64_t>(), end);
  EXPECT_LT(cut["cut_ps"].get<uint64_t>(), fail_ps + 3 * kMs);
}

TEST(PowerLossScenario, WithProtectionThePowerStillGoesAtTheEndOfTheBudget) {
  const auto [start, end] = uncut_program_span(1);
  const uint64_t fail_ps = end - 300 * kUs;
  const std::string out = temp_dir("plp_short");
  const SsdsimRun run = run_nand_writer(out, at_ps(fail_ps) + " --set ftl.plp=200us");
  const std::vector<std::string> lines = firmware_lines(run.output);
  EXPECT_FALSE(has_line_starting(boot_lines(lines, 1), "program 1 ")) << run.output;
  const std::vector<std::string> second = boot_lines(lines, 2);
  ASSERT_GE(second.size(), 3u) << run.output;
  EXPECT_EQ(second[2], "found wordline 1 status 2 lpn 0");

  const nlohmann::json cut = read_json(out + "/stats.json")["platform"]["power_loss"]["cuts"][0];
  EXPECT_EQ(cut["firmware_ready"], false);
  EXPECT_EQ(cut["cut_ps"], fail_ps + 200 * kUs);
}

TEST(PowerLossScenario, TheWaveformsShowThePowerStateAndTheSaveFileHasIt) {
  const std::string out = temp_dir("waves");
  run_nand_writer(out, "--set host.power_loss.at=12ms --set ftl.plp=3ms --vcd " + out +
                           "/run.vcd");
  const std::string save = read_text(out + "/run.gtkw");
  EXPECT_NE(save.find("-Power\n@28\n+{power:state} soc.power.state"), std::string::npos) << save;
  // The VCD's string values of the power state, in time order.
  const std::string dump = read_text(out + "/run.vcd");
  std::smatch id;
  const std::regex declaration("\\$scope module power \\$end\n\\$var string 1 (\\S+) state \\$end");
  ASSERT_TRUE(std::regex_search(dump, id, declaration));
  std::vector<std::string> states;
  const std::regex change("\ns(\\w+) " + std::string(id[1]) + "\n");
  for (auto it = std::sregex_iterator(dump.begin(), dump.end(), change);
       it != std::sregex_iterator(); ++it) {
    states.push_back((*it)[1]);
  }
  EXPECT_EQ(states, (std::vector<std::string>{"on", "hold_up", "off", "booting"}));
}

TEST(PowerLossScenario, RandomCutsComeFromTheSeed) {
  const auto cuts = [](const std::string& name, const std::string& seed) {
    const std::string out = temp_dir(name);
    run_nand_writer(
        out, "--set host.power_loss.random=3 --set host.power_loss.random_start=2ms "
             "--set host.power_loss.random_end=35ms --set sim.max_time=45ms --set seed=" +
                 seed);
    return read_json(out + "/stats.json")["platform"]["power_loss"];
  };
  const nlohmann::json first = cuts("seed_a", "5");
  EXPECT_EQ(first, cuts("seed_b", "5"));
  EXPECT_NE(first["cuts"], cuts("seed_c", "6")["cuts"]);
  // Three failures: each a cut, or skipped when the power was already off.
  EXPECT_EQ(first["count"].get<uint64_t>() + first["skipped"].get<uint64_t>(), 3u);
  for (const nlohmann::json& cut : first["cuts"]) {
    EXPECT_GE(cut["fail_ps"].get<uint64_t>(), 2 * kMs);
    EXPECT_LT(cut["fail_ps"].get<uint64_t>(), 35 * kMs);
  }
}

TEST(PowerLossScenario, OutstandingHostCommandsFailAndTheHostResumesWhenTheFirmwareIsReady) {
  // The RAM disk under writes only: nothing reads back what a cut lost.
  const std::string out = temp_dir("host");
  const SsdsimRun run = run_ssdsim(
      std::string(SSDVP_SOURCE_DIR) + "/scenarios/zipf.yaml --out " + out +
      " --set workload.phases[1].requests=6000"
      " --set workload.phases[1].streams[0].read_fraction=0"
      " --set workload.phases[1].streams[1].read_fraction=0"
      " --set host.power_loss.at=15ms --set host.power_loss.after_commands=4000");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& power = stats["platform"]["power_loss"];
  ASSERT_EQ(power["count"], 2u) << power.dump(1);
  EXPECT_EQ(power["cuts"][1]["trigger"], "commands");
  uint64_t failed = 0;
  for (const nlohmann::json& cut : power["cuts"]) {
    EXPECT_GT(cut["commands_failed"].get<uint64_t>(), 0u);
    failed += cut["commands_failed"].get<uint64_t>();
    // Ready again: the firmware started the HIC rings after the power came back.
    ASSERT_FALSE(cut["ready_ps"].is_null());
    EXPECT_EQ(cut["recovery_ps"].get<uint64_t>(),
              cut["ready_ps"].get<uint64_t>() - cut["power_on_ps"].get<uint64_t>());
    EXPECT_GT(cut["recovery_ps"].get<uint64_t>(), 0u);
  }
  EXPECT_EQ(power["commands_failed"], failed);
  // Every request of the phase was submitted: completed or failed by a cut.
  uint64_t phase_failed = 0;
  for (const nlohmann::json& phase : stats["host"]["phases"]) {
    EXPECT_TRUE(phase["finished"].get<bool>());
    EXPECT_EQ(phase["submitted"].get<uint64_t>(),
              phase["commands"].get<uint64_t>() + phase["power_loss_failed"].get<uint64_t>());
    phase_failed += phase["power_loss_failed"].get<uint64_t>();
  }
  EXPECT_EQ(phase_failed, failed);
  // The command-count cut came when the host had completed 4000 commands.
  const uint64_t cut_ps = power["cuts"][1]["cut_ps"];
  EXPECT_GT(cut_ps, power["cuts"][0]["ready_ps"].get<uint64_t>());
}

TEST(PowerLossScenario, BadPowerLossKeysAreClearErrors) {
  const auto error_of = [](const std::string& sets) {
    const SsdsimRun run = run_ssdsim(nand_writer_arguments(temp_dir("bad"), sets));
    EXPECT_NE(run.exit_code, 0);
    return run.output;
  };
  const std::string time_list = error_of("--set 'host.power_loss.at=2ms, soon'");
  EXPECT_NE(time_list.find("host.power_loss.at: entry 'soon' is not a time"), std::string::npos)
      << time_list;
  const std::string counts = error_of("--set host.power_loss.after_commands=0");
  EXPECT_NE(counts.find("host.power_loss.after_commands: entry '0'"), std::string::npos) << counts;
  const std::string window = error_of("--set host.power_loss.random=2");
  EXPECT_NE(window.find("host.power_loss.random = 2 needs host.power_loss.random_end"),
            std::string::npos)
      << window;
  const std::string plp = error_of("--set ftl.plp=2s");
  EXPECT_NE(plp.find("ftl.plp"), std::string::npos) << plp;
  const std::string off = error_of("--set host.power_loss.off_time=0s");
  EXPECT_NE(off.find("host.power_loss.off_time"), std::string::npos) << off;
}

}  // namespace
