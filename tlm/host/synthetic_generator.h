// The synthetic request generator of one stream (fio-like): an op mix, a request-size
// distribution and an access pattern over a region of the device.
//
// Region: `offset` bytes from the device start, `working_set` bytes long (0 = to the device end).
// Positions: request starts are multiples of `align` inside the region such that the largest
// request size still fits; these are the region's "slots", numbered 0..slots-1.
// Patterns:
//   sequential  each request starts where the previous one ended, rounded up to `align`; back to
//               the region start when the next request would run past its end.
//   random      a slot drawn uniformly.
//   zipf        slot rank k (1..slots) drawn with P(k) ~ k^-alpha (ZipfSampler); the ranks are
//               spread over the region by a fixed seeded permutation (RankScatter). alpha = 0 is
//               uniform and draws exactly what `random` draws (same seed, same requests).
//   hotcold     the first round(hot_space_fraction * slots) slots are hot and get
//               hot_access_fraction of the requests, uniformly; the others share the rest.
//   oltp        a database of `align`-byte pages growing from db_initial_size to db_final_size
//               bytes at the region start: writes follow OltpDatabase (synthetic_oltp.h), reads
//               and trims go to a page of the current database uniformly.
//   profile     reads and writes skewed independently (ProfileAccess, synthetic_profile.h): the
//               region is cut into chunks of the largest request size (rounded up to `align`);
//               a read picks a chunk by a zipf whose top read_hot_share of the chunks takes
//               hot_access_fraction of the reads, a write (or trim) by its own zipf for
//               write_hot_share over an independent permutation; the request lies inside the
//               chunk at a uniformly drawn offset, a multiple of its size when that divides the
//               chunk, else of `align`. The `profile` key fills these keys from a trace of the
//               RL-FSP paper's Table II or of LeaFTL's evaluation (the scenario loader does;
//               the generator reads fields).
// Write runs (random, zipf, hotcold, profile): a write that starts a run draws the run's length
// n from `write_runs` (weight / sum of weights) and is placed by the pattern; the next n - 1
// writes each start where the previous write ended, rounded up to `align`. A run that would run
// past the region (for profile, past its last whole chunk) ends there: that write starts a new
// run. Reads and trims in between are placed by the pattern and do not end the run. Runs of one
// write (the default) draw nothing: the stream is the pattern's alone.
// Op mix: a request is a trim with probability trim_fraction, else a read with probability
// read_fraction, else a write. Size: drawn from `sizes` with probability weight / sum of weights.
// Durability: a write is flagged FUA with probability fua_fraction (drawn from a generator of its
// own, so the requests are the same for any share); with fsync_writes = N, a flush follows every
// N writes (fio's fsync=N), a request of the stream like any other.
// Every other draw comes from one Random (tlm/system/random.h) seeded by `seed`: a stream is deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlm/system/random.h"
#include "tlm/host/synthetic_oltp.h"
#include "tlm/host/synthetic_profile.h"
#include "tlm/host/synthetic_scatter.h"
#include "tlm/host/synthetic_zipf.h"
#include "tlm/host/workload.h"

namespace ssdvp::host {

class SyntheticGenerator : public RequestSource {
 public:
  // Throws std::runtime_error naming the stream (when it has a name) and the scenario key of a
  // field that does not fit the device or is out of range.
  SyntheticGenerator(const StreamConfig& stream, uint64_t device_sectors, uint32_t sector_bytes,
                     uint64_t seed);

  // Never ends: phases end by their limits.
  std::optional<HostRequest> next() override;

  // Request start positions in the region, and how many of them are hot (hotcold only).
  uint64_t slot_count() const { return slots_; }
  uint64_t hot_slot_count() const { return hot_slots_; }
  // The database model of an oltp stream, else nullptr.
  const OltpDatabase* oltp_database() const { return oltp_ ? &*oltp_ : nullptr; }
  // The chunks of a profile stream, else nullptr; their size in bytes (0 for other patterns).
  const ProfileAccess* profile_access() const { return profile_ ? &*profile_ : nullptr; }
  uint64_t chunk_bytes() const { return chunk_bytes_; }
  // The workset's chunks (workset only): the chunk of workset index i, 0 <= i < count.
  uint64_t workset_chunks() const { return workset_chunks_; }
  uint64_t workset_chunk(uint64_t i) const { return scatter_->position(i); }

 private:
  enum class Pattern { kSequential, kRandom, kZipf, kHotCold, kOltp, kProfile, kWorkset };

  HostOp draw_op();
  // A key of a cumulative distribution (key, cumulative probability); one key draws nothing.
  uint64_t draw_weighted(const std::vector<std::pair<uint64_t, double>>& cumulative);
  uint64_t draw_start(uint64_t size_bytes, HostOp op);
  // The start of a write: the next of its run, or the first of a new run placed by the pattern.
  uint64_t draw_write_start(uint64_t size_bytes);
  // Checks the oltp keys against the region and builds the database model.
  void make_oltp(const StreamConfig& stream, uint64_t scatter_seed);
  // Checks the profile keys against the region and builds the chunk model.
  void make_profile(const StreamConfig& stream, uint64_t max_size, uint64_t seed);
  // Checks the workset keys against the region and picks the workset's chunks.
  void make_workset(const StreamConfig& stream, uint64_t max_size);
  // The start of a request of `size_bytes` inside a chunk (profile and workset streams).
  uint64_t chunk_start(uint64_t chunk, uint64_t size_bytes);
  // The next write of a workset fill: the rest of the current chunk, in order.
  uint64_t fill_start(uint64_t size_bytes);
  uint64_t profile_start(uint64_t size_bytes, HostOp op);

  Pattern pattern_ = Pattern::kRandom;
  uint32_t sector_bytes_;
  uint64_t align_;
  double read_fraction_;
  double trim_fraction_;
  double fua_fraction_;
  uint64_t fsync_writes_;
  uint64_t writes_since_flush_ = 0;
  double hot_access_fraction_;
  std::vector<std::pair<uint64_t, double>> size_cumulative_;  // size, cumulative probability
  std::vector<std::pair<uint64_t, double>> read_size_cumulative_;  // reads', likewise
  std::vector<std::pair<uint64_t, double>> run_cumulative_;   // writes per run, likewise
  uint64_t run_writes_left_ = 0;  // writes of the current run still to come
  uint64_t run_next_ = 0;         // where the next write of the run starts
  uint64_t run_end_ = 0;          // no run goes past this byte
  uint64_t region_start_ = 0;
  uint64_t region_end_ = 0;
  uint64_t slots_ = 0;
  uint64_t hot_slots_ = 0;
  uint64_t sequential_next_ = 0;
  Random rng_;
  Random fua_rng_;
  std::optional<ZipfSampler> zipf_;
  std::optional<RankScatter> scatter_;
  std::optional<OltpDatabase> oltp_;
  std::optional<ProfileAccess> profile_;
  uint64_t chunk_bytes_ = 0;
  uint64_t workset_chunks_ = 0;
  bool workset_fill_ = false;
  uint64_t fill_index_ = 0;   // the workset chunk a fill writes (workset_fill)
  uint64_t fill_offset_ = 0;  // where its next write starts in it
};

}  // namespace ssdvp::host
