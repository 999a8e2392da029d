#include "tlm/host/trace_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ssdvp::host {

namespace {

constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();

std::string device_text(uint32_t device) {
  if (device <= kDeviceMaxMinor) return std::to_string(device);
  return fmt::format("{}:{}", device >> kDeviceMinorBits, device & kDeviceMaxMinor);
}

std::string picoseconds_text(unsigned __int128 ps) {
  // Two 64-bit halves of the decimal: 10^18 ps is 10^6 s, beyond any trace.
  constexpr uint64_t kSplit = 1'000'000'000'000'000'000ULL;
  const uint64_t high = static_cast<uint64_t>(ps / kSplit);
  const uint64_t low = static_cast<uint64_t>(ps % kSplit);
  return high == 0 ? fmt::format("{}ps", low) : fmt::format("{}{:018}ps", high, low);
}

}  // namespace

TraceReplay::TraceReplay(const StreamConfig& stream, uint64_t device_sectors,
                         uint32_t sector_bytes)
    : stream_(stream), device_sectors_(device_sectors), sector_bytes_(sector_bytes) {
  const std::string prefix = stream_error_prefix(stream_);
  const std::optional<TraceFormat> format = trace_format_from_name(stream_.trace_format);
  if (!format) {
    throw std::runtime_error(fmt::format("{}format: '{}' is not a trace format; allowed {}",
                                         prefix, stream_.trace_format,
                                         fmt::join(trace_format_names(), ", ")));
  }
  if (!(stream_.time_scale > 0.0) || !std::isfinite(stream_.time_scale)) {
    throw std::runtime_error(
        fmt::format("{}time_scale: {} is not a positive number", prefix, stream_.time_scale));
  }
  if (sector_bytes_ == 0 || device_sectors_ == 0) {
    throw std::runtime_error(fmt::format("{}device: {} sectors of {} bytes hold no data", prefix,
                                         device_sectors_, sector_bytes_));
  }
  parser_ = make_trace_line_parser(*format);
  in_.open(stream_.trace_path, std::ios::binary);
  if (!in_) {
    throw std::runtime_error(fmt::format("{}trace: cannot open '{}': {}", prefix,
                                         stream_.trace_path, std::strerror(errno)));
  }
  pending_ = read_request();
  if (!pending_) {
    std::vector<std::string> devices;
    for (const uint32_t device : stream_.devices) devices.push_back(device_text(device));
    throw std::runtime_error(fmt::format(
        "{}{}: the trace holds no {} request{}", prefix, stream_.trace_path, stream_.trace_format,
        devices.empty() ? "" : fmt::format(" of devices {}", fmt::join(devices, ", "))));
  }
}

std::optional<HostRequest> TraceReplay::next() {
  std::optional<HostRequest> request = std::move(pending_);
  if (request) pending_ = read_request();
  return request;
}

void TraceReplay::fail_at_line(const std::string& reason) const {
  throw std::runtime_error(fmt::format("{}{}:{}: {}", stream_error_prefix(stream_),
                                       stream_.trace_path, line_number_, reason));
}

std::optional<HostRequest> TraceReplay::read_request() {
  std::string line;
  TraceRecord record;
  while (std::getline(in_, line)) {
    ++line_number_;
    try {
      record = TraceRecord{};
      if (!parser_->parse(line, record)) continue;
    } catch (const TraceLineError& error) {
      fail_at_line(error.what());
    }
    if (!stream_.devices.empty() &&
        std::find(stream_.devices.begin(), stream_.devices.end(), record.device) ==
            stream_.devices.end()) {
      continue;
    }
    return to_request(record);
  }
  if (in_.bad()) {
    throw std::runtime_error(fmt::format("{}{}: read error after line {}",
                                         stream_error_prefix(stream_), stream_.trace_path,
                                         line_number_));
  }
  return std::nullopt;
}

HostRequest TraceReplay::to_request(const TraceRecord& record) {
  HostRequest request;
  request.op = record.op;
  request.fua = record.fua;

  if (stream_.follow_timestamps) {
    if (!seen_first_) {
      first_time_ps_ = record.time_ps;
      previous_time_ps_ = record.time_ps;
    }
    if (record.time_ps < previous_time_ps_) {
      fail_at_line(fmt::format("the timestamp ({}) goes back before the previous request's ({})",
                               picoseconds_text(record.time_ps),
                               picoseconds_text(previous_time_ps_)));
    }
    previous_time_ps_ = record.time_ps;
    const unsigned __int128 since_first = record.time_ps - first_time_ps_;
    const long double scaled = static_cast<long double>(since_first) * stream_.time_scale;
    if (scaled >= static_cast<long double>(kMaxU64)) {
      fail_at_line(fmt::format("the time since the first request ({}) times time_scale {} "
                               "exceeds the simulator's 2^64 ps",
                               picoseconds_text(since_first), stream_.time_scale));
    }
    // roundl, not llroundl: a scaled time from 2^63 ps up does not fit a signed 64-bit integer.
    request.arrival_ps = stream_.time_scale == 1.0
                             ? static_cast<uint64_t>(since_first)
                             : static_cast<uint64_t>(std::roundl(scaled));
  }
  seen_first_ = true;

  if (record.op == HostOp::kFlush) return request;
  if (record.byte_count == 0) fail_at_line("zero-length request");
  if (record.byte_count > kMaxU64 - record.start_byte) {
    fail_at_line(fmt::format("the request ({} bytes at byte {}) ends beyond any device",
                             record.byte_count, record.start_byte));
  }
  uint64_t first = record.start_byte / sector_bytes_;
  const uint64_t end_byte = record.start_byte + record.byte_count;
  const uint64_t end = end_byte / sector_bytes_ + (end_byte % sector_bytes_ != 0 ? 1 : 0);
  const uint64_t count = end - first;
  if (count > device_sectors_) {
    fail_at_line(fmt::format("the request of {} sectors is larger than the device ({} sectors "
                             "of {} bytes)", count, device_sectors_, sector_bytes_));
  }
  if (end > device_sectors_) {
    if (!stream_.fold_out_of_range) {
      fail_at_line(fmt::format("sectors {}..{} are beyond the device capacity of {} sectors of {} "
                               "bytes; set fold: true to fold them into it",
                               first, end - 1, device_sectors_, sector_bytes_));
    }
    first %= device_sectors_;
    first = std::min(first, device_sectors_ - count);
  }
  if (count > std::numeric_limits<uint32_t>::max()) {
    fail_at_line(fmt::format("the request of {} sectors is more than a command carries", count));
  }
  request.first_sector = first;
  request.sector_count = static_cast<uint32_t>(count);
  return request;
}

}  // namespace ssdvp::host
