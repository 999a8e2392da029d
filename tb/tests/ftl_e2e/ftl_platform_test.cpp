// The platform side of the FTL, testable without the FTL firmware: the ftl.* keys reach the
// boot-config block, the host's capacity and page derive from the NAND, cross-key errors name
// their keys, the per-phase metrics follow their definitions, and the FTL scenarios are valid.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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
  config.firmware.params.ftl_map_budget_bytes = 12345;
  config.firmware.params.ftl_write_buffer_pages = 48;
  config.firmware.params.ftl_write_buffer_location = BOOT_MEMORY_DRAM;
  config.firmware.params.ftl_op = 0.25;
  config.firmware.params.ftl_gc_foreground_free = 3;
  config.firmware.params.ftl_gc_background_free = 9;
  config.firmware.params.ftl_wl_static_spread = 17;
  config.firmware.params.ftl_alloc_order = "PDWC";
  config.firmware.params.ftl_multi_plane = false;
  config.firmware.params.ftl_dftl_whole_tp = true;
  config.firmware.params.ftl_tpftl_prefetch_max = 33;
  Soc soc("soc", config, nullptr);
  soc.load_program(product_firmware());
  const boot_config_t block = boot_config_of(soc);
  EXPECT_EQ(block.ftl_map_budget_bytes, 12345u);
  EXPECT_EQ(block.ftl_write_buffer_pages, 48u);
  EXPECT_EQ(block.ftl_write_buffer_location, static_cast<uint32_t>(BOOT_MEMORY_DRAM));
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
  EXPECT_EQ(block.ftl_write_buffer_location, static_cast<uint32_t>(BOOT_MEMORY_SRAM));
  EXPECT_EQ(block.ftl_multi_plane, 1u);
  // 131072 physical pages, 7 % hidden: 121896.96 rounds down.
  EXPECT_EQ(block.ftl_lpn_count, 121896u);
}

// The platform refuses an image built for another boot-config layout, naming both versions.
TEST(FtlBootConfig, AnImageForAnotherLayoutIsRefusedNamingBothVersions) {
  const std::string elf_path = std::string(SSDVP_FIRMWARE_DIR) + "/firmware.elf";
  const std::optional<uint32_t> symbol =
      ElfImage::load(elf_path).symbol_address("fw_boot_config_version");
  ASSERT_TRUE(symbol);
  std::ifstream in(elf_path, std::ios::binary);
  std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The file offset of the symbol: the ELF32 program header whose segment holds it.
  const auto word = [&](size_t offset) {
    uint32_t value = 0;
    std::memcpy(&value, file.data() + offset, 4);
    return value;
  };
  const uint32_t phoff = word(0x1C);
  uint16_t phnum = 0;
  std::memcpy(&phnum, file.data() + 0x2C, 2);
  size_t at = 0;
  for (uint16_t i = 0; i < phnum; ++i) {
    const size_t header = phoff + 32u * i;
    const uint32_t offset = word(header + 4), vaddr = word(header + 8), filesz = word(header + 16);
    if (*symbol >= vaddr && *symbol + 4 <= vaddr + filesz) at = offset + (*symbol - vaddr);
  }
  ASSERT_NE(at, 0u);
  ASSERT_EQ(word(at), BOOT_CONFIG_VERSION);
  const uint32_t other = BOOT_CONFIG_VERSION + 7;
  std::memcpy(file.data() + at, &other, 4);
  const std::string out = temp_dir("boot_version");
  std::ofstream(out + "/old.elf", std::ios::binary).write(file.data(), file.size());
  const test::SsdsimRun run = run_ssdsim("--set firmware.elf=" + out + "/old.elf --out " + out);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, fmt::format("reads boot-config version {}, this platform "
                                               "writes version {}",
                                               other, BOOT_CONFIG_VERSION)))
      << run.output;
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

TEST(FtlConfigErrors, DramPlacementsNeedDram) {
  // ftl.write_buffer.location and ftl.block_tables.location: dram needs a DRAM, and the
  // locations are sram and dram.
  for (const std::string key : {"ftl.write_buffer.location", "ftl.block_tables.location"}) {
    const test::SsdsimRun run = run_ssdsim("--set " + key + "=dram --memory-map");
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_TRUE(contains(run.output, key)) << run.output;
    EXPECT_TRUE(contains(run.output, "dram.size")) << run.output;
    EXPECT_EQ(run_ssdsim("--set " + key + "=dram --set dram.size=8MiB --memory-map").exit_code,
              0);
    const test::SsdsimRun where = run_ssdsim("--set " + key + "=flash --memory-map");
    EXPECT_EQ(where.exit_code, 2) << where.output;
    EXPECT_TRUE(contains(where.output, key)) << where.output;
    EXPECT_TRUE(contains(where.output, "sram")) << where.output;
    EXPECT_TRUE(contains(where.output, "dram")) << where.output;
  }
}

TEST(FtlConfigErrors, BufferCountsNameTheirKeyAndRange) {
  // ftl.read_slots, ftl.tp_load_frames, ftl.tp_program_frames, ftl.flash_program_ops,
  // ftl.gc.batch_programs: each refused value names the key and what it allows.
  struct Case {
    const char* set;
    const char* key;
    const char* allowed;
  };
  for (const Case& each : {Case{"ftl.read_slots=0", "ftl.read_slots", "65535"},
                           Case{"ftl.tp_load_frames=0", "ftl.tp_load_frames", "65535"},
                           Case{"ftl.tp_program_frames=65", "ftl.tp_program_frames", "64"},
                           Case{"ftl.flash_program_ops=1", "ftl.flash_program_ops", "65535"},
                           Case{"ftl.gc.batch_programs=0", "ftl.gc.batch_programs", "64"}}) {
    const test::SsdsimRun run = run_ssdsim(std::string("--set ") + each.set + " --memory-map");
    EXPECT_EQ(run.exit_code, 2) << each.set << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, each.key)) << each.set << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, each.allowed)) << each.set << "\n" << run.output;
  }
  // 0 is allowed where it means "as today": a wordline's frames, every record.
  EXPECT_EQ(run_ssdsim("--set ftl.tp_program_frames=0 --set ftl.flash_program_ops=0 "
                       "--memory-map")
                .exit_code,
            0);
  EXPECT_EQ(run_ssdsim("--set ftl.tp_program_frames=1 --set ftl.flash_program_ops=2 "
                       "--memory-map")
                .exit_code,
            0);
}

TEST(FtlConfigErrors, ProgramRecordsAreSomeOfTheFlashRecords) {
  const test::SsdsimRun run =
      run_ssdsim("--set ftl.flash_ops=16 --set ftl.flash_program_ops=17 --memory-map");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.flash_program_ops = 17")) << run.output;
  EXPECT_TRUE(contains(run.output, "ftl.flash_ops = 16")) << run.output;
  EXPECT_EQ(run_ssdsim("--set ftl.flash_ops=16 --set ftl.flash_program_ops=16 --memory-map")
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
  const test::SsdsimRun fsp = run_ssdsim("--set ftl.fsp.policy=oracle --memory-map");
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

// Firmware memory holding a statistics block and the names and variables it points at, read as
// the platform reads the controller's memory.
class FirmwareMemory {
 public:
  static constexpr uint32_t kBase = 0x10000000;
  static constexpr uint32_t kBlock = kBase;

  FirmwareMemory() : bytes_(64 * 1024, 0) {
    next_ = kBlock + sizeof(fw_stats_t);
    fw_stats_t& block = this->block();
    block.magic = FW_STATS_MAGIC;
    block.version = FW_STATS_VERSION;
  }

  fw_stats_t& block() { return *reinterpret_cast<fw_stats_t*>(at(kBlock)); }

  uint32_t add_string(const std::string& text) {
    const uint32_t address = take(text.size() + 1);
    std::memcpy(at(address), text.c_str(), text.size() + 1);
    return address;
  }

  // A metric of `buckets` uint64_t values; returns the address of the first.
  uint32_t add_metric(const std::string& name, uint32_t kind, uint32_t buckets = 1,
                      uint32_t width = 1) {
    fw_stats_t& block = this->block();
    fw_stats_metric_t& entry = block.metrics[block.metric_count++];
    entry.name = add_string(name);
    entry.value = take(8 * buckets);
    entry.kind = static_cast<uint16_t>(kind);
    entry.value_bytes = 8;
    entry.buckets = static_cast<uint16_t>(buckets);
    entry.bucket_width = width;
    values_[name] = entry.value;
    return entry.value;
  }

  void set(const std::string& name, uint64_t value, uint32_t bucket = 0) {
    std::memcpy(at(values_.at(name) + 8 * bucket), &value, 8);
  }

  FtlMetrics::DebugRead reader() {
    return [this](uint32_t address, void* data, size_t bytes) {
      if (address < kBase || address - kBase + bytes > bytes_.size()) return false;
      std::memcpy(data, at(address), bytes);
      return true;
    };
  }

  // The bytes in place, as the SoC finds its memories' (or none, as for registers).
  FtlMetrics::HostBytes host_bytes(bool in_place = true) {
    return [this, in_place](uint32_t address, size_t bytes) -> const uint8_t* {
      if (!in_place || address < kBase || address - kBase + bytes > bytes_.size()) return nullptr;
      return at(address);
    };
  }

  // A snapshot at `time_ns`, or the problem text as a test failure.
  FtlMetrics::Snapshot snapshot(const FtlMetrics& metrics, uint64_t time_ns = 0) {
    FtlMetrics::Snapshot snapshot;
    const std::optional<std::string> problem = metrics.read(reader(), snapshot);
    EXPECT_FALSE(problem) << *problem;
    snapshot.time_ps = time_ns * 1000;
    return snapshot;
  }

 private:
  uint8_t* at(uint32_t address) { return bytes_.data() + (address - kBase); }
  uint32_t take(size_t bytes) {
    const uint32_t address = next_;
    next_ += static_cast<uint32_t>((bytes + 7) & ~size_t{7});
    return address;
  }

  std::vector<uint8_t> bytes_;
  uint32_t next_;
  std::map<std::string, uint32_t> values_;
};

// The FTL's usual metrics, at zero.
void add_ftl_metrics(FirmwareMemory& memory) {
  for (const char* name :
       {"host_read_pages", "host_write_pages", "map.lookups", "map.hits", "flash_reads.host",
        "flash_reads.translation", "flash_reads.translation_host", "pages_programmed.host",
        "pages_programmed.gc", "pages_programmed.translation", "pages_programmed.padding.host",
        "host_reads_by_page_type.lsb", "host_reads_by_page_type.msb", "gc.invocations",
        "gc.selections", "gc.select_cycles"}) {
    memory.add_metric(name, FW_METRIC_COUNTER);
  }
  memory.add_metric("retired.valid_pages_left", FW_METRIC_GAUGE);
  memory.add_metric("gc.victim_valid_pages", FW_METRIC_HISTOGRAM, 4, 16);
  memory.add_metric("blocks.utilisation", FW_METRIC_DISTRIBUTION, 4, 8);
}

TEST(FtlMetricsSpan, NestsTheMetricsByNameAndDerivesTheRatios) {
  FirmwareMemory memory;
  add_ftl_metrics(memory);
  const FtlMetrics metrics(FirmwareMemory::kBlock);
  memory.set("host_read_pages", 100);
  memory.set("map.lookups", 50);
  memory.set("map.hits", 10);
  memory.set("retired.valid_pages_left", 9);
  memory.set("gc.victim_valid_pages", 3, 1);
  memory.set("blocks.utilisation", 2, 0);
  memory.set("gc.selections", 10);
  memory.set("gc.select_cycles", 1000);
  FtlMetrics::Snapshot begin = memory.snapshot(metrics);
  begin.instructions = 1000;
  begin.cycles = 5000;
  begin.sleep_cycles = 1000;
  begin.host_commands = 7;
  memory.set("host_read_pages", 300);
  memory.set("host_write_pages", 400);
  memory.set("map.lookups", 650);
  memory.set("map.hits", 160);
  memory.set("flash_reads.host", 190);  // 10 reads served by the write buffer
  memory.set("flash_reads.translation", 130);
  memory.set("flash_reads.translation_host", 110);
  memory.set("pages_programmed.host", 400);
  memory.set("pages_programmed.gc", 120);
  memory.set("pages_programmed.translation", 30);
  memory.set("pages_programmed.padding.host", 10);
  memory.set("host_reads_by_page_type.lsb", 60);
  memory.set("host_reads_by_page_type.msb", 180);
  memory.set("gc.invocations", 4);
  memory.set("retired.valid_pages_left", 2);
  memory.set("gc.victim_valid_pages", 5, 1);
  memory.set("gc.victim_valid_pages", 1, 3);
  memory.set("blocks.utilisation", 0, 0);
  memory.set("blocks.utilisation", 3, 1);
  memory.set("blocks.utilisation", 1, 3);
  memory.set("gc.selections", 14);
  memory.set("gc.select_cycles", 3000);
  FtlMetrics::Snapshot end = memory.snapshot(metrics);
  end.instructions = begin.instructions + 80000;
  end.cycles = begin.cycles + 200000;
  end.sleep_cycles = begin.sleep_cycles + 100000;
  end.host_commands = begin.host_commands + 40;
  end.erase_counts = {2, 3.5, 6};
  const nlohmann::json m = FtlMetrics::span_metrics(begin, end);
  EXPECT_EQ(m["host_read_pages"], 200u);
  EXPECT_EQ(m["map"]["lookups"], 600u);
  EXPECT_DOUBLE_EQ(m["map"]["hit_ratio"].get<double>(), 150.0 / 600.0);
  EXPECT_EQ(m["tp_reads"], 130u);
  EXPECT_EQ(m["tp_writes"], 30u);
  EXPECT_EQ(m["pages_programmed"]["padding"]["host"], 10u);
  EXPECT_DOUBLE_EQ(m["flash_reads_per_host_read"].get<double>(), (190.0 + 110.0) / 200.0);
  EXPECT_DOUBLE_EQ(m["waf"].get<double>(), (400.0 + 120 + 30 + 10) / 400.0);
  EXPECT_DOUBLE_EQ(m["host_reads_lsb_fraction"].get<double>(), 60.0 / 240.0);
  EXPECT_EQ(m["gc"]["invocations"], 4u);
  // A gauge is its value at the end; a histogram the growth of each bucket.
  EXPECT_EQ(m["retired"]["valid_pages_left"], 2u);
  EXPECT_EQ(m["gc"]["victim_valid_pages"]["bucket_width"], 16u);
  EXPECT_EQ(m["gc"]["victim_valid_pages"]["counts"], nlohmann::json({0, 2, 0, 1}));
  // A distribution is its counts at the end, like a gauge.
  EXPECT_EQ(m["blocks"]["utilisation"]["bucket_width"], 8u);
  EXPECT_EQ(m["blocks"]["utilisation"]["counts"], nlohmann::json({0, 3, 0, 1}));
  EXPECT_DOUBLE_EQ(m["gc"]["cycles_per_selection"].get<double>(), 2000.0 / 4);
  EXPECT_EQ(m["erase_count"]["min"], 2u);
  EXPECT_DOUBLE_EQ(m["erase_count"]["mean"].get<double>(), 3.5);
  EXPECT_EQ(m["erase_count"]["max"], 6u);
  EXPECT_DOUBLE_EQ(m["firmware"]["instructions_per_command"].get<double>(), 80000.0 / 40);
  EXPECT_DOUBLE_EQ(m["firmware"]["cycles_per_command"].get<double>(), 200000.0 / 40);
  EXPECT_DOUBLE_EQ(m["firmware"]["awake_cycles_per_command"].get<double>(), 100000.0 / 40);
}

TEST(FtlMetricsSpan, RatiosWithoutDenominatorAreNullAndWithoutInputsAbsent) {
  FirmwareMemory memory;
  memory.add_metric("map.lookups", FW_METRIC_COUNTER);
  memory.add_metric("map.hits", FW_METRIC_COUNTER);
  const FtlMetrics metrics(FirmwareMemory::kBlock);
  const FtlMetrics::Snapshot snapshot = memory.snapshot(metrics);
  const nlohmann::json m = FtlMetrics::span_metrics(snapshot, snapshot);
  EXPECT_TRUE(m["map"]["hit_ratio"].is_null());
  EXPECT_FALSE(m.contains("waf"));  // the firmware counts no programmed pages
  EXPECT_TRUE(m["firmware"]["instructions_per_command"].is_null());
}

TEST(FtlMetricsPhases, OnePerPhaseWithItsSeriesAndTheRegionsOnce) {
  FirmwareMemory memory;
  add_ftl_metrics(memory);
  fw_stats_t& block = memory.block();
  block.regions[0] = {memory.add_string("gtd"), 64, FW_STATS_LOCATION_SRAM};
  block.regions[1] = {memory.add_string("write_buffer"), 8192, FW_STATS_LOCATION_DRAM};
  block.region_count = 2;
  block.sram_used_bytes = 64;
  FtlMetrics metrics(FirmwareMemory::kBlock);
  const FtlMetrics::Snapshot a = memory.snapshot(metrics, 0);
  memory.set("host_write_pages", 10);
  memory.set("pages_programmed.host", 10);
  const FtlMetrics::Snapshot b = memory.snapshot(metrics, 1000);
  metrics.phase_begin("precondition", a, memory.host_bytes());
  metrics.phase_end(b, true);
  metrics.phase_begin("measure", b, memory.host_bytes());
  memory.set("host_write_pages", 20);
  memory.set("pages_programmed.host", 20);
  memory.set("pages_programmed.gc", 10);
  std::vector<uint64_t> values;
  const std::optional<std::string> problem = metrics.read_sample(memory.reader(), values);
  ASSERT_FALSE(problem) << *problem;
  metrics.sample(2000 * 1000, values);
  memory.set("host_write_pages", 25);
  memory.set("pages_programmed.host", 25);
  memory.set("pages_programmed.gc", 25);
  const FtlMetrics::Snapshot c = memory.snapshot(metrics, 3000);
  metrics.phase_end(c, false);
  const nlohmann::json out = metrics.to_json(c);
  ASSERT_EQ(out["phases"].size(), 2u);
  EXPECT_EQ(out["phases"][0]["name"], "precondition");
  EXPECT_EQ(out["phases"][0]["host_write_pages"], 10u);
  EXPECT_EQ(out["phases"][1]["name"], "measure");
  EXPECT_EQ(out["phases"][1]["finished"], false);
  EXPECT_EQ(out["phases"][1]["host_write_pages"], 15u);
  EXPECT_EQ(out["run"]["host_write_pages"], 25u);
  // The measure phase's series: a sample at 2 us, and one at its end.
  const nlohmann::json& series = out["phases"][1]["series"];
  EXPECT_EQ(series["time_ns"], nlohmann::json({2000, 3000}));
  EXPECT_EQ(series["host_write_pages"], nlohmann::json({10, 15}));
  EXPECT_DOUBLE_EQ(series["waf"][0].get<double>(), 20.0 / 10.0);
  EXPECT_DOUBLE_EQ(series["waf_interval"][1].get<double>(), 20.0 / 5.0);
  // The last sample is the phase: its cumulative WAF is the phase's.
  EXPECT_DOUBLE_EQ(series["waf"][1].get<double>(), out["phases"][1]["waf"].get<double>());
  std::ostringstream csv;
  metrics.write_timeseries_csv(csv);
  EXPECT_EQ(csv.str().substr(0, csv.str().find('\n')).rfind("phase,time_ns,host_read_pages", 0),
            0u)
      << csv.str();
  EXPECT_TRUE(contains(csv.str(), "\nmeasure,3000,")) << csv.str();
  ASSERT_EQ(out["memory"]["regions"].size(), 2u);
  EXPECT_EQ(out["memory"]["regions"][1]["name"], "write_buffer");
  EXPECT_EQ(out["memory"]["regions"][1]["location"], "dram");
  EXPECT_EQ(out["memory"]["sram"]["used_bytes"], 64u);
}

TEST(FtlMetricsPhases, SamplesReadValuesInPlaceOrByDebugReadAlike) {
  FirmwareMemory memory;
  memory.add_metric("host_write_pages", FW_METRIC_COUNTER);
  memory.add_metric("map.cached", FW_METRIC_GAUGE);
  memory.block().metrics[1].value_bytes = 4;
  FtlMetrics in_place(FirmwareMemory::kBlock);
  FtlMetrics by_debug_read(FirmwareMemory::kBlock);
  const FtlMetrics::Snapshot begin = memory.snapshot(in_place);
  in_place.phase_begin("measure", begin, memory.host_bytes());
  by_debug_read.phase_begin("measure", begin, memory.host_bytes(false));
  memory.set("host_write_pages", 7);
  memory.set("map.cached", 0xFFFFFFFF00000005u);  // the high word is not the 4-byte gauge's
  // Values found in place at the phase's start need no debug read.
  const FtlMetrics::DebugRead unreadable = [](uint32_t, void*, size_t) { return false; };
  std::vector<uint64_t> found;
  std::vector<uint64_t> read;
  ASSERT_FALSE(in_place.read_sample(unreadable, found));
  ASSERT_FALSE(by_debug_read.read_sample(memory.reader(), read));
  EXPECT_EQ(found, (std::vector<uint64_t>{7, 5}));
  EXPECT_EQ(read, found);
}

TEST(FtlMetricsBlock, BadMagicOrVersionIsNamed) {
  FirmwareMemory memory;
  const FtlMetrics metrics(FirmwareMemory::kBlock);
  FtlMetrics::Snapshot snapshot;
  EXPECT_FALSE(metrics.read(memory.reader(), snapshot));
  memory.block().version = FW_STATS_VERSION + 1;
  const std::optional<std::string> version = metrics.read(memory.reader(), snapshot);
  ASSERT_TRUE(version);
  EXPECT_TRUE(contains(*version, "version")) << *version;
  EXPECT_TRUE(contains(*version, "0x10000000")) << *version;
  memory.block().magic = 0;
  const std::optional<std::string> magic = metrics.read(memory.reader(), snapshot);
  ASSERT_TRUE(magic);
  EXPECT_TRUE(contains(*magic, "magic")) << *magic;
}

TEST(FtlMetricsBlock, ANameThatIsAlsoAPrefixOrTwiceOrBadIsNamed) {
  const FtlMetrics metrics(FirmwareMemory::kBlock);
  FtlMetrics::Snapshot snapshot;
  FirmwareMemory prefix;
  prefix.add_metric("gc", FW_METRIC_COUNTER);
  prefix.add_metric("gc.invocations", FW_METRIC_COUNTER);
  const std::optional<std::string> both = metrics.read(prefix.reader(), snapshot);
  ASSERT_TRUE(both);
  EXPECT_TRUE(contains(*both, "'gc' is also the start of 'gc.invocations'")) << *both;
  FirmwareMemory twice;
  twice.add_metric("waf", FW_METRIC_COUNTER);
  twice.add_metric("waf", FW_METRIC_GAUGE);
  // A FtlMetrics per image: it keeps the names it read by address.
  const std::optional<std::string> again =
      FtlMetrics(FirmwareMemory::kBlock).read(twice.reader(), snapshot);
  ASSERT_TRUE(again);
  EXPECT_TRUE(contains(*again, "registered twice")) << *again;
  FirmwareMemory kind;
  kind.add_metric("x", 7);
  const std::optional<std::string> bad =
      FtlMetrics(FirmwareMemory::kBlock).read(kind.reader(), snapshot);
  ASSERT_TRUE(bad);
  EXPECT_TRUE(contains(*bad, "metric 0 'x': kind 7")) << *bad;
}

}  // namespace
}  // namespace ssdvp

namespace ssdvp {
namespace {

// After a power cut the firmware counts from zero again: counters and histogram buckets read as
// their value at the cut plus the new boot's, in snapshots and in a phase's samples; gauges are
// the new boot's.
TEST(FtlMetricsPowerCut, CountersRunOnAcrossTheRebootAndGaugesAreTheNewBoots) {
  FirmwareMemory memory;
  add_ftl_metrics(memory);
  FtlMetrics metrics(FirmwareMemory::kBlock);
  memory.set("host_write_pages", 100);
  memory.set("retired.valid_pages_left", 9);
  memory.set("gc.victim_valid_pages", 3, 1);
  const FtlMetrics::Snapshot before = memory.snapshot(metrics, 0);
  metrics.phase_begin("measure", before, memory.host_bytes());
  memory.set("host_write_pages", 140);
  metrics.carry_over(memory.snapshot(metrics, 1000));

  // The new boot zeroed its block, then counted.
  memory.set("host_write_pages", 5);
  memory.set("retired.valid_pages_left", 2);
  memory.set("gc.victim_valid_pages", 1, 1);
  const FtlMetrics::Snapshot after = memory.snapshot(metrics, 2000);
  EXPECT_EQ(after.find("host_write_pages")->values.at(0), 145u);
  EXPECT_EQ(after.find("retired.valid_pages_left")->values.at(0), 2u);
  EXPECT_EQ(after.find("gc.victim_valid_pages")->values.at(1), 4u);
  EXPECT_EQ(after.find("gc.victim_valid_pages")->values.at(0), 0u);

  std::vector<uint64_t> values;
  ASSERT_FALSE(metrics.read_sample(memory.reader(), values));
  metrics.sample(1500 * 1000, values);
  metrics.phase_end(after, true);
  const nlohmann::json phase = metrics.to_json(after)["phases"][0];
  EXPECT_EQ(phase["host_write_pages"], 45u);
  const nlohmann::json& series = phase["series"];
  EXPECT_EQ(series["host_write_pages"][0], 45u);
}

}  // namespace
}  // namespace ssdvp
