// stats.json structure, simulator-speed arithmetic, the determinism naming rule, the summary.
#include "tb/report/stats_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ssdvp {
namespace {

Scenario small_scenario() {
  std::vector<Scenario> runs =
      load_scenarios("name: small\nsweep:\n  cpu.harts: [2]\n", "s.yaml", {});
  return runs.front();
}

// Two harts; 2 ms simulated. Hart 0: 1000 instructions in 3000 cycles, 1000 asleep. Hart 1: 600
// instructions in 3000 cycles, 2000 asleep.
nlohmann::json platform_report() {
  return {{"harts",
           {{{"instret", 1000u}, {"cycles", 3000u}, {"sleep_cycles", 1000u}, {"pc", 4u}},
            {{"instret", 600u}, {"cycles", 3000u}, {"sleep_cycles", 2000u}, {"pc", 8u}}}},
          {"simulated_time_ps", 2000000000u},
          {"memory", {{"sram_bytes", 1048576u}}}};
}

TEST(StatsReport, StructureAndPassThrough) {
  const Scenario scenario = small_scenario();
  const nlohmann::json stats =
      make_stats(scenario, RunOutcome{"exit", 0, ""}, platform_report(), 0.5);
  std::vector<std::string> keys;
  for (const auto& [key, value] : stats.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"config", "harts", "outcome", "platform", "scenario",
                                            "simulator"}));
  EXPECT_EQ(stats["scenario"]["name"], "small");
  EXPECT_EQ(stats["scenario"]["source"], "s.yaml");
  EXPECT_EQ(stats["scenario"]["sweep_label"], "cpu.harts=2");
  EXPECT_EQ(stats["config"], scenario.resolved);
  EXPECT_EQ(stats["config"]["cpu"]["harts"], 2);
  EXPECT_EQ(stats["outcome"]["outcome"], "exit");
  EXPECT_EQ(stats["outcome"]["exit_code"], 0);
  EXPECT_EQ(stats["harts"], platform_report()["harts"]);
  EXPECT_FALSE(stats["platform"].contains("harts"));
  EXPECT_EQ(stats["platform"]["simulated_time_ps"], 2000000000u);
  EXPECT_EQ(stats["platform"]["memory"]["sram_bytes"], 1048576u);
}

TEST(StatsReport, SimulatorSpeedArithmetic) {
  const nlohmann::json stats =
      make_stats(small_scenario(), RunOutcome{"hang", 3, "no progress"}, platform_report(), 0.5);
  const nlohmann::json& simulator = stats["simulator"];
  EXPECT_EQ(simulator["instructions"], 1600u);
  EXPECT_DOUBLE_EQ(simulator["wall_seconds"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(simulator["simulated_seconds"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(simulator["mips"].get<double>(), 1600 / 0.5 / 1e6);
  EXPECT_DOUBLE_EQ(simulator["sim_speed"].get<double>(), 0.002 / 0.5);

  const nlohmann::json instant =
      make_stats(small_scenario(), RunOutcome{"exit", 0, ""}, platform_report(), 0.0);
  EXPECT_EQ(instant["simulator"]["mips"].get<double>(), 0.0);
  EXPECT_EQ(instant["simulator"]["sim_speed"].get<double>(), 0.0);
}

TEST(StatsReport, PhaseHostTimesMoveUnderSimulator) {
  nlohmann::json platform = platform_report();
  platform["host"] = {{"phases",
                       {{{"name", "fill"}, {"commands", 4u}, {"wall_seconds", 1.5}},
                        {{"name", "read"}, {"commands", 9u}, {"wall_seconds", 0.25}}}}};
  const nlohmann::json stats = make_stats(small_scenario(), {"exit", 0, ""}, platform, 2.0);
  EXPECT_FALSE(stats["host"]["phases"][0].contains("wall_seconds"));
  EXPECT_EQ(stats["host"]["phases"][1]["commands"], 9u);
  const nlohmann::json& walls = stats["simulator"]["phases_wall"];
  ASSERT_EQ(walls.size(), 2u);
  EXPECT_EQ(walls[1]["name"], "read");
  EXPECT_DOUBLE_EQ(walls[1]["wall_seconds"].get<double>(), 0.25);
}

TEST(StatsReport, OnlyWallClockNamedFieldsDifferBetweenRuns) {
  nlohmann::json fast = make_stats(small_scenario(), {"exit", 0, ""}, platform_report(), 0.25);
  nlohmann::json slow = make_stats(small_scenario(), {"exit", 0, ""}, platform_report(), 4.0);
  EXPECT_NE(fast, slow);
  drop_wall_clock_fields(fast);
  drop_wall_clock_fields(slow);
  EXPECT_EQ(fast, slow);
  EXPECT_TRUE(fast["simulator"].contains("instructions"));
  EXPECT_TRUE(fast["simulator"].contains("simulated_seconds"));
}

TEST(StatsReport, RejectsUnknownOutcomesAndIncompleteReports) {
  try {
    make_stats(small_scenario(), {"crashed", 1, ""}, platform_report(), 1.0);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("'crashed'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("tohost_pass"), std::string::npos) << error.what();
  }
  nlohmann::json no_time = platform_report();
  no_time.erase("simulated_time_ps");
  EXPECT_THROW(make_stats(small_scenario(), {"exit", 0, ""}, no_time, 1.0), std::runtime_error);
  nlohmann::json no_sleep = platform_report();
  no_sleep["harts"][1].erase("sleep_cycles");
  try {
    make_stats(small_scenario(), {"exit", 0, ""}, no_sleep, 1.0);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("harts[1].sleep_cycles"), std::string::npos)
        << error.what();
  }
}

TEST(StatsReport, WriteJsonCreatesDirectoriesAndNamesBadPaths) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ssdvp_stats_test_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const nlohmann::json stats = make_stats(small_scenario(), {"exit", 0, ""}, platform_report(), 1);
  const std::string path = (dir / "a" / "b" / "stats.json").string();
  write_json(path, stats);
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in), stats);

  const std::string blocked = (dir / "a" / "b" / "stats.json" / "x.json").string();
  try {
    write_json(blocked, stats);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(blocked), std::string::npos) << error.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(StatsReport, SummaryShowsOutcomeTimeAndPerHartFigures) {
  const nlohmann::json stats =
      make_stats(small_scenario(), {"tohost_fail", 1, "test 3 failed"}, platform_report(), 0.5);
  std::ostringstream out;
  print_summary(out, stats);
  const std::string text = out.str();
  for (const char* part : {"small (s.yaml)", "cpu.harts=2", "tohost_fail, code 1", "test 3 failed",
                           "2.000 ms", "33.3", "66.7", "0.500", "0.600", "1600", "0.500 s",
                           "0.00"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n" << text;
  }
}

// Each hart's cycles by job kind: a line of shares in the kinds' order (interface/job_kinds.h),
// kinds without cycles left out, then the shares of the cycles not idle.
TEST(StatsReport, SummaryShowsEachHartsCyclesByJobKind) {
  nlohmann::json platform = platform_report();
  platform["harts"][0]["job_cycles"] = {{"other", 100u}, {"host", 1200u}, {"flush", 0u},
                                        {"translation", 0u}, {"gc", 700u}, {"jobs", 0u},
                                        {"idle", 1000u}};
  platform["harts"][1]["job_cycles"] = {{"other", 0u}, {"jobs", 3000u}, {"kind9", 0u}};
  const nlohmann::json stats = make_stats(small_scenario(), {"exit", 0, ""}, platform, 0.5);
  EXPECT_EQ(stats["harts"][0]["job_cycles"]["gc"], 700u) << "passed through";
  std::ostringstream out;
  print_summary(out, stats);
  const std::string text = out.str();
  for (const char* line :
       {"hart 0 cycles: other 3.3 %, host 40.0 %, gc 23.3 %, idle 33.3 %; not idle: other 5.0 %, "
        "host 60.0 %, gc 35.0 %\n",
        "hart 1 cycles: jobs 100.0 %\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
}

}  // namespace
}  // namespace ssdvp
