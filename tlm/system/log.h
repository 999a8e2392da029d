// The one logging facility of the models: each message carries its level, the simulated time
// and the hierarchical name of the model that wrote it. One global verbosity filters them all.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <systemc>

namespace ssdvp::log {

enum class Level { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

void set_verbosity(Level level);
Level verbosity();
inline bool enabled(Level level) { return static_cast<int>(level) <= static_cast<int>(verbosity()); }

// "error", "warn", "info", "debug"; parse_level throws std::runtime_error listing them.
std::string_view level_name(Level level);
Level parse_level(std::string_view name);

// Where messages go (std::clog by default, so they never mix into the firmware console on
// stdout). The stream must outlive its use.
void set_sink(std::ostream& sink);

// Writes "[<time>] <level> <source>: <message>" at the current simulated time.
void write(Level level, std::string_view source, std::string_view message);

template <typename... Args>
void message(Level level, const sc_core::sc_object& source, fmt::format_string<Args...> format,
             Args&&... args) {
  if (enabled(level)) write(level, source.name(), fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void error(const sc_core::sc_object& source, fmt::format_string<Args...> format, Args&&... args) {
  message(Level::kError, source, format, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(const sc_core::sc_object& source, fmt::format_string<Args...> format, Args&&... args) {
  message(Level::kWarn, source, format, std::forward<Args>(args)...);
}
template <typename... Args>
void info(const sc_core::sc_object& source, fmt::format_string<Args...> format, Args&&... args) {
  message(Level::kInfo, source, format, std::forward<Args>(args)...);
}
template <typename... Args>
void debug(const sc_core::sc_object& source, fmt::format_string<Args...> format, Args&&... args) {
  message(Level::kDebug, source, format, std::forward<Args>(args)...);
}

}  // namespace ssdvp::log
