// CSV output shared by the result writers (latency.csv, timeseries.csv, ftl_timeseries.csv).
#pragma once

#include <string>

namespace ssdvp {

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace ssdvp
