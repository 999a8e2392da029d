#include "tb/tests/ftl_runtime/ftl_harness.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "tb/tests/ftl_store/hal_stubs.h"

extern "C" {
#include "fw_stats.h"
#include "ftl/ftl.h"
#include "hal/irq.h"
#include "hal/timer.h"
#include "lib/arena.h"
#include "lib/metrics.h"
#include "ml/rqrmi_engine.h"
}

namespace ssdvp::test {

namespace {

// What WFI throws to leave ftl_run when nothing the test allows is left to happen.
struct LoopIdle {};

// Turns of the main loop one run() may take before the harness calls it a spin.
constexpr uint64_t kMaxTurns = 2'000'000;

// The CLINT timer: mtime in nanoseconds, one one-shot.
struct Timer {
  uint64_t now = 0;
  bool armed = false;
  uint64_t deadline = 0;
  irq_handler_t handler = nullptr;
  void *context = nullptr;
} timer;

fw_stats_t stats;

}  // namespace

boot_config_t default_boot_config() {
  boot_config_t boot{};
#define FW_PARAM_CHOICE(field, key, names, default_value, meaning) boot.field = default_value;
#define FW_PARAM_FLAG(field, key, default_value, meaning) boot.field = default_value;
#define FW_PARAM_COUNT(field, key, unit, min, max, options, default_value, meaning) \
  boot.field = default_value;
#define FW_PARAM_SIZE(field, key, min, max, options, default_value, meaning) \
  boot.field = default_value;
#define FW_PARAM_TIME(field, key, min_ns, max_ns, options, default_ns, meaning) \
  boot.field##_ns = default_ns;
#define FW_PARAM_REAL(field, key, min, max, default_value, meaning) boot.field = default_value;
#include "firmware_params.def"
  boot.ftl_alloc_order = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                         BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;
  boot.ftl_tp_flush_delay_ns = 0;
  boot.hart_count = 1;
  boot.timebase_hz = 1'000'000'000u;
  return boot;
}

FtlSetup small_mlc_setup(uint32_t scheme) {
  FtlSetup setup{kSmallMlc, kSmallMlcLpns};
  setup.boot.scheme = scheme;
  return setup;
}

FtlHarness::FtlHarness(const FtlSetup &setup)
    : boot_(setup.boot),
      geometry_(setup.geometry),
      host_{setup.lpn_count, setup.max_commands, 512, setup.geometry.page_bytes} {
  boot_.ftl_lpn_count = setup.lpn_count;
  memory_bytes_ = setup.sram_bytes;
  memory_ = mmap(nullptr, memory_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
  if (memory_ == MAP_FAILED) {
    throw std::runtime_error("no memory below 4 GiB for the firmware's arena");
  }
  timer = Timer{};
  take_console();
  flash_ = std::make_unique<FakeFlash>(setup.geometry);
  hic_ = std::make_unique<FakeHic>(host_);
  set_wait_for_interrupt([this] { wait_for_interrupt(); });
  set_interrupt_poll([this] {
    if (++turns_ % kMaxTurns == 0) {
      throw FirmwareFault("the main loop turned " + std::to_string(kMaxTurns) +
                          " times without sleeping");
    }
  });
  try {
    start_firmware();
  } catch (...) {
    set_wait_for_interrupt(nullptr);
    set_interrupt_poll(nullptr);
    munmap(memory_, memory_bytes_);
    throw;
  }
}

void FtlHarness::start_firmware() {
  struct Booting {
    bool &flag;
    explicit Booting(bool &f) : flag(f) { flag = true; }
    ~Booting() { flag = false; }
  } booting(booting_);
  metrics_init(&stats);
  arena_init(&sram_, memory_, (uint32_t)memory_bytes_, FW_STATS_LOCATION_SRAM);
  const char *problem = "";
  if (ftl_init(&boot_, &geometry_, &host_, &sram_, nullptr, &problem) != FTL_INIT_OK) {
    throw std::runtime_error(std::string("ftl_init: ") + problem);
  }
}

void FtlHarness::power_cut_and_reboot(bool interrupt, const std::vector<uint64_t> &recovery_cuts) {
  size_t cuts_done = 0;
  for (;;) {
    cut_at_wait_ = 0;
    flash_->power_cut(interrupt);
    hic_->power_cut();
    timer.armed = false;
    ++boot_.power_losses;
    // SRAM holds garbage at power-on: nothing may count on what the last boot left.
    std::memset(memory_, 0xA5, memory_bytes_);
    if (cuts_done < recovery_cuts.size()) {
      cut_at_flash_wait(recovery_cuts[cuts_done++]);
      interrupt = true;
    }
    try {
      start_firmware();
      cut_at_wait_ = 0;
      return;
    } catch (const PowerCut &) {
    }
  }
}

FtlHarness::~FtlHarness() {
  set_wait_for_interrupt(nullptr);
  set_interrupt_poll(nullptr);
  flash_.reset();
  hic_.reset();
  munmap(memory_, memory_bytes_);
}

void FtlHarness::wait_for_interrupt() {
  ++sleeps_;
  if (auto_transfers && !hic_->transfers().empty()) {
    hic_->finish_transfer(0);
    return;
  }
  if (auto_flash && !flash_->in_flight().empty()) {
    if (cut_at_wait_ != 0 && flash_waits_ == cut_at_wait_) {
      throw PowerCut{};
    }
    ++flash_waits_;
    flash_->wait_for_interrupt();
    return;
  }
  if (timer.armed) {
    timer.now = std::max(timer.now, timer.deadline);
    timer.armed = false;
    timer.handler(0, timer.context);
    return;
  }
  if (booting_) {
    throw FirmwareFault("WFI during boot with nothing that could wake the core");
  }
  throw LoopIdle{};
}

void FtlHarness::run() {
  try {
    ftl_run();
  } catch (const LoopIdle &) {
  }
}

uint32_t FtlHarness::submit(uint8_t op, uint32_t lpn, uint32_t pages, uint16_t flags) {
  uint32_t handle = hic_->submit(op, lpn, pages, flags);
  uint32_t version = hic_->command(handle).version;
  for (uint32_t page = 0; page < pages && (op == HIC_OP_WRITE || op == HIC_OP_TRIM); ++page) {
    bool partial = (page == 0 && (flags & HIC_CMD_PARTIAL_FIRST) != 0) ||
                   (page == pages - 1u && (flags & HIC_CMD_PARTIAL_LAST) != 0);
    if (op == HIC_OP_WRITE) {
      versions_[lpn + page] = version;
    } else if (!partial) {
      versions_.erase(lpn + page);
    }
  }
  return handle;
}

namespace {

void expect_done(const FakeHic &hic, uint32_t handle) {
  const FakeHic::Command &command = hic.command(handle);
  EXPECT_TRUE(command.completed) << "command " << handle << " (op " << (unsigned)command.op
                                 << ", LPN " << command.lpn << ") did not complete";
  EXPECT_EQ(command.status, HIC_STATUS_OK) << "command " << handle;
}

}  // namespace

void FtlHarness::write(uint32_t lpn, uint32_t pages) {
  uint32_t handle = submit(HIC_OP_WRITE, lpn, pages);
  run();
  expect_done(*hic_, handle);
}

void FtlHarness::trim(uint32_t lpn, uint32_t pages) {
  uint32_t handle = submit(HIC_OP_TRIM, lpn, pages);
  run();
  expect_done(*hic_, handle);
}

void FtlHarness::flush() {
  uint32_t handle = submit(HIC_OP_FLUSH, 0, 0);
  run();
  expect_done(*hic_, handle);
}

std::vector<uint32_t> FtlHarness::read(uint32_t lpn, uint32_t pages) {
  uint32_t handle = submit(HIC_OP_READ, lpn, pages);
  run();
  expect_done(*hic_, handle);
  std::vector<uint32_t> versions;
  const FakeHic::Command &command = hic_->command(handle);
  for (uint32_t page = 0; page < pages; ++page) {
    const data_tag_t &tag = command.received[page];
    if (tag.version != DATA_TAG_VERSION_NONE) {
      EXPECT_EQ(tag.lpn, lpn + page) << "the page read for LPN " << lpn + page
                                     << " holds another LPN's data";
    }
    versions.push_back(tag.version);
  }
  return versions;
}

uint32_t FtlHarness::expected_version(uint32_t lpn) const {
  auto found = versions_.find(lpn);
  return found == versions_.end() ? DATA_TAG_VERSION_NONE : found->second;
}

uint32_t FtlHarness::mapped_vpn(uint32_t lpn) const {
  uint32_t vpn = VPN_UNMAPPED;
  EXPECT_EQ(ftl_core.scheme->lookup(lpn, nullptr, &vpn), MAP_HIT) << "LPN " << lpn;
  return vpn;
}

uint64_t FtlHarness::counter(const char *name) const {
  const void *value = metrics_find(name);
  if (value == nullptr) {
    throw std::logic_error(std::string("no metric ") + name);
  }
  return *static_cast<const uint64_t *>(value);
}

uint32_t FtlHarness::gauge32(const char *name) const {
  const void *value = metrics_find(name);
  if (value == nullptr) {
    throw std::logic_error(std::string("no metric ") + name);
  }
  return *static_cast<const uint32_t *>(value);
}

}  // namespace ssdvp::test

using ssdvp::test::timer;

// The rest of the hardware ftl.c reaches: the CLINT timer, the software interrupt (the worker
// hart's, absent here: jobs run inline) and the RQRMI accelerator (absent).
extern "C" {

uint64_t timer_now(void) { return timer.now; }

uint64_t timer_ticks_from_ns(uint64_t ns) { return ns; }

uint64_t timer_ns_from_ticks(uint64_t ticks) { return ticks; }

void timer_oneshot_at(uint64_t deadline, irq_handler_t handler, void *context) {
  timer.armed = true;
  timer.deadline = deadline;
  timer.handler = handler;
  timer.context = context;
}

void timer_cancel(void) { timer.armed = false; }

bool timer_oneshot_armed(void) { return timer.armed; }

void irq_set_software_handler(irq_handler_t handler, void *context) {
  (void)handler;
  (void)context;
}

void irq_send_software(unsigned hart_id) {
  throw ssdvp::test::FirmwareFault("software interrupt to hart " + std::to_string(hart_id) +
                                   ": the host tests have one hart");
}

int rqrmi_engine_find(rqrmi_engine_t *engine, const rqrmi_model_t *model,
                      const rqrmi_range_t *ranges, uint32_t generation, uint32_t key,
                      uint32_t *result) {
  (void)engine;
  (void)model;
  (void)ranges;
  (void)generation;
  (void)key;
  (void)result;
  return -1;  // no accelerator
}

}  // extern "C"
