// What the host model runs: workload phases in order (e.g. precondition, warm-up, measure), each
// with one or more concurrent streams (fio's numjobs), each stream a synthetic generator or a
// trace replay with its own queue depth. No SystemC here: generators and parsers are plain C++.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ssdvp::host {

enum class HostOp : uint8_t { kRead, kWrite, kTrim, kFlush };

// One block request as the host issues it, in host sectors.
struct HostRequest {
  HostOp op = HostOp::kRead;
  uint64_t first_sector = 0;
  uint32_t sector_count = 0;  // > 0 except for flush
  uint64_t arrival_ps = 0;    // trace replay that follows timestamps: when to submit
  bool fua = false;           // writes: force unit access (complete once on the NAND)
};

// One stream of a phase. The fields that describe the generator or the trace are the
// workload module's (tlm/host/workload.cpp and the parsers); the host model uses the rest.
struct StreamConfig {
  std::string name;            // for statistics ("" = stream<index>)
  uint32_t queue_depth = 32;   // outstanding commands of this stream
  // Synthetic generator.
  std::string pattern = "random";  // sequential | random | zipf | hotcold | oltp | profile
  double read_fraction = 0.0;      // share of reads among reads and writes
  double trim_fraction = 0.0;      // share of trims among all requests
  double fua_fraction = 0.0;       // share of writes flagged FUA
  uint64_t fsync_writes = 0;       // a flush after every this many writes (fio's fsync); 0 = none
  std::vector<std::pair<uint64_t, double>> sizes = {{4096, 1.0}};  // bytes -> weight
  std::vector<std::pair<uint64_t, double>> read_sizes;  // reads' sizes if not empty, else sizes
  double zipf_alpha = 0.9;           // zipf, and oltp's warm pool; 0 = uniform
  double hot_space_fraction = 0.2;   // hotcold: share of the working set that is hot
  double hot_access_fraction = 0.8;  // hotcold: share of accesses that go to it; profile: the
                                     // share of reads (writes) the hot read (write) share takes
  // profile (tlm/host/synthetic_profile.h): reads and writes skewed independently over chunks.
  // `profile` names the trace (RL-FSP's Table II or LeaFTL's) whose figures the scenario loader
  // wrote into pattern, read_fraction, sizes, working_set, read_hot_share, write_hot_share and
  // write_runs (those not given); the generator reads only the fields.
  std::string profile = "none";
  double footprint_scale = 0.125;  // the profile's working_set: its footprint times this
  double read_hot_share = 0.2;     // share of the chunks taking hot_access_fraction of reads
  double write_hot_share = 0.2;    // likewise for writes, placed independently
  // Writes in sequential runs (random, zipf, hotcold, profile): a run of n writes, n drawn from
  // these weights, starts where the pattern places a write, and each further write of it starts
  // where the previous write ended. Reads and trims are placed by the pattern and leave the run
  // alone. The default, runs of one write, is every write placed by the pattern.
  std::vector<std::pair<uint64_t, double>> write_runs = {{1, 1.0}};  // writes per run -> weight
  // workset (RQFTL's synthetic stress, its section 7.3): the region is cut into chunks of
  // workset_chunk bytes (0 = the largest request); workset_bytes of them, chosen at random, are
  // all the stream addresses, uniformly. The choice follows workset_seed alone, so that streams
  // of several phases with the same region, chunk and workset address the same chunks.
  // workset_fill writes the chunks whole instead, one after another in the order chosen, each
  // from its start (an app's installation: files written whole, scattered over the span).
  uint64_t workset_bytes = 0;
  uint64_t workset_chunk_bytes = 0;
  uint32_t workset_seed = 1;
  bool workset_fill = false;
  // oltp (tlm/host/synthetic_oltp.h): a database growing from db_initial to db_final bytes.
  uint64_t db_initial_bytes = 0;     // 0 = a tenth of db_final_bytes
  uint64_t db_final_bytes = 0;       // 0 = the whole region
  double insert_fraction = 0.02;     // share of writes that append a page to the database
  uint32_t hot_window = 256;         // pages hot at once: the last ones inserted or touched
  double hot_rewrites = 4.0;         // mean rewrites of a page while it is hot
  double frozen_fraction = 0.8;      // share of inserted pages frozen when they leave the window
  uint64_t offset_bytes = 0;         // start of the region the stream addresses
  uint64_t working_set_bytes = 0;    // size of that region (0 = to the device end)
  uint32_t align_bytes = 4096;       // request start alignment
  // Trace replay (used when trace_path is not empty).
  std::string trace_path;
  std::string trace_format = "disksim";  // disksim | msr | spc | blkparse | fiu
  bool follow_timestamps = false;        // false: replay at the queue depth
  double time_scale = 1.0;               // timestamps are multiplied by this
  std::vector<uint32_t> devices;         // devices (disks) kept, merged; empty = all
  bool fold_out_of_range = false;        // LBAs beyond capacity fold modulo it, else error
};

// The longest write run (StreamConfig::write_runs) a stream takes, in writes.
constexpr uint64_t kMaxRunWrites = 1 << 20;

struct PhaseConfig {
  std::string name = "measure";
  uint64_t max_requests = 0;  // per phase over all streams; 0 = no limit
  uint64_t max_bytes = 0;     // 0 = no limit
  uint64_t max_time_ps = 0;   // 0 = no limit
  std::vector<StreamConfig> streams;
  // The phase also ends after this many times the host capacity in bytes, counted like
  // max_bytes (20 = twenty device writes for a write-only phase); 0 = no limit.
  double capacity_multiple = 0.0;
  // The fio job file the streams and limits were translated from (tb/scenario/fio_job.h), or
  // "": the host model reads only the fields above.
  std::string fio_job{};
};

struct WorkloadConfig {
  std::vector<PhaseConfig> phases;  // empty: the host issues nothing
};

// A source of requests for one stream. next() returns nullopt when the stream is exhausted (a
// trace at its end); synthetic generators never end, phases end by their limits.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  virtual std::optional<HostRequest> next() = 0;
};

// Builds the generator or trace reader a stream describes, over a device of `device_sectors`
// host sectors of `sector_bytes`. Throws std::runtime_error naming the stream, the file and
// line (traces) and the reason for bad input.
std::unique_ptr<RequestSource> make_request_source(const StreamConfig& stream,
                                                   uint64_t device_sectors, uint32_t sector_bytes,
                                                   uint64_t seed);

// ---- Added by the workload module (names and helpers the scenario loader shares) -------------

// The values StreamConfig::pattern and StreamConfig::trace_format accept, in the order
// `ssdsim --list-params` shows them.
inline const std::vector<std::string>& stream_pattern_names() {
  static const std::vector<std::string> names = {"sequential", "random", "zipf", "hotcold",
                                                  "oltp", "profile", "workset"};
  return names;
}
inline const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names = {"disksim", "msr", "spc", "blkparse", "fiu"};
  return names;
}

// Device numbers of Linux traces (blkparse, FIU) are major:minor pairs; StreamConfig::devices
// holds them as major << 20 | minor, the kernel's own dev_t layout, so plain numbers (DiskSim
// devices, MSR disks, SPC ASUs) below 2^20 and major:minor pairs share one list.
constexpr uint32_t kDeviceMinorBits = 20;
constexpr uint32_t kDeviceMaxMajor = (1u << (32 - kDeviceMinorBits)) - 1;
constexpr uint32_t kDeviceMaxMinor = (1u << kDeviceMinorBits) - 1;
constexpr uint32_t device_number(uint32_t major, uint32_t minor) {
  return major << kDeviceMinorBits | minor;
}

// "stream 'name': " for a named stream, "" for an unnamed one: how errors about a stream start.
// The caller adds where the stream sits (e.g. workload.phases[1].streams[0]).
std::string stream_error_prefix(const StreamConfig& stream);

// The seed of one stream of a run: streams of the same run draw independent sequences, and a
// stream keeps its sequence when other phases or streams are added after it.
uint64_t stream_seed(uint64_t run_seed, size_t phase_index, size_t stream_index);

}  // namespace ssdvp::host
