// The host scenarios end to end: ssdsim replays the TPC-C trace and runs the zipf workload
// through the HIC with the RAM-disk test firmware, writes the statistics files, is
// deterministic, catches a firmware that returns stale data, and finds built-in and relative
// firmware images; the growing OLTP database runs on the FTL for a multiple of the capacity.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tb/report/stats_report.h"

#include "tb/tests/support/ssdsim_runner.h"
#include "tb/tests/support/waveform_files.h"

namespace {

using namespace ssdvp::test;

std::string scenario(const std::string& name) {
  return std::string(SSDVP_SOURCE_DIR) + "/scenarios/" + name + ".yaml";
}

size_t count_lines(const std::string& text) {
  size_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

// A smaller measure phase keeps the zipf runs of these tests short.
const char* const kShortZipf = " --set workload.phases[1].requests=4000";

TEST(HostScenarios, TpccTraceReplaysEndToEnd) {
  // Requests and reads of the trace, counted here from the file (type 1 = read).
  std::ifstream trace(std::string(SSDVP_SHARED_TRACES_DIR) + "/tpcc-small.trace");
  uint64_t requests = 0, reads = 0;
  double time = 0;
  uint64_t device = 0, sector = 0, sectors = 0, type = 0;
  while (trace >> time >> device >> sector >> sectors >> type) {
    ++requests;
    reads += type == 1;
  }
  ASSERT_GT(requests, 0u);

  const std::string out = temp_dir("tpcc");
  const SsdsimRun run = run_ssdsim(scenario("tpcc_replay") + " --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("phase replay: " + std::to_string(requests) + " commands"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("oracle on"), std::string::npos) << run.output;

  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& host = stats["host"];
  ASSERT_EQ(host["phases"].size(), 1u);
  const nlohmann::json& phase = host["phases"][0];
  EXPECT_EQ(phase["commands"], requests);
  EXPECT_EQ(phase["ops"]["read"]["commands"], reads);
  EXPECT_EQ(phase["ops"]["write"]["commands"], requests - reads);
  EXPECT_EQ(phase["errors"], 0u);
  EXPECT_EQ(host["oracle"]["enabled"], true);
  EXPECT_GE(host["oracle"]["pages_checked"].get<uint64_t>(), reads);
  EXPECT_EQ(host["hic"]["completions"], requests);
  for (const char* percentile : {"p50", "p99", "p99.9", "p99.99", "max"}) {
    EXPECT_GT(phase["ops"]["read"]["latency_ns"][percentile].get<uint64_t>(), 0u) << percentile;
  }

  // One time-series row per started 10 ms of the phase; histogram buckets of both ops.
  const uint64_t duration = phase["end_ps"].get<uint64_t>() - phase["start_ps"].get<uint64_t>();
  const uint64_t interval = 10'000'000'000;
  EXPECT_EQ(count_lines(read_text(out + "/timeseries.csv")),
            1 + (duration + interval - 1) / interval);
  const std::string latency = read_text(out + "/latency.csv");
  EXPECT_EQ(latency.rfind("phase,op,lower_ns,upper_ns,count\n", 0), 0u);
  EXPECT_NE(latency.find("\nreplay,read,"), std::string::npos);
  EXPECT_NE(latency.find("\nreplay,write,"), std::string::npos);
}

TEST(HostScenarios, ZipfWorkloadRunsEndToEndAndIsDeterministic) {
  const std::string first = temp_dir("zipf1");
  const std::string second = temp_dir("zipf2");
  const SsdsimRun run = run_ssdsim(scenario("zipf") + kShortZipf + " --out " + first);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_EQ(run_ssdsim(scenario("zipf") + kShortZipf + " --out " + second).exit_code, 0);

  nlohmann::json stats = read_json(first + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& phases = stats["host"]["phases"];
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0]["name"], "precondition");
  EXPECT_EQ(phases[0]["bytes"], 64u << 20);
  EXPECT_EQ(phases[0]["ops"]["write"]["commands"], (64u << 20) / (128u << 10));
  EXPECT_EQ(phases[1]["name"], "measure");
  EXPECT_EQ(phases[1]["commands"], 4000u);
  EXPECT_GT(phases[1]["ops"]["read"]["commands"].get<uint64_t>(),
            phases[1]["ops"]["write"]["commands"].get<uint64_t>());
  EXPECT_LE(phases[1]["queue_occupancy"]["max"].get<uint64_t>(), 32u + 8u);

  nlohmann::json again = read_json(second + "/stats.json");
  for (nlohmann::json* each : {&stats, &again}) {
    ssdvp::drop_wall_clock_fields(*each);
    each->erase("config");  // holds the output directory
  }
  EXPECT_EQ(stats, again);
  EXPECT_EQ(read_text(first + "/latency.csv"), read_text(second + "/latency.csv"));
  EXPECT_EQ(read_text(first + "/timeseries.csv"), read_text(second + "/timeseries.csv"));
}

TEST(HostScenarios, OltpGrowingDatabaseRunsOnTheFtlForACapacityMultiple) {
  // Two capacities of writes instead of 25 keep it short: 2 x 7372 LPNs of 4 KiB.
  const std::string out = temp_dir("oltp");
  const SsdsimRun run = run_ssdsim(scenario("oltp_growing") +
                                   " --set workload.phases[1].capacity_multiple=2 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& phases = stats["host"]["phases"];
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[1]["name"], "grow");
  EXPECT_EQ(phases[1]["bytes"], 2u * 7372u * 4096u);
  EXPECT_EQ(phases[1]["ops"]["write"]["commands"], 2u * 7372u);
  // The verify phase reads the 16 MiB database back: every page the oracle knows.
  EXPECT_EQ(stats["host"]["oracle"]["pages_checked"], 4096u);
}

TEST(HostScenarios, TheOracleCatchesAFirmwareReturningStaleData) {
  const std::string out = temp_dir("stale");
  // The second stream reads from the start, so LPN 7 is read early in the measure phase.
  const SsdsimRun run = run_ssdsim(
      scenario("zipf") + kShortZipf + " --set workload.phases[1].streams[1].pattern=sequential" +
      " --set firmware.elf=builtin:ramdisk_stale --out " + out);
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "integrity_failure");
  // The variant hands out the version before the last one written to LPN 7.
  const std::string message = stats["outcome"]["message"];
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      message, match,
      std::regex("^integrity check failed: LPN 7: expected version ([0-9]+), found version "
                 "([0-9]+) \\(a read of [0-9]+ page\\(s\\) from LPN [0-9]+ by "
                 "workload.phases\\[1\\]")))
      << message;
  EXPECT_EQ(std::stoul(match[2].str()) + 1, std::stoul(match[1].str())) << message;
  EXPECT_EQ(stats["host"]["phases"][1]["finished"], false);
}

TEST(HostScenarios, TurningTheOracleOffChangesNoTiming) {
  const std::string on = temp_dir("oracle_on");
  const std::string off = temp_dir("oracle_off");
  ASSERT_EQ(run_ssdsim(scenario("zipf") + kShortZipf + " --out " + on).exit_code, 0);
  ASSERT_EQ(run_ssdsim(scenario("zipf") + kShortZipf + " --set host.oracle=false --out " + off)
                .exit_code,
            0);
  const nlohmann::json checked = read_json(on + "/stats.json");
  const nlohmann::json unchecked = read_json(off + "/stats.json");
  EXPECT_EQ(checked["host"]["oracle"]["enabled"], true);
  EXPECT_EQ(unchecked["host"]["oracle"]["enabled"], false);
  EXPECT_EQ(unchecked["host"]["oracle"]["pages_checked"], 0u);
  EXPECT_EQ(checked["platform"]["simulated_time_ps"], unchecked["platform"]["simulated_time_ps"]);
  EXPECT_EQ(checked["host"]["phases"], unchecked["host"]["phases"]);
}

TEST(HostScenarios, BuiltinFirmwareNamesAreListedWhenOneIsUnknown) {
  const SsdsimRun run =
      run_ssdsim(scenario("zipf") + " --set firmware.elf=builtin:nope --out " + temp_dir("nope"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("firmware.elf = 'builtin:nope': no such built-in firmware; "
                            "available: ramdisk, ramdisk_stale"),
            std::string::npos)
      << run.output;
}

TEST(HostScenarios, RelativeFirmwarePathsStartAtTheScenarioFile) {
  const std::string dir = temp_dir("relative");
  std::filesystem::create_directories(dir + "/images");
  std::filesystem::copy_file(std::string(SSDVP_FIRMWARE_DIR) + "/tests/ramdisk.elf",
                             dir + "/images/disk.elf");
  std::ofstream(dir + "/small.yaml") << "dram: {size: 4MiB}\n"
                                        "firmware: {elf: images/disk.elf}\n"
                                        "workload:\n"
                                        "  phases:\n"
                                        "    - name: touch\n"
                                        "      requests: 16\n"
                                        "      streams:\n"
                                        "        - {pattern: random, read_fraction: 0.5}\n";
  // Run from another directory: the path is taken from the scenario's.
  const SsdsimRun run = run_ssdsim(dir + "/small.yaml --out " + dir + "/out");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(read_json(dir + "/out/stats.json")["host"]["phases"][0]["commands"], 16u);
}

// A bad line is found when the replay reaches it, mid-run: the run ends as bad input, naming
// the trace file, the line and what the line should hold, and still writes its statistics.
TEST(HostScenarios, ABadTraceLineEndsTheRunNamingFileAndLine) {
  const std::string dir = temp_dir("bad_trace");
  std::ofstream trace(dir + "/bad.trace");
  for (int i = 0; i < 40; ++i) trace << i * 1000 << " 0 " << i * 8 << " 8 " << i % 2 << "\n";
  trace << "40000 0 320 eight 1\n";
  trace.close();
  std::ofstream(dir + "/replay.yaml") << "dram: {size: 4MiB}\n"
                                         "firmware: {elf: builtin:ramdisk}\n"
                                         "host: {capacity: 64MiB, page_size: 4KiB}\n"
                                         "workload:\n"
                                         "  phases:\n"
                                         "    - name: replay\n"
                                         "      streams:\n"
                                         "        - {trace: bad.trace, format: disksim}\n";
  const SsdsimRun run = run_ssdsim(dir + "/replay.yaml --out " + dir + "/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("workload.phases[0].streams[0]: " + dir +
                            "/bad.trace:41: size_sectors 'eight' is not a non-negative integer"),
            std::string::npos)
      << run.output;
  const nlohmann::json stats = read_json(dir + "/out/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_error");
  EXPECT_GT(stats["host"]["phases"][0]["commands"].get<uint64_t>(), 0u);
}

}  // namespace
