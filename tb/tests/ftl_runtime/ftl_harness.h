// The FTL runtime on the host: the firmware's own boot wiring (ftl_init) and main loop (ftl_run)
// with the host pipeline, the write-buffer flush, the TP store and GC, over fakes of the hardware
// only: the flash layer (tb/tests/ftl_store/fake_flash.h), the HIC driver (fake_hic.h), the CLINT
// timer, the interrupt calls and the CSRs (host/hal/csr.h, hal_stubs.h).
//
// run() enters ftl_run and lets the world move on each time the firmware sleeps in WFI: a host
// transfer finishes, then a flash operation completes, then an armed timer fires, each only when
// the test allows it (auto_transfers, auto_flash). When nothing the test allows is left, WFI
// leaves the loop by an exception and run() returns: the firmware is idle, or waits for what the
// test holds back. Its arenas lie below 4 GiB, as the 32-bit ring entries need.
#ifndef SSDVP_TB_TESTS_FTL_RUNTIME_FTL_HARNESS_H
#define SSDVP_TB_TESTS_FTL_RUNTIME_FTL_HARNESS_H

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "tb/tests/ftl_runtime/fake_hic.h"
#include "tb/tests/ftl_store/fake_flash.h"

extern "C" {
#include "boot_config.h"
#include "ftl/core.h"
#include "nand_geometry.h"
}

namespace ssdvp::test {

// Every firmware key at its default (interface/firmware_params.def), alloc order CWDP, the TP
// flush timer off.
boot_config_t default_boot_config();

struct FtlSetup {
  nand_geometry_t geometry;
  uint32_t lpn_count;
  boot_config_t boot = default_boot_config();
  uint32_t max_commands = 64;
  uint32_t sram_bytes = 4u << 20;
};

// The device the tests use: MLC, two channels, two planes programmed together. A program writes
// 4 pages; a stripe is 2 units x 8 wordlines x 4 pages = 64 pages; of its 32 stripes the LPNs
// fill 24.
constexpr nand_geometry_t kSmallMlc{2, 1, 1, 2, 32, 16, 64, 32, 2};
constexpr uint32_t kSmallMlcLpns = 1536;
constexpr uint32_t kSmallMlcProgramPages = 4;
constexpr uint32_t kSmallMlcStripePages = 64;
constexpr uint32_t kSmallMlcUnits = 2;

// That device with `scheme` (BOOT_SCHEME_*).
FtlSetup small_mlc_setup(uint32_t scheme);

// What the harness throws out of the firmware when a power cut it was asked for comes
// (cut_at_flash_wait): the firmware stops wherever it was.
struct PowerCut {};

class FtlHarness {
 public:
  // Boots the FTL through ftl_init; throws with its problem when it refuses.
  explicit FtlHarness(const FtlSetup &setup);
  ~FtlHarness();
  FtlHarness(const FtlHarness &) = delete;
  FtlHarness &operator=(const FtlHarness &) = delete;

  FakeFlash &flash() { return *flash_; }
  FakeHic &hic() { return *hic_; }
  // The boot config the firmware reads (ftl_core.boot points here): GC's thresholds are read
  // on every decision, so a test may move them.
  boot_config_t &boot() { return boot_; }
  // The SRAM arena the FTL was built from, for a module a test initialises again.
  arena_t *sram() { return &sram_; }

  // What WFI may let happen while run() runs.
  bool auto_transfers = true;
  bool auto_flash = true;

  // Runs the main loop until the firmware would sleep with nothing allowed left to happen.
  void run();

  // Submits a command (FakeHic::submit); the version of a write's pages is remembered as the
  // host's expectation for its LPNs (a trim forgets them).
  uint32_t submit(uint8_t op, uint32_t lpn, uint32_t pages, uint16_t flags = 0);
  // Submits and runs until idle; the command must have completed OK.
  void write(uint32_t lpn, uint32_t pages = 1);
  void trim(uint32_t lpn, uint32_t pages = 1);
  void flush();
  // Reads and returns the versions the host received (0: the LPN reads as never written).
  std::vector<uint32_t> read(uint32_t lpn, uint32_t pages = 1);

  // The version the host last wrote to `lpn` (0 when none, or trimmed).
  uint32_t expected_version(uint32_t lpn) const;

  // The VPN the scheme maps `lpn` to (VPN_UNMAPPED: none), for a scheme that answers from
  // memory (the ideal one): another answer is a test failure.
  uint32_t mapped_vpn(uint32_t lpn) const;

  // A counter or 32-bit gauge the firmware registered (lib/metrics.h).
  uint64_t counter(const char *name) const;
  uint32_t gauge32(const char *name) const;

  // Throws PowerCut from the firmware's WFI once it has let `waits` more flash operations
  // complete (0: never): the test then calls power_cut_and_reboot.
  void cut_at_flash_wait(uint64_t waits) { cut_at_wait_ = waits == 0 ? 0 : flash_waits_ + waits; }
  uint64_t flash_waits() const { return flash_waits_; }

  // Cuts the power (FakeFlash::power_cut with `interrupt`, FakeHic::power_cut) and boots the
  // firmware again on the same NAND, from memory filled with garbage, with the boot config's
  // power_losses one higher. recovery_cuts[i]: the power is cut again (interrupting) after that
  // many flash operations of the i-th recovery, then it boots once more. Throws with ftl_init's
  // problem when it refuses.
  void power_cut_and_reboot(bool interrupt, const std::vector<uint64_t> &recovery_cuts = {});

  // Main-loop turns and WFI sleeps since boot.
  uint64_t turns() const { return turns_; }
  uint64_t sleeps() const { return sleeps_; }

 private:
  void wait_for_interrupt();
  // ftl_init on the arena; throws with its problem when it refuses.
  void start_firmware();

  boot_config_t boot_;
  nand_geometry_t geometry_;
  hic_geometry_t host_;
  uint64_t flash_waits_ = 0;
  uint64_t cut_at_wait_ = 0;
  bool booting_ = false;  // in ftl_init: a WFI nothing can end is a fault, not idleness
  arena_t sram_{};
  void *memory_ = nullptr;
  size_t memory_bytes_ = 0;
  std::unique_ptr<FakeFlash> flash_;
  std::unique_ptr<FakeHic> hic_;
  std::map<uint32_t, uint32_t> versions_;  // LPN -> version last written
  uint64_t turns_ = 0;
  uint64_t sleeps_ = 0;
};

}  // namespace ssdvp::test

#endif
