// The device the NFC tests use, and the timing each operation must take, written out from the
// configuration's values (the model's own arithmetic is not used).
#pragma once

#include <cstdint>

#include "tlm/system/soc_config.h"

namespace ssdvp::test {

constexpr uint64_t kNs = 1000;
constexpr uint64_t kUs = 1000 * kNs;
constexpr uint64_t kSramLatencyPs = 20 * kNs;

// 1 channel x 1 way x 1 die x 2 planes x 16 blocks x 16 pages (4 QLC wordlines) of 4 KiB + 64 B.
inline NandConfig test_nand() {
  NandConfig config;
  config.channels = 1;
  config.ways = 1;
  config.dies = 1;
  config.planes = 2;
  config.blocks = 16;
  config.pages = 16;
  config.page_bytes = 4096;
  config.oob_bytes = 64;
  config.cell = static_cast<uint32_t>(NandCell::kQlc);
  config.read_lsb_ps = 50 * kUs;
  config.read_clsb_ps = 70 * kUs;
  config.read_cmsb_ps = 110 * kUs;
  config.read_msb_ps = 130 * kUs;
  config.program_ps = 900 * kUs;
  config.erase_ps = 3000 * kUs;
  config.cmd_addr_cycles = 7;
  config.cmd_cycle_ps = 5 * kNs;
  config.bus_rate_mts = 400;
  config.bus_width_bits = 8;
  return config;
}

inline NfcConfig test_nfc() {
  NfcConfig config;
  config.ecc_decode_ps = 3 * kUs;
  config.dma_bandwidth_mbs = 1000;
  config.queue_sample_ps = 0;
  return config;
}

// Picoseconds of each piece of work, from the configuration.
struct Expected {
  NandConfig nand;
  NfcConfig nfc;
  uint64_t memory_ps;

  // A DMA transfer: the memory's latency, then the bytes at the DMA bandwidth (1 MB/s moves a
  // byte per microsecond), rounded up to a picosecond.
  uint64_t dma(uint64_t bytes) const {
    return memory_ps + (bytes * kUs + nfc.dma_bandwidth_mbs - 1) / nfc.dma_bandwidth_mbs;
  }
  // One command/address sequence.
  uint64_t cmd() const { return nand.cmd_addr_cycles * nand.cmd_cycle_ps; }
  // Bytes on the bus: bus_width bits per transfer, bus_rate million transfers per second.
  uint64_t bus(uint64_t bytes) const {
    const uint64_t transfers = (bytes * 8 + nand.bus_width_bits - 1) / nand.bus_width_bits;
    return (transfers * kUs + nand.bus_rate_mts - 1) / nand.bus_rate_mts;
  }
  uint64_t page_on_bus() const { return bus(nand.page_bytes + nand.oob_bytes); }
  uint64_t t_read(uint32_t page_type) const {
    const uint64_t times[] = {nand.read_lsb_ps, nand.read_clsb_ps, nand.read_cmsb_ps,
                              nand.read_msb_ps};
    return times[page_type];
  }
  uint64_t ecc() const { return nfc.ecc_decode_ps; }
  uint32_t bits() const { return nand.cell + 1; }
};

}  // namespace ssdvp::test
