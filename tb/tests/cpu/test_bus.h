// A plain C++ bus for the core tests: two RAMs offered as direct regions (one executable, one
// not), a slow-path MMIO window that records every access and can call back into the test, and
// an address range that answers with an error.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tlm/cpu/cpu_if.h"

namespace ssdvp::cpu::test {

class TestBus : public BusInterface {
 public:
  static constexpr uint32_t kRamBase = 0x00000000;  // code and data, executable
  static constexpr uint32_t kRamSize = 0x00010000;
  static constexpr uint32_t kSramBase = 0x10000000;  // data only, not executable
  static constexpr uint32_t kSramSize = 0x00010000;
  static constexpr uint32_t kMmioBase = 0x20000000;  // slow path, plain storage
  static constexpr uint32_t kMmioSize = 0x00001000;
  static constexpr uint32_t kTriggerAddress = kMmioBase + 0x100;  // a write calls on_trigger
  static constexpr uint32_t kErrorBase = 0x30000000;              // every access fails
  static constexpr uint32_t kErrorSize = 0x00001000;

  struct Access {
    bool write = false;
    uint32_t addr = 0;
    uint32_t len = 0;
    uint32_t value = 0;
  };

  TestBus();

  bool read(uint32_t addr, void* data, uint32_t len, uint64_t& extra_cycles) override;
  bool write(uint32_t addr, const void* data, uint32_t len, uint64_t& extra_cycles) override;
  DirectRegion direct_region(uint32_t addr) override;

  // Host-side access to the RAMs and the MMIO storage (no timing, no recording).
  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  uint32_t peek32(uint32_t addr) const;
  void poke32(uint32_t addr, uint32_t value);

  // Latencies in core cycles.
  uint32_t ram_read_cycles = 0;
  uint32_t ram_write_cycles = 0;
  uint32_t sram_read_cycles = 0;
  uint32_t sram_write_cycles = 0;
  uint32_t mmio_cycles = 0;
  // false: the RAM is not offered as a direct region and is served by read()/write() instead.
  bool ram_direct = true;
  bool sram_direct = true;
  // With the SRAM not direct: name its range in the refusal, as the router does.
  bool report_refused_range = false;

  std::vector<Access> accesses;  // slow-path accesses in order (RAM served slowly included)
  unsigned direct_region_requests = 0;
  std::function<void(uint32_t value)> on_trigger;

 private:
  uint8_t* storage(uint32_t addr, uint32_t len);
  const uint8_t* storage(uint32_t addr, uint32_t len) const;

  std::vector<uint8_t> ram_;
  std::vector<uint8_t> sram_;
  std::vector<uint8_t> mmio_;
};

}  // namespace ssdvp::cpu::test
