// The host model against a HIC served by a C++ stand-in for the firmware: queue-depth limits,
// trace timestamps, phases and their statistics, write serialization, phase limits, the
// oracle catching a stale read, FUA and fsync keys, and the verification after a power loss.
//
// Times: the bench link is PCIe Gen3 x1 with 100 ns of latency (a 64-byte command takes 65 ns
// on the wire) and SRAM accesses take 10 ns.
#define SC_INCLUDE_DYNAMIC_PROCESSES

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "interface/hic_regs.h"
#include "tb/tests/host/hic_bench.h"
#include "tlm/host/host_model.h"

namespace ssdvp::test {
namespace {

using host::HostModel;
using host::HostOp;
using host::HostRequest;

constexpr uint64_t kUs = 1'000'000;
constexpr uint64_t kSramPs = 10'000;
constexpr uint64_t kFetchPs = 65'000 + 100'000 + kSramPs;  // submission to the command event
constexpr uint32_t kSectorsPerPage = 8;
constexpr uint32_t kMaxPagesPerCommand = 16;

// Serves every command as a RAM disk would, each `service` after its data moved; a read of
// `stale_lpn` returns the version before the last.
class FakeFirmware {
 public:
  struct Seen {
    hic_event_t event;
    uint64_t time_ps;
  };

  FakeFirmware(HicBench& bench, sc_core::sc_time service, uint32_t stale_lpn = UINT32_MAX)
      : bench_(bench), service_(service), stale_lpn_(stale_lpn) {
    bench_.spawn([this] { serve(); });
  }

  std::vector<Seen> commands;        // every command event, when it was seen
  uint32_t max_writes_of_lpn3 = 0;   // writes of LPN 3 the firmware held at once

  // What reads of `lpn` return from now on (a power loss losing or keeping data).
  void set_version(uint32_t lpn, uint32_t version) { versions_[lpn] = version; }

 private:
  uint32_t slot(const hic_event_t& event, uint32_t page) const {
    return HicBench::slot(event.cmd_id * kMaxPagesPerCommand + page, 4096);
  }

  void serve() {
    bench_.start_rings(64, 64);
    for (;;) {
      bench_.wait_interrupt();
      bench_.write_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
      for (const hic_event_t& event : bench_.take_events()) {
        if (event.kind == HIC_EVENT_COMMAND) {
          command(event);
        } else {
          transfer_done(event);
        }
      }
    }
  }

  void command(const hic_event_t& event) {
    commands.push_back({event, static_cast<uint64_t>(sc_core::sc_time_stamp().value())});
    held_[event.cmd_id] = {event, 0};
    if (event.op == HIC_OP_WRITE && event.lpn <= 3 && 3 < event.lpn + event.pages) {
      max_writes_of_lpn3 = std::max(max_writes_of_lpn3, ++writes_of_lpn3_);
    }
    for (uint32_t page = 0; page < event.pages && event.op != HIC_OP_TRIM; ++page) {
      hic_request_t request{};
      request.cmd_id = event.cmd_id;
      request.page_index = page;
      request.buffer = slot(event, page);
      if (event.op == HIC_OP_WRITE) {
        request.kind = HIC_REQ_DATA_IN;
      } else {
        const uint32_t lpn = event.lpn + page;
        uint32_t version = versions_[lpn];
        if (lpn == stale_lpn_ && version != 0) --version;
        const data_tag_t tag{version == 0 ? 0 : lpn, version};
        bench_.write_mem(request.buffer, &tag, sizeof tag);
        request.kind = HIC_REQ_DATA_OUT;
      }
      bench_.post_request(request);
    }
    if (event.op == HIC_OP_FLUSH || event.op == HIC_OP_TRIM) complete_later(event.cmd_id);
  }

  void transfer_done(const hic_event_t& event) {
    Held& held = held_[event.cmd_id];
    if (event.op == HIC_OP_WRITE) {
      data_tag_t tag{};
      bench_.read_mem(event.buffer, &tag, sizeof tag);
      versions_[event.lpn] = tag.version;
    }
    if (++held.pages_done == held.event.pages) complete_later(event.cmd_id);
  }

  void complete_later(uint32_t cmd_id) {
    const hic_event_t event = held_[cmd_id].event;
    sc_core::sc_spawn([this, event] {
      wait(service_);
      if (event.op == HIC_OP_WRITE && event.lpn <= 3 && 3 < event.lpn + event.pages) {
        --writes_of_lpn3_;
      }
      hic_request_t request{};
      request.kind = HIC_REQ_COMPLETE;
      request.cmd_id = event.cmd_id;
      bench_.post_request(request);
    });
  }

  struct Held {
    hic_event_t event;
    uint32_t pages_done;
  };

  HicBench& bench_;
  sc_core::sc_time service_;
  uint32_t stale_lpn_;
  std::map<uint32_t, Held> held_;
  std::map<uint32_t, uint32_t> versions_;
  uint32_t writes_of_lpn3_ = 0;
};

// Requests given in advance; `repeat` cycles through them for ever.
class ScriptedSource : public host::RequestSource {
 public:
  ScriptedSource(std::vector<HostRequest> requests, bool repeat, size_t fail_at = SIZE_MAX)
      : requests_(std::move(requests)), repeat_(repeat), fail_at_(fail_at) {}

  std::optional<HostRequest> next() override {
    if (taken_ == fail_at_) throw std::runtime_error("trace.txt:12: unknown op 'X'");
    if (!repeat_ && taken_ >= requests_.size()) return std::nullopt;
    return requests_[taken_++ % requests_.size()];
  }

 private:
  std::vector<HostRequest> requests_;
  bool repeat_;
  size_t fail_at_;
  size_t taken_ = 0;
};

HostRequest page_request(HostOp op, uint32_t lpn, uint32_t pages = 1, uint64_t arrival_ps = 0) {
  return HostRequest{op, uint64_t{lpn} * kSectorsPerPage, pages * kSectorsPerPage, arrival_ps};
}

host::StreamConfig stream(const std::string& name, uint32_t queue_depth,
                          bool trace = false, bool follow_timestamps = false) {
  host::StreamConfig config;
  config.name = name;
  config.queue_depth = queue_depth;
  if (trace) config.trace_path = name + ".trace";
  config.follow_timestamps = follow_timestamps;
  return config;
}

// A factory handing each stream (by name) its scripted source.
HostModel::SourceFactory scripts(std::map<std::string, std::function<ScriptedSource()>> sources) {
  return [sources](const host::StreamConfig& stream, uint64_t, uint32_t, uint64_t) {
    return std::make_unique<ScriptedSource>(sources.at(stream.name)());
  };
}

struct Outcome {
  std::optional<std::string> done;
  std::optional<std::pair<HostModel::Failure, std::string>> failure;
};

void watch(HostModel& model, Outcome& outcome) {
  model.on_done([&outcome](const std::string& summary) { outcome.done = summary; });
  model.on_failure([&outcome](HostModel::Failure failure, const std::string& message) {
    outcome.failure = std::make_pair(failure, message);
  });
}

TEST(HostModel, QueueDepthBoundsEachStream) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(20, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"measure", 60, 0, 0, {stream("deep", 4), stream("shallow", 1)}});
  const auto reads = [] {
    std::vector<HostRequest> requests;
    for (uint32_t lpn = 0; lpn < 16; ++lpn) requests.push_back(page_request(HostOp::kRead, lpn));
    return ScriptedSource(requests, true);
  };
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"deep", reads}, {"shallow", reads}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done) << (outcome.failure ? outcome.failure->second : "not done");
  EXPECT_EQ(model.stream_max_outstanding(0, 0), 4u);
  EXPECT_EQ(model.stream_max_outstanding(0, 1), 1u);
  EXPECT_EQ(model.stream_submitted(0, 0) + model.stream_submitted(0, 1), 60u);
  EXPECT_EQ(model.stats().phases().at(0).max_outstanding, 5u);
  EXPECT_EQ(model.commands_completed(), 60u);
}

TEST(HostModel, CommandsBeyondTheHicSlotsWaitInTheHostQueue) {
  HostConfig config = bench_host_config();
  config.max_commands = 2;
  HicBench bench("bench", config, kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(20, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"measure", 40, 0, 0, {stream("deep", 8)}});
  HostModel model("host", config, workload, 1, bench.hic, nullptr,
                  scripts({{"deep", [] {
                              return ScriptedSource({page_request(HostOp::kRead, 1)}, true);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done);
  EXPECT_EQ(model.stream_max_outstanding(0, 0), 8u);
  nlohmann::json hic;
  bench.hic.report(hic);
  EXPECT_EQ(hic["max_commands_held"], 2u);
  EXPECT_EQ(hic["commands_fetched"], 40u);
}

TEST(HostModel, TraceStreamsSubmitAtTheirTimestamps) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US));
  host::WorkloadConfig workload;
  // "timed": arrivals at 0, 50 and 120 us; "crowded": queue depth 1, two requests at 0 and 1 us.
  workload.phases.push_back(
      {"replay", 0, 0, 0, {stream("timed", 8, true, true), stream("crowded", 1, true, true)}});
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"timed",
                            [] {
                              return ScriptedSource({page_request(HostOp::kRead, 1, 1, 0),
                                                     page_request(HostOp::kRead, 2, 1, 50 * kUs),
                                                     page_request(HostOp::kRead, 3, 1, 120 * kUs)},
                                                    false);
                            }},
                           {"crowded", [] {
                              return ScriptedSource({page_request(HostOp::kWrite, 10, 1, 0),
                                                     page_request(HostOp::kWrite, 11, 1, 1 * kUs)},
                                                    false);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done);
  std::map<uint32_t, uint64_t> seen;  // LPN -> when the firmware saw the command
  for (const FakeFirmware::Seen& command : firmware.commands) seen[command.event.lpn] = command.time_ps;
  const uint64_t start = model.stats().phases().at(0).start_ps;
  EXPECT_EQ(seen.at(1), start + kFetchPs);
  EXPECT_EQ(seen.at(2), start + 50 * kUs + kFetchPs);
  EXPECT_EQ(seen.at(3), start + 120 * kUs + kFetchPs);
  // LPN 11 is due at 1 us but waits for LPN 10's completion (queue depth 1).
  EXPECT_GT(seen.at(11), start + 1 * kUs + kFetchPs + 1 * kUs);
  EXPECT_GE(model.stats().phases().at(0).end_ps, start + 120 * kUs);
}

TEST(HostModel, PhasesRunInOrderWithTheirOwnStatistics) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(2, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"fill", 0, 0, 0, {stream("fill", 4, true)}});
  workload.phases.push_back({"check", 0, 0, 0, {stream("check", 2, true)}});
  const auto pages = [](HostOp op) {
    std::vector<HostRequest> requests;
    for (uint32_t lpn = 0; lpn < 8; ++lpn) requests.push_back(page_request(op, lpn * 2, 2));
    return ScriptedSource(requests, false);
  };
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"fill", [&] { return pages(HostOp::kWrite); }},
                           {"check", [&] { return pages(HostOp::kRead); }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done) << (outcome.failure ? outcome.failure->second : "not done");
  EXPECT_TRUE(model.done());
  const auto& phases = model.stats().phases();
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].name, "fill");
  EXPECT_EQ(phases[0].ops[static_cast<size_t>(HostOp::kWrite)].commands, 8u);
  EXPECT_EQ(phases[0].ops[static_cast<size_t>(HostOp::kWrite)].bytes, 8u * 8192);
  EXPECT_EQ(phases[0].ops[static_cast<size_t>(HostOp::kRead)].commands, 0u);
  EXPECT_EQ(phases[1].ops[static_cast<size_t>(HostOp::kRead)].commands, 8u);
  EXPECT_GE(phases[1].start_ps, phases[0].end_ps);
  EXPECT_TRUE(phases[0].finished && phases[1].finished);
  EXPECT_EQ(model.oracle().pages_checked(), 16u);
  nlohmann::json report;
  model.report(report);
  EXPECT_EQ(report["oracle"]["enabled"], true);
  EXPECT_EQ(report["phases"][1]["ops"]["read"]["commands"], 8u);
}

TEST(HostModel, OverlappingWritesWaitForEachOther) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(5, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"overlap", 0, 0, 0, {stream("a", 4, true), stream("b", 4, true)}});
  // Both streams write LPN 3 (alone, and within a 4-page write) and read it back.
  const auto script = [] {
    return ScriptedSource({page_request(HostOp::kWrite, 3), page_request(HostOp::kWrite, 2, 4),
                           page_request(HostOp::kRead, 3), page_request(HostOp::kWrite, 3),
                           page_request(HostOp::kRead, 0, 8)},
                          false);
  };
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"a", script}, {"b", script}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done) << (outcome.failure ? outcome.failure->second : "not done");
  EXPECT_EQ(firmware.max_writes_of_lpn3, 1u);
  EXPECT_EQ(model.commands_completed(), 10u);
}

TEST(HostModel, OracleCatchesAStaleRead) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US), /*stale_lpn=*/3);
  host::WorkloadConfig workload;
  workload.phases.push_back({"stale", 0, 0, 0, {stream("s", 1, true)}});
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"s", [] {
                              return ScriptedSource({page_request(HostOp::kWrite, 3),
                                                     page_request(HostOp::kWrite, 3),
                                                     page_request(HostOp::kRead, 2, 2)},
                                                    false);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  EXPECT_FALSE(outcome.done);
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->first, HostModel::Failure::kIntegrity);
  EXPECT_NE(outcome.failure->second.find("LPN 3: expected version 2, found version 1"),
            std::string::npos)
      << outcome.failure->second;
}

TEST(HostModel, OracleOffChecksNothingAndWritesVersionOne) {
  HostConfig config = bench_host_config();
  config.oracle = false;
  HicBench bench("bench", config, kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US), /*stale_lpn=*/3);
  host::WorkloadConfig workload;
  workload.phases.push_back({"unchecked", 0, 0, 0, {stream("s", 1, true)}});
  HostModel model("host", config, workload, 1, bench.hic, nullptr,
                  scripts({{"s", [] {
                              return ScriptedSource({page_request(HostOp::kWrite, 3),
                                                     page_request(HostOp::kWrite, 3),
                                                     page_request(HostOp::kRead, 3)},
                                                    false);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  EXPECT_TRUE(outcome.done);
  EXPECT_EQ(model.oracle().pages_checked(), 0u);
  EXPECT_EQ(model.oracle().lpns_tracked(), 0u);
}

TEST(HostModel, TimeLimitStopsSubmittingAndDrains) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(10, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"timed", 0, 0, 100 * kUs, {stream("s", 1)}});
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"s", [] {
                              return ScriptedSource({page_request(HostOp::kRead, 1)}, true);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done);
  const auto& phase = model.stats().phases().at(0);
  // One command at a time, each submitted as the previous one completes: every `cycle` (the
  // same for all, seen by the firmware), as long as the 100 us have not passed.
  ASSERT_GE(firmware.commands.size(), 2u);
  const uint64_t cycle = firmware.commands[1].time_ps - firmware.commands[0].time_ps;
  const uint64_t expected = (100 * kUs + cycle - 1) / cycle;
  EXPECT_GT(cycle, 10 * kUs);
  EXPECT_EQ(phase.submitted, expected);
  EXPECT_EQ(model.commands_completed(), expected);
  EXPECT_GT(phase.end_ps, phase.start_ps + 100 * kUs);
  EXPECT_LT(firmware.commands.back().time_ps, phase.start_ps + 100 * kUs + kFetchPs);
}

// Write commands of two pages a phase of `stream` submits with capacity_multiple 1/512 of the
// bench's 64 MiB (128 KiB: sixteen commands) and `max_bytes`. One run per test: SystemC
// elaborates once per process.
uint64_t writes_with_capacity_multiple(uint64_t max_bytes) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US));
  host::WorkloadConfig workload;
  host::PhaseConfig phase{"fill", 0, max_bytes, 0, {stream("s", 4)}};
  phase.capacity_multiple = 1.0 / 512;
  workload.phases.push_back(phase);
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"s", [] {
                              return ScriptedSource({page_request(HostOp::kWrite, 0, 2),
                                                     page_request(HostOp::kWrite, 2, 2)},
                                                    true);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  EXPECT_TRUE(outcome.done);
  return model.stats().phases().at(0).ops[static_cast<size_t>(HostOp::kWrite)].commands;
}

TEST(HostModel, ACapacityMultipleEndsThePhaseAfterThatManyCapacitiesOfBytes) {
  EXPECT_EQ(writes_with_capacity_multiple(0), 16u);
}

TEST(HostModel, ACapacityMultipleAndBytesEndThePhaseAtTheFirstLimit) {
  EXPECT_EQ(writes_with_capacity_multiple(64 << 10), 8u);
}

TEST(HostModel, ASourceFailingDuringTheRunStopsIt) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"replay", 0, 0, 0, {stream("bad", 1, true)}});
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"bad", [] {
                              return ScriptedSource({page_request(HostOp::kRead, 1)}, true, 2);
                            }}}));
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.failure);
  EXPECT_EQ(outcome.failure->first, HostModel::Failure::kWorkload);
  EXPECT_EQ(outcome.failure->second,
            "workload.phases[0].streams[0] ('bad'): trace.txt:12: unknown op 'X'");
}

// What HostModel's constructor throws for `workload` (its streams read LPN 1 for ever), "" when
// it accepts it.
std::string construction_error(const host::WorkloadConfig& workload) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  try {
    HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                    [](const host::StreamConfig&, uint64_t, uint32_t, uint64_t) {
                      return std::make_unique<ScriptedSource>(
                          std::vector<HostRequest>{page_request(HostOp::kRead, 1)}, true);
                    });
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(HostModel, APhaseThatCannotEndIsRejectedBeforeTheRun) {
  host::WorkloadConfig workload;
  workload.phases.push_back({"forever", 0, 0, 0, {stream("synthetic", 1)}});
  const std::string error = construction_error(workload);
  EXPECT_NE(error.find("workload.phases[0] ('forever')"), std::string::npos) << error;
}

TEST(HostModel, ABadCapacityMultipleIsRejectedNamingThePhase) {
  host::WorkloadConfig workload;
  host::PhaseConfig phase{"fill", 0, 0, 0, {stream("s", 1)}};
  phase.capacity_multiple = -2.0;
  workload.phases.push_back(phase);
  EXPECT_EQ(construction_error(workload),
            "workload.phases[0].capacity_multiple: -2 is not a number >= 0");
}

}  // namespace
}  // namespace ssdvp::test

namespace ssdvp::test {
namespace {

TEST(HostModel, FuaShareAndFsyncFlagWritesAndAddFlushes) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US));
  host::StreamConfig durable = stream("durable", 1);
  durable.pattern = "random";
  durable.fua_fraction = 0.5;
  durable.fsync_writes = 4;
  host::StreamConfig plain = stream("plain", 1);
  plain.pattern = "random";
  host::WorkloadConfig workload;
  workload.phases.push_back({"durable", 50, 0, 0, {durable}});
  workload.phases.push_back({"plain", 20, 0, 0, {plain}});
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr);
  Outcome outcome;
  watch(model, outcome);
  sc_core::sc_start();
  ASSERT_TRUE(outcome.done) << (outcome.failure ? outcome.failure->second : "not done");
  ASSERT_EQ(firmware.commands.size(), 70u);
  size_t fua = 0;
  for (size_t i = 0; i < 50; ++i) {
    const hic_event_t& event = firmware.commands[i].event;
    // At queue depth 1 the commands arrive in order: four writes, then a flush.
    EXPECT_EQ(event.op, i % 5 == 4 ? HIC_OP_FLUSH : HIC_OP_WRITE) << "command " << i;
    if ((event.flags & HIC_CMD_FUA) != 0) {
      EXPECT_EQ(event.op, HIC_OP_WRITE);
      ++fua;
    }
  }
  EXPECT_GT(fua, 10u);  // half of 40 writes, drawn
  EXPECT_LT(fua, 30u);
  for (size_t i = 50; i < 70; ++i) {
    const hic_event_t& event = firmware.commands[i].event;
    EXPECT_EQ(event.op, HIC_OP_WRITE);
    EXPECT_EQ(event.flags & HIC_CMD_FUA, 0u);
  }
}

// Writes LPN 1 and 2, a flush, LPN 2 again and LPN 3 with FUA: LPN 1 and 2 are guaranteed at
// version 1, LPN 3 at version 1; LPN 2's version 2 may or may not survive.
struct Verification {
  uint64_t failures = 0;
  Outcome outcome;
  uint64_t pages = 0;
  uint64_t stats_failures = 0;
};

Verification verify_after_cut(const std::function<void(FakeFirmware&)>& lose) {
  HicBench bench("bench", bench_host_config(), kSramPs, false);
  FakeFirmware firmware(bench, sc_core::sc_time(1, sc_core::SC_US));
  host::WorkloadConfig workload;
  workload.phases.push_back({"durable", 0, 0, 0, {stream("s", 1, true)}});
  HostRequest fua_write = page_request(HostOp::kWrite, 3);
  fua_write.fua = true;
  HostModel model("host", bench_host_config(), workload, 1, bench.hic, nullptr,
                  scripts({{"s", [fua_write] {
                              return ScriptedSource({page_request(HostOp::kWrite, 1),
                                                     page_request(HostOp::kWrite, 2),
                                                     HostRequest{HostOp::kFlush, 0, 0, 0},
                                                     page_request(HostOp::kWrite, 2),
                                                     fua_write},
                                                    false);
                            }}}));
  Verification result;
  watch(model, result.outcome);
  sc_core::sc_event done;
  model.on_done([&](const std::string& summary) {
    result.outcome.done = summary;
    done.notify();
  });
  sc_core::sc_spawn([&] {
    wait(done);
    model.oracle().power_lost();
    lose(firmware);
    result.failures = model.verify_guaranteed();
  });
  sc_core::sc_start();
  result.pages = model.stats().verified_pages();
  result.stats_failures = model.stats().verification_failures();
  return result;
}

TEST(HostModel, TheVerificationReadsEveryGuaranteedLpnBack) {
  const Verification kept = verify_after_cut([](FakeFirmware& firmware) {
    firmware.set_version(2, 1);  // the unflushed version 2 is lost: allowed
  });
  ASSERT_TRUE(kept.outcome.done);
  EXPECT_FALSE(kept.outcome.failure) << kept.outcome.failure->second;
  EXPECT_EQ(kept.pages, 3u);  // LPNs 1, 2 and 3
  EXPECT_EQ(kept.failures, 0u);
  EXPECT_EQ(kept.stats_failures, 0u);
}

TEST(HostModel, TheVerificationReportsALostGuaranteedWrite) {
  const Verification lost = verify_after_cut([](FakeFirmware& firmware) {
    firmware.set_version(3, 0);  // the FUA write is gone
    firmware.set_version(1, 0);  // and the flushed one
  });
  EXPECT_EQ(lost.pages, 3u);
  EXPECT_EQ(lost.failures, 2u);
  EXPECT_EQ(lost.stats_failures, 2u);
  ASSERT_TRUE(lost.outcome.failure);
  EXPECT_EQ(lost.outcome.failure->first, HostModel::Failure::kIntegrity);
  EXPECT_NE(lost.outcome.failure->second.find(
                "LPN 1: expected version 1 after a power loss, operation 1 guaranteed, found "
                "version 0"),
            std::string::npos)
      << lost.outcome.failure->second;
  EXPECT_NE(lost.outcome.failure->second.find("2 failure(s) in 3 LPN(s)"), std::string::npos)
      << lost.outcome.failure->second;
}

}  // namespace
}  // namespace ssdvp::test
