// The platform side of the FTL, testable without the FTL firmware: the ftl.* keys reach the
// boot-config block, the host's capacity and page derive from the NAND, cross-key errors name
// their keys, the per-phase metrics follow their definitions, and the FTL scenarios are valid.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "interface/boot_config.h"
#include "interface/fw_stats.h"
#include "interface/memory_map.h"
#include "tb/tests/support/ssdsim_runner.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/ftl_metrics.h"
#include "tlm/system/soc.h"

namespace ssdvp {
namespace {

using test::read_json;
using test::run_ssdsim;
using test::temp_dir;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

boot_config_t boot_config_of(Soc& soc) {
  boot_config_t block{};
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(MM_BOOT_CONFIG_ADDR);
  trans.set_data_ptr(reinterpret_cast<uint8_t*>(&block));
  trans.set_data_length(sizeof(block));
  EXPECT_EQ(soc.router().debug_transport(trans), sizeof(block));
  return block;
}

ElfImage product_firmware() {
  return ElfImage::load(std::string(SSDVP_FIRMWARE_DIR) + "/firmware.elf");
}

// ---- Boot config ------------------------------------------------------------------------------

TEST(FtlBootConfig, CarriesEveryFtlSetting) {
  SocConfig config;
  config.dram.size_bytes = 16 << 20;
  config.ftl.map_budget_bytes = 12345;
  config.ftl.write_buffer_pages = 48;
  config.ftl.write_buffer_location = static_cast<uint32_t>(WriteBufferLocation::kDram);
  config.ftl.op = 0.25;
  config.ftl.gc_foreground_free = 3;
  config.ftl.gc_background_free = 9;
  config.ftl.wl_static_spread = 17;
  config.ftl.alloc_order = "PDWC";
  config.ftl.multi_plane = false;
  config.ftl.dftl_whole_tp = true;
  config.ftl.tpftl_prefetch_max = 33;
  Soc soc("soc", config, nullptr);
  soc.load_program(product_firmware());
  const boot_config_t block = boot_config_of(soc);
  EXPECT_EQ(block.ftl_map_budget_bytes, 12345u);
  EXPECT_EQ(block.ftl_write_buffer_pages, 48u);
  EXPECT_EQ(block.ftl_write_buffer_in_dram, 1u);
  EXPECT_EQ(block.ftl_gc_foreground_free, 3u);
  EXPECT_EQ(block.ftl_gc_background_free, 9u);
  EXPECT_EQ(block.ftl_gc_victim, static_cast<uint32_t>(BOOT_GC_VICTIM_GREEDY));
  EXPECT_EQ(block.ftl_wl_static_spread, 17u);
  // PDWC: plane fastest, then die, way, channel.
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 0), BOOT_ALLOC_LEVEL_PLANE);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 1), BOOT_ALLOC_LEVEL_DIE);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 2), BOOT_ALLOC_LEVEL_WAY);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 3), BOOT_ALLOC_LEVEL_CHANNEL);
  EXPECT_EQ(block.ftl_multi_plane, 0u);
  EXPECT_EQ(block.ftl_fsp_policy, static_cast<uint32_t>(BOOT_FSP_BASELINE));
  EXPECT_EQ(block.ftl_dftl_whole_tp, 1u);
  EXPECT_EQ(block.ftl_tpftl_prefetch_max, 33u);
  // The default geometry: 2 x 2 x 1 x 2 planes x 256 blocks x 64 pages; a quarter hidden.
  EXPECT_EQ(block.ftl_lpn_count, 131072u * 3 / 4);
}

TEST(FtlBootConfig, DefaultOrderIsChannelWayDiePlane) {
  Soc soc("soc", SocConfig{}, nullptr);
  soc.load_program(product_firmware());
  const boot_config_t block = boot_config_of(soc);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 0), BOOT_ALLOC_LEVEL_CHANNEL);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 1), BOOT_ALLOC_LEVEL_WAY);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 2), BOOT_ALLOC_LEVEL_DIE);
  EXPECT_EQ(BOOT_ALLOC_ORDER_LEVEL(block.ftl_alloc_order, 3), BOOT_ALLOC_LEVEL_PLANE);
  EXPECT_EQ(block.ftl_write_buffer_in_dram, 0u);
  EXPECT_EQ(block.ftl_multi_plane, 1u);
  // 131072 physical pages, 7 % hidden: 121896.96 rounds down.
  EXPECT_EQ(block.ftl_lpn_count, 121896u);
}

// ---- Host capacity and page ---------------------------------------------------------------------

TEST(FtlHostCapacity, DerivedFromTheNandAndOverProvisioning) {
  const std::string out = temp_dir("ftl_capacity");
  // 2 x 1 x 1 x 1 plane x 100 blocks x 64 pages = 12800 pages of 4 KiB; 10 % hidden: 11520.
  const test::SsdsimRun run = run_ssdsim(
      "--set nand.channels=2 --set nand.ways=1 --set nand.planes=1 --set nand.blocks=100 "
      "--set nand.page_size=4KiB --set ftl.op=0.1 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["host"]["capacity_bytes"], uint64_t{11520} * 4096);
  EXPECT_EQ(stats["host"]["hic"]["page_bytes"], 4096u);
}

TEST(FtlHostCapacity, ContradictingCapacityNamesBothKeys) {
  const test::SsdsimRun run = run_ssdsim("--set host.capacity=256MiB --memory-map");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "host.capacity")) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.op")) << run.output;
  EXPECT_TRUE(contains(run.output, "121896 LPNs")) << run.output;
}

TEST(FtlHostCapacity, ContradictingPageSizeNamesBothKeys) {
  const test::SsdsimRun run = run_ssdsim("--set host.page_size=4KiB --memory-map");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "host.page_size")) << run.output;
  EXPECT_TRUE(contains(run.output, "nand.page_size")) << run.output;
}

TEST(FtlHostCapacity, MatchingExplicitValuesAreAccepted) {
  const uint64_t bytes = uint64_t{121896} * 8192;
  const test::SsdsimRun run = run_ssdsim("--set host.capacity=" + std::to_string(bytes) +
                                         " --set host.page_size=8KiB --memory-map");
  EXPECT_EQ(run.exit_code, 0) << run.output;
}

TEST(FtlHostCapacity, TestFirmwareKeepsItsExplicitValues) {
  const std::string out = temp_dir("ftl_ramdisk");
  const test::SsdsimRun run = run_ssdsim(
      "--set firmware.elf=builtin:ramdisk --set dram.size=4MiB --set host.capacity=64MiB "
      "--set host.page_size=4KiB --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json stats = read_json(out + "/stats.json");
  EXPECT_EQ(stats["host"]["capacity_bytes"], uint64_t{64} << 20);
  EXPECT_EQ(stats["host"]["hic"]["page_bytes"], 4096u);
  // The RAM disk keeps no fw_stats block: no FTL section.
  EXPECT_FALSE(stats.contains("ftl"));
}

// ---- Cross-key errors ---------------------------------------------------------------------------

TEST(FtlConfigErrors, AllocOrderMustBeAPermutationOfCWDP) {
  for (const char* bad : {"CWD", "CWDX", "CCDP", "CWDPC"}) {
    const test::SsdsimRun run = run_ssdsim(std::string("--set ftl.alloc_order=") + bad +
                                           " --memory-map");
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.output;
    EXPECT_TRUE(contains(run.output, "ftl.alloc_order")) << run.output;
    EXPECT_TRUE(contains(run.output, "permutation of the letters C")) << run.output;
  }
  EXPECT_EQ(run_ssdsim("--set ftl.alloc_order=DPCW --memory-map").exit_code, 0);
}

TEST(FtlConfigErrors, DramWriteBufferNeedsDram) {
  const test::SsdsimRun run = run_ssdsim("--set ftl.write_buffer.location=dram --memory-map");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.write_buffer.location")) << run.output;
  EXPECT_TRUE(contains(run.output, "dram.size")) << run.output;
  EXPECT_EQ(run_ssdsim("--set ftl.write_buffer.location=dram --set dram.size=8MiB --memory-map")
                .exit_code,
            0);
}

TEST(FtlConfigErrors, ForegroundThresholdBelowBackground) {
  const test::SsdsimRun run = run_ssdsim(
      "--set ftl.gc.foreground_free=4 --set ftl.gc.background_free=4 --memory-map");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.gc.foreground_free")) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.gc.background_free")) << run.output;
}

TEST(FtlConfigErrors, RangesAndNamesComeFromTheRegistry) {
  const test::SsdsimRun op = run_ssdsim("--set ftl.op=0.6 --memory-map");
  EXPECT_EQ(op.exit_code, 2) << op.output;
  EXPECT_TRUE(contains(op.output, "ftl.op")) << op.output;
  EXPECT_TRUE(contains(op.output, "[0.02, 0.5]")) << op.output;
  const test::SsdsimRun victim = run_ssdsim("--set ftl.gc.victim=oldest --memory-map");
  EXPECT_EQ(victim.exit_code, 2) << victim.output;
  EXPECT_TRUE(contains(victim.output, "greedy")) << victim.output;
  const test::SsdsimRun fsp = run_ssdsim("--set ftl.fsp.policy=rl --memory-map");
  EXPECT_EQ(fsp.exit_code, 2) << fsp.output;
  EXPECT_TRUE(contains(fsp.output, "baseline")) << fsp.output;
}

// ---- Scenarios ----------------------------------------------------------------------------------

TEST(FtlScenarios, EveryFtlScenarioIsValid) {
  for (const char* name : {"ideal", "dftl", "tpftl", "sftl", "gc_stress"}) {
    const test::SsdsimRun run = run_ssdsim(std::string(SSDVP_SOURCE_DIR) + "/scenarios/" + name +
                                           ".yaml --memory-map");
    EXPECT_EQ(run.exit_code, 0) << name << ": " << run.output;
  }
}

// ---- Metrics ------------------------------------------------------------------------------------

FtlMetrics::Snapshot valid_snapshot() {
  FtlMetrics::Snapshot snapshot;
  snapshot.stats.magic = FW_STATS_MAGIC;
  snapshot.stats.version = FW_STATS_VERSION;
  return snapshot;
}

TEST(FtlMetricsSpan, FollowsTheDefinitions) {
  FtlMetrics::Snapshot begin = valid_snapshot();
  begin.stats.host_read_pages = 100;
  begin.stats.map_lookups = 50;
  begin.stats.map_hits = 10;
  begin.instructions = 1000;
  begin.cycles = 5000;
  begin.sleep_cycles = 1000;
  begin.host_commands = 7;
  FtlMetrics::Snapshot end = begin;
  end.stats.host_read_pages += 200;
  end.stats.host_write_pages = 400;
  end.stats.map_lookups += 600;
  end.stats.map_hits += 150;
  end.stats.flash_reads_host = 190;      // 10 reads served by the write buffer
  end.stats.flash_reads_translation = 130;
  end.stats.flash_reads_translation_host = 110;
  end.stats.pages_programmed_host = 400;
  end.stats.pages_programmed_gc = 120;
  end.stats.pages_programmed_translation = 30;
  end.stats.pages_programmed_padding = 10;
  end.stats.gc_invocations = 4;
  end.stats.gc_pages_moved = 120;
  end.instructions += 80000;
  end.cycles += 200000;
  end.sleep_cycles += 100000;
  end.host_commands += 40;
  end.erase_counts = {2, 3.5, 6};
  const nlohmann::json m = FtlMetrics::span_metrics(begin, end);
  EXPECT_EQ(m["host_read_pages"], 200u);
  EXPECT_DOUBLE_EQ(m["map"]["hit_ratio"].get<double>(), 150.0 / 600.0);
  EXPECT_EQ(m["tp_reads"], 130u);
  EXPECT_EQ(m["tp_writes"], 30u);
  EXPECT_DOUBLE_EQ(m["flash_reads_per_host_read"].get<double>(), (190.0 + 110.0) / 200.0);
  EXPECT_DOUBLE_EQ(m["waf"].get<double>(), (400.0 + 120 + 30 + 10) / 400.0);
  EXPECT_EQ(m["gc"]["invocations"], 4u);
  EXPECT_EQ(m["gc"]["pages_moved"], 120u);
  EXPECT_EQ(m["erase_count"]["min"], 2u);
  EXPECT_DOUBLE_EQ(m["erase_count"]["mean"].get<double>(), 3.5);
  EXPECT_EQ(m["erase_count"]["max"], 6u);
  EXPECT_DOUBLE_EQ(m["firmware"]["instructions_per_command"].get<double>(), 80000.0 / 40);
  EXPECT_DOUBLE_EQ(m["firmware"]["cycles_per_command"].get<double>(), 200000.0 / 40);
  EXPECT_DOUBLE_EQ(m["firmware"]["awake_cycles_per_command"].get<double>(), 100000.0 / 40);
}

TEST(FtlMetricsSpan, RatiosWithoutDenominatorAreNull) {
  const FtlMetrics::Snapshot snapshot = valid_snapshot();
  const nlohmann::json m = FtlMetrics::span_metrics(snapshot, snapshot);
  EXPECT_TRUE(m["map"]["hit_ratio"].is_null());
  EXPECT_TRUE(m["flash_reads_per_host_read"].is_null());
  EXPECT_TRUE(m["waf"].is_null());
  EXPECT_TRUE(m["firmware"]["instructions_per_command"].is_null());
}

TEST(FtlMetricsPhases, OnePerPhaseAndTheRegionsOnce) {
  FtlMetrics metrics(0x10001000);
  FtlMetrics::Snapshot a = valid_snapshot();
  std::strcpy(a.stats.regions[0].name, "gtd");
  a.stats.regions[0].bytes = 64;
  std::strcpy(a.stats.regions[1].name, "write_buffer");
  a.stats.regions[1].bytes = 8192;
  a.stats.regions[1].location = FW_STATS_LOCATION_DRAM;
  a.stats.region_count = 2;
  a.stats.sram_used_bytes = 64;
  FtlMetrics::Snapshot b = a;
  b.stats.host_write_pages = 10;
  FtlMetrics::Snapshot c = b;
  c.stats.host_write_pages = 25;
  metrics.phase_begin("precondition", a);
  metrics.phase_end(b, true);
  metrics.phase_begin("measure", b);
  metrics.phase_end(c, false);
  const nlohmann::json out = metrics.to_json(c);
  ASSERT_EQ(out["phases"].size(), 2u);
  EXPECT_EQ(out["phases"][0]["name"], "precondition");
  EXPECT_EQ(out["phases"][0]["host_write_pages"], 10u);
  EXPECT_EQ(out["phases"][1]["name"], "measure");
  EXPECT_EQ(out["phases"][1]["finished"], false);
  EXPECT_EQ(out["phases"][1]["host_write_pages"], 15u);
  EXPECT_EQ(out["run"]["host_write_pages"], 25u);
  ASSERT_EQ(out["memory"]["regions"].size(), 2u);
  EXPECT_EQ(out["memory"]["regions"][1]["name"], "write_buffer");
  EXPECT_EQ(out["memory"]["regions"][1]["location"], "dram");
  EXPECT_EQ(out["memory"]["sram"]["used_bytes"], 64u);
}

TEST(FtlMetricsBlock, BadMagicOrVersionIsNamed) {
  const FtlMetrics metrics(0x10002000);
  FtlMetrics::Snapshot snapshot = valid_snapshot();
  EXPECT_FALSE(metrics.problem(snapshot.stats));
  snapshot.stats.version = FW_STATS_VERSION + 1;
  const std::optional<std::string> version = metrics.problem(snapshot.stats);
  ASSERT_TRUE(version);
  EXPECT_TRUE(contains(*version, "version")) << *version;
  EXPECT_TRUE(contains(*version, "0x10002000")) << *version;
  snapshot.stats.magic = 0;
  const std::optional<std::string> magic = metrics.problem(snapshot.stats);
  ASSERT_TRUE(magic);
  EXPECT_TRUE(contains(*magic, "magic")) << *magic;
}

}  // namespace
}  // namespace ssdvp
