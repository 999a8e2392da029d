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
