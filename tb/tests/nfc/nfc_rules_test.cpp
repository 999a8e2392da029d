// Firmware bugs stop the NFC with a message that names the descriptor, the address and the
// rule: each NAND rule, a malformed descriptor, a failed DMA and misused registers.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "interface/data_tag.h"
#include "interface/nfc_regs.h"
#include "tb/tests/nfc/nfc_bench.h"
#include "tb/tests/nfc/nfc_test_config.h"

namespace ssdvp::test {
namespace {

constexpr auto io_list = NfcBench::io_list;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `body` on a started bench and returns the one error the NFC reported.
std::string error_of(const std::function<void(NfcBench&)>& body) {
  NfcBench bench("bench", test_nand(), test_nfc(), kSramLatencyPs);
  bench.spawn([&] {
    bench.start();
    body(bench);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.errors.size(), 1u);
  EXPECT_TRUE(bench.nfc.stopped());
  return bench.errors.empty() ? "" : bench.errors.front();
}

// A program of the wordline at `page` of block 1 on plane 0 with tags in slots 0..3; a zero
// `missing` + 1 drops that entry's buffer.
nfc_desc_t program(NfcBench& bench, uint32_t page, uint32_t list, int missing = -1) {
  std::vector<nfc_io_t> io(4);
  for (uint32_t i = 0; i < 4; ++i) {
    const data_tag_t tag{i, 1};
    bench.write_mem(bench.slot(i), &tag, sizeof(tag));
    io[i].buffer = static_cast<int>(i) == missing ? 0 : bench.slot(i);
  }
  bench.write_mem(io_list(list), io.data(), sizeof(nfc_io_t) * 4);
  return descriptor(NFC_OP_PROGRAM, 100 + list, bench.page(0, 1, page), 1,
                    io_list(list));
}

TEST(NfcRules, ProgramOnlyErasedPages) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({program(bench, 0, 0)});
    ASSERT_EQ(bench.collect(1).size(), 1u);
    bench.submit({program(bench, 0, 1)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "descriptor at 0x10000020 (id 101, program of 1 plane(s)")) << error;
  EXPECT_TRUE(contains(error, "'program only erased pages'")) << error;
  EXPECT_TRUE(contains(error, "channel 0 way 0 die 0 plane 0 block 1 page 0")) << error;
}

TEST(NfcRules, WordlinesInOrderWithinABlock) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({program(bench, 8, 0)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "'wordlines in order within a block'")) << error;
  EXPECT_TRUE(contains(error, "block 1 page 8")) << error;
}

TEST(NfcRules, AFullSequenceProgramStartsAtItsLsbPage) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({program(bench, 1, 0)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "'a full-sequence program writes every page of its wordline'"))
      << error;
  EXPECT_TRUE(contains(error, "the clsb page of wordline 0")) << error;
}

TEST(NfcRules, AFullSequenceProgramWritesEveryPage) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({program(bench, 0, 0, 2)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "'a full-sequence program writes every page of its wordline'"))
      << error;
  EXPECT_TRUE(contains(error, "io entry 2 (plane 0, cmsb page) has no data buffer")) << error;
}

TEST(NfcRules, EraseBeforeReuse) {
  const std::string error = error_of([](NfcBench& bench) {
    for (uint32_t page = 0; page < 16; page += 4) bench.submit({program(bench, page, page / 4)});
    ASSERT_EQ(bench.collect(4).size(), 4u);
    bench.submit({program(bench, 0, 5)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "'erase before reuse'")) << error;
}

TEST(NfcRules, AddressesBeyondTheGeometry) {
  const std::string error = error_of([](NfcBench& bench) {
    const nfc_io_t io{bench.slot(0), 0, 0, 0};
    bench.write_mem(io_list(0), &io, sizeof(io));
    // 2 planes x 16 blocks x 16 pages: ppn 0x200 is one past the last page.
    bench.submit({descriptor(NFC_OP_READ, 7, 0x200, 1, io_list(0))});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "descriptor at 0x10000000 (id 7, read of 1 plane(s) at ppn 0x200)"))
      << error;
  EXPECT_TRUE(contains(error, "'addresses within the geometry'")) << error;
  EXPECT_TRUE(contains(error, "ppn 0 .. 0x1ff")) << error;
}

TEST(NfcRules, MultiPlaneOperationsStayWithinTheDie) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({descriptor(NFC_OP_ERASE, 8, bench.page(1, 3, 0), 2, 0)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "a 2-plane operation from plane 1 needs planes 1 .. 2")) << error;
}

TEST(NfcRules, UnknownOperation) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({descriptor(9, 1, 0, 1, 0)});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "op 9 is not an operation (allowed 1 read, 2 program, 3 erase)"))
      << error;
}

TEST(NfcRules, AFailedDmaNamesTheAddressAndTheBuffer) {
  const std::string error = error_of([](NfcBench& bench) {
    const nfc_io_t io{0x30000000, 0, 0, 0};
    bench.write_mem(io_list(0), &io, sizeof(io));
    bench.submit({descriptor(NFC_OP_READ, 1, 0, 1, io_list(0))});
    bench.collect(1);
  });
  EXPECT_TRUE(contains(error, "DMA write of 8 bytes at 0x30000000 (read data slot)")) << error;
  EXPECT_TRUE(contains(error, "TLM_ADDRESS_ERROR_RESPONSE")) << error;
}

TEST(NfcRules, RingRegistersAreFixedWhileEnabled) {
  const std::string error = error_of([](NfcBench& bench) { bench.write_reg(NFC_SQ_BASE, 0); });
  EXPECT_TRUE(contains(error, "sq_base written (0x0) while the rings are enabled")) << error;
}

// Found by nfc_descriptor_fuzzer: ENABLE cleared at the instant of a doorbell, before the fetch,
// let the NFC fetch and run the descriptors on disabled rings, where their completions waited
// forever for a CQ_HEAD the firmware may not write.
TEST(NfcRules, EnableStaysSetWhileSubmittedDescriptorsWaitForTheirFetch) {
  const std::string error = error_of([](NfcBench& bench) {
    bench.submit({descriptor(NFC_OP_ERASE, 1, bench.page(0, 0, 0), 1, 0),
                  descriptor(NFC_OP_ERASE, 2, bench.page(0, 1, 0), 1, 0)});
    bench.write_reg(NFC_ENABLE, 0);
  });
  EXPECT_TRUE(contains(error, "ENABLE cleared with 0 operation(s) outstanding and 2 "
                              "descriptor(s) submitted but not yet fetched"))
      << error;
}

TEST(NfcRules, TheDoorbellStaysInsideTheRing) {
  const std::string error = error_of([](NfcBench& bench) { bench.write_reg(NFC_SQ_TAIL, 256); });
  EXPECT_TRUE(contains(error, "SQ_TAIL = 256 is outside the 256-entry descriptor ring")) << error;
}

}  // namespace
}  // namespace ssdvp::test
