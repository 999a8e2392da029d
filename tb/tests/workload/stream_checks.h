// What the synthetic-stream tests share: requests drawn from a generator, their byte ranges, a
// profile's stream, a binomial bound, the comparison of two streams, and the errors of bad fields.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/host/synthetic_generator.h"
#include "tlm/host/synthetic_profile.h"
#include "tlm/host/workload.h"

namespace ssdvp::host::stream_checks {

constexpr uint32_t kSector = 512;

inline std::vector<HostRequest> draw_requests(const StreamConfig& stream, size_t count,
                                              uint64_t seed, uint64_t device_sectors) {
  SyntheticGenerator generator(stream, device_sectors, kSector, seed);
  std::vector<HostRequest> requests;
  requests.reserve(count);
  for (size_t i = 0; i < count; ++i) requests.push_back(*generator.next());
  return requests;
}

inline uint64_t start_byte(const HostRequest& request) { return request.first_sector * kSector; }
inline uint64_t byte_count(const HostRequest& request) {
  return uint64_t{request.sector_count} * kSector;
}
inline uint64_t end_byte(const HostRequest& request) {
  return start_byte(request) + byte_count(request);
}

// A stream set from a trace profile's table entry, every key the profile's.
inline const auto kNothingGiven = [](const std::string&) { return false; };

inline StreamConfig profile_stream(const std::string& name) {
  StreamConfig stream;
  stream.name = "s";
  stream.profile = name;
  apply_trace_profile(*find_trace_profile(name), stream, kNothingGiven);
  return stream;
}

// Observed count of an event with probability p in n trials lies within 5 sigma.
inline void expect_binomial(uint64_t observed, uint64_t n, double p, const std::string& what) {
  const double mean = p * static_cast<double>(n);
  const double sigma = std::sqrt(static_cast<double>(n) * p * (1.0 - p));
  EXPECT_NEAR(static_cast<double>(observed), mean, 5.0 * sigma + 1e-9) << what;
}

// `a` and `b` are the same requests; returns how many of a's starts differ from `other`'s.
inline size_t expect_same_requests(const std::vector<HostRequest>& a,
                                   const std::vector<HostRequest>& b,
                                   const std::vector<HostRequest>& other = {}) {
  EXPECT_EQ(a.size(), b.size());
  size_t differ = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].op != b[i].op || a[i].first_sector != b[i].first_sector ||
        a[i].sector_count != b[i].sector_count) {
      ADD_FAILURE() << "request " << i << " differs: sector " << a[i].first_sector << " vs "
                    << b[i].first_sector;
      break;
    }
    if (i < other.size()) differ += a[i].first_sector != other[i].first_sector;
  }
  return differ;
}

// The error building a generator of `stream` throws; "" when it builds.
inline std::string generator_error(const StreamConfig& stream, uint64_t device_sectors) {
  try {
    SyntheticGenerator generator(stream, device_sectors, kSector, 1);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

// `base` (a stream named 's') changed by `change` is refused with "stream 's': `expected`" in the
// error.
inline void expect_generator_error(const StreamConfig& base,
                                   const std::function<void(StreamConfig&)>& change,
                                   const std::string& expected, uint64_t device_sectors) {
  StreamConfig stream = base;
  change(stream);
  const std::string error = generator_error(stream, device_sectors);
  EXPECT_NE(error.find("stream 's': " + expected), std::string::npos)
      << "expected: " << expected << "\ngot: " << error;
}

}  // namespace ssdvp::host::stream_checks
