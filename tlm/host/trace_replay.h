// Replay of a block trace as one stream's requests. The file is read line by line as requests
// are taken, so a multi-gigabyte trace costs one line of memory.
//
// - Devices: only requests of the listed devices are kept, merged in file order (empty list: all
//   devices).
// - Sectors: byte ranges become whole host sectors (start rounded down, end rounded up).
// - Capacity: a request reaching past the device end is an error, unless fold_out_of_range: then
//   its start is taken modulo the capacity, and a request that would then run past the end is
//   moved back to end there. A request larger than the device is an error either way.
// - Time: with follow_timestamps, arrival_ps is the trace time since the first kept request,
//   times time_scale; timestamps must not go backwards. Otherwise every arrival_ps is 0 (the
//   host replays at the queue depth).
// - Errors: a malformed line, a zero-length request, an unknown op, an LBA beyond the capacity
//   without folding stop the replay with "file:line: reason"; a trace without a kept request is
//   an error when the replay is built.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "tlm/host/trace_formats.h"
#include "tlm/host/workload.h"

namespace ssdvp::host {

class TraceReplay : public RequestSource {
 public:
  // Opens the trace and reads up to its first kept request; throws std::runtime_error.
  TraceReplay(const StreamConfig& stream, uint64_t device_sectors, uint32_t sector_bytes);

  // nullopt at the end of the trace; throws std::runtime_error at a bad line.
  std::optional<HostRequest> next() override;

 private:
  // The next kept request, or nullopt at the end of the file.
  std::optional<HostRequest> read_request();
  HostRequest to_request(const TraceRecord& record);
  [[noreturn]] void fail_at_line(const std::string& reason) const;

  StreamConfig stream_;
  uint64_t device_sectors_;
  uint32_t sector_bytes_;
  std::ifstream in_;
  uint64_t line_number_ = 0;
  std::unique_ptr<TraceLineParser> parser_;
  std::optional<HostRequest> pending_;
  bool seen_first_ = false;
  unsigned __int128 first_time_ps_ = 0;
  unsigned __int128 previous_time_ps_ = 0;
};

}  // namespace ssdvp::host
