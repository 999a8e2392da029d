// What moves between the array and memory: tags, spare and metadata bytes, the erased pattern,
// statuses of bad blocks, worn-out blocks and injected ECC failures, the completion ring's back
// pressure, the geometry registers and the interrupt.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "interface/data_tag.h"
#include "interface/nfc_regs.h"
#include "tb/tests/nfc/nfc_bench.h"
#include "tb/tests/nfc/nfc_test_config.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {
namespace {

constexpr auto io_list = NfcBench::io_list;

constexpr uint32_t kMetaBytes = 1000;

std::vector<uint8_t> pattern(size_t length, uint8_t seed) {
  std::vector<uint8_t> bytes(length);
  for (size_t i = 0; i < length; ++i) bytes[i] = static_cast<uint8_t>(seed + i * 13);
  return bytes;
}

std::vector<uint8_t> read_bytes(NfcBench& bench, uint32_t address, uint32_t length) {
  std::vector<uint8_t> bytes(length);
  bench.read_mem(address, bytes.data(), length);
  return bytes;
}

void write_io(NfcBench& bench, uint32_t list, const std::vector<nfc_io_t>& io) {
  bench.write_mem(io_list(list), io.data(), static_cast<uint32_t>(io.size() * sizeof(nfc_io_t)));
}

// Programs wordline 0 of `block` on plane 0: user pages lpn 500 + i with spare pattern(64, i),
// except page 2, a metadata page of pattern(kMetaBytes, 77).
void program_mixed_wordline(NfcBench& bench, uint32_t block) {
  std::vector<nfc_io_t> io(4);
  for (uint32_t i = 0; i < 4; ++i) {
    const std::vector<uint8_t> spare = pattern(64, static_cast<uint8_t>(i));
    bench.write_mem(NfcBench::oob(i), spare.data(), 64);
    io[i].oob = NfcBench::oob(i);
    io[i].buffer = bench.slot(i);
    if (i == 2) {
      const std::vector<uint8_t> meta = pattern(kMetaBytes, 77);
      bench.write_mem(bench.slot(i), meta.data(), kMetaBytes);
      io[i].meta_bytes = kMetaBytes;
    } else {
      const data_tag_t tag{500 + i, 3};
      bench.write_mem(bench.slot(i), &tag, sizeof(tag));
    }
  }
  write_io(bench, 0, io);
  bench.submit({descriptor(NFC_OP_PROGRAM, 1, bench.page(0, block, 0), 1, io_list(0))});
  const std::vector<NfcBench::Seen> seen = bench.collect(1);
  ASSERT_EQ(seen.size(), 1u);
  ASSERT_EQ(seen[0].completion.status, NFC_STATUS_OK);
}

TEST(NfcData, UserTagsSpareAndMetadataBytesPersist) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    program_mixed_wordline(bench, 6);
    // Clean destinations, then read every page back, page 2 as metadata, and page 1's spare
    // area alone.
    const std::vector<uint8_t> zeros(4096, 0);
    for (uint32_t i = 10; i < 15; ++i) bench.write_mem(bench.slot(i), zeros.data(), 4096);
    std::vector<nfc_desc_t> reads;
    for (uint32_t page = 0; page < 4; ++page) {
      nfc_io_t io{bench.slot(10 + page), NfcBench::oob(10 + page), page == 2 ? kMetaBytes : 0, 0};
      write_io(bench, 1 + page, {io});
      reads.push_back(descriptor(NFC_OP_READ, 10 + page, bench.page(0, 6, page), 1,
                                 io_list(1 + page)));
    }
    write_io(bench, 5, {nfc_io_t{0, NfcBench::oob(20), 0, 0}});
    reads.push_back(descriptor(NFC_OP_READ, 20, bench.page(0, 6, 1), 1, io_list(5)));
    bench.submit(reads);
    const std::vector<NfcBench::Seen> seen = bench.collect(5);
    ASSERT_EQ(seen.size(), 5u);
    for (const NfcBench::Seen& entry : seen) {
      EXPECT_EQ(entry.completion.status, NFC_STATUS_OK) << entry.completion.id;
      EXPECT_EQ(entry.completion.plane_mask, 0u);
    }
    for (uint32_t page = 0; page < 4; ++page) {
      EXPECT_EQ(read_bytes(bench, NfcBench::oob(10 + page), 64),
                pattern(64, static_cast<uint8_t>(page)))
          << "spare of page " << page;
      if (page == 2) {
        EXPECT_EQ(read_bytes(bench, bench.slot(12), kMetaBytes), pattern(kMetaBytes, 77));
        EXPECT_EQ(read_bytes(bench, bench.slot(12) + kMetaBytes, 8), std::vector<uint8_t>(8, 0))
            << "only meta_bytes move";
      } else {
        const data_tag_t tag = bench.read_object<data_tag_t>(bench.slot(10 + page));
        EXPECT_EQ(tag.lpn, 500 + page);
        EXPECT_EQ(tag.version, 3u);
        // A tag, not a page of bytes, moves into the slot.
        EXPECT_EQ(read_bytes(bench, bench.slot(10 + page) + 8, 8), std::vector<uint8_t>(8, 0));
      }
    }
    EXPECT_EQ(read_bytes(bench, NfcBench::oob(20), 64), pattern(64, 1));
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, ErasedPagesReadTheErasedPattern) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    program_mixed_wordline(bench, 2);
    const std::vector<uint8_t> zeros(256, 0);
    bench.write_mem(bench.slot(8), zeros.data(), 256);
    bench.write_mem(bench.slot(9), zeros.data(), 256);
    bench.write_mem(NfcBench::oob(8), zeros.data(), 64);
    // The first page of wordline 1 as user data with spare, and as 200 bytes of metadata.
    write_io(bench, 1, {nfc_io_t{bench.slot(8), NfcBench::oob(8), 0, 0}});
    write_io(bench, 2, {nfc_io_t{bench.slot(9), 0, 200, 0}});
    bench.submit({descriptor(NFC_OP_READ, 1, bench.page(0, 2, 4), 1, io_list(1)),
                  descriptor(NFC_OP_READ, 2, bench.page(0, 2, 4), 1, io_list(2))});
    const std::vector<NfcBench::Seen> seen = bench.collect(2);
    ASSERT_EQ(seen.size(), 2u);
    for (const NfcBench::Seen& entry : seen) {
      EXPECT_EQ(entry.completion.status, NFC_STATUS_ERASED);
      EXPECT_EQ(entry.completion.plane_mask, 1u);
    }
    const data_tag_t tag = bench.read_object<data_tag_t>(bench.slot(8));
    EXPECT_EQ(tag.lpn, DATA_TAG_ERASED_WORD);
    EXPECT_EQ(tag.version, DATA_TAG_ERASED_WORD);
    EXPECT_EQ(read_bytes(bench, NfcBench::oob(8), 64), std::vector<uint8_t>(64, 0xFF));
    EXPECT_EQ(read_bytes(bench, bench.slot(9), 200), std::vector<uint8_t>(200, 0xFF));
    EXPECT_EQ(read_bytes(bench, bench.slot(9) + 200, 8), std::vector<uint8_t>(8, 0));
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, ABadBlockFailsItsPlaneOnlyInAMultiPlaneOperation) {
  NandConfig nand = test_nand();
  nand.bad_blocks = "0:0:0:1:7";
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    std::vector<nfc_io_t> io(8);
    for (uint32_t i = 0; i < 8; ++i) {
      const data_tag_t tag{900 + i, 1};
      bench.write_mem(bench.slot(i), &tag, sizeof(tag));
      io[i].buffer = bench.slot(i);
    }
    write_io(bench, 0, io);
    bench.submit({descriptor(NFC_OP_PROGRAM, 1, bench.page(0, 7, 0), 2, io_list(0))});
    NfcBench::Seen seen = bench.collect(1).at(0);
    EXPECT_EQ(seen.completion.status, NFC_STATUS_BAD_BLOCK);
    EXPECT_EQ(seen.completion.plane_mask, 0b10u);

    const data_tag_t untouched{1, 1};
    bench.write_mem(bench.slot(21), &untouched, sizeof(untouched));
    write_io(bench, 1, {nfc_io_t{bench.slot(20), 0, 0, 0}, nfc_io_t{bench.slot(21), 0, 0, 0}});
    bench.submit({descriptor(NFC_OP_READ, 2, bench.page(0, 7, 3), 2, io_list(1))});
    seen = bench.collect(1).at(0);
    EXPECT_EQ(seen.completion.status, NFC_STATUS_BAD_BLOCK);
    EXPECT_EQ(seen.completion.plane_mask, 0b10u);
    EXPECT_EQ(bench.read_object<data_tag_t>(bench.slot(20)).lpn, 903u);
    EXPECT_EQ(bench.read_object<data_tag_t>(bench.slot(21)).lpn, 1u) << "a bad plane moves no data";

    bench.submit({descriptor(NFC_OP_ERASE, 3, bench.page(1, 7, 0), 1, 0)});
    EXPECT_EQ(bench.collect(1).at(0).completion.status, NFC_STATUS_BAD_BLOCK);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, TheEraseBeyondTheEnduranceFailsAndRetiresTheBlock) {
  NandConfig nand = test_nand();
  nand.endurance = 2;
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    const uint32_t block = bench.page(1, 9, 0);
    std::vector<uint16_t> statuses;
    for (uint32_t id = 0; id < 4; ++id) {
      bench.submit({descriptor(NFC_OP_ERASE, id, block, 1, 0)});
      statuses.push_back(bench.collect(1).at(0).completion.status);
    }
    EXPECT_EQ(statuses, (std::vector<uint16_t>{NFC_STATUS_OK, NFC_STATUS_OK,
                                               NFC_STATUS_PROGRAM_FAIL, NFC_STATUS_BAD_BLOCK}));
    EXPECT_EQ(bench.nfc.nand().grown_bad_blocks(), 1u);
    EXPECT_EQ(bench.nfc.nand().erase_count(bench.nfc.nand().geometry().block_index(block)), 2u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, InjectedEccFailuresDeliverNothing) {
  NandConfig nand = test_nand();
  nand.ecc_fail_ppm = 1'000'000;
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    program_mixed_wordline(bench, 1);
    const data_tag_t before{42, 42};
    bench.write_mem(bench.slot(30), &before, sizeof(before));
    write_io(bench, 1, {nfc_io_t{bench.slot(30), 0, 0, 0}});
    bench.submit({descriptor(NFC_OP_READ, 1, bench.page(0, 1, 0), 1, io_list(1))});
    const NfcBench::Seen seen = bench.collect(1).at(0);
    EXPECT_EQ(seen.completion.status, NFC_STATUS_ECC_FAIL);
    EXPECT_EQ(seen.completion.plane_mask, 1u);
    EXPECT_EQ(bench.read_object<data_tag_t>(bench.slot(30)).lpn, 42u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, CompletionsWaitForRoomInTheCompletionRing) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  const Expected e{test_nand(), test_nfc(), kSramLatencyPs};
  bench.spawn([&] {
    bench.start(8, 2);  // a completion ring of 2 entries holds one completion
    std::vector<nfc_desc_t> erases;
    for (uint32_t id = 0; id < 3; ++id) {
      erases.push_back(descriptor(NFC_OP_ERASE, id, bench.page(0, id, 0), 1, 0));
    }
    bench.submit(erases);
    sc_core::wait(from_ps(4 * e.nand.erase_ps));  // all three erases are done by now
    EXPECT_EQ(bench.read_reg(NFC_CQ_TAIL), 1u);
    EXPECT_EQ(bench.nfc.outstanding(), 2u);
    EXPECT_EQ(bench.read_reg(NFC_SQ_HEAD), 3u);
    const std::vector<NfcBench::Seen> seen = bench.collect(3);
    ASSERT_EQ(seen.size(), 3u);
    for (uint32_t id = 0; id < 3; ++id) EXPECT_EQ(seen[id].completion.id, id);
    EXPECT_EQ(bench.nfc.outstanding(), 0u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

TEST(NfcData, GeometryRegistersDescribeTheArray) {
  const NandConfig nand = test_nand();
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    EXPECT_EQ(bench.read_reg(NFC_ID), NFC_ID_VALUE);
    EXPECT_EQ(bench.read_reg(NFC_CHANNELS), nand.channels);
    EXPECT_EQ(bench.read_reg(NFC_WAYS), nand.ways);
    EXPECT_EQ(bench.read_reg(NFC_DIES), nand.dies);
    EXPECT_EQ(bench.read_reg(NFC_PLANES), nand.planes);
    EXPECT_EQ(bench.read_reg(NFC_BLOCKS), nand.blocks);
    EXPECT_EQ(bench.read_reg(NFC_PAGES), nand.pages);
    EXPECT_EQ(bench.read_reg(NFC_PAGE_BYTES), nand.page_bytes);
    EXPECT_EQ(bench.read_reg(NFC_OOB_BYTES), nand.oob_bytes);
    EXPECT_EQ(bench.read_reg(NFC_BITS_PER_CELL), 4u);
  });
  sc_core::sc_start();
}

TEST(NfcData, TheInterruptFollowsStatusAndEnable) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    bench.write_reg(NFC_IRQ_ENABLE, 0);
    bench.submit({descriptor(NFC_OP_ERASE, 1, bench.page(0, 0, 0), 1, 0)});
    sc_core::wait(from_ps(2 * test_nand().erase_ps));
    EXPECT_EQ(bench.read_reg(NFC_IRQ_STATUS), NFC_IRQ_COMPLETION);
    EXPECT_FALSE(bench.nfc.interrupt_level()) << "disabled";
    bench.write_reg(NFC_IRQ_ENABLE, NFC_IRQ_COMPLETION);
    EXPECT_TRUE(bench.nfc.interrupt_level());
    bench.write_reg(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
    EXPECT_FALSE(bench.nfc.interrupt_level()) << "write 1 to clear";
    EXPECT_EQ(bench.read_reg(NFC_CQ_TAIL), 1u);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.interrupts(), 1u);
}

// A reset after wear, a grown bad block, programmed pages, injected ECC failures, a raised
// interrupt and a stop with an operation in flight leaves nothing of them behind: the same work
// runs again exactly as on a new NFC.
TEST(NfcData, ResetReturnsThePowerOnState) {
  NandConfig nand = test_nand();
  nand.endurance = 1;
  nand.ecc_fail_ppm = 500'000;
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  const nand::Geometry& geometry = bench.nfc.nand().geometry();
  // Programs wordline 0 of block 3, erases block 5 twice (the second retires it), reads page 0
  // of block 3 eight times; returns the statuses and ids of every completion.
  const auto work = [&] {
    std::vector<std::pair<uint32_t, uint16_t>> results;
    program_mixed_wordline(bench, 3);
    for (uint32_t id = 1; id <= 10; ++id) {
      write_io(bench, id, {nfc_io_t{bench.slot(id), 0, 0, 0}});
      bench.submit({id <= 2 ? descriptor(NFC_OP_ERASE, id, bench.page(0, 5, 0), 1, 0)
                            : descriptor(NFC_OP_READ, id, bench.page(0, 3, 0), 1, io_list(id))});
      const NfcBench::Seen seen = bench.collect(1).at(0);
      results.emplace_back(seen.completion.id, seen.completion.status);
    }
    return results;
  };
  bench.spawn([&] {
    bench.start(16, 4);
    const auto before = work();
    EXPECT_EQ(before[1].second, NFC_STATUS_PROGRAM_FAIL);
    EXPECT_EQ(bench.nfc.nand().grown_bad_blocks(), 1u);
    // One erase completes and raises the interrupt, the next is in flight when the NFC stops.
    bench.submit({descriptor(NFC_OP_ERASE, 90, bench.page(0, 0, 0), 1, 0)});
    sc_core::wait(from_ps(2 * nand.erase_ps));
    bench.submit({descriptor(NFC_OP_ERASE, 91, bench.page(0, 1, 0), 1, 0)});
    sc_core::wait(from_ps(kUs));  // fetched, on the die
    bench.write_reg(NFC_SQ_BASE, 0);
    ASSERT_TRUE(bench.nfc.stopped());
    ASSERT_TRUE(bench.nfc.interrupt_level());
    ASSERT_EQ(bench.nfc.outstanding(), 1u);

    bench.nfc.reset();
    EXPECT_FALSE(bench.nfc.stopped());
    EXPECT_FALSE(bench.nfc.interrupt_level());
    EXPECT_EQ(bench.nfc.outstanding(), 0u);
    for (const uint32_t offset :
         {NFC_SQ_BASE, NFC_SQ_ENTRIES, NFC_SQ_TAIL, NFC_SQ_HEAD, NFC_CQ_BASE, NFC_CQ_ENTRIES,
          NFC_CQ_HEAD, NFC_CQ_TAIL, NFC_IRQ_STATUS, NFC_IRQ_ENABLE, NFC_ENABLE}) {
      EXPECT_EQ(bench.read_reg(offset), 0u) << "register " << offset;
    }
    EXPECT_EQ(bench.read_reg(NFC_PAGES), nand.pages);
    const nand::NandArray& array = bench.nfc.nand();
    EXPECT_EQ(array.grown_bad_blocks(), 0u);
    EXPECT_EQ(array.programmed_page_count(), 0u);
    EXPECT_EQ(array.page_storage_bytes(), 0u);
    EXPECT_EQ(array.programmed_pages(geometry.block_index(bench.page(0, 3, 0))), 0u);
    EXPECT_EQ(array.erase_count(geometry.block_index(bench.page(0, 5, 0))), 0u);
    nlohmann::json nand_report, nfc_report;
    bench.nfc.report(nand_report, nfc_report, to_ps(sc_core::sc_time_stamp()));
    EXPECT_EQ(nfc_report["descriptors"], 0);
    EXPECT_EQ(nfc_report["dma"]["transfers"], 0);
    EXPECT_EQ(nand_report["operations"]["erase"]["count"], 0);

    bench.errors.clear();
    bench.start(16, 4);
    EXPECT_EQ(work(), before) << "the same statuses, ids and fault injection draws";
    sc_core::wait(from_ps(4 * nand.erase_ps));
    EXPECT_EQ(bench.read_reg(NFC_CQ_TAIL), 11u % 4) << "nothing from before the reset completes";
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty()) << bench.errors.front();
}

}  // namespace
}  // namespace ssdvp::test
