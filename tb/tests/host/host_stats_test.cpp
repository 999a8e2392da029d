// Host statistics on hand-made data: per-op counts and latencies, IOPS and bandwidth over the
// phase, time-weighted queue occupancy, the interval series and the CSV files.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>

#include "tlm/host/host_stats.h"

namespace ssdvp::host {
namespace {

constexpr uint64_t kUs = 1'000'000;

// Phase "a": a read submitted at 0 completes at 4 us, a write submitted at 2 us at 12 us.
HostStats two_commands() {
  HostStats stats(10 * kUs);
  stats.begin_phase("a", 0);
  stats.submitted(0);
  stats.submitted(2 * kUs);
  stats.completed(HostOp::kRead, 4096, 4 * kUs, true, 4 * kUs);
  stats.completed(HostOp::kWrite, 8192, 10 * kUs, true, 12 * kUs);
  stats.end_phase(12 * kUs, true);
  return stats;
}

TEST(HostStats, APhaseRecordsTheHostTimeItTook) {
  HostStats stats(10 * kUs);
  stats.begin_phase("a", 0);
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(20)) {
  }
  stats.end_phase(5 * kUs, true);
  const double wall = stats.to_json()["phases"][0]["wall_seconds"].get<double>();
  EXPECT_GE(wall, 0.02);
  EXPECT_LT(wall, 10.0);
}

TEST(HostStats, PhaseTotalsRatesAndQueueOccupancy) {
  const nlohmann::json json = two_commands().to_json();
  const nlohmann::json& phase = json["phases"][0];
  EXPECT_EQ(phase["name"], "a");
  EXPECT_EQ(phase["finished"], true);
  EXPECT_EQ(phase["commands"], 2u);
  EXPECT_EQ(phase["bytes"], 12288u);
  EXPECT_DOUBLE_EQ(phase["duration_s"].get<double>(), 12e-6);
  EXPECT_DOUBLE_EQ(phase["iops"].get<double>(), 2 / 12e-6);
  EXPECT_DOUBLE_EQ(phase["bandwidth_mb_s"].get<double>(), 12288 / 12e-6 / 1e6);
  // One outstanding for 2 us, two for 2 us, one for 8 us: 14 command-us over 12 us.
  EXPECT_DOUBLE_EQ(phase["queue_occupancy"]["mean"].get<double>(), 14.0 / 12.0);
  EXPECT_EQ(phase["queue_occupancy"]["max"], 2u);
  const nlohmann::json& read = phase["ops"]["read"];
  EXPECT_EQ(read["commands"], 1u);
  EXPECT_EQ(read["bytes"], 4096u);
  EXPECT_EQ(read["latency_ns"]["max"], 4000u);
  EXPECT_EQ(read["latency_ns"]["p50"], 4000u);
  const nlohmann::json& write = phase["ops"]["write"];
  EXPECT_EQ(write["latency_ns"]["min"], 10000u);
  EXPECT_DOUBLE_EQ(write["latency_ns"]["mean"].get<double>(), 10000.0);
  EXPECT_EQ(phase["ops"]["trim"]["commands"], 0u);
}

TEST(HostStats, IntervalsSplitTheOccupancyAndCountCompletionsWhereTheyEnd) {
  const nlohmann::json json = two_commands().to_json();
  const nlohmann::json& series = json["phases"][0]["timeseries"];
  ASSERT_EQ(series["columns"][0], "start_ns");
  const nlohmann::json& rows = series["rows"];
  ASSERT_EQ(rows.size(), 2u);
  // [0, 10 us): the read; occupancy (1 x 2 + 2 x 2 + 1 x 6) / 10.
  EXPECT_EQ(rows[0][0], 0u);
  EXPECT_EQ(rows[0][1], 10'000u);
  EXPECT_EQ(rows[0][2], 1u);  // commands
  EXPECT_EQ(rows[0][3], 1u);  // reads
  EXPECT_DOUBLE_EQ(rows[0][14].get<double>(), 1.2);
  // [10 us, 12 us): cut at the phase end; the write completes at its end.
  EXPECT_EQ(rows[1][0], 10'000u);
  EXPECT_EQ(rows[1][1], 12'000u);
  EXPECT_EQ(rows[1][4], 1u);  // writes
  EXPECT_DOUBLE_EQ(rows[1][13].get<double>(), 10.0);  // write latency mean, us
  EXPECT_DOUBLE_EQ(rows[1][14].get<double>(), 1.0);
}

TEST(HostStats, ErrorsCarryNoBytesAndCutShortPhasesSaySo) {
  HostStats stats = two_commands();
  stats.begin_phase("b, second", 20 * kUs);
  stats.submitted(20 * kUs);
  stats.completed(HostOp::kRead, 4096, 1 * kUs, false, 21 * kUs);
  stats.end_phase(25 * kUs, false);
  const nlohmann::json phase = stats.to_json()["phases"][1];
  EXPECT_EQ(phase["finished"], false);
  EXPECT_EQ(phase["errors"], 1u);
  EXPECT_EQ(phase["bytes"], 0u);
  EXPECT_EQ(stats.commands_completed(), 3u);

  std::ostringstream latency;
  stats.write_latency_csv(latency);
  EXPECT_EQ(latency.str(),
            "phase,op,lower_ns,upper_ns,count\n"
            "a,read,4000,4015,1\n"
            "a,write,9984,10047,1\n"
            "\"b, second\",read,1000,1003,1\n");
  std::ostringstream series;
  stats.write_timeseries_csv(series);
  std::istringstream lines(series.str());
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.substr(0, 27), "phase,start_ns,end_ns,comma");
  size_t rows = 0;
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, 3u);  // two intervals of "a", one of "b, second"
}

}  // namespace
}  // namespace ssdvp::host
