// Time helpers and the log facility.
#include "tlm/system/sim_time.h"

#include <sstream>

#include <gtest/gtest.h>

#include "tlm/system/log.h"

namespace ssdvp {
namespace {

TEST(SimTime, PicosecondResolutionSurvivesAnEarlierScTime) {
  // SystemC's default resolution is 1 ps: an sc_time made first fixes it, which is acceptable.
  const sc_core::sc_time early(3, sc_core::SC_NS);
  EXPECT_NO_THROW(use_picosecond_resolution());
  EXPECT_NO_THROW(use_picosecond_resolution());
  EXPECT_EQ(to_ps(early), 3000u);
  EXPECT_EQ(from_ps(1250), sc_core::sc_time(1.25, sc_core::SC_NS));
}

TEST(SimTime, RefusesAnotherResolution) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
  EXPECT_THROW(use_picosecond_resolution(), std::runtime_error);
}

TEST(Clock, ConvertsCyclesAndPicosecondsExactly) {
  const Clock clock(800'000'000, "cpu.clock_hz");  // 1250 ps
  EXPECT_EQ(clock.cycles_to_ps(8000), 10'000'000u);
  EXPECT_EQ(clock.ps_to_cycles_floor(2499), 1u);
  EXPECT_EQ(clock.ps_to_cycles_ceil(2501), 3u);
  EXPECT_EQ(clock.ps_to_cycles_ceil(2500), 2u);

  const Clock odd(3'000'000'000, "cpu.clock_hz");  // 333.33 ps: no drift over many cycles
  EXPECT_EQ(odd.cycles_to_ps(3'000'000'000), 1'000'000'000'000u);
  EXPECT_EQ(odd.cycles_to_ps(1), 333u);
  EXPECT_EQ(odd.ps_to_cycles_ceil(334), 2u);
  EXPECT_EQ(*odd.first_ps_with_cycles(2), 667u);
  EXPECT_EQ(odd.ps_to_cycles_floor(667), 2u);
  EXPECT_EQ(odd.ps_to_cycles_floor(666), 1u);

  const Clock slow(1, "cpu.timebase_hz");
  EXPECT_FALSE(slow.first_ps_with_cycles(UINT64_MAX).has_value());
}

// A whole-picosecond period takes a 64-bit fast path: it must give what the exact 128-bit
// formulas give, up to the edge of 64-bit picoseconds.
TEST(Clock, WholePicosecondPeriodsMatchTheExactFormulas) {
  constexpr unsigned __int128 kPsPerSecond = 1'000'000'000'000;
  const uint64_t samples[] = {0, 1, 7, 1249, 1250, 1251, 999'999'999'999, 123'456'789'012'345,
                              UINT64_MAX / 1250, UINT64_MAX / 1250 + 1, UINT64_MAX / 1000,
                              UINT64_MAX - 1, UINT64_MAX};
  for (const uint64_t hz : {uint64_t{1}, uint64_t{100'000'000}, uint64_t{800'000'000},
                            uint64_t{1'000'000'000}, uint64_t{1'000'000'000'000}}) {
    const Clock clock(hz, "cpu.clock_hz");
    for (const uint64_t value : samples) {
      const unsigned __int128 ps = static_cast<unsigned __int128>(value) * kPsPerSecond / hz;
      if (ps > UINT64_MAX) {
        EXPECT_THROW(clock.cycles_to_ps(value), std::runtime_error) << hz << " Hz, " << value;
        EXPECT_FALSE(clock.first_ps_with_cycles(value).has_value()) << hz << " Hz, " << value;
      } else {
        EXPECT_EQ(clock.cycles_to_ps(value), static_cast<uint64_t>(ps)) << hz << " Hz, " << value;
        EXPECT_EQ(*clock.first_ps_with_cycles(value), static_cast<uint64_t>(ps));
      }
      const unsigned __int128 scaled = static_cast<unsigned __int128>(value) * hz;
      EXPECT_EQ(clock.ps_to_cycles_floor(value), static_cast<uint64_t>(scaled / kPsPerSecond))
          << hz << " Hz, " << value;
      EXPECT_EQ(clock.ps_to_cycles_ceil(value),
                static_cast<uint64_t>((scaled + kPsPerSecond - 1) / kPsPerSecond))
          << hz << " Hz, " << value;
    }
  }
}

TEST(Clock, RefusesFrequenciesWithoutAPicosecondPeriod) {
  try {
    Clock(0, "cpu.timebase_hz");
    FAIL() << "0 Hz accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("cpu.timebase_hz"), std::string::npos);
  }
  EXPECT_THROW(Clock(2'000'000'000'000, "cpu.clock_hz"), std::runtime_error);
}

struct NamedModel : sc_core::sc_module {
  explicit NamedModel(sc_core::sc_module_name name) : sc_core::sc_module(name) {}
};

TEST(Log, FiltersByVerbosityAndNamesTheModel) {
  use_picosecond_resolution();
  std::ostringstream sink;
  log::set_sink(sink);
  log::set_verbosity(log::Level::kInfo);
  NamedModel model("model");
  log::info(model, "value {}", 7);
  log::debug(model, "hidden");
  EXPECT_EQ(sink.str(), "[         0.000000 us] info  model: value 7\n");
  EXPECT_EQ(log::parse_level("debug"), log::Level::kDebug);
  EXPECT_THROW(log::parse_level("verbose"), std::runtime_error);
}

}  // namespace
}  // namespace ssdvp
