// Trace replay: each format's parser on good lines and on each kind of bad line, the device
// filter, timestamps, capacity checks and folding, and the two sample traces of ../shared/traces
// read completely (their README gives the request counts and read shares).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/host/trace_replay.h"
#include "tlm/host/workload.h"

namespace ssdvp::host {
namespace {

constexpr uint64_t kBigDevice = uint64_t{1} << 40;  // sectors: nothing in these traces is beyond

class TraceFiles : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const std::string& path : paths_) std::filesystem::remove(path);
  }

  // A trace file holding `text`, removed after the test.
  std::string write(const std::string& text) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("ssdvp_trace_test_" + std::to_string(getpid()) + "_" +
                               std::to_string(paths_.size()) + ".txt"))
                                 .string();
    std::ofstream(path, std::ios::binary) << text;
    paths_.push_back(path);
    return path;
  }

  StreamConfig stream(const std::string& format, const std::string& text) {
    StreamConfig config;
    config.trace_format = format;
    config.trace_path = write(text);
    return config;
  }

 private:
  std::vector<std::string> paths_;
};

std::vector<HostRequest> replay(const StreamConfig& config, uint64_t device_sectors = kBigDevice,
                                uint32_t sector_bytes = 512) {
  std::unique_ptr<RequestSource> source =
      make_request_source(config, device_sectors, sector_bytes, 1);
  std::vector<HostRequest> requests;
  while (std::optional<HostRequest> request = source->next()) requests.push_back(*request);
  return requests;
}

// The error message of replaying `config` completely, "" when it replays.
std::string replay_error(const StreamConfig& config, uint64_t device_sectors = kBigDevice,
                         uint32_t sector_bytes = 512) {
  try {
    replay(config, device_sectors, sector_bytes);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void expect_request(const HostRequest& request, HostOp op, uint64_t first, uint32_t count,
                    uint64_t arrival_ps = 0) {
  EXPECT_EQ(request.op, op);
  EXPECT_EQ(request.first_sector, first);
  EXPECT_EQ(request.sector_count, count);
  EXPECT_EQ(request.arrival_ps, arrival_ps);
}

// ---- Good lines of each format -----------------------------------------------------------------

TEST_F(TraceFiles, DiskSimFieldsAndTimestamps) {
  StreamConfig config = stream("disksim", "1000 0 8 16 1\n\n2000.5 1 100 8 0\r\n");
  config.follow_timestamps = true;
  const std::vector<HostRequest> requests = replay(config);
  ASSERT_EQ(requests.size(), 2u);
  expect_request(requests[0], HostOp::kRead, 8, 16, 0);
  expect_request(requests[1], HostOp::kWrite, 100, 8, 1'000'500);  // 1000.5 ns later
  config.follow_timestamps = false;
  EXPECT_EQ(replay(config)[1].arrival_ps, 0u);
  config.follow_timestamps = true;
  config.time_scale = 0.5;
  EXPECT_EQ(replay(config)[1].arrival_ps, 500'250u);
}

TEST_F(TraceFiles, ScaledArrivalsKeepTheirValuePastTheSigned64BitRange) {
  // 5 * 10^18 ps after the first request, doubled: 10^19 ps, beyond 2^63 and below 2^64.
  StreamConfig config = stream("disksim", "0 0 8 8 1\n5000000000000000 0 8 8 1\n");
  config.follow_timestamps = true;
  config.time_scale = 2.0;
  EXPECT_EQ(replay(config)[1].arrival_ps, 10'000'000'000'000'000'000u);
}

TEST_F(TraceFiles, MsrCambridgeCsv) {
  StreamConfig config = stream("msr",
                               "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                               "128166372003061629,hm,1,Read,383496192,32768,111\n"
                               "128166372003071629,hm,0,Write,1024,512,5\n");
  config.follow_timestamps = true;
  const std::vector<HostRequest> requests = replay(config);
  ASSERT_EQ(requests.size(), 2u);
  expect_request(requests[0], HostOp::kRead, 383496192 / 512, 32768 / 512, 0);
  expect_request(requests[1], HostOp::kWrite, 2, 1, 10000 * 100'000ull);  // 10000 ticks of 100 ns
  config.devices = {1};
  ASSERT_EQ(replay(config).size(), 1u);
}

TEST_F(TraceFiles, SpcFinancialAndWebSearch) {
  StreamConfig config = stream("spc",
                               "0,303567,3584,w,0.000000\n"
                               "1,100,512,R,0.5,extra,fields\n"
                               "0,20941264,8192,r,0.551706\n");
  config.follow_timestamps = true;
  const std::vector<HostRequest> requests = replay(config);
  ASSERT_EQ(requests.size(), 3u);
  expect_request(requests[0], HostOp::kWrite, 303567, 7, 0);
  expect_request(requests[1], HostOp::kRead, 100, 1, 500'000'000'000ull);
  expect_request(requests[2], HostOp::kRead, 20941264, 16, 551'706'000'000ull);
  config.devices = {0};
  EXPECT_EQ(replay(config).size(), 2u);
}

const char* const kBlkparse =
    "  8,0    3        1     0.000000000   697  Q  WS 223490 + 8 [kjournald]\n"
    "  8,0    3        2     0.000001000   697  G  WS 223490 + 8 [kjournald]\n"
    "  8,0    3        3     0.000002000   697  D  WS 223490 + 8 [kjournald]\n"
    "  8,16   0        4     0.100000000     1  Q   R 100 + 16 [cat]\n"
    "  8,0    0        5     0.200000000     1  Q  FN [kworker/0:1]\n"
    "  8,0    0        6     0.300000000     1  Q   D 2048 + 2048 [fstrim]\n"
    "  8,0    1        7     0.400000000     1  D   N 0 (00 ..) [ksoftirqd/3]\n"
    "  8,0    1        8     0.400000000     1  Q   N [scsi_id]\n"
    "  8,0    2        9     0.500000000     1  m   N cfq697 insert_request\n"
    "CPU0 (8,0):\n"
    " Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB\n"
    "Total (8,0):\n"
    "Throughput (R/W): 0KiB/s / 0KiB/s\n";

TEST_F(TraceFiles, BlkparseQueuedRequestsFlushesAndDiscards) {
  StreamConfig config = stream("blkparse", kBlkparse);
  config.follow_timestamps = true;
  const std::vector<HostRequest> requests = replay(config);
  ASSERT_EQ(requests.size(), 4u);
  expect_request(requests[0], HostOp::kWrite, 223490, 8, 0);
  expect_request(requests[1], HostOp::kRead, 100, 16, 100'000'000'000ull);
  expect_request(requests[2], HostOp::kFlush, 0, 0, 200'000'000'000ull);
  expect_request(requests[3], HostOp::kTrim, 2048, 2048, 300'000'000'000ull);
  config.devices = {device_number(8, 0)};
  EXPECT_EQ(replay(config).size(), 3u);
}

TEST_F(TraceFiles, BlkparseMarksWritesWithAnFAfterTheOpAsFua) {
  const std::vector<HostRequest> requests =
      replay(stream("blkparse",
                    "8,0 0 1 0.0 1 Q WFS 10 + 8 [a]\n"
                    "8,0 0 2 0.1 1 Q FWS 20 + 8 [a]\n"
                    "8,0 0 3 0.2 1 Q WS 30 + 8 [a]\n"
                    "8,0 0 4 0.3 1 Q FWF 40 + 8 [a]\n"));
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_TRUE(requests[0].fua);
  EXPECT_FALSE(requests[1].fua);  // a pre-flush, not FUA
  EXPECT_FALSE(requests[2].fua);
  EXPECT_TRUE(requests[3].fua);
  for (const HostRequest& request : requests) EXPECT_EQ(request.op, HostOp::kWrite);
}

TEST_F(TraceFiles, BlkparseUsesDispatchesWhenTheTraceShowsThemFirst) {
  const std::vector<HostRequest> requests =
      replay(stream("blkparse",
                    "8,0 0 1 0.0 1 D R 10 + 8 [a]\n"
                    "8,0 0 2 0.1 1 Q R 20 + 8 [a]\n"
                    "8,0 0 3 0.2 1 D W 20 + 8 [a]\n"));
  ASSERT_EQ(requests.size(), 2u);
  expect_request(requests[0], HostOp::kRead, 10, 8);
  expect_request(requests[1], HostOp::kWrite, 20, 8);
}

TEST_F(TraceFiles, FiuWithProcessNamesHoldingSpaces) {
  StreamConfig config =
      stream("fiu",
             "89966527765 4280 syslogd 904265560 8 W 6 0 531e779ad8c5ee8f5f7c7b7d13e0cc5b\n"
             "89966528765 20782 gzip -9 283193184 16 R 6 1 56f11b711d91a065a2b6458eca924523\n");
  config.follow_timestamps = true;
  const std::vector<HostRequest> requests = replay(config);
  ASSERT_EQ(requests.size(), 2u);
  expect_request(requests[0], HostOp::kWrite, 904265560, 8, 0);
  expect_request(requests[1], HostOp::kRead, 283193184, 16, 1000 * 1000ull);
  config.devices = {device_number(6, 1)};
  ASSERT_EQ(replay(config).size(), 1u);
  EXPECT_EQ(replay(config)[0].op, HostOp::kRead);
}

// ---- Sectors, capacity and folding --------------------------------------------------------------

TEST_F(TraceFiles, ByteRangesWidenToWholeHostSectors) {
  // Bytes 1024..5119 on 4 KiB sectors: sectors 0 and 1.
  const std::vector<HostRequest> requests =
      replay(stream("msr", "1,h,0,Read,1024,4096,1\n1,h,0,Write,8192,4096,1\n"), 1000, 4096);
  expect_request(requests[0], HostOp::kRead, 0, 2);
  expect_request(requests[1], HostOp::kWrite, 2, 1);
}

TEST_F(TraceFiles, BeyondCapacityIsAnErrorUnlessFolded) {
  StreamConfig config = stream("disksim", "0 0 10 4 0\n1 0 98 4 1\n2 0 205 3 0\n");
  const std::string error = replay_error(config, 100);
  EXPECT_TRUE(contains(error, config.trace_path + ":2: sectors 98..101 are beyond the device "
                                                  "capacity of 100 sectors of 512 bytes"))
      << error;
  EXPECT_TRUE(contains(error, "fold: true")) << error;
  config.fold_out_of_range = true;
  const std::vector<HostRequest> folded = replay(config, 100);
  ASSERT_EQ(folded.size(), 3u);
  expect_request(folded[0], HostOp::kWrite, 10, 4);
  expect_request(folded[1], HostOp::kRead, 96, 4);  // 98 would straddle the end: moved back
  expect_request(folded[2], HostOp::kWrite, 5, 3);  // 205 mod 100
  const std::string too_large = replay_error(stream("disksim", "0 0 0 200 0\n"), 100);
  EXPECT_TRUE(contains(too_large, ":1: the request of 200 sectors is larger than the device"))
      << too_large;
}

// ---- Bad lines: file:line, the reason and what was expected -------------------------------------

struct BadLine {
  const char* format;
  const char* text;
  const char* reason;
};

TEST_F(TraceFiles, EachKindOfBadLineNamesFileLineAndReason) {
  const BadLine cases[] = {
      {"disksim", "0 0 8 8\n", "expected 5 fields (arrival_ns device start_sector size_sectors "
                               "type), got 4"},
      {"disksim", "0 0 abc 8 1\n", "start_sector 'abc' is not a non-negative integer"},
      {"disksim", "x 0 8 8 1\n", "arrival_ns 'x' is not a non-negative number"},
      {"disksim", "0 0 8 8 2\n", "unknown op: type '2' is not 1 (read) or 0 (write)"},
      {"disksim", "0 0 8 0 1\n", "zero-length request"},
      {"disksim", "0 0 99999999999999999999 8 1\n", "start_sector '99999999999999999999' is out "
                                                    "of range"},
      {"msr", "1,h,0,Read,0,512\n", "expected 7 fields (Timestamp,Hostname,DiskNumber,Type,"
                                    "Offset,Size,ResponseTime), got 6"},
      {"msr", "1,h,0,Trim,0,512,1\n", "unknown op: Type 'Trim' is not Read or Write"},
      {"msr", "1,h,0,Read,0,0,1\n", "zero-length request"},
      {"msr", "1,h,disk0,Read,0,512,1\n", "DiskNumber 'disk0' is not a non-negative integer"},
      {"spc", "0,1,512,r\n", "expected at least 5 fields (ASU,LBA,Size,Opcode,Timestamp), got 4"},
      {"spc", "0,1,512,x,0.1\n", "unknown op: Opcode 'x' is not r or w"},
      {"spc", "0,1,512,r,-1\n", "Timestamp '-1' is not a non-negative number"},
      {"spc", "0,1,0,w,0.1\n", "zero-length request"},
      {"blkparse", "8,0 0 1 0.0 1 Q\n", "expected an RWBS field"},
      {"blkparse", "8,0 0 1 0.0 1 Q X 10 + 8 [a]\n",
       "unknown op: RWBS 'X' has none of R, W, D, N after an optional F"},
      {"blkparse", "8,0 0 1 0.0 1 Q R 10 8 [a]\n", "expected 'sector + count' after the RWBS"},
      {"blkparse", "8,0 0 1 0.0 1 Q R 10 + 0 [a]\n", "zero-length request"},
      {"blkparse", "8,99999999 0 1 0.0 1 Q R 10 + 8 [a]\n", "minor '99999999' is out of range"},
      {"fiu", "1 2 proc 10 8 W 6 0\n", "expected at least 9 fields (ts_ns pid process lba "
                                       "size_blocks R|W major minor md5), got 8"},
      {"fiu", "1 2 proc 10 8 T 6 0 md5\n", "unknown op: op 'T' is not R or W"},
      {"fiu", "1 2 proc 10 0 W 6 0 md5\n", "zero-length request"},
      {"fiu", "1 2 proc 10 8 W 6 zero md5\n", "minor 'zero' is not a non-negative integer"},
  };
  for (const BadLine& bad : cases) {
    // The bad line is the second: the first shows that good lines before it are replayed.
    const std::string good = std::string(bad.format) == "disksim"   ? "0 0 8 8 1\n"
                             : std::string(bad.format) == "msr"      ? "1,h,0,Read,0,512,1\n"
                             : std::string(bad.format) == "spc"      ? "0,1,512,r,0.0\n"
                             : std::string(bad.format) == "blkparse" ? "8,0 0 1 0.0 1 Q R 1 + 8 [a]\n"
                                                                     : "1 2 p 10 8 W 6 0 md5\n";
    const StreamConfig config = stream(bad.format, good + bad.text);
    const std::string error = replay_error(config);
    EXPECT_TRUE(contains(error, config.trace_path + ":2: " + bad.reason))
        << bad.format << ": " << bad.text << " gave: " << error;
  }
}

TEST_F(TraceFiles, TimestampsMustNotGoBackWhenFollowed) {
  StreamConfig config = stream("disksim", "2000 0 8 8 1\n1000 0 8 8 1\n");
  EXPECT_EQ(replay_error(config), "");
  config.follow_timestamps = true;
  const std::string error = replay_error(config);
  EXPECT_TRUE(contains(error, ":2: the timestamp (1000000ps) goes back before the previous "
                              "request's (2000000ps)"))
      << error;
}

TEST_F(TraceFiles, EmptyTracesAndUnknownFormatsAndMissingFilesAreErrors) {
  StreamConfig empty = stream("disksim", "\n\n");
  EXPECT_TRUE(contains(replay_error(empty), empty.trace_path + ": the trace holds no disksim "
                                                               "request"))
      << replay_error(empty);
  StreamConfig filtered = stream("disksim", "0 1 8 8 1\n");
  filtered.name = "replay";
  filtered.devices = {0, device_number(8, 16)};
  EXPECT_TRUE(contains(replay_error(filtered),
                       "stream 'replay': " + filtered.trace_path +
                           ": the trace holds no disksim request of devices 0, 8:16"))
      << replay_error(filtered);
  StreamConfig summary_only = stream("blkparse", "CPU0 (8,0):\nTotal (8,0):\n");
  EXPECT_TRUE(contains(replay_error(summary_only), "holds no blkparse request"));

  StreamConfig format = stream("ascii", "0 0 8 8 1\n");
  EXPECT_TRUE(contains(replay_error(format), "format: 'ascii' is not a trace format; allowed "
                                             "disksim, msr, spc, blkparse, fiu"))
      << replay_error(format);
  StreamConfig missing;
  missing.trace_path = "/nonexistent/trace.txt";
  EXPECT_TRUE(contains(replay_error(missing), "trace: cannot open '/nonexistent/trace.txt'"));
  StreamConfig scale = stream("disksim", "0 0 8 8 1\n");
  scale.time_scale = 0.0;
  EXPECT_TRUE(contains(replay_error(scale), "time_scale: 0 is not a positive number"));
}

TEST_F(TraceFiles, ReadsLineByLineAsRequestsAreTaken) {
  // The bad third line is found only when the replay gets there: the file is not read ahead.
  const StreamConfig config = stream("disksim", "0 0 8 8 1\n1 0 16 8 1\nbroken\n");
  std::unique_ptr<RequestSource> source = make_request_source(config, kBigDevice, 512, 1);
  EXPECT_TRUE(source->next().has_value());
  try {
    source->next();
    FAIL() << "the bad line was not reached";
  } catch (const std::runtime_error& error) {
    EXPECT_TRUE(contains(error.what(), config.trace_path + ":3: expected 5 fields"))
        << error.what();
  }
}

// ---- The sample traces ------------------------------------------------------------------------

struct TraceShare {
  uint64_t requests;
  uint64_t reads;
};

TraceShare count_requests(const std::string& file, uint64_t device_sectors, uint32_t sector_bytes,
                          bool fold) {
  StreamConfig config;
  config.trace_path = std::string(SSDVP_SHARED_TRACES_DIR) + "/" + file;
  config.trace_format = "disksim";
  config.follow_timestamps = true;
  config.fold_out_of_range = fold;
  TraceShare share{0, 0};
  uint64_t previous_arrival = 0;
  for (const HostRequest& request : replay(config, device_sectors, sector_bytes)) {
    ++share.requests;
    share.reads += request.op == HostOp::kRead;
    EXPECT_GE(request.arrival_ps, previous_arrival);
    EXPECT_LT(request.first_sector + request.sector_count, device_sectors + 1);
    previous_arrival = request.arrival_ps;
  }
  return share;
}

TEST(SampleTraces, ParseCompletelyWithTheirReadmeCountsAndReadShares) {
  ASSERT_TRUE(std::filesystem::exists(SSDVP_SHARED_TRACES_DIR))
      << "the sample traces are expected in " << SSDVP_SHARED_TRACES_DIR
      << " (CMake cache variable SSDVP_SHARED_TRACES_DIR)";
  const TraceShare tpcc = count_requests("tpcc-small.trace", kBigDevice, 512, false);
  EXPECT_EQ(tpcc.requests, 6999u);
  EXPECT_NEAR(100.0 * tpcc.reads / tpcc.requests, 62.6, 0.05);
  const TraceShare ssdsim = count_requests("ssdsim-example.ascii", kBigDevice, 512, false);
  EXPECT_EQ(ssdsim.requests, 10000u);
  EXPECT_NEAR(100.0 * ssdsim.reads / ssdsim.requests, 40.8, 0.05);
  // Folded into a 1 GiB device of 4 KiB sectors, no request is lost.
  const TraceShare folded = count_requests("tpcc-small.trace", 262144, 4096, true);
  EXPECT_EQ(folded.requests, 6999u);
  EXPECT_EQ(folded.reads, tpcc.reads);
}

}  // namespace
}  // namespace ssdvp::host
