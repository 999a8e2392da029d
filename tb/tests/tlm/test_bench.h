// Stand-ins for the rest of the SoC in model tests: an initiator the test drives from its own
// thread, and an interrupt sink that records every level change with its time.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/system/interrupt_sink.h"

namespace ssdvp::test {

class TestInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TestInitiator> socket;
  // Every DMI revocation received, as (start, end).
  std::vector<std::pair<uint64_t, uint64_t>> invalidations;

  explicit TestInitiator(sc_core::sc_module_name name);

  tlm::tlm_response_status transport(tlm::tlm_command command, uint64_t address, void* data,
                                     unsigned length, sc_core::sc_time& delay,
                                     unsigned char* byte_enables = nullptr);
  // 32-bit accesses that record a test failure unless the response is OK.
  uint32_t read32(uint64_t address, sc_core::sc_time& delay);
  void write32(uint64_t address, uint32_t value, sc_core::sc_time& delay);
  // Same, with no annotated delay.
  uint32_t read32(uint64_t address);
  void write32(uint64_t address, uint32_t value);

  bool dmi(uint64_t address, tlm::tlm_dmi& dmi);
  unsigned debug(tlm::tlm_command command, uint64_t address, void* data, unsigned length);

 private:
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
};

class RecordingSink : public InterruptSink {
 public:
  struct Change {
    uint32_t bit;
    bool level;
    uint64_t time_ps;  // sc_time_stamp() when the change arrived
  };

  void set_interrupt(uint32_t bit, bool level) override;
  bool level(uint32_t bit) const { return (levels_ & bit) != 0; }
  const std::vector<Change>& changes() const { return changes_; }

 private:
  uint32_t levels_ = 0;
  std::vector<Change> changes_;
};

// Spawns `body` as a thread and simulates until nothing is left to do.
void run_thread(std::function<void()> body);

}  // namespace ssdvp::test
