// A fio phase end to end: ssdsim runs scenarios/fio_randread.yaml, whose phases are fio job
// files (scenarios/fio/), with a smaller random-read job, and reports the phase's requests.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tb/tests/support/ssdsim_runner.h"

namespace {

using namespace ssdvp::test;

TEST(FioScenario, ATinyFioPhaseRunsEndToEnd) {
  const std::string out = temp_dir("fio");
  // The example scenario with its random-read phase replaced by a tiny job file of two jobs.
  std::ofstream(out + "/tiny.fio") << "[global]\nsize=1m\nioengine=libaio\ndirect=1\n\n"
                                      "[reads]\nrw=randread\nbs=8k\niodepth=8\nnumber_ios=150\n\n"
                                      "[writes]\nrw=randwrite\nbs=8k\niodepth=2\nnumber_ios=50\n";
  const SsdsimRun run = run_ssdsim(std::string(SSDVP_SOURCE_DIR) +
                                   "/scenarios/fio_randread.yaml --set workload.phases[1].fio=" +
                                   out + "/tiny.fio --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& phases = stats["host"]["phases"];
  ASSERT_EQ(phases.size(), 2u) << phases.dump(2);
  EXPECT_EQ(phases[0]["name"], "precondition");
  EXPECT_EQ(phases[1]["name"], "randread");
  // The phase ends at the jobs' number_ios together.
  EXPECT_EQ(phases[1]["commands"], 200u) << phases[1].dump(2);
  const nlohmann::json& phase = stats["config"]["workload"]["phases"][1];
  EXPECT_EQ(phase["fio"], out + "/tiny.fio");
  ASSERT_EQ(phase["streams"].size(), 2u);
  EXPECT_EQ(phase["streams"][0]["queue_depth"], 8u);
  EXPECT_EQ(phase["streams"][1]["read_fraction"], 0.0);
}

}  // namespace
