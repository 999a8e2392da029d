// A power cut (Nfc::power_cut): every operation queued or in flight is dropped without a
// completion; a program or an erase in its array phase is interrupted on the array; a program
// still moving its data leaves the array untouched; the controller comes back in its power-on
// state on the same array.
#include <gtest/gtest.h>

#include <vector>

#include "interface/data_tag.h"
#include "interface/nfc_regs.h"
#include "nand_model/rules.h"
#include "tb/tests/nfc/nfc_bench.h"
#include "tb/tests/nfc/nfc_test_config.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {
namespace {

constexpr auto io_list = NfcBench::io_list;
constexpr uint32_t kBits = 4;  // QLC

// A program of wordline `wordline` of `block` on plane 0, tags lpn = 100 x wordline + page, its
// io list at list `list`.
nfc_desc_t program(NfcBench& bench, uint32_t id, uint32_t block, uint32_t wordline,
                   uint32_t list) {
  std::vector<nfc_io_t> io(kBits);
  for (uint32_t page = 0; page < kBits; ++page) {
    const uint32_t slot = list * kBits + page;
    const data_tag_t tag{100 * wordline + page, 1};
    bench.write_mem(bench.slot(slot), &tag, sizeof(tag));
    io[page] = nfc_io_t{bench.slot(slot), 0, 0, 0};
  }
  bench.write_mem(io_list(list), io.data(), sizeof(nfc_io_t) * kBits);
  return descriptor(NFC_OP_PROGRAM, id, bench.page(0, block, wordline * kBits), 1, io_list(list));
}

// The status every page of the wordline reads on the array now (they must agree).
nand::Status wordline_status(NfcBench& bench, uint32_t block, uint32_t wordline) {
  nand::NandArray& array = bench.nfc.nand();
  nand::PageView view;
  const nand::Status status = array.read(bench.page(0, block, wordline * kBits), view);
  for (uint32_t page = 1; page < kBits; ++page) {
    nand::PageView other;
    EXPECT_EQ(array.read(bench.page(0, block, wordline * kBits + page), other), status)
        << "block " << block << " wordline " << wordline << " page " << page;
  }
  return status;
}

TEST(NfcPowerCut, QueuedAndInFlightOperationsNeverComplete) {
  const NandConfig nand = test_nand();
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    bench.submit({program(bench, 1, 1, 0, 0)});
    ASSERT_EQ(bench.collect(1).size(), 1u);
    const uint64_t interrupts = bench.interrupts();
    // A program in its tPROG, and an erase queued behind it on the same die.
    bench.submit({program(bench, 2, 1, 1, 1),
                  descriptor(NFC_OP_ERASE, 3, bench.page(0, 2, 0), 1, 0)});
    sc_core::wait(from_ps(nand.program_ps / 2));
    ASSERT_EQ(bench.nfc.outstanding(), 2u);
    bench.nfc.power_cut();
    EXPECT_EQ(bench.nfc.outstanding(), 0u);
    EXPECT_FALSE(bench.nfc.interrupt_level());
    EXPECT_FALSE(bench.nfc.stopped());
    // Long after each would have completed: no completion, no interrupt, nothing written.
    sc_core::wait(from_ps(10 * nand.erase_ps));
    EXPECT_EQ(bench.interrupts(), interrupts);
    EXPECT_EQ(bench.read_reg(NFC_CQ_TAIL), 0u);
    EXPECT_EQ(bench.read_reg(NFC_ENABLE), 0u);
    EXPECT_EQ(bench.nfc.nand().erase_count(bench.nfc.nand().geometry().block_index(
                  bench.page(0, 2, 0))),
              0u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty());
}

TEST(NfcPowerCut, AProgramInTprogLeavesItsWordlineUnreadableAndTheEarlierOneIntact) {
  const NandConfig nand = test_nand();
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    bench.submit({program(bench, 1, 1, 0, 0)});
    bench.collect(1);
    bench.submit({program(bench, 2, 1, 1, 1)});
    sc_core::wait(from_ps(nand.program_ps / 2));
    bench.nfc.power_cut();
    EXPECT_EQ(wordline_status(bench, 1, 0), nand::Status::kOk);
    EXPECT_EQ(wordline_status(bench, 1, 1), nand::Status::kEccFail);
    EXPECT_EQ(wordline_status(bench, 1, 2), nand::Status::kErased);

    // The controller starts again on the same array: the read of wordline 0 gets its tag.
    bench.start();
    const nfc_io_t io{bench.slot(40), 0, 0, 0};
    bench.write_mem(io_list(9), &io, sizeof(io));
    bench.submit({descriptor(NFC_OP_READ, 7, bench.page(0, 1, 2), 1, io_list(9))});
    const NfcBench::Seen seen = bench.collect(1).at(0);
    EXPECT_EQ(seen.completion.id, 7u);
    EXPECT_EQ(seen.completion.status, NFC_STATUS_OK);
    EXPECT_EQ(bench.read_object<data_tag_t>(bench.slot(40)).lpn, 2u);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty());
}

TEST(NfcPowerCut, AProgramStillMovingItsDataLeavesTheArrayUntouched) {
  const NandConfig nand = test_nand();
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    bench.submit({program(bench, 1, 3, 0, 0)});
    // The DMA of four 4 KiB pages at 1000 MB/s alone takes 16 us.
    sc_core::wait(from_ps(5 * kUs));
    ASSERT_EQ(bench.nfc.outstanding(), 1u);
    bench.nfc.power_cut();
    const nand::NandArray& array = bench.nfc.nand();
    EXPECT_EQ(array.programmed_pages(array.geometry().block_index(bench.page(0, 3, 0))), 0u);
    EXPECT_EQ(wordline_status(bench, 3, 0), nand::Status::kErased);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty());
}

TEST(NfcPowerCut, AnEraseInTbersLeavesTheBlockUnusableUntilErasedAgain) {
  const NandConfig nand = test_nand();
  NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    bench.submit({program(bench, 1, 4, 0, 0)});
    bench.collect(1);
    bench.submit({descriptor(NFC_OP_ERASE, 2, bench.page(0, 4, 0), 1, 0)});
    sc_core::wait(from_ps(nand.erase_ps / 2));
    bench.nfc.power_cut();
    EXPECT_EQ(wordline_status(bench, 4, 0), nand::Status::kEccFail);
    EXPECT_EQ(wordline_status(bench, 4, 1), nand::Status::kEccFail);
    const std::optional<nand::Violation> violation =
        bench.nfc.nand().program_violation(bench.page(0, 4, 0));
    ASSERT_TRUE(violation.has_value());
    EXPECT_EQ(violation->rule, nand::Rule::kEraseCompleted);

    // Erased again, the block takes programs.
    bench.start();
    bench.submit({descriptor(NFC_OP_ERASE, 3, bench.page(0, 4, 0), 1, 0),
                  program(bench, 4, 4, 0, 1)});
    const std::vector<NfcBench::Seen> seen = bench.collect(2);
    EXPECT_EQ(seen.at(0).completion.status, NFC_STATUS_OK);
    EXPECT_EQ(seen.at(1).completion.status, NFC_STATUS_OK);
    EXPECT_EQ(wordline_status(bench, 4, 0), nand::Status::kOk);
  });
  sc_core::sc_start();
  EXPECT_TRUE(bench.errors.empty());
}

}  // namespace
}  // namespace ssdvp::test
