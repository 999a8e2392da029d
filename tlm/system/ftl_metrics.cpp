#include "tlm/system/ftl_metrics.h"

#include <cstring>

#include <fmt/format.h>

namespace ssdvp {
namespace {

nlohmann::json ratio(uint64_t numerator, uint64_t denominator) {
  if (denominator == 0) return nullptr;
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

const char* location_name(uint32_t location) {
  return location == FW_STATS_LOCATION_DRAM ? "dram" : "sram";
}

}  // namespace

std::optional<std::string> FtlMetrics::problem(const fw_stats_t& stats) const {
  if (stats.magic != FW_STATS_MAGIC) {
    return fmt::format("fw_stats at {:#010x}: magic {:#010x} is not FW_STATS_MAGIC {:#010x} (the "
                       "firmware has not initialised its statistics block)",
                       address_, stats.magic, FW_STATS_MAGIC);
  }
  if (stats.version != FW_STATS_VERSION) {
    return fmt::format("fw_stats at {:#010x}: version {} is not FW_STATS_VERSION {} "
                       "(interface/fw_stats.h of the firmware and the platform differ)",
                       address_, stats.version, FW_STATS_VERSION);
  }
  if (stats.region_count > FW_STATS_MAX_REGIONS) {
    return fmt::format("fw_stats at {:#010x}: region_count {} exceeds FW_STATS_MAX_REGIONS {}",
                       address_, stats.region_count, FW_STATS_MAX_REGIONS);
  }
  return std::nullopt;
}

void FtlMetrics::phase_begin(const std::string& name, const Snapshot& snapshot) {
  open_ = OpenPhase{name, snapshot};
}

void FtlMetrics::phase_end(const Snapshot& snapshot, bool finished) {
  if (!open_) return;
  nlohmann::json phase = {{"name", open_->name}, {"finished", finished}};
  phase.update(span_metrics(open_->begin, snapshot));
  phases_.push_back(std::move(phase));
  open_.reset();
}

nlohmann::json FtlMetrics::span_metrics(const Snapshot& begin, const Snapshot& end) {
  const fw_stats_t& a = begin.stats;
  const fw_stats_t& b = end.stats;
#define SSDVP_DELTA(field) (b.field - a.field)
  const uint64_t host_read_pages = SSDVP_DELTA(host_read_pages);
  const uint64_t host_write_pages = SSDVP_DELTA(host_write_pages);
  const uint64_t programmed_host = SSDVP_DELTA(pages_programmed_host);
  const uint64_t programmed_gc = SSDVP_DELTA(pages_programmed_gc);
  const uint64_t programmed_translation = SSDVP_DELTA(pages_programmed_translation);
  const uint64_t programmed_padding = SSDVP_DELTA(pages_programmed_padding);
  const uint64_t commands = end.host_commands - begin.host_commands;
  const uint64_t instructions = end.instructions - begin.instructions;
  const uint64_t cycles = end.cycles - begin.cycles;
  const uint64_t sleep_cycles = end.sleep_cycles - begin.sleep_cycles;
  nlohmann::json out = {
      {"host_commands", commands},
      {"host_read_pages", host_read_pages},
      {"host_write_pages", host_write_pages},
      {"host_trim_pages", SSDVP_DELTA(host_trim_pages)},
      {"write_buffer_read_hits", SSDVP_DELTA(write_buffer_read_hits)},
      {"partial_page_merges", SSDVP_DELTA(partial_page_merges)},
      {"map",
       {{"lookups", SSDVP_DELTA(map_lookups)},
        {"hits", SSDVP_DELTA(map_hits)},
        {"misses", SSDVP_DELTA(map_misses)},
        {"predictions", SSDVP_DELTA(map_predictions)},
        {"mispredictions", SSDVP_DELTA(map_mispredictions)},
        {"updates", SSDVP_DELTA(map_updates)},
        {"update_misses", SSDVP_DELTA(map_update_misses)},
        {"evictions", SSDVP_DELTA(map_evictions)},
        {"dirty_evictions", SSDVP_DELTA(map_dirty_evictions)},
        {"prefetched", SSDVP_DELTA(map_prefetched)},
        {"hit_ratio", ratio(SSDVP_DELTA(map_hits), SSDVP_DELTA(map_lookups))}}},
      {"tp_reads", SSDVP_DELTA(flash_reads_translation)},
      {"tp_writes", programmed_translation},
      {"flash_reads",
       {{"host", SSDVP_DELTA(flash_reads_host)},
        {"translation", SSDVP_DELTA(flash_reads_translation)},
        {"translation_host", SSDVP_DELTA(flash_reads_translation_host)},
        {"gc", SSDVP_DELTA(flash_reads_gc)},
        {"rmw", SSDVP_DELTA(flash_reads_rmw)}}},
      {"flash_reads_per_host_read",
       ratio(SSDVP_DELTA(flash_reads_host) + SSDVP_DELTA(flash_reads_translation_host),
             host_read_pages)},
      {"pages_programmed",
       {{"host", programmed_host},
        {"gc", programmed_gc},
        {"translation", programmed_translation},
        {"padding", programmed_padding}}},
      {"waf", ratio(programmed_host + programmed_gc + programmed_translation + programmed_padding,
                    host_write_pages)},
      {"blocks_erased", SSDVP_DELTA(blocks_erased)},
      {"gc",
       {{"invocations", SSDVP_DELTA(gc_invocations)},
        {"foreground", SSDVP_DELTA(gc_foreground)},
        {"pages_moved", SSDVP_DELTA(gc_pages_moved)}}},
      {"wl_migrations", SSDVP_DELTA(wl_migrations)},
      {"retired",
       {{"groups", SSDVP_DELTA(groups_retired)},
        {"rescued", SSDVP_DELTA(retired_groups_rescued)},
        {"valid_pages_left", b.retired_valid_pages}}},
      {"erase_count",
       {{"min", end.erase_counts.min},
        {"mean", end.erase_counts.mean},
        {"max", end.erase_counts.max}}},
      {"firmware",
       {{"instructions", instructions},
        {"cycles", cycles},
        {"sleep_cycles", sleep_cycles},
        {"instructions_per_command", ratio(instructions, commands)},
        {"cycles_per_command", ratio(cycles, commands)},
        {"awake_cycles_per_command", ratio(cycles - sleep_cycles, commands)}}},
  };
#undef SSDVP_DELTA
  return out;
}

nlohmann::json FtlMetrics::to_json(const Snapshot& final) const {
  const fw_stats_t& stats = final.stats;
  nlohmann::json regions = nlohmann::json::array();
  for (uint32_t i = 0; i < stats.region_count && i < FW_STATS_MAX_REGIONS; ++i) {
    const fw_stats_region_t& region = stats.regions[i];
    // The firmware promises a NUL; a missing one must not run past the record.
    const std::string name(region.name, strnlen(region.name, FW_STATS_NAME_BYTES));
    regions.push_back(
        {{"name", name}, {"bytes", region.bytes}, {"location", location_name(region.location)}});
  }
  nlohmann::json out = {
      {"address", address_},
      {"boot_complete", stats.boot_complete != 0},
      {"memory",
       {{"sram",
         {{"budget_bytes", stats.sram_budget_bytes}, {"used_bytes", stats.sram_used_bytes}}},
        {"dram",
         {{"budget_bytes", stats.dram_budget_bytes}, {"used_bytes", stats.dram_used_bytes}}},
        {"regions", std::move(regions)}}},
      {"phases", phases_},
      {"run", span_metrics(Snapshot{}, final)},
  };
  return out;
}

}  // namespace ssdvp
