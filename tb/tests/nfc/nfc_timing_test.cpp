// Latency of each operation, multi-plane speed-up, channel sharing (bus- versus die-limited) and
// the queue statistics, against times written out from the configuration (nfc_test_config.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "interface/data_tag.h"
#include "interface/nand_geometry.h"
#include "tb/tests/nfc/nfc_bench.h"
#include "tb/tests/nfc/nfc_test_config.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {
namespace {

constexpr auto io_list = NfcBench::io_list;

uint64_t now_ps() { return to_ps(sc_core::sc_time_stamp()); }

// User-data io entries: slot `first_slot + i`, spare buffer `first_oob + i` when with_oob.
void write_io_list(NfcBench& bench, uint32_t list, uint32_t entries, uint32_t first_slot,
                   bool with_oob, uint32_t first_oob = 0) {
  std::vector<nfc_io_t> io(entries);
  for (uint32_t i = 0; i < entries; ++i) {
    io[i].buffer = bench.slot(first_slot + i);
    io[i].oob = with_oob ? NfcBench::oob(first_oob + i) : 0;
  }
  bench.write_mem(io_list(list), io.data(), entries * sizeof(nfc_io_t));
}

void write_tags(NfcBench& bench, uint32_t first_slot, uint32_t count, uint32_t first_lpn) {
  for (uint32_t i = 0; i < count; ++i) {
    const data_tag_t tag{first_lpn + i, 1};
    bench.write_mem(bench.slot(first_slot + i), &tag, sizeof(tag));
  }
}

TEST(NfcTiming, ReadLatencyOfEachQlcPageType) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  bench.spawn([&] {
    bench.start();
    write_tags(bench, 0, 4, 10);
    write_io_list(bench, 0, 4, 0, false);
    bench.submit({descriptor(NFC_OP_PROGRAM, 1, bench.page(0, 1, 0), 1, io_list(0))});
    ASSERT_EQ(bench.collect(1).at(0).completion.status, NFC_STATUS_OK);
    for (uint32_t type = NAND_PAGE_LSB; type <= NAND_PAGE_MSB; ++type) {
      write_io_list(bench, 1, 1, 20, true, 3);
      const uint64_t submitted = now_ps();
      bench.submit({descriptor(NFC_OP_READ, 2, bench.page(0, 1, type), 1,
                               io_list(1))});
      const NfcBench::Seen seen = bench.collect(1).at(0);
      // Fetch (descriptor, io list), address cycles, tR, data out with its column command,
      // decode, data (a tag charged as a page) and spare to memory; then the completion write.
      const uint64_t posted = e.dma(NFC_DESC_BYTES) + e.dma(NFC_IO_BYTES) + e.cmd() +
                              e.t_read(type) + e.cmd() + e.page_on_bus() + e.ecc() +
                              e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes);
      EXPECT_EQ(seen.completion.status, NFC_STATUS_OK);
      EXPECT_EQ(seen.completion.latency_ns, posted / 1000) << "page type " << type;
      EXPECT_EQ(seen.time_ps - submitted, posted + e.dma(NFC_COMPLETION_BYTES))
          << "page type " << type;
      EXPECT_EQ(bench.read_object<data_tag_t>(bench.slot(20)).lpn, 10 + type);
    }
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcTiming, ProgramIsOneFullSequenceProgramAfterItsDataAndEraseIsTBers) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  bench.spawn([&] {
    bench.start();
    uint64_t submitted = now_ps();
    bench.submit({descriptor(NFC_OP_ERASE, 1, bench.page(1, 2, 0), 1, 0)});
    NfcBench::Seen seen = bench.collect(1).at(0);
    uint64_t posted = e.dma(NFC_DESC_BYTES) + e.cmd() + e.nand.erase_ps;
    EXPECT_EQ(seen.completion.status, NFC_STATUS_OK);
    EXPECT_EQ(seen.completion.latency_ns, posted / 1000);
    EXPECT_EQ(seen.time_ps - submitted, posted + e.dma(NFC_COMPLETION_BYTES));

    write_tags(bench, 0, 4, 100);
    write_io_list(bench, 0, 4, 0, true);
    submitted = now_ps();
    bench.submit({descriptor(NFC_OP_PROGRAM, 2, bench.page(1, 2, 0), 1, io_list(0))});
    seen = bench.collect(1).at(0);
    // Every page's data and spare from memory, every page on the bus with its command, then
    // one tPROG for the whole wordline.
    const uint64_t bits = e.bits();
    posted = e.dma(NFC_DESC_BYTES) + e.dma(bits * NFC_IO_BYTES) +
             bits * (e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes)) +
             bits * (e.cmd() + e.page_on_bus()) + e.nand.program_ps;
    EXPECT_EQ(seen.completion.status, NFC_STATUS_OK);
    EXPECT_EQ(seen.completion.latency_ns, posted / 1000);
    EXPECT_EQ(seen.time_ps - submitted, posted + e.dma(NFC_COMPLETION_BYTES));
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcTiming, MultiPlaneReadCostsOneTrForBothPlanes) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  const uint32_t type = NAND_PAGE_CMSB;
  bench.spawn([&] {
    bench.start();
    // A two-plane read of page 2 of block 3 on planes 0 and 1.
    write_io_list(bench, 0, 2, 0, true);
    uint64_t submitted = now_ps();
    bench.submit({descriptor(NFC_OP_READ, 1, bench.page(0, 3, type), 2, io_list(0))});
    const NfcBench::Seen multi = bench.collect(1).at(0);
    const uint64_t plane_out = e.cmd() + e.page_on_bus();
    const uint64_t out_start = e.dma(NFC_DESC_BYTES) + e.dma(2 * NFC_IO_BYTES) + 2 * e.cmd() +
                               e.t_read(type);
    // Plane 0's page decodes while plane 1's transfers.
    const uint64_t decoded0 = out_start + plane_out + e.ecc();
    const uint64_t decoded1 = std::max(decoded0, out_start + 2 * plane_out) + e.ecc();
    const uint64_t multi_posted =
        decoded1 + 2 * (e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes));
    EXPECT_EQ(multi.completion.status, NFC_STATUS_ERASED);
    EXPECT_EQ(multi.completion.plane_mask, 0b11);
    EXPECT_EQ(multi.completion.latency_ns, multi_posted / 1000);

    // The same two pages as two single-plane reads of the same die: the second waits.
    write_io_list(bench, 1, 1, 4, true, 4);
    write_io_list(bench, 2, 1, 5, true, 5);
    submitted = now_ps();
    bench.submit({descriptor(NFC_OP_READ, 2, bench.page(0, 3, type), 1, io_list(1)),
                  descriptor(NFC_OP_READ, 3, bench.page(1, 3, type), 1, io_list(2))});
    const std::vector<NfcBench::Seen> serial = bench.collect(2);
    const uint64_t fetch = e.dma(NFC_DESC_BYTES) + e.dma(NFC_IO_BYTES);
    const uint64_t first_out_end = fetch + e.cmd() + e.t_read(type) + plane_out;
    const uint64_t deliver = e.ecc() + e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes);
    const uint64_t second_out_end = first_out_end + e.cmd() + e.t_read(type) + plane_out;
    ASSERT_EQ(serial.size(), 2u);
    EXPECT_EQ(serial[0].completion.latency_ns, (first_out_end + deliver) / 1000);
    EXPECT_EQ(serial[1].completion.latency_ns, (second_out_end + deliver) / 1000);
    EXPECT_EQ(serial[1].time_ps - submitted,
              second_out_end + deliver + e.dma(NFC_COMPLETION_BYTES));
    // The speed-up: one array read saved, less the second page's DMA the two-plane read does
    // after its decode and its longer io list.
    EXPECT_EQ(second_out_end + deliver - multi_posted,
              e.t_read(type) - (e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes)) -
                  (e.dma(2 * NFC_IO_BYTES) - e.dma(NFC_IO_BYTES)));
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcTiming, MultiPlaneProgramCostsOneTProgForBothPlanes) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  bench.spawn([&] {
    bench.start();
    const uint64_t bits = e.bits();
    const uint64_t page_in = e.dma(e.nand.page_bytes) + e.dma(e.nand.oob_bytes);
    const uint64_t page_bus = e.cmd() + e.page_on_bus();
    write_tags(bench, 0, 8, 0);
    write_io_list(bench, 0, 8, 0, true);
    bench.submit({descriptor(NFC_OP_PROGRAM, 1, bench.page(0, 4, 0), 2, io_list(0))});
    const NfcBench::Seen multi = bench.collect(1).at(0);
    const uint64_t multi_posted = e.dma(NFC_DESC_BYTES) + e.dma(2 * bits * NFC_IO_BYTES) +
                                  2 * bits * (page_in + page_bus) + e.nand.program_ps;
    EXPECT_EQ(multi.completion.status, NFC_STATUS_OK);
    EXPECT_EQ(multi.completion.latency_ns, multi_posted / 1000);

    // Two single-plane programs of the same die, fetched together: the first's write data waits
    // for the second's fetch on the DMA engine; the second starts once the first has completed.
    write_io_list(bench, 1, 4, 0, true);
    write_io_list(bench, 2, 4, 4, true);
    const uint64_t submitted = now_ps();
    bench.submit({descriptor(NFC_OP_PROGRAM, 2, bench.page(0, 5, 0), 1, io_list(1)),
                  descriptor(NFC_OP_PROGRAM, 3, bench.page(1, 5, 0), 1, io_list(2))});
    const std::vector<NfcBench::Seen> serial = bench.collect(2);
    const uint64_t fetch = e.dma(NFC_DESC_BYTES) + e.dma(bits * NFC_IO_BYTES);
    const uint64_t first_posted = 2 * fetch + bits * (page_in + page_bus) + e.nand.program_ps;
    const uint64_t second_posted = first_posted + e.dma(NFC_COMPLETION_BYTES) +
                                   bits * (page_in + page_bus) + e.nand.program_ps;
    ASSERT_EQ(serial.size(), 2u);
    EXPECT_EQ(serial[0].completion.latency_ns, first_posted / 1000);
    EXPECT_EQ(serial[1].completion.latency_ns, second_posted / 1000);
    EXPECT_EQ(serial[1].time_ps - submitted, second_posted + e.dma(NFC_COMPLETION_BYTES));
    EXPECT_GT(second_posted, multi_posted + e.nand.program_ps);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

// `reads` LSB-page reads on every die of a bench, submitted at once, dies interleaved; returns
// when the last completion was seen.
uint64_t read_on_every_die(NfcBench& bench, uint32_t reads) {
  const nand::Geometry& g = bench.nfc.nand().geometry();
  std::vector<nfc_desc_t> batch;
  write_io_list(bench, 0, 1, 0, false);
  for (uint32_t round = 0; round < reads; ++round) {
    for (uint32_t channel = 0; channel < g.channels(); ++channel) {
      for (uint32_t way = 0; way < g.ways(); ++way) {
        batch.push_back(descriptor(NFC_OP_READ, round, bench.ppn(channel, way, 0, 0, round, 0), 1,
                                   io_list(0)));
      }
    }
  }
  bench.start();
  const uint64_t start = now_ps();
  bench.submit(batch);
  const std::vector<NfcBench::Seen> seen = bench.collect(batch.size());
  EXPECT_EQ(seen.size(), batch.size());
  return now_ps() - start;
}

NandConfig shared_bus_device(uint32_t channels, uint32_t ways, uint32_t bus_rate_mts) {
  NandConfig config = test_nand();
  config.channels = channels;
  config.ways = ways;
  config.bus_rate_mts = bus_rate_mts;
  return config;
}

TEST(NfcTiming, DiesOnOneChannelAreBusLimitedOnASlowBusAndDieLimitedOnAFastOne) {
  constexpr uint32_t kDies = 4;
  constexpr uint32_t kReads = 8;  // per die
  constexpr uint32_t kSlowBus = 50;     // MT/s: a page transfer outlasts tR
  constexpr uint32_t kFastBus = 1200;
  NfcConfig nfc = test_nfc();
  nfc.dma_bandwidth_mbs = 1'000'000;  // DMA out of the way: the comparison is about the channels
  NfcBench slow_shared("slow_shared", shared_bus_device(1, kDies, kSlowBus), nfc, kSramLatencyPs);
  NfcBench slow_apart("slow_apart", shared_bus_device(kDies, 1, kSlowBus), nfc, kSramLatencyPs);
  NfcBench fast_shared("fast_shared", shared_bus_device(1, kDies, kFastBus), nfc, kSramLatencyPs);
  NfcBench fast_apart("fast_apart", shared_bus_device(kDies, 1, kFastBus), nfc, kSramLatencyPs);
  uint64_t time[4] = {};
  NfcBench* benches[4] = {&slow_shared, &slow_apart, &fast_shared, &fast_apart};
  for (int i = 0; i < 4; ++i) {
    benches[i]->spawn([&, i] { time[i] = read_on_every_die(*benches[i], kReads); });
  }
  sc_core::sc_start();
  for (NfcBench* bench : benches) EXPECT_TRUE(bench->errors.empty());

  const auto expected = [&](uint32_t rate) {
    return Expected{shared_bus_device(1, kDies, rate), nfc, kSramLatencyPs};
  };
  const Expected slow = expected(kSlowBus);
  const Expected fast = expected(kFastBus);
  // Per read: the bus carries the address cycles and the data out (with its column command);
  // the die is busy for those and tR.
  const auto bus_per_read = [](const Expected& e) { return 2 * e.cmd() + e.page_on_bus(); };
  const auto die_per_read = [&](const Expected& e) { return bus_per_read(e) + e.t_read(0); };
  // Fetching, the last decode and the last completion add a little after the last transfer.
  const uint64_t tail = slow.ecc() + 1 * kUs;

  // Slow bus, one channel: the bus carries every die's transfers one after the other.
  const uint64_t bus_work = uint64_t{kDies} * kReads * bus_per_read(slow);
  ASSERT_GT(bus_per_read(slow) * kDies, die_per_read(slow)) << "not a bus-limited device";
  EXPECT_GE(time[0], bus_work);
  EXPECT_LE(time[0], bus_work + slow.t_read(0) + tail);
  // Slow bus, a channel per die: each die reads back to back.
  const uint64_t die_work = kReads * die_per_read(slow);
  EXPECT_GE(time[1], die_work);
  EXPECT_LE(time[1], die_work + tail);
  EXPECT_GT(static_cast<double>(time[0]) / time[1], 0.95 * bus_work / (die_work + tail));

  // Fast bus: the dies dominate, sharing the bus costs at most the other dies' transfers.
  ASSERT_LT(bus_per_read(fast) * kDies, die_per_read(fast)) << "not a die-limited device";
  const uint64_t fast_die_work = kReads * die_per_read(fast);
  EXPECT_GE(time[3], fast_die_work);
  EXPECT_LE(time[3], fast_die_work + tail);
  EXPECT_GE(time[2], fast_die_work);
  EXPECT_LE(time[2], fast_die_work + kReads * (kDies - 1) * bus_per_read(fast) + tail);
  EXPECT_LT(static_cast<double>(time[2]) / time[3], 1.25);
}

TEST(NfcTiming, QueueDepthBusyTimeAndUtilisationOfADie) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  nlohmann::json nand;
  nlohmann::json nfc;
  uint64_t end = 0;
  bench.spawn([&] {
    bench.start();
    write_io_list(bench, 0, 1, 0, false);
    std::vector<nfc_desc_t> reads;
    for (uint32_t i = 0; i < 3; ++i) {
      reads.push_back(descriptor(NFC_OP_READ, i, bench.page(0, i, 0), 1, io_list(0)));
    }
    bench.submit(reads);  // at time 0
    bench.collect(3);
    end = now_ps();
    bench.nfc.report(nand, nfc, end);
  });
  sc_core::sc_start();
  ASSERT_TRUE(bench.errors.empty()) << bench.errors.front();

  // Arrivals as each fetch ends; departures as each read's data out ends.
  const uint64_t fetch = e.dma(NFC_DESC_BYTES) + e.dma(NFC_IO_BYTES);
  const uint64_t period = 2 * e.cmd() + e.t_read(0) + e.page_on_bus();
  const uint64_t arrive[3] = {fetch, 2 * fetch, 3 * fetch};
  const uint64_t leave[3] = {fetch + period, fetch + 2 * period, fetch + 3 * period};
  long double area = 0;
  for (int i = 0; i < 3; ++i) area += leave[i] - arrive[i];
  const nlohmann::json& die = nand["dies"][0];
  EXPECT_EQ(die["queue_depth"]["max"], 3u);
  EXPECT_NEAR(die["queue_depth"]["mean"].get<double>(), static_cast<double>(area / end), 1e-9);
  EXPECT_EQ(die["busy_ps"], 3 * period);
  EXPECT_EQ(die["array_busy_ps"], 3 * e.t_read(0));
  EXPECT_EQ(die["state_ps"]["read"], 3 * e.t_read(0));
  EXPECT_EQ(die["state_ps"]["transfer_out"], 3 * (e.cmd() + e.page_on_bus()));
  EXPECT_NEAR(die["utilisation"].get<double>(), 3.0 * period / end, 1e-12);
  const nlohmann::json& channel = nand["channels"][0];
  EXPECT_EQ(channel["busy_ps"], 3 * (2 * e.cmd() + e.page_on_bus()));
  EXPECT_EQ(channel["bytes"], 3 * (e.nand.page_bytes + e.nand.oob_bytes));
  EXPECT_EQ(nand["operations"]["read"]["count"], 3u);
  EXPECT_EQ(nand["reads_by_page_type"]["lsb"]["count"], 3u);
  EXPECT_EQ(nand["statuses"]["erased"], 3u);
  EXPECT_EQ(nfc["descriptors"], 3u);
  EXPECT_EQ(nfc["outstanding"]["max"], 3u);
}

}  // namespace
}  // namespace ssdvp::test
