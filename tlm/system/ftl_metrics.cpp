#include "tlm/system/ftl_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "tlm/system/csv.h"

namespace ssdvp {
namespace {

const char* location_name(uint32_t location) {
  return location == FW_STATS_LOCATION_DRAM ? "dram" : "sram";
}

// A term of a ratio: a metric's name, or a prefix ending in '.' that sums every counter below it.
bool term_matches(const std::string& term, const std::string& name) {
  return term.back() == '.' ? name.compare(0, term.size(), term) == 0 : name == term;
}

// What derives from the firmware's metrics: numerator terms over denominator terms, each term a
// counter's growth over the span (or a gauge's value).
struct Ratio {
  const char* name;
  std::vector<std::string> numerator;
  std::vector<std::string> denominator;
};

const std::vector<Ratio>& ratios() {
  static const std::vector<Ratio> kRatios = {
      {"map.hit_ratio", {"map.hits"}, {"map.lookups"}},
      // The double-read ratio: flash reads a host read costs.
      {"flash_reads_per_host_read", {"flash_reads.host", "flash_reads.translation_host"},
       {"host_read_pages"}},
      {"waf", {"pages_programmed."}, {"host_write_pages"}},
      {"host_reads_lsb_fraction", {"host_reads_by_page_type.lsb"}, {"host_reads_by_page_type."}},
      // Firmware cycles the GC victim policy spends per victim set it chooses.
      {"gc.cycles_per_selection", {"gc.select_cycles"}, {"gc.selections"}},
      // Firmware cycles the write buffer's grouping policy spends per wordline it programs.
      {"fsp.cycles_per_flush", {"fsp.select_cycles", "fsp.commit_cycles"}, {"cache.flushes"}},
  };
  return kRatios;
}

// Older names of single metrics, kept for the tools that read them.
const std::vector<std::pair<const char*, const char*>>& aliases() {
  static const std::vector<std::pair<const char*, const char*>> kAliases = {
      {"tp_reads", "flash_reads.translation"}, {"tp_writes", "pages_programmed.translation"}};
  return kAliases;
}

// Histograms and distributions: bucket arrays, not scalars.
bool bucketed(uint32_t kind) {
  return kind == FW_METRIC_HISTOGRAM || kind == FW_METRIC_DISTRIBUTION;
}

// A scalar metric's value over the span: a counter's growth, a gauge's value at its end.
uint64_t span_value(const FtlMetrics::Metric& end, const FtlMetrics::Metric* begin) {
  if (end.kind == FW_METRIC_GAUGE || begin == nullptr) return end.values[0];
  return end.values[0] - begin->values[0];
}

// The sum of the terms over the span, or nullopt when no metric matches any of them.
std::optional<uint64_t> term_sum(const std::vector<std::string>& terms,
                                 const FtlMetrics::Snapshot& begin,
                                 const FtlMetrics::Snapshot& end) {
  std::optional<uint64_t> sum;
  for (size_t i = 0; i < end.metrics.size(); ++i) {
    const FtlMetrics::Metric& metric = end.metrics[i];
    if (bucketed(metric.kind)) continue;
    for (const std::string& term : terms) {
      if (term_matches(term, metric.name)) {
        sum = sum.value_or(0) + span_value(metric, begin.find(metric.name, i));
        break;
      }
    }
  }
  return sum;
}

// nullopt when the firmware lacks the ratio's inputs; null JSON when the denominator is 0.
std::optional<nlohmann::json> ratio_value(const Ratio& ratio, const FtlMetrics::Snapshot& begin,
                                          const FtlMetrics::Snapshot& end) {
  const std::optional<uint64_t> numerator = term_sum(ratio.numerator, begin, end);
  const std::optional<uint64_t> denominator = term_sum(ratio.denominator, begin, end);
  if (!numerator || !denominator) return std::nullopt;
  if (*denominator == 0) return nlohmann::json(nullptr);
  return nlohmann::json(static_cast<double>(*numerator) / static_cast<double>(*denominator));
}

nlohmann::json ratio(uint64_t numerator, uint64_t denominator) {
  if (denominator == 0) return nullptr;
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

// out["a"]["b"]["c"] = value for the name "a.b.c".
void insert_dotted(nlohmann::json& out, const std::string& name, nlohmann::json value) {
  nlohmann::json* node = &out;
  size_t start = 0;
  for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', start)) {
    node = &(*node)[name.substr(start, dot - start)];
    start = dot + 1;
  }
  (*node)[name.substr(start)] = std::move(value);
}

// A name the platform nests: letters, digits and '_' in parts separated by single dots.
bool valid_name(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.' ||
      name.find("..") != std::string::npos) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.';
  });
}

}  // namespace

const FtlMetrics::Metric* FtlMetrics::Snapshot::find(const std::string& name, size_t hint) const {
  if (hint < metrics.size() && metrics[hint].name == name) return &metrics[hint];
  for (const Metric& metric : metrics) {
    if (metric.name == name) return &metric;
  }
  return nullptr;
}

std::optional<std::string> FtlMetrics::read_name(const DebugRead& debug_read, uint32_t address,
                                                 std::string& name) const {
  if (const auto cached = names_.find(address); cached != names_.end()) {
    name = cached->second;
    return std::nullopt;
  }
  name.clear();
  for (uint32_t i = 0; i < FW_STATS_NAME_BYTES; ++i) {
    char c = 0;
    if (!debug_read(address + i, &c, 1)) {
      return fmt::format("fw_stats at {:#010x}: the name at {:#010x} runs out of memory",
                         address_, address);
    }
    if (c == '\0') {
      names_.emplace(address, name);
      return std::nullopt;
    }
    name += c;
  }
  return fmt::format("fw_stats at {:#010x}: the name at {:#010x} ('{}...') has no NUL within "
                     "FW_STATS_NAME_BYTES ({})",
                     address_, address, name, FW_STATS_NAME_BYTES);
}

std::optional<std::string> FtlMetrics::read(const DebugRead& debug_read,
                                            Snapshot& snapshot) const {
  fw_stats_t& block = snapshot.block;
  if (!debug_read(address_, &block, sizeof(block))) {
    return fmt::format("fw_stats at {:#010x}: the block lies outside the memories", address_);
  }
  if (block.magic != FW_STATS_MAGIC) {
    return fmt::format("fw_stats at {:#010x}: magic {:#010x} is not FW_STATS_MAGIC {:#010x} (the "
                       "firmware has not initialised its statistics block)",
                       address_, block.magic, FW_STATS_MAGIC);
  }
  if (block.version != FW_STATS_VERSION) {
    return fmt::format("fw_stats at {:#010x}: version {} is not FW_STATS_VERSION {} "
                       "(interface/fw_stats.h of the firmware and the platform differ)",
                       address_, block.version, FW_STATS_VERSION);
  }
  if (block.region_count > FW_STATS_MAX_REGIONS) {
    return fmt::format("fw_stats at {:#010x}: region_count {} exceeds FW_STATS_MAX_REGIONS {}",
                       address_, block.region_count, FW_STATS_MAX_REGIONS);
  }
  if (block.metric_count > FW_STATS_MAX_METRICS) {
    return fmt::format("fw_stats at {:#010x}: metric_count {} exceeds FW_STATS_MAX_METRICS {}",
                       address_, block.metric_count, FW_STATS_MAX_METRICS);
  }
  snapshot.regions.clear();
  for (uint32_t i = 0; i < block.region_count; ++i) {
    const fw_stats_region_t& entry = block.regions[i];
    Region region;
    if (auto problem = read_name(debug_read, entry.name, region.name)) return problem;
    region.bytes = entry.bytes;
    region.location = entry.location;
    snapshot.regions.push_back(std::move(region));
  }
  snapshot.metrics.clear();
  std::set<std::string> names;
  for (uint32_t i = 0; i < block.metric_count; ++i) {
    const fw_stats_metric_t& entry = block.metrics[i];
    Metric metric;
    if (auto problem = read_name(debug_read, entry.name, metric.name)) return problem;
    const auto bad = [&](const std::string& what) {
      return fmt::format("fw_stats at {:#010x}: metric {} '{}': {}", address_, i, metric.name,
                         what);
    };
    if (!valid_name(metric.name)) {
      return bad("a name is letters, digits and '_' in parts separated by single dots");
    }
    if (!names.insert(metric.name).second) return bad("registered twice");
    if (entry.kind > FW_METRIC_DISTRIBUTION) {
      return bad(fmt::format(
          "kind {} is none of FW_METRIC_COUNTER, _GAUGE, _HISTOGRAM, _DISTRIBUTION", entry.kind));
    }
    if (entry.value_bytes != 4 && entry.value_bytes != 8) {
      return bad(fmt::format("value_bytes {} is neither 4 nor 8", entry.value_bytes));
    }
    const uint32_t buckets = bucketed(entry.kind) ? entry.buckets : 1;
    if (buckets == 0 || buckets > FW_STATS_MAX_BUCKETS || entry.bucket_width == 0) {
      return bad(fmt::format("{} buckets of width {}: allowed 1..{} buckets of a width > 0",
                             entry.buckets, entry.bucket_width, FW_STATS_MAX_BUCKETS));
    }
    metric.kind = entry.kind;
    metric.bucket_width = entry.bucket_width;
    metric.address = entry.value;
    metric.value_bytes = entry.value_bytes;
    std::vector<uint8_t> bytes(size_t{buckets} * entry.value_bytes);
    if (!debug_read(entry.value, bytes.data(), bytes.size())) {
      return bad(fmt::format("its value at {:#010x} lies outside the memories", entry.value));
    }
    for (uint32_t b = 0; b < buckets; ++b) {
      uint64_t value = 0;  // little endian, like the controller
      std::memcpy(&value, bytes.data() + size_t{b} * entry.value_bytes, entry.value_bytes);
      metric.values.push_back(value + carried(metric, b));
    }
    snapshot.metrics.push_back(std::move(metric));
  }
  // A name that is also the prefix of another would be a number and an object in stats.json.
  for (auto it = names.begin(); it != names.end(); ++it) {
    const auto next = std::next(it);
    if (next != names.end() && next->compare(0, it->size() + 1, *it + ".") == 0) {
      return fmt::format("fw_stats at {:#010x}: metric '{}' is also the start of '{}'", address_,
                         *it, *next);
    }
  }
  return std::nullopt;
}

void FtlMetrics::phase_begin(const std::string& name, const Snapshot& snapshot,
                             const HostBytes& host_bytes) {
  Phase phase;
  phase.name = name;
  phase.begin = snapshot;
  for (size_t i = 0; i < snapshot.metrics.size(); ++i) {
    const Metric& metric = snapshot.metrics[i];
    if (bucketed(metric.kind)) continue;
    phase.scalars.push_back(i);
    // Found once: looking each value up on every sample was most of a sample's cost.
    phase.scalar_bytes.push_back(host_bytes(metric.address, metric.value_bytes));
    phase.columns.push_back(metric.name);
  }
  phase.begin_values = scalar_values(phase, snapshot);
  phase.last_values = phase.begin_values;
  // Each ratio's terms as scalar positions; a ratio without inputs has no columns.
  const auto positions = [&](const std::vector<std::string>& terms) {
    std::vector<size_t> matching;
    for (size_t j = 0; j < phase.scalars.size(); ++j) {
      for (const std::string& term : terms) {
        if (term_matches(term, phase.columns[j])) {
          matching.push_back(j);
          break;
        }
      }
    }
    return matching;
  };
  for (size_t r = 0; r < ratios().size(); ++r) {
    RatioTerms terms{r, positions(ratios()[r].numerator), positions(ratios()[r].denominator)};
    if (terms.numerator.empty() || terms.denominator.empty()) continue;
    phase.columns.push_back(ratios()[r].name);
    phase.columns.push_back(std::string(ratios()[r].name) + "_interval");
    phase.ratio_terms.push_back(std::move(terms));
  }
  open_ = std::move(phase);
}

std::vector<uint64_t> FtlMetrics::scalar_values(const Phase& phase, const Snapshot& snapshot) {
  std::vector<uint64_t> values;
  values.reserve(phase.scalars.size());
  for (size_t index : phase.scalars) {
    const Metric* metric = snapshot.find(phase.begin.metrics[index].name, index);
    values.push_back(metric == nullptr ? 0 : metric->values[0]);
  }
  return values;
}

std::optional<std::string> FtlMetrics::read_sample(const DebugRead& debug_read,
                                                   std::vector<uint64_t>& values) const {
  values.clear();
  if (!open_) return std::nullopt;
  for (size_t j = 0; j < open_->scalars.size(); ++j) {
    const Metric& metric = open_->begin.metrics[open_->scalars[j]];
    uint64_t value = 0;  // little endian, like the controller
    if (const uint8_t* bytes = open_->scalar_bytes[j]) {
      if (metric.value_bytes == 8) {
        std::memcpy(&value, bytes, 8);
      } else {
        uint32_t word = 0;
        std::memcpy(&word, bytes, 4);
        value = word;
      }
    } else if (!debug_read(metric.address, &value, metric.value_bytes)) {
      return fmt::format("fw_stats at {:#010x}: metric '{}': its value at {:#010x} lies outside "
                         "the memories",
                         address_, metric.name, metric.address);
    }
    values.push_back(value + carried(metric, 0));
  }
  return std::nullopt;
}

void FtlMetrics::carry_over(const Snapshot& at_cut) {
  for (const Metric& metric : at_cut.metrics) {
    if (metric.kind != FW_METRIC_GAUGE) carried_[metric.name] = metric.values;
  }
}

uint64_t FtlMetrics::carried(const Metric& metric, size_t bucket) const {
  if (carried_.empty() || metric.kind == FW_METRIC_GAUGE) return 0;
  const auto found = carried_.find(metric.name);
  if (found == carried_.end() || bucket >= found->second.size()) return 0;
  return found->second[bucket];
}

void FtlMetrics::add_row(Phase& phase, uint64_t time_ps, const std::vector<uint64_t>& values) {
  const auto span = [&](size_t j, const std::vector<uint64_t>& from) {
    const bool gauge = phase.begin.metrics[phase.scalars[j]].kind == FW_METRIC_GAUGE;
    return gauge ? values[j] : values[j] - from[j];
  };
  const auto sum = [&](const std::vector<size_t>& positions, const std::vector<uint64_t>& from) {
    uint64_t total = 0;
    for (size_t j : positions) total += span(j, from);
    return total;
  };
  const auto ratio_cell = [&](const RatioTerms& terms, const std::vector<uint64_t>& from) {
    const uint64_t denominator = sum(terms.denominator, from);
    return denominator == 0 ? std::nan("")
                            : static_cast<double>(sum(terms.numerator, from)) /
                                  static_cast<double>(denominator);
  };
  phase.times_ns.push_back(time_ps / 1000);
  for (size_t j = 0; j < phase.scalars.size(); ++j) {
    phase.cells.push_back(static_cast<double>(span(j, phase.begin_values)));
  }
  for (const RatioTerms& terms : phase.ratio_terms) {
    phase.cells.push_back(ratio_cell(terms, phase.begin_values));
    phase.cells.push_back(ratio_cell(terms, phase.last_values));
  }
  phase.last_values = values;
}

void FtlMetrics::sample(uint64_t time_ps, const std::vector<uint64_t>& values) {
  if (open_) add_row(*open_, time_ps, values);
}

void FtlMetrics::phase_end(const Snapshot& snapshot, bool finished) {
  if (!open_) return;
  Phase& phase = *open_;
  if (phase.times_ns.empty() || phase.times_ns.back() != snapshot.time_ps / 1000) {
    add_row(phase, snapshot.time_ps, scalar_values(phase, snapshot));
  }
  phase.metrics = {{"name", phase.name}, {"finished", finished}};
  phase.metrics.update(span_metrics(phase.begin, snapshot));
  phases_.push_back(std::move(phase));
  open_.reset();
}

nlohmann::json FtlMetrics::series_json(const Phase& phase) {
  const size_t width = phase.columns.size();
  const size_t rows = phase.times_ns.size();
  // Filled row by row, in the order the cells are stored: a column at a time strode through
  // the whole table once per column, a cache miss per cell in a long run.
  std::vector<nlohmann::json::array_t> columns(width);
  for (nlohmann::json::array_t& column : columns) column.reserve(rows);
  for (size_t row = 0; row < rows; ++row) {
    const double* cells = phase.cells.data() + row * width;
    for (size_t c = 0; c < width; ++c) {
      const double cell = cells[c];
      if (std::isnan(cell)) {
        columns[c].emplace_back(nullptr);
      } else if (c < phase.scalars.size()) {
        columns[c].emplace_back(static_cast<uint64_t>(cell));  // counts: exact below 2^53
      } else {
        columns[c].emplace_back(cell);
      }
    }
  }
  nlohmann::json series = nlohmann::json::object();
  series["time_ns"] = phase.times_ns;
  for (size_t c = 0; c < width; ++c) series[phase.columns[c]] = std::move(columns[c]);
  return series;
}

nlohmann::json FtlMetrics::span_metrics(const Snapshot& begin, const Snapshot& end) {
  nlohmann::json out = nlohmann::json::object();
  for (size_t i = 0; i < end.metrics.size(); ++i) {
    const Metric& metric = end.metrics[i];
    const Metric* before = begin.find(metric.name, i);
    if (bucketed(metric.kind)) {
      // A histogram's growth over the span; a distribution as it is at the span's end.
      const bool same_shape = metric.kind == FW_METRIC_HISTOGRAM && before != nullptr &&
                              before->values.size() == metric.values.size();
      nlohmann::json counts = nlohmann::json::array();
      for (size_t b = 0; b < metric.values.size(); ++b) {
        counts.push_back(metric.values[b] - (same_shape ? before->values[b] : 0));
      }
      insert_dotted(out, metric.name,
                    {{"bucket_width", metric.bucket_width}, {"counts", std::move(counts)}});
    } else {
      insert_dotted(out, metric.name, span_value(metric, before));
    }
  }
  for (const Ratio& each : ratios()) {
    if (std::optional<nlohmann::json> value = ratio_value(each, begin, end)) {
      insert_dotted(out, each.name, std::move(*value));
    }
  }
  for (const auto& [alias, name] : aliases()) {
    if (const Metric* metric = end.find(name)) {
      out[alias] = span_value(*metric, begin.find(name));
    }
  }
  const uint64_t commands = end.host_commands - begin.host_commands;
  const uint64_t instructions = end.instructions - begin.instructions;
  const uint64_t cycles = end.cycles - begin.cycles;
  const uint64_t sleep_cycles = end.sleep_cycles - begin.sleep_cycles;
  out["erase_count"] = {{"min", end.erase_counts.min},
                        {"mean", end.erase_counts.mean},
                        {"max", end.erase_counts.max}};
  out["firmware"] = {{"instructions", instructions},
                     {"cycles", cycles},
                     {"sleep_cycles", sleep_cycles},
                     {"instructions_per_command", ratio(instructions, commands)},
                     {"cycles_per_command", ratio(cycles, commands)},
                     {"awake_cycles_per_command", ratio(cycles - sleep_cycles, commands)}};
  nlohmann::json harts = nlohmann::json::array();
  for (size_t hart = 0; hart < end.harts.size(); ++hart) {
    const HartCycles before = hart < begin.harts.size() ? begin.harts[hart] : HartCycles{};
    const HartCycles& after = end.harts[hart];
    harts.push_back({{"hart", hart},
                     {"cycles", after.cycles - before.cycles},
                     {"sleep_cycles", after.sleep_cycles - before.sleep_cycles},
                     {"job_cycles", job_cycles_json(after.job_cycles, before.job_cycles)}});
  }
  out["firmware"]["harts"] = std::move(harts);
  return out;
}

nlohmann::json FtlMetrics::to_json(const Snapshot& final) const {
  const fw_stats_t& block = final.block;
  nlohmann::json regions = nlohmann::json::array();
  for (const Region& region : final.regions) {
    regions.push_back({{"name", region.name},
                       {"bytes", region.bytes},
                       {"location", location_name(region.location)}});
  }
  nlohmann::json phases = nlohmann::json::array();
  for (const Phase& phase : phases_) {
    phases.push_back(phase.metrics);
    phases.back()["series"] = series_json(phase);
  }
  return {
      {"address", address_},
      {"boot_complete", block.boot_complete != 0},
      {"memory",
       {{"sram",
         {{"budget_bytes", block.sram_budget_bytes}, {"used_bytes", block.sram_used_bytes}}},
        {"dram",
         {{"budget_bytes", block.dram_budget_bytes}, {"used_bytes", block.dram_used_bytes}}},
        {"regions", std::move(regions)}}},
      {"phases", std::move(phases)},
      {"run", span_metrics(Snapshot{}, final)},
  };
}

void FtlMetrics::write_timeseries_csv(std::ostream& out) const {
  std::vector<std::string> columns;  // the union, in first-seen order
  for (const Phase& phase : phases_) {
    for (const std::string& column : phase.columns) {
      if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
        columns.push_back(column);
      }
    }
  }
  out << "phase,time_ns";
  for (const std::string& column : columns) out << "," << column;
  out << "\n";
  for (const Phase& phase : phases_) {
    // Where each output column sits in this phase's rows (the phases of one image agree).
    std::vector<size_t> at;
    for (const std::string& column : columns) {
      at.push_back(static_cast<size_t>(
          std::find(phase.columns.begin(), phase.columns.end(), column) - phase.columns.begin()));
    }
    const size_t width = phase.columns.size();
    const std::string name = csv_field(phase.name);
    for (size_t row = 0; row < phase.times_ns.size(); ++row) {
      out << name << "," << phase.times_ns[row];
      for (size_t c : at) {
        out << ",";
        if (c == width) continue;
        const double cell = phase.cells[row * width + c];
        if (std::isnan(cell)) continue;
        if (c < phase.scalars.size()) {
          out << static_cast<uint64_t>(cell);
        } else {
          out << nlohmann::json(cell).dump();
        }
      }
      out << "\n";
    }
  }
}

}  // namespace ssdvp
