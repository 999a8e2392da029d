// Sequential write runs (StreamConfig::write_runs, tlm/host/synthetic_generator.h) and the LeaFTL
// trace profiles (tlm/host/synthetic_profile.h) measured on the generated stream: without runs
// every pattern draws exactly what it drew before runs existed; with them the run lengths, the
// read ratio and the size mix come out as declared, runs stay in the footprint, the write skew
// places the run starts; and bad runs are errors naming the stream, the key and what is allowed.
// The write_runs key in scenarios is tested with the other workload keys
// (workload_scenario_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "tlm/host/synthetic_generator.h"
#include "tlm/host/synthetic_profile.h"
#include "tlm/host/workload.h"
#include "tb/tests/workload/stream_checks.h"

namespace ssdvp::host {
namespace {

using namespace stream_checks;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kPage = 4 * kKiB;
constexpr uint64_t kSeed = 20240607;
// The host capacity the product FTL derives from 1 GiB of NAND at ftl.op 0.07.
constexpr uint64_t kOneGiBDeviceSectors = static_cast<uint64_t>(1024 * kMiB * 0.93) / kSector;

using Weights = std::vector<std::pair<uint64_t, double>>;

std::vector<HostRequest> draw(const StreamConfig& stream, size_t count, uint64_t seed = kSeed) {
  return draw_requests(stream, count, seed, kOneGiBDeviceSectors);
}

// The writes of the stream cut into runs, as a trace analysis finds them: a write that starts
// where the previous write ended continues its run (sizes here are whole 4 KiB pages, align 4
// KiB). A run start that happens to land on the previous end joins two runs; the tests keep
// that rare (a large footprint) or bound it.
struct WriteRun {
  uint64_t first_byte;  // where the run starts
  uint64_t writes;
  uint64_t bytes;
};

std::vector<WriteRun> write_runs_of(const std::vector<HostRequest>& requests) {
  std::vector<WriteRun> runs;
  uint64_t next = std::numeric_limits<uint64_t>::max();
  for (const HostRequest& request : requests) {
    if (request.op != HostOp::kWrite) continue;
    if (start_byte(request) == next) {
      ++runs.back().writes;
      runs.back().bytes += byte_count(request);
    } else {
      runs.push_back({start_byte(request), 1, byte_count(request)});
    }
    next = end_byte(request);
  }
  return runs;
}

double mean_of(const Weights& weights) {
  double sum = 0.0;
  double weighted = 0.0;
  for (const auto& [value, weight] : weights) {
    sum += weight;
    weighted += static_cast<double>(value) * weight;
  }
  return weighted / sum;
}

// Each declared run length's count among the runs is binomial in the number of runs (5 sigma,
// the bound of the other stream tests); the runs of other lengths (cut at the footprint's end, or
// two joined by chance) are at most `stray_share` of them.
void expect_run_lengths(const std::vector<WriteRun>& runs, const Weights& declared,
                        double stray_share, const std::string& what) {
  std::map<uint64_t, uint64_t> counts;
  for (const WriteRun& run : runs) ++counts[run.writes];
  double weight_sum = 0.0;
  for (const auto& entry : declared) weight_sum += entry.second;
  uint64_t declared_runs = 0;
  for (const auto& [writes, weight] : declared) {
    expect_binomial(counts[writes], runs.size(), weight / weight_sum,
                    what + ": runs of " + std::to_string(writes) + " writes");
    declared_runs += counts[writes];
  }
  const double stray =
      static_cast<double>(runs.size() - declared_runs) / static_cast<double>(runs.size());
  EXPECT_LE(stray, stray_share) << what << ": runs of undeclared lengths";
}

// Each size's count among all requests is binomial (reads and writes draw from one mix).
void expect_size_mix(const std::vector<HostRequest>& requests, const Weights& declared,
                     const std::string& what) {
  std::map<uint64_t, uint64_t> counts;
  for (const HostRequest& request : requests) ++counts[byte_count(request)];
  double weight_sum = 0.0;
  for (const auto& entry : declared) weight_sum += entry.second;
  uint64_t declared_requests = 0;
  for (const auto& [size, weight] : declared) {
    expect_binomial(counts[size], requests.size(), weight / weight_sum,
                    what + ": requests of " + std::to_string(size) + " bytes");
    declared_requests += counts[size];
  }
  EXPECT_EQ(declared_requests, requests.size()) << what << ": requests of undeclared sizes";
}

uint64_t reads_in(const std::vector<HostRequest>& requests) {
  return std::count_if(requests.begin(), requests.end(),
                       [](const HostRequest& r) { return r.op == HostOp::kRead; });
}

// ---- Without runs nothing changes ---------------------------------------------------------------

// FNV-1a over the op, start and length of each request.
uint64_t digest(const StreamConfig& stream, size_t count) {
  uint64_t hash = 1469598103934665603ull;
  const auto mix = [&](uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (value >> (8 * byte)) & 0xff;
      hash *= 1099511628211ull;
    }
  };
  for (const HostRequest& request : draw(stream, count)) {
    mix(static_cast<uint64_t>(request.op));
    mix(request.first_sector);
    mix(request.sector_count);
  }
  return hash;
}

// The digests of 20,000 requests of each pattern as the generator drew them before write runs
// were added (commit ae6327b): the default runs of one write draw nothing more.
TEST(WriteRuns, WithoutRunsEveryPatternDrawsWhatItDrewBefore) {
  const std::vector<std::pair<std::string, uint64_t>> before = {
      {"sequential", 0x217bb8dea97df4c2ull}, {"random", 0xa9aad5454c7e23a8ull},
      {"zipf", 0x485c77c8cda25294ull},       {"hotcold", 0xf3a800fbce436dabull},
      {"oltp", 0xbfabdec8ca3245feull},       {"profile", 0x3a89fbbd8b935671ull}};
  for (const auto& [pattern, expected] : before) {
    StreamConfig stream;
    if (pattern == "profile") {
      stream = profile_stream("hm0");
    } else {
      stream.pattern = pattern;
      stream.sizes = {{4 * kKiB, 0.6}, {16 * kKiB, 0.3}, {64 * kKiB, 0.1}};
      stream.read_fraction = 0.3;
      stream.working_set_bytes = 64 * kMiB;
    }
    stream.trim_fraction = 0.05;
    EXPECT_EQ(digest(stream, 20'000), expected) << pattern;
    // Any weight on runs of one write is the same.
    stream.write_runs = {{1, 3.5}};
    EXPECT_EQ(digest(stream, 20'000), expected) << pattern;
  }
}

// ---- Runs as declared ---------------------------------------------------------------------------

// A random stream over 512 MiB with reads and trims between the writes: the run lengths, the read
// ratio and the size mix are the declared ones, and a run's writes follow each other exactly.
// About 153,000 writes in about 28,000 runs: 5 sigma of the rarest length (0.2) is 0.012 of the
// runs. A run of 20 writes of up to 64 KiB meets the region end with probability 0.3 % or less.
TEST(WriteRuns, RunLengthsReadRatioAndSizeMixAreTheDeclaredOnes) {
  StreamConfig stream;
  stream.name = "s";
  stream.pattern = "random";
  stream.read_fraction = 0.3;
  stream.trim_fraction = 0.05;
  stream.sizes = {{4 * kKiB, 0.6}, {16 * kKiB, 0.3}, {64 * kKiB, 0.1}};
  stream.write_runs = {{1, 0.5}, {3, 0.3}, {20, 0.2}};
  stream.working_set_bytes = 512 * kMiB;
  const std::vector<HostRequest> requests = draw(stream, 230'000);
  const uint64_t trims = std::count_if(requests.begin(), requests.end(),
                                       [](const HostRequest& r) { return r.op == HostOp::kTrim; });
  expect_binomial(reads_in(requests), requests.size() - trims, 0.3,
                  "reads among reads and writes");
  expect_size_mix(requests, stream.sizes, "random");
  const std::vector<WriteRun> runs = write_runs_of(requests);
  expect_run_lengths(runs, stream.write_runs, 0.005, "random");
  // Mean writes per run: 0.5 + 0.9 + 4 = 5.4.
  double writes = 0.0;
  for (const WriteRun& run : runs) writes += static_cast<double>(run.writes);
  EXPECT_NEAR(writes / static_cast<double>(runs.size()), 5.4, 0.1);
}

// A run continues over the chunks of a profile stream but never past its last whole chunk; the
// region's tail stays unaddressed.
TEST(WriteRuns, RunsStayInsideTheProfileFootprint) {
  StreamConfig stream = profile_stream("leaftl_prxy");
  stream.read_fraction = 0.0;
  stream.write_runs = {{64, 1.0}};
  stream.working_set_bytes = 100 * 64 * kKiB + 12 * kKiB;  // 100 chunks and a tail
  const uint64_t used_end = 100 * 64 * kKiB;
  uint64_t cut = 0;
  const std::vector<HostRequest> requests = draw(stream, 50'000);
  for (const HostRequest& request : requests) ASSERT_LE(end_byte(request), used_end);
  for (const WriteRun& run : write_runs_of(requests)) cut += run.writes % 64 != 0;
  // Runs of 64 writes, about 141 pages, in 1600 pages: many meet the end and are cut there.
  EXPECT_GT(cut, 0u);
}

// Every LeaFTL profile at the default scale on a 1 GiB device: the read ratio, the size mix and
// the run lengths it declares, and the mean pages per run they imply (mean writes per run times
// the mean request size). 200,000 requests give 119,000 to 194,000 writes in 11,000 to 50,000
// runs. A run start lands on the previous write's end by chance (the write skew makes some
// offsets likely) or a run meets the footprint's end in under 1 % of the runs; the mean pages per
// run may move by that share besides its sampling error.
TEST(LeaftlProfiles, ReadRatioSizeMixAndRunLengthsAreTheDeclaredOnes) {
  for (const TraceProfile& profile : trace_profiles()) {
    if (std::string(profile.name).rfind("leaftl_", 0) != 0) continue;
    const StreamConfig stream = profile_stream(profile.name);
    EXPECT_LE(stream.working_set_bytes, kOneGiBDeviceSectors * kSector) << profile.name;
    const std::vector<HostRequest> requests = draw(stream, 200'000);
    expect_binomial(reads_in(requests), requests.size(), profile.read_fraction, profile.name);
    expect_size_mix(requests, profile.sizes, profile.name);
    const std::vector<WriteRun> runs = write_runs_of(requests);
    expect_run_lengths(runs, profile.write_runs, 0.01, profile.name);
    double sum = 0.0;
    double squares = 0.0;
    for (const WriteRun& run : runs) {
      const double pages = static_cast<double>(run.bytes) / kPage;
      sum += pages;
      squares += pages * pages;
    }
    const double n = static_cast<double>(runs.size());
    const double mean = sum / n;
    const double standard_error = std::sqrt((squares / n - mean * mean) / n);
    const double declared = mean_of(profile.write_runs) * mean_of(profile.sizes) / kPage;
    RecordProperty(std::string(profile.name) + "_pages_per_run", std::to_string(mean));
    std::cout << profile.name << ": " << runs.size() << " write runs of " << mean
              << " pages on average (declared " << declared << ", standard error "
              << standard_error << ")\n";
    EXPECT_NEAR(mean, declared, 5.0 * standard_error + 0.01 * declared) << profile.name;
  }
}

// The write skew places the run starts (a run's later writes follow its start): the hottest
// write_hot_share of the chunks take 80 % of the run starts of leaftl_prxy (0.05) and leaftl_hm
// (0.2). Writes only, over 256 chunks: about 77,000 and 27,000 run starts, 300 and 100 a chunk,
// whose noise moves the measured share by a chunk or two: 10 % of the share and a chunk.
TEST(LeaftlProfiles, TheWriteSkewPlacesTheRunStarts) {
  for (const char* name : {"leaftl_prxy", "leaftl_hm"}) {
    StreamConfig stream = profile_stream(name);
    stream.read_fraction = 0.0;
    stream.working_set_bytes = 256 * 64 * kKiB;
    const std::vector<WriteRun> runs = write_runs_of(draw(stream, 300'000));
    std::vector<double> starts(256, 0.0);
    for (const WriteRun& run : runs) starts.at(run.first_byte / (64 * kKiB)) += 1.0;
    std::sort(starts.begin(), starts.end(), std::greater<>());
    const double total = std::accumulate(starts.begin(), starts.end(), 0.0);
    double sum = 0.0;
    size_t hot = 0;
    while (sum < 0.8 * total) sum += starts[hot++];
    const double share = static_cast<double>(hot) / 256.0;
    const double target = find_trace_profile(name)->write_hot_share;
    std::cout << name << ": the hottest " << share << " of the chunks take 80 % of the run starts"
              << " (write_hot_share " << target << ")\n";
    EXPECT_NEAR(share, target, 0.1 * target + 1.0 / 256) << name;
  }
}

// ---- Errors name the stream, the key and what is allowed ----------------------------------------

TEST(WriteRuns, BadRunsAreErrorsNamingStreamKeyAndAllowedValues) {
  StreamConfig base;
  base.name = "s";
  base.write_runs = {{1, 0.5}, {8, 0.5}};
  ASSERT_EQ(generator_error(base, kOneGiBDeviceSectors), "");
  const auto expect_error = [&](const std::function<void(StreamConfig&)>& change,
                                const std::string& expected) {
    expect_generator_error(base, change, expected, kOneGiBDeviceSectors);
  };
  expect_error([](StreamConfig& s) { s.write_runs = {}; },
               "write_runs: no run length given; allowed {WRITES: weight, ...}, WRITES "
               "1..1048576");
  expect_error([](StreamConfig& s) { s.write_runs = {{0, 1.0}}; },
               "write_runs: a run of 0 writes is not 1..1048576 writes");
  expect_error([](StreamConfig& s) { s.write_runs = {{2'000'000, 1.0}}; },
               "write_runs: a run of 2000000 writes is not 1..1048576 writes");
  expect_error([](StreamConfig& s) { s.write_runs = {{4, -1.0}}; },
               "write_runs: the weight -1 of runs of 4 writes is not a positive number");
  expect_error([](StreamConfig& s) { s.write_runs = {{4, 0.0}}; },
               "write_runs: the weight 0 of runs of 4 writes is not a positive number");
  expect_error([](StreamConfig& s) { s.write_runs = {{4, std::nan("")}}; },
               "write_runs: the weight nan of runs of 4 writes is not a positive number");
  expect_error([](StreamConfig& s) { s.pattern = "sequential"; },
               "write_runs: runs of more than one write apply to the patterns random, zipf, "
               "hotcold, profile and workset, not sequential");
  expect_error([](StreamConfig& s) { s.pattern = "oltp"; },
               "write_runs: runs of more than one write apply to the patterns random, zipf, "
               "hotcold, profile and workset, not oltp");
  // Runs of one write suit every pattern.
  StreamConfig sequential = base;
  sequential.pattern = "sequential";
  sequential.write_runs = {{1, 1.0}};
  EXPECT_EQ(generator_error(sequential, kOneGiBDeviceSectors), "");
}

}  // namespace
}  // namespace ssdvp::host
