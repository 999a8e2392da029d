// What the harnesses of the SystemC peripheral models (the NFC, the HIC) share: a bench of a
// router, a small SRAM and a firmware thread, elaborated once per process (SystemC cannot
// elaborate twice), on which each fuzz input is one run of a script the thread plays as a
// misbehaving firmware would. The harness resets its model before each run and the SRAM is
// cleared, so an input behaves the same alone as after any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "interface/memory_map.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace ssdvp::fuzz {

// Prints what was violated and aborts: libFuzzer keeps the input.
[[noreturn]] void violated(const std::string& what);

// Reads the input front to back; zeros once it is used up.
class Reader {
 public:
  Reader() = default;
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t take(size_t bytes);
  bool empty() const { return at_ >= size_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t at_ = 0;
};

class FirmwareBench : public sc_core::sc_module {
 public:
  static constexpr uint32_t kSramBase = MM_SRAM_BASE;
  static constexpr uint32_t kSramBytes = 64 << 10;
  static constexpr uint64_t kSramLatencyPs = 20'000;
  // No run takes longer in simulated time: the scripts' waits are bounded far below it.
  static constexpr uint64_t kRunBudgetPs = 1'000'000'000'000;  // 1 s

  tlm_utils::simple_initiator_socket<FirmwareBench> socket;  // the firmware's bus accesses
  Router router;
  Memory sram;

  SC_HAS_PROCESS(FirmwareBench);
  explicit FirmwareBench(sc_core::sc_module_name name);

  // Outside the simulation: clears the SRAM, has the firmware thread run `script` and runs the
  // simulation until it has returned and no activity is left. A run that does not settle
  // within kRunBudgetPs of simulated time is a hang (violated).
  void run(std::function<void()> script);

  // From the firmware thread. Bus accesses take no simulated time (as in the test benches);
  // a failed access reads 0 and writes nothing.
  uint32_t read_word(uint32_t address);
  void write_word(uint32_t address, uint32_t value);
  // The SRAM's bytes, as the firmware writes and reads them (no time); false unless the range
  // lies in the SRAM.
  bool write_mem(uint32_t address, const void* data, uint32_t length);
  bool read_mem(uint32_t address, void* data, uint32_t length);
  static bool in_sram(uint32_t address, uint32_t length);
  // A misbehaving firmware's stray write: `count` bytes from the input at an offset it gives
  // (2 bytes) from the SRAM's base, wherever that falls.
  void scribble(Reader& in, uint32_t count);
  void wait_ps(uint64_t ps);
  // Waits for `event`, at most `ps`.
  void wait_ps(uint64_t ps, const sc_core::sc_event& event);
  uint64_t now_ps() const;

 private:
  void firmware_thread();
  bool access_word(tlm::tlm_command command, uint32_t address, uint32_t& value);

  sc_core::sc_event go_;
  std::function<void()> script_;
  bool finished_ = true;
  bool initialized_ = false;
};

// Before any SystemC object: 1 ps resolution, no copyright banner, model logs discarded (a
// firmware bug is the normal end of many inputs; the harness checks the reports itself).
void prepare_systemc();

}  // namespace ssdvp::fuzz
