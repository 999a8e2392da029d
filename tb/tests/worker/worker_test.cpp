// The job mailbox (firmware/lib/worker.h) end to end: the worker test firmware serves a RAM disk
// on hart 0 and hands an RQRMI training job to hart 1. With two harts host commands complete
// while the job runs, the model is the one the host trains from the same ranges, and two runs
// are identical; with one hart the job runs inline, holds up the host, and gives the same model.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tb/report/stats_report.h"

#include "tb/tests/support/ssdsim_runner.h"

extern "C" {
#include "firmware/tests/rqrmi/range_gen.h"
}
#include "firmware/tests/worker/training_job.h"

namespace {

using namespace ssdvp::test;

const std::string kScenario = std::string(SSDVP_SOURCE_DIR) + "/tb/tests/worker/worker.yaml";

// What the firmware prints when the job is delivered.
struct JobReport {
  uint32_t hart = 0;
  uint32_t ranges = 0;
  uint32_t model_bytes = 0;
  uint32_t max_error = 0;
  uint32_t checksum = 0;
  uint64_t started_ns = 0;
  uint64_t finished_ns = 0;
  uint64_t delivered_ns = 0;
  uint32_t events_meanwhile = 0;
  std::string line;
};

// The report line of `output`; fails the calling test when there is none.
JobReport parse_report(const std::string& output) {
  static const std::regex pattern(
      "worker: job done on hart ([0-9]+): ([0-9]+) ranges, ([0-9]+)-byte model, max error "
      "([0-9]+), checksum 0x([0-9a-f]{8}), ran from ([0-9]+) ns to ([0-9]+) ns, delivered at "
      "([0-9]+) ns, ([0-9]+) host events served meanwhile");
  std::smatch match;
  JobReport report;
  if (!std::regex_search(output, match, pattern)) {
    ADD_FAILURE() << "no job report in the output:\n" << output;
    return report;
  }
  report.hart = std::stoul(match[1].str());
  report.ranges = std::stoul(match[2].str());
  report.model_bytes = std::stoul(match[3].str());
  report.max_error = std::stoul(match[4].str());
  report.checksum = std::stoul(match[5].str(), nullptr, 16);
  report.started_ns = std::stoull(match[6].str());
  report.finished_ns = std::stoull(match[7].str());
  report.delivered_ns = std::stoull(match[8].str());
  report.events_meanwhile = std::stoul(match[9].str());
  report.line = match[0].str();
  return report;
}

// The same job trained on the host (training is bit-identical there, see ml/rqrmi_train.h).
training_job_t train_on_host(std::vector<rqrmi_range_t>& ranges, std::vector<uint64_t>& model,
                             std::vector<uint64_t>& workspace) {
  training_job_t job{};
  ranges.resize(TRAINING_JOB_RANGES);
  job.range_count = range_gen_clustered(ranges.data(), TRAINING_JOB_RANGES, TRAINING_JOB_SEED,
                                        TRAINING_JOB_CLUSTER_MAX, TRAINING_JOB_CLUSTER_GAP);
  job.ranges = ranges.data();
  job.config = training_job_config();
  job.model_capacity = rqrmi_train_model_capacity(&job.config);
  job.workspace_bytes = rqrmi_train_workspace_bytes(&job.config);
  model.resize((job.model_capacity + 7) / 8);
  workspace.resize((job.workspace_bytes + 7) / 8);
  job.model = reinterpret_cast<rqrmi_model_t*>(model.data());
  job.workspace = workspace.data();
  training_job_run(&job);
  return job;
}

// The firmware's model is the host's: same ranges, size, bound and image checksum.
void expect_host_model(const JobReport& report) {
  std::vector<rqrmi_range_t> ranges;
  std::vector<uint64_t> model;
  std::vector<uint64_t> workspace;
  const training_job_t host = train_on_host(ranges, model, workspace);
  ASSERT_EQ(host.status, RQRMI_OK) << rqrmi_status_text(host.status);
  EXPECT_EQ(report.ranges, host.range_count) << report.line;
  EXPECT_EQ(report.model_bytes, host.report.model_bytes) << report.line;
  EXPECT_EQ(report.max_error, host.report.max_error) << report.line;
  EXPECT_EQ(report.checksum, host.checksum) << report.line;
}

// Host commands completed in the statistics intervals (of every phase) that lie within
// [from_ns, to_ns].
uint64_t commands_completed(const nlohmann::json& stats, uint64_t from_ns, uint64_t to_ns) {
  uint64_t completed = 0;
  for (const nlohmann::json& phase : stats["host"]["phases"]) {
    const nlohmann::json& columns = phase["timeseries"]["columns"];
    const auto column = [&](const char* name) {
      for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == name) return i;
      }
      ADD_FAILURE() << "no column " << name << " in " << columns;
      return size_t{0};
    };
    const size_t start = column("start_ns");
    const size_t end = column("end_ns");
    const size_t commands = column("commands");
    for (const nlohmann::json& row : phase["timeseries"]["rows"]) {
      if (row[start].get<uint64_t>() >= from_ns && row[end].get<uint64_t>() <= to_ns) {
        completed += row[commands].get<uint64_t>();
      }
    }
  }
  return completed;
}

struct WorkerRun {
  SsdsimRun process;
  nlohmann::json stats;
  JobReport report;
};

WorkerRun run_worker(const std::string& name, const std::string& overrides = "") {
  const std::string out = temp_dir(name);
  WorkerRun run;
  run.process = run_ssdsim(kScenario + overrides + " --out " + out);
  EXPECT_EQ(run.process.exit_code, 0) << run.process.output;
  if (run.process.exit_code != 0) return run;
  run.stats = read_json(out + "/stats.json");
  EXPECT_EQ(run.stats["outcome"]["outcome"], "workload_done");
  run.report = parse_report(run.process.output);
  return run;
}

TEST(WorkerMailbox, HostCommandsCompleteWhileTheWorkerTrains) {
  const WorkerRun run = run_worker("two_harts");
  if (HasFailure()) return;
  const JobReport& job = run.report;
  EXPECT_EQ(job.hart, 1u) << job.line;
  // A computation of a few million cycles at 800 MHz: over a millisecond.
  EXPECT_GT(job.finished_ns - job.started_ns, 1'000'000u) << job.line;
  // Hart 0 served the host between the submit and the delivery, and the host saw commands
  // complete while the job ran, before it was done.
  EXPECT_GT(job.events_meanwhile, 0u) << job.line;
  EXPECT_GT(commands_completed(run.stats, job.started_ns, job.finished_ns), 0u) << job.line;
  // The host was idle when the job ended, and hart 0 heard of the end at once: the worker's
  // software interrupt ended its WFI. Each hart may run up to a quantum (1 us) ahead of the
  // other, so hart 0 may read a time a little before the worker's.
  EXPECT_GE(job.delivered_ns + 1'000, job.finished_ns) << job.line;
  EXPECT_LT(job.delivered_ns, job.finished_ns + 20'000) << job.line;
  expect_host_model(job);
}

TEST(WorkerMailbox, TwoRunsAreIdentical) {
  WorkerRun first = run_worker("determinism1");
  WorkerRun second = run_worker("determinism2");
  if (HasFailure()) return;
  EXPECT_EQ(first.report.line, second.report.line);
  for (nlohmann::json* stats : {&first.stats, &second.stats}) {
    ssdvp::drop_wall_clock_fields(*stats);
    stats->erase("config");  // holds the output directory
  }
  EXPECT_EQ(first.stats, second.stats);
}

TEST(WorkerMailbox, OneHartRunsTheJobInline) {
  const WorkerRun run = run_worker("one_hart", " --set cpu.harts=1");
  if (HasFailure()) return;
  const JobReport& job = run.report;
  EXPECT_EQ(job.hart, 0u) << job.line;
  EXPECT_GE(job.delivered_ns, job.finished_ns) << job.line;
  // The job held hart 0: no host event was served, no command completed while it ran.
  EXPECT_EQ(job.events_meanwhile, 0u) << job.line;
  EXPECT_EQ(commands_completed(run.stats, job.started_ns, job.finished_ns), 0u) << job.line;
  expect_host_model(job);
}

}  // namespace
