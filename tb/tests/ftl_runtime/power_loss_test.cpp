// Power loss and recovery (firmware/ftl/recovery.c) inside the FTL runtime (ftl_harness.h): a
// random workload of writes, trims and flushes, enough to keep GC collecting, with the flash
// completing its operations in random order, is cut at a random point (the program or erase each
// die runs interrupted), and the firmware boots again on the same NAND, sometimes cut again
// during that recovery. Checked for each core scheme: every LPN whose last write completed before
// the last completed flush reads back that version or a newer one the host wrote; no LPN returns
// a version it never held; then the device keeps working (more writes, trims and GC, each LPN
// reading back exactly what the host wrote last).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tb/tests/ftl_runtime/ftl_harness.h"

extern "C" {
#include "data_tag.h"
#include "hic_cmd.h"
}

namespace ssdvp::test {
namespace {

// The small device with twice the blocks, the LPNs filling half of it, and GC starting at 4 free
// stripes: with the default 2 on 32 blocks the TP schemes' flushes (padded TP programs) take the
// last free stripe before GC frees one and the firmware stops ("tp_store: no free stripe for
// translation pages"), with or without power cuts.
constexpr uint32_t kLpns = 2048;
constexpr uint32_t kBlocks = 64;
constexpr uint32_t kForeground = 4;

FtlSetup setup(uint32_t scheme, uint32_t sram_bytes = FtlSetup{}.sram_bytes) {
  FtlSetup small = small_mlc_setup(scheme);
  small.sram_bytes = sram_bytes;
  small.geometry.blocks = kBlocks;
  small.lpn_count = kLpns;
  small.boot.ftl_gc_foreground_free = kForeground;
  small.boot.ftl_gc_background_free = 2 * kForeground;
  return small;
}
constexpr uint32_t kRandomSteps = 1500;

// What the host may expect of each LPN after a cut.
struct Oracle {
  std::map<uint32_t, std::vector<uint32_t>> written;  // versions submitted, in order
  std::map<uint32_t, uint32_t> completed;              // the last write completed
  std::map<uint32_t, uint32_t> guaranteed;             // the last write a completed flush covers
  std::set<uint32_t> trimmed;                          // a trim completed: any version it held

  // Checks what LPN `lpn` read back after recovery.
  void check(uint32_t lpn, uint32_t version) const {
    auto found = guaranteed.find(lpn);
    bool loose = trimmed.count(lpn) != 0 || found == guaranteed.end();
    if (version == DATA_TAG_VERSION_NONE) {
      EXPECT_TRUE(loose) << "LPN " << lpn << " lost version " << found->second
                         << ", which a completed flush covered";
      return;
    }
    auto history = written.find(lpn);
    ASSERT_NE(history, written.end()) << "LPN " << lpn << " returned version " << version
                                      << " but was never written";
    const std::vector<uint32_t> &versions = history->second;
    auto at = std::find(versions.begin(), versions.end(), version);
    ASSERT_NE(at, versions.end()) << "LPN " << lpn << " returned version " << version
                                  << ", which it never held";
    if (!loose) {
      auto floor = std::find(versions.begin(), versions.end(), found->second);
      EXPECT_GE(at - floor, 0) << "LPN " << lpn << " returned version " << version
                               << ", older than version " << found->second
                               << ", which a completed flush covered";
    }
  }
};

struct Case {
  uint32_t scheme;
  uint32_t seed;
  std::vector<uint64_t> recovery_cuts;  // cuts during the recovery, in flash operations
};

std::string scheme_name(uint32_t scheme) {
  static const char *const names[] = BOOT_SCHEME_NAMES;
  return names[scheme];
}

// The workload, its cut and the boot after it.
class PowerLoss {
 public:
  PowerLoss(uint32_t scheme, uint32_t seed, uint32_t sram_bytes = FtlSetup{}.sram_bytes)
      : harness_(setup(scheme, sram_bytes)), rng_(seed) {
    harness_.flash().set_wait_for_interrupt(
        [this](FakeFlash &flash) { flash.complete(rng_() % flash.in_flight().size()); });
  }

  FtlHarness &harness() { return harness_; }
  const Oracle &oracle() const { return oracle_; }

  // Fills every LPN, then random writes, trims and flushes; false when the power was cut.
  bool run_workload() {
    try {
      for (uint32_t lpn = 0; lpn < kLpns; lpn += 4) {
        step(HIC_OP_WRITE, lpn, 4);
      }
      for (uint32_t i = 0; i < kRandomSteps; ++i) {
        uint32_t action = rng_() % 100;
        uint32_t lpn = rng_() % (kLpns - 4);
        if (action < 80) {
          step(HIC_OP_WRITE, lpn, 1 + rng_() % 4);
        } else if (action < 92) {
          step(HIC_OP_TRIM, lpn, 1 + rng_() % 2);
        } else {
          step(HIC_OP_FLUSH, 0, 0);
        }
      }
    } catch (const PowerCut &) {
      settle();
      return false;
    }
    return true;
  }

  // Every LPN against the oracle.
  void check_after_recovery() {
    for (uint32_t lpn = 0; lpn < kLpns; ++lpn) {
      oracle_.check(lpn, harness_.read(lpn)[0]);
    }
  }

 private:
  // Submits a command and runs until idle. A flush covers every write completed before it.
  void step(uint8_t op, uint32_t lpn, uint32_t pages) {
    pending_ = harness_.submit(op, lpn, pages);
    pending_op_ = op;
    pending_lpn_ = lpn;
    pending_pages_ = pages;
    if (op == HIC_OP_WRITE) {
      for (uint32_t page = 0; page < pages; ++page) {
        oracle_.written[lpn + page].push_back(harness_.hic().command(pending_).version);
      }
    }
    harness_.run();
    settle();
  }

  // Takes in the pending command if it completed.
  void settle() {
    if (pending_ == kNone || !harness_.hic().completed(pending_)) {
      pending_ = kNone;
      return;
    }
    EXPECT_EQ(harness_.hic().command(pending_).status, HIC_STATUS_OK);
    for (uint32_t page = 0; page < pending_pages_; ++page) {
      uint32_t lpn = pending_lpn_ + page;
      if (pending_op_ == HIC_OP_WRITE) {
        oracle_.completed[lpn] = harness_.hic().command(pending_).version;
      } else if (pending_op_ == HIC_OP_TRIM) {
        oracle_.completed.erase(lpn);
        oracle_.trimmed.insert(lpn);
      }
    }
    if (pending_op_ == HIC_OP_FLUSH) {
      oracle_.guaranteed = oracle_.completed;
    }
    pending_ = kNone;
  }

  static constexpr uint32_t kNone = ~0u;
  FtlHarness harness_;
  std::mt19937 rng_;
  Oracle oracle_;
  uint32_t pending_ = kNone;
  uint8_t pending_op_ = 0;
  uint32_t pending_lpn_ = 0;
  uint32_t pending_pages_ = 0;
};

// After recovery the device serves a new workload exactly: each LPN reads what was written last.
// A flush every 64 writes: one after hundreds would have the TP schemes program nearly every TP
// at once, padded, faster than GC frees a stripe on this small device (the TP store then stops
// the firmware, cut or not).
void expect_device_keeps_working(FtlHarness &harness, std::mt19937 &rng) {
  std::map<uint32_t, uint32_t> expected;
  for (uint32_t lpn = 0; lpn < kLpns; ++lpn) {
    expected[lpn] = harness.read(lpn)[0];
  }
  for (uint32_t i = 0; i < 2 * kLpns; ++i) {
    uint32_t lpn = rng() % kLpns;
    if (i % 64 == 63) {
      harness.flush();
    }
    if (rng() % 10 == 0) {
      harness.trim(lpn);
      expected[lpn] = DATA_TAG_VERSION_NONE;
    } else {
      uint32_t handle = harness.submit(HIC_OP_WRITE, lpn, 1);
      harness.run();
      ASSERT_TRUE(harness.hic().completed(handle));
      expected[lpn] = harness.hic().command(handle).version;
    }
  }
  harness.flush();
  for (uint32_t lpn = 0; lpn < kLpns; ++lpn) {
    ASSERT_EQ(harness.read(lpn)[0], expected[lpn]) << "LPN " << lpn << " after recovery";
  }
}

class PowerLossTest : public ::testing::TestWithParam<Case> {};

// How many flash operations the whole workload lets complete, to draw the cuts from.
uint64_t workload_flash_waits(uint32_t scheme, uint32_t seed) {
  PowerLoss uncut(scheme, seed);
  EXPECT_TRUE(uncut.run_workload());
  EXPECT_GT(uncut.harness().counter("gc.pages_moved"), 0u) << "the workload keeps GC idle";
  return uncut.harness().flash_waits();
}

TEST_P(PowerLossTest, EveryFlushedWriteSurvivesACutAndTheDeviceKeepsWorking) {
  const Case &param = GetParam();
  uint64_t total = workload_flash_waits(param.scheme, param.seed);
  ASSERT_GT(total, 0u);
  std::mt19937 draw(param.seed * 7919u + 1u);
  for (uint32_t cut = 0; cut < 6; ++cut) {
    uint64_t at = 1 + draw() % total;
    SCOPED_TRACE("cut after " + std::to_string(at) + " of " + std::to_string(total) +
                 " flash operations");
    PowerLoss run(param.scheme, param.seed + cut);
    run.harness().cut_at_flash_wait(at);
    if (run.run_workload()) {
      continue; /* this seed's workload ended before the cut */
    }
    run.harness().power_cut_and_reboot(true, param.recovery_cuts);
    EXPECT_EQ(run.harness().gauge32("recovery.power_losses"),
              1u + param.recovery_cuts.size());
    EXPECT_GT(run.harness().counter("recovery.pages_scanned"), 0u);
    run.check_after_recovery();
    if (HasFailure()) {
      return;
    }
    expect_device_keeps_working(run.harness(), draw);
    if (HasFailure()) {
      return;
    }
  }
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (uint32_t scheme : {BOOT_SCHEME_IDEAL, BOOT_SCHEME_DFTL, BOOT_SCHEME_TPFTL,
                          BOOT_SCHEME_SFTL}) {
    all.push_back(Case{scheme, 11, {}});
    all.push_back(Case{scheme, 23, {}});
    all.push_back(Case{scheme, 37, {40}});
    all.push_back(Case{scheme, 51, {3, 150}});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, PowerLossTest, ::testing::ValuesIn(cases()),
    [](const ::testing::TestParamInfo<Case> &info) {
      return scheme_name(info.param.scheme) + "_seed" + std::to_string(info.param.seed) +
             "_recovery_cuts" + std::to_string(info.param.recovery_cuts.size());
    });

// With too little free SRAM for the mappings of every LPN at once, recovery scans the device once
// per window of LPNs, and recovers the same.
TEST(PowerLossBoot, ScratchShortOfEveryLpnRecoversInPasses) {
  for (uint32_t scheme : {BOOT_SCHEME_IDEAL, BOOT_SCHEME_DFTL}) {
    SCOPED_TRACE(scheme_name(scheme));
    uint32_t used = FtlHarness(setup(scheme)).sram()->used;
    // The boot's own structures, recovery's tables (a few KiB here), then about a third of the 8
    // bytes per LPN recovery would like.
    uint32_t sram = used + 4096u + kLpns * 8u / 3u;
    uint64_t total = 0;
    {
      PowerLoss uncut(scheme, 5, sram);
      ASSERT_TRUE(uncut.run_workload());
      total = uncut.harness().flash_waits();
    }
    PowerLoss run(scheme, 5, sram);
    run.harness().cut_at_flash_wait(total * 2 / 3);
    ASSERT_FALSE(run.run_workload());
    run.harness().power_cut_and_reboot(true);
    EXPECT_GT(run.harness().gauge32("recovery.passes"), 1u);
    run.check_after_recovery();
    std::mt19937 rng(6);
    expect_device_keeps_working(run.harness(), rng);
  }
}

// A scheme without recovery stops the boot after a power loss with a message naming it.
TEST(PowerLossBoot, ASchemeWithoutRecoveryStopsTheBoot) {
  FtlHarness harness(small_mlc_setup(BOOT_SCHEME_LEARNEDFTL));
  harness.write(0, 4);
  harness.flush();
  try {
    harness.power_cut_and_reboot(false);
    ADD_FAILURE() << "the boot after the power loss went on";
  } catch (const std::runtime_error &error) {
    EXPECT_NE(std::string(error.what()).find("cannot recover its mappings"), std::string::npos)
        << error.what();
  }
}

// A first boot reads nothing; a boot after a cut scans and resumes the sequence numbers.
TEST(PowerLossBoot, OnlyABootAfterACutScansAndSequenceNumbersKeepGrowing) {
  FtlHarness harness(small_mlc_setup(BOOT_SCHEME_IDEAL));
  EXPECT_EQ(harness.flash().reads(), 0u);
  EXPECT_EQ(harness.counter("recovery.pages_scanned"), 0u);
  harness.write(0, 8);
  harness.flush();
  uint32_t highest = 0;
  for (uint32_t lpn = 0; lpn < 8; ++lpn) {
    highest = std::max(highest, harness.flash().oob(harness.mapped_vpn(lpn))[OOB_WORD_SEQUENCE]);
  }
  harness.power_cut_and_reboot(false);
  EXPECT_GT(harness.counter("recovery.pages_scanned"), 0u);
  EXPECT_EQ(ftl_core.flash.next_sequence, highest + 1u);
  harness.write(0, 8);
  harness.flush();
  EXPECT_GT(harness.flash().oob(harness.mapped_vpn(0))[OOB_WORD_SEQUENCE], highest);
}

}  // namespace
}  // namespace ssdvp::test
