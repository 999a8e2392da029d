// sc_spawn needs the dynamic-process part of SystemC.
#define SC_INCLUDE_DYNAMIC_PROCESSES

#include "test_bench.h"

#include <gtest/gtest.h>

#include "tlm/system/sim_time.h"

namespace ssdvp::test {

TestInitiator::TestInitiator(sc_core::sc_module_name name)
    : sc_core::sc_module(name), socket("socket") {
  socket.register_invalidate_direct_mem_ptr(this, &TestInitiator::invalidate_direct_mem_ptr);
}

tlm::tlm_response_status TestInitiator::transport(tlm::tlm_command command, uint64_t address,
                                                  void* data, unsigned length,
                                                  sc_core::sc_time& delay,
                                                  unsigned char* byte_enables) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  trans.set_byte_enable_ptr(byte_enables);
  trans.set_byte_enable_length(byte_enables != nullptr ? length : 0);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(trans, delay);
  return trans.get_response_status();
}

uint32_t TestInitiator::read32(uint64_t address, sc_core::sc_time& delay) {
  uint32_t value = 0;
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, address, &value, 4, delay), tlm::TLM_OK_RESPONSE)
      << "read at " << std::hex << address;
  return value;
}

void TestInitiator::write32(uint64_t address, uint32_t value, sc_core::sc_time& delay) {
  EXPECT_EQ(transport(tlm::TLM_WRITE_COMMAND, address, &value, 4, delay), tlm::TLM_OK_RESPONSE)
      << "write at " << std::hex << address;
}

uint32_t TestInitiator::read32(uint64_t address) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  return read32(address, delay);
}

void TestInitiator::write32(uint64_t address, uint32_t value) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  write32(address, value, delay);
}

bool TestInitiator::dmi(uint64_t address, tlm::tlm_dmi& dmi) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  return socket->get_direct_mem_ptr(trans, dmi);
}

unsigned TestInitiator::debug(tlm::tlm_command command, uint64_t address, void* data,
                              unsigned length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  return socket->transport_dbg(trans);
}

void TestInitiator::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  invalidations.emplace_back(start, end);
}

void RecordingSink::set_interrupt(uint32_t bit, bool level) {
  levels_ = level ? (levels_ | bit) : (levels_ & ~bit);
  changes_.push_back({bit, level, to_ps(sc_core::sc_time_stamp())});
}

void run_thread(std::function<void()> body) {
  sc_core::sc_spawn(std::move(body), "test_thread");
  sc_core::sc_start();
}

}  // namespace ssdvp::test
