// The product FTL end to end: ssdsim runs the firmware on the ISS in a child process with the
// integrity oracle on, and the tests read stats.json ("ftl": tlm/system/ftl_metrics.h). Every
// scheme runs random and sequential mixes, a nearly full device (GC), trims and partial pages;
// static wear levelling, the boot-time budget check and determinism are checked once; and the
// papers' behaviours are assertions with margins.
//
// The device of these tests: 2 channels x 1 chip x 1 die x 2 planes x 64 blocks x 16 pages of
// 8 KiB (4 QLC wordlines per block): 4096 physical pages, 32 MiB; with 7 % over-provisioning
// the host sees floor(4096 x 0.93) = 3809 pages.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>

#include "tb/report/stats_report.h"
#include "tb/scenario/scenario.h"
#include "tb/tests/support/ssdsim_runner.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/soc.h"

namespace ssdvp {
namespace {

using test::read_json;
using test::run_ssdsim;
using test::temp_dir;

constexpr uint64_t kPageBytes = 8192;
constexpr uint64_t kPhysicalPages = 2 * 1 * 1 * 2 * 64 * 16;
constexpr uint64_t kGroups = 2 * 64;  // multi-plane: a group per die and block
constexpr uint64_t kHostPages = kPhysicalPages * 93 / 100;  // 7 % OP, rounded down
constexpr uint64_t kHostBytes = kHostPages * kPageBytes;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `scheme` is a firmware.scheme, or leaftl_g16: LeaFTL with error bound 16, the neighbours'
// LPNs in a 256-byte OOB and the write buffer flushed in sorted sweeps, or rqftl_2h: RQFTL
// training on the second hart. RQFTL's short-term cache needs three TPs of 8 KiB pages' single
// runs (48 KiB) beside its long-term cache: 128 KiB of map budget.
std::string device_yaml(const std::string& scheme) {
  const bool leaftl_g16 = scheme == "leaftl_g16";
  const bool rqftl = scheme.rfind("rqftl", 0) == 0;
  const std::string firmware_scheme = leaftl_g16 ? "leaftl" : rqftl ? "rqftl" : scheme;
  return std::string("name: ftl_e2e\nseed: 3\n") +
         "nand: {channels: 2, ways: 1, dies: 1, planes: 2, blocks: 64, pages: 16, "
         "page_size: 8KiB" + (leaftl_g16 ? ", oob_size: 256B" : "") + "}\n" +
         "firmware: {scheme: " + firmware_scheme + "}\n" +
         (leaftl_g16 ? "ftl: {leaftl: {gamma: 16}, fsp: {policy: sorted}}\n" : "") +
         (rqftl ? "ftl: {map_budget: 128KiB}\n" : "") +
         (scheme == "rqftl_2h" ? "cpu: {harts: 2}\n" : "") + "host: {oracle: true}\n";
}

struct E2eRun {
  test::SsdsimRun process;
  nlohmann::json stats;
};

// Writes the scenario, runs it with `overrides`, and reads stats.json.
E2eRun run_scenario(const std::string& name, const std::string& yaml,
                    const std::string& overrides = "") {
  const std::string dir = temp_dir("ftl_e2e_" + name);
  const std::string path = dir + "/scenario.yaml";
  std::ofstream(path) << yaml;
  E2eRun run;
  run.process = run_ssdsim(path + " " + overrides + " --out " + dir + "/out");
  std::ifstream stats(dir + "/out/stats.json");
  if (stats) run.stats = nlohmann::json::parse(stats);
  return run;
}

// The run completed its workload with every read checked clean, and has FTL metrics.
void expect_clean(const E2eRun& run) {
  ASSERT_EQ(run.process.exit_code, 0) << run.process.output;
  EXPECT_EQ(run.stats["outcome"]["outcome"], "workload_done") << run.process.output;
  EXPECT_TRUE(run.stats["host"]["oracle"]["enabled"].get<bool>());
  EXPECT_GT(run.stats["host"]["oracle"]["pages_checked"].get<uint64_t>(), 0u);
  ASSERT_TRUE(run.stats.contains("ftl")) << run.process.output;
  ASSERT_FALSE(run.stats["ftl"].contains("error")) << run.stats["ftl"]["error"];
  EXPECT_TRUE(run.stats["ftl"]["boot_complete"].get<bool>());
}

// Two clean runs of one scenario give the same stats, but for where they wrote them and how
// long they took.
void expect_identical_runs(E2eRun a, E2eRun b) {
  ASSERT_NO_FATAL_FAILURE(expect_clean(a));
  ASSERT_NO_FATAL_FAILURE(expect_clean(b));
  for (nlohmann::json* stats : {&a.stats, &b.stats}) {
    (*stats)["config"]["output"].erase("dir");
    (*stats)["scenario"].erase("source");
    drop_wall_clock_fields(*stats);
  }
  EXPECT_EQ(a.stats, b.stats);
}

const nlohmann::json& phase(const E2eRun& run, size_t index) {
  return run.stats["ftl"]["phases"].at(index);
}

// A workload phase of one stream; `limit` is its "requests: N" or "bytes: N".
std::string stream_phase(const std::string& name, const std::string& limit,
                         const std::string& stream) {
  return fmt::format("    - name: {}\n      {}\n      streams:\n        - {{{}}}\n", name, limit,
                     stream);
}

std::string requests(uint64_t count) { return fmt::format("requests: {}", count); }
std::string bytes(uint64_t count) { return fmt::format("bytes: {}", count); }

// A sequential fill of the first `bytes`, then a read of all of it: every page checked.
std::string fill_phase(uint64_t set) {
  return stream_phase("fill", bytes(set),
                      fmt::format("pattern: sequential, size: 64KiB, queue_depth: 8, "
                                  "working_set: {}",
                                  set));
}

std::string verify_phase(uint64_t set) {
  return stream_phase("verify", bytes(set),
                      fmt::format("pattern: sequential, read_fraction: 1.0, size: 64KiB, "
                                  "queue_depth: 8, working_set: {}",
                                  set));
}

// The first `set` bytes filled, then `middle`, then all of them read back.
std::string fill_then_verify(uint64_t set, const std::string& middle) {
  return "workload:\n  phases:\n" + fill_phase(set) + middle + verify_phase(set);
}

// `set` written sequentially, 3000 random 8 KiB reads and writes in it, and all of it read back.
std::string random_mix(uint64_t set) {
  return fill_then_verify(set, stream_phase("measure", requests(3000),
                                            fmt::format("pattern: random, read_fraction: 0.5, "
                                                        "size: 8KiB, queue_depth: 16, "
                                                        "working_set: {}",
                                                        set)));
}

class FtlScheme : public testing::TestWithParam<const char*> {};

TEST_P(FtlScheme, RandomMix) {
  const uint64_t set = 16 << 20;
  const E2eRun run = run_scenario("random", device_yaml(GetParam()) + random_mix(set));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(phase(run, 0)["host_write_pages"], set / kPageBytes);
  EXPECT_EQ(phase(run, 2)["host_read_pages"], set / kPageBytes);
  EXPECT_EQ(phase(run, 1)["host_commands"], 3000u);
}

// LeaFTL in a map budget far below its table (groups of 32 LPNs, so that a few of them fit):
// groups leave for their translation pages and are learned again from them, and every read
// still checks clean.
TEST(LeaftlBudget, GroupsLeaveForTheirTranslationPagesAndComeBack) {
  const uint64_t set = 16 << 20;
  const E2eRun run = run_scenario(
      "leaftl_small_budget",
      device_yaml("leaftl") + "ftl: {map_budget: 16KiB, leaftl: {group_lpns: 32}}\n" +
          random_mix(set));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& total = run.stats["ftl"]["run"];
  const nlohmann::json& leaftl = total["leaftl"];
  EXPECT_GT(leaftl["groups_evicted"].get<uint64_t>(), 0u);
  EXPECT_GT(leaftl["groups_written_back"].get<uint64_t>(), 0u);
  EXPECT_GT(leaftl["groups_relearned"].get<uint64_t>(), 0u);
  EXPECT_GT(leaftl["relearn_cycles"].get<uint64_t>(), 0u);
  // Compactions are charged to their own job kind, at least the cycles LeaFTL counts in them.
  EXPECT_GT(leaftl["compactions"].get<uint64_t>(), 0u);
  EXPECT_GE(run.stats["harts"][0]["job_cycles"]["compaction"].get<uint64_t>(),
            leaftl["compaction_cycles"].get<uint64_t>());
  EXPECT_LE(leaftl["bytes_ours"].get<uint64_t>(), 16u * 1024);
  EXPECT_GT(total["tp_reads"].get<uint64_t>(), 0u);
  EXPECT_GT(total["tp_writes"].get<uint64_t>(), 0u);
}

TEST_P(FtlScheme, SequentialMix) {
  const uint64_t set = 16 << 20;
  const E2eRun run = run_scenario(
      "sequential",
      device_yaml(GetParam()) +
          fill_then_verify(set, stream_phase("measure", requests(2000),
                                             fmt::format("pattern: sequential, read_fraction: "
                                                         "0.5, size: 64KiB, queue_depth: 8, "
                                                         "working_set: {}",
                                                         set))));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(phase(run, 1)["host_read_pages"].get<uint64_t>() +
                phase(run, 1)["host_write_pages"].get<uint64_t>(),
            2000u * 8);
}

// Nearly full with 7 % OP: the whole capacity written, then overwritten twice at random.
TEST_P(FtlScheme, GcStress) {
  const E2eRun run = run_scenario(
      "gc", device_yaml(GetParam()) +
                fill_then_verify(kHostBytes,
                                 stream_phase("overwrite", bytes(2 * kHostBytes),
                                              "pattern: random, read_fraction: 0.0, size: 8KiB, "
                                              "queue_depth: 32")));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  EXPECT_GT(overwrite["gc"]["invocations"].get<uint64_t>(), 0u);
  EXPECT_GT(overwrite["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_GT(overwrite["waf"].get<double>(), 1.0);
  // Every group is free or held by one of the streams (nothing was retired).
  const nlohmann::json& groups = overwrite["blocks"];
  EXPECT_EQ(groups["free_groups"].get<uint64_t>() + groups["host_groups"].get<uint64_t>() +
                groups["gc_groups"].get<uint64_t>() + groups["translation_groups"].get<uint64_t>(),
            kGroups);
  EXPECT_GT(groups["gc_groups"].get<uint64_t>(), 0u);
  // Greedy collects one victim per set; every moved page's copy number came from its OOB, and
  // an overwrite this long moves some pages more than once.
  const nlohmann::json& sets = overwrite["gc"]["victims_per_set"]["counts"];
  uint64_t set_total = 0;
  for (const auto& count : sets) set_total += count.get<uint64_t>();
  EXPECT_EQ(sets[1].get<uint64_t>(), set_total);
  EXPECT_GT(set_total, 0u);
  const nlohmann::json& copies = overwrite["gc"]["page_copies"]["counts"];
  uint64_t copies_total = 0;
  for (const auto& count : copies) copies_total += count.get<uint64_t>();
  EXPECT_EQ(copies_total, overwrite["gc"]["pages_moved"].get<uint64_t>());
  EXPECT_EQ(copies[0].get<uint64_t>(), 0u);
  EXPECT_GT(copies[1].get<uint64_t>(), 0u);
  EXPECT_GT(copies_total, copies[1].get<uint64_t>()) << "no page moved twice";
  // The verify phase reads every page (its last 64 KiB read wraps around).
  EXPECT_GE(phase(run, 2)["host_read_pages"].get<uint64_t>(), kHostPages);
}

TEST(FtlMemoryShape, TheBufferKeysSizeTheirRegionsAndASmallControllerServes) {
  // Near RQFTL's mobile part (its section 7: 512 KiB of SRAM holding a 256 KiB L2P cache, a
  // 128 KiB write buffer and the GTD): the same cache and buffer with the firmware's own buffers
  // cut down by keys, on a 1 GiB QLC device. It takes 656 KiB of SRAM: the translation-page
  // frames and GC slots of a whole multi-plane QLC wordline, the read slots, the padding page
  // and the block manager's ranked indexes do not fit in the last 128 KiB yet.
  const std::string yaml =
      "name: small_controller\nseed: 5\n"
      "sram: {size: 656KiB}\n"
      "nand: {channels: 2, ways: 2, dies: 1, planes: 2, blocks: 128, pages: 256, "
      "page_size: 4KiB}\n"
      "firmware: {scheme: dftl}\n"
      "host: {oracle: true}\n"
      "ftl: {map_budget: 256KiB, write_buffer: {pages: 32}, page_requests: 16, read_slots: 4, "
      "flash_ops: 16, tp_load_frames: 4}\n"
      "workload:\n  phases:\n" +
      fill_phase(64 << 20) +
      stream_phase("mix", requests(3000),
                   "pattern: random, read_fraction: 0.6, size: 4KiB, queue_depth: 16, "
                   "working_set: 67108864") +
      verify_phase(64 << 20);
  const E2eRun run = run_scenario("small_controller", yaml);
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& memory = run.stats["ftl"]["memory"];
  EXPECT_LE(memory["sram"]["used_bytes"].get<uint64_t>(), 656u << 10);
  std::map<std::string, uint64_t> regions;
  for (const nlohmann::json& region : memory["regions"]) regions[region["name"]] = region["bytes"];
  EXPECT_EQ(regions["write_buffer_data"], 128u << 10);
  EXPECT_EQ(regions["read_slots"], 4u * 4096u) << "ftl.read_slots";
  EXPECT_EQ(regions["page_requests"] % 16u, 0u) << "ftl.page_requests";
  EXPECT_GT(regions["page_requests"], 0u);
  // A QLC multi-plane wordline is 8 pages: 8 + 8 (writeback reserve) + 4 load frames.
  EXPECT_EQ(regions["tp_frame_pages"], 20u * 4096u) << "ftl.tp_load_frames";
  EXPECT_GT(regions["gtd"], 0u);
  EXPECT_LE(regions["gtd"], 128u << 10);
}

// Each named region's bytes and where it lives, from stats.json.
struct Regions {
  std::map<std::string, uint64_t> bytes;
  std::map<std::string, std::string> location;
};
Regions regions_of(const E2eRun& run) {
  Regions found;
  for (const nlohmann::json& region : run.stats["ftl"]["memory"]["regions"]) {
    found.bytes[region["name"]] += region["bytes"].get<uint64_t>();
    found.location[region["name"]] = region["location"];
  }
  return found;
}

constexpr const char* kBlockTables[] = {"page_validity",      "block_groups",
                                        "block_stripes",      "block_stripe_members",
                                        "block_free_stripes", "block_victim_tree",
                                        "block_pool_trees"};

uint64_t aligned8(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

TEST(FtlMemoryShape, RqftlsMobileControllerBootsIn512KiBAndRunsCleanWithItsTablesInDram) {
  // scenarios/rqftl_mobile.yaml, its workset and measured phase shortened: RQFTL's 512 KiB
  // mobile SRAM.
  const std::string out = temp_dir("ftl_rqftl_mobile");
  const test::SsdsimRun process = run_ssdsim(
      std::string(SSDVP_SOURCE_DIR) + "/scenarios/rqftl_mobile.yaml" +
      " --set workload.phases[0].bytes=64MiB --set workload.phases[0].streams[0].workset=64MiB"
      " --set workload.phases[1].streams[0].workset=64MiB --set workload.phases[1].requests=1500"
      " --out " + out);
  E2eRun run{process, read_json(out + "/stats.json")};
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(run.stats["config"]["sram"]["size"], "512KiB");
  const nlohmann::json& memory = run.stats["ftl"]["memory"];
  EXPECT_LE(memory["sram"]["used_bytes"].get<uint64_t>(),
            memory["sram"]["budget_bytes"].get<uint64_t>());
  const Regions regions = regions_of(run);
  // The paper's three objects: the L2P cache's 256 KiB, the write buffer's 128 KiB, the GTD.
  EXPECT_EQ(regions.bytes.at("write_buffer_data"), 128u << 10);
  EXPECT_EQ(regions.location.at("write_buffer_data"), "sram");
  EXPECT_EQ(regions.location.at("gtd"), "sram");
  EXPECT_LE(regions.bytes.at("gtd"), 128u << 10);
  // Everything but the L2P cache and the write buffer (the GTD, every buffer, the image's data,
  // the stacks) fits in the last 128 KiB.
  // The scheme's regions in its budget: map.* and the long-term cache's but its training
  // scratch (README: outside ftl.map_budget).
  uint64_t map_bytes = 0;
  for (const auto& [name, bytes] : regions.bytes) {
    const bool ltc = name.rfind("rqftl_ltc_", 0) == 0 && name != "rqftl_ltc_training";
    if (name.rfind("map.", 0) == 0 || ltc) {
      EXPECT_EQ(regions.location.at(name), "sram") << name;
      map_bytes += aligned8(bytes);
    }
  }
  EXPECT_EQ(map_bytes, 256u << 10) << "the L2P cache is ftl.map_budget";
  const uint64_t outside_budget =
      memory["sram"]["used_bytes"].get<uint64_t>() - (128u << 10) - map_bytes;
  const uint64_t image_and_stacks = (512u << 10) - memory["sram"]["budget_bytes"].get<uint64_t>();
  EXPECT_LE(outside_budget + image_and_stacks, 128u << 10);
  // The tables are in DRAM, page validity a bit per page of the 64 GiB device.
  for (const char* table : kBlockTables) {
    EXPECT_EQ(regions.location.at(table), "dram") << table;
  }
  EXPECT_EQ(regions.bytes.at("page_validity"), (16ull << 30) / 4096 / 8);
  EXPECT_GT(memory["dram"]["used_bytes"].get<uint64_t>(), regions.bytes.at("page_validity"));
  // The buffers the keys size: 2 read slots, 1 + 2 (reserve) + 1 TP frames, 12 records of a
  // wordline (2 pages: SLC, two planes) and 4 of a page, each page with its 128 B of OOB, GC's
  // slots for one program.
  EXPECT_EQ(regions.bytes.at("read_slots"), 2u * 4096u);
  EXPECT_EQ(regions.bytes.at("tp_frame_pages"), 4u * 4096u);
  EXPECT_EQ(regions.bytes.at("gc_slots"), 2u * 4096u);
  EXPECT_EQ(regions.bytes.at("flash_oob"), (12u * 2u + 4u) * 128u);
  // RQFTL's two caches served, and the worker hart trained.
  EXPECT_GT(run.stats["ftl"]["run"]["rqftl"]["transfers"].get<uint64_t>(), 0u);
}

TEST(FtlMemoryShape, TooSmallAnSramStopsTheBootNamingWhatDoesNotFit) {
  // The mobile controller in 448 KiB: the firmware refuses to start, names the first region
  // that did not fit and prints the breakdown.
  const std::string out = temp_dir("ftl_rqftl_mobile_small");
  const test::SsdsimRun process =
      run_ssdsim(std::string(SSDVP_SOURCE_DIR) + "/scenarios/rqftl_mobile.yaml --set "
                 "sram.size=448KiB --out " + out);
  E2eRun run{process, read_json(out + "/stats.json")};
  EXPECT_NE(run.process.exit_code, 0) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "ftl: cannot start")) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "did not fit")) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "first \"")) << run.process.output;
  ASSERT_TRUE(run.stats.contains("ftl")) << run.process.output;
  EXPECT_FALSE(run.stats["ftl"]["boot_complete"].get<bool>());
  // The console names the arena's regions.
  EXPECT_TRUE(contains(run.process.output, "SRAM arena")) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "gtd")) << run.process.output;
}

TEST(FtlMemoryShape, BlockTablesInDramLeaveSramByTheirBytesAndDramGainsThem) {
  const std::string yaml = device_yaml("dftl") + "dram: {size: 8MiB}\n" +
                           "workload:\n  phases:\n" +
                           stream_phase("mix", requests(400),
                                        "pattern: random, read_fraction: 0.5, size: 8KiB, "
                                        "queue_depth: 8, working_set: 4194304");
  const E2eRun sram = run_scenario("tables_sram", yaml);
  const E2eRun dram =
      run_scenario("tables_dram", yaml, "--set ftl.block_tables.location=dram");
  ASSERT_NO_FATAL_FAILURE(expect_clean(sram));
  ASSERT_NO_FATAL_FAILURE(expect_clean(dram));
  const Regions in_sram = regions_of(sram);
  const Regions in_dram = regions_of(dram);
  uint64_t tables = 0;
  for (const char* table : kBlockTables) {
    EXPECT_EQ(in_sram.location.at(table), "sram") << table;
    EXPECT_EQ(in_dram.location.at(table), "dram") << table;
    EXPECT_EQ(in_sram.bytes.at(table), in_dram.bytes.at(table)) << table;
    tables += aligned8(in_sram.bytes.at(table));
  }
  EXPECT_GT(tables, 0u);
  const nlohmann::json& a = sram.stats["ftl"]["memory"];
  const nlohmann::json& b = dram.stats["ftl"]["memory"];
  EXPECT_EQ(a["sram"]["used_bytes"].get<uint64_t>() - b["sram"]["used_bytes"].get<uint64_t>(),
            tables);
  EXPECT_EQ(b["dram"]["used_bytes"].get<uint64_t>() - a["dram"]["used_bytes"].get<uint64_t>(),
            tables);
  // The same work, either way.
  EXPECT_EQ(phase(sram, 0)["host_write_pages"], phase(dram, 0)["host_write_pages"]);
}

TEST(FtlMemoryShape, FewProgramRecordsAndProgramFramesStillServeGcAndTranslationPages) {
  // 2 records of a wordline among 12, 1 TP program frame where a wordline is 8 pages (QLC, two
  // planes), 2 read slots: host flushes, GC and TP programs share the wordline records, and
  // every page reads back.
  const std::string yaml =
      "name: few_records\nseed: 9\n"
      "nand: {channels: 2, ways: 1, dies: 1, planes: 2, blocks: 64, pages: 16, "
      "page_size: 8KiB}\n"
      "firmware: {scheme: dftl}\nhost: {oracle: true}\n"
      "ftl: {map_budget: 16KiB, read_slots: 2, flash_ops: 12, flash_program_ops: 2, "
      "tp_load_frames: 1, tp_program_frames: 1}\n"
      "workload:\n  phases:\n" +
      fill_phase(kHostBytes) +
      stream_phase("overwrite", bytes(kHostBytes),
                   "pattern: random, read_fraction: 0.3, size: 8KiB, queue_depth: 16") +
      verify_phase(kHostBytes);
  const E2eRun run = run_scenario("few_records", yaml);
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const Regions regions = regions_of(run);
  EXPECT_EQ(regions.bytes.at("tp_frame_pages"), (1u + 8u + 1u) * kPageBytes);
  EXPECT_EQ(regions.bytes.at("read_slots"), 2u * kPageBytes);
  EXPECT_EQ(regions.bytes.at("flash_oob"), (2u * 8u + 10u) * 128u);
  EXPECT_GT(phase(run, 1)["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_GT(phase(run, 1)["tp_writes"].get<uint64_t>(), 0u);
}

TEST(FtlOneRegion, GcRelocationsJoinTheHostStreamAndNoGcStripeOpens) {
  // ftl.gc.one_region: the 2R paper's 1R baseline. GC still moves pages, into the host stream's
  // stripes, and every page reads back.
  const E2eRun run = run_scenario(
      "one_region",
      device_yaml("dftl") + "ftl: {gc: {one_region: true}}\n" +
          fill_then_verify(kHostBytes, stream_phase("overwrite", bytes(kHostBytes),
                                                    "pattern: random, read_fraction: 0.0, "
                                                    "size: 8KiB, queue_depth: 32")));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  EXPECT_GT(overwrite["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_GT(overwrite["pages_programmed"]["gc"].get<uint64_t>(), 0u);
  EXPECT_EQ(run.stats["ftl"]["run"]["blocks"]["gc_groups"].get<uint64_t>(), 0u);
  EXPECT_GT(run.stats["ftl"]["run"]["blocks"]["host_groups"].get<uint64_t>(), 0u);
}

// ---- 2R (issue 19) -----------------------------------------------------------------------

// The reproduction's device (tools/reproduce_2r.py): 4 KiB pages, 512 stripes of 64 pages, the
// paper's 10 % over-provisioning ((physical - logical) / logical), the ideal map so that only
// GC differs. 29789 LPNs.
constexpr uint64_t kTwoRegionBytes = 29789 * 4096ull;

std::string two_region_yaml(const std::string& gc) {
  return "name: two_region\nseed: 1\n"
         "nand: {channels: 2, ways: 1, dies: 1, planes: 1, blocks: 512, pages: 32, "
         "page_size: 4KiB}\n"
         "firmware: {scheme: ideal}\nhost: {oracle: true}\n"
         "ftl: {op: 0.090909, map_budget: 256KiB, gc: {foreground_free: 1, background_free: 2, " +
         gc + "}}\n";
}

std::string zipf_phase(const std::string& name, uint64_t bytes_written) {
  return stream_phase(name, bytes(bytes_written),
                      "pattern: zipf, alpha: 1.0, read_fraction: 0.0, size: 4KiB, "
                      "queue_depth: 32");
}

TEST(TwoRegion, FifoWritesLessThanOneRegionGreedyUnderSkewedWritesAndEveryPageReadsBack) {
  const std::string workload =
      fill_then_verify(kTwoRegionBytes, zipf_phase("skewed", 2 * kTwoRegionBytes));
  const E2eRun one = run_scenario("one_region_greedy",
                                  two_region_yaml("victim: greedy, one_region: true") + workload);
  const E2eRun fifo = run_scenario("two_region_fifo", two_region_yaml("victim: 2r_fifo") + workload);
  ASSERT_NO_FATAL_FAILURE(expect_clean(one));
  ASSERT_NO_FATAL_FAILURE(expect_clean(fifo));
  const double one_waf = phase(one, 1)["waf"].get<double>();
  const double fifo_waf = phase(fifo, 1)["waf"].get<double>();
  EXPECT_LT(fifo_waf, 0.85 * one_waf) << "1R-Greedy " << one_waf << ", 2R-FIFO " << fifo_waf;
  // 2R-FIFO merged sets of several stripes; 1R-Greedy took one victim at a time.
  const auto multi_sets = [](const E2eRun& run) {
    const nlohmann::json& sets = phase(run, 1)["gc"]["victims_per_set"]["counts"];
    uint64_t multi = 0;
    for (size_t size = 2; size < sets.size(); ++size) multi += sets[size].get<uint64_t>();
    return multi;
  };
  EXPECT_GT(multi_sets(fifo), 0u);
  EXPECT_EQ(multi_sets(one), 0u);
}

TEST(TwoRegion, RegionsSizeThemselvesToTheColdData) {
  // Skewed writes leave most data cold: the cold region (GC's stripes) grows from nothing to
  // most of the device. A sequential rewrite of everything then makes all of it host data
  // again: cold stripes empty out, are collected, and the normal region takes their room.
  const E2eRun run = run_scenario(
      "two_region_adapt",
      two_region_yaml("victim: 2r_greedy") + "workload:\n  phases:\n" +
          fill_phase(kTwoRegionBytes) + zipf_phase("skewed", 2 * kTwoRegionBytes) +
          stream_phase("rewrite", bytes(2 * kTwoRegionBytes),
                       "pattern: sequential, size: 128KiB, queue_depth: 8") +
          verify_phase(kTwoRegionBytes));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const auto cold_share = [&](size_t index) {
    const nlohmann::json& blocks = phase(run, index)["blocks"];
    const double cold = blocks["gc_groups"].get<double>();
    return cold / (cold + blocks["host_groups"].get<double>());
  };
  EXPECT_EQ(cold_share(0), 0.0);
  EXPECT_GT(cold_share(1), 0.5);
  EXPECT_LT(cold_share(2), cold_share(1) / 2) << "after the rewrite";
}

TEST(TwoRegion, OneRegionContradictsTwoRegionPolicies) {
  const E2eRun run = run_scenario(
      "two_region_one", two_region_yaml("victim: 2r_fifo, one_region: true") +
                            "workload:\n  phases:\n" + fill_phase(1 << 20));
  EXPECT_NE(run.process.exit_code, 0);
  EXPECT_NE(run.process.output.find("ftl.gc.one_region = true contradicts ftl.gc.victim = 2r_fifo"),
            std::string::npos)
      << run.process.output;
}

// ---- Page-type-aware grouping (issue 20) ------------------------------------------------------

// Read-skewed mixed traffic on a QLC device with a 128-page buffer in DRAM: zipf 1.0 reads and
// writes of one 8 MiB set, then all of it read back.
E2eRun run_grouping(const std::string& policy, const std::string& overrides = "",
                    const std::string& tag = "") {
  const uint64_t set = 8 << 20;
  return run_scenario(
      "grouping_" + policy + tag,
      device_yaml("ideal") + "dram: {size: 16MiB}\n" +
          "ftl: {write_buffer: {pages: 128, location: dram}, fsp: {policy: " + policy + "}}\n" +
          fill_then_verify(set, stream_phase("mix", requests(30000),
                                             fmt::format("pattern: zipf, alpha: 1.0, "
                                                         "read_fraction: 0.7, size: 8KiB, "
                                                         "queue_depth: 16, working_set: {}",
                                                         set))),
      overrides);
}

class GroupingPolicy : public testing::TestWithParam<const char*> {};

TEST_P(GroupingPolicy, RunsCleanWithTheOracle) {
  const E2eRun run = run_grouping(GetParam());
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GT(phase(run, 1)["host_reads_lsb_fraction"].get<double>(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Policies, GroupingPolicy,
                         testing::Values("baseline", "frequency", "distance", "rl"));

uint64_t counter(const nlohmann::json& phase_stats, const std::string& path) {
  return phase_stats.at(nlohmann::json::json_pointer(path)).get<uint64_t>();
}

// The paper's point on a small read-skewed run: the RL policy learns to put hot data on LSB
// pages more than the LRU order does, and the same seed gives the same run.
TEST(RlGrouping, PutsMoreReadsOnLsbPagesThanTheBaselineAndIsDeterministic) {
  const E2eRun baseline = run_grouping("baseline");
  const E2eRun rl = run_grouping("rl");
  const E2eRun again = run_grouping("rl", "", "_again");
  ASSERT_NO_FATAL_FAILURE(expect_clean(rl));
  ASSERT_NO_FATAL_FAILURE(expect_clean(again));
  const nlohmann::json& learned = phase(rl, 1);
  EXPECT_GT(learned["host_reads_lsb_fraction"].get<double>(),
            phase(baseline, 1)["host_reads_lsb_fraction"].get<double>() * 1.15);
  EXPECT_GT(counter(learned, "/fsp/rl/episodes"), 4u) << "past the exploring episodes";
  EXPECT_GT(counter(learned, "/fsp/rl/rewarded_steps"), 0u);
  EXPECT_GT(counter(learned, "/cache/rewrites"), 0u);
  EXPECT_GT(counter(learned, "/fsp/select_cycles"), 0u);
  EXPECT_EQ(rl.stats["ftl"]["phases"], again.stats["ftl"]["phases"]);
  EXPECT_EQ(rl.stats["host"]["oracle"], again.stats["host"]["oracle"]);
}

TEST(RlGrouping, FrequencyRewritesHotDataUnlessTheRewriteModuleIsOff) {
  const E2eRun on = run_grouping("frequency", "", "_rewrite");
  const E2eRun off = run_grouping("frequency", "--set ftl.fsp.rewrite=false", "_no_rewrite");
  ASSERT_NO_FATAL_FAILURE(expect_clean(on));
  ASSERT_NO_FATAL_FAILURE(expect_clean(off));
  EXPECT_GT(counter(phase(on, 1), "/cache/rewrites"), 0u);
  EXPECT_EQ(counter(phase(off, 1), "/cache/rewrites"), 0u);
  EXPECT_GT(counter(phase(on, 1), "/pages_programmed/host"),
            counter(phase(off, 1), "/pages_programmed/host"))
      << "rewrites are programmed as host data";
}

TEST(RlGrouping, NeedsQlc) {
  const E2eRun run = run_grouping("rl", "--set nand.cell=tlc", "_tlc");
  EXPECT_NE(run.process.exit_code, 0);
  EXPECT_TRUE(contains(run.process.output, "ftl.fsp.policy = rl needs nand.cell = qlc"))
      << run.process.output;
}

// LeaFTL's keys that the device must match are refused before the run, naming both keys.
TEST(LeaftlKeys, GammaNeedsOobRoomGroupsArePowersOfTwoAndSftlAccountingNeedsGammaZero) {
  const std::string yaml = device_yaml("leaftl") +
                           fill_then_verify(1 << 20, "");
  const E2eRun small_oob = run_scenario("leaftl_oob", yaml, "--set ftl.leaftl.gamma=16");
  EXPECT_NE(small_oob.process.exit_code, 0);
  EXPECT_TRUE(contains(small_oob.process.output,
                       "ftl.leaftl.gamma = 16 needs nand.oob_size >= 156 B"))
      << small_oob.process.output;
  const E2eRun odd_group = run_scenario("leaftl_group", yaml, "--set ftl.leaftl.group_lpns=100");
  EXPECT_NE(odd_group.process.exit_code, 0);
  EXPECT_TRUE(contains(odd_group.process.output,
                       "ftl.leaftl.group_lpns = 100 must be a power of two"))
      << odd_group.process.output;
  const E2eRun sftl_at_gamma = run_scenario(
      "leaftl_sftl", yaml,
      "--set nand.oob_size=256B --set ftl.leaftl.gamma=4 --set ftl.leaftl.account_sftl=true");
  EXPECT_NE(sftl_at_gamma.process.exit_code, 0);
  EXPECT_TRUE(contains(sftl_at_gamma.process.output,
                       "ftl.leaftl.account_sftl needs ftl.leaftl.gamma = 0 (it is 4)"))
      << sftl_at_gamma.process.output;
}

// ---- LearnedFTL (scenarios/learnedftl.yaml) ---------------------------------------------------

uint64_t counter(const nlohmann::json& stats, const char* group, const char* name) {
  return stats[group][name].get<uint64_t>();
}

E2eRun run_learnedftl(const std::string& name, const std::string& overrides = "") {
  const std::string out = temp_dir("ftl_" + name);
  const test::SsdsimRun process = run_ssdsim(std::string(SSDVP_SOURCE_DIR) +
                                             "/scenarios/learnedftl.yaml " + overrides +
                                             " --out " + out);
  std::ifstream stats(out + "/stats.json");
  E2eRun run{process, {}};
  if (stats) run.stats = nlohmann::json::parse(stats);
  return run;
}

// GC collects whole GTD-entry groups, reads their TPs, rewrites their pages in LPN order and
// trains each TP's model; reading everything back then checks every prediction against the
// page's OOB (none may be wrong), and the models serve most reads without a translation read.
TEST(Learnedftl, GroupGcTrainsModelsThatServeReadsAndNoPredictionIsWrong) {
  const E2eRun run = run_learnedftl("learnedftl");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  EXPECT_GT(counter(overwrite, "gc", "ordered_sets"), 0u);
  EXPECT_EQ(counter(overwrite, "gc", "ordered_sets"),
            counter(overwrite, "gtd_group", "collections") +
                counter(overwrite, "gtd_group", "stripe_collections"));
  EXPECT_GE(counter(overwrite, "gc", "ordered_tp_reads"),
            counter(overwrite, "gc", "ordered_sets"));
  EXPECT_GT(counter(overwrite, "learnedftl", "trainings"), 0u);
  EXPECT_GT(counter(overwrite, "learnedftl", "train_cycles"), 0u);
  // Pages rewritten in LPN order into consecutive VPNs: nearly all come out exact.
  EXPECT_GT(counter(overwrite, "learnedftl", "trained_bits"),
            counter(overwrite, "learnedftl", "trained_lpns") * 9 / 10);
  const nlohmann::json& total = run.stats["ftl"]["run"];
  EXPECT_EQ(counter(total, "learnedftl", "filter_errors"), 0u);
  // Every page written was read back sequentially: most from a model, each one verified.
  const nlohmann::json& read_all = phase(run, 2);
  EXPECT_GT(counter(read_all, "learnedftl", "model_hits"),
            read_all["host_read_pages"].get<uint64_t>() / 2);
  // Random reads: a model or the CMT spares most translation reads.
  const nlohmann::json& random_read = phase(run, 3);
  EXPECT_LT(random_read["flash_reads_per_host_read"].get<double>(), 1.3);
  EXPECT_GT(counter(random_read, "learnedftl", "model_hits"),
            counter(random_read, "learnedftl", "cmt_hits"));
}

// The authors' cheaper collection (ftl.gtd_group.lone_stripe: fits) moves a lone stripe of a
// group and trains its TPs on those pages and on the mappings their models gave exactly: still
// no prediction may be wrong, and the models still serve reads.
TEST(Learnedftl, LoneStripesTrainOnWhatTheModelsKnewAndNoPredictionIsWrong) {
  const E2eRun run = run_learnedftl("learnedftl_fits", "--set ftl.gtd_group.lone_stripe=fits");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  EXPECT_GT(counter(overwrite, "gtd_group", "stripe_collections"), 0u);
  EXPECT_EQ(counter(overwrite, "gc", "ordered_sets"),
            counter(overwrite, "gtd_group", "collections") +
                counter(overwrite, "gtd_group", "stripe_collections"));
  EXPECT_EQ(counter(run.stats["ftl"]["run"], "learnedftl", "filter_errors"), 0u);
  EXPECT_GT(counter(phase(run, 2), "learnedftl", "model_hits"), 0u);
}

// GC's pass over a group's TPs with a batch of several programs and few flash records: a page
// whose read finds no record waits for one instead of being passed over (left to the closing
// sweep, out of LPN order, it broke the models: 3 % of the moved mappings came out exact).
TEST(Learnedftl, AGcBatchShortOfFlashRecordsKeepsTheLpnOrder) {
  const E2eRun run =
      run_learnedftl("learnedftl_batch", "--set ftl.gc.batch_programs=8 --set ftl.flash_ops=12");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  EXPECT_GT(counter(overwrite, "learnedftl", "trained_bits"),
            counter(overwrite, "learnedftl", "trained_lpns") * 9 / 10);
  EXPECT_LT(counter(overwrite, "gc", "ordered_swept_pages") * 100,
            counter(overwrite, "gc", "pages_moved"));
}

TEST(Learnedftl, SameScenarioTwiceGivesIdenticalStats) {
  const std::string shorter = "--set workload.phases[3].requests=2000";
  expect_identical_runs(run_learnedftl("learnedftl_a", shorter),
                        run_learnedftl("learnedftl_b", shorter));
}

// The scenario with `overrides` does not start, and says `message`.
void expect_learnedftl_refused(const std::string& name, const std::string& overrides,
                               const std::string& message) {
  const E2eRun run = run_learnedftl(name, overrides);
  EXPECT_NE(run.process.exit_code, 0) << name;
  EXPECT_TRUE(contains(run.process.output, message)) << run.process.output;
}

TEST(LearnedftlKeys, ModelsNeedGroupAllocationAndGroupsNeedTheirReserve) {
  expect_learnedftl_refused("learnedftl_greedy", "--set ftl.gc.victim=greedy",
                            "firmware.scheme = learnedftl needs group-based allocation, "
                            "ftl.gc.victim = gtd_group and ftl.fsp.policy = gtd_group");
  expect_learnedftl_refused("learnedftl_half", "--set ftl.fsp.policy=baseline",
                            "ftl.gc.victim = gtd_group needs ftl.fsp.policy = gtd_group");
  // A group fills 2 stripes: collecting one needs more than that in reserve.
  expect_learnedftl_refused("learnedftl_reserve", "--set ftl.gc.foreground_free=2",
                            "ftl.gc.foreground_free (2 stripes) must exceed the 2 stripes a "
                            "GTD-entry group's LPNs fill");
  // 5 % OP cannot hold a whole stripe per group beyond the shares.
  expect_learnedftl_refused("learnedftl_op", "--set ftl.op=0.05",
                            "GTD-entry groups of 2 whole stripes");
}

// ---- RQFTL (scenarios/rqftl.yaml) ---------------------------------------------------------

// The scenario with shorter measured phases.
E2eRun run_rqftl(const std::string& name, const std::string& overrides = "") {
  const std::string out = temp_dir("ftl_" + name);
  const test::SsdsimRun process = run_ssdsim(
      std::string(SSDVP_SOURCE_DIR) + "/scenarios/rqftl.yaml --set workload.phases[1].requests=6000 "
      "--set workload.phases[2].requests=6000 " + overrides + " --out " + out);
  std::ifstream stats(out + "/stats.json");
  E2eRun run{process, {}};
  if (stats) run.stats = nlohmann::json::parse(stats);
  return run;
}

// Transfers move the short-term cache's lines into fractions whose models train on hart 1;
// reads then hit both caches, and writes invalidate ranges (some while their fraction trains).
// Every page read is checked by the oracle.
TEST(Rqftl, TwoHartsTrainOnTheWorkerAndBothCachesServe) {
  const E2eRun run = run_rqftl("rqftl_two_harts");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& total = run.stats["ftl"]["run"];
  EXPECT_GT(counter(total, "rqftl", "transfers"), 100u);
  EXPECT_GT(counter(total, "rqftl", "training_cycles"), 0u);
  EXPECT_GT(counter(total, "rqftl", "ranges_invalidated"), 0u);
  EXPECT_EQ(counter(total, "rqftl", "train_failures"), 0u);
  const nlohmann::json& reads = phase(run, 2);
  EXPECT_GT(counter(reads, "rqftl", "ltc_hits"), 1000u);
  EXPECT_GT(counter(reads, "rqftl", "stc_hits"), 100u);
  // Hart 1 ran the training: it retired instructions while hart 0 served.
  EXPECT_GT(run.stats["harts"][1]["instret"].get<uint64_t>(), 10000000u);
}

// One hart trains inline; the accelerator looks ranges up, reloading its one model whenever the
// fraction changes. Same rules, same oracle.
TEST(Rqftl, OneHartAndTheAcceleratorServeCleanly) {
  const E2eRun inline_run = run_rqftl("rqftl_one_hart", "--set cpu.harts=1");
  ASSERT_NO_FATAL_FAILURE(expect_clean(inline_run));
  EXPECT_GT(counter(inline_run.stats["ftl"]["run"], "rqftl", "ltc_hits"), 1000u);
  const E2eRun accel = run_rqftl(
      "rqftl_accel", "--set firmware.rqrmi_engine=accel --set accel.present=true");
  ASSERT_NO_FATAL_FAILURE(expect_clean(accel));
  const nlohmann::json& total = accel.stats["ftl"]["run"];
  EXPECT_GT(counter(total, "rqrmi_engine", "lookups"), 10000u);
  EXPECT_GT(counter(total, "rqrmi_engine", "reloads"), 100u);
  EXPECT_GT(counter(total, "rqftl", "ltc_hits"), 1000u);
}

// A static partition (ftl.rqftl.stc_bytes) keeps the short-term cache's cells within it.
TEST(Rqftl, AStaticPartitionHoldsTheShortTermCacheToItsBytes) {
  const E2eRun run = run_rqftl("rqftl_static", "--set ftl.rqftl.stc_bytes=24KiB");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  for (const nlohmann::json& span : run.stats["ftl"]["phases"]) {
    EXPECT_LE(span["rqftl"]["stc_cells"].get<uint64_t>(), 24u * 1024 / 8);
  }
  EXPECT_GT(counter(run.stats["ftl"]["run"], "rqftl", "ltc_hits"), 1000u);
}

// Zero-time training (the paper's Figure 10): the worker hart trains with mzerotime set, so the
// training cycles pass no simulated time. They still count in mcycle and in training_cycles, and
// the hart reports them as zero_time_cycles (the csrw and timer reads around each training add a
// few per transfer); without the key no cycle is in zero time. Transfers, which wait for the
// last one's training, then come faster: more of them in the same workload.
TEST(Rqftl, ZeroTimeTrainingCountsItsCyclesButPassesNoTime) {
  const E2eRun run = run_rqftl("rqftl_zero_time", "--set ftl.rqftl.zero_time_training=true");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& total = run.stats["ftl"]["run"];
  const uint64_t training = counter(total, "rqftl", "training_cycles");
  const uint64_t transfers = counter(total, "rqftl", "transfers");
  EXPECT_GT(training, 0u);
  const uint64_t zero_time = run.stats["harts"][1]["zero_time_cycles"].get<uint64_t>();
  EXPECT_GE(zero_time, training);
  EXPECT_LE(zero_time, training + 64 * transfers);
  EXPECT_EQ(run.stats["harts"][0]["zero_time_cycles"].get<uint64_t>(), 0u);

  const E2eRun timed_run = run_rqftl("rqftl_timed_training");
  ASSERT_NO_FATAL_FAILURE(expect_clean(timed_run));
  EXPECT_EQ(timed_run.stats["harts"][1]["zero_time_cycles"].get<uint64_t>(), 0u);
  const uint64_t timed_transfers = counter(timed_run.stats["ftl"]["run"], "rqftl", "transfers");
  EXPECT_GT(transfers, timed_transfers + timed_transfers / 20);
}

// ftl.rqftl.zero_time_after keeps the trainings timed until more host commands than it says have
// completed: here the precondition's 448 (56 MiB of 128 KiB writes). Its trainings then pass
// simulated time and only the later phases' are zero-time: the hart's zero-time cycles stay within
// those phases' training cycles (plus the few per transfer around each) and cover most of them.
TEST(Rqftl, ZeroTimeTrainingCanStartAfterThePreconditioning) {
  const E2eRun run = run_rqftl("rqftl_zero_time_after", "--set ftl.rqftl.zero_time_training=true "
                                                        "--set ftl.rqftl.zero_time_after=448");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const uint64_t precondition_training = counter(phase(run, 0), "rqftl", "training_cycles");
  const uint64_t later_training = counter(phase(run, 1), "rqftl", "training_cycles") +
                                  counter(phase(run, 2), "rqftl", "training_cycles");
  const uint64_t later_transfers = counter(phase(run, 1), "rqftl", "transfers") +
                                   counter(phase(run, 2), "rqftl", "transfers");
  EXPECT_GT(precondition_training, 0u);
  const uint64_t zero_time = run.stats["harts"][1]["zero_time_cycles"].get<uint64_t>();
  EXPECT_LE(zero_time, later_training + 64 * later_transfers);
  EXPECT_GT(zero_time, later_training / 2);
}

TEST(Rqftl, SameScenarioTwiceGivesIdenticalStats) {
  expect_identical_runs(run_rqftl("rqftl_a"), run_rqftl("rqftl_b"));
}

// ---- Job kinds (interface/job_kinds.h): each hart's cycles by the work they went to ---------

uint64_t kind_sum(const nlohmann::json& job_cycles) {
  uint64_t sum = 0;
  for (const auto& [kind, cycles] : job_cycles.items()) sum += cycles.get<uint64_t>();
  return sum;
}

// Every cycle of every hart is charged to one job kind, for the run (harts[], and the same in
// ftl.run) and in each phase; the sleep to idle; only the named kinds appear.
void expect_every_cycle_charged(const E2eRun& run) {
  const nlohmann::json& harts = run.stats["harts"];
  for (size_t hart = 0; hart < harts.size(); ++hart) {
    const nlohmann::json& kinds = harts[hart]["job_cycles"];
    for (const char* name :
         {"other", "host", "flush", "translation", "gc", "jobs", "compaction", "idle",
          "recovery"}) {
      EXPECT_TRUE(kinds.contains(name)) << name << " " << kinds;
    }
    EXPECT_EQ(kinds.size(), 9u) << kinds;
    EXPECT_EQ(kind_sum(kinds), harts[hart]["cycles"].get<uint64_t>()) << "hart " << hart;
    EXPECT_GE(kinds["idle"].get<uint64_t>(), harts[hart]["sleep_cycles"].get<uint64_t>());
    EXPECT_EQ(run.stats["ftl"]["run"]["firmware"]["harts"][hart]["job_cycles"], kinds);
  }
  for (const nlohmann::json& span : run.stats["ftl"]["phases"]) {
    ASSERT_EQ(span["firmware"]["harts"].size(), harts.size());
    for (const nlohmann::json& hart : span["firmware"]["harts"]) {
      EXPECT_EQ(kind_sum(hart["job_cycles"]), hart["cycles"].get<uint64_t>())
          << span["name"] << " hart " << hart["hart"];
      EXPECT_GE(hart["job_cycles"]["idle"].get<uint64_t>(), hart["sleep_cycles"].get<uint64_t>());
    }
  }
}

uint64_t job_cycles(const nlohmann::json& phase_stats, size_t hart, const char* kind) {
  return phase_stats["firmware"]["harts"][hart]["job_cycles"][kind].get<uint64_t>();
}

uint64_t awake_cycles(const nlohmann::json& phase_stats, size_t hart) {
  const nlohmann::json& figures = phase_stats["firmware"]["harts"][hart];
  return figures["cycles"].get<uint64_t>() - figures["sleep_cycles"].get<uint64_t>();
}

// A nearly full device overwritten at random: GC's work (victims read, moved, mapped, erased)
// takes most of the overwrite's awake cycles and is charged to gc, while the fill before it
// charges next to nothing there; host commands go to host and the write buffer's programs to
// flush. The summary names each hart's shares.
TEST(FtlJobKinds, EveryCycleIsChargedToAKindAndGcWorkToGc) {
  const E2eRun run = run_scenario(
      "job_kinds", device_yaml("dftl") + "workload:\n  phases:\n" + fill_phase(kHostBytes) +
                       stream_phase("overwrite", bytes(kHostBytes / 2),
                                    "pattern: random, read_fraction: 0.0, size: 8KiB, "
                                    "queue_depth: 32") +
                       verify_phase(4 << 20));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  ASSERT_NO_FATAL_FAILURE(expect_every_cycle_charged(run));
  const nlohmann::json& fill = phase(run, 0);
  const nlohmann::json& overwrite = phase(run, 1);
  ASSERT_GT(overwrite["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_GT(job_cycles(overwrite, 0, "gc"), awake_cycles(overwrite, 0) / 4);
  EXPECT_LT(job_cycles(fill, 0, "gc"), awake_cycles(fill, 0) / 100);
  EXPECT_GT(job_cycles(fill, 0, "host"), awake_cycles(fill, 0) / 10);
  EXPECT_GT(job_cycles(fill, 0, "flush"), awake_cycles(fill, 0) / 10);
  EXPECT_EQ(job_cycles(overwrite, 0, "jobs"), 0u) << "DFTL hands out no jobs";
  EXPECT_TRUE(contains(run.process.output, "hart 0 cycles: other ")) << run.process.output;
}

// RQFTL on two harts: the worker hart's awake cycles are its jobs' (the model trainings and the
// loop that takes them; only its boot before is other's), at least the training cycles RQFTL
// measured, and its sleep is idle's; the serving hart charges the deliveries of the trained models
// to jobs and no GC runs.
TEST(Rqftl, TheWorkerHartsAwakeCyclesAreJobs) {
  const E2eRun run = run_rqftl("rqftl_job_kinds");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  ASSERT_NO_FATAL_FAILURE(expect_every_cycle_charged(run));
  const nlohmann::json& worker = run.stats["harts"][1];
  const nlohmann::json& kinds = worker["job_cycles"];
  const uint64_t jobs = kinds["jobs"].get<uint64_t>();
  const uint64_t training = counter(run.stats["ftl"]["run"], "rqftl", "training_cycles");
  EXPECT_GT(training, 0u);
  EXPECT_GE(jobs, training);
  EXPECT_EQ(jobs + kinds["idle"].get<uint64_t>() + kinds["other"].get<uint64_t>(),
            worker["cycles"].get<uint64_t>())
      << kinds;
  EXPECT_LT(kinds["other"].get<uint64_t>(), jobs / 1000) << "the worker's boot";
  const uint64_t awake =
      worker["cycles"].get<uint64_t>() - worker["sleep_cycles"].get<uint64_t>();
  EXPECT_GE(jobs + kinds["other"].get<uint64_t>(), awake - awake / 100)
      << "all but the few cycles of each WFI and its CSR writes";
  const nlohmann::json& server = run.stats["harts"][0]["job_cycles"];
  EXPECT_GT(server["jobs"].get<uint64_t>(), 0u);
  EXPECT_GT(server["host"].get<uint64_t>(), 0u);
  EXPECT_EQ(server["gc"].get<uint64_t>(), 0u);
  EXPECT_TRUE(contains(run.process.output, "hart 1 cycles: other ")) << run.process.output;
}

// The write buffer as a data cache: 256 pages (2 MiB) in DRAM, rereads and rewrites of a
// 1 MiB working set. With clean entries and a high flush watermark nearly every page access hits
// the buffer; as a plain write buffer that programs every whole wordline at once, few do. Every
// page read, from the cache or from flash, is checked by the oracle, and the whole set read back.
E2eRun run_cache_scenario(const std::string& name, const std::string& cache_keys) {
  const uint64_t working_set = 1 << 20;
  return run_scenario(
      name, device_yaml("dftl") + "dram: {size: 16MiB}\n" +
                "ftl: {write_buffer: {pages: 256, location: dram" + cache_keys + "}}\n" +
                fill_then_verify(8 << 20,
                                 stream_phase("reuse", requests(4000),
                                              fmt::format("pattern: random, read_fraction: 0.5, "
                                                          "size: 8KiB, queue_depth: 8, "
                                                          "working_set: {}",
                                                          working_set))));
}

double share(const nlohmann::json& phase_stats, const char* counter, const char* of) {
  return static_cast<double>(phase_stats["cache"][counter].get<uint64_t>()) /
         static_cast<double>(phase_stats[of].get<uint64_t>());
}

TEST(FtlDataCache, CleanEntriesAndAHighWatermarkServeRereadsAndRewritesFromTheBuffer) {
  const E2eRun cache =
      run_cache_scenario("data_cache", ", flush_watermark: 90, clean_entries: true");
  ASSERT_NO_FATAL_FAILURE(expect_clean(cache));
  const nlohmann::json& reuse = phase(cache, 1);
  EXPECT_GT(share(reuse, "read_hits", "host_read_pages"), 0.8);
  EXPECT_GT(share(reuse, "write_hits", "host_write_pages"), 0.8);
  EXPECT_GT(reuse["cache"]["fills"].get<uint64_t>(), 0u);
  EXPECT_GT(reuse["cache"]["evictions"].get<uint64_t>(), 0u);  // the fill's pages made room
  EXPECT_LT(reuse["flash_reads"]["host"].get<uint64_t>(),
            reuse["host_read_pages"].get<uint64_t>() / 5);
  // Dirty pages wait above the watermark's share: 90 % of 256 slots, less what programs take.
  EXPECT_GT(reuse["cache"]["dirty_pages"].get<uint64_t>(), 100u);

  const E2eRun plain = run_cache_scenario("write_buffer", "");
  ASSERT_NO_FATAL_FAILURE(expect_clean(plain));
  const nlohmann::json& plain_reuse = phase(plain, 1);
  EXPECT_LT(share(plain_reuse, "read_hits", "host_read_pages"), 0.2);
  EXPECT_LT(share(plain_reuse, "write_hits", "host_write_pages"), 0.2);
  EXPECT_EQ(plain_reuse["cache"]["fills"].get<uint64_t>(), 0u);
  EXPECT_EQ(plain_reuse["cache"]["clean_pages"].get<uint64_t>(), 0u);
  EXPECT_GT(plain_reuse["cache"]["flushes"].get<uint64_t>(),
            reuse["cache"]["flushes"].get<uint64_t>());
}

// 8 MiB filled, 2000 requests of a random stream with `keys` in it (phase `name`), and all of
// it read back, on `scheme`'s device.
E2eRun run_random_8mib(const std::string& name, const std::string& scheme,
                       const std::string& keys) {
  const uint64_t set = 8 << 20;
  return run_scenario(
      name, device_yaml(scheme) +
                fill_then_verify(set, stream_phase(name, requests(2000),
                                                   fmt::format("pattern: random, {}, queue_depth: "
                                                               "8, working_set: {}",
                                                               keys, set))));
}

TEST_P(FtlScheme, TrimmedPagesReadAsTrimmed) {
  const E2eRun run = run_random_8mib(
      "trim", GetParam(), "read_fraction: 0.5, trim_fraction: 0.3, sizes: {8KiB: 1, 32KiB: 1}");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GT(phase(run, 1)["host_trim_pages"].get<uint64_t>(), 0u);
}

TEST_P(FtlScheme, PartialPagesMergeWithOldData) {
  const E2eRun run = run_random_8mib("partial", GetParam(),
                                     "read_fraction: 0.5, sizes: {4KiB: 2, 12KiB: 1}, align: 4KiB");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GT(phase(run, 1)["partial_page_merges"].get<uint64_t>(), 0u);
}

// FUA writes, flushes every few writes, trims and partial pages: every read checks clean, and
// the FUA writes went through forced programs.
TEST_P(FtlScheme, FuaWritesAndFlushesReadBackClean) {
  const E2eRun run = run_random_8mib("fua", GetParam(),
                                     "read_fraction: 0.4, trim_fraction: 0.1, fua_fraction: 0.3, "
                                     "fsync: 8, sizes: {4KiB: 1, 8KiB: 2, 32KiB: 1}, align: 4KiB");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GT(phase(run, 1)["host_fua_writes"].get<uint64_t>(), 0u);
  EXPECT_GT(phase(run, 1)["cache"]["fua_programs"].get<uint64_t>(), 0u);
  EXPECT_GT(run.stats["host"]["phases"][1]["ops"]["flush"]["commands"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Schemes, FtlScheme,
                         testing::Values("ideal", "dftl", "tpftl", "sftl", "leaftl",
                                         "leaftl_g16", "rqftl", "rqftl_2h"));

// ---- Once for the FTL -----------------------------------------------------------------------

// A FUA write completes only once its pages are programmed: at queue depth 1 each one (two
// pages, aligned) waits for a program of its own (t_prog at least), one for both pages, while
// plain writes complete from the buffer.
TEST(FtlFua, AFuaWriteCompletesOnlyAfterItsProgram) {
  const uint64_t set = 4 << 20;
  const std::string writes = fmt::format(
      "pattern: random, size: 16KiB, align: 16KiB, queue_depth: 1, working_set: {}{{}}", set);
  const E2eRun run = run_scenario(
      "fua_latency",
      device_yaml("dftl") + "workload:\n  phases:\n" + fill_phase(set) +
          stream_phase("fua", requests(100), fmt::format(fmt::runtime(writes), ", fua_fraction: 1")) +
          stream_phase("plain", requests(100), fmt::format(fmt::runtime(writes), "")) +
          verify_phase(set),
      "--set nand.t_prog=1ms");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  constexpr uint64_t kProgNs = 1'000'000;
  const nlohmann::json& fua = run.stats["host"]["phases"][1]["ops"]["write"]["latency_ns"];
  const nlohmann::json& plain = run.stats["host"]["phases"][2]["ops"]["write"]["latency_ns"];
  EXPECT_GE(fua["min"].get<double>(), kProgNs);
  EXPECT_LT(plain["p50"].get<double>(), kProgNs);
  EXPECT_EQ(phase(run, 1)["host_fua_writes"], 100u);
  EXPECT_EQ(phase(run, 1)["host_write_pages"], 200u);
  EXPECT_EQ(phase(run, 1)["cache"]["fua_programs"], 100u);  // one forced program each
  EXPECT_EQ(phase(run, 2)["host_fua_writes"], 0u);
  EXPECT_EQ(phase(run, 2)["cache"]["fua_programs"], 0u);
}

// A FUA write of more pages than the firmware has page requests cannot get all its pages into
// the buffer before some are programmed: its first pages are forced out to make room (the
// watermark, far above them, would never program them).
TEST(FtlFua, AFuaWriteLongerThanThePageRequestPoolCompletes) {
  const uint64_t set = 4 << 20;
  const E2eRun run = run_scenario(
      "fua_long",
      device_yaml("dftl") + "dram: {size: 16MiB}\n" +
          "ftl: {page_requests: 8, write_buffer: {pages: 64, location: dram, "
          "flush_watermark: 90}}\n" +
          fill_then_verify(set, stream_phase("fua", requests(20),
                                             fmt::format("pattern: random, size: 128KiB, "
                                                         "fua_fraction: 1, queue_depth: 2, "
                                                         "working_set: {}",
                                                         set))));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(phase(run, 1)["host_fua_writes"], 20u);
}

TEST(FtlWearLevelling, StaticWearLevellingBoundsTheSpread) {
  constexpr uint32_t kSpread = 6;
  // Fill, then rewrite a hot tenth over and over: without static WL the cold blocks never
  // wear; with it their data moves once the spread passes the threshold.
  const uint64_t hot = kHostBytes / 10 / kPageBytes * kPageBytes;
  const E2eRun run = run_scenario(
      "wl", device_yaml("dftl") + fmt::format("ftl: {{wl: {{static_spread: {}}}}}\n", kSpread) +
                fill_then_verify(kHostBytes,
                                 stream_phase("hot", bytes(40 * hot),
                                              fmt::format("pattern: random, read_fraction: 0.0, "
                                                          "size: 8KiB, queue_depth: 16, "
                                                          "working_set: {}",
                                                          hot))));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& erase = run.stats["ftl"]["run"]["erase_count"];
  EXPECT_GT(run.stats["ftl"]["run"]["wl_migrations"].get<uint64_t>(), 0u);
  // The translation stream holds its stripe open for seconds (TP writebacks fill 64 pages),
  // where host and GC stripes fill in milliseconds, and static WL cannot take an open stripe:
  // the groups it opened with, typical ones from a pool at its floor, fall behind while the
  // hot groups gain 2 to 4 erases, until it fills and is the first stripe WL moves. Most of
  // the time the spread is past kSpread + 1, the least-worn groups are there; the migration
  // waiting for two stripes' worth of free groups accounts for little. Over seeds 3 to 10 the
  // spread ends at 6 to 9.
  EXPECT_LE(erase["max"].get<uint64_t>() - erase["min"].get<uint64_t>(), kSpread + 3);
}

TEST(FtlWearLevelling, StaticWearLevellingLeavesGcTheSpaceItNeedsOnANearlyFullDevice) {
  // gc_stress keeps the pools at their floor, and its small map budget makes the translation
  // stream open groups often. Migrations free no space: had they the last free groups, the
  // translation stream would find none and the firmware would fault.
  constexpr uint32_t kSpread = 6;
  const std::string out = temp_dir("wl_gc_stress");
  const test::SsdsimRun process =
      run_ssdsim(std::string(SSDVP_SOURCE_DIR) + "/scenarios/gc_stress.yaml --set " +
                 fmt::format("ftl.wl.static_spread={}", kSpread) + " --out " + out);
  E2eRun run{process, read_json(out + "/stats.json")};
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& erase = run.stats["ftl"]["run"]["erase_count"];
  EXPECT_GT(run.stats["ftl"]["run"]["wl_migrations"].get<uint64_t>(), 0u);
  EXPECT_LE(erase["max"].get<uint64_t>() - erase["min"].get<uint64_t>(), kSpread + 2);
}

// DFTL with 0.5 % of programs failing while a 16 MiB set is filled, overwritten twice at random
// and read back.
constexpr uint64_t kFailingProgramsSet = 16 << 20;
E2eRun run_failing_programs(const std::string& name, const std::string& overrides = "") {
  return run_scenario(
      name,
      device_yaml("dftl") +
          fill_then_verify(kFailingProgramsSet,
                           stream_phase("overwrite", bytes(2 * kFailingProgramsSet),
                                        fmt::format("pattern: random, read_fraction: 0.0, "
                                                    "size: 8KiB, queue_depth: 32, "
                                                    "working_set: {}",
                                                    kFailingProgramsSet))),
      "--set nand.fault.program_fail_rate=5000 " + overrides);
}

TEST(FtlBadBlocks, DataOnGroupsRetiredByFailedProgramsIsMovedOffAndReadsBack) {
  // Each failure retires its group with the data of the wordlines programmed before; GC collects
  // the stripe holding it before any other, moves that data off and never erases the group, and
  // the verify phase reads every page back through the oracle.
  const E2eRun run = run_failing_programs("bad_blocks");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& retired = run.stats["ftl"]["run"]["retired"];
  EXPECT_GT(retired["groups"].get<uint64_t>(), 0u);
  EXPECT_GT(retired["rescued"].get<uint64_t>(), 0u);
  EXPECT_LE(retired["rescued"].get<uint64_t>(), retired["groups"].get<uint64_t>());
  EXPECT_EQ(retired["valid_pages_left"].get<uint64_t>(), 0u);
}

// ftl.gc.batch_programs: on a device of 8 SLC units a GC batch of a program per unit reads its
// pages together and programs them together, so a random overwrite of a nearly full device,
// bound by GC, ends sooner than with one program at a time; every page reads back.
TEST(FtlGcBatch, ABatchOfAProgramPerUnitOverlapsGcsFlashWork) {
  constexpr uint64_t kSlcPages = 4 * 2 * 32 * 32;
  const uint64_t set = kSlcPages * 75 / 100 * 4096;
  const std::string yaml =
      "name: gc_batch\nseed: 4\n"
      "nand: {channels: 4, ways: 2, dies: 1, planes: 1, blocks: 32, pages: 32, "
      "page_size: 4KiB, cell: slc}\n"
      "firmware: {scheme: dftl}\nftl: {op: 0.2}\nhost: {oracle: true}\n" +
      fill_then_verify(set, stream_phase("overwrite", bytes(set),
                                         "pattern: random, read_fraction: 0.0, size: 4KiB, "
                                         "queue_depth: 32"));
  const E2eRun single = run_scenario("gc_batch_1", yaml);
  const E2eRun batched = run_scenario("gc_batch_8", yaml, "--set ftl.gc.batch_programs=8");
  ASSERT_NO_FATAL_FAILURE(expect_clean(single));
  ASSERT_NO_FATAL_FAILURE(expect_clean(batched));
  EXPECT_GT(phase(batched, 1)["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_GE(phase(batched, 2)["host_read_pages"].get<uint64_t>(), set / 4096);
  const double single_s = single.stats["host"]["phases"][1]["duration_s"].get<double>();
  const double batched_s = batched.stats["host"]["phases"][1]["duration_s"].get<double>();
  EXPECT_LT(batched_s, 0.8 * single_s) << "GC's programs did not overlap";
  std::map<std::string, uint64_t> regions;
  for (const nlohmann::json& region : batched.stats["ftl"]["memory"]["regions"]) {
    regions[region["name"]] = region["bytes"];
  }
  EXPECT_EQ(regions["gc_slots"], 8u * 4096u) << "a page per program";
}

// An idle phase (no streams, a duration): the host sends nothing, and GC (the overwrite's last
// job, then background GC) brings the pools the random overwrite left low back to
// ftl.gc.background_free; the reads after it find no GC left to do.
// GC frees a stripe in about 25 ms here (some 50 pages moved by QLC programs): 200 ms of idle
// left no margin for the 2 stripes GC frees up to ftl.gc.background_free (with the RQFTL
// firmware's changes the last collection fell into the read phase). 500 ms leaves room.
TEST(FtlIdlePhase, BackgroundGcRunsWhileTheHostIsIdle) {
  const uint64_t set = kPhysicalPages * 80 / 100 * kPageBytes;  // 20 % OP: room to free
  const std::string yaml =
      device_yaml("dftl") + "ftl: {op: 0.2}\nworkload:\n  phases:\n" + fill_phase(set) +
      stream_phase("overwrite", bytes(set),
                   "pattern: random, read_fraction: 0.0, size: 8KiB, queue_depth: 32") +
      "    - {name: idle, duration: 500ms, streams: []}\n" +
      stream_phase("read", requests(2000),
                   "pattern: random, read_fraction: 1.0, size: 8KiB, queue_depth: 32");
  const E2eRun run = run_scenario("idle_phase", yaml);
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& idle = run.stats["host"]["phases"][2];
  EXPECT_EQ(idle["name"], "idle");
  EXPECT_EQ(idle["commands"].get<uint64_t>(), 0u);
  EXPECT_NEAR(idle["duration_s"].get<double>(), 0.5, 1e-9);
  const nlohmann::json& idle_ftl = phase(run, 2)["gc"];
  EXPECT_GT(idle_ftl["invocations"].get<uint64_t>(), 0u);
  EXPECT_GE(phase(run, 2)["blocks"]["free_groups"].get<uint64_t>(), 4u * 2u)
      << "ftl.gc.background_free: 4 stripes of 2 groups";
  EXPECT_EQ(phase(run, 3)["gc"]["invocations"].get<uint64_t>(), 0u);
}

// A failed program of a batch retires its group and is programmed again elsewhere, alone; the
// batch's other programs stand, and every page reads back.
TEST(FtlGcBatch, AFailedProgramOfABatchIsProgrammedAgainAndEveryPageReadsBack) {
  const E2eRun run = run_failing_programs("gc_batch_failures", "--set ftl.gc.batch_programs=2");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GT(run.stats["ftl"]["run"]["retired"]["groups"].get<uint64_t>(), 0u);
  EXPECT_GT(run.stats["ftl"]["run"]["gc"]["pages_moved"].get<uint64_t>(), 0u);
  EXPECT_EQ(run.stats["ftl"]["run"]["retired"]["valid_pages_left"].get<uint64_t>(), 0u);
  EXPECT_GE(phase(run, 2)["host_read_pages"].get<uint64_t>(), kFailingProgramsSet / kPageBytes);
}

TEST(FtlBadBlocks, GcUnderEraseFailuresRetiresTheGroupsAndEveryPageReadsBack) {
  // 0.5 % of erases fail, each retiring its group: a unit then has a group fewer, and stripes
  // opened while it has none free have a hole. With 20 % OP the whole capacity is filled and
  // overwritten at random, so GC runs with the pools at their floor; a holed stripe full of
  // valid pages must not pass for the cheapest victim (it frees nothing: GC used to idle while
  // host data waited, and every hart fell asleep), nor host data take the GC reserve when the
  // pools are uneven.
  constexpr uint64_t kPages = kPhysicalPages * 80 / 100;
  const uint64_t set = kPages * kPageBytes;
  const E2eRun run = run_scenario(
      "erase_failures",
      device_yaml("dftl") + "ftl: {op: 0.2}\n" +
          fill_then_verify(set, stream_phase("overwrite", bytes(set),
                                             "pattern: random, read_fraction: 0.0, size: 8KiB, "
                                             "queue_depth: 32")),
      "--set nand.fault.erase_fail_rate=5000 --set seed=2");
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GE(phase(run, 2)["host_read_pages"].get<uint64_t>(), kPages);
  const nlohmann::json& ftl = run.stats["ftl"]["run"];
  EXPECT_GT(ftl["gc"]["invocations"].get<uint64_t>(), 0u);
  // Every failed erase retired its group, once; no data was left on one.
  const uint64_t retired = ftl["retired"]["groups"].get<uint64_t>();
  EXPECT_GE(retired, 2u);
  EXPECT_EQ(retired, run.stats["platform"]["nand"]["wear"]["grown_bad_blocks"].get<uint64_t>());
  EXPECT_EQ(ftl["retired"]["rescued"].get<uint64_t>(), 0u);
  EXPECT_EQ(ftl["retired"]["valid_pages_left"].get<uint64_t>(), 0u);
  // Every group is free, held by a stream, or retired.
  const nlohmann::json& groups = ftl["blocks"];
  EXPECT_EQ(groups["free_groups"].get<uint64_t>() + groups["host_groups"].get<uint64_t>() +
                groups["gc_groups"].get<uint64_t>() + groups["translation_groups"].get<uint64_t>() +
                retired,
            kGroups);
}

TEST(FtlBadBlocks, GroupsRetiredBeyondTheSpareRoomStopTheRunNamingTheFigures) {
  // With 7 % OP the room beyond the GC reserve and the open stripes is under a group: once 1 %
  // of erases have retired a few groups, host data waits and GC finds no stripe to free. The
  // firmware says so, with the figures, rather than sleep for ever.
  const E2eRun run = run_scenario(
      "erase_failures_out_of_space",
      device_yaml("dftl") +
          fill_then_verify(kHostBytes, stream_phase("overwrite", bytes(kHostBytes),
                                                    "pattern: random, read_fraction: 0.0, "
                                                    "size: 8KiB, queue_depth: 32")),
      "--set nand.fault.erase_fail_rate=10000");
  EXPECT_NE(run.process.exit_code, 0) << run.process.output;
  EXPECT_EQ(run.stats["outcome"]["outcome"], "fault") << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "ftl: out of space")) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "groups retired as bad")) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "ftl.op")) << run.process.output;
}

TEST(FtlBudget, OverBudgetSramFailsAtBootWithTheBreakdown) {
  // A 1 MiB map budget cannot fit in a 64 KiB SRAM.
  const E2eRun run = run_scenario(
      "budget", device_yaml("ideal") + "sram: {size: 64KiB}\nftl: {map_budget: 1MiB}\n");
  EXPECT_NE(run.process.exit_code, 0) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "budget")) << run.process.output;
  ASSERT_TRUE(run.stats.contains("ftl")) << run.process.output;
  EXPECT_FALSE(run.stats["ftl"]["boot_complete"].get<bool>());
  EXPECT_GT(run.stats["ftl"]["memory"]["regions"].size(), 0u);
  // The breakdown on the console names every region stats.json lists.
  for (const nlohmann::json& region : run.stats["ftl"]["memory"]["regions"]) {
    EXPECT_TRUE(contains(run.process.output, region["name"].get<std::string>()))
        << region["name"] << "\n" << run.process.output;
  }
}

TEST(FtlBudget, AnOobTooSmallForTheLayoutFailsAtBootNamingTheKey) {
  const E2eRun run = run_scenario("small_oob", device_yaml("ideal"), "--set nand.oob_size=8B");
  EXPECT_NE(run.process.exit_code, 0) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "nand.oob_size")) << run.process.output;
  ASSERT_TRUE(run.stats.contains("ftl")) << run.process.output;
  EXPECT_FALSE(run.stats["ftl"]["boot_complete"].get<bool>());
}

TEST(FtlBudget, OverProvisioningTooSmallForGcFailsAtBoot) {
  // 2 % OP leaves 82 spare pages; the GC and translation streams' open stripes and the GC
  // reserve alone take 4 stripes of 64.
  const E2eRun run = run_scenario("small_op", device_yaml("ideal") + "ftl: {op: 0.02}\n");
  EXPECT_NE(run.process.exit_code, 0) << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "over-provisioning too small for GC"))
      << run.process.output;
  EXPECT_TRUE(contains(run.process.output, "ftl.op")) << run.process.output;
  ASSERT_TRUE(run.stats.contains("ftl")) << run.process.output;
  EXPECT_FALSE(run.stats["ftl"]["boot_complete"].get<bool>());
}

// The ideal scheme's table after `yaml` ran (its `ideal` record in the image: the table pointer
// first): the VPNs of the first `lpns` LPNs.
std::vector<uint32_t> ideal_table_after(const std::string& yaml, size_t lpns) {
  const Scenario scenario = load_scenarios(yaml, "stripes.yaml", {}).front();
  Soc soc("soc", scenario.soc, nullptr);
  const ElfImage image = ElfImage::load(std::string(SSDVP_FIRMWARE_DIR) + "/firmware.elf");
  soc.load_program(image);
  const Soc::RunResult result = soc.run();
  EXPECT_EQ(result.outcome, Soc::RunResult::Outcome::kWorkloadDone) << result.message;
  const std::optional<uint32_t> ideal = image.symbol_address("ideal");
  EXPECT_TRUE(ideal.has_value()) << "the ideal scheme's record is not in the image";
  std::vector<uint32_t> vpns(lpns, 0xFFFFFFFFu);
  if (!ideal) return vpns;
  const FtlMetrics::DebugRead read = soc.debug_reader();
  uint32_t table = 0;
  EXPECT_TRUE(read(*ideal, &table, sizeof table));
  EXPECT_TRUE(read(table, vpns.data(), vpns.size() * sizeof(uint32_t)));
  return vpns;
}

void expect_one_run(const std::vector<uint32_t>& vpns) {
  ASSERT_NE(vpns[0], 0xFFFFFFFFu) << "LPN 0 is not mapped";
  size_t breaks = 0;
  for (size_t lpn = 1; lpn < vpns.size(); ++lpn) {
    if (vpns[lpn] != vpns[0] + lpn && breaks++ < 5) {
      ADD_FAILURE() << "LPN " << lpn << " at VPN " << vpns[lpn] << ", not " << vpns[0] + lpn;
    }
  }
  EXPECT_EQ(breaks, 0u) << "LPNs off the run";
}

TEST(FtlStripes, ASequentialMegabyteIsOneRunOfConsecutiveVpns) {
  // A clean device takes 1 MiB written sequentially, then reads it back (so every program and
  // mapping update is done): the 128 LPNs map to 128 consecutive VPNs, across every unit's block.
  const uint64_t set = 1 << 20;
  expect_one_run(ideal_table_after(device_yaml("ideal") + fill_then_verify(set, ""),
                                   set / kPageBytes));
}

TEST(FtlStripes, ConcurrentSequentialWritesEnterTheBufferInOrder) {
  // 32 writes of 128 KiB in flight at once through a 16-page write buffer: pages take the
  // buffer's slots in the order they came, so 8 MiB written sequentially is still one run (a slot
  // once went to a page that came after the one woken for it, interleaving the commands).
  const uint64_t set = 8 << 20;
  const std::string yaml =
      device_yaml("ideal") + "ftl: {write_buffer: {pages: 16}}\nworkload:\n  phases:\n" +
      stream_phase("fill", bytes(set),
                   fmt::format("pattern: sequential, size: 128KiB, queue_depth: 32, "
                               "working_set: {}",
                               set)) +
      verify_phase(set);
  expect_one_run(ideal_table_after(yaml, set / kPageBytes));
}

// `scheme` on the test device: the first `set` bytes filled, then `count` random 8 KiB requests
// over them, 60 % reads.
std::string fill_then_random_mix(const std::string& scheme, uint64_t set, uint64_t count) {
  return device_yaml(scheme) + "workload:\n  phases:\n" + fill_phase(set) +
         stream_phase("measure", requests(count),
                      fmt::format("pattern: random, read_fraction: 0.6, size: 8KiB, "
                                  "queue_depth: 16, working_set: {}",
                                  set));
}

TEST(FtlDeterminism, SameScenarioTwiceGivesIdenticalStats) {
  const std::string yaml = fill_then_random_mix("tpftl", 8 << 20, 1500);
  expect_identical_runs(run_scenario("determinism_a", yaml), run_scenario("determinism_b", yaml));
}

// ---- The papers' behaviours, with margins -----------------------------------------------------

// 24 MiB preconditioned (3072 pages: 1.5 translation pages of 2048 4-byte entries), then
// page-sized, page-aligned reads of it: one host page per request.
// One request at a time, as LearnedFTL measures the CMT hit ratios of DFTL and TPFTL (Figure 3,
// single-threaded): with more in flight, requests that miss on a translation page already being
// read share its read, and misses count before the prefetch lands.
std::string read_workload(const std::string& pattern, uint64_t count) {
  const uint64_t set = 24 << 20;
  return "workload:\n  phases:\n" + fill_phase(set) +
         stream_phase("measure", requests(count),
                      fmt::format("pattern: {}, read_fraction: 1.0, size: 8KiB, align: 8KiB, "
                                  "queue_depth: 1, working_set: {}",
                                  pattern, set));
}

TEST(FtlPapers, DftlRandomReadsMissAndReadTwice) {
  // A 2 KiB map budget caches a few hundred of the 3072 mappings of the working set.
  const E2eRun run = run_scenario(
      "dftl_random", device_yaml("dftl") + "ftl: {map_budget: 2KiB}\n" +
                         read_workload("random", 3000));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& measure = phase(run, 1);
  EXPECT_LT(measure["map"]["hit_ratio"].get<double>(), 0.15);
  EXPECT_NEAR(measure["flash_reads_per_host_read"].get<double>(), 2.0, 0.15);
}

TEST(FtlTranslationPages, WithoutFlushDelayDirtyTpsWaitInSramForAWholeWordline) {
  // The whole table of this device is 2 TPs, never a whole 8-page translation wordline: with no
  // flush delay the fill's dirty TPs stay in SRAM and every miss is served there.
  const E2eRun run = run_scenario(
      "tp_hold", device_yaml("dftl") + "ftl: {map_budget: 2KiB, tp_flush_delay: 0}\n" +
                     read_workload("random", 500));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& measure = phase(run, 1);
  EXPECT_LT(measure["map"]["hit_ratio"].get<double>(), 0.15);
  EXPECT_EQ(measure["tp_reads"], 0u);
  EXPECT_NEAR(measure["flash_reads_per_host_read"].get<double>(), 1.0, 0.05);
}

// ---- Flush commands under translation-page pressure -------------------------------------------

// A blkparse trace of `writes` one-page random writes over the first `pages` LPNs (pages of
// `page_bytes`), with a flush (FN) after every `flush_every` of them.
std::string flush_trace(uint32_t pages, uint32_t page_bytes, uint32_t writes,
                        uint32_t flush_every) {
  const uint32_t sectors = page_bytes / 512;
  uint64_t state = 12345;
  uint32_t sequence = 0;
  std::string trace;
  for (uint32_t i = 0; i < writes; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t lpn = static_cast<uint32_t>(state >> 33) % pages;
    trace += fmt::format("8,0 0 {} {}.000000000 1 Q W {} + {} [t]\n", ++sequence, i,
                         lpn * sectors, sectors);
    if ((i + 1) % flush_every == 0) {
      trace += fmt::format("8,0 0 {} {}.500000000 1 Q FN [t]\n", ++sequence, i);
    }
  }
  return trace;
}

class FtlFlushUnderTpPressure : public ::testing::TestWithParam<const char*> {};

// Each flush command finds dirty mappings of 30 TPs cached, and the TP store has frames for a
// few: one load frame (17 in all, a QLC wordline of 8 among them). The scheme's flush hands over
// what fits, the command waits in the task queue until programs free frames, and goes on; the
// data read back after the flushes is what was written (the oracle).
TEST_P(FtlFlushUnderTpPressure, FlushWaitsForFramesAndCompletesWithTheOracleOn) {
  // 16384 physical pages of 1 KiB, 15237 LPNs: the first half of them written, 30 TPs of 256
  // entries (the other half leaves GC alone).
  constexpr uint32_t kPages = 2 * 2 * 256 * 16 * 93 / 100 / 2;
  constexpr uint32_t kWrites = 3000, kFlushEvery = 1000;
  const std::string dir = temp_dir(std::string("ftl_e2e_flush_") + GetParam());
  std::ofstream(dir + "/flushes.blkparse") << flush_trace(kPages, 1024, kWrites, kFlushEvery);
  const std::string yaml =
      std::string("name: ftl_e2e_flush\nseed: 3\n") +
      "nand: {channels: 2, ways: 1, dies: 1, planes: 2, blocks: 256, pages: 16, "
      "page_size: 1KiB}\n" +
      "firmware: {scheme: " + GetParam() + "}\n" +
      "ftl: {map_budget: 256KiB, tp_load_frames: 1}\nhost: {oracle: true}\n" +
      "workload:\n  phases:\n" + fill_phase(uint64_t{kPages} * 1024) +
      stream_phase("flushes", requests(kWrites + kWrites / kFlushEvery),
                   "trace: flushes.blkparse, format: blkparse, queue_depth: 16") +
      verify_phase(uint64_t{kPages} * 1024);
  std::ofstream(dir + "/scenario.yaml") << yaml;
  E2eRun run;
  run.process = run_ssdsim(dir + "/scenario.yaml --out " + dir + "/out");
  std::ifstream stats(dir + "/out/stats.json");
  if (stats) run.stats = nlohmann::json::parse(stats);
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& host = run.stats["host"]["phases"].at(1);
  EXPECT_EQ(host["ops"]["flush"]["commands"], kWrites / kFlushEvery);
  EXPECT_EQ(host["ops"]["flush"]["errors"], 0u);
  const nlohmann::json& flushes = phase(run, 1);
  EXPECT_GT(flushes["map"]["flush_room_waits"].get<uint64_t>(), 0u)
      << "the flushes never found the TP store without room";
  EXPECT_GE(flushes["tp_writes"].get<uint64_t>(), 3u * 30u);
  EXPECT_GE(run.stats["host"]["oracle"]["pages_checked"].get<uint64_t>(), uint64_t{kPages});
}

INSTANTIATE_TEST_SUITE_P(Schemes, FtlFlushUnderTpPressure,
                         ::testing::Values("dftl", "tpftl", "sftl"));

TEST(FtlPapers, TpftlSequentialReadsHitAtLeast80Percent) {
  const E2eRun run = run_scenario(
      "tpftl_sequential", device_yaml("tpftl") + "ftl: {map_budget: 2KiB}\n" +
                              read_workload("sequential", 3000));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_GE(phase(run, 1)["map"]["hit_ratio"].get<double>(), 0.80);
}

TEST(FtlPapers, IdealReadsFlashOncePerHostRead) {
  const E2eRun run = run_scenario(
      "ideal_random", device_yaml("ideal") + "ftl: {map_budget: 64KiB}\n" +
                          read_workload("random", 3000));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& measure = phase(run, 1);
  EXPECT_NEAR(measure["flash_reads_per_host_read"].get<double>(), 1.0, 0.05);
  EXPECT_EQ(measure["tp_reads"], 0u);
}

// ---- Figures the papers state their results in -------------------------------------------------

TEST(FtlPageTypes, HostReadsByPageTypeSumToTheDataReadsAndAQuarterAreLsb) {
  // The whole device written, then uniform random page reads: every wordline holds one page of
  // each QLC type, so a quarter of the reads land on LSB pages (4 sigma of 8000 reads: 0.02).
  const E2eRun run = run_scenario(
      "page_types",
      device_yaml("ideal") + "ftl: {map_budget: 64KiB}\n" + "workload:\n  phases:\n" +
          fill_phase(kHostBytes) +
          stream_phase("measure", requests(8000),
                       "pattern: random, read_fraction: 1.0, size: 8KiB, align: 8KiB, "
                       "queue_depth: 32"));
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& measure = phase(run, 1);
  const nlohmann::json& types = measure["host_reads_by_page_type"];
  ASSERT_EQ(types.size(), 4u) << types;
  uint64_t sum = 0;
  for (const char* type : {"lsb", "clsb", "cmsb", "msb"}) sum += types[type].get<uint64_t>();
  EXPECT_EQ(sum, measure["flash_reads"]["host"].get<uint64_t>());
  // The few others: pages still in the write buffer, and the fill's unwritten tail (it writes
  // whole 64 KiB requests).
  EXPECT_GE(sum, 7900u);
  EXPECT_NEAR(measure["host_reads_lsb_fraction"].get<double>(), 0.25, 0.02);
  // The fill read nothing.
  EXPECT_EQ(phase(run, 0)["host_reads_by_page_type"]["lsb"], 0u);
}

// ---- Scenario files ---------------------------------------------------------------------------

TEST(FtlScenarioFiles, DefaultScenarioRunsTheProductFtl) {
  const std::string out = temp_dir("ftl_default");
  const test::SsdsimRun process = run_ssdsim("--out " + out);
  E2eRun run{process, read_json(out + "/stats.json")};
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(run.stats["ftl"]["phases"].size(), 2u);
}

// Every FTL scenario file runs to the end with the oracle clean (gc_stress takes about a minute).
class FtlScenarioFile : public testing::TestWithParam<const char*> {};

TEST_P(FtlScenarioFile, RunsCleanToTheEnd) {
  const std::string out = temp_dir(std::string("ftl_scenario_") + GetParam());
  const test::SsdsimRun process = run_ssdsim(std::string(SSDVP_SOURCE_DIR) + "/scenarios/" +
                                             GetParam() + ".yaml --out " + out);
  E2eRun run{process, read_json(out + "/stats.json")};
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  EXPECT_EQ(run.stats["ftl"]["phases"].size(), run.stats["host"]["phases"].size());
  // Each phase's series ends at the phase: its running WAF there is the phase's WAF.
  size_t samples = 0;
  for (const nlohmann::json& each : run.stats["ftl"]["phases"]) {
    const nlohmann::json& series = each["series"];
    ASSERT_FALSE(series["time_ns"].empty()) << each["name"];
    samples += series["time_ns"].size();
    EXPECT_EQ(series["waf"].back(), each["waf"]) << each["name"];
    EXPECT_EQ(series["host_write_pages"].back(), each["host_write_pages"]) << each["name"];
    EXPECT_EQ(series["map.hit_ratio"].back(), each["map"]["hit_ratio"]) << each["name"];
  }
  // ftl_timeseries.csv holds the same samples, one row each.
  std::ifstream csv(out + "/ftl_timeseries.csv");
  size_t lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, samples + 1);
}

// gc_stress (its phases shortened): the overwrite phase's running WAF, sampled every 100 ms.
TEST(FtlMetricsOverTime, GcStressRunningWafEndsAtThePhaseWaf) {
  const std::string out = temp_dir("ftl_gc_stress_series");
  const test::SsdsimRun process =
      run_ssdsim(std::string(SSDVP_SOURCE_DIR) + "/scenarios/gc_stress.yaml --set "
                 "workload.phases[1].bytes=64MiB --set workload.phases[2].bytes=8MiB --out " +
                 out);
  E2eRun run{process, read_json(out + "/stats.json")};
  ASSERT_NO_FATAL_FAILURE(expect_clean(run));
  const nlohmann::json& overwrite = phase(run, 1);
  const nlohmann::json& series = overwrite["series"];
  ASSERT_GT(series["time_ns"].size(), 10u);
  EXPECT_DOUBLE_EQ(series["waf"].back().get<double>(), overwrite["waf"].get<double>());
  EXPECT_GT(overwrite["waf"].get<double>(), 1.5);
  // The running WAF climbs as GC's share grows over the overwrite (one interval alone, a few
  // wordline programs, is too coarse to compare).
  const nlohmann::json& waf = series["waf"];
  EXPECT_LT(waf[waf.size() / 4].get<double>(), waf.back().get<double>());
  EXPECT_GT(waf[waf.size() / 4].get<double>(), 1.0);
  // Samples are host.stats_interval (gc_stress.yaml's 100 ms) apart, from the phase's start.
  const uint64_t start = series["time_ns"][0].get<uint64_t>() - 100'000'000;
  EXPECT_EQ(series["time_ns"][1].get<uint64_t>() - start, 200'000'000u);
}

TEST(FtlMetricsOverTime, NoIntervalNoSeriesAndTheSameStats) {
  const std::string yaml = fill_then_random_mix("dftl", 4 << 20, 800);
  E2eRun sampled = run_scenario("series_on", yaml, "--set host.stats_interval=100us");
  E2eRun none = run_scenario("series_off", yaml, "--set host.stats_interval=0");
  ASSERT_NO_FATAL_FAILURE(expect_clean(sampled));
  ASSERT_NO_FATAL_FAILURE(expect_clean(none));
  EXPECT_GT(sampled.stats["ftl"]["phases"][1]["series"]["time_ns"].size(), 5u);
  // Without an interval each phase has one sample: its end.
  EXPECT_EQ(none.stats["ftl"]["phases"][1]["series"]["time_ns"].size(), 1u);
  // Sampling reads memory by debug access: the simulation is the same.
  for (nlohmann::json* stats : {&sampled.stats, &none.stats}) {
    for (nlohmann::json& each : (*stats)["ftl"]["phases"]) each.erase("series");
    (*stats)["ftl"]["run"].erase("series");
    (*stats).erase("config");
    (*stats).erase("scenario");
    (*stats)["host"].erase("phases");  // its per-interval series differ
    drop_wall_clock_fields(*stats);
  }
  EXPECT_EQ(sampled.stats["ftl"], none.stats["ftl"]);
  EXPECT_EQ(sampled.stats["harts"], none.stats["harts"]);
  EXPECT_EQ(sampled.stats["platform"]["simulated_time_ps"],
            none.stats["platform"]["simulated_time_ps"]);
}

INSTANTIATE_TEST_SUITE_P(Files, FtlScenarioFile,
                         testing::Values("ideal", "dftl", "tpftl", "sftl", "leaftl", "learnedftl",
                                         "rqftl", "gc_stress", "trace_profile", "leaftl_profile",
                                         "tpcc_ftl", "ssdsim_trace_ftl"));

}  // namespace
}  // namespace ssdvp
