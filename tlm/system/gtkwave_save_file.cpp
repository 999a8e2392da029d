#include "tlm/system/gtkwave_save_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ssdvp {

namespace {

// The first line of every save file ssdsim writes: how a run knows it may replace one.
constexpr const char* kMarker = "[*] GTKWave save file written by ssdsim";

// GTKWave's trace flags (its TR_* bits), written as hex after '@'.
constexpr uint32_t kDecimal = 1u << 2;
constexpr uint32_t kBinary = 1u << 3;
constexpr uint32_t kRightJustify = 1u << 5;
constexpr uint32_t kBlank = 1u << 9;
constexpr uint32_t kAnalogStep = 1u << 15;
constexpr uint32_t kAnalogBlankStretch = 1u << 17;
constexpr uint32_t kGroupBegin = 1u << 23;
constexpr uint32_t kGroupEnd = 1u << 24;
// Rows an analog trace spans below its own, so its steps have room.
constexpr unsigned kAnalogExtraRows = 2;
// GTKWave's named markers A..Z follow the primary marker on the zoom line; -1 is unset.
constexpr unsigned kNamedMarkers = 26;

// The groups, by the SoC part a signal's scope names below the root ("soc.hart0" -> hart0),
// in the order they are shown; parts not listed get a group of their own after them.
struct GroupRule {
  const char* title;
  const char* part_prefix;
};
constexpr GroupRule kGroups[] = {{"Power", "power"}, {"CPU", "hart"},  {"Host", "host"},
                                 {"Host", "hic"},
                                 {"NAND", "nfc"},  {"Accelerator", "accel"}, {"Bus", "router"}};

std::string part_of(const WaveSignalInfo& signal) {
  const size_t dot = signal.scope.find('.');
  if (dot == std::string::npos) return signal.scope;
  return signal.scope.substr(dot + 1, signal.scope.find('.', dot + 1) - dot - 1);
}

std::string group_of(const WaveSignalInfo& signal) {
  const std::string part = part_of(signal);
  for (const GroupRule& rule : kGroups) {
    if (part.rfind(rule.part_prefix, 0) == 0) return rule.title;
  }
  return part;
}

// Counters (bus transactions, completions) only grow and read best as numbers; every other
// multi-bit integer is a depth or an occupancy, read best as a step plot.
bool is_level(const WaveSignalInfo& signal) {
  const auto ends_with = [&](const std::string& suffix) {
    return signal.name.size() >= suffix.size() &&
           signal.name.compare(signal.name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return !signal.is_state && signal.width > 1 && !ends_with("transactions") &&
         !ends_with("completions");
}

// The trace's alias: its path below the root with ':' (GTKWave shows only a name's last level).
std::string alias_of(const WaveSignalInfo& signal) {
  std::string alias = signal.full_name();
  alias.erase(0, alias.find('.') + 1);
  for (char& c : alias) {
    if (c == '.') c = ':';
  }
  return alias;
}

std::string trace_line(const WaveSignalInfo& signal) {
  const std::string range =
      signal.is_state || signal.width == 1 ? "" : fmt::format("[{}:0]", signal.width - 1);
  return fmt::format("+{{{}}} {}{}", alias_of(signal), signal.full_name(), range);
}

// GTKWave's zoom that makes kSaveFileWavePixels show `span_ps`.
double zoom_to_show(uint64_t span_ps) {
  if (span_ps == 0) return 0.0;
  return -std::log2(static_cast<double>(span_ps) / kSaveFileWavePixels * kGtkwavePixelsPerFrame);
}

}  // namespace

std::string save_file_path(const std::string& dump_path) {
  return std::filesystem::path(dump_path).replace_extension(".gtkw").string();
}

void check_save_file_replaceable(const std::string& save_path) {
  std::ifstream in(save_path);
  std::string first_line;
  if (!in || !std::getline(in, first_line) || first_line.rfind(kMarker, 0) == 0) return;
  throw std::runtime_error(fmt::format(
      "{}: exists and ssdsim did not write it (a save file made by hand); ssdsim writes the "
      "save file of a waveform there: name the waveform otherwise or remove the file",
      save_path));
}

void write_save_file(const std::string& save_path, const std::string& dump_path,
                     const std::vector<WaveSignalInfo>& signals, uint64_t start_ps,
                     uint64_t end_ps) {
  std::ofstream out(save_path, std::ios::out | std::ios::trunc);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the save file", save_path));
  const std::string dump_name = std::filesystem::path(dump_path).filename().string();
  out << fmt::format("{} for {}: the whole dump in view ({} to {} ps),\n", kMarker, dump_name,
                     start_ps, end_ps);
  out << "[*] signals grouped by the part of the SoC they belong to, queue depths and "
         "occupancies as analog steps.\n"
         "[*] Rewritten by every run with this waveform; save your own view under another "
         "name.\n";
  out << fmt::format("[dumpfile] \"{}\"\n", std::filesystem::absolute(dump_path).string());
  out << fmt::format("[savefile] \"{}\"\n", std::filesystem::absolute(save_path).string());
  out << fmt::format("[timestart] {}\n", start_ps);
  out << "[size] 1400 800\n[pos] -1 -1\n";
  out << fmt::format("*{:.6f} -1", zoom_to_show(end_ps - start_ps));
  for (unsigned marker = 0; marker < kNamedMarkers; ++marker) out << " -1";
  out << "\n[sst_expanded] 1\n[signals_width] 320\n";

  std::vector<std::string> groups;
  for (const GroupRule& rule : kGroups) {
    if (groups.empty() || groups.back() != rule.title) groups.push_back(rule.title);
  }
  for (const WaveSignalInfo& signal : signals) {
    if (std::find(groups.begin(), groups.end(), group_of(signal)) == groups.end()) {
      groups.push_back(group_of(signal));
    }
  }
  for (const std::string& group : groups) {
    bool opened = false;
    uint32_t last_flags = 0;
    for (const WaveSignalInfo& signal : signals) {
      if (group_of(signal) != group) continue;
      if (!opened) {
        out << fmt::format("@{:x}\n-{}\n", kGroupBegin | kBlank, group);
        opened = true;
        last_flags = 0;
      }
      const bool level = is_level(signal);
      const uint32_t flags = kRightJustify | (signal.is_state || signal.width == 1 ? kBinary
                                                                                  : kDecimal) |
                             (level ? kAnalogStep : 0);
      if (flags != last_flags) out << fmt::format("@{:x}\n", flags);
      out << trace_line(signal) << "\n";
      last_flags = flags;
      if (level) {
        out << fmt::format("@{:x}\n", kAnalogBlankStretch);
        for (unsigned row = 0; row < kAnalogExtraRows; ++row) out << "-\n";
        last_flags = kAnalogBlankStretch;
      }
    }
    if (opened) out << fmt::format("@{:x}\n-{}\n", kGroupEnd | kBlank, group);
  }
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: writing the save file failed", save_path));
}

}  // namespace ssdvp
