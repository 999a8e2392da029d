#include "tb/report/profile_report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace ssdvp {

namespace {

double percent_of(uint64_t part, uint64_t total) {
  return total == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(total);
}

}  // namespace

ProfileReport::ProfileReport(const ElfImage& image, const std::vector<AddressCycles>& samples) {
  // Keyed by name: static functions of the same name in different files are reported together.
  std::map<std::string, uint64_t> cycles_by_function;
  for (const AddressCycles& sample : samples) {
    if (sample.cycles == 0) continue;
    const ElfSymbol* function = image.function_at(sample.address);
    cycles_by_function[function ? function->name : kUnknownFunction] += sample.cycles;
    total_cycles_ += sample.cycles;
  }
  for (const auto& [name, cycles] : cycles_by_function) {
    functions_.push_back({name, cycles, percent_of(cycles, total_cycles_)});
  }
  std::stable_sort(functions_.begin(), functions_.end(),
                   [](const FunctionCycles& a, const FunctionCycles& b) {
                     return a.cycles > b.cycles;
                   });
}

std::vector<AddressCycles> ProfileReport::from_halfword_counters(
    uint32_t base, const std::vector<uint64_t>& counters) {
  std::vector<AddressCycles> samples;
  for (size_t index = 0; index < counters.size(); ++index) {
    if (counters[index] == 0) continue;
    samples.push_back({static_cast<uint32_t>(base + 2 * index), counters[index]});
  }
  return samples;
}

nlohmann::json ProfileReport::to_json(size_t top) const {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < std::min(top, functions_.size()); ++i) {
    rows.push_back({{"function", functions_[i].function},
                    {"cycles", functions_[i].cycles},
                    {"percent", functions_[i].percent}});
  }
  return rows;
}

std::string ProfileReport::format_table(size_t top) const {
  const size_t shown = std::min(top, functions_.size());
  const size_t left_out = functions_.size() - shown;
  uint64_t left_out_cycles = 0;
  for (size_t i = shown; i < functions_.size(); ++i) left_out_cycles += functions_[i].cycles;
  const std::string left_out_label =
      fmt::format("({} more function{})", left_out, left_out == 1 ? "" : "s");

  size_t name_width = std::string("function").size();
  for (size_t i = 0; i < shown; ++i) {
    name_width = std::max(name_width, functions_[i].function.size());
  }
  if (left_out > 0) name_width = std::max(name_width, left_out_label.size());
  const size_t cycles_width =
      std::max(std::string("cycles").size(), fmt::formatted_size("{}", total_cycles_));

  std::string table;
  auto row = [&](const std::string& name, uint64_t cycles) {
    table += fmt::format("{:<{}}  {:>{}}  {:>6.2f}%\n", name, name_width, cycles, cycles_width,
                         percent_of(cycles, total_cycles_));
  };
  table += fmt::format("{:<{}}  {:>{}}  {:>7}\n", "function", name_width, "cycles", cycles_width,
                       "percent");
  for (size_t i = 0; i < shown; ++i) row(functions_[i].function, functions_[i].cycles);
  if (left_out > 0) row(left_out_label, left_out_cycles);
  // The total's share is 100% by definition, also when nothing was profiled.
  table += fmt::format("{:<{}}  {:>{}}  {:>6.2f}%\n", "total", name_width, total_cycles_,
                       cycles_width, 100.0);
  return table;
}

}  // namespace ssdvp
