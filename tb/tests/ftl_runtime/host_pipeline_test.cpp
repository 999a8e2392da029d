// The host pipeline (firmware/ftl/host_pipeline.c) with the write-buffer flush, the TP store and
// the task queues, booted by ftl_init and run by the firmware's main loop over the fake flash and
// the fake HIC (ftl_harness.h): what the host sees for reads, writes, trims and flushes, when
// commands complete, and what lands on flash.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "tb/tests/ftl_runtime/ftl_harness.h"
#include "tb/tests/ftl_store/hal_stubs.h"

extern "C" {
#include "ftl/core.h"
#include "oob_layout.h"
}

namespace ssdvp::test {
namespace {

constexpr uint32_t kLpns = kSmallMlcLpns;
constexpr uint32_t kUnitPages = kSmallMlcProgramPages;

struct HostPipelineTest : ::testing::Test {
  FtlHarness ftl{small_mlc_setup(BOOT_SCHEME_IDEAL)};

  uint32_t mapped_vpn(uint32_t lpn) const { return ftl.mapped_vpn(lpn); }
};

TEST_F(HostPipelineTest, AWriteThenAReadOfTheSameLpnIsServedFromTheWriteBuffer) {
  ftl.write(5);
  EXPECT_EQ(ftl.flash().programs(), 0u) << "one page is less than a wordline: it stays buffered";
  EXPECT_EQ(ftl.read(5), std::vector<uint32_t>{ftl.expected_version(5)});
  EXPECT_EQ(ftl.flash().reads(), 0u);
  EXPECT_EQ(ftl.counter("cache.read_hits"), 1u);
  EXPECT_EQ(ftl.counter("host_commands"), 2u);
}

TEST_F(HostPipelineTest, AReadOfAnLpnNeverWrittenReturnsNoDataWithoutAFlashRead) {
  EXPECT_EQ(ftl.read(7, 3), (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(ftl.flash().reads(), 0u);
  EXPECT_EQ(ftl.counter("map.lookups"), 3u);
}

TEST_F(HostPipelineTest, AWholeWordlineIsProgrammedWithEachPagesLpnInItsOob) {
  ftl.write(100, kUnitPages);
  EXPECT_EQ(ftl.flash().programs(), 1u);
  for (uint32_t lpn = 100; lpn < 100 + kUnitPages; ++lpn) {
    uint32_t vpn = mapped_vpn(lpn);
    ASSERT_NE(vpn, VPN_UNMAPPED);
    EXPECT_EQ(ftl.flash().oob(vpn)[OOB_WORD_OWNER], lpn);
    EXPECT_EQ(ftl.flash().data(vpn)[0], lpn);
    EXPECT_EQ(ftl.flash().data(vpn)[1], ftl.expected_version(lpn));
    EXPECT_TRUE(block_page_valid(&ftl_core.blocks, vpn));
  }
  // Consecutive LPNs of one program take consecutive VPNs.
  EXPECT_EQ(mapped_vpn(103), mapped_vpn(100) + 3u);
}

TEST_F(HostPipelineTest, AReadThatNeedsFlashCompletesOnlyWhenTheFlashReadDoes) {
  ftl.write(40, kUnitPages);
  uint32_t vpn = mapped_vpn(41);
  ASSERT_NE(vpn, VPN_UNMAPPED);
  ASSERT_EQ(ftl_core.wb.dirty_count, 0u);

  ftl.auto_flash = false;
  uint32_t read = ftl.submit(HIC_OP_READ, 41, 1);
  ftl.run();
  EXPECT_FALSE(ftl.hic().completed(read));
  ASSERT_EQ(ftl.flash().in_flight().size(), 1u);
  EXPECT_EQ(ftl.flash().in_flight()[0].kind, NFC_OP_READ);
  EXPECT_EQ(ftl.flash().in_flight()[0].vpn, vpn);
  EXPECT_TRUE(ftl.hic().transfers().empty()) << "no data before the flash read is done";

  ftl.flash().complete(0);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(read));
  EXPECT_EQ(ftl.hic().command(read).status, HIC_STATUS_OK);
  EXPECT_EQ(ftl.hic().command(read).received[0].version, ftl.expected_version(41));
  EXPECT_EQ(ftl.counter("flash_reads.host"), 1u);
}

TEST_F(HostPipelineTest, AFailedProgramIsProgrammedAgainElsewhere) {
  ftl.flash().fail_programs(1);
  ftl.write(8, kUnitPages);
  ftl.flush();
  // The failed program's pages went back to the buffer and were programmed again elsewhere.
  EXPECT_EQ(ftl.flash().programs(), 2u);
  EXPECT_EQ(ftl_core.blocks.retired_groups, 1u);
  for (uint32_t lpn = 8; lpn < 8 + kUnitPages; ++lpn) {
    EXPECT_EQ(ftl.flash().oob(mapped_vpn(lpn))[OOB_WORD_OWNER], lpn);
  }
  EXPECT_EQ(ftl.read(8, kUnitPages),
            (std::vector<uint32_t>(kUnitPages, ftl.expected_version(8))));
}

TEST_F(HostPipelineTest, AWriteCompletesOnceBufferedBeforeItsProgramIsDone) {
  ftl.auto_flash = false;
  uint32_t write = ftl.submit(HIC_OP_WRITE, 200, kUnitPages);
  ftl.run();
  EXPECT_TRUE(ftl.hic().completed(write));
  ASSERT_EQ(ftl.flash().in_flight().size(), 1u);
  EXPECT_EQ(ftl.flash().in_flight()[0].kind, NFC_OP_PROGRAM);
  // A read meanwhile is served from the buffer, not from the page being programmed.
  uint32_t read = ftl.submit(HIC_OP_READ, 202, 1);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(read));
  EXPECT_EQ(ftl.hic().command(read).received[0].version, ftl.expected_version(202));
  EXPECT_EQ(ftl.flash().reads(), 0u);
  ftl.flash().complete(0);
  ftl.run();
  EXPECT_EQ(ftl_core.wb.dirty_count, 0u);
  EXPECT_EQ(ftl.flash().oob(mapped_vpn(202))[OOB_WORD_OWNER], 202u);
}

TEST_F(HostPipelineTest, AFlushCompletesOnlyOnceTheBufferedPagesAreProgrammed) {
  ftl.write(10, 2);  // half a wordline: stays buffered
  ASSERT_EQ(ftl.flash().programs(), 0u);
  ftl.auto_flash = false;
  uint32_t flush = ftl.submit(HIC_OP_FLUSH, 0, 0);
  ftl.run();
  EXPECT_FALSE(ftl.hic().completed(flush));
  ASSERT_EQ(ftl.flash().in_flight().size(), 1u);
  const FakeFlashOp &program = ftl.flash().in_flight()[0];
  EXPECT_EQ(program.kind, NFC_OP_PROGRAM);
  // Two host pages and two filler pages.
  uint32_t host_pages = 0;
  for (const auto &oob : program.oob) {
    host_pages += oob[OOB_WORD_OWNER] != OOB_FILLER;
  }
  EXPECT_EQ(host_pages, 2u);

  ftl.flash().complete(0);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(flush));
  EXPECT_EQ(ftl.hic().command(flush).status, HIC_STATUS_OK);
  EXPECT_EQ(ftl_core.wb.dirty_count, 0u);
  for (uint32_t lpn = 10; lpn < 12; ++lpn) {
    EXPECT_EQ(ftl.flash().data(mapped_vpn(lpn))[1], ftl.expected_version(lpn));
  }
  EXPECT_EQ(ftl.counter("pages_programmed.padding.host"), 2u);
}

TEST_F(HostPipelineTest, ATrimMakesTheLpnReadAsNeverWrittenAndInvalidatesItsPage) {
  ftl.write(60, kUnitPages);
  uint32_t vpn = mapped_vpn(61);
  ASSERT_TRUE(block_page_valid(&ftl_core.blocks, vpn));
  uint32_t stripe = block_stripe_of(&ftl_core.blocks, vpn);
  uint32_t valid = ftl_core.blocks.stripes[stripe].valid_pages;
  ftl.trim(61);
  EXPECT_FALSE(block_page_valid(&ftl_core.blocks, vpn));
  EXPECT_EQ(ftl_core.blocks.stripes[stripe].valid_pages, valid - 1u);
  EXPECT_EQ(mapped_vpn(61), VPN_UNMAPPED);
  EXPECT_EQ(ftl.read(60, 3), (std::vector<uint32_t>{ftl.expected_version(60), 0,
                                                    ftl.expected_version(62)}));
}

TEST_F(HostPipelineTest, ATrimOfABufferedPageDropsItFromTheBuffer) {
  ftl.write(70);
  ASSERT_EQ(ftl_core.wb.dirty_count, 1u);
  ftl.trim(70);
  EXPECT_EQ(ftl_core.wb.dirty_count, 0u);
  EXPECT_EQ(ftl.read(70), std::vector<uint32_t>{0});
  ftl.flush();
  EXPECT_EQ(ftl.counter("pages_programmed.host"), 0u);
}

TEST_F(HostPipelineTest, CommandsOnTheSameLpnTakeEffectInSubmissionOrder) {
  // Submitted together: each read sees the write submitted just before it, whatever order the
  // flash completes in.
  ftl.write(300, kUnitPages);
  ftl.flash().set_wait_for_interrupt(
      [](FakeFlash &flash) { flash.complete(flash.in_flight().size() - 1); });
  std::vector<uint32_t> handles;
  std::vector<uint32_t> expected;
  for (int round = 0; round < 4; ++round) {
    handles.push_back(ftl.submit(HIC_OP_READ, 301, 1));
    expected.push_back(ftl.expected_version(301));
    ftl.submit(HIC_OP_WRITE, 301, 1);
    ftl.submit(round == 2 ? HIC_OP_TRIM : HIC_OP_WRITE, 302, 1);
    handles.push_back(ftl.submit(HIC_OP_READ, 302, 1));
    expected.push_back(ftl.expected_version(302));
  }
  ftl.run();
  for (size_t i = 0; i < handles.size(); ++i) {
    ASSERT_TRUE(ftl.hic().completed(handles[i]));
    EXPECT_EQ(ftl.hic().command(handles[i]).received[0].version, expected[i]) << "read " << i;
  }
  // Requests on one LPN finish in dispatch order, so their commands complete in that order.
  std::map<uint32_t, uint32_t> last_completed;  // LPN -> handle
  for (uint32_t handle : ftl.hic().completion_order()) {
    uint32_t lpn = ftl.hic().command(handle).lpn;
    if (ftl.hic().command(handle).pages == 1 && (lpn == 301 || lpn == 302)) {
      auto found = last_completed.find(lpn);
      if (found != last_completed.end()) {
        EXPECT_LT(found->second, handle) << "LPN " << lpn;
      }
      last_completed[lpn] = handle;
    }
  }
}

TEST_F(HostPipelineTest, ACommandBeyondTheDeviceCompletesInvalid) {
  uint32_t read = ftl.submit(HIC_OP_READ, kLpns - 1, 2);
  uint32_t empty = ftl.submit(HIC_OP_WRITE, 0, 0);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(read));
  EXPECT_EQ(ftl.hic().command(read).status, HIC_STATUS_INVALID);
  ASSERT_TRUE(ftl.hic().completed(empty));
  EXPECT_EQ(ftl.hic().command(empty).status, HIC_STATUS_INVALID);
  EXPECT_EQ(ftl.flash().reads() + ftl.flash().programs(), 0u);
}

TEST_F(HostPipelineTest, APartialPageWriteMergesWithTheOldDataOnFlash) {
  ftl.write(500, kUnitPages);
  ASSERT_EQ(ftl_core.wb.dirty_count, 0u);
  uint32_t reads = (uint32_t)ftl.flash().reads();
  uint32_t write = ftl.submit(HIC_OP_WRITE, 501, 1, HIC_CMD_PARTIAL_FIRST);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(write));
  EXPECT_EQ(ftl.flash().reads(), reads + 1u) << "the old data is read first";
  EXPECT_EQ(ftl.counter("flash_reads.rmw"), 1u);
  EXPECT_EQ(ftl.counter("partial_page_merges"), 1u);
  EXPECT_EQ(ftl.read(501), std::vector<uint32_t>{ftl.expected_version(501)});
}

// A scheme that caches only part of the table: reads of LPNs whose TP is not cached load it from
// flash first, and everything still reads back as written.
TEST(HostPipelineDftl, ReadsThatMissTheMappingCacheLoadTheirTranslationPage) {
  FtlSetup setup = small_mlc_setup(BOOT_SCHEME_DFTL);
  setup.boot.ftl_map_budget_bytes = 1024;
  FtlHarness ftl(setup);
  for (uint32_t lpn = 0; lpn < kLpns; lpn += 16) {
    ftl.write(lpn, 16);
  }
  ftl.flush();
  uint64_t misses = ftl.counter("map.misses");
  uint64_t tp_reads = ftl.counter("flash_reads.translation");
  for (uint32_t lpn = 0; lpn < kLpns; lpn += 32) {
    std::vector<uint32_t> expected;
    for (uint32_t page = 0; page < 32; ++page) {
      expected.push_back(ftl.expected_version(lpn + page));
    }
    EXPECT_EQ(ftl.read(lpn, 32), expected) << "LPN " << lpn;
  }
  EXPECT_GT(ftl.counter("map.misses"), misses);
  EXPECT_GT(ftl.counter("flash_reads.translation"), tp_reads);
}

TEST(HostPipelineDftl, AReadWhoseMappingIsNotCachedReadsItsTranslationPageThenTheData) {
  FtlSetup setup = small_mlc_setup(BOOT_SCHEME_DFTL);
  setup.boot.ftl_map_budget_bytes = 1024;
  FtlHarness ftl(setup);
  ftl.write(0, 64);
  ftl.write(kLpns - 64, 64);  // evicts the first LPNs' entries from the cache
  ftl.flush();
  // An LPN the scheme cannot translate from memory (a MISS changes nothing but counters).
  uint32_t lpn = 0;
  uint32_t tp = 0;
  while (lpn < 64 && ftl_core.scheme->lookup(lpn, nullptr, &tp) != MAP_MISS) {
    ++lpn;
  }
  ASSERT_LT(lpn, 64u) << "every LPN is cached";
  uint32_t tp_vpn = gtd_get(&ftl_core.gtd, tp);
  ASSERT_NE(tp_vpn, VPN_UNMAPPED) << "the flush wrote the TP";

  ftl.auto_flash = false;
  uint32_t read = ftl.submit(HIC_OP_READ, lpn, 1);
  ftl.run();
  ASSERT_EQ(ftl.flash().in_flight().size(), 1u);
  EXPECT_EQ(ftl.flash().in_flight()[0].kind, NFC_OP_READ);
  EXPECT_EQ(ftl.flash().in_flight()[0].vpn, tp_vpn) << "the translation page first";
  ftl.flash().complete(0);
  ftl.run();
  EXPECT_FALSE(ftl.hic().completed(read));
  ASSERT_EQ(ftl.flash().in_flight().size(), 1u);
  uint32_t data_vpn = ftl.flash().in_flight()[0].vpn;
  EXPECT_NE(data_vpn, tp_vpn);
  EXPECT_EQ(ftl.flash().oob(data_vpn)[OOB_WORD_OWNER], lpn) << "then the page the TP names";
  ftl.flash().complete(0);
  ftl.run();
  ASSERT_TRUE(ftl.hic().completed(read));
  EXPECT_EQ(ftl.hic().command(read).received[0].version, ftl.expected_version(lpn));
}

// Random commands, several in flight, flash operations completed in random order, long enough
// for GC: every read returns what the host wrote last before it.
void random_workload(uint32_t scheme, uint32_t seed) {
  FtlSetup setup = small_mlc_setup(scheme);
  if (scheme != BOOT_SCHEME_IDEAL) {
    setup.boot.ftl_map_budget_bytes = 2048;  // a part of the table: TP loads and writebacks
  }
  FtlHarness ftl(setup);
  std::mt19937 random(seed);
  ftl.flash().set_wait_for_interrupt([&random](FakeFlash &flash) {
    flash.complete(std::uniform_int_distribution<size_t>(0, flash.in_flight().size() - 1)(random));
  });
  struct Expected {
    uint32_t handle;
    std::vector<uint32_t> versions;
  };
  std::vector<Expected> reads;
  const uint32_t hot = kLpns / 2;
  for (int batch = 0; batch < 300; ++batch) {
    int commands = std::uniform_int_distribution<int>(1, 12)(random);
    for (int i = 0; i < commands; ++i) {
      uint32_t pages = std::uniform_int_distribution<uint32_t>(1, 8)(random);
      uint32_t span = random() % 4 == 0 ? kLpns : hot;
      uint32_t lpn = std::uniform_int_distribution<uint32_t>(0, span - pages)(random);
      uint32_t kind = random() % 10;
      if (kind < 5) {
        ftl.submit(HIC_OP_WRITE, lpn, pages);
      } else if (kind < 9) {
        Expected expected{ftl.submit(HIC_OP_READ, lpn, pages), {}};
        for (uint32_t page = 0; page < pages; ++page) {
          expected.versions.push_back(ftl.expected_version(lpn + page));
        }
        reads.push_back(std::move(expected));
      } else {
        ftl.submit(HIC_OP_TRIM, lpn, pages);
      }
    }
    ftl.run();
  }
  for (const Expected &expected : reads) {
    const FakeHic::Command &command = ftl.hic().command(expected.handle);
    ASSERT_TRUE(command.completed);
    ASSERT_EQ(command.status, HIC_STATUS_OK);
    for (uint32_t page = 0; page < command.pages; ++page) {
      ASSERT_EQ(command.received[page].version, expected.versions[page])
          << "LPN " << command.lpn + page << " of read " << expected.handle;
    }
  }
  EXPECT_GT(ftl.counter("gc.invocations"), 10u) << "the workload should have needed GC";
  EXPECT_EQ(ftl.hic().completion_order().size(), ftl.counter("host_commands"));
  EXPECT_TRUE(take_console().empty());
}

TEST(HostPipelineRandom, IdealScheme) { random_workload(BOOT_SCHEME_IDEAL, 1); }
TEST(HostPipelineRandom, Dftl) { random_workload(BOOT_SCHEME_DFTL, 2); }

}  // namespace
}  // namespace ssdvp::test
