// A host interface controller on a bus of its own for the host tests: a router, an SRAM holding
// the rings and buffer slots, the HIC, and a firmware thread that drives the HIC as firmware
// would (registers through the router, ring and slot contents by debug access, which takes no
// time). The host side is either a recording stand-in (HIC tests) or the real host model.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "interface/hic_cmd.h"
#include "interface/memory_map.h"
#include "tlm/bus/router.h"
#include "tlm/host/hic.h"
#include "tlm/memory/memory.h"

namespace ssdvp::test {

// Records what the HIC hands the host; DATA_IN pages carry version 100 + host_tag.
class RecordingHost : public host::HicHost {
 public:
  struct Read {
    uint32_t host_tag;
    uint32_t lpn;
    data_tag_t tag;
    uint64_t time_ps;
  };
  struct Completion {
    uint32_t host_tag;
    uint8_t status;
    uint64_t time_ps;
  };

  data_tag_t write_data(uint32_t host_tag, uint32_t lpn) override;
  void read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) override;
  void completed(uint32_t host_tag, uint8_t status) override;

  std::vector<Read> reads;
  std::vector<Completion> completions;
};

class HicBench : public sc_core::sc_module {
 public:
  static constexpr uint32_t kEventRing = MM_SRAM_BASE + 0x1000;
  static constexpr uint32_t kRequestRing = MM_SRAM_BASE + 0x2000;
  static constexpr uint32_t kSlots = MM_SRAM_BASE + 0x10000;  // page-sized buffer slots
  static constexpr uint64_t kSramBytes = 4 << 20;

  tlm_utils::simple_initiator_socket<HicBench> socket;
  Router router;
  Memory sram;
  host::Hic hic;
  RecordingHost recorder;
  std::vector<std::string> errors;                    // every on_error report
  std::vector<std::pair<bool, uint64_t>> interrupts;  // (level, time) of every change

  // Without `attach_recorder`, the test attaches its own host (e.g. the host model).
  HicBench(sc_core::sc_module_name name, const HostConfig& config, uint64_t sram_latency_ps,
           bool attach_recorder = true);

  // The firmware thread; call before sc_start().
  void spawn(std::function<void()> body);

  uint32_t read_reg(uint32_t offset);
  void write_reg(uint32_t offset, uint32_t value);
  void write_mem(uint32_t address, const void* data, uint32_t length);
  void read_mem(uint32_t address, void* data, uint32_t length);

  // Sets up both rings and starts them, with the event interrupt enabled.
  void start_rings(uint32_t event_entries, uint32_t request_entries);
  // Events posted and not yet taken, in order; take_events also frees them (EVQ_HEAD).
  std::vector<hic_event_t> take_events();
  // Writes a request at the firmware's request tail and rings the doorbell.
  void post_request(const hic_request_t& request);
  // Waits until the interrupt line is high (at once if it is).
  void wait_interrupt();

  static uint32_t slot(uint32_t index, uint32_t page_bytes) { return kSlots + index * page_bytes; }

 private:
  uint32_t event_entries_ = 0;
  uint32_t event_head_ = 0;
  uint32_t request_entries_ = 0;
  uint32_t request_tail_ = 0;
  bool interrupt_level_ = false;
  sc_core::sc_event interrupt_event_;
};

// A host configuration with round link numbers: PCIe Gen3 x1 (8 GT/s, 128b/130b, so a byte
// takes 1.015625 ns) and 100 ns of latency; 512 B sectors in 4 KiB pages.
HostConfig bench_host_config();

}  // namespace ssdvp::test
