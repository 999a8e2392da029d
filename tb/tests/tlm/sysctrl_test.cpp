// System controller: identification, time registers against SystemC time, console, exit and
// fault notifications.
#include "tlm/system/sysctrl.h"

#include <sstream>

#include <gtest/gtest.h>

#include "interface/memory_map.h"
#include "interface/sysctrl_regs.h"
#include "test_bench.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

TEST(Sysctrl, ReadsTimeInNanosecondsIncludingTheAnnotatedDelay) {
  use_picosecond_resolution();
  Sysctrl sysctrl("sysctrl", 1, nullptr);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(sysctrl.socket);
  test::run_thread([&] {
    // Beyond 2^32 ns so that the high word matters.
    const uint64_t now_ps = 5'000'000'000'123'000;
    sc_core::wait(from_ps(now_ps));
    sc_core::sc_time delay = from_ps(7'500);
    const uint64_t expected_ns = (now_ps + 7'500) / 1000;
    EXPECT_EQ(cpu.read32(SYSCTRL_TIME_LO, delay), static_cast<uint32_t>(expected_ns));
    // The high word is the one latched by the TIME_LO read, even after it has moved on.
    sc_core::wait(sc_core::sc_time(5, sc_core::SC_SEC));
    EXPECT_EQ(cpu.read32(SYSCTRL_TIME_HI), static_cast<uint32_t>(expected_ns >> 32));
    const uint64_t later_ns = (now_ps + 5'000'000'000'000) / 1000;
    EXPECT_EQ(cpu.read32(SYSCTRL_TIME_LO), static_cast<uint32_t>(later_ns));
    EXPECT_EQ(cpu.read32(SYSCTRL_TIME_HI), static_cast<uint32_t>(later_ns >> 32));
    EXPECT_NE(later_ns >> 32, expected_ns >> 32);
  });
}

TEST(Sysctrl, IdentifiesThePlatform) {
  use_picosecond_resolution();
  Sysctrl sysctrl("sysctrl", 3, nullptr);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(sysctrl.socket);
  test::run_thread([&] {
    EXPECT_EQ(cpu.read32(SYSCTRL_ID), SYSCTRL_ID_VALUE);
    EXPECT_EQ(cpu.read32(SYSCTRL_BOOT_CONFIG), MM_BOOT_CONFIG_ADDR);
    EXPECT_EQ(cpu.read32(SYSCTRL_HART_COUNT), 3u);
    cpu.write32(SYSCTRL_SCRATCH, 0x5A5A1234);
    EXPECT_EQ(cpu.read32(SYSCTRL_SCRATCH), 0x5A5A1234u);
    uint32_t value = 0;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.transport(tlm::TLM_WRITE_COMMAND, SYSCTRL_ID, &value, 4, delay),
              tlm::TLM_COMMAND_ERROR_RESPONSE);
  });
}

TEST(Sysctrl, WritesTheConsoleLineByLine) {
  use_picosecond_resolution();
  std::ostringstream console;
  Sysctrl sysctrl("sysctrl", 1, &console);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(sysctrl.socket);
  test::run_thread([&] {
    for (char c : std::string("hi\nthere")) cpu.write32(SYSCTRL_CONSOLE_TX, 0xFFFFFF00u | uint8_t(c));
    EXPECT_EQ(console.str(), "hi\n");  // the unfinished line is held back
  });
  EXPECT_EQ(sysctrl.console_text(), "hi\nthere");
  sysctrl.flush_console();
  EXPECT_EQ(console.str(), "hi\nthere");
}

TEST(Sysctrl, ReportsExitCodesAndFaultsToTheSoc) {
  use_picosecond_resolution();
  Sysctrl sysctrl("sysctrl", 2, nullptr);
  test::TestInitiator cpu("cpu");
  cpu.socket.bind(sysctrl.socket);
  std::vector<int32_t> exits;
  std::vector<uint32_t> faults;
  sysctrl.on_exit([&](int32_t code) { exits.push_back(code); });
  sysctrl.on_fault([&](uint32_t hart) { faults.push_back(hart); });
  test::run_thread([&] {
    cpu.write32(SYSCTRL_EXIT, 0xFFFFFFFDu);
    cpu.write32(SYSCTRL_FAULT, 1);
    uint32_t value = 0;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu.transport(tlm::TLM_READ_COMMAND, SYSCTRL_EXIT, &value, 4, delay),
              tlm::TLM_COMMAND_ERROR_RESPONSE);
  });
  EXPECT_EQ(exits, std::vector<int32_t>{-3});
  EXPECT_EQ(faults, std::vector<uint32_t>{1});
}

}  // namespace
}  // namespace ssdvp
