// Router: address decoding and translation, DMI range translation, DMI revocation fan-out,
// unmapped addresses, overlap refusal, transaction counts and the printed map.
#include "tlm/bus/router.h"

#include <cstring>
#include <sstream>

#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include "test_bench.h"
#include "tlm/memory/memory.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// A target that remembers the local address of the last access and grants DMI over
// [0x100, 0x1FF] of itself.
class RecordingTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RecordingTarget> socket;
  uint64_t last_address = ~uint64_t{0};
  uint8_t storage[0x100] = {};

  explicit RecordingTarget(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket") {
    socket.register_b_transport(this, &RecordingTarget::b_transport);
    socket.register_get_direct_mem_ptr(this, &RecordingTarget::get_direct_mem_ptr);
  }
  void revoke(uint64_t start, uint64_t end) { socket->invalidate_direct_mem_ptr(start, end); }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
    last_address = trans.get_address();
    delay += sc_time(7, SC_NS);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    dmi.set_dmi_ptr(storage);
    dmi.set_start_address(0x100);
    dmi.set_end_address(0x1FF);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
    return true;
  }
};

TEST(Router, TranslatesAddressesToTargetOffsetsAndCountsTransactions) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget low("low");
  RecordingTarget high("high");
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(router.target_socket);
  router.map("high", 0x20000000, 0x10000, high.socket);
  router.map("low", 0x00001000, 0x1000, low.socket);
  test::run_thread([&] {
    sc_time delay = sc_core::SC_ZERO_TIME;
    cpu.read32(0x20000ABC, delay);
    EXPECT_EQ(high.last_address, 0xABCu);
    EXPECT_EQ(delay, sc_time(7, SC_NS));
    cpu.write32(0x00001FFC, 1);
    EXPECT_EQ(low.last_address, 0xFFCu);
    cpu.read32(0x00001000);
    EXPECT_EQ(low.last_address, 0u);
  });
  ASSERT_EQ(router.targets().size(), 2u);
  EXPECT_EQ(router.targets()[0].name, "high");
  EXPECT_EQ(router.targets()[0].transactions, 1u);
  EXPECT_EQ(router.targets()[1].transactions, 2u);
}

TEST(Router, AnswersAddressErrorWhereNothingIsMapped) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget only("only");
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(router.target_socket);
  router.map("only", 0x1000, 0x1000, only.socket);
  test::run_thread([&] {
    uint32_t word = 0;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0x0FFC, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0x2000, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Straddles the end of the mapping.
    EXPECT_EQ(cpu.transport(tlm::TLM_WRITE_COMMAND, 0x1FFE, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0xFFFFFFFC, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    tlm::tlm_dmi dmi;
    EXPECT_FALSE(cpu.dmi(0x5000, dmi));
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0x5000, &word, 4), 0u);
  });
  EXPECT_EQ(only.last_address, ~uint64_t{0});
  EXPECT_EQ(router.targets()[0].transactions, 0u);
}

// The router tries the target of the previous access first: an access just past it, or into a
// gap after it, must still find its own target or none.
TEST(Router, DecodesAdjacentTargetsAndGapsWhateverTheTargetBefore) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget first("first");
  RecordingTarget second("second");
  RecordingTarget third("third");
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(router.target_socket);
  router.map("second", 0x2000, 0x1000, second.socket);
  router.map("first", 0x1000, 0x1000, first.socket);
  router.map("third", 0x4000, 0x1000, third.socket);
  test::run_thread([&] {
    uint32_t word = 0;
    sc_time delay = sc_core::SC_ZERO_TIME;
    cpu.read32(0x1FFC, delay);
    EXPECT_EQ(first.last_address, 0xFFCu);
    cpu.read32(0x2000, delay);  // the next byte belongs to the next target
    EXPECT_EQ(second.last_address, 0u);
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0x3000, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);  // the gap after it
    cpu.read32(0x2FFC, delay);
    EXPECT_EQ(second.last_address, 0xFFCu);
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0x1FFE, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);  // straddles first and second
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 0x0FFC, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);  // below every target
    cpu.read32(0x4004, delay);
    EXPECT_EQ(third.last_address, 4u);
    cpu.read32(0x1000, delay);
    EXPECT_EQ(first.last_address, 0u);
  });
  EXPECT_EQ(router.targets()[0].transactions, 2u);
  EXPECT_EQ(router.targets()[1].transactions, 2u);
  EXPECT_EQ(router.targets()[2].transactions, 1u);
}

TEST(Router, RefusesOverlappingMappingsNamingBoth) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget first("first");
  RecordingTarget second("second");
  RecordingTarget zero("zero");
  router.map("first", 0x10000000, 0x1000, first.socket);
  try {
    router.map("second", 0x10000FFC, 0x100, second.socket);
    FAIL() << "overlap accepted";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'second'"), std::string::npos) << message;
    EXPECT_NE(message.find("'first'"), std::string::npos) << message;
    EXPECT_NE(message.find("0x10000ffc"), std::string::npos) << message;
  }
  EXPECT_THROW(router.map("zero", 0x30000000, 0, zero.socket), std::runtime_error);
  EXPECT_THROW(router.map("zero", 0xFFFFF000, 0x2000, zero.socket), std::runtime_error);
  EXPECT_EQ(router.targets().size(), 1u);
}

TEST(Router, TranslatesDmiRangesAndForwardsRevocationsToEveryMaster) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget device("device");
  Memory sram("sram", 0x1000, sc_time(1, SC_NS), sc_time(1, SC_NS), true);
  test::TestInitiator cpu0("cpu0");
  test::TestInitiator cpu1("cpu1");
  cpu0.socket.bind(router.target_socket);
  cpu1.socket.bind(router.target_socket);
  router.map("device", 0x40000000, 0x1000, device.socket);
  router.map("sram", 0x10000000, 0x1000, sram.socket);
  test::run_thread([&] {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(cpu0.dmi(0x40000150, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0x40000100u);
    EXPECT_EQ(dmi.get_end_address(), 0x400001FFu);
    EXPECT_EQ(dmi.get_dmi_ptr(), device.storage);

    tlm::tlm_dmi memory_dmi;
    ASSERT_TRUE(cpu1.dmi(0x10000010, memory_dmi));
    EXPECT_EQ(memory_dmi.get_start_address(), 0x10000000u);
    EXPECT_EQ(memory_dmi.get_end_address(), 0x10000FFFu);
    cpu1.write32(0x10000010, 0x600DCAFE);
    uint32_t through_pointer;
    std::memcpy(&through_pointer, memory_dmi.get_dmi_ptr() + 0x10, 4);
    EXPECT_EQ(through_pointer, 0x600DCAFEu);

    device.revoke(0x180, 0x1FF);
    device.revoke(0x0, ~uint64_t{0});  // "everything": clipped to the mapping
  });
  const std::vector<std::pair<uint64_t, uint64_t>> expected = {{0x40000180, 0x400001FF},
                                                               {0x40000000, 0x40000FFF}};
  EXPECT_EQ(cpu0.invalidations, expected);
  EXPECT_EQ(cpu1.invalidations, expected);
}

TEST(Router, PrintsTheMapSortedByAddress) {
  use_picosecond_resolution();
  Router router("router");
  RecordingTarget a("a");
  RecordingTarget b("b");
  router.map("periph", 0x20000000, 0x10000, a.socket);
  router.map("rom", 0x00000000, 256 * 1024, b.socket);
  std::ostringstream out;
  router.print_map(out);
  EXPECT_EQ(out.str(),
            "Memory map:\n"
            "  0x00000000 - 0x0003ffff  rom        256 KiB\n"
            "  0x20000000 - 0x2000ffff  periph     64 KiB\n");
}

}  // namespace
}  // namespace ssdvp
