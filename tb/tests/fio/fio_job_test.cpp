// fio job files as workload phases (tb/scenario/fio_job.h): each supported option as the host
// model's stream keys, sizes as fio reads them, bssplit weights, [global] and several jobs, the
// phase limits the jobs share, errors naming file:line and the option; and the `fio` key of a
// phase in a scenario (paths relative to the scenario file, keys beside it winning, --set of
// the streams it gives, the resolved configuration loading again, no sweep of it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tb/scenario/fio_job.h"
#include "tb/scenario/scenario.h"

namespace ssdvp {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;
constexpr uint64_t kSecondPs = 1'000'000'000'000;
const char* const kSource = "jobs/test.fio";

host::PhaseConfig translate(const std::string& text) {
  host::PhaseConfig phase;
  apply_fio_jobs(text, kSource, phase);
  return phase;
}

host::StreamConfig one_stream(const std::string& text) {
  const host::PhaseConfig phase = translate(text);
  if (phase.streams.size() != 1) throw std::runtime_error("expected one stream");
  return phase.streams.front();
}

std::string error_of(const std::string& text) {
  try {
    translate(text);
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Each job file's error contains its expected text.
void expect_errors(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [text, expected] : cases) {
    const std::string error = error_of(text);
    EXPECT_TRUE(contains(error, expected)) << text << "\ngave: " << error;
  }
}

using Sizes = std::vector<std::pair<uint64_t, double>>;

TEST(FioJobs, RwModesGivePatternAndReadShare) {
  struct Case {
    const char* rw;
    const char* pattern;
    double read_fraction;
  };
  for (const Case& c : {Case{"read", "sequential", 1.0}, Case{"write", "sequential", 0.0},
                        Case{"randread", "random", 1.0}, Case{"randwrite", "random", 0.0},
                        Case{"rw", "sequential", 0.5}, Case{"readwrite", "sequential", 0.5},
                        Case{"randrw", "random", 0.5}}) {
    const host::StreamConfig stream =
        one_stream(std::string("[job]\nrw=") + c.rw + "\nsize=1m\n");
    EXPECT_EQ(stream.pattern, c.pattern) << c.rw;
    EXPECT_DOUBLE_EQ(stream.read_fraction, c.read_fraction) << c.rw;
  }
  // rwmixread sets the mix of mixed jobs; fio ignores it for the others.
  EXPECT_DOUBLE_EQ(one_stream("[job]\nrw=randrw\nrwmixread=70\nsize=1m\n").read_fraction, 0.7);
  EXPECT_DOUBLE_EQ(one_stream("[job]\nrw=read\nrwmixread=70\nsize=1m\n").read_fraction, 1.0);
  // fio's defaults: rw=read, bs=4k, iodepth=1.
  const host::StreamConfig defaults = one_stream("[job]\nsize=1m\n");
  EXPECT_EQ(defaults.pattern, "sequential");
  EXPECT_DOUBLE_EQ(defaults.read_fraction, 1.0);
  EXPECT_EQ(defaults.sizes, (Sizes{{4096, 100.0}}));
  EXPECT_EQ(defaults.queue_depth, 1u);
  EXPECT_EQ(defaults.name, "job");
}

TEST(FioJobs, SizesAreReadAsFioReadsThem) {
  struct Case {
    const char* text;
    uint64_t bytes;
  };
  for (const Case& c : {Case{"4096", 4096}, Case{"4k", 4 * kKiB}, Case{"4K", 4 * kKiB},
                        Case{"4kb", 4 * kKiB}, Case{"4KB", 4 * kKiB}, Case{"1m", kMiB},
                        Case{"2M", 2 * kMiB}, Case{"1g", kGiB}, Case{"3G", 3 * kGiB},
                        Case{"1t", 1024 * kGiB}}) {
    const host::PhaseConfig phase = translate(std::string("[job]\nsize=") + c.text + "\n");
    EXPECT_EQ(phase.streams[0].working_set_bytes, c.bytes) << c.text;
    EXPECT_EQ(phase.max_bytes, c.bytes) << c.text;
  }
  EXPECT_EQ(one_stream("[job]\nbs=64k\nsize=1m\n").sizes, (Sizes{{64 * kKiB, 100.0}}));
  EXPECT_EQ(one_stream("[job]\nbs=512\nsize=1m\n").align_bytes, 512u);
  EXPECT_EQ(one_stream("[job]\noffset=1m\nsize=1m\n").offset_bytes, kMiB);
  // fio's default kb_base reads IEC prefixes as powers of 1000: refused rather than surprising.
  const std::string iec = error_of("[job]\nbs=4KiB\nsize=1m\n");
  EXPECT_TRUE(contains(iec, "jobs/test.fio:2: bs: '4KiB' is a power of 1000")) << iec;
  EXPECT_TRUE(contains(iec, "write 4k")) << iec;
  EXPECT_TRUE(contains(error_of("[job]\nsize=50%\n"), "size: '50%' is a share of the device"));
  const std::string bad = error_of("[job]\nbs=4q\nsize=1m\n");
  EXPECT_TRUE(contains(bad, "jobs/test.fio:2: bs: '4q' is not a size; allowed")) << bad;
  EXPECT_TRUE(contains(bad, "4k = 4096")) << bad;
}

TEST(FioJobs, BlockSizesPerDirection) {
  // bs=READ,WRITE: a mixed job reads and writes its own sizes, aligned to the smallest.
  const host::StreamConfig mixed = one_stream("[job]\nrw=randrw\nbs=4k,64k\nsize=1m\n");
  EXPECT_EQ(mixed.read_sizes, (Sizes{{4 * kKiB, 100.0}}));
  EXPECT_EQ(mixed.sizes, (Sizes{{64 * kKiB, 100.0}}));
  EXPECT_EQ(mixed.align_bytes, 4 * kKiB);
  // A read-only job takes the read size; an empty one is fio's 4k.
  EXPECT_EQ(one_stream("[job]\nrw=randread\nbs=8k,64k\nsize=1m\n").sizes,
            (Sizes{{8 * kKiB, 100.0}}));
  EXPECT_EQ(one_stream("[job]\nrw=write\nbs=8k,\nsize=1m\n").sizes, (Sizes{{4 * kKiB, 100.0}}));
  EXPECT_TRUE(contains(error_of("[job]\nbs=4k,4k,4k\nsize=1m\n"), "READ,WRITE"));
  EXPECT_TRUE(contains(error_of("[job]\nbs=256\nsize=1m\n"),
                       "bs: '256' is 256 bytes, outside the request sizes 512..1073741824"));
}

TEST(FioJobs, BssplitWeights) {
  const host::StreamConfig split =
      one_stream("[job]\nrw=randwrite\nbssplit=4k/10:64k/50:32k/40\nsize=1m\n");
  EXPECT_EQ(split.sizes, (Sizes{{4 * kKiB, 10.0}, {64 * kKiB, 50.0}, {32 * kKiB, 40.0}}));
  EXPECT_EQ(split.align_bytes, 4 * kKiB);
  // Sizes without a percentage share what the others leave, equally.
  EXPECT_EQ(one_stream("[job]\nrw=write\nbssplit=4k/50:8k:16k\nsize=1m\n").sizes,
            (Sizes{{4 * kKiB, 50.0}, {8 * kKiB, 25.0}, {16 * kKiB, 25.0}}));
  // READS,WRITES; bssplit wins over bs as in fio.
  const host::StreamConfig mixed =
      one_stream("[job]\nrw=randrw\nbs=128k\nbssplit=4k/60:8k/40,16k/100\nsize=1m\n");
  EXPECT_EQ(mixed.read_sizes, (Sizes{{4 * kKiB, 60.0}, {8 * kKiB, 40.0}}));
  EXPECT_EQ(mixed.sizes, (Sizes{{16 * kKiB, 100.0}}));
  const std::string short_sum = error_of("[job]\nbssplit=4k/60:8k/30\nsize=1m\n");
  EXPECT_TRUE(contains(short_sum, "jobs/test.fio:2: bssplit: '4k/60:8k/30' has percentages "
                                  "adding to 90; allowed"))
      << short_sum;
  EXPECT_TRUE(contains(error_of("[job]\nbssplit=4k/60:8k/40:16k\nsize=1m\n"),
                       "leaving nothing for the sizes without one"));
  EXPECT_TRUE(contains(error_of("[job]\nbssplit=4k/50:4k/50\nsize=1m\n"), "lists 4096 bytes twice"));
  EXPECT_TRUE(contains(error_of("[job]\nbssplit=4k/x\nsize=1m\n"), "has 'x', not a number"));
}

TEST(FioJobs, DepthClonesAndLimits) {
  const host::PhaseConfig phase =
      translate("[job]\nrw=randread\niodepth=32\nnumjobs=3\nsize=2m\nnumber_ios=100\n"
                "runtime=2\n");
  ASSERT_EQ(phase.streams.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(phase.streams[i].name, "job." + std::to_string(i));
    EXPECT_EQ(phase.streams[i].queue_depth, 32u);
    EXPECT_EQ(phase.streams[i].working_set_bytes, 2 * kMiB);
  }
  // Each clone moves its size and issues its number_ios: the phase ends at the jobs' total.
  EXPECT_EQ(phase.max_bytes, 6 * kMiB);
  EXPECT_EQ(phase.max_requests, 300u);
  EXPECT_EQ(phase.max_time_ps, 2 * kSecondPs);
  EXPECT_EQ(phase.capacity_multiple, 0.0);

  struct Case {
    const char* runtime;
    uint64_t ps;
  };
  for (const Case& c : {Case{"500ms", kSecondPs / 2}, Case{"250us", kSecondPs / 4000},
                        Case{"3s", 3 * kSecondPs}, Case{"2m", 120 * kSecondPs},
                        Case{"1h", 3600 * kSecondPs}}) {
    EXPECT_EQ(translate(std::string("[job]\nruntime=") + c.runtime + "\n").max_time_ps, c.ps)
        << c.runtime;
  }
  // time_based: runtime alone ends the job; size is only its region.
  const host::PhaseConfig timed = translate("[job]\nsize=1m\nruntime=10ms\ntime_based\n");
  EXPECT_EQ(timed.max_bytes, 0u);
  EXPECT_EQ(timed.max_time_ps, kSecondPs / 100);
  EXPECT_EQ(timed.streams[0].working_set_bytes, kMiB);

  expect_errors({
      {"[job]\niodepth=0\nsize=1m\n",
       "jobs/test.fio:2: iodepth: '0' is out of range; allowed 1..65536"},
      {"[job]\nnumjobs=two\nsize=1m\n", "numjobs: 'two' is not a whole number; allowed 1..4096"},
      {"[job]\nruntime=5x\n", "runtime: '5x' is not a time"},
      {"[job]\nsize=1m\ntime_based\n", "job 'job' is time_based without a runtime"},
      {"[job]\nrw=randread\n", "jobs/test.fio:1: size: the jobs never end"},
      {"[job]\nbs=64k\nsize=16k\n",
       "size: '16k' cannot hold the job's largest block of 65536 bytes"},
  });
}

TEST(FioJobs, RandomDistributions) {
  const host::StreamConfig zipf =
      one_stream("[job]\nrw=randread\nrandom_distribution=zipf:1.2\nsize=1m\n");
  EXPECT_EQ(zipf.pattern, "zipf");
  EXPECT_DOUBLE_EQ(zipf.zipf_alpha, 1.2);
  EXPECT_DOUBLE_EQ(
      one_stream("[job]\nrw=randread\nrandom_distribution=zipf\nsize=1m\n").zipf_alpha, 1.1);
  // pareto:h draws the power law of zipf with alpha = 1 - ln(1 - h) / ln(h).
  const host::StreamConfig pareto =
      one_stream("[job]\nrw=randread\nrandom_distribution=pareto:0.2\nsize=1m\n");
  EXPECT_EQ(pareto.pattern, "zipf");
  EXPECT_NEAR(pareto.zipf_alpha, 1.0 - std::log(0.8) / std::log(0.2), 1e-12);
  EXPECT_NEAR(pareto.zipf_alpha, 0.8613, 1e-4);
  EXPECT_TRUE(contains(error_of("[job]\nrw=randread\nrandom_distribution=pareto:0.8\nsize=1m\n"),
                       "random_distribution: 'pareto:0.8' has H 0.8; allowed pareto:H with H in "
                       "(0, 0.5]"));
  // Two zones from the region start: the host model's hotcold.
  const host::StreamConfig zoned =
      one_stream("[job]\nrw=randwrite\nrandom_distribution=zoned:80/20:20/80\nsize=1m\n");
  EXPECT_EQ(zoned.pattern, "hotcold");
  EXPECT_DOUBLE_EQ(zoned.hot_access_fraction, 0.8);
  EXPECT_DOUBLE_EQ(zoned.hot_space_fraction, 0.2);
  EXPECT_TRUE(contains(
      error_of("[job]\nrw=randread\nrandom_distribution=zoned:60/10:30/20:10/70\nsize=1m\n"),
      "has 3 zones; allowed zoned:ACCESS/SIZE:ACCESS/SIZE"));
  EXPECT_TRUE(contains(error_of("[job]\nrw=randread\nrandom_distribution=normal\nsize=1m\n"),
                       "'normal' is not a supported distribution; allowed random, zipf[:THETA]"));
  // fio ignores the distribution of sequential jobs.
  EXPECT_EQ(one_stream("[job]\nrw=read\nrandom_distribution=zipf:1.2\nsize=1m\n").pattern,
            "sequential");
}

TEST(FioJobs, GlobalAndSeveralJobsShareThePhase) {
  const host::PhaseConfig phase = translate(
      "; two jobs at once, as fio runs them\n"
      "[global]\n"
      "ioengine=libaio\n"
      "direct=1\n"
      "bs=4k\n"
      "size=4m\n"
      "\n"
      "[reader]\n"
      "rw=randread\n"
      "iodepth=16\n"
      "\n"
      "[writer]\n"
      "rw=write\n"
      "bs=128k\n"
      "offset=4m\n"
      "iodepth=4\n"
      "numjobs=2\n");
  ASSERT_EQ(phase.streams.size(), 3u);
  EXPECT_EQ(phase.streams[0].name, "reader");
  EXPECT_EQ(phase.streams[0].sizes, (Sizes{{4 * kKiB, 100.0}}));
  EXPECT_EQ(phase.streams[0].queue_depth, 16u);
  EXPECT_EQ(phase.streams[1].name, "writer.0");
  EXPECT_EQ(phase.streams[2].name, "writer.1");
  EXPECT_EQ(phase.streams[2].sizes, (Sizes{{128 * kKiB, 100.0}}));
  EXPECT_EQ(phase.streams[2].offset_bytes, 4 * kMiB);
  EXPECT_EQ(phase.max_bytes, 12 * kMiB);
  // A [global] after a job applies to the jobs after it only.
  const host::PhaseConfig later =
      translate("[a]\nsize=1m\n[global]\niodepth=8\n[b]\nsize=1m\n");
  EXPECT_EQ(later.streams[0].queue_depth, 1u);
  EXPECT_EQ(later.streams[1].queue_depth, 8u);

  const std::string runtimes = error_of("[a]\nruntime=1\n[b]\nruntime=2\n");
  EXPECT_TRUE(contains(runtimes, "jobs/test.fio:3: runtime: job 'b' ends otherwise than job 'a' "
                                 "(line 1)"))
      << runtimes;
  EXPECT_TRUE(contains(error_of("[a]\nsize=1m\n[b]\nnumber_ios=5\n"), "jobs/test.fio:3: size:"));
  EXPECT_TRUE(contains(error_of("[a]\nsize=1m\n[a]\nsize=1m\n"),
                       "jobs/test.fio:3: section: job 'a' is defined twice (first on line 1)"));
  EXPECT_TRUE(contains(error_of("[global]\nsize=1m\n"), "has no job section"));
}

TEST(FioJobs, UnknownOptionsAndBadValuesNameFileLineAndTheAllowed) {
  const std::string unknown = error_of("[job]\nsize=1m\nfilename=/dev/nvme0n1\n");
  EXPECT_TRUE(contains(unknown, "jobs/test.fio:3: filename: not a supported fio option; "
                                "supported: rw, readwrite, bs, bssplit, iodepth, numjobs, size, "
                                "offset, number_ios, runtime, time_based, rwmixread, "
                                "random_distribution, ioengine, direct, fsync, fdatasync"))
      << unknown;
  expect_errors({
      {"[job]\nrw=trim\nsize=1m\n",
       "jobs/test.fio:2: rw: 'trim' is not a supported rw mode; allowed read, write, randread, "
       "randwrite, rw, readwrite, randrw"},
      {"[job]\nrwmixread=101\nrw=rw\nsize=1m\n",
       "jobs/test.fio:2: rwmixread: '101' is out of range; allowed 0..100"},
      {"[job]\nioengine=psync\nsize=1m\n", "ioengine: 'psync' has no equivalent here"},
      {"[job]\ndirect=0\nsize=1m\n", "direct: '0' has no equivalent here"},
      {"size=1m\n[job]\n", "jobs/test.fio:1: size: comes before any section"},
      {"[job\nsize=1m\n", "jobs/test.fio:1: section: '[job' is not"},
      {"[job]\nsize\n", "jobs/test.fio:2: size: has no value"},
      {"[job]\nrw=randread\nbs=8k\noffset=4k\nsize=1m\n",
       "offset: '4k' is not a multiple of the job's smallest block, 8192 bytes"},
  });
}

TEST(FioJobs, FsyncAndFdatasyncFlushEveryNWrites) {
  EXPECT_EQ(translate("[job]\nrw=randwrite\nsize=1m\n").streams.at(0).fsync_writes, 0u);
  EXPECT_EQ(translate("[job]\nrw=randwrite\nfsync=8\nsize=1m\n").streams.at(0).fsync_writes,
            8u);
  EXPECT_EQ(
      translate("[job]\nrw=randwrite\nfdatasync=3\nsize=1m\n").streams.at(0).fsync_writes, 3u);
  expect_errors({
      {"[job]\nfsync=4\nfdatasync=4\nsize=1m\n",
       "jobs/test.fio:3: fdatasync: '4' repeats the flush interval fsync already gives; allowed "
       "one of fsync, fdatasync"},
      {"[job]\nfsync=x\nsize=1m\n", "jobs/test.fio:2: fsync: 'x'"},
  });
}

// A scenario directory with job files in fio/, removed after the test.
class FioScenario : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ssdvp_fio_job_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_ / "fio");
    std::ofstream(dir_ / "fio" / "qd.fio") << "[global]\nbs=4k\nsize=1m\n\n[rand]\n"
                                              "rw=randread\niodepth=32\nnumber_ios=500\n";
    std::ofstream(dir_ / "fio" / "bad.fio") << "[job]\nsize=1m\niodepth=-1\n";
    source_ = (dir_ / "s.yaml").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Scenario load(const std::string& yaml, const std::vector<std::string>& overrides = {}) const {
    const std::vector<Scenario> scenarios = load_scenarios(yaml, source_, overrides);
    if (scenarios.size() != 1) throw std::runtime_error("expected one scenario");
    return scenarios.front();
  }
  std::string load_error(const std::string& yaml,
                         const std::vector<std::string>& overrides = {}) const {
    try {
      load_scenarios(yaml, source_, overrides);
    } catch (const ScenarioError& error) {
      return error.what();
    }
    return "";
  }

  std::filesystem::path dir_;
  std::string source_;
};

TEST_F(FioScenario, APhaseTakesItsStreamsAndLimitsFromTheJobFile) {
  const Scenario scenario =
      load("workload:\n  phases:\n    - {name: measure, duration: 5ms, fio: fio/qd.fio}\n");
  const host::PhaseConfig& phase = scenario.soc.workload.phases.at(0);
  EXPECT_EQ(phase.fio_job, (dir_ / "fio" / "qd.fio").string());
  ASSERT_EQ(phase.streams.size(), 1u);
  EXPECT_EQ(phase.streams[0].name, "rand");
  EXPECT_EQ(phase.streams[0].queue_depth, 32u);
  EXPECT_EQ(phase.max_requests, 500u);
  EXPECT_EQ(phase.max_bytes, kMiB);
  // The key given beside the job file wins, whatever its place in the record.
  EXPECT_EQ(phase.max_time_ps, 5 * kSecondPs / 1000);

  // --set reaches the streams the job file gave.
  const Scenario deeper = load("workload:\n  phases:\n    - {name: m, fio: fio/qd.fio}\n",
                               {"workload.phases[0].streams[0].queue_depth=4"});
  EXPECT_EQ(deeper.soc.workload.phases[0].streams[0].queue_depth, 4u);

  // The resolved configuration (job file and the streams it gave) loads again to the same.
  const Scenario again = load("name: x\n", {"workload.phases=" +
                                            scenario.resolved["workload"]["phases"].dump()});
  EXPECT_EQ(again.resolved["workload"], scenario.resolved["workload"]);
}

TEST_F(FioScenario, ErrorsNameTheScenarioKeyAndTheJobFileLine) {
  const std::string bad = load_error("workload:\n  phases:\n    - {name: m, fio: fio/bad.fio}\n");
  EXPECT_TRUE(contains(bad, "s.yaml:3:17: workload.phases[0].fio: "))
      << bad;
  EXPECT_TRUE(contains(bad, "fio/bad.fio:3: iodepth: '-1' is not a whole number; allowed "
                            "1..65536"))
      << bad;
  const std::string missing =
      load_error("workload:\n  phases:\n    - {name: m, fio: fio/none.fio}\n");
  EXPECT_TRUE(contains(missing, "workload.phases[0].fio: 'fio/none.fio' is not a file")) << missing;
  const std::string swept = load_error(
      "workload:\n  phases:\n    - {name: m, fio: fio/qd.fio}\n"
      "sweep:\n  workload.phases[0].fio: [fio/qd.fio, fio/bad.fio]\n");
  EXPECT_TRUE(contains(swept, "sweep.workload.phases[0].fio: a job file cannot be swept")) << swept;
}

}  // namespace
}  // namespace ssdvp
