// The workload section of scenarios: phases and streams as YAML lists of records, their keys
// and defaults, --set and sweeps of indexed keys, the resolved configuration, trace paths, and
// errors that name file:line:column, the key with its indices and what is allowed; the keys a
// trace profile sets, keys given winning over it, and its errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tb/scenario/parameters.h"
#include "tb/scenario/scenario.h"
#include "tlm/host/synthetic_profile.h"

namespace ssdvp {
namespace {

const char* const kSource = "scenarios/w.yaml";

Scenario load_one(const std::string& yaml, const std::vector<std::string>& overrides = {},
                  const std::string& source = kSource) {
  std::vector<Scenario> scenarios = load_scenarios(yaml, source, overrides);
  if (scenarios.size() != 1) throw std::runtime_error("expected one scenario");
  return scenarios.front();
}

std::string load_error(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load_scenarios(yaml, kSource, overrides);
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A temporary directory with a trace in traces/, removed after the test.
class TraceDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ssdvp_workload_scenario_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_ / "traces");
    std::ofstream(dir_ / "traces" / "t.trace") << "0 0 8 8 1\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

const char* const kTwoPhases =
    "workload:\n"
    "  phases:\n"
    "    - name: precondition\n"
    "      bytes: 1GiB\n"
    "      streams:\n"
    "        - {pattern: sequential, size: 128KiB, queue_depth: 4}\n"
    "    - name: measure\n"
    "      requests: 100000\n"
    "      duration: 2ms\n"
    "      streams:\n"
    "        - name: hot\n"
    "          pattern: zipf\n"
    "          alpha: 1.2\n"
    "          read_fraction: 0.7\n"
    "          trim_fraction: 0.05\n"
    "          sizes: {4KiB: 0.7, 64KiB: 0.3}\n"
    "          working_set: 256MiB\n"
    "          offset: 1GiB\n"
    "          align: 8KiB\n"
    "        - pattern: hotcold\n"
    "          hot_space_fraction: 0.1\n"
    "          hot_access_fraction: 0.9\n";

TEST(WorkloadScenario, PhasesAndStreamsBecomeTheTypedConfig) {
  const Scenario scenario = load_one(kTwoPhases);
  const std::vector<host::PhaseConfig>& phases = scenario.soc.workload.phases;
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].name, "precondition");
  EXPECT_EQ(phases[0].max_bytes, 1ull << 30);
  EXPECT_EQ(phases[0].max_requests, 0u);
  ASSERT_EQ(phases[0].streams.size(), 1u);
  EXPECT_EQ(phases[0].streams[0].pattern, "sequential");
  EXPECT_EQ(phases[0].streams[0].queue_depth, 4u);
  EXPECT_EQ(phases[0].streams[0].sizes, (SizeWeights{{128 * 1024, 1.0}}));

  EXPECT_EQ(phases[1].name, "measure");
  EXPECT_EQ(phases[1].max_requests, 100000u);
  EXPECT_EQ(phases[1].max_time_ps, 2'000'000'000u);
  ASSERT_EQ(phases[1].streams.size(), 2u);
  const host::StreamConfig& hot = phases[1].streams[0];
  EXPECT_EQ(hot.name, "hot");
  EXPECT_EQ(hot.pattern, "zipf");
  EXPECT_EQ(hot.zipf_alpha, 1.2);
  EXPECT_EQ(hot.read_fraction, 0.7);
  EXPECT_EQ(hot.trim_fraction, 0.05);
  EXPECT_EQ(hot.sizes, (SizeWeights{{4096, 0.7}, {65536, 0.3}}));
  EXPECT_EQ(hot.working_set_bytes, 256ull << 20);
  EXPECT_EQ(hot.offset_bytes, 1ull << 30);
  EXPECT_EQ(hot.align_bytes, 8192u);
  const host::StreamConfig& cold = phases[1].streams[1];
  EXPECT_EQ(cold.pattern, "hotcold");
  EXPECT_EQ(cold.hot_space_fraction, 0.1);
  EXPECT_EQ(cold.hot_access_fraction, 0.9);
  // Keys not given keep the defaults of a default StreamConfig.
  const host::StreamConfig defaults;
  EXPECT_EQ(cold.queue_depth, defaults.queue_depth);
  EXPECT_EQ(cold.sizes, defaults.sizes);
  EXPECT_EQ(cold.align_bytes, defaults.align_bytes);
  EXPECT_EQ(cold.trace_format, defaults.trace_format);
  EXPECT_TRUE(cold.name.empty());
}

TEST(WorkloadScenario, NoWorkloadMeansNoPhases) {
  EXPECT_TRUE(load_one("name: x\n").soc.workload.phases.empty());
  EXPECT_TRUE(load_one("workload: {phases: []}\n").soc.workload.phases.empty());
  EXPECT_EQ(load_one("name: x\n").resolved["workload"]["phases"], nlohmann::json::array());
}

TEST(WorkloadScenario, SetChangesOneKeyOfOneRecord) {
  const Scenario scenario =
      load_one(kTwoPhases, {"workload.phases[1].streams[0].queue_depth=8",
                            "workload.phases[1].streams[1].sizes={16KiB: 1, 8KiB: 3}",
                            "workload.phases[0].name=fill"});
  EXPECT_EQ(scenario.soc.workload.phases[1].streams[0].queue_depth, 8u);
  EXPECT_EQ(scenario.soc.workload.phases[1].streams[1].sizes,
            (SizeWeights{{8192, 3.0}, {16384, 1.0}}));
  EXPECT_EQ(scenario.soc.workload.phases[0].name, "fill");
  EXPECT_EQ(scenario.soc.workload.phases[1].streams[1].queue_depth, 32u);
}

TEST(WorkloadScenario, SetReplacesAWholeList) {
  const Scenario scenario = load_one(
      "", {"workload.phases=[{name: only, requests: 10, streams: [{pattern: random}, "
           "{pattern: sequential, devices: []}]}]"});
  ASSERT_EQ(scenario.soc.workload.phases.size(), 1u);
  EXPECT_EQ(scenario.soc.workload.phases[0].streams.size(), 2u);
  const Scenario streams =
      load_one(kTwoPhases, {"workload.phases[1].streams=[{pattern: zipf, alpha: 0.5}]"});
  ASSERT_EQ(streams.soc.workload.phases[1].streams.size(), 1u);
  EXPECT_EQ(streams.soc.workload.phases[1].streams[0].zipf_alpha, 0.5);
  const std::string error =
      load_error("", {"workload.phases=[{name: a, streams: [{alpha: -1}]}]"});
  EXPECT_TRUE(contains(error, "--set workload.phases=[{name: a, streams: [{alpha: -1}]}]: "
                              "workload.phases[0].streams[0].alpha: '-1' is out of range; "
                              "allowed [0, 10]"))
      << error;
}

TEST(WorkloadScenario, ZipfAlphaTakesZeroForUniformUpToTen) {
  for (const char* alpha : {"0", "0.2", "1.2", "10"}) {
    const Scenario scenario =
        load_one(kTwoPhases, {std::string("workload.phases[1].streams[0].alpha=") + alpha});
    EXPECT_EQ(scenario.soc.workload.phases[1].streams[0].zipf_alpha, std::stod(alpha));
  }
  EXPECT_TRUE(contains(load_error(kTwoPhases, {"workload.phases[1].streams[0].alpha=10.5"}),
                       "alpha: '10.5' is out of range; allowed [0, 10]"));
}

const char* const kOltpPhase =
    "workload:\n"
    "  phases:\n"
    "    - name: grow\n"
    "      capacity_multiple: 20\n"
    "      streams:\n"
    "        - pattern: oltp\n"
    "          db_initial_size: 4MiB\n"
    "          db_final_size: 48MiB\n"
    "          insert_fraction: 0.05\n"
    "          hot_window: 64\n"
    "          hot_rewrites: 3\n"
    "          frozen_fraction: 0.7\n"
    "          alpha: 0.8\n";

TEST(WorkloadScenario, OltpKeysAndTheCapacityMultipleBecomeTheTypedConfig) {
  const Scenario scenario = load_one(kOltpPhase);
  const host::PhaseConfig& phase = scenario.soc.workload.phases.at(0);
  EXPECT_EQ(phase.capacity_multiple, 20.0);
  EXPECT_EQ(phase.max_bytes, 0u);
  const host::StreamConfig& stream = phase.streams.at(0);
  EXPECT_EQ(stream.pattern, "oltp");
  EXPECT_EQ(stream.db_initial_bytes, 4ull << 20);
  EXPECT_EQ(stream.db_final_bytes, 48ull << 20);
  EXPECT_EQ(stream.insert_fraction, 0.05);
  EXPECT_EQ(stream.hot_window, 64u);
  EXPECT_EQ(stream.hot_rewrites, 3.0);
  EXPECT_EQ(stream.frozen_fraction, 0.7);
  EXPECT_EQ(stream.zipf_alpha, 0.8);
  const nlohmann::json& resolved = scenario.resolved["workload"]["phases"][0];
  EXPECT_EQ(resolved["capacity_multiple"], 20.0);
  EXPECT_EQ(resolved["streams"][0]["db_final_size"], "48MiB");
  // Defaults: no capacity limit, and the oltp keys of a default StreamConfig.
  const Scenario plain = load_one(kTwoPhases);
  EXPECT_EQ(plain.soc.workload.phases[0].capacity_multiple, 0.0);
  EXPECT_EQ(plain.resolved["workload"]["phases"][0]["capacity_multiple"], 0.0);
  const host::StreamConfig defaults;
  EXPECT_EQ(plain.soc.workload.phases[0].streams[0].insert_fraction, defaults.insert_fraction);
  EXPECT_EQ(plain.soc.workload.phases[0].streams[0].hot_window, defaults.hot_window);
  // A fractional multiple, and the limit alone suffices for a synthetic phase.
  EXPECT_EQ(load_one(kOltpPhase, {"workload.phases[0].capacity_multiple=0.5"})
                .soc.workload.phases[0]
                .capacity_multiple,
            0.5);
}

TEST(WorkloadScenarioErrors, BadCapacityMultiplesAndOltpKeysNameTheKey) {
  const auto error_with = [](const std::string& set) { return load_error(kOltpPhase, {set}); };
  const std::string negative = error_with("workload.phases[0].capacity_multiple=-1");
  EXPECT_TRUE(contains(negative, "--set workload.phases[0].capacity_multiple=-1: "
                                 "workload.phases[0].capacity_multiple: '-1' is out of range; "
                                 "allowed [0, 1000000]"))
      << negative;
  EXPECT_TRUE(contains(error_with("workload.phases[0].capacity_multiple=20x"),
                       "capacity_multiple: '20x' is not a number"));
  EXPECT_TRUE(contains(error_with("workload.phases[0].capacity_multiple=nan"),
                       "capacity_multiple: 'nan'"));
  const std::string file = load_error(
      "workload:\n  phases:\n    - {capacity_multiple: 2GiB, streams: [{}]}\n");
  EXPECT_TRUE(contains(file, "w.yaml:3:27: workload.phases[0].capacity_multiple: '2GiB' is not a "
                             "number"))
      << file;
  // Zero is no limit: a synthetic phase without another limit is refused.
  EXPECT_TRUE(contains(error_with("workload.phases[0].capacity_multiple=0"),
                       "synthetic streams never end"));
  EXPECT_TRUE(contains(error_with("workload.phases[0].streams[0].insert_fraction=0"),
                       "workload.phases[0].streams[0].insert_fraction: '0' is out of range; "
                       "allowed (0, 1]"));
  EXPECT_TRUE(contains(error_with("workload.phases[0].streams[0].frozen_fraction=1.1"),
                       "frozen_fraction: '1.1' is out of range; allowed [0, 1]"));
  EXPECT_TRUE(contains(error_with("workload.phases[0].streams[0].hot_window=0"),
                       "hot_window: '0' is out of range; allowed 1.."));
  EXPECT_TRUE(contains(
      load_error("workload:\n  phases:\n    - {streams: [{trace: /dev/null, hot_window: 8}]}\n"),
      "workload.phases[0].streams[0].hot_window: applies to synthetic streams"));
}

TEST(WorkloadScenario, SweepsOverIndexedKeysInTheFileAndFromTheCommandLine) {
  const std::string yaml = std::string(kTwoPhases) +
                           "sweep:\n"
                           "  workload.phases[1].streams[0].queue_depth: [1, 4, 16]\n";
  const std::vector<Scenario> runs = load_scenarios(yaml, kSource, {});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[2].soc.workload.phases[1].streams[0].queue_depth, 16u);
  EXPECT_EQ(runs[2].sweep_label, "workload.phases[1].streams[0].queue_depth=16");
  EXPECT_EQ(runs[2].resolved["workload"]["phases"][1]["streams"][0]["queue_depth"], 16);

  const std::vector<Scenario> sizes = load_scenarios(
      kTwoPhases, kSource, {"sweep.workload.phases[0].streams[0].size=[4KiB, 1MiB]"});
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[1].soc.workload.phases[0].streams[0].sizes, (SizeWeights{{1 << 20, 1.0}}));
  EXPECT_EQ(sizes[1].sweep_label, "workload.phases[0].streams[0].size=1MiB");

  // A --set of the swept key pins it; a sweep of a record that does not exist is an error.
  EXPECT_EQ(load_scenarios(yaml, kSource, {"workload.phases[1].streams[0].queue_depth=2"}).size(),
            1u);
  const std::string missing =
      load_error(kTwoPhases, {"sweep.workload.phases[2].streams[0].queue_depth=[1, 2]"});
  EXPECT_TRUE(contains(missing, "--set sweep.workload.phases[2].streams[0].queue_depth=[1, 2]: "
                                "workload.phases[2].streams[0].queue_depth: index 2 is out of "
                                "range: workload.phases has 2 records"))
      << missing;
  EXPECT_TRUE(contains(load_error(kTwoPhases, {"sweep.workload.phases=[[], []]"}),
                       "a list of records cannot be swept"));
}

TEST(WorkloadScenario, ResolvedConfigHoldsTheWorkloadAndRoundTrips) {
  const Scenario original = load_one(std::string(kTwoPhases) +
                                     "        - {trace: /dev/null, format: blkparse, "
                                     "devices: [8:16, 3], fold: true, time_scale: 0.25, "
                                     "follow_timestamps: true}\n");
  const nlohmann::json& phases = original.resolved["workload"]["phases"];
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0]["bytes"], "1GiB");
  EXPECT_EQ(phases[0]["streams"][0]["sizes"], (nlohmann::json{{"128KiB", 1.0}}));
  EXPECT_FALSE(phases[0]["streams"][0].contains("size"));  // the shorthand is not repeated
  EXPECT_EQ(phases[1]["duration"], "2ms");
  EXPECT_EQ(phases[1]["streams"][0]["alpha"], 1.2);
  EXPECT_EQ(phases[1]["streams"][0]["sizes"], (nlohmann::json{{"4KiB", 0.7}, {"64KiB", 0.3}}));
  const nlohmann::json& replay = phases[1]["streams"][2];
  EXPECT_EQ(replay["trace"], "/dev/null");
  EXPECT_EQ(replay["format"], "blkparse");
  EXPECT_EQ(replay["devices"], (nlohmann::json{3, "8:16"}));
  EXPECT_EQ(replay["time_scale"], 0.25);
  EXPECT_EQ(original.soc.workload.phases[1].streams[2].devices,
            (DeviceList{3, (8u << 20) | 16u}));

  const Scenario copy = load_one("", {"workload.phases=" + phases.dump()});
  EXPECT_EQ(copy.resolved["workload"], original.resolved["workload"]);
}

TEST_F(TraceDirectory, RelativeTracePathsResolveAgainstTheScenarioFile) {
  const std::string scenario_file = (dir_ / "s.yaml").string();
  const std::string yaml =
      "workload:\n  phases:\n    - streams: [{trace: traces/t.trace}]\n";
  const Scenario scenario = load_one(yaml, {}, scenario_file);
  EXPECT_EQ(scenario.soc.workload.phases[0].streams[0].trace_path,
            (dir_ / "traces" / "t.trace").string());
  // From --set, relative to the working directory.
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  const Scenario overridden =
      load_one("workload:\n  phases:\n    - streams: [{trace: /dev/null}]\n",
               {"workload.phases[0].streams[0].trace=traces/t.trace"}, "other/s.yaml");
  std::filesystem::current_path(cwd);
  EXPECT_EQ(overridden.soc.workload.phases[0].streams[0].trace_path, "traces/t.trace");

  try {
    load_one("workload:\n  phases:\n    - streams: [{trace: traces/none.trace}]\n", {},
             scenario_file);
    FAIL() << "a missing trace loaded";
  } catch (const ScenarioError& error) {
    EXPECT_TRUE(contains(error.what(), scenario_file + ":3:25: workload.phases[0].streams[0].trace:"
                                                       " 'traces/none.trace' is not a file"))
        << error.what();
  }
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(WorkloadScenarioErrors, UnknownKeysNameTheRecordAndItsKeys) {
  const std::string error = load_error(
      "workload:\n  phases:\n    - name: a\n      requests: 1\n      streams: [{}]\n"
      "    - name: b\n      requests: 1\n      streams:\n        - {patern: zipf}\n");
  EXPECT_TRUE(contains(error, "scenarios/w.yaml:9:12: workload.phases[1].streams[0].patern: "
                              "unknown key; allowed keys of workload.phases[1].streams[0]: name, "
                              "queue_depth, pattern, read_fraction"))
      << error;
  const std::string phase = load_error("workload:\n  phases:\n    - {nme: a}\n");
  EXPECT_TRUE(contains(phase, "w.yaml:3:8: workload.phases[0].nme: unknown key; allowed keys of "
                              "workload.phases[0]: name, requests, bytes, duration, "
                              "capacity_multiple, fio, streams"))
      << phase;
  const std::string section = load_error("workload:\n  phase: []\n");
  EXPECT_TRUE(contains(section, "w.yaml:2:3: workload.phase: unknown key; allowed keys of "
                                "workload: phases"))
      << section;
  const std::string set = load_error(kTwoPhases, {"workload.phases[1].streams[0].qd=8"});
  EXPECT_TRUE(contains(set, "--set workload.phases[1].streams[0].qd=8: "
                            "workload.phases[1].streams[0].qd: unknown key"))
      << set;
}

TEST(WorkloadScenarioErrors, BadValuesNameTheIndexedKeyAndTheAllowedValues) {
  const auto error_for = [](const std::string& stream_yaml) {
    return load_error("workload:\n  phases:\n    - requests: 1\n      streams:\n        - " +
                      stream_yaml + "\n");
  };
  const std::string pattern = error_for("{pattern: zipff}");
  EXPECT_TRUE(contains(pattern, "w.yaml:5:21: workload.phases[0].streams[0].pattern: 'zipff' is "
                                "not a known name; allowed sequential, random, zipf, hotcold, "
                                "oltp"))
      << pattern;
  const std::string fraction = error_for("{read_fraction: 1.5}");
  EXPECT_TRUE(contains(fraction, "workload.phases[0].streams[0].read_fraction: '1.5' is out of "
                                 "range; allowed [0, 1]"))
      << fraction;
  EXPECT_TRUE(contains(error_for("{read_fraction: half}"), "'half' is not a number"));
  EXPECT_TRUE(contains(error_for("{hot_space_fraction: 1}"), "allowed (0, 1)"));
  EXPECT_TRUE(contains(error_for("{queue_depth: 0}"), "queue_depth: '0' is out of range; "
                                                      "allowed 1..65536"));
  const std::string weight = error_for("{sizes: {4KiB: 0}}");
  EXPECT_TRUE(contains(weight, "w.yaml:5:26: workload.phases[0].streams[0].sizes: the weight '0' "
                               "of 4KiB is not a positive number"))
      << weight;
  const std::string twice = error_for("{sizes: {4KiB: 1, 4096: 1}}");
  EXPECT_TRUE(contains(twice, "w.yaml:5:29: workload.phases[0].streams[0].sizes: size 4KiB is "
                              "given twice"))
      << twice;
  EXPECT_TRUE(contains(error_for("{sizes: {4KB2: 1}}"), "'4KB2' has an unknown unit"));
  EXPECT_TRUE(contains(error_for("{sizes: {}}"), "no request size given"));
  EXPECT_TRUE(contains(error_for("{sizes: [4KiB]}"), "expected a size weights, got a list"));
  EXPECT_TRUE(contains(error_for("{size: 2GiB}"), "size: '2GiB' is out of range"));
  const std::string both = error_for("{size: 4KiB, sizes: {8KiB: 1}}");
  EXPECT_TRUE(contains(both, "workload.phases[0].streams[0].size: give size or sizes, not both"))
      << both;
  EXPECT_TRUE(contains(error_for("{trace: /dev/null, devices: [8:0, 8:0]}"),
                       "devices: device '8:0' is listed twice"));
  EXPECT_TRUE(contains(error_for("{trace: /dev/null, devices: [x]}"),
                       "'x' is not a device number or major:minor"));
  EXPECT_TRUE(contains(error_for("{trace: /dev/null, devices: [4096:0]}"),
                       "'4096:0' is out of range"));
  EXPECT_TRUE(contains(error_for("{trace: /dev/null, format: ascii}"),
                       "format: 'ascii' is not a known name; allowed disksim, msr, spc, "
                       "blkparse, fiu"));
}

TEST(WorkloadScenarioErrors, ListsAndRecordsMustHaveTheirShape) {
  const std::string scalar = load_error("workload:\n  phases: 3\n");
  EXPECT_TRUE(contains(scalar, "w.yaml:2:11: workload.phases: expected a list of records with "
                               "keys name, requests, bytes, duration, capacity_multiple, "
                               "fio, streams; got '3'"))
      << scalar;
  const std::string element = load_error("workload:\n  phases:\n    - 3\n");
  EXPECT_TRUE(contains(element, "w.yaml:3:7: workload.phases[0]: expected a record with keys "
                                "name, requests"))
      << element;
  const std::string index = load_error(kTwoPhases, {"workload.phases[x].name=a"});
  EXPECT_TRUE(contains(index, "'phases[x]' is not name[index] with a non-negative index"))
      << index;
  const std::string range = load_error(kTwoPhases, {"workload.phases[1].streams[2].alpha=1"});
  EXPECT_TRUE(contains(range, "workload.phases[1].streams[2].alpha: index 2 is out of range: "
                              "workload.phases[1].streams has 2 records"))
      << range;
  EXPECT_TRUE(contains(load_error(kTwoPhases, {"workload.phases.name=a"}),
                       "workload.phases is a list of records: name one, e.g. "
                       "workload.phases[0].name"));
  EXPECT_TRUE(contains(load_error(kTwoPhases, {"workload.phases[0]=a"}),
                       "names a record, not a value; its keys: name, requests"));
  EXPECT_TRUE(contains(load_error(kTwoPhases, {"cpu[0].harts=2"}),
                       "cpu is a section, not a list"));
}

TEST(WorkloadScenarioErrors, PhasesAndStreamsMustBeConsistent) {
  const std::string no_limit =
      load_error("workload:\n  phases:\n    - streams: [{pattern: random}]\n");
  EXPECT_TRUE(contains(no_limit, "scenarios/w.yaml: workload.phases[0]: synthetic streams never "
                                 "end: a phase with one needs a limit (requests, bytes, "
                                 "capacity_multiple or duration)"))
      << no_limit;
  EXPECT_EQ(load_error("workload:\n  phases:\n    - streams: [{trace: /dev/null}]\n"), "");
  // A phase without streams is an idle phase: a duration and nothing else.
  const std::string idle_needs =
      "workload.phases[0].streams: a phase without streams is an idle phase: it needs a duration "
      "and no requests, bytes or capacity_multiple";
  EXPECT_TRUE(contains(load_error("workload:\n  phases:\n    - {requests: 1}\n"), idle_needs));
  EXPECT_TRUE(contains(load_error("workload:\n  phases:\n    - {duration: 10ms, bytes: 1MiB}\n"),
                       idle_needs));
  EXPECT_EQ(load_error("workload:\n  phases:\n    - {duration: 10ms}\n"), "");
  EXPECT_TRUE(contains(
      load_error("workload:\n  phases:\n    - {requests: 1, streams: [{}]}\n"
                 "    - {requests: 1, streams: [{}]}\n"),
      "workload.phases[1].name: an earlier phase is named 'measure' too; phase names are unique"));
  EXPECT_TRUE(contains(
      load_error("workload:\n  phases:\n    - {requests: 1, streams: [{}, {name: stream0}]}\n"),
      "workload.phases[0].streams[1].name: another stream of the phase is named 'stream0' too"));
  EXPECT_TRUE(contains(
      load_error("workload:\n  phases:\n    - {requests: 1, streams: [{fold: true}]}\n"),
      "workload.phases[0].streams[0].fold: applies to trace replay, and this stream has no "
      "trace"));
  EXPECT_TRUE(contains(
      load_error("workload:\n  phases:\n    - {streams: [{trace: /dev/null, pattern: zipf}]}\n"),
      "workload.phases[0].streams[0].pattern: applies to synthetic streams, and this one "
      "replays '/dev/null'"));
  // Checked per sweep point, naming it.
  const std::string point = load_error(
      "workload:\n  phases:\n    - {requests: 1, streams: [{}]}\n"
      "sweep:\n  workload.phases[0].requests: [1, 0]\n");
  EXPECT_TRUE(contains(point, "scenarios/w.yaml (workload.phases[0].requests=0): "
                              "workload.phases[0]: synthetic streams never end"))
      << point;
}

TEST(WorkloadScenario, ListParamsShowsTheRecordKeysWithTheirDefaults) {
  std::ostringstream out;
  print_parameters(out);
  const std::string text = out.str();
  for (const Parameter& p : record_parameters()) EXPECT_TRUE(contains(text, p.key)) << p.key;
  for (const RecordList& list : record_lists()) EXPECT_TRUE(contains(text, list.key)) << list.key;
  EXPECT_TRUE(contains(text, "records with the keys below")) << text;
  EXPECT_TRUE(contains(text, "workload.phases[].streams[].pattern")) << text;
  EXPECT_TRUE(contains(text, "sequential, random, zipf, hotcold, oltp")) << text;
  EXPECT_TRUE(contains(text, "{4KiB: 1}")) << text;
}

TEST(WorkloadScenario, EveryRecordDefaultSurvivesFormatAndParse) {
  Scenario defaults;
  defaults.soc.workload.phases.resize(1);
  defaults.soc.workload.phases[0].streams.resize(1);
  for (const Parameter& p : record_parameters()) {
    const RecordIndices indices(static_cast<size_t>(std::count(p.key.begin(), p.key.end(), '[')),
                                0);
    const ParamValue value = p.read(defaults, indices);
    if (p.kind == ParamKind::kDeviceList) {
      EXPECT_EQ(p.format(value), "[]") << p.key;
    } else if (p.kind == ParamKind::kSizeWeights) {
      // read_sizes: none given (the reads take sizes).
      EXPECT_EQ(p.format(value), p.zero_allowed ? "{}" : "{4KiB: 1}") << p.key;
    } else if (p.kind == ParamKind::kCountWeights) {
      EXPECT_EQ(p.format(value), "{1: 1}") << p.key;
      EXPECT_EQ(p.parse("1", "t"), value) << p.key;
    } else {
      EXPECT_EQ(p.parse(p.format(value), "t"), value) << p.key;
    }
  }
}

// ---- The profile key: a Table II trace profile (tlm/host/synthetic_profile.h) -------------------

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

std::string one_stream(const std::string& stream_yaml) {
  return "workload:\n  phases:\n    - requests: 10\n      streams:\n        - " + stream_yaml +
         "\n";
}

const host::StreamConfig& stream0(const Scenario& scenario) {
  return scenario.soc.workload.phases.at(0).streams.at(0);
}

TEST(ProfileScenario, AProfileSetsItsKeysAndTheResolvedConfigShowsThem) {
  const Scenario scenario = load_one(one_stream("{profile: hm0}"));
  const host::StreamConfig& stream = stream0(scenario);
  const host::TraceProfile& hm0 = *host::find_trace_profile("hm0");
  EXPECT_EQ(stream.pattern, "profile");
  EXPECT_EQ(stream.read_fraction, 0.355);
  EXPECT_EQ(stream.sizes, hm0.sizes);
  EXPECT_EQ(stream.read_hot_share, 0.313);
  EXPECT_EQ(stream.write_hot_share, host::StreamConfig{}.write_hot_share);
  // 650.0 MiB / 0.313 = 2076.7 MiB, times 0.125 = 259.6 MiB: 4153.4 chunks of 64 KiB.
  EXPECT_EQ(stream.working_set_bytes, 4153 * 64 * kKiB);
  EXPECT_EQ(stream.working_set_bytes, host::scaled_footprint_bytes(hm0, 0.125));
  const nlohmann::json& resolved = scenario.resolved["workload"]["phases"][0]["streams"][0];
  EXPECT_EQ(resolved["profile"], "hm0");
  EXPECT_EQ(resolved["pattern"], "profile");
  EXPECT_EQ(resolved["working_set"], "265792KiB");
  // The resolved configuration loads again to the same streams.
  const Scenario again = load_one("", {"workload.phases=" +
                                       scenario.resolved["workload"]["phases"].dump()});
  EXPECT_EQ(again.resolved["workload"], scenario.resolved["workload"]);
}

TEST(ProfileScenario, ExplicitKeysWinOverTheProfile) {
  const Scenario scenario = load_one(one_stream(
      "{profile: stg0, read_fraction: 0.5, size: 8KiB, read_hot_share: 0.1, "
      "working_set: 32MiB, pattern: zipf}"));
  const host::StreamConfig& stream = stream0(scenario);
  EXPECT_EQ(stream.pattern, "zipf");
  EXPECT_EQ(stream.read_fraction, 0.5);
  EXPECT_EQ(stream.sizes, (SizeWeights{{8 * kKiB, 1.0}}));
  EXPECT_EQ(stream.read_hot_share, 0.1);
  EXPECT_EQ(stream.working_set_bytes, 32 * kMiB);
  // footprint_scale scales the profile's footprint: stg0's 6317.8 MiB / 16.
  const Scenario scaled = load_one(one_stream("{profile: stg0, footprint_scale: 0.0625}"));
  EXPECT_EQ(stream0(scaled).working_set_bytes, 6318 * 64 * kKiB);
  // Given by --set (the read ratio) and a profile changed by --set.
  const Scenario set = load_one(one_stream("{profile: stg0}"),
                                {"workload.phases[0].streams[0].profile=ali735",
                                 "workload.phases[0].streams[0].read_fraction=0.25"});
  EXPECT_EQ(stream0(set).read_fraction, 0.25);
  EXPECT_EQ(stream0(set).read_hot_share, 0.051);
  // A list replaced by --set takes the keys its new records give, not the old ones'.
  const Scenario replaced = load_one(one_stream("{profile: ts0, read_fraction: 0.9}"),
                                     {"workload.phases[0].streams=[{profile: ts0}]"});
  EXPECT_EQ(stream0(replaced).read_fraction, 0.176);
}

TEST(ProfileScenario, SweepingTheProfileGivesEachPointItsFigures) {
  const std::vector<Scenario> points = load_scenarios(
      one_stream("{profile: none, write_hot_share: 0.3}") +
          "sweep:\n  workload.phases[0].streams[0].profile: [stg0, ali121]\n",
      kSource, {});
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(stream0(points[0]).read_fraction, 0.152);
  EXPECT_EQ(stream0(points[1]).read_fraction, 0.782);
  EXPECT_EQ(stream0(points[1]).read_hot_share, 0.045);
  EXPECT_EQ(stream0(points[1]).write_hot_share, 0.3);
  // A swept key is given: the profile leaves it.
  const std::vector<Scenario> swept = load_scenarios(
      one_stream("{profile: hm0}") + "sweep:\n  workload.phases[0].streams[0].read_fraction: "
                                     "[0.1, 0.9]\n",
      kSource, {});
  EXPECT_EQ(stream0(swept[0]).read_fraction, 0.1);
  EXPECT_EQ(stream0(swept[1]).read_fraction, 0.9);
}

TEST(ProfileScenario, BadProfileKeysNameTheKey) {
  const std::string unknown = load_error(one_stream("{profile: stg1}"));
  EXPECT_NE(unknown.find("workload.phases[0].streams[0].profile: 'stg1' is not a known name; "
                         "allowed none, stg0, ts0, src1_2, hm0, ali188, ali112, ali735, ali121"),
            std::string::npos)
      << unknown;
  const std::string scale = load_error(one_stream("{pattern: profile, footprint_scale: 0.5}"));
  EXPECT_NE(scale.find("scenarios/w.yaml: workload.phases[0].streams[0].footprint_scale: "
                       "applies with a profile, and this stream has none"),
            std::string::npos)
      << scale;
  const std::string zero = load_error(one_stream("{profile: hm0, footprint_scale: 0}"));
  EXPECT_NE(zero.find("footprint_scale: '0' is out of range; allowed (0, 1000]"),
            std::string::npos)
      << zero;
  const std::string share = load_error(one_stream("{profile: hm0, read_hot_share: 1}"));
  EXPECT_NE(share.find("read_hot_share: '1' is out of range; allowed (0, 1)"), std::string::npos)
      << share;
  const std::string trace = load_error(one_stream("{trace: /dev/null, profile: hm0}"));
  EXPECT_NE(trace.find("workload.phases[0].streams[0].profile: applies to synthetic streams"),
            std::string::npos)
      << trace;
}

// ---- write_runs and the LeaFTL profiles ---------------------------------------------------------

TEST(WriteRunsScenario, AMapOrOneCountAndTheResolvedConfigLoadsAgain) {
  const Scenario scenario =
      load_one(one_stream("{pattern: random, write_runs: {1: 0.5, 16: 0.3, 64: 0.2}}"));
  EXPECT_EQ(stream0(scenario).write_runs, (SizeWeights{{1, 0.5}, {16, 0.3}, {64, 0.2}}));
  const nlohmann::json& resolved = scenario.resolved["workload"]["phases"][0]["streams"][0];
  EXPECT_EQ(resolved["write_runs"], nlohmann::json::parse(R"({"1": 0.5, "16": 0.3, "64": 0.2})"));
  const Scenario again = load_one("", {"workload.phases=" +
                                       scenario.resolved["workload"]["phases"].dump()});
  EXPECT_EQ(again.resolved["workload"], scenario.resolved["workload"]);
  // One count is a run length of weight 1; --set takes a map.
  EXPECT_EQ(stream0(load_one(one_stream("{write_runs: 8}"))).write_runs, (SizeWeights{{8, 1.0}}));
  EXPECT_EQ(stream0(load_one(one_stream("{}"), {"workload.phases[0].streams[0].write_runs={2: 1, "
                                                "4: 3}"}))
                .write_runs,
            (SizeWeights{{2, 1.0}, {4, 3.0}}));
  // The default: every write placed by the pattern.
  EXPECT_EQ(stream0(load_one(one_stream("{}"))).write_runs, (SizeWeights{{1, 1.0}}));
}

TEST(WriteRunsScenario, BadRunsNameFileLineKeyAndTheAllowedValues) {
  const std::string zero = load_error(one_stream("{write_runs: {0: 1, 4: 1}}"));
  EXPECT_TRUE(contains(zero, "scenarios/w.yaml:5:25: workload.phases[0].streams[0].write_runs: "
                             "'0' is out of range; allowed 1..1048576"))
      << zero;
  const std::string negative = load_error(one_stream("{write_runs: {4: -0.5}}"));
  EXPECT_TRUE(contains(negative, "scenarios/w.yaml:5:28: workload.phases[0].streams[0]."
                                 "write_runs: the weight '-0.5' of 4 is not a positive number"))
      << negative;
  const std::string empty = load_error(one_stream("{write_runs: {}}"));
  EXPECT_TRUE(contains(empty, "workload.phases[0].streams[0].write_runs: no count given; allowed "
                              "COUNT or {COUNT: weight, ...}, 1..1048576"))
      << empty;
  const std::string twice = load_error(one_stream("{write_runs: {4: 1, 04: 1}}"));
  EXPECT_TRUE(contains(twice, "write_runs: count 4 is given twice")) << twice;
  const std::string size = load_error(one_stream("{write_runs: {4KiB: 1}}"));
  EXPECT_TRUE(contains(size, "write_runs: '4KiB' is not a non-negative integer; allowed "
                             "1..1048576"))
      << size;
  const std::string trace = load_error(one_stream("{trace: /dev/null, write_runs: {4: 1}}"));
  EXPECT_TRUE(contains(trace, "workload.phases[0].streams[0].write_runs: applies to synthetic "
                              "streams"))
      << trace;
}

TEST(ProfileScenario, ALeaftlProfileSetsItsSkewsAndRuns) {
  const Scenario scenario = load_one(one_stream("{profile: leaftl_prxy}"));
  const host::StreamConfig& stream = stream0(scenario);
  const host::TraceProfile& prxy = *host::find_trace_profile("leaftl_prxy");
  EXPECT_EQ(stream.pattern, "profile");
  EXPECT_EQ(stream.read_fraction, prxy.read_fraction);
  EXPECT_EQ(stream.read_hot_share, prxy.hot_read_share);
  EXPECT_EQ(stream.write_hot_share, prxy.write_hot_share);
  EXPECT_EQ(stream.write_runs, prxy.write_runs);
  EXPECT_EQ(stream.sizes, prxy.sizes);
  // 512 MiB at the default scale 1/8.
  EXPECT_EQ(stream.working_set_bytes, 64 * kMiB);
  // Keys given win, runs and write skew among them.
  const Scenario given = load_one(
      one_stream("{profile: leaftl_prxy, write_runs: {2: 1}, write_hot_share: 0.3}"));
  EXPECT_EQ(stream0(given).write_runs, (SizeWeights{{2, 1.0}}));
  EXPECT_EQ(stream0(given).write_hot_share, 0.3);
  // A Table II profile leaves writes one at a time, 80/20.
  const Scenario hm0 = load_one(one_stream("{profile: hm0}"));
  EXPECT_EQ(stream0(hm0).write_runs, host::StreamConfig{}.write_runs);
  EXPECT_EQ(stream0(hm0).write_hot_share, host::StreamConfig{}.write_hot_share);
}

}  // namespace
}  // namespace ssdvp
