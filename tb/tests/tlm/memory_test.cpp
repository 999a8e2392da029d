// Memory: latency annotation, bounds, DMI grants, ROM write protection, lazy host allocation.
#include "tlm/memory/memory.h"

#include <unistd.h>

#include <cstring>

#include <gtest/gtest.h>

#include "test_bench.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

TEST(Memory, AnnotatesReadAndWriteLatency) {
  use_picosecond_resolution();
  Memory memory("sram", 4096, sc_time(10, SC_NS), sc_time(20, SC_NS), true);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(memory.socket);
  test::run_thread([&] {
    sc_time delay(5, SC_NS);
    cpu.write32(0x100, 0xA5A5F00Du, delay);
    EXPECT_EQ(delay, sc_time(25, SC_NS));
    EXPECT_EQ(cpu.read32(0x100, delay), 0xA5A5F00Du);
    EXPECT_EQ(delay, sc_time(35, SC_NS));
    EXPECT_EQ(memory.bus_reads(), 1u);
    EXPECT_EQ(memory.bus_writes(), 1u);
  });
}

TEST(Memory, RejectsOutOfRangeAndByteEnabledAccesses) {
  use_picosecond_resolution();
  Memory memory("sram", 4096, sc_time(1, SC_NS), sc_time(1, SC_NS), true);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(memory.socket);
  test::run_thread([&] {
    uint32_t word = 0;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, 4096, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Starts inside, ends outside.
    EXPECT_EQ(cpu.transport(tlm::TLM_WRITE_COMMAND, 4094, &word, 4, delay),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    unsigned char enables[4] = {0xFF, 0, 0xFF, 0};
    EXPECT_EQ(cpu.transport(tlm::TLM_WRITE_COMMAND, 0, &word, 4, delay, enables),
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);  // failed accesses cost nothing
  });
}

TEST(Memory, RomRejectsBusWritesButAcceptsDebugWrites) {
  use_picosecond_resolution();
  Memory rom("rom", 8192, sc_time(2, SC_NS), sc_time(3, SC_NS), false);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(rom.socket);
  test::run_thread([&] {
    uint32_t loaded = 0x12345678;
    EXPECT_EQ(cpu.debug(tlm::TLM_WRITE_COMMAND, 0x40, &loaded, 4), 4u);
    uint32_t attempt = 0xDEADBEEF;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.transport(tlm::TLM_WRITE_COMMAND, 0x40, &attempt, 4, delay),
              tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(cpu.read32(0x40), 0x12345678u);
    // A debug access running past the end transfers what is inside.
    uint8_t tail[8] = {};
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 8188, tail, 8), 4u);
  });
}

TEST(Memory, GrantsDmiOverTheWholeMemoryWithItsAccessAndLatencies) {
  use_picosecond_resolution();
  Memory rom("rom", 8192, sc_time(2, SC_NS), sc_time(3, SC_NS), false);
  Memory sram("sram", 65536, sc_time(4, SC_NS), sc_time(5, SC_NS), true);
  test::TestInitiator rom_user("rom_user");
  test::TestInitiator sram_user("sram_user");
  rom_user.socket.bind(rom.socket);
  sram_user.socket.bind(sram.socket);
  test::run_thread([&] {
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(rom_user.dmi(0x123, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0u);
    EXPECT_EQ(dmi.get_end_address(), 8191u);
    EXPECT_TRUE(dmi.is_read_allowed());
    EXPECT_FALSE(dmi.is_write_allowed());
    EXPECT_EQ(dmi.get_read_latency(), sc_time(2, SC_NS));

    uint32_t value = 0xCAFEF00D;
    rom_user.debug(tlm::TLM_WRITE_COMMAND, 0x20, &value, 4);
    uint32_t through_pointer;
    std::memcpy(&through_pointer, dmi.get_dmi_ptr() + 0x20, 4);
    EXPECT_EQ(through_pointer, 0xCAFEF00Du);

    tlm::tlm_dmi sram_dmi;
    ASSERT_TRUE(sram_user.dmi(0xFFFC, sram_dmi));
    EXPECT_EQ(sram_dmi.get_end_address(), 65535u);
    EXPECT_TRUE(sram_dmi.is_read_write_allowed());
    EXPECT_EQ(sram_dmi.get_write_latency(), sc_time(5, SC_NS));
    tlm::tlm_dmi beyond;
    EXPECT_FALSE(sram_user.dmi(65536, beyond));
  });
}

TEST(Memory, AllocatesHostPagesOnlyWhenTouched) {
  use_picosecond_resolution();
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  Memory dram("dram", kGiB, sc_time(60, SC_NS), sc_time(60, SC_NS), true);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(dram.socket);
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(dram.resident_bytes(), 0u);
  test::run_thread([&] {
    cpu.write32(0, 1);
    cpu.write32(kGiB / 2, 2);
    cpu.write32(kGiB - 4, 3);
    EXPECT_EQ(cpu.read32(kGiB / 2), 2u);
  });
  // Three pages touched; transparent huge pages could make each up to 2 MiB.
  EXPECT_GE(dram.resident_bytes(), 3 * page);
  EXPECT_LE(dram.resident_bytes(), 3 * (uint64_t{2} << 20));
}

}  // namespace
}  // namespace ssdvp
