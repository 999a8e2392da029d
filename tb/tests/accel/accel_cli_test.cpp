// ssdsim with the RQRMI accelerator (scenarios/rqrmi_accel.yaml): its waveform holds every signal
// of waves/rqrmi.gtkw and shows the accelerator working, stats.json reports its activity and area
// (also counted in the controller's), the RTL dump keeps to its window, and the scenario errors
// of the rqrmi_* keys.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tb/tests/support/ssdsim_runner.h"
#include "tb/tests/support/waveform_files.h"

namespace {

using namespace ssdvp::test;

const std::string kScenario = std::string(SSDVP_SOURCE_DIR) + "/scenarios/rqrmi_accel.yaml";

TEST(AccelScenario, WaveformHoldsEverySignalOfItsSaveFileAndTheAcceleratorsWork) {
  const std::string out = temp_dir("vcd");
  const std::string vcd = out + "/rqrmi.vcd";
  const SsdsimRun run = run_ssdsim(kScenario + " --vcd " + vcd + " --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("accelerator engine, 0 failures"), std::string::npos) << run.output;
  const auto variables = vcd_variables(vcd);

  size_t shown = 0;
  for (const SaveFileTrace& trace :
       save_file_traces(std::string(SSDVP_SOURCE_DIR) + "/waves/rqrmi.gtkw")) {
    ASSERT_EQ(variables.count(trace.name), 1u)
        << trace.name << " is not in the waveform ssdsim writes";
    EXPECT_EQ(variables.at(trace.name), trace.width) << trace.name;
    ++shown;
  }
  EXPECT_GE(shown, 6u);

  // The accelerator's state signal goes busy at least once.
  std::ifstream dump(vcd);
  const std::string text((std::istreambuf_iterator<char>(dump)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("sbusy"), std::string::npos);

  std::ifstream stats_file(out + "/stats.json");
  const nlohmann::json stats = nlohmann::json::parse(stats_file);
  const nlohmann::json& accel = stats["platform"]["accel"];
  EXPECT_GT(accel["jobs"].get<uint64_t>(), 100u);
  EXPECT_GT(accel["keys"].get<uint64_t>(), 1000u);
  EXPECT_GT(accel["memory_reads"].get<uint64_t>(), accel["keys"].get<uint64_t>() / 2);
  EXPECT_EQ(accel["weight_memory_bytes"], 64u * 80);
  const nlohmann::json& area = accel["area"];
  EXPECT_EQ(area["memory_bits"], 64u * 640 + 16u * 32 + 16u * (64 + 88));
  EXPECT_GT(area["logic_mm2"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(area["total_mm2"].get<double>(),
                   area["logic_mm2"].get<double>() + area["memory_mm2"].get<double>());
  // The controller's area counts the accelerator's.
  EXPECT_DOUBLE_EQ(stats["platform"]["area"]["accel_mm2"].get<double>(),
                   area["total_mm2"].get<double>());
}

TEST(AccelScenario, TheRtlDumpKeepsToItsWindow) {
  const std::string out = temp_dir("rtl");
  const std::string dump = out + "/rtl.vcd";
  const SsdsimRun run =
      run_ssdsim(kScenario + " --set accel.rtl_vcd=" + dump +
                 " --set accel.rtl_vcd_start=2ms --set accel.rtl_vcd_end=2100us --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(dump);
  ASSERT_TRUE(in) << dump;
  uint64_t first = 0;
  uint64_t last = 0;
  size_t stamps = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '#') continue;
    const uint64_t time = std::stoull(line.substr(1));
    if (stamps++ == 0) first = time;
    last = time;
  }
  EXPECT_GT(stamps, 100u);
  EXPECT_GE(first, 2'000'000'000u);
  // The last cycle starts before 2.1 ms; its rising edge half a 1.25 ns period later.
  EXPECT_LT(last, 2'100'000'000u + 625u);
}

TEST(AccelScenario, TheAcceleratorEngineNeedsTheAccelerator) {
  const SsdsimRun run = run_ssdsim(kScenario + " --set accel.present=false --out " +
                                   temp_dir("absent"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("firmware.rqrmi_engine"), std::string::npos) << run.output;
}

TEST(AccelScenario, AThirdStageNeedsASecond) {
  const SsdsimRun run =
      run_ssdsim(kScenario + " --set firmware.rqrmi_stage3_width=4 --out " + temp_dir("stages"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("firmware.rqrmi_stage2_width"), std::string::npos) << run.output;
}

TEST(AccelScenario, SizesBeyondTheHardwareAreRefused) {
  const SsdsimRun run =
      run_ssdsim(kScenario + " --set accel.submodels=257 --out " + temp_dir("sizes"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("accel.submodels"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("256"), std::string::npos) << run.output;
}

}  // namespace
