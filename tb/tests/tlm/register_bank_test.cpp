// RegisterBank: access rules, decoding errors, callbacks and their delay, debug access.
#include "tlm/bus/register_bank.h"

#include <cstring>

#include <gtest/gtest.h>

#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

using Access = RegisterBank::Access;
using sc_core::sc_time;
using sc_core::SC_NS;

struct Access32 {
  tlm::tlm_response_status status;
  uint32_t value;
};

Access32 access(RegisterBank& bank, tlm::tlm_command command, uint64_t offset, uint32_t value,
                sc_time& delay, unsigned length = 4) {
  uint8_t data[8] = {};
  std::memcpy(data, &value, 4);
  tlm::tlm_generic_payload trans;
  trans.set_command(command);
  trans.set_address(offset);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  bank.b_transport(trans, delay);
  uint32_t read;
  std::memcpy(&read, data, 4);
  return {trans.get_response_status(), read};
}

Access32 read(RegisterBank& bank, uint64_t offset) {
  sc_time delay = sc_core::SC_ZERO_TIME;
  return access(bank, tlm::TLM_READ_COMMAND, offset, 0, delay);
}

tlm::tlm_response_status write(RegisterBank& bank, uint64_t offset, uint32_t value) {
  sc_time delay = sc_core::SC_ZERO_TIME;
  return access(bank, tlm::TLM_WRITE_COMMAND, offset, value, delay).status;
}

class RegisterBankTest : public ::testing::Test {
 protected:
  void SetUp() override { use_picosecond_resolution(); }
  RegisterBank bank{"test.device"};
};

TEST_F(RegisterBankTest, ReadWriteRegistersKeepTheirValueFromReset) {
  bank.add(0x0, "control", 0x11, Access::kReadWrite);
  bank.add(0x4, "status", 0x22, Access::kReadOnly);
  EXPECT_EQ(read(bank, 0x0).value, 0x11u);
  EXPECT_EQ(write(bank, 0x0, 0xABCD), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read(bank, 0x0).value, 0xABCDu);
  EXPECT_EQ(bank.get(0x0), 0xABCDu);
  bank.reset();
  EXPECT_EQ(read(bank, 0x0).value, 0x11u);
  EXPECT_EQ(read(bank, 0x4).value, 0x22u);
}

TEST_F(RegisterBankTest, EnforcesAccessDirections) {
  bank.add(0x0, "status", 5, Access::kReadOnly);
  bank.add(0x4, "doorbell", 0, Access::kWriteOnly);
  EXPECT_EQ(write(bank, 0x0, 9), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(bank.get(0x0), 5u);
  EXPECT_EQ(read(bank, 0x4).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(write(bank, 0x4, 3), tlm::TLM_OK_RESPONSE);
}

TEST_F(RegisterBankTest, RejectsOtherSizesMisalignmentAndUnmappedOffsets) {
  bank.add(0x8, "data", 0, Access::kReadWrite);
  sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(access(bank, tlm::TLM_READ_COMMAND, 0x8, 0, delay, 2).status,
            tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(access(bank, tlm::TLM_WRITE_COMMAND, 0x8, 0, delay, 8).status,
            tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(read(bank, 0x9).status, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(read(bank, 0xC).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(read(bank, 0x100000000).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST_F(RegisterBankTest, CallbacksSeeAndExtendTheDelay) {
  sc_time seen_by_read;
  uint32_t written = 0;
  int reads = 0;
  bank.add(0x10, "counter", 0, Access::kReadWrite,
           [&](sc_time& delay) {
             seen_by_read = delay;
             delay += sc_time(3, SC_NS);
             return static_cast<uint32_t>(++reads * 100);
           },
           [&](uint32_t value, sc_time& delay) {
             written = value;
             delay += sc_time(10, SC_NS);
           });
  sc_time delay(4, SC_NS);
  EXPECT_EQ(access(bank, tlm::TLM_READ_COMMAND, 0x10, 0, delay).value, 100u);
  EXPECT_EQ(seen_by_read, sc_time(4, SC_NS));
  EXPECT_EQ(delay, sc_time(7, SC_NS));
  EXPECT_EQ(access(bank, tlm::TLM_WRITE_COMMAND, 0x10, 0x77, delay).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(written, 0x77u);
  EXPECT_EQ(delay, sc_time(17, SC_NS));
  EXPECT_EQ(read(bank, 0x10).value, 200u);
}

TEST_F(RegisterBankTest, DebugAccessBypassesCallbacksAndAccessRules) {
  int callbacks = 0;
  bank.add(0x0, "claim", 42, Access::kReadOnly, [&](sc_time&) {
    ++callbacks;
    return 7u;
  });
  uint32_t value = 0;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(0x0);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  EXPECT_EQ(bank.transport_dbg(trans), 4u);
  EXPECT_EQ(value, 42u);
  EXPECT_EQ(callbacks, 0);
  value = 9;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(bank.transport_dbg(trans), 4u);
  EXPECT_EQ(bank.get(0x0), 9u);
  trans.set_address(0x4);
  EXPECT_EQ(bank.transport_dbg(trans), 0u);
}

TEST_F(RegisterBankTest, RefusesBadDeclarations) {
  bank.add(0x4, "first", 0, Access::kReadWrite);
  EXPECT_THROW(bank.add(0x4, "again", 0, Access::kReadWrite), std::runtime_error);
  EXPECT_THROW(bank.add(0x6, "misaligned", 0, Access::kReadWrite), std::runtime_error);
  EXPECT_THROW(bank.get(0x8), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp
