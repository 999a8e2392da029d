// Power losses on the assembled SoC with a program that spins (tb/tests/tlm/programs/spin.S):
// the hart runs no instruction from the cut to the power's return, whatever the quantum, and
// starts again at the entry point with the boot count and the reset cause telling why.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "interface/memory_map.h"
#include "interface/sysctrl_regs.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/sim_time.h"
#include "tlm/system/soc.h"

namespace ssdvp {
namespace {

constexpr uint64_t kUs = 1'000'000;

// 800 MHz (1250 ps a cycle), a quantum long enough that a hart not held at the cut would run
// far past it, a cut at 100 us and 50 us without power.
SocConfig spin_config(uint64_t max_time_ps) {
  SocConfig config;
  config.rom.size_bytes = 64 * 1024;
  config.sram.size_bytes = 64 * 1024;
  config.cpu.quantum_ps = 30 * kUs;
  config.host.power_loss.at = "100us";
  config.host.power_loss.off_ps = 50 * kUs;
  config.sim.max_time_ps = max_time_ps;
  return config;
}

ElfImage spin() { return ElfImage::load(std::string(TLM_TEST_PROGRAM_DIR) + "/spin.elf"); }

uint32_t sysctrl_register(Soc& soc, uint32_t offset) {
  uint32_t value = 0;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(MM_SYSCTRL_BASE + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(sizeof(value));
  EXPECT_EQ(soc.router().debug_transport(trans), sizeof(value));
  return value;
}

TEST(PowerLossSoc, TheHartRunsNothingFromTheCutUntilThePowerReturns) {
  // The run ends while the power is off: the hart's cycles are those up to the cut.
  Soc soc("soc", spin_config(125 * kUs), nullptr);
  soc.load_program(spin());
  soc.run();
  const cpu::Core& core = soc.hart(0).core();
  constexpr uint64_t kCutCycle = 100 * kUs / 1250;
  // The last jump (2 cycles) starts before the cut.
  EXPECT_GT(core.cycles(), kCutCycle - 2);
  EXPECT_LE(core.cycles(), kCutCycle + 1);
  EXPECT_EQ(soc.hart(0).state(), Hart::State::kOff);
  EXPECT_EQ(sysctrl_register(soc, SYSCTRL_BOOT_COUNT), 1u);

  nlohmann::json report;
  soc.report(report);
  const nlohmann::json& cut = report["power_loss"]["cuts"].at(0);
  EXPECT_EQ(cut["fail_ps"], 100 * kUs);
  EXPECT_EQ(cut["cut_ps"], 100 * kUs);
  EXPECT_TRUE(cut["power_on_ps"].is_null());
}

TEST(PowerLossSoc, ThePowerReturnsAfterTheOffTimeWithABootAfterPowerLoss) {
  Soc soc("soc", spin_config(200 * kUs), nullptr);
  const ElfImage program = spin();
  soc.load_program(program);
  EXPECT_EQ(sysctrl_register(soc, SYSCTRL_RESET_CAUSE), SYSCTRL_RESET_CAUSE_POWER_ON);
  soc.run();
  // Running 100 us before the cut and from the power's return at 150 us to the end (the
  // hart's time, which may pass the time limit by part of a quantum).
  const uint64_t cycles = soc.hart(0).core().cycles();
  const uint64_t run_ps = to_ps(soc.simulated_time()) - 50 * kUs;
  EXPECT_GE(cycles, run_ps / 1250 - 4);
  EXPECT_LE(cycles, run_ps / 1250 + 4);
  EXPECT_EQ(soc.hart(0).core().sleep_cycles(), 0u);
  EXPECT_EQ(soc.hart(0).core().pc(), program.entry());
  EXPECT_EQ(sysctrl_register(soc, SYSCTRL_BOOT_COUNT), 2u);
  EXPECT_EQ(sysctrl_register(soc, SYSCTRL_RESET_CAUSE), SYSCTRL_RESET_CAUSE_POWER_LOSS);

  nlohmann::json report;
  soc.report(report);
  const nlohmann::json& power = report["power_loss"];
  EXPECT_EQ(power["count"], 1u);
  EXPECT_EQ(power["boots"], 2u);
  EXPECT_EQ(power["cuts"][0]["power_on_ps"], 150 * kUs);
  // The program never starts the HIC: the controller is never ready.
  EXPECT_TRUE(power["cuts"][0]["ready_ps"].is_null());
  EXPECT_EQ(power["recovered"], 0u);
}

TEST(PowerLossSoc, SramLosesItsContentsAndRomKeepsTheProgram) {
  Soc soc("soc", spin_config(125 * kUs), nullptr);
  const ElfImage program = spin();
  soc.load_program(program);
  soc.run();
  // A pattern, not a fill: nearly every word of the SRAM differs from the others.
  std::vector<uint32_t> sram(64 * 1024 / 4);
  ASSERT_TRUE(soc.debug_reader()(MM_SRAM_BASE, sram.data(), sram.size() * 4));
  const std::set<uint32_t> distinct(sram.begin(), sram.end());
  EXPECT_GT(distinct.size(), sram.size() - 16);
  for (const ElfSegment& segment : program.segments()) {
    std::vector<uint8_t> rom(segment.bytes.size());
    ASSERT_TRUE(soc.debug_reader()(segment.address, rom.data(), rom.size()));
    EXPECT_EQ(rom, segment.bytes);
  }
}

}  // namespace
}  // namespace ssdvp
