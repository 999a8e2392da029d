// Timing arithmetic: each figure recomputed here from the configuration's values.
#include "nand_model/timing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace ssdvp::nand {
namespace {

constexpr double kPsPerSecond = 1e12;

NandConfig config_with_bus(uint32_t rate_mts, uint32_t width_bits) {
  NandConfig config;
  config.bus_rate_mts = rate_mts;
  config.bus_width_bits = width_bits;
  return config;
}

TEST(NandTiming, ReadTimesFollowThePageType) {
  NandConfig config;
  config.read_lsb_ps = 11;
  config.read_clsb_ps = 22;
  config.read_cmsb_ps = 33;
  config.read_msb_ps = 44;
  const Geometry g(config);
  const Timing t(config, g);
  EXPECT_EQ(t.read_ps(NAND_PAGE_LSB), 11u);
  EXPECT_EQ(t.read_ps(NAND_PAGE_CLSB), 22u);
  EXPECT_EQ(t.read_ps(NAND_PAGE_CMSB), 33u);
  EXPECT_EQ(t.read_ps(NAND_PAGE_MSB), 44u);
}

TEST(NandTiming, DefaultsAreThoseOfTheQlcPaper) {
  const NandConfig config;
  const Geometry g(config);
  const Timing t(config, g);
  EXPECT_EQ(t.read_ps(NAND_PAGE_LSB), 90'000'000u);
  EXPECT_EQ(t.read_ps(NAND_PAGE_MSB), 180'000'000u);
  EXPECT_EQ(t.program_ps(), 1'300'000'000u);
  EXPECT_EQ(t.erase_ps(), 10'000'000'000u);
}

TEST(NandTiming, TransfersMoveBytesAtRateTimesWidth) {
  for (const auto& [rate, width] : {std::pair{1200u, 8u}, {800u, 16u}, {333u, 8u}}) {
    const NandConfig config = config_with_bus(rate, width);
    const Geometry g(config);
    const Timing t(config, g);
    const uint64_t bytes = 8192 + 128;
    const double seconds = bytes / (rate * 1e6 * width / 8.0);
    EXPECT_EQ(t.transfer_ps(bytes), static_cast<uint64_t>(std::ceil(seconds * kPsPerSecond)))
        << rate << " MT/s x " << width;
  }
}

TEST(NandTiming, CommandPhasesCostCyclesPerPlaneAddress) {
  NandConfig config;
  config.cmd_addr_cycles = 7;
  config.cmd_cycle_ps = 5000;
  const Geometry g(config);
  const Timing t(config, g);
  EXPECT_EQ(t.command_ps(), 35'000u);
  EXPECT_EQ(t.read_command_phase_ps(2), 70'000u);
  EXPECT_EQ(t.erase_command_phase_ps(1), 35'000u);
  EXPECT_EQ(t.read_data_out_ps(4096), 35'000u + t.transfer_ps(4096));
}

TEST(NandTiming, ProgramMovesEveryPageOfTheWordlineOnEveryPlane) {
  NandConfig config;
  config.page_bytes = 16384;
  config.oob_bytes = 256;
  const Geometry g(config);
  const Timing t(config, g);
  const uint64_t per_page = t.command_ps() + t.transfer_ps(16384 + 256);
  EXPECT_EQ(t.program_data_in_ps(1), 4 * per_page);
  EXPECT_EQ(t.program_data_in_ps(2), 8 * per_page);
}

TEST(NandTiming, BusWidthMustBeWholeBytes) {
  const NandConfig config = config_with_bus(1200, 12);
  const Geometry g(config);
  EXPECT_THROW(Timing(config, g), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::nand
