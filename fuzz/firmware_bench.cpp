#include "fuzz/firmware_bench.h"

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <utility>
#include <vector>

#include "tlm/system/log.h"
#include "tlm/system/sim_time.h"

// LeakSanitizer loses the main thread's stack once SystemC's coroutines (QuickThreads, which
// AddressSanitizer is not told about) have run, and would report libFuzzer's own allocations as
// leaks: these harnesses run without it. An ASAN_OPTIONS setting still wins.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

namespace ssdvp::fuzz {

void violated(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

uint32_t Reader::take(size_t bytes) {
  uint32_t value = 0;
  for (size_t i = 0; i < bytes; ++i) {
    value |= uint32_t{at_ < size_ ? data_[at_] : 0u} << (8 * i);
    ++at_;
  }
  return value;
}

FirmwareBench::FirmwareBench(sc_core::sc_module_name name)
    : sc_core::sc_module(name),
      socket("socket"),
      router("router"),
      sram("sram", kSramBytes, from_ps(kSramLatencyPs), from_ps(kSramLatencyPs), true) {
  router.map("sram", kSramBase, kSramBytes, sram.socket);
  socket.bind(router.target_socket);
  SC_THREAD(firmware_thread);
}

void FirmwareBench::firmware_thread() {
  for (;;) {
    sc_core::wait(go_);
    script_();
    finished_ = true;
  }
}

void FirmwareBench::run(std::function<void()> script) {
  static const std::vector<uint8_t> zeros(kSramBytes, 0);
  if (!write_mem(kSramBase, zeros.data(), kSramBytes)) violated("the SRAM cannot be cleared");
  if (!initialized_) {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // the firmware thread now waits for its script
    initialized_ = true;
  }
  script_ = std::move(script);
  finished_ = false;
  go_.notify(sc_core::SC_ZERO_TIME);
  try {
    sc_core::sc_start(from_ps(kRunBudgetPs), sc_core::SC_EXIT_ON_STARVATION);
  } catch (const std::exception& error) {
    violated(std::string("the simulation threw: ") + error.what());
  }
  if (!finished_ || sc_core::sc_pending_activity()) {
    violated("hang: the run has not settled after 1 s of simulated time");
  }
}

void FirmwareBench::wait_ps(uint64_t ps) { sc_core::wait(from_ps(ps)); }

void FirmwareBench::wait_ps(uint64_t ps, const sc_core::sc_event& event) {
  sc_core::wait(from_ps(ps), event);
}

uint64_t FirmwareBench::now_ps() const { return to_ps(sc_core::sc_time_stamp()); }

void FirmwareBench::scribble(Reader& in, uint32_t count) {
  const uint32_t offset = in.take(2);
  std::vector<uint8_t> bytes(count);
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(in.take(1));
  write_mem(kSramBase + offset, bytes.data(), count);
}

bool FirmwareBench::access_word(tlm::tlm_command command, uint32_t address, uint32_t& value) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans, delay);
  return trans.is_response_ok();
}

uint32_t FirmwareBench::read_word(uint32_t address) {
  uint32_t value = 0;
  return access_word(tlm::TLM_READ_COMMAND, address, value) ? value : 0;
}

void FirmwareBench::write_word(uint32_t address, uint32_t value) {
  access_word(tlm::TLM_WRITE_COMMAND, address, value);
}

bool FirmwareBench::in_sram(uint32_t address, uint32_t length) {
  return address >= kSramBase && uint64_t{address} + length <= uint64_t{kSramBase} + kSramBytes;
}

bool FirmwareBench::write_mem(uint32_t address, const void* data, uint32_t length) {
  if (!in_sram(address, length)) return false;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
  trans.set_data_length(length);
  return router.debug_transport(trans) == length;
}

bool FirmwareBench::read_mem(uint32_t address, void* data, uint32_t length) {
  if (!in_sram(address, length)) return false;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  return router.debug_transport(trans) == length;
}

void prepare_systemc() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  use_picosecond_resolution();
  static std::ostream discard(nullptr);
  log::set_sink(discard);
}

}  // namespace ssdvp::fuzz
