// The assembled SoC running small RV32 programs (tb/tests/tlm/programs): every way a run ends,
// interrupts and sleep, loading, the boot-config block, reports and the memory map.
#include "tlm/system/soc.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "interface/boot_config.h"
#include "interface/memory_map.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

using Outcome = Soc::RunResult::Outcome;

SocConfig small_config() {
  SocConfig config;
  config.rom.size_bytes = 64 * 1024;
  config.sram.size_bytes = 64 * 1024;
  return config;
}

ElfImage program(const std::string& name) {
  return ElfImage::load(std::string(TLM_TEST_PROGRAM_DIR) + "/" + name + ".elf");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Soc, ExitEndsTheRunWithItsCode) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("exit"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kExit);
  EXPECT_EQ(result.exit_code, 42);
  EXPECT_EQ(soc.console_text(), "ok\n");

  nlohmann::json report;
  soc.report(report);
  // lui + 4 x (li, sw): the exit store is the last instruction to retire.
  EXPECT_EQ(report["harts"][0]["instret"], 9u);
  EXPECT_EQ(report["harts"][0]["stores"], 4u);
  EXPECT_EQ(report["harts"][0]["bus_transactions"], 4u);
  EXPECT_EQ(report["bus"]["sysctrl"]["transactions"], 4u);
  EXPECT_EQ(report["bus"]["sram"]["transactions"], 0u);
  EXPECT_EQ(report["memories"]["sram"]["size_bytes"], 64u * 1024);
  EXPECT_FALSE(report["memories"].contains("dram"));
  const uint64_t cycles = report["harts"][0]["cycles"];
  EXPECT_GE(cycles, 9u);
  // The run ends when the exiting hart has synchronised: time is its cycles at 800 MHz.
  EXPECT_EQ(report["simulated_time_ps"], cycles * 1250);
}

TEST(Soc, WfiSleepsUntilTheTimerInterruptAndCountsSleepCycles) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("wfi_timer"));
  const Soc::RunResult result = soc.run();
  ASSERT_EQ(result.outcome, Outcome::kExit) << result.message;
  const cpu::Core& core = soc.hart(0).core();
  // mtimecmp = 1000 ticks of 100 MHz = 10 us = 8000 cycles of 800 MHz.
  constexpr uint64_t kWakeCycle = 8000;
  const uint32_t before = core.reg(8);  // s0: mcycle before WFI
  const uint32_t after = core.reg(9);   // s1: mcycle after WFI
  EXPECT_GE(after, kWakeCycle);
  EXPECT_LE(after, kWakeCycle + 8);
  EXPECT_LE(core.sleep_cycles(), kWakeCycle - before);
  EXPECT_GE(core.sleep_cycles(), kWakeCycle - before - 8);
  EXPECT_GE(soc.simulated_time(), sc_core::sc_time(10, sc_core::SC_US));
  EXPECT_LT(soc.simulated_time(), sc_core::sc_time(10'100, sc_core::SC_NS));
}

TEST(Soc, LoadFromAnUnmappedAddressRaisesALoadAccessFault) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("unmapped_load"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kExit);
  EXPECT_EQ(result.exit_code, 5);                           // mcause: load access fault
  EXPECT_EQ(soc.hart(0).core().reg(11), 0x30000000u);       // a1: mtval
}

TEST(Soc, TwoHartsBothRun) {
  SocConfig config = small_config();
  config.cpu.harts = 2;
  Soc soc("soc", config, nullptr);
  soc.load_program(program("two_harts"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kExit);
  EXPECT_EQ(result.exit_code, 0x77);  // written by hart 1, read by hart 0
  EXPECT_GT(soc.hart(0).core().instret(), 0u);
  EXPECT_GT(soc.hart(1).core().instret(), 0u);
  EXPECT_EQ(soc.hart(1).state(), Hart::State::kSleeping);
}

TEST(Soc, MaxTimeStopsARunawayLoop) {
  SocConfig config = small_config();
  config.sim.max_time_ps = 50'000'000;  // 50 us
  Soc soc("soc", config, nullptr);
  soc.load_program(program("spin"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kMaxTime);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(50, sc_core::SC_US));
  // 40000 cycles of jumps costing 2 each; the hart may be up to one quantum (800 cycles) ahead.
  const uint64_t instret = soc.hart(0).core().instret();
  EXPECT_GE(instret, 20'000u - 1);
  EXPECT_LE(instret, 20'000u + 401);
}

TEST(Soc, MaxInstructionsStopsARunawayLoop) {
  SocConfig config = small_config();
  config.sim.max_instructions = 10'000;
  Soc soc("soc", config, nullptr);
  soc.load_program(program("spin"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kMaxInstructions);
  // Checked after each batch, which lasts at most a quantum: 800 cycles, 400 jumps.
  const uint64_t instret = soc.hart(0).core().instret();
  EXPECT_GE(instret, 10'000u);
  EXPECT_LE(instret, 10'400u);
}

TEST(Soc, FaultRegisterReportsTheTrapWithItsFunction) {
  Soc soc("soc", small_config(), nullptr);
  const ElfImage elf = program("fault");
  soc.load_program(elf);
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kFault);
  EXPECT_NE(result.exit_code, 0);
  const uint32_t illegal_pc = *elf.symbol_address("main") + 8;
  EXPECT_TRUE(contains(result.message, "hart 0")) << result.message;
  EXPECT_TRUE(contains(result.message, fmt::format("pc {:#010x} (main+0x8)", illegal_pc)))
      << result.message;
  EXPECT_TRUE(contains(result.message, "mcause 0x00000002 (illegal instruction)"))
      << result.message;
  EXPECT_TRUE(contains(result.message, "mtval 0x00000000")) << result.message;
}

TEST(Soc, ATrapLoopIsAFault) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("trap_loop"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kFault);
  EXPECT_TRUE(contains(result.message, "hart 0 stuck in a trap loop")) << result.message;
  EXPECT_TRUE(contains(result.message, "(illegal instruction)")) << result.message;
}

TEST(Soc, AllHartsAsleepWithNothingPendingIsAHang) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("hang"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kHang);
  EXPECT_TRUE(contains(result.message, "asleep")) << result.message;
  EXPECT_EQ(soc.hart(0).state(), Hart::State::kSleeping);
}

TEST(Soc, TohostOneIsAPass) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("tohost_pass"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kTohostPass);
  EXPECT_EQ(result.exit_code, 0);
}

TEST(Soc, TohostOtherValuesFailWithTheCodeShiftedDown) {
  Soc soc("soc", small_config(), nullptr);
  soc.load_program(program("tohost_fail"));
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Outcome::kTohostFail);
  EXPECT_EQ(result.exit_code, 3);  // tohost = 7 = (3 << 1) | 1
}

TEST(Soc, RefusesASegmentOutsideEveryMemory) {
  Soc soc("soc", small_config(), nullptr);
  const ElfImage elf = program("outside");
  try {
    soc.load_program(elf);
    FAIL() << "segment outside memory accepted";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_TRUE(contains(message, elf.path())) << message;
    EXPECT_TRUE(contains(message, "0x40000000")) << message;
    EXPECT_TRUE(contains(message, "Memory map:")) << message;
  }
}

TEST(Soc, WritesTheBootConfigBlock) {
  SocConfig config = small_config();
  config.cpu.harts = 2;
  config.cpu.stack_bytes_per_hart = 4096;
  config.dram.size_bytes = 1 << 20;
  config.firmware.params.scheme = BOOT_SCHEME_LEAFTL;
  config.sim.seed = 1234;
  Soc soc("soc", config, nullptr);
  soc.load_program(program("exit"));
  boot_config_t block{};
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(MM_BOOT_CONFIG_ADDR);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&block));
  trans.set_data_length(sizeof(block));
  ASSERT_EQ(soc.router().debug_transport(trans), sizeof(block));
  EXPECT_EQ(block.magic, BOOT_CONFIG_MAGIC);
  EXPECT_EQ(block.version, BOOT_CONFIG_VERSION);
  EXPECT_EQ(block.size_bytes, sizeof(boot_config_t));
  EXPECT_EQ(block.hart_count, 2u);
  EXPECT_EQ(block.cpu_clock_hz, 800'000'000u);
  EXPECT_EQ(block.timebase_hz, 100'000'000u);
  EXPECT_EQ(block.rom_size, 64u * 1024);
  EXPECT_EQ(block.sram_size, 64u * 1024);
  EXPECT_EQ(block.dram_size, 1u << 20);
  EXPECT_EQ(block.stack_bytes_per_hart, 4096u);
  EXPECT_EQ(block.scheme, static_cast<uint32_t>(BOOT_SCHEME_LEAFTL));
  EXPECT_EQ(block.seed, 1234u);
}

TEST(Soc, RefusesAnInvalidConfigurationNamingTheKey) {
  SocConfig config = small_config();
  config.cpu.harts = MM_MAX_HARTS + 1;
  try {
    Soc soc("soc", config, nullptr);
    FAIL() << "too many harts accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_TRUE(contains(error.what(), "cpu.harts")) << error.what();
    EXPECT_TRUE(contains(error.what(), "1 .. 8")) << error.what();
  }
}

TEST(Soc, PrintsItsMemoryMapWithTheOptionalDram) {
  SocConfig config = small_config();
  config.dram.size_bytes = uint64_t{1} << 30;
  Soc soc("soc", config, nullptr);
  std::ostringstream map;
  soc.print_memory_map(map);
  const std::string text = map.str();
  EXPECT_TRUE(contains(text, "0x00000000 - 0x0000ffff  rom        64 KiB")) << text;
  EXPECT_TRUE(contains(text, "0x10000000 - 0x1000ffff  sram       64 KiB")) << text;
  EXPECT_TRUE(contains(text, "0x20010000 - 0x2001ffff  clint      64 KiB")) << text;
  EXPECT_TRUE(contains(text, "0x80000000 - 0xbfffffff  dram       1 GiB")) << text;
}

TEST(Soc, ProfilesCyclesPerInstructionAddress) {
  SocConfig config = small_config();
  config.sim.max_instructions = 1000;
  Soc soc("soc", config, nullptr);
  soc.load_program(program("spin"));
  soc.enable_profile();
  soc.run();
  // The program is one jump at address 0: every cycle is spent there.
  const std::vector<std::pair<uint32_t, uint64_t>> expected = {
      {MM_ROM_BASE, soc.hart(0).core().cycles()}};
  EXPECT_EQ(soc.profile(), expected);
}

TEST(Soc, TracesEveryRetiredInstruction) {
  Soc soc("soc", small_config(), nullptr);
  std::ostringstream trace;
  soc.set_instruction_trace(&trace);
  soc.load_program(program("exit"));
  soc.run();
  const std::string text = trace.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 9);
}

TEST(Soc, RecordsHartStatesInTheWaveform) {
  const std::string path = ::testing::TempDir() + "soc_wfi_timer.vcd";
  {
    WaveWriter waves(path);
    Soc soc("soc", small_config(), &waves);
    soc.load_program(program("wfi_timer"));
    EXPECT_EQ(soc.run().outcome, Outcome::kExit);
    waves.close();
  }
  std::ifstream file(path);
  std::stringstream contents;
  contents << file.rdbuf();
  const std::string vcd = contents.str();
  EXPECT_TRUE(contains(vcd, "hart0")) << vcd;
  EXPECT_TRUE(contains(vcd, "sleeping")) << vcd;
  EXPECT_TRUE(contains(vcd, "clint_transactions")) << vcd;
}

}  // namespace
}  // namespace ssdvp
