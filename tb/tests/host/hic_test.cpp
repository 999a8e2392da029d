// The HIC on a bench of its own: command fetch into the event ring with its interrupt, widening
// of sector ranges, data transfers timed by the link, completions, arbitration, a full event ring,
// and the errors a malformed firmware request stops the run with.
//
// Times: the bench link is PCIe Gen3 x1 with 100 ns of latency, so n bytes take n x 1015.625 ps
// on the wire (8 GT/s, 128b/130b); every SRAM access takes 10 ns.
#include <gtest/gtest.h>

#include <string>

#include "interface/hic_regs.h"
#include "tb/tests/host/hic_bench.h"

namespace ssdvp::test {
namespace {

using host::HostCommand;
using host::HostOp;

constexpr uint64_t kSramPs = 10'000;
constexpr uint64_t kLatencyPs = 100'000;
constexpr uint64_t kCommandWirePs = 65'000;     // 64 bytes
constexpr uint64_t kCompletionWirePs = 16'250;  // 16 bytes
constexpr uint64_t kPageWirePs = 4'160'000;     // 4096 bytes
constexpr uint64_t kUs = 1'000'000;

uint64_t now_ps() { return static_cast<uint64_t>(sc_core::sc_time_stamp().value()); }

hic_request_t request(uint8_t kind, uint32_t cmd_id, uint32_t page_index = 0,
                      uint32_t buffer = 0, uint8_t status = HIC_STATUS_OK) {
  hic_request_t r{};
  r.kind = kind;
  r.cmd_id = cmd_id;
  r.page_index = page_index;
  r.buffer = buffer;
  r.status = status;
  return r;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Hic, RegistersDescribeTheDevice) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  bench.spawn([&] {
    EXPECT_EQ(bench.read_reg(HIC_ID), HIC_ID_VALUE);
    EXPECT_EQ(bench.read_reg(HIC_LPN_COUNT), (64u << 20) / 4096);
    EXPECT_EQ(bench.read_reg(HIC_MAX_COMMANDS), 16u);
    EXPECT_EQ(bench.read_reg(HIC_SECTOR_BYTES), 512u);
    EXPECT_EQ(bench.read_reg(HIC_PAGE_BYTES), 4096u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty());
}

TEST(Hic, CommandFetchPostsAnEventAndRaisesTheInterrupt) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  std::vector<hic_event_t> events;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    wait(sc_core::sc_time(1, sc_core::SC_US));
    bench.hic.submit(queue, HostCommand{1, HostOp::kRead, 8, 8});
    bench.wait_interrupt();
    events = bench.take_events();
  });
  sc_core::sc_start();
  ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();
  // Fetch: the 64-byte command crosses the link, then the event is written into SRAM.
  ASSERT_FALSE(bench.interrupts.empty());
  EXPECT_TRUE(bench.interrupts[0].first);
  EXPECT_EQ(bench.interrupts[0].second, 1 * kUs + kCommandWirePs + kLatencyPs + kSramPs);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, HIC_EVENT_COMMAND);
  EXPECT_EQ(events[0].op, HIC_OP_READ);
  EXPECT_EQ(events[0].cmd_id, 0u);
  EXPECT_EQ(events[0].lpn, 1u);
  EXPECT_EQ(events[0].pages, 1u);
  EXPECT_EQ(events[0].flags, 0u);
  EXPECT_EQ(events[0].first_sector, 0u);
  EXPECT_EQ(events[0].end_sector, 0u);
}

TEST(Hic, AcknowledgedInterruptStaysLowUntilTheNextEvent) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  uint32_t status_after_ack = 1;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{1, HostOp::kFlush, 0, 0});
    bench.wait_interrupt();
    bench.write_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
    status_after_ack = bench.read_reg(HIC_IRQ_STATUS);
    wait(sc_core::sc_time(1, sc_core::SC_US));
    bench.hic.submit(queue, HostCommand{2, HostOp::kFlush, 0, 0});
    bench.wait_interrupt();
  });
  sc_core::sc_start();
  EXPECT_EQ(status_after_ack, 0u);
  ASSERT_EQ(bench.interrupts.size(), 3u);
  EXPECT_TRUE(bench.interrupts[0].first);
  EXPECT_FALSE(bench.interrupts[1].first);
  EXPECT_TRUE(bench.interrupts[2].first);
  EXPECT_EQ(bench.interrupts[2].second,
            bench.interrupts[1].second + 1 * kUs + kCommandWirePs + kLatencyPs + kSramPs);
}

TEST(Hic, UnalignedSectorRangesAreWidenedToPagesWithPartialFlags) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  std::vector<hic_event_t> events;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{1, HostOp::kWrite, 3, 10});   // sectors 3..12
    bench.hic.submit(queue, HostCommand{2, HostOp::kRead, 2, 4});     // inside page 0
    bench.hic.submit(queue, HostCommand{3, HostOp::kTrim, 8, 8});     // page 1 exactly
    bench.hic.submit(queue, HostCommand{4, HostOp::kWrite, 16, 12});  // pages 2, 3 in part
    bench.hic.submit(queue, HostCommand{5, HostOp::kFlush, 0, 0});
    wait(sc_core::sc_time(10, sc_core::SC_US));
    events = bench.take_events();
  });
  sc_core::sc_start();
  ASSERT_EQ(events.size(), 5u);
  const auto expect = [&](size_t i, uint8_t op, uint32_t lpn, uint32_t pages, uint16_t first,
                          uint16_t end, uint16_t flags) {
    SCOPED_TRACE(i);
    EXPECT_EQ(events[i].op, op);
    EXPECT_EQ(events[i].lpn, lpn);
    EXPECT_EQ(events[i].pages, pages);
    EXPECT_EQ(events[i].first_sector, first);
    EXPECT_EQ(events[i].end_sector, end);
    EXPECT_EQ(events[i].flags, flags);
  };
  const uint16_t both = HIC_CMD_PARTIAL_FIRST | HIC_CMD_PARTIAL_LAST;
  expect(0, HIC_OP_WRITE, 0, 2, 3, 5, both);
  expect(1, HIC_OP_READ, 0, 1, 2, 6, both);
  expect(2, HIC_OP_TRIM, 1, 1, 0, 0, 0);
  expect(3, HIC_OP_WRITE, 2, 2, 0, 4, HIC_CMD_PARTIAL_LAST);
  expect(4, HIC_OP_FLUSH, 0, 0, 0, 0, 0);
  for (uint32_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].cmd_id, i);
}

TEST(Hic, DataInWritesTheHostTagIntoTheSlotAfterTheLinkTransfer) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  const uint32_t buffer = HicBench::slot(0, 4096);
  data_tag_t before{}, after{};
  std::vector<hic_event_t> done;
  uint64_t done_ps = 0;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{7, HostOp::kWrite, 16, 16});  // LPNs 2 and 3
    bench.wait_interrupt();
    bench.take_events();
    bench.write_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
    wait(sc_core::sc_time(2, sc_core::SC_US) - sc_core::sc_time_stamp());
    bench.post_request(request(HIC_REQ_DATA_IN, 0, 1, buffer));
    // Request read, the page over the link, the tag written: just before, the slot is empty.
    wait(sc_core::sc_time(10 + 4160 + 95, sc_core::SC_NS));
    bench.read_mem(buffer, &before, sizeof before);
    bench.wait_interrupt();
    done_ps = now_ps();
    bench.read_mem(buffer, &after, sizeof after);
    done = bench.take_events();
  });
  sc_core::sc_start();
  ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();
  EXPECT_EQ(before.version, 0u);
  EXPECT_EQ(after.lpn, 3u);
  EXPECT_EQ(after.version, 107u);
  EXPECT_EQ(done_ps, 2 * kUs + kSramPs + kPageWirePs + kLatencyPs + kSramPs + kSramPs);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].kind, HIC_EVENT_TRANSFER_DONE);
  EXPECT_EQ(done[0].op, HIC_OP_WRITE);
  EXPECT_EQ(done[0].cmd_id, 0u);
  EXPECT_EQ(done[0].page_index, 1u);
  EXPECT_EQ(done[0].lpn, 3u);
  EXPECT_EQ(done[0].buffer, buffer);
}

TEST(Hic, DataOutHandsTheSlotTagToTheHostAfterTheLinkTransfer) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  const uint32_t full = HicBench::slot(0, 4096);
  const uint32_t partial = HicBench::slot(1, 4096);
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{4, HostOp::kRead, 40, 8});  // LPN 5
    bench.hic.submit(queue, HostCommand{5, HostOp::kRead, 49, 3});  // 3 sectors of LPN 6
    wait(sc_core::sc_time(2, sc_core::SC_US));
    const data_tag_t five{5, 9};
    const data_tag_t six{6, 2};
    bench.write_mem(full, &five, sizeof five);
    bench.write_mem(partial, &six, sizeof six);
    bench.post_request(request(HIC_REQ_DATA_OUT, 0, 0, full));
    wait(sc_core::sc_time(20, sc_core::SC_US));
    bench.post_request(request(HIC_REQ_DATA_OUT, 1, 0, partial));
  });
  sc_core::sc_start();
  ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();
  ASSERT_EQ(bench.recorder.reads.size(), 2u);
  const RecordingHost::Read& first = bench.recorder.reads[0];
  EXPECT_EQ(first.host_tag, 4u);
  EXPECT_EQ(first.lpn, 5u);
  EXPECT_EQ(first.tag.lpn, 5u);
  EXPECT_EQ(first.tag.version, 9u);
  // Request read and slot read in SRAM, then the page to the host.
  EXPECT_EQ(first.time_ps, 2 * kUs + 2 * kSramPs + kPageWirePs + kLatencyPs);
  // Only the three sectors the read covers cross the link: 1536 bytes.
  const RecordingHost::Read& second = bench.recorder.reads[1];
  EXPECT_EQ(second.host_tag, 5u);
  EXPECT_EQ(second.lpn, 6u);
  EXPECT_EQ(second.tag.version, 2u);
  EXPECT_EQ(second.time_ps, 22 * kUs + 2 * kSramPs + 1'560'000 + kLatencyPs);
}

TEST(Hic, TransfersInOneDirectionShareTheLink) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{1, HostOp::kRead, 0, 16});  // LPNs 0 and 1
    wait(sc_core::sc_time(2, sc_core::SC_US));
    bench.post_request(request(HIC_REQ_DATA_OUT, 0, 0, HicBench::slot(0, 4096)));
    bench.post_request(request(HIC_REQ_DATA_OUT, 0, 1, HicBench::slot(1, 4096)));
  });
  sc_core::sc_start();
  ASSERT_EQ(bench.recorder.reads.size(), 2u);
  const uint64_t first_leaves = 2 * kUs + 2 * kSramPs;
  EXPECT_EQ(bench.recorder.reads[0].time_ps, first_leaves + kPageWirePs + kLatencyPs);
  // The second page is ready 20 ns later but waits for the wire; latencies overlap.
  EXPECT_EQ(bench.recorder.reads[1].time_ps, first_leaves + 2 * kPageWirePs + kLatencyPs);
}

TEST(Hic, CompleteReachesTheHostAndFreesTheCommandSlot) {
  HostConfig config = bench_host_config();
  config.max_commands = 1;
  HicBench bench("bench", config, kSramPs);
  const unsigned queue = bench.hic.add_queue();
  std::vector<hic_event_t> first, second;
  uint64_t second_ps = 0;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{1, HostOp::kFlush, 0, 0});
    bench.hic.submit(queue, HostCommand{2, HostOp::kFlush, 0, 0});
    wait(sc_core::sc_time(2, sc_core::SC_US));
    first = bench.take_events();
    bench.write_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
    bench.post_request(request(HIC_REQ_COMPLETE, 0));
    bench.wait_interrupt();
    second_ps = now_ps();
    second = bench.take_events();
  });
  sc_core::sc_start();
  ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();
  ASSERT_EQ(first.size(), 1u);  // one command slot: the second command waits in its queue
  ASSERT_EQ(bench.recorder.completions.size(), 1u);
  EXPECT_EQ(bench.recorder.completions[0].host_tag, 1u);
  EXPECT_EQ(bench.recorder.completions[0].status, HIC_STATUS_OK);
  const uint64_t completed_ps = 2 * kUs + kSramPs;  // the request read
  EXPECT_EQ(bench.recorder.completions[0].time_ps, completed_ps + kCompletionWirePs + kLatencyPs);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].cmd_id, 0u);
  EXPECT_EQ(second_ps, completed_ps + kCommandWirePs + kLatencyPs + kSramPs);
}

TEST(Hic, QueuesAreFetchedRoundRobin) {
  HostConfig config = bench_host_config();
  config.max_commands = 1;
  HicBench bench("bench", config, kSramPs);
  const unsigned q0 = bench.hic.add_queue();
  const unsigned q1 = bench.hic.add_queue();
  std::vector<uint32_t> lpns;
  bench.spawn([&] {
    bench.start_rings(16, 16);
    for (uint32_t lpn : {0u, 1u}) bench.hic.submit(q0, HostCommand{lpn, HostOp::kTrim, lpn * 8, 8});
    for (uint32_t lpn : {10u, 11u}) {
      bench.hic.submit(q1, HostCommand{lpn, HostOp::kTrim, lpn * 8, 8});
    }
    while (lpns.size() < 4) {
      bench.wait_interrupt();
      bench.write_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
      for (const hic_event_t& event : bench.take_events()) {
        lpns.push_back(event.lpn);
        bench.post_request(request(HIC_REQ_COMPLETE, event.cmd_id));
      }
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(lpns, (std::vector<uint32_t>{0, 10, 1, 11}));
}

TEST(Hic, FullEventRingHoldsEventsUntilTheFirmwareFreesAnEntry) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  uint32_t tail_while_full = 99;
  std::vector<uint32_t> cmd_ids;
  bench.spawn([&] {
    bench.start_rings(2, 16);  // two entries: one event fits
    for (uint32_t tag = 0; tag < 3; ++tag) {
      bench.hic.submit(queue, HostCommand{tag, HostOp::kFlush, 0, 0});
    }
    wait(sc_core::sc_time(5, sc_core::SC_US));
    tail_while_full = bench.read_reg(HIC_EVQ_TAIL);
    while (cmd_ids.size() < 3) {
      for (const hic_event_t& event : bench.take_events()) cmd_ids.push_back(event.cmd_id);
      wait(sc_core::sc_time(1, sc_core::SC_US));
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(tail_while_full, 1u);
  EXPECT_EQ(cmd_ids, (std::vector<uint32_t>{0, 1, 2}));
  nlohmann::json report;
  bench.hic.report(report);
  EXPECT_EQ(report["max_event_ring_occupancy"], 1u);
  EXPECT_GE(report["event_ring_full_waits"].get<uint64_t>(), 1u);
}

// A reset after the HIC stopped with commands held and queued, events unread, the interrupt high
// and two page transfers on the link leaves nothing of them behind: the next command is fetched
// into slot 0 on an idle link, and nothing from before reaches the host or the SRAM.
TEST(Hic, ResetReturnsThePowerOnState) {
  HostConfig config = bench_host_config();
  config.max_commands = 2;
  HicBench bench("bench", config, kSramPs);
  const unsigned queue = bench.hic.add_queue();
  const uint32_t slot0 = HicBench::slot(0, 4096);
  const uint32_t slot1 = HicBench::slot(1, 4096);
  std::vector<hic_event_t> events;
  uint64_t submitted_ps = 0, event_ps = 0;
  bench.spawn([&] {
    bench.start_rings(4, 4);
    bench.hic.submit(queue, HostCommand{1, HostOp::kWrite, 16, 16});  // LPNs 2 and 3
    bench.hic.submit(queue, HostCommand{2, HostOp::kRead, 40, 8});
    bench.hic.submit(queue, HostCommand{3, HostOp::kFlush, 0, 0});    // waits for a slot
    wait(sc_core::sc_time(2, sc_core::SC_US));
    ASSERT_EQ(bench.take_events().size(), 2u);
    bench.post_request(request(HIC_REQ_DATA_IN, 0, 0, slot0));
    bench.post_request(request(HIC_REQ_DATA_IN, 0, 1, slot1));
    bench.post_request(request(HIC_REQ_COMPLETE, 7));
    wait(sc_core::sc_time(1, sc_core::SC_US));  // the HIC stopped; its processes wait
    ASSERT_EQ(bench.errors.size(), 1u);
    ASSERT_TRUE(bench.interrupts.back().first);

    bench.hic.reset();
    EXPECT_FALSE(bench.interrupts.back().first);
    EXPECT_FALSE(bench.hic.enabled());
    for (const uint32_t offset : {HIC_EVQ_BASE, HIC_EVQ_ENTRIES, HIC_EVQ_HEAD, HIC_EVQ_TAIL,
                                  HIC_RQ_BASE, HIC_RQ_ENTRIES, HIC_RQ_TAIL, HIC_RQ_HEAD,
                                  HIC_IRQ_STATUS, HIC_IRQ_ENABLE, HIC_ENABLE}) {
      EXPECT_EQ(bench.read_reg(offset), 0u) << "register " << offset;
    }
    EXPECT_EQ(bench.read_reg(HIC_MAX_COMMANDS), 2u);
    nlohmann::json report;
    bench.hic.report(report);
    EXPECT_EQ(report["commands_fetched"], 0);
    EXPECT_EQ(report["data_in_requests"], 0);
    EXPECT_EQ(report["link"]["to_device"]["bytes"], 0);

    bench.errors.clear();
    bench.start_rings(4, 4);
    submitted_ps = now_ps();
    bench.hic.submit(queue, HostCommand{9, HostOp::kFlush, 0, 0});
    bench.wait_interrupt();
    event_ps = now_ps();
    events = bench.take_events();
    bench.post_request(request(HIC_REQ_COMPLETE, 0));
    wait(sc_core::sc_time(20, sc_core::SC_US));  // past the end of the transfers before
    const std::vector<hic_event_t> late = bench.take_events();
    events.insert(events.end(), late.begin(), late.end());
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
  EXPECT_EQ(event_ps - submitted_ps, kCommandWirePs + kLatencyPs + kSramPs) << "an idle link";
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, HIC_EVENT_COMMAND);
  EXPECT_EQ(events[0].op, HIC_OP_FLUSH);
  EXPECT_EQ(events[0].cmd_id, 0u);
  ASSERT_EQ(bench.recorder.completions.size(), 1u);
  EXPECT_EQ(bench.recorder.completions[0].host_tag, 9u);
  data_tag_t tags[2]{};
  bench.read_mem(slot0, &tags[0], sizeof tags[0]);
  bench.read_mem(slot1, &tags[1], sizeof tags[1]);
  EXPECT_EQ(tags[0].version, 0u) << "no DATA_IN from before the reset lands";
  EXPECT_EQ(tags[1].version, 0u);
}

// ---- Malformed requests stop the run with what was wrong -------------------------------------

// Runs `firmware` after a one-page read (cmd_id 0, LPN 1) was fetched; returns the errors.
std::vector<std::string> errors_after(const std::function<void(HicBench&)>& firmware) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  const unsigned queue = bench.hic.add_queue();
  bench.spawn([&] {
    bench.start_rings(16, 16);
    bench.hic.submit(queue, HostCommand{1, HostOp::kRead, 8, 8});
    wait(sc_core::sc_time(2, sc_core::SC_US));
    bench.take_events();
    firmware(bench);
  });
  sc_core::sc_start();
  return bench.errors;
}

TEST(HicErrors, UnknownRequestKind) {
  const auto errors = errors_after([](HicBench& b) { b.post_request(request(9, 0)); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "unknown kind 9; allowed 1 (DATA_IN), 2 (DATA_OUT), 3 (COMPLETE)"))
      << errors[0];
}

TEST(HicErrors, CommandNotOutstanding) {
  const auto errors =
      errors_after([](HicBench& b) { b.post_request(request(HIC_REQ_COMPLETE, 3)); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "COMPLETE for cmd_id 3, which is not outstanding")) << errors[0];
}

TEST(HicErrors, PageIndexBeyondTheCommand) {
  const auto errors = errors_after([](HicBench& b) {
    b.post_request(request(HIC_REQ_DATA_OUT, 0, 1, HicBench::slot(0, 4096)));
  });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "page_index 1 is beyond the command's 1 page(s)")) << errors[0];
}

TEST(HicErrors, DataInForARead) {
  const auto errors = errors_after([](HicBench& b) {
    b.post_request(request(HIC_REQ_DATA_IN, 0, 0, HicBench::slot(0, 4096)));
  });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "DATA_IN for cmd_id 0, a read command")) << errors[0];
}

TEST(HicErrors, CompleteOkBeforeEveryPageMoved) {
  const auto errors =
      errors_after([](HicBench& b) { b.post_request(request(HIC_REQ_COMPLETE, 0)); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "with status OK, but page 0 was never transferred"))
      << errors[0];
}

TEST(HicErrors, CompleteWhileATransferIsInFlight) {
  const auto errors = errors_after([](HicBench& b) {
    b.post_request(request(HIC_REQ_DATA_OUT, 0, 0, HicBench::slot(0, 4096)));
    b.post_request(request(HIC_REQ_COMPLETE, 0));
  });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "while 1 of its transfers are in flight")) << errors[0];
}

TEST(HicErrors, RingSizeNotAPowerOfTwo) {
  HicBench bench("bench", bench_host_config(), kSramPs);
  bench.spawn([&] { bench.start_rings(12, 16); });
  sc_core::sc_start();
  ASSERT_EQ(bench.errors.size(), 1u);
  EXPECT_TRUE(contains(bench.errors[0], "the event ring has 12 entries; it needs a power of two"))
      << bench.errors[0];
}

TEST(HicErrors, BadHostConfigurationNamesTheKey) {
  HostConfig config = bench_host_config();
  config.capacity_bytes = (64 << 20) + 512;
  EXPECT_THROW(
      {
        try {
          host::Hic hic("hic", config, nullptr);
        } catch (const std::runtime_error& error) {
          EXPECT_TRUE(contains(error.what(), "host.capacity")) << error.what();
          EXPECT_TRUE(contains(error.what(), "host.page_size")) << error.what();
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::test
