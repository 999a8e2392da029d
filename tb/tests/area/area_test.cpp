// The silicon area model (tlm/system/area_model.h) and the controller's area
// (tlm/system/controller_area.h): the figures of rtl/area_model.yaml priced by hand here, the
// parts summing to the total, the macro efficiency by size, the scenario key area.node, and the
// SoC's report (platform.area) with and without the accelerator.
#include <gtest/gtest.h>

#include <functional>
#include <fstream>
#include <sstream>
#include <string>

#include "tb/report/stats_report.h"
#include "tb/scenario/scenario.h"
#include "tb/tests/support/ssdsim_runner.h"
#include "tlm/system/area_model.h"
#include "tlm/system/controller_area.h"
#include "tlm/system/soc.h"

namespace ssdvp::test {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr double kUm2PerMm2 = 1e6;

// rtl/area_model.yaml's figures, restated: changing the file changes these tests.
constexpr double kGates28nmUm2 = 0.49;
constexpr double kSramBit28nmUm2 = 0.127;
constexpr double kRomBit28nmUm2 = 0.042;
constexpr double kGates40nmUm2 = 0.98;
constexpr double kSramBit40nmUm2 = 0.242;
constexpr double kRomBit40nmUm2 = 0.081;
constexpr double kCoreGates = 62000;
constexpr double kHicGates = 500000;
constexpr double kNfcChannelGates = 60000;
constexpr double kEccChannelGates = 700000;
// Array efficiency: 0.60 up to 32 KiB, 0.75 from 512 KiB, linear in log2(bytes) between, four
// doublings: 64 KiB 0.6375, 128 KiB 0.675, 256 KiB 0.7125.

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "no error";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

AreaModel file_model(const std::string& node) { return load_area_model(area_model_path(), node); }

// ---- The area model ---------------------------------------------------------------------------

TEST(AreaModel, TheFileHasFiguresForEachNodeAndTheDefaultIsOne) {
  EXPECT_EQ(area_model_nodes(area_model_path()), (std::vector<std::string>{"28nm", "40nm"}));
  const AreaModel model = file_model(AreaConfig().node);
  EXPECT_EQ(model.node, "28nm");
  EXPECT_DOUBLE_EQ(model.nand2_um2, kGates28nmUm2);
  EXPECT_DOUBLE_EQ(model.sram_bit_um2, kSramBit28nmUm2);
  EXPECT_DOUBLE_EQ(model.rom_bit_um2, kRomBit28nmUm2);
  EXPECT_DOUBLE_EQ(model.cpu_core_gates, kCoreGates);
}

TEST(AreaModel, ArrayEfficiencyGrowsWithTheMacroBetweenItsPoints) {
  const AreaModel model = file_model("28nm");
  EXPECT_DOUBLE_EQ(model.array_efficiency(4 * kKiB), 0.60);
  EXPECT_DOUBLE_EQ(model.array_efficiency(32 * kKiB), 0.60);
  EXPECT_DOUBLE_EQ(model.array_efficiency(128 * kKiB), 0.675);
  EXPECT_DOUBLE_EQ(model.array_efficiency(256 * kKiB), 0.7125);
  EXPECT_DOUBLE_EQ(model.array_efficiency(512 * kKiB), 0.75);
  EXPECT_DOUBLE_EQ(model.array_efficiency(64 * kMiB), 0.75);
}

TEST(AreaModel, TheAcceleratorsMemoriesKeepTheirSmallMacroEfficiency) {
  // At 28 nm the accelerator's memory is priced as it always was: 0.127 um2 a bit at 60 %,
  // from the default sizes (43904 bits) to the largest (256 submodels, 64-entry FIFOs).
  const AreaModel model = file_model("28nm");
  EXPECT_DOUBLE_EQ(model.sram_mm2(43904), 43904 * 0.127 / 0.6 / kUm2PerMm2);
  const uint64_t largest = 256 * 640 + 64 * 32 + 64 * (64 + 88);
  EXPECT_DOUBLE_EQ(model.sram_mm2(largest), largest * 0.127 / 0.6 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(model.logic_mm2(1000), 1000 * 0.49 / kUm2PerMm2);
}

TEST(AreaModel, AnUnknownNodeNamesTheKeyAndTheAllowedNodes) {
  const std::string message = message_of([] { file_model("7nm"); });
  EXPECT_TRUE(contains(message, "area.node")) << message;
  EXPECT_TRUE(contains(message, "7nm")) << message;
  EXPECT_TRUE(contains(message, "allowed 28nm, 40nm")) << message;
}

// Writes `text` to a new file of this test process's scratch directory.
std::string write_model(const std::string& text) {
  static const std::string dir = temp_dir("area_models");
  static int written = 0;
  const std::string path = dir + "/model" + std::to_string(written++) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

constexpr const char* kLogic = R"(
gate_equivalents: {$_NAND_: 1.0}
logic_gate_equivalents: {cpu_core: 1, hic: 1, nfc_channel: 1, ecc_channel: 1}
)";

TEST(AreaModelFile, ProblemsNameTheFileAndTheFigure) {
  const std::string efficiency = "macro_array_efficiency: [{bytes: 1024, efficiency: 0.5}]\n";
  const std::string node =
      "nodes: {5nm: {nand2_um2: 0.1, sram_bit_um2: 0.02, rom_bit_um2: 0.01}}\n";
  const auto problem = [&](const std::string& text) {
    const std::string path = write_model(text);
    const std::string message = message_of([&] { load_area_model(path, "5nm"); });
    EXPECT_TRUE(contains(message, path)) << message;
    return message;
  };
  EXPECT_EQ(load_area_model(write_model(kLogic + efficiency + node), "5nm").nand2_um2, 0.1);
  EXPECT_TRUE(contains(problem(kLogic + efficiency), "nodes"));
  EXPECT_TRUE(contains(problem(kLogic + efficiency +
                               "nodes: {5nm: {nand2_um2: 0, sram_bit_um2: 1, rom_bit_um2: 1}}"),
                       "nodes.5nm.nand2_um2 must be a number above 0"));
  EXPECT_TRUE(contains(problem(kLogic + node), "macro_array_efficiency"));
  EXPECT_TRUE(contains(problem(kLogic + node +
                               "macro_array_efficiency: [{bytes: 1024, efficiency: 1.5}]"),
                       "efficiency must be at most 1"));
  EXPECT_TRUE(contains(problem(kLogic + node +
                               "macro_array_efficiency: [{bytes: 1024, efficiency: 0.5}, "
                               "{bytes: 512, efficiency: 0.6}]"),
                       "macro_array_efficiency[1].bytes must be above"));
  EXPECT_TRUE(contains(problem("gate_equivalents: {$_NAND_: 1.0}\n" + efficiency + node +
                               "logic_gate_equivalents: {cpu_core: 1, hic: 1, nfc_channel: 1}"),
                       "logic_gate_equivalents.ecc_channel"));
  EXPECT_TRUE(contains(message_of([] { load_area_model("/nonexistent.yaml", "28nm"); }),
                       "/nonexistent.yaml"));
}

// ---- The controller's area --------------------------------------------------------------------

void expect_parts_sum_to_total(const ControllerArea& area) {
  EXPECT_DOUBLE_EQ(area.fixed_mm2, area.hic_mm2 + area.nfc_mm2 + area.ecc_mm2);
  EXPECT_DOUBLE_EQ(area.total_mm2, area.sram_mm2 + area.rom_mm2 + area.cpu_mm2 + area.accel_mm2 +
                                       area.fixed_mm2);
}

TEST(ControllerArea, TheDefaultControllerAt28nmPricedByHand) {
  const SocConfig config;  // 1 MiB SRAM, 256 KiB ROM, one hart, two channels
  const ControllerArea area = estimate_controller_area(file_model("28nm"), config, 0.0);
  EXPECT_EQ(area.node, "28nm");
  EXPECT_DOUBLE_EQ(area.sram_array_efficiency, 0.75);
  EXPECT_DOUBLE_EQ(area.sram_mm2, 1 * kMiB * 8 * kSramBit28nmUm2 / 0.75 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.rom_array_efficiency, 0.7125);
  EXPECT_DOUBLE_EQ(area.rom_mm2, 256 * kKiB * 8 * kRomBit28nmUm2 / 0.7125 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.cpu_core_mm2, kCoreGates * kGates28nmUm2 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.cpu_mm2, area.cpu_core_mm2);
  EXPECT_DOUBLE_EQ(area.accel_mm2, 0.0);
  EXPECT_DOUBLE_EQ(area.hic_mm2, kHicGates * kGates28nmUm2 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.nfc_mm2, 2 * kNfcChannelGates * kGates28nmUm2 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.ecc_mm2, 2 * kEccChannelGates * kGates28nmUm2 / kUm2PerMm2);
  // 1.420471 + 0.123622 + 0.030380 + 0.245 + 0.0588 + 0.686
  EXPECT_NEAR(area.total_mm2, 2.564273, 1e-6);
  expect_parts_sum_to_total(area);
}

TEST(ControllerArea, HartsChannelsAndTheNodeScaleTheirParts) {
  SocConfig config;
  config.sram.size_bytes = 128 * kKiB;
  config.rom.size_bytes = 64 * kKiB;
  config.cpu.harts = 2;
  config.nand.channels = 4;
  const ControllerArea area = estimate_controller_area(file_model("40nm"), config, 0.25);
  EXPECT_DOUBLE_EQ(area.sram_mm2, 128 * kKiB * 8 * kSramBit40nmUm2 / 0.675 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.rom_mm2, 64 * kKiB * 8 * kRomBit40nmUm2 / 0.6375 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.cpu_mm2, 2 * kCoreGates * kGates40nmUm2 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.accel_mm2, 0.25);
  EXPECT_DOUBLE_EQ(area.nfc_mm2, 4 * kNfcChannelGates * kGates40nmUm2 / kUm2PerMm2);
  EXPECT_DOUBLE_EQ(area.ecc_mm2, 4 * kEccChannelGates * kGates40nmUm2 / kUm2PerMm2);
  // 0.375934 + 0.066615 + 0.12152 + 0.25 + 0.49 + 0.2352 + 2.744
  EXPECT_NEAR(area.total_mm2, 4.283269, 1e-6);
  expect_parts_sum_to_total(area);
}

TEST(ControllerArea, GrowsWithTheSram) {
  const AreaModel model = file_model("28nm");
  SocConfig config;
  double previous = 0;
  // From the smallest SRAM the scenario allows, across both efficiency points, past 512 KiB.
  for (uint64_t bytes = 16 * kKiB; bytes <= 64 * kMiB; bytes += bytes / 2) {
    config.sram.size_bytes = bytes;
    const ControllerArea area = estimate_controller_area(model, config, 0.0);
    EXPECT_GT(area.sram_mm2, previous) << bytes << " bytes";
    expect_parts_sum_to_total(area);
    previous = area.sram_mm2;
  }
}

TEST(ControllerArea, DramIsOffChip) {
  SocConfig config;
  const AreaModel model = file_model("28nm");
  const double without = estimate_controller_area(model, config, 0.0).total_mm2;
  config.dram.size_bytes = 64 * kMiB;
  EXPECT_DOUBLE_EQ(estimate_controller_area(model, config, 0.0).total_mm2, without);
}

// ---- The scenario key and the report ----------------------------------------------------------

TEST(AreaScenario, TheNodeIsAScenarioKeyAndAnUnknownOneIsRefused) {
  EXPECT_EQ(load_scenarios("area:\n  node: 40nm\n", "test.yaml", {}).at(0).soc.area.node, "40nm");
  EXPECT_EQ(load_scenarios("name: x\n", "test.yaml", {}).at(0).soc.area.node, "28nm");
  const std::string message =
      message_of([] { load_scenarios("area:\n  node: 7nm\n", "test.yaml", {}); });
  EXPECT_TRUE(contains(message, "area.node")) << message;
  EXPECT_TRUE(contains(message, "28nm, 40nm")) << message;
}

// SystemC: each of these runs in a process of its own (gtest_discover_tests).
TEST(AreaReport, WithoutTheAcceleratorItsPartIsZero) {
  Soc soc("soc", SocConfig(), nullptr);
  nlohmann::json report;
  soc.report(report);
  const nlohmann::json& area = report.at("area");
  EXPECT_EQ(area.at("node"), "28nm");
  EXPECT_EQ(area.at("accel_mm2").get<double>(), 0.0);
  EXPECT_NEAR(area.at("total_mm2").get<double>(), 2.564273, 1e-6);
  EXPECT_EQ(area.at("harts"), 1u);
  EXPECT_EQ(area.at("channels"), 2u);
}

TEST(AreaReport, TheAcceleratorsPartIsItsOwnArea) {
  SocConfig config;
  config.accel.present = true;
  config.area.node = "40nm";
  Soc soc("soc", config, nullptr);
  nlohmann::json report;
  soc.report(report);
  const double accel = report.at("accel").at("area").at("total_mm2").get<double>();
  EXPECT_GT(accel, 0.0);
  EXPECT_EQ(report.at("accel").at("area").at("node"), "40nm");
  EXPECT_DOUBLE_EQ(report.at("area").at("accel_mm2").get<double>(), accel);
  EXPECT_EQ(report.at("area").at("node"), "40nm");
}

TEST(AreaReport, TheSocRefusesAnUnknownNode) {
  SocConfig config;
  config.area.node = "90nm";
  const std::string message = message_of([&] { Soc soc("soc", config, nullptr); });
  EXPECT_TRUE(contains(message, "area.node")) << message;
  EXPECT_TRUE(contains(message, "allowed 28nm, 40nm")) << message;
}

TEST(AreaSummary, TheSummaryShowsTheTotalAndItsParts) {
  ControllerArea area;
  area.node = "28nm";
  area.total_mm2 = 2.5;
  area.sram_mm2 = 1.25;
  area.rom_mm2 = 0.125;
  area.harts = 2;
  area.cpu_mm2 = 0.06;
  area.channels = 4;
  area.fixed_mm2 = 1.0;
  area.hic_mm2 = 0.25;
  area.nfc_mm2 = 0.125;
  area.ecc_mm2 = 0.625;
  const nlohmann::json stats = {
      {"scenario", {{"name", "s"}, {"source", "s.yaml"}, {"sweep_label", ""}}},
      {"outcome", {{"outcome", "workload_done"}, {"exit_code", 0}, {"message", ""}}},
      {"platform", {{"simulated_time_ps", 1}, {"area", area.to_json()}}},
      {"harts", nlohmann::json::array()},
      {"simulator",
       {{"instructions", 0}, {"wall_seconds", 0.0}, {"mips", 0.0}, {"sim_speed", 0.0}}}};
  std::ostringstream out;
  print_summary(out, stats);
  EXPECT_TRUE(contains(out.str(), "area            2.500 mm2 at 28nm: SRAM 1.250, ROM 0.125, "
                                  "CPU 0.060 (2 harts), accel 0.000\n"))
      << out.str();
  EXPECT_TRUE(contains(out.str(), "fixed 1.000: HIC 0.250, NFC 0.125 and ECC 0.625 (4 channels)"))
      << out.str();
}

}  // namespace
}  // namespace ssdvp::test
