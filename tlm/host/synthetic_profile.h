// Where the reads and the writes of a trace-profile stream go (pattern `profile`), and the traces
// it is shaped after: the eight disk traces of Table II of J. Li, Z. Cai, B. Gerofi, Y. Ishikawa,
// J. Liao, "Page Type-Aware Full-Sequence Program Scheduling via Reinforcement Learning in High
// Density SSDs", IEEE TCAD 2024 (../shared/papers/002_*.txt), and the seven traces of LeaFTL
// (J. Sun, S. Li, Y. Sun, C. Sun, D. Vucinic, J. Huang, ASPLOS 2023, ../shared/papers/003_*.txt),
// whose figures are mostly assumptions (README, "LeaFTL profiles").
//
// A trace is summed up there by its read ratio, its total footprint and the share of that
// footprint (Int. ratio) that takes 80 % of the reads (Int. footprint). The model reproduces the
// distribution behind those columns:
//   chunks    the region (offset, working_set) is cut into N chunks of `chunk` bytes, the largest
//             request size rounded up to `align`; a request lies inside one chunk, at an offset
//             that is a multiple of its own size when that size divides the chunk (else of
//             `align`), drawn uniformly. Every page of a chunk is then equally likely to be
//             covered, so the share of the pages that takes 80 % of the page reads is the share
//             of the chunks that takes 80 % of the read requests, for any size mix (with
//             independently placed pages a 64 KiB read from a hot start would heat 15 cold pages).
//             The region's tail of less than one chunk is never addressed.
//   reads     chunk rank k (1..N) drawn with P(k) ~ k^-a_r (ZipfSampler), ranks scattered over
//             the chunks by a seeded permutation (RankScatter); a_r is solved so that the top
//             read_hot_share * N ranks hold exactly hot_access_fraction (0.8) of the weight
//             (zipf_top_weight: a fractional rank count takes that share of the next rank). A zipf
//             rather than a hot/cold split: the read counts inside the hot set differ too, as in
//             a real trace, which is what a read-count-driven policy sees.
//   writes    the same with write_hot_share and a_w, over a second permutation with its own seed:
//             the hot write chunks are placed independently of the hot read chunks (the two
//             sets overlap by about write_hot_share of the hot read chunks, by chance). Trims
//             follow the writes.
// Both exponents are 0 (uniform) when the share equals hot_access_fraction; a share above it
// would need reads spread more evenly than uniform and is refused, as is a hot set of less than
// one chunk. Everything is fixed at construction from the two permutation seeds; draws come from
// the caller's Random.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tlm/host/synthetic_scatter.h"
#include "tlm/host/synthetic_zipf.h"
#include "tlm/system/random.h"

namespace ssdvp::host {

struct StreamConfig;

// The share of the total weight of zipf(n, alpha) held by its top `ranks` ranks, 0 <= ranks <= n;
// a fractional count holds that fraction of the next rank's weight. Exact sums up to rank 256,
// Euler-Maclaurin beyond (within 1e-11 of exact sums in the tests, n up to 1e5, alpha up to 4).
double zipf_top_weight(uint64_t n, double alpha, double ranks);

// The alpha >= 0 with zipf_top_weight(n, alpha, share * n) = access; needs share <= access < 1
// and share * n >= 1 (checked by the caller). Bisection to 1e-12.
double solve_zipf_alpha(uint64_t n, double share, double access);

class ProfileAccess {
 public:
  struct Shape {
    uint64_t chunks = 1;               // N >= 2
    double read_hot_share = 0.2;       // (0, hot_access_fraction], * N >= 1
    double write_hot_share = 0.2;      // likewise
    double hot_access_fraction = 0.8;  // (0, 1)
  };

  ProfileAccess(const Shape& shape, uint64_t read_scatter_seed, uint64_t write_scatter_seed);

  uint64_t read_chunk(Random& rng) const;
  uint64_t write_chunk(Random& rng) const;

  uint64_t chunks() const { return shape_.chunks; }
  double read_alpha() const { return read_zipf_.alpha(); }
  double write_alpha() const { return write_zipf_.alpha(); }
  // The chunk of read (write) rank `rank` (0 = the hottest).
  uint64_t read_position(uint64_t rank) const { return read_scatter_.position(rank); }
  uint64_t write_position(uint64_t rank) const { return write_scatter_.position(rank); }

 private:
  Shape shape_;
  ZipfSampler read_zipf_;
  ZipfSampler write_zipf_;
  RankScatter read_scatter_;
  RankScatter write_scatter_;
};

// ---- The traces -------------------------------------------------------------------------------

struct TraceProfile {
  const char* name;          // the value of the `profile` key
  uint64_t requests;         // # of Req. (for reference: phase lengths are the scenario's; 0 =
                             // not known)
  double read_fraction;      // Read ratio
  double hot_read_mib;       // Int. footprint: the hottest read addresses taking 80 % of reads
                             // (0 = not known)
  double hot_read_share;     // Int. ratio: that footprint over the total footprint
  double footprint_mib;      // the total footprint (the paper's MB taken as 2^20 bytes)
  double write_hot_share;    // the share of the footprint taking 80 % of the writes
  const char* size_mix;      // the name of `sizes` below, for the documentation
  std::vector<std::pair<uint64_t, double>> sizes;  // request sizes (bytes) and weights
  const char* run_mix;       // the name of `write_runs` below, for the documentation
  std::vector<std::pair<uint64_t, double>> write_runs;  // writes per sequential run, weights
};

// Scaled footprints are rounded to this (and are at least this): the chunk of the profiles' mixes.
constexpr uint64_t kProfileFootprintQuantum = 64 * 1024;

// Table II's eight traces in that paper's order (by read ratio), then LeaFTL's seven.
const std::vector<TraceProfile>& trace_profiles();
// "none" and the profiles' names: the values of the `profile` key.
const std::vector<std::string>& trace_profile_names();
// nullptr for "none" or an unknown name.
const TraceProfile* find_trace_profile(const std::string& name);

// The working set of `profile` at `footprint_scale`: its footprint times the scale, rounded to a
// multiple of kProfileFootprintQuantum, at least one.
uint64_t scaled_footprint_bytes(const TraceProfile& profile, double footprint_scale);

// Sets the stream keys a profile gives, except those `given` (by the key as a scenario writes it:
// "pattern", "read_fraction", "sizes", "working_set", "read_hot_share", "write_hot_share",
// "write_runs"): pattern profile, the read ratio, the size mix, the scaled footprint, the read
// and write skews and the write runs.
void apply_trace_profile(const TraceProfile& profile, StreamConfig& stream,
                         const std::function<bool(const std::string& key)>& given);

}  // namespace ssdvp::host
