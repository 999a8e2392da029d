// Line parsers of the block-trace formats the host model replays. Each turns one text line into
// a TraceRecord (bytes and picoseconds), reports a line without a request, or throws
// TraceLineError with the reason and what was expected; TraceReplay adds file:line.
//
//   disksim   DiskSim ASCII, as MQSim and SSDsim use it:
//             `arrival_ns device start_sector size_sectors type` (512-byte sectors; type 1 =
//             read, 0 = write), whitespace-separated.
//   msr       MSR Cambridge CSV: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
//             (Windows filetime in 100 ns units; Type Read or Write; Offset and Size in bytes).
//             A header line starting with `Timestamp` is skipped.
//   spc       SNIA SPC (UMass Financial, WebSearch): `ASU,LBA,Size,Opcode,Timestamp[,...]` (LBA in
//             512-byte blocks, Size in bytes, Opcode r or w, Timestamp in seconds); the ASU is
//             the device. Optional fields after the fifth are ignored.
//   blkparse  blkparse's default text output:
//             `maj,min cpu seq seconds.nanoseconds pid action RWBS sector + count [process]`.
//             Only action Q (queued) or D (issued) lines are requests, and only the one of the
//             two that the trace shows first, so an I/O traced at both points counts once. RWBS:
//             a leading F (pre-flush) and then D (discard: trim), W (write), R (read) or N (no
//             data: a flush when the leading F is there, else not a request); an F after W
//             (FUA) makes the write a FUA write. Lines that do not
//             start with a maj,min device (blkparse's summary) are not requests.
//   fiu       FIU (SRCMap, I/O deduplication traces):
//             `ts_ns pid process lba size_blocks R|W major minor md5` (512-byte blocks); the
//             process name may hold spaces.
// Devices of blkparse and FIU are major:minor numbers (device_number() in workload.h).
// Timestamps keep full precision (to the picosecond) as 128-bit integers: a Windows filetime
// in picoseconds does not fit 64 bits until it is rebased.
// Case is ignored in op names (Read, r, W). Blank lines are not requests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tlm/host/workload.h"

namespace ssdvp::host {

enum class TraceFormat { kDiskSim, kMsr, kSpc, kBlkparse, kFiu };

// nullopt when `name` is none of trace_format_names().
std::optional<TraceFormat> trace_format_from_name(const std::string& name);

struct TraceRecord {
  unsigned __int128 time_ps = 0;  // as written in the trace, not yet rebased
  uint32_t device = 0;
  HostOp op = HostOp::kRead;
  uint64_t start_byte = 0;
  uint64_t byte_count = 0;        // 0 for a flush
  bool fua = false;               // a write with force unit access (blkparse only)
};

// A malformed line: the message is the reason, with what was expected.
class TraceLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TraceLineParser {
 public:
  virtual ~TraceLineParser() = default;
  // True with `record` filled for a request line; false for a line that holds none.
  virtual bool parse(std::string_view line, TraceRecord& record) = 0;
};

std::unique_ptr<TraceLineParser> make_trace_line_parser(TraceFormat format);

}  // namespace ssdvp::host
