#include "tlm/host/synthetic_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ssdvp::host {

namespace {

bool is_fraction(double value) { return value >= 0.0 && value <= 1.0; }

// The FUA draws' seed, independent of the stream's own sequence.
uint64_t fua_seed(uint64_t seed) {
  uint64_t state = seed ^ 0x46554121u;  // "FUA!"
  return splitmix64(state);
}
bool is_open_fraction(double value) { return value > 0.0 && value < 1.0; }

// Throws the error of a stream field: "stream 'name': key: problem".
[[noreturn]] void fail_field(const StreamConfig& stream, const char* key,
                             const std::string& problem) {
  throw std::runtime_error(fmt::format("{}{}: {}", stream_error_prefix(stream), key, problem));
}

// The seed of a fixed permutation: it has a seed of its own, so it does not shift with the draws.
uint64_t scatter_seed_of(uint64_t seed) {
  uint64_t state = seed ^ 0x5ca77e125ca77e12ULL;
  return splitmix64(state);
}

// The seed of the profile pattern's write permutation, unrelated to the read permutation's.
uint64_t write_scatter_seed_of(uint64_t seed) {
  uint64_t state = seed ^ 0x3717e5ca77e13717ULL;
  return splitmix64(state);
}

// (key, cumulative probability) of keys weighted relative to their sum, in the order given.
std::vector<std::pair<uint64_t, double>> cumulative_of(
    const std::vector<std::pair<uint64_t, double>>& weights) {
  double sum = 0.0;
  for (const auto& entry : weights) sum += entry.second;
  std::vector<std::pair<uint64_t, double>> cumulative;
  double running = 0.0;
  for (const auto& [key, weight] : weights) {
    running += weight / sum;
    cumulative.emplace_back(key, running);
  }
  // Rounding may leave the sum a hair below 1: the last key takes what is left.
  cumulative.back().second = 1.0;
  return cumulative;
}

// What a working_set error adds for a profile stream, whose working_set the profile may set.
std::string profile_note(const StreamConfig& stream) {
  if (stream.profile == "none") return "";
  return fmt::format(" (profile {}: working_set is the trace's footprint times footprint_scale "
                     "{} unless given)",
                     stream.profile, stream.footprint_scale);
}

}  // namespace

SyntheticGenerator::SyntheticGenerator(const StreamConfig& stream, uint64_t device_sectors,
                                       uint32_t sector_bytes, uint64_t seed)
    : sector_bytes_(sector_bytes),
      align_(stream.align_bytes),
      read_fraction_(stream.read_fraction),
      trim_fraction_(stream.trim_fraction),
      fua_fraction_(stream.fua_fraction),
      fsync_writes_(stream.fsync_writes),
      hot_access_fraction_(stream.hot_access_fraction),
      rng_(seed),
      fua_rng_(fua_seed(seed)) {
  const auto fail = [&](const char* key, const std::string& problem) {
    fail_field(stream, key, problem);
  };
  if (sector_bytes == 0 || device_sectors == 0) {
    fail("device", fmt::format("{} sectors of {} bytes hold no data", device_sectors,
                               sector_bytes));
  }

  const std::vector<std::string>& patterns = stream_pattern_names();
  const auto pattern = std::find(patterns.begin(), patterns.end(), stream.pattern);
  if (pattern == patterns.end()) {
    fail("pattern", fmt::format("'{}' is not a pattern; allowed {}", stream.pattern,
                                fmt::join(patterns, ", ")));
  }
  pattern_ = static_cast<Pattern>(pattern - patterns.begin());

  if (!is_fraction(read_fraction_)) {
    fail("read_fraction", fmt::format("{} is not in [0, 1]", read_fraction_));
  }
  if (!is_fraction(trim_fraction_)) {
    fail("trim_fraction", fmt::format("{} is not in [0, 1]", trim_fraction_));
  }
  if (!is_fraction(fua_fraction_)) {
    fail("fua_fraction", fmt::format("{} is not in [0, 1]", fua_fraction_));
  }

  if (stream.sizes.empty()) fail("sizes", "no request size given");
  uint64_t max_size = 0;
  const auto check_sizes = [&](const char* key,
                               const std::vector<std::pair<uint64_t, double>>& sizes) {
    for (const auto& [size, weight] : sizes) {
      if (size == 0 || size % sector_bytes != 0) {
        fail(key, fmt::format("{} bytes is not a positive multiple of the {}-byte sector", size,
                              sector_bytes));
      }
      if (size / sector_bytes > std::numeric_limits<uint32_t>::max()) {
        fail(key, fmt::format("{} bytes is more sectors than a command carries", size));
      }
      if (!(weight > 0.0) || !std::isfinite(weight)) {
        fail(key, fmt::format("the weight {} of {} bytes is not a positive number", weight,
                              size));
      }
      max_size = std::max(max_size, size);
    }
  };
  check_sizes("sizes", stream.sizes);
  check_sizes("read_sizes", stream.read_sizes);
  size_cumulative_ = cumulative_of(stream.sizes);
  read_size_cumulative_ =
      stream.read_sizes.empty() ? size_cumulative_ : cumulative_of(stream.read_sizes);

  if (stream.write_runs.empty()) {
    fail("write_runs", fmt::format("no run length given; allowed {{WRITES: weight, ...}}, WRITES "
                                   "1..{}",
                                   kMaxRunWrites));
  }
  bool longer_runs = false;
  for (const auto& [writes, weight] : stream.write_runs) {
    if (writes == 0 || writes > kMaxRunWrites) {
      fail("write_runs", fmt::format("a run of {} writes is not 1..{} writes", writes,
                                     kMaxRunWrites));
    }
    if (!(weight > 0.0) || !std::isfinite(weight)) {
      fail("write_runs", fmt::format("the weight {} of runs of {} writes is not a positive number",
                                     weight, writes));
    }
    longer_runs = longer_runs || writes > 1;
  }
  // sequential writes one endless run already; oltp places every write by its database model.
  if (longer_runs && (pattern_ == Pattern::kSequential || pattern_ == Pattern::kOltp)) {
    fail("write_runs", fmt::format("runs of more than one write apply to the patterns random, "
                                   "zipf, hotcold, profile and workset, not {}",
                                   stream.pattern));
  }
  run_cumulative_ = cumulative_of(stream.write_runs);

  if (align_ == 0 || align_ % sector_bytes != 0) {
    fail("align", fmt::format("{} bytes is not a positive multiple of the {}-byte sector", align_,
                              sector_bytes));
  }
  const unsigned __int128 capacity_wide =
      static_cast<unsigned __int128>(device_sectors) * sector_bytes;
  const uint64_t capacity = capacity_wide > std::numeric_limits<uint64_t>::max()
                                ? std::numeric_limits<uint64_t>::max()
                                : static_cast<uint64_t>(capacity_wide);
  const uint64_t offset = stream.offset_bytes;
  if (offset % align_ != 0) {
    fail("offset", fmt::format("{} bytes is not a multiple of align ({} bytes)", offset, align_));
  }
  if (offset >= capacity) {
    fail("offset", fmt::format("{} bytes is not inside the device of {} bytes", offset,
                               capacity));
  }
  const uint64_t working_set =
      stream.working_set_bytes == 0 ? capacity - offset : stream.working_set_bytes;
  if (working_set > capacity - offset) {
    fail("working_set",
         fmt::format("{} bytes from offset {} run past the device end at {} bytes{}",
                     working_set, offset, capacity, profile_note(stream)));
  }
  if (max_size > working_set) {
    fail("working_set", fmt::format("{} bytes cannot hold a request of {} bytes{}", working_set,
                                    max_size, profile_note(stream)));
  }
  region_start_ = offset;
  region_end_ = offset + working_set;
  run_end_ = region_end_;
  slots_ = (working_set - max_size) / align_ + 1;
  sequential_next_ = region_start_;

  if (pattern_ == Pattern::kZipf || pattern_ == Pattern::kOltp) {
    if (!(stream.zipf_alpha >= 0.0) || !std::isfinite(stream.zipf_alpha)) {
      fail("alpha", fmt::format("{} is not a number >= 0", stream.zipf_alpha));
    }
  }
  if (pattern_ == Pattern::kZipf) {
    zipf_.emplace(slots_, stream.zipf_alpha);
    // Uniform ranks need no scatter: rank - 1 is the slot, exactly the draw of `random`.
    if (!zipf_->uniform()) scatter_.emplace(slots_, scatter_seed_of(seed));
  }
  if (pattern_ == Pattern::kOltp) make_oltp(stream, scatter_seed_of(seed));
  if (pattern_ == Pattern::kProfile) make_profile(stream, max_size, seed);
  if (pattern_ == Pattern::kWorkset) make_workset(stream, max_size);
  if (pattern_ == Pattern::kHotCold) {
    if (!is_open_fraction(stream.hot_space_fraction)) {
      fail("hot_space_fraction", fmt::format("{} is not in (0, 1)", stream.hot_space_fraction));
    }
    if (!is_open_fraction(hot_access_fraction_)) {
      fail("hot_access_fraction", fmt::format("{} is not in (0, 1)", hot_access_fraction_));
    }
    hot_slots_ = static_cast<uint64_t>(
        std::llround(stream.hot_space_fraction * static_cast<double>(slots_)));
    if (hot_slots_ == 0 || hot_slots_ >= slots_) {
      fail("hot_space_fraction",
           fmt::format("{} of {} request positions leaves no {} positions; enlarge working_set",
                       stream.hot_space_fraction, slots_, hot_slots_ == 0 ? "hot" : "cold"));
    }
  }
}

void SyntheticGenerator::make_oltp(const StreamConfig& stream, uint64_t scatter_seed) {
  const auto fail = [&](const char* key, const std::string& problem) {
    fail_field(stream, key, problem);
  };
  const auto pages_of = [&](const char* key, uint64_t bytes) {
    if (bytes % align_ != 0) {
      fail(key, fmt::format("{} bytes is not a whole number of {}-byte pages (align)", bytes,
                            align_));
    }
    return bytes / align_;
  };
  // Every page must take the largest request: the database is the region's slots at most.
  const uint64_t final_pages =
      stream.db_final_bytes == 0 ? slots_ : pages_of("db_final_size", stream.db_final_bytes);
  if (final_pages > slots_) {
    fail("db_final_size",
         fmt::format("{} pages of {} bytes do not fit the region (offset, working_set): {} "
                     "pages of it can start the largest request",
                     final_pages, align_, slots_));
  }
  if (final_pages > std::numeric_limits<uint32_t>::max()) {
    fail("db_final_size", fmt::format("{} pages of {} bytes are more than 2^32 - 1 pages",
                                      final_pages, align_));
  }
  const uint64_t initial_pages = stream.db_initial_bytes == 0
                                     ? std::max<uint64_t>(1, final_pages / 10)
                                     : pages_of("db_initial_size", stream.db_initial_bytes);
  if (initial_pages > final_pages) {
    fail("db_initial_size",
         fmt::format("{} pages of {} bytes is more than the {} pages of db_final_size",
                     initial_pages, align_, final_pages));
  }
  if (!(stream.hot_rewrites >= 0.0) || !std::isfinite(stream.hot_rewrites)) {
    fail("hot_rewrites", fmt::format("{} is not a number >= 0", stream.hot_rewrites));
  }
  // An insert starts a hot phase of about 1 + r writes: inserts are at most 1 / (1 + r) of them.
  const double max_insert = 1.0 / (1.0 + stream.hot_rewrites);
  if (!(stream.insert_fraction > 0.0 && stream.insert_fraction <= max_insert)) {
    fail("insert_fraction",
         fmt::format("{} is not in (0, 1 / (1 + hot_rewrites)] = (0, {:.6g}]: an insert starts "
                     "a hot phase of 1 + hot_rewrites writes",
                     stream.insert_fraction, max_insert));
  }
  if (stream.hot_window == 0 || stream.hot_window > final_pages) {
    fail("hot_window", fmt::format("{} pages is not 1 to the {} pages of the final database",
                                   stream.hot_window, final_pages));
  }
  if (!is_fraction(stream.frozen_fraction)) {
    fail("frozen_fraction", fmt::format("{} is not in [0, 1]", stream.frozen_fraction));
  }
  OltpDatabase::Shape shape;
  shape.initial_pages = static_cast<uint32_t>(initial_pages);
  shape.final_pages = static_cast<uint32_t>(final_pages);
  shape.insert_fraction = stream.insert_fraction;
  shape.hot_window = stream.hot_window;
  shape.hot_rewrites = stream.hot_rewrites;
  shape.frozen_fraction = stream.frozen_fraction;
  shape.alpha = stream.zipf_alpha;
  oltp_.emplace(shape, scatter_seed);
}

void SyntheticGenerator::make_profile(const StreamConfig& stream, uint64_t max_size,
                                      uint64_t seed) {
  const auto fail = [&](const char* key, const std::string& problem) {
    fail_field(stream, key, problem);
  };
  if (!is_open_fraction(hot_access_fraction_)) {
    fail("hot_access_fraction", fmt::format("{} is not in (0, 1)", hot_access_fraction_));
  }
  chunk_bytes_ = (max_size + align_ - 1) / align_ * align_;
  const uint64_t working_set = region_end_ - region_start_;
  if (chunk_bytes_ > working_set) {
    fail("working_set",
         fmt::format("{} bytes cannot hold a chunk of {} bytes (the largest request rounded up "
                     "to align){}",
                     working_set, chunk_bytes_, profile_note(stream)));
  }
  ProfileAccess::Shape shape;
  shape.chunks = working_set / chunk_bytes_;
  shape.hot_access_fraction = hot_access_fraction_;
  const auto check_share = [&](const char* key, double share) {
    if (!is_open_fraction(share)) fail(key, fmt::format("{} is not in (0, 1)", share));
    if (share > hot_access_fraction_) {
      fail(key, fmt::format("{} is more than hot_access_fraction ({}): that share of the chunks "
                            "takes at least as much uniformly",
                            share, hot_access_fraction_));
    }
    if (share * static_cast<double>(shape.chunks) < 1.0) {
      fail(key, fmt::format("{} of {} chunks of {} bytes is less than one chunk; enlarge "
                            "working_set{}",
                            share, shape.chunks, chunk_bytes_, profile_note(stream)));
    }
    return share;
  };
  shape.read_hot_share = check_share("read_hot_share", stream.read_hot_share);
  shape.write_hot_share = check_share("write_hot_share", stream.write_hot_share);
  profile_.emplace(shape, scatter_seed_of(seed), write_scatter_seed_of(seed));
  // A run stays in the footprint: the tail of less than a chunk is not addressed.
  run_end_ = region_start_ + shape.chunks * chunk_bytes_;
}

void SyntheticGenerator::make_workset(const StreamConfig& stream, uint64_t max_size) {
  const uint64_t largest = (max_size + align_ - 1) / align_ * align_;
  chunk_bytes_ = stream.workset_chunk_bytes == 0 ? largest : stream.workset_chunk_bytes;
  if (chunk_bytes_ % align_ != 0 || chunk_bytes_ < largest) {
    fail_field(stream, "workset_chunk",
               fmt::format("{} bytes is not a multiple of align ({} bytes) of at least the "
                           "largest request ({} bytes rounded up to align)",
                           chunk_bytes_, align_, largest));
  }
  const uint64_t working_set = region_end_ - region_start_;
  const uint64_t chunks = working_set / chunk_bytes_;
  workset_chunks_ = stream.workset_bytes / chunk_bytes_;
  if (workset_chunks_ == 0 || workset_chunks_ > chunks) {
    fail_field(stream, "workset",
               fmt::format("{} bytes is not 1 to the {} chunks of {} bytes (workset_chunk, or "
                           "the largest request rounded up to align) the region (offset, "
                           "working_set: {} bytes) holds",
                           stream.workset_bytes, chunks, chunk_bytes_, working_set));
  }
  workset_fill_ = stream.workset_fill;
  if (workset_fill_) {
    if (read_fraction_ != 0.0 || trim_fraction_ != 0.0) {
      fail_field(stream, "workset_fill",
                 fmt::format("a fill only writes; read_fraction {} and trim_fraction {} must "
                             "be 0",
                             read_fraction_, trim_fraction_));
    }
    if (stream.sizes.size() != 1 || chunk_bytes_ % stream.sizes.front().first != 0) {
      fail_field(stream, "workset_fill",
                 fmt::format("a fill writes its chunks of {} bytes whole in requests of one size "
                             "that divides them; sizes has {} sizes, the first {} bytes",
                             chunk_bytes_, stream.sizes.size(), stream.sizes.front().first));
    }
    for (const auto& [writes, weight] : stream.write_runs) {
      if (writes > 1) {
        fail_field(stream, "workset_fill", "a fill is one run already; write_runs must be {1: 1}");
      }
    }
  }
  scatter_.emplace(chunks, scatter_seed_of(stream.workset_seed));
  run_end_ = region_start_ + chunks * chunk_bytes_;
}

uint64_t SyntheticGenerator::fill_start(uint64_t size_bytes) {
  if (fill_offset_ == chunk_bytes_) {  // the one size divides the chunk: it is whole
    fill_offset_ = 0;
    fill_index_ = (fill_index_ + 1) % workset_chunks_;
  }
  const uint64_t start = region_start_ + scatter_->position(fill_index_) * chunk_bytes_ +
                         fill_offset_;
  fill_offset_ += size_bytes;
  return start;
}

uint64_t SyntheticGenerator::chunk_start(uint64_t chunk, uint64_t size_bytes) {
  // Offsets at multiples of the size when it divides the chunk cover every page of the chunk
  // equally often.
  const uint64_t step =
      size_bytes % align_ == 0 && chunk_bytes_ % size_bytes == 0 ? size_bytes : align_;
  const uint64_t offsets = (chunk_bytes_ - size_bytes) / step + 1;
  const uint64_t offset = offsets == 1 ? 0 : rng_.below(offsets) * step;
  return region_start_ + chunk * chunk_bytes_ + offset;
}

uint64_t SyntheticGenerator::profile_start(uint64_t size_bytes, HostOp op) {
  const uint64_t chunk =
      op == HostOp::kRead ? profile_->read_chunk(rng_) : profile_->write_chunk(rng_);
  return chunk_start(chunk, size_bytes);
}

HostOp SyntheticGenerator::draw_op() {
  if (rng_.unit() < trim_fraction_) return HostOp::kTrim;
  return rng_.unit() < read_fraction_ ? HostOp::kRead : HostOp::kWrite;
}

uint64_t SyntheticGenerator::draw_weighted(
    const std::vector<std::pair<uint64_t, double>>& cumulative) {
  if (cumulative.size() == 1) return cumulative.front().first;
  const double u = rng_.unit();
  const auto chosen =
      std::upper_bound(cumulative.begin(), cumulative.end(), u,
                       [](double value, const auto& entry) { return value < entry.second; });
  return chosen->first;
}

uint64_t SyntheticGenerator::draw_start(uint64_t size_bytes, HostOp op) {
  uint64_t slot = 0;
  switch (pattern_) {
    case Pattern::kSequential: {
      if (size_bytes > region_end_ - sequential_next_) sequential_next_ = region_start_;
      const uint64_t start = sequential_next_;
      const uint64_t end = start + size_bytes;
      // Rounded up to the alignment; at the region end the next request wraps anyway.
      const uint64_t rounded = region_start_ + (end - region_start_ + align_ - 1) / align_ * align_;
      sequential_next_ = std::min(rounded, region_end_);
      return start;
    }
    case Pattern::kRandom: slot = rng_.below(slots_); break;
    case Pattern::kZipf: {
      const uint64_t rank = zipf_->sample(rng_) - 1;
      slot = scatter_ ? scatter_->position(rank) : rank;
      break;
    }
    case Pattern::kHotCold:
      slot = rng_.unit() < hot_access_fraction_ ? rng_.below(hot_slots_)
                                                : hot_slots_ + rng_.below(slots_ - hot_slots_);
      break;
    case Pattern::kOltp:
      slot = op == HostOp::kWrite ? oltp_->next_write(rng_) : oltp_->any_page(rng_);
      break;
    case Pattern::kProfile: return profile_start(size_bytes, op);
    case Pattern::kWorkset:
      if (workset_fill_) return fill_start(size_bytes);
      return chunk_start(scatter_->position(rng_.below(workset_chunks_)), size_bytes);
  }
  return region_start_ + slot * align_;
}

uint64_t SyntheticGenerator::draw_write_start(uint64_t size_bytes) {
  uint64_t start = 0;
  if (run_writes_left_ > 0 && size_bytes <= run_end_ - run_next_) {
    --run_writes_left_;
    start = run_next_;
  } else {
    run_writes_left_ = draw_weighted(run_cumulative_) - 1;
    start = draw_start(size_bytes, HostOp::kWrite);
  }
  const uint64_t end = start + size_bytes;
  run_next_ =
      std::min(region_start_ + (end - region_start_ + align_ - 1) / align_ * align_, run_end_);
  return start;
}

std::optional<HostRequest> SyntheticGenerator::next() {
  HostRequest request;
  if (fsync_writes_ != 0 && writes_since_flush_ == fsync_writes_) {
    writes_since_flush_ = 0;
    request.op = HostOp::kFlush;
    return request;
  }
  request.op = draw_op();
  if (request.op == HostOp::kWrite) {
    ++writes_since_flush_;
    // Drawn only with a FUA share, from a generator of its own: the requests stay the same.
    request.fua = fua_fraction_ != 0.0 && fua_rng_.unit() < fua_fraction_;
  }
  const uint64_t size =
      draw_weighted(request.op == HostOp::kRead ? read_size_cumulative_ : size_cumulative_);
  const uint64_t start =
      request.op == HostOp::kWrite ? draw_write_start(size) : draw_start(size, request.op);
  request.first_sector = start / sector_bytes_;
  request.sector_count = static_cast<uint32_t>(size / sector_bytes_);
  return request;
}

}  // namespace ssdvp::host
