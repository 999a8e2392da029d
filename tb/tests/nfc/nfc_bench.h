// A flash controller on a bus of its own for the NFC tests: a router, an SRAM holding the rings,
// io lists and buffers, the NFC, and a driver thread that uses the NFC as firmware would
// (registers through the router, memory contents by debug access, which takes no time).
// Several benches may live in one elaboration and run side by side.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "interface/memory_map.h"
#include "interface/nfc_desc.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"
#include "tlm/nfc/nfc.h"

namespace ssdvp::test {

class NfcBench : public sc_core::sc_module {
 public:
  // SRAM layout the tests use.
  static constexpr uint32_t kSqBase = MM_SRAM_BASE;
  static constexpr uint32_t kCqBase = MM_SRAM_BASE + 0x4000;
  static constexpr uint32_t kIoBase = MM_SRAM_BASE + 0x8000;     // io lists, 0x200 apart
  static constexpr uint32_t kOobBase = MM_SRAM_BASE + 0x40000;   // spare buffers, 0x400 apart
  static constexpr uint32_t kSlotBase = MM_SRAM_BASE + 0x100000; // page-sized slots
  static constexpr uint64_t kSramBytes = 8 << 20;

  struct Seen {
    nfc_completion_t completion;
    uint64_t time_ps;  // when the driver saw it: the interrupt's rise
  };

  tlm_utils::simple_initiator_socket<NfcBench> socket;
  Router router;
  Memory sram;
  Nfc nfc;
  std::vector<std::string> errors;  // every on_error report

  NfcBench(sc_core::sc_module_name name, const NandConfig& nand, const NfcConfig& nfc_config,
           uint64_t sram_latency_ps, WaveWriter* waves = nullptr, uint64_t seed = 1);

  // The driver thread; call before sc_start().
  void spawn(std::function<void()> body);

  uint32_t read_reg(uint32_t offset);
  void write_reg(uint32_t offset, uint32_t value);
  void write_mem(uint32_t address, const void* data, uint32_t length);
  void read_mem(uint32_t address, void* data, uint32_t length);
  template <typename T>
  T read_object(uint32_t address) {
    T value{};
    read_mem(address, &value, sizeof(T));
    return value;
  }

  // Rings at kSqBase / kCqBase, completion interrupt enabled, NFC enabled.
  void start(uint32_t sq_entries = 256, uint32_t cq_entries = 256);
  // Writes the descriptors into the ring and rings the doorbell once.
  void submit(const std::vector<nfc_desc_t>& descriptors);
  // Waits for and consumes completions until `count` more have been seen.
  std::vector<Seen> collect(size_t count);

  uint32_t slot(uint32_t index) const {
    return kSlotBase + index * nfc.nand().geometry().page_bytes();
  }
  static uint32_t io_list(uint32_t index) { return kIoBase + index * 0x200; }
  static uint32_t oob(uint32_t index) { return kOobBase + index * 0x400; }
  uint32_t ppn(uint32_t channel, uint32_t way, uint32_t die, uint32_t plane, uint32_t block,
               uint32_t page) const {
    return nfc.nand().geometry().ppn(nand_address_t{channel, way, die, plane, block, page});
  }
  // A page of the first die (channel 0, way 0, die 0).
  uint32_t page(uint32_t plane, uint32_t block, uint32_t page) const {
    return ppn(0, 0, 0, plane, block, page);
  }
  uint64_t interrupts() const { return interrupts_; }
  uint32_t cq_entries() const { return cq_entries_; }

 private:
  sc_core::sc_event interrupt_;
  uint64_t interrupts_ = 0;
  uint32_t sq_entries_ = 0;
  uint32_t cq_entries_ = 0;
  uint32_t sq_tail_ = 0;
  uint32_t cq_head_ = 0;
};

nfc_desc_t descriptor(uint8_t op, uint32_t id, uint32_t ppn, uint8_t planes, uint32_t io_list);

}  // namespace ssdvp::test
