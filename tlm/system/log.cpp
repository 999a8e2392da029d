#include "tlm/system/log.h"

#include <array>
#include <iostream>
#include <stdexcept>

#include "tlm/system/sim_time.h"

namespace ssdvp::log {
namespace {

constexpr std::array<std::string_view, 4> kLevelNames = {"error", "warn", "info", "debug"};

Level g_verbosity = Level::kWarn;
std::ostream* g_sink = &std::clog;

}  // namespace

void set_verbosity(Level level) { g_verbosity = level; }
Level verbosity() { return g_verbosity; }

std::string_view level_name(Level level) { return kLevelNames.at(static_cast<size_t>(level)); }

Level parse_level(std::string_view name) {
  for (size_t i = 0; i < kLevelNames.size(); ++i) {
    if (kLevelNames[i] == name) return static_cast<Level>(i);
  }
  throw std::runtime_error(
      fmt::format("unknown log level '{}': allowed error, warn, info, debug", name));
}

void set_sink(std::ostream& sink) { g_sink = &sink; }

void write(Level level, std::string_view source, std::string_view message) {
  const uint64_t ps = to_ps(sc_core::sc_time_stamp());
  *g_sink << fmt::format("[{:>10}.{:06} us] {:<5} {}: {}\n", ps / 1'000'000, ps % 1'000'000,
                         level_name(level), source, message);
  if (level == Level::kError) g_sink->flush();
}

}  // namespace ssdvp::log
