// The product FTL under power cuts, end to end through ssdsim: the platform cuts the power (the
// NAND keeps what was programmed, RAM is lost, outstanding host commands fail), the firmware
// boots again on the same NAND and recovers its mappings by scanning the OOB, and the host reads
// every guaranteed LPN back (a write completed before a completed flush) before it goes on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tb/tests/support/ssdsim_runner.h"

namespace {

using namespace ssdvp::test;

// The default scenario with half its random requests writes and a flush after every 8 of them;
// the ideal scheme's whole table (about 490 KiB) in a larger SRAM.
std::string cut_run_arguments(const std::string& out, const std::string& scheme,
                              const std::string& sets) {
  const std::string table =
      std::string(scheme) == "ideal" ? " --set sram.size=2MiB --set ftl.map_budget=1MiB" : "";
  return std::string(SSDVP_SOURCE_DIR) + "/scenarios/default.yaml --out " + out +
         " --set firmware.scheme=" + scheme + table +
         " --set workload.phases[1].streams[0].read_fraction=0.5"
         " --set workload.phases[1].streams[0].fsync=8 " + sets;
}

class FtlRecovery : public ::testing::TestWithParam<const char*> {};

TEST_P(FtlRecovery, EveryGuaranteedWriteReadsBackAfterEachCut) {
  const std::string out = temp_dir(std::string("recovery_") + GetParam());
  const SsdsimRun run = run_ssdsim(
      cut_run_arguments(out, GetParam(), "--set host.power_loss.after_commands=\"1000, 2500\""));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["outcome"]["outcome"], "workload_done");
  const nlohmann::json& power = stats["platform"]["power_loss"];
  EXPECT_EQ(power["count"], 2u);
  EXPECT_EQ(power["recovered"], 2u);
  // The host read back what it was promised, after each cut.
  const nlohmann::json& verification = stats["host"]["verification"];
  EXPECT_GT(verification["pages"].get<uint64_t>(), 0u) << verification.dump();
  EXPECT_EQ(verification["failures"], 0u);
  EXPECT_EQ(stats["host"]["oracle"]["power_losses"], 2u);
  // The firmware knew it booted after a cut and scanned the NAND to recover.
  const nlohmann::json& recovery = stats["ftl"]["run"]["recovery"];
  EXPECT_EQ(recovery["power_losses"], 2u);
  EXPECT_GT(recovery["pages_scanned"].get<uint64_t>(), 0u);
  EXPECT_GT(stats["ftl"]["run"]["flash_reads"]["recovery"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(CoreSchemes, FtlRecovery,
                         ::testing::Values("ideal", "dftl", "tpftl", "sftl"));

TEST(FtlRecoveryScenario, ASchemeWithoutRecoveryStopsItsBootClearly) {
  const std::string out = temp_dir("recovery_leaftl");
  const SsdsimRun run =
      run_ssdsim(cut_run_arguments(out, "leaftl", "--set host.power_loss.after_commands=1000"));
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("this mapping scheme cannot recover its mappings yet"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(read_json(out + "/stats.json")["outcome"]["exit_code"], 10);
}

}  // namespace
