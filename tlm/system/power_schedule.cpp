#include "tlm/system/power_schedule.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "tlm/system/random.h"

namespace ssdvp {
namespace {

// The entries of a comma-separated list, trimmed; none for an empty or blank text.
std::vector<std::string> entries(const std::string& text) {
  std::vector<std::string> result;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    std::string entry = text.substr(start, comma - start);
    entry.erase(0, entry.find_first_not_of(" \t"));
    entry.erase(entry.find_last_not_of(" \t") + 1);
    result.push_back(entry);
    start = comma + 1;
  }
  if (result.size() == 1 && result.front().empty()) result.clear();
  return result;
}

// Whole digits only: the value, or nullopt when `digits` is not a number below 2^64.
bool parse_digits(const std::string& digits, uint64_t& value) {
  if (digits.empty() || digits.size() > 19) return false;
  value = 0;
  for (const char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

// "7.5ms" in picoseconds: a whole or decimal number and a unit (s, ms, us, ns, ps), exactly.
bool parse_time(const std::string& text, uint64_t& ps) {
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"ms", 1'000'000'000}, {"us", 1'000'000}, {"ns", 1'000}, {"ps", 1}, {"s", 1'000'000'000'000}};
  for (const auto& [unit, scale] : kUnits) {
    const std::string suffix = unit;
    if (text.size() <= suffix.size() ||
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const std::string number = text.substr(0, text.size() - suffix.size());
    const size_t point = number.find('.');
    uint64_t whole = 0;
    if (!parse_digits(number.substr(0, point), whole)) return false;
    uint64_t fraction_ps = 0;
    if (point != std::string::npos) {
      const std::string fraction = number.substr(point + 1);
      uint64_t digits = 0;
      if (!parse_digits(fraction, digits)) return false;
      uint64_t divisor = 1;
      for (size_t i = 0; i < fraction.size(); ++i) divisor *= 10;
      const unsigned __int128 product = static_cast<unsigned __int128>(digits) * scale;
      if (product % divisor != 0) return false;  // finer than a picosecond
      fraction_ps = static_cast<uint64_t>(product / divisor);
    }
    const unsigned __int128 total = static_cast<unsigned __int128>(whole) * scale + fraction_ps;
    if (total > UINT64_MAX) return false;
    ps = static_cast<uint64_t>(total);
    return true;
  }
  return false;
}

}  // namespace

PowerSchedule::PowerSchedule(const PowerLossConfig& config, uint64_t seed) {
  for (const std::string& entry : entries(config.at)) {
    uint64_t ps = 0;
    if (!parse_time(entry, ps) || ps == 0) {
      throw std::runtime_error(fmt::format(
          "host.power_loss.at: entry '{}' is not a time after 0: expected a comma-separated list "
          "of numbers with a unit s, ms, us, ns or ps, e.g. \"2ms, 7.5ms\"",
          entry));
    }
    times_ps_.push_back(ps);
  }
  for (const std::string& entry : entries(config.after_commands)) {
    uint64_t count = 0;
    if (!parse_digits(entry, count) || count == 0) {
      throw std::runtime_error(fmt::format(
          "host.power_loss.after_commands: entry '{}' is not a count of at least 1: expected a "
          "comma-separated list of completed host commands, e.g. \"500, 2000\"",
          entry));
    }
    command_counts_.push_back(count);
  }
  if (config.random != 0) {
    if (config.random_end_ps <= config.random_start_ps) {
      throw std::runtime_error(fmt::format(
          "host.power_loss.random = {} needs host.power_loss.random_end ({} ps) after "
          "host.power_loss.random_start ({} ps)",
          config.random, config.random_end_ps, config.random_start_ps));
    }
    // A stream of its own, so the other draws of the seed stay as they were.
    uint64_t state = seed ^ 0x706f7765726c6f73ULL;  // "powerlos"
    Random random(splitmix64(state));
    const uint64_t span = config.random_end_ps - config.random_start_ps;
    for (uint32_t i = 0; i < config.random; ++i) {
      times_ps_.push_back(config.random_start_ps + random.below(span));
    }
  }
  std::sort(times_ps_.begin(), times_ps_.end());
  std::sort(command_counts_.begin(), command_counts_.end());
}

}  // namespace ssdvp
