// The synthetic generators, checked statistically with fixed seeds: every expected frequency is
// computed here from the parameters (uniform shares, the zipf pmf, the hot/cold split, the size
// weights, the op fractions), and the observed counts must pass a chi-square test at the 99.9 %
// level or lie within five standard deviations of a binomial expectation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/host/synthetic_generator.h"
#include "tlm/system/random.h"
#include "tlm/host/synthetic_scatter.h"
#include "tlm/host/synthetic_zipf.h"
#include "tlm/host/workload.h"
#include "tb/tests/workload/stream_checks.h"

namespace ssdvp::host {
namespace {

using namespace stream_checks;

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kDeviceSectors = 1024 * kMiB / kSector;  // 1 GiB
constexpr uint64_t kSeed = 20240607;

StreamConfig stream_of(const std::string& pattern) {
  StreamConfig stream;
  stream.name = "s";
  stream.pattern = pattern;
  return stream;
}

std::vector<HostRequest> draw(const StreamConfig& stream, size_t count, uint64_t seed = kSeed,
                              uint64_t device_sectors = kDeviceSectors) {
  return draw_requests(stream, count, seed, device_sectors);
}

double chi_square(const std::vector<double>& observed, const std::vector<double>& expected) {
  double sum = 0.0;
  for (size_t i = 0; i < observed.size(); ++i) {
    sum += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  }
  return sum;
}

// The 99.9 % quantile of chi-square with `dof` degrees of freedom (Wilson-Hilferty).
double chi_square_limit(size_t dof) {
  const double k = static_cast<double>(dof);
  const double z = 3.0902;  // standard normal 99.9 % quantile
  const double term = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * term * term * term;
}

void expect_uniform(const std::vector<double>& counts, const std::string& what) {
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  const std::vector<double> expected(counts.size(), total / static_cast<double>(counts.size()));
  EXPECT_LT(chi_square(counts, expected), chi_square_limit(counts.size() - 1)) << what;
}

std::string error_of(const StreamConfig& stream, uint64_t device_sectors = kDeviceSectors) {
  return generator_error(stream, device_sectors);
}

// ---- Random, sequential, working set and alignment ---------------------------------------------

TEST(SyntheticGenerator, RandomIsUniformOverTheAlignedSlotsOfTheWorkingSet) {
  StreamConfig stream = stream_of("random");
  stream.offset_bytes = 1 * kMiB;
  stream.working_set_bytes = 64 * 4 * kKiB;
  const std::vector<HostRequest> requests = draw(stream, 64'000);
  std::vector<double> counts(64, 0.0);
  for (const HostRequest& request : requests) {
    ASSERT_EQ((start_byte(request) - stream.offset_bytes) % (4 * kKiB), 0u);
    ASSERT_GE(start_byte(request), stream.offset_bytes);
    ASSERT_LE(start_byte(request) + byte_count(request),
              stream.offset_bytes + stream.working_set_bytes);
    counts[(start_byte(request) - stream.offset_bytes) / (4 * kKiB)] += 1.0;
  }
  expect_uniform(counts, "random slots");
}

TEST(SyntheticGenerator, LargestRequestFitsAndEveryStartIsAligned) {
  StreamConfig stream = stream_of("random");
  stream.offset_bytes = 3 * kMiB;
  stream.working_set_bytes = 1 * kMiB;
  stream.align_bytes = 16 * kKiB;
  stream.sizes = {{4 * kKiB, 1.0}, {64 * kKiB, 1.0}};
  const uint64_t slots = (stream.working_set_bytes - 64 * kKiB) / stream.align_bytes + 1;
  const SyntheticGenerator generator(stream, kDeviceSectors, kSector, kSeed);
  EXPECT_EQ(generator.slot_count(), slots);
  std::set<uint64_t> starts;
  for (const HostRequest& request : draw(stream, 20'000)) {
    EXPECT_EQ(start_byte(request) % stream.align_bytes, 0u);
    EXPECT_GE(start_byte(request), stream.offset_bytes);
    EXPECT_LE(start_byte(request) + byte_count(request),
              stream.offset_bytes + stream.working_set_bytes);
    starts.insert(start_byte(request));
  }
  EXPECT_EQ(starts.size(), slots);  // every slot, the last one included, is reached
  EXPECT_EQ(*starts.rbegin(), stream.offset_bytes + stream.working_set_bytes - 64 * kKiB);
}

// ---- Workset (RQFTL's synthetic stress) and the reads' own sizes ------------------------------

// 64 chunks of 128 KiB out of the 512 a 64 MiB region holds: every request lies inside one of
// them, every one of them is addressed, uniformly, and they are spread over the region.
TEST(SyntheticGenerator, WorksetAddressesItsRandomChunksUniformlyAndNothingElse) {
  StreamConfig stream = stream_of("workset");
  stream.offset_bytes = 2 * kMiB;
  stream.working_set_bytes = 64 * kMiB;
  stream.workset_bytes = 8 * kMiB;
  stream.sizes = {{128 * kKiB, 1.0}};
  stream.read_sizes = {{4 * kKiB, 1.0}};
  stream.read_fraction = 0.5;
  const SyntheticGenerator generator(stream, kDeviceSectors, kSector, kSeed);
  ASSERT_EQ(generator.workset_chunks(), 64u);
  EXPECT_EQ(generator.chunk_bytes(), 128 * kKiB);
  std::map<uint64_t, size_t> index_of;  // chunk -> its index in the workset
  for (uint64_t i = 0; i < 64; ++i) index_of[generator.workset_chunk(i)] = i;
  ASSERT_EQ(index_of.size(), 64u) << "distinct chunks";
  EXPECT_GT(index_of.rbegin()->first - index_of.begin()->first, 256u) << "spread, not a block";
  std::vector<double> counts(64, 0.0);
  for (const HostRequest& request : draw(stream, 64'000)) {
    const uint64_t chunk = (start_byte(request) - stream.offset_bytes) / (128 * kKiB);
    ASSERT_TRUE(index_of.count(chunk)) << "chunk " << chunk << " is not in the workset";
    ASSERT_LE(end_byte(request), stream.offset_bytes + (chunk + 1) * 128 * kKiB);
    counts[index_of[chunk]] += 1.0;
    if (request.op == HostOp::kRead) {
      ASSERT_EQ(byte_count(request), 4 * kKiB) << "read_sizes";
    } else {
      ASSERT_EQ(byte_count(request), 128 * kKiB) << "sizes";
      ASSERT_EQ(start_byte(request) % (128 * kKiB), (2 * kMiB) % (128 * kKiB)) << "aligned";
    }
  }
  expect_uniform(counts, "workset chunks");
}

// The workset follows workset_seed, not the stream's seed: a precondition phase and a measured
// phase address the same chunks; another workset_seed picks others.
TEST(SyntheticGenerator, TheWorksetFollowsItsOwnSeedNotTheStreams) {
  StreamConfig stream = stream_of("workset");
  stream.working_set_bytes = 64 * kMiB;
  stream.workset_bytes = 4 * kMiB;
  stream.sizes = {{128 * kKiB, 1.0}};
  const auto chunks_of = [](const StreamConfig& s, uint64_t seed) {
    const SyntheticGenerator generator(s, kDeviceSectors, kSector, seed);
    std::set<uint64_t> chunks;
    for (uint64_t i = 0; i < generator.workset_chunks(); ++i) {
      chunks.insert(generator.workset_chunk(i));
    }
    return chunks;
  };
  const std::set<uint64_t> first = chunks_of(stream, 1);
  EXPECT_EQ(first.size(), 32u);
  EXPECT_EQ(chunks_of(stream, 2), first);
  stream.workset_seed = 7;
  EXPECT_NE(chunks_of(stream, 1), first);
}

// workset_chunk: chunks of 1 MiB while the requests are 4 and 64 KiB; every request lies in one
// of the 8 chosen chunks, at an offset that is a multiple of its size.
TEST(SyntheticGenerator, WorksetChunksMayBeLargerThanTheRequests) {
  StreamConfig stream = stream_of("workset");
  stream.working_set_bytes = 64 * kMiB;
  stream.workset_bytes = 8 * kMiB;
  stream.workset_chunk_bytes = 1 * kMiB;
  stream.sizes = {{64 * kKiB, 1.0}};
  stream.read_sizes = {{4 * kKiB, 1.0}};
  stream.read_fraction = 0.5;
  const SyntheticGenerator generator(stream, kDeviceSectors, kSector, kSeed);
  ASSERT_EQ(generator.workset_chunks(), 8u);
  EXPECT_EQ(generator.chunk_bytes(), 1 * kMiB);
  std::set<uint64_t> chosen;
  for (uint64_t i = 0; i < 8; ++i) chosen.insert(generator.workset_chunk(i));
  std::set<uint64_t> offsets;  // 64 KiB write offsets seen inside a chunk
  for (const HostRequest& request : draw(stream, 20'000)) {
    const uint64_t chunk = start_byte(request) / kMiB;
    ASSERT_TRUE(chosen.count(chunk)) << "chunk " << chunk << " is not in the workset";
    ASSERT_LE(end_byte(request), (chunk + 1) * kMiB) << "inside its chunk";
    ASSERT_EQ(start_byte(request) % byte_count(request), 0u) << "aligned to its size";
    if (request.op == HostOp::kWrite) offsets.insert(start_byte(request) % kMiB);
  }
  EXPECT_EQ(offsets.size(), 16u) << "every 64 KiB slot of a chunk is written";
}

// workset_fill writes the workset's chunks whole, in the workset's order, each from its start:
// the first workset bytes of requests write every chunk exactly once, and then it starts over.
TEST(SyntheticGenerator, AWorksetFillWritesEachChunkWholeInOrder) {
  StreamConfig stream = stream_of("workset");
  stream.working_set_bytes = 64 * kMiB;
  stream.workset_bytes = 4 * kMiB;
  stream.workset_chunk_bytes = 512 * kKiB;
  stream.workset_fill = true;
  stream.read_fraction = 0.0;
  stream.sizes = {{128 * kKiB, 1.0}};
  const SyntheticGenerator generator(stream, kDeviceSectors, kSector, kSeed);
  ASSERT_EQ(generator.workset_chunks(), 8u);
  uint64_t chunk = 0;
  uint64_t expected_start = generator.workset_chunk(0) * 512 * kKiB;
  uint64_t bytes = 0;
  for (const HostRequest& request : draw(stream, 100)) {
    ASSERT_EQ(request.op, HostOp::kWrite);
    if (start_byte(request) != expected_start) {  // the chunk is done: the next one begins
      ASSERT_EQ(expected_start % (512 * kKiB), 0u) << "the previous chunk was written whole";
      chunk = (chunk + 1) % 8;
      expected_start = generator.workset_chunk(chunk) * 512 * kKiB;
      ASSERT_EQ(start_byte(request), expected_start) << "chunk " << chunk << " from its start";
    }
    expected_start = end_byte(request);
    bytes += byte_count(request);
  }
  EXPECT_GT(bytes, 8 * kMiB) << "went round the workset more than once";

  stream.read_fraction = 0.1;
  EXPECT_NE(error_of(stream).find("workset_fill: a fill only writes"), std::string::npos)
      << error_of(stream);
  stream.read_fraction = 0.0;
  stream.sizes = {{96 * kKiB, 1.0}};
  EXPECT_NE(error_of(stream).find("in requests of one size that divides them"), std::string::npos)
      << error_of(stream);
  stream.sizes = {{128 * kKiB, 1.0}, {32 * kKiB, 1.0}};
  EXPECT_NE(error_of(stream).find("sizes has 2 sizes"), std::string::npos) << error_of(stream);
  stream.sizes = {{128 * kKiB, 1.0}};
  stream.workset_chunk_bytes = 64 * kKiB;
  EXPECT_NE(error_of(stream).find("workset_chunk: 65536 bytes is not a multiple of align"),
            std::string::npos)
      << error_of(stream);
}

TEST(SyntheticGenerator, AWorksetOfNoChunkOrMoreThanTheRegionIsRefused) {
  StreamConfig stream = stream_of("workset");
  stream.working_set_bytes = 4 * kMiB;
  stream.sizes = {{128 * kKiB, 1.0}};
  stream.workset_bytes = 64 * kKiB;
  EXPECT_NE(error_of(stream).find("workset: 65536 bytes is not 1 to the 32 chunks of 131072 "
                                  "bytes"),
            std::string::npos)
      << error_of(stream);
  stream.workset_bytes = 8 * kMiB;
  EXPECT_NE(error_of(stream).find("is not 1 to the 32 chunks"), std::string::npos);
  stream.workset_bytes = 4 * kMiB;
  EXPECT_EQ(error_of(stream), "");
  stream.read_sizes = {{3000, 1.0}};
  EXPECT_NE(error_of(stream).find("read_sizes: 3000 bytes is not a positive multiple"),
            std::string::npos)
      << error_of(stream);
}

TEST(SyntheticGenerator, WorkingSetZeroReachesTheDeviceEnd) {
  StreamConfig stream = stream_of("random");
  stream.offset_bytes = 16 * kKiB;
  const uint64_t device_sectors = 64;  // 32 KiB: 4 slots of 4 KiB from offset 16 KiB
  std::set<uint64_t> starts;
  for (const HostRequest& request : draw(stream, 1000, kSeed, device_sectors)) {
    starts.insert(start_byte(request));
  }
  EXPECT_EQ(starts, (std::set<uint64_t>{16 * kKiB, 20 * kKiB, 24 * kKiB, 28 * kKiB}));
}

TEST(SyntheticGenerator, SequentialFollowsOnRoundedUpToAlignAndWrapsAtTheRegionEnd) {
  StreamConfig stream = stream_of("sequential");
  stream.offset_bytes = 8 * kKiB;
  stream.working_set_bytes = 40 * kKiB;
  stream.sizes = {{2 * kKiB, 1.0}, {8 * kKiB, 1.0}};
  const uint64_t region_end = stream.offset_bytes + stream.working_set_bytes;
  uint64_t expected = stream.offset_bytes;
  size_t wraps = 0;
  for (const HostRequest& request : draw(stream, 2000)) {
    const uint64_t size = byte_count(request);
    ASSERT_TRUE(size == 2 * kKiB || size == 8 * kKiB) << size;
    if (expected + size > region_end) {
      expected = stream.offset_bytes;
      ++wraps;
    }
    ASSERT_EQ(start_byte(request), expected);
    const uint64_t end = expected + size;
    expected = (end + 4 * kKiB - 1) / (4 * kKiB) * (4 * kKiB);
  }
  EXPECT_GT(wraps, 100u);
}

// ---- Zipf and its rank scatter -----------------------------------------------------------------

std::vector<double> zipf_pmf(uint64_t n, double alpha) {
  std::vector<double> pmf(n);
  double sum = 0.0;
  for (uint64_t k = 1; k <= n; ++k) sum += std::pow(static_cast<double>(k), -alpha);
  for (uint64_t k = 1; k <= n; ++k) pmf[k - 1] = std::pow(static_cast<double>(k), -alpha) / sum;
  return pmf;
}

// Chi-square of rank counts against the pmf: ranks with an expected count of at least 20 get a
// bin each, the rest share one.
void expect_zipf_ranks(const std::vector<double>& rank_counts, double alpha) {
  const uint64_t n = rank_counts.size();
  const double total = std::accumulate(rank_counts.begin(), rank_counts.end(), 0.0);
  const std::vector<double> pmf = zipf_pmf(n, alpha);
  std::vector<double> observed, expected;
  double tail_observed = 0.0, tail_expected = 0.0;
  for (uint64_t k = 0; k < n; ++k) {
    if (pmf[k] * total >= 20.0) {
      observed.push_back(rank_counts[k]);
      expected.push_back(pmf[k] * total);
    } else {
      tail_observed += rank_counts[k];
      tail_expected += pmf[k] * total;
    }
  }
  if (tail_expected > 0.0) {
    observed.push_back(tail_observed);
    expected.push_back(tail_expected);
  }
  ASSERT_GE(observed.size(), 10u);
  EXPECT_LT(chi_square(observed, expected), chi_square_limit(observed.size() - 1))
      << "alpha " << alpha;
}

TEST(ZipfSampler, RankFrequenciesFollowThePmf) {
  for (const double alpha : {0.0, 1e-6, 0.2, 0.4, 0.5, 0.6, 0.8, 0.9, 0.99, 1.0, 1.01, 1.2, 1.5}) {
    const uint64_t n = 1000;
    const ZipfSampler sampler(n, alpha);
    Random rng(kSeed);
    std::vector<double> counts(n, 0.0);
    for (int i = 0; i < 200'000; ++i) {
      const uint64_t rank = sampler.sample(rng);
      ASSERT_GE(rank, 1u);
      ASSERT_LE(rank, n);
      counts[rank - 1] += 1.0;
    }
    expect_zipf_ranks(counts, alpha);
  }
}

TEST(ZipfSampler, AlphaZeroIsTheUniformDrawOfRandomBelow) {
  const ZipfSampler uniform(1000, 0.0);
  EXPECT_TRUE(uniform.uniform());
  EXPECT_FALSE(ZipfSampler(1000, 1e-6).uniform());
  Random a(kSeed), b(kSeed);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(uniform.sample(a), 1 + b.below(1000));
}

TEST(ZipfSampler, HandlesOneAndHugeRanges) {
  Random rng(kSeed);
  const ZipfSampler single(1, 0.9);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(single.sample(rng), 1u);
  // 2^40 ranks: no table, still rank 1 with its pmf share 1/H(n).
  const uint64_t n = uint64_t{1} << 40;
  const ZipfSampler huge(n, 1.2);
  uint64_t ones = 0;
  const int draws = 100'000;
  for (int i = 0; i < draws; ++i) {
    const uint64_t rank = huge.sample(rng);
    ASSERT_GE(rank, 1u);
    ASSERT_LE(rank, n);
    ones += rank == 1;
  }
  // H(n, 1.2) for n = 2^40: zeta(1.2) = 5.5916 minus the tail n^-0.2 / 0.2 = 0.0195.
  const double h = 5.591582 - std::pow(static_cast<double>(n), -0.2) / 0.2;
  expect_binomial(ones, draws, 1.0 / h, "rank 1 of 2^40");
}

TEST(RankScatter, IsABijectionThatSpreadsNeighbouringRanks) {
  for (const uint64_t n : {1ull, 2ull, 3ull, 5ull, 7ull, 64ull, 1000ull, 4097ull, 65535ull}) {
    const RankScatter scatter(n, kSeed);
    std::vector<bool> hit(n, false);
    for (uint64_t rank = 0; rank < n; ++rank) {
      const uint64_t position = scatter.position(rank);
      ASSERT_LT(position, n);
      ASSERT_FALSE(hit[position]) << "n " << n << " rank " << rank;
      hit[position] = true;
    }
  }
  const RankScatter scatter(1'000'000, kSeed);
  int adjacent = 0;
  for (uint64_t rank = 0; rank < 100; ++rank) {
    const uint64_t a = scatter.position(rank), b = scatter.position(rank + 1);
    adjacent += (a > b ? a - b : b - a) == 1;
  }
  EXPECT_LE(adjacent, 2);
  EXPECT_NE(RankScatter(1000, 1).position(0), RankScatter(1000, 2).position(0));
}

TEST(SyntheticGenerator, ZipfSlotFrequenciesSortedFollowThePmf) {
  StreamConfig stream = stream_of("zipf");
  stream.zipf_alpha = 1.1;
  stream.working_set_bytes = 500 * 4 * kKiB;
  const std::vector<HostRequest> requests = draw(stream, 200'000);
  std::vector<double> counts(500, 0.0);
  for (const HostRequest& request : requests) counts[start_byte(request) / (4 * kKiB)] += 1.0;
  // The slot of rank k is unknown here (the permutation is the generator's), but sorting the slot
  // counts recovers the ranks where they are well separated: the first ten ranks.
  std::vector<double> sorted = counts;
  std::sort(sorted.rbegin(), sorted.rend());
  const std::vector<double> pmf = zipf_pmf(500, 1.1);
  for (size_t k = 0; k < 10; ++k) {
    expect_binomial(static_cast<uint64_t>(sorted[k]), requests.size(), pmf[k],
                    "zipf rank " + std::to_string(k + 1));
  }
  // The hottest slots are spread out, not the first ten of the region.
  std::vector<size_t> order(500);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return counts[a] > counts[b]; });
  EXPECT_GT(*std::max_element(order.begin(), order.begin() + 10), 50u);
}

TEST(SyntheticGenerator, ZipfAlphaZeroDrawsExactlyWhatRandomDraws) {
  StreamConfig zipf = stream_of("zipf");
  zipf.zipf_alpha = 0.0;
  zipf.read_fraction = 0.3;
  zipf.sizes = {{4 * kKiB, 1.0}, {16 * kKiB, 1.0}};
  zipf.working_set_bytes = 64 * kMiB;
  StreamConfig random = zipf;
  random.pattern = "random";
  expect_same_requests(draw(zipf, 20'000), draw(random, 20'000));
}

// ---- Hot/cold, sizes, op mix ---------------------------------------------------------------------

TEST(SyntheticGenerator, HotColdSplitsSpaceAndAccesses) {
  StreamConfig stream = stream_of("hotcold");
  stream.working_set_bytes = 100 * 4 * kKiB;
  stream.hot_space_fraction = 0.2;
  stream.hot_access_fraction = 0.8;
  const SyntheticGenerator generator(stream, kDeviceSectors, kSector, kSeed);
  ASSERT_EQ(generator.hot_slot_count(), 20u);
  const std::vector<HostRequest> requests = draw(stream, 100'000);
  std::vector<double> hot(20, 0.0), cold(80, 0.0);
  uint64_t hot_requests = 0;
  for (const HostRequest& request : requests) {
    const uint64_t slot = start_byte(request) / (4 * kKiB);
    if (slot < 20) {
      hot[slot] += 1.0;
      ++hot_requests;
    } else {
      cold[slot - 20] += 1.0;
    }
  }
  expect_binomial(hot_requests, requests.size(), 0.8, "hot share");
  expect_uniform(hot, "hot slots");
  expect_uniform(cold, "cold slots");
}

TEST(SyntheticGenerator, SizesFollowTheirWeightsRelativeToTheSum) {
  StreamConfig stream = stream_of("random");
  stream.sizes = {{4 * kKiB, 0.7}, {64 * kKiB, 0.3}};
  const std::vector<HostRequest> requests = draw(stream, 50'000);
  const uint64_t small = std::count_if(requests.begin(), requests.end(), [](const auto& r) {
    return byte_count(r) == 4 * kKiB;
  });
  for (const HostRequest& request : requests) {
    ASSERT_TRUE(byte_count(request) == 4 * kKiB || byte_count(request) == 64 * kKiB);
  }
  expect_binomial(small, requests.size(), 0.7, "4 KiB share");
  // Weights 7 and 3 are the same distribution: the same requests for the same seed.
  StreamConfig scaled = stream;
  scaled.sizes = {{4 * kKiB, 7.0}, {64 * kKiB, 3.0}};
  const std::vector<HostRequest> same = draw(scaled, 1000);
  for (size_t i = 0; i < same.size(); ++i) {
    EXPECT_EQ(same[i].first_sector, requests[i].first_sector);
    EXPECT_EQ(same[i].sector_count, requests[i].sector_count);
  }
}

TEST(SyntheticGenerator, OpMixFollowsTrimAndReadFractions) {
  StreamConfig stream = stream_of("random");
  stream.trim_fraction = 0.1;
  stream.read_fraction = 0.3;
  const std::vector<HostRequest> requests = draw(stream, 100'000);
  std::map<HostOp, uint64_t> ops;
  for (const HostRequest& request : requests) ++ops[request.op];
  EXPECT_EQ(ops[HostOp::kFlush], 0u);
  expect_binomial(ops[HostOp::kTrim], requests.size(), 0.1, "trims");
  expect_binomial(ops[HostOp::kRead], requests.size(), 0.9 * 0.3, "reads");
  expect_binomial(ops[HostOp::kWrite], requests.size(), 0.9 * 0.7, "writes");
  for (const HostRequest& request : requests) EXPECT_EQ(request.arrival_ps, 0u);

  stream.trim_fraction = 0.0;
  stream.read_fraction = 1.0;
  for (const HostRequest& request : draw(stream, 1000)) EXPECT_EQ(request.op, HostOp::kRead);
}

TEST(SyntheticGenerator, SameSeedSameRequestsOtherSeedOthers) {
  StreamConfig stream = stream_of("zipf");
  stream.read_fraction = 0.5;
  stream.sizes = {{4 * kKiB, 1.0}, {16 * kKiB, 1.0}};
  const size_t differ =
      expect_same_requests(draw(stream, 500), draw(stream, 500), draw(stream, 500, kSeed + 1));
  EXPECT_GT(differ, 400u);
}

TEST(SyntheticGenerator, StreamSeedsDifferPerPhaseAndStream) {
  std::set<uint64_t> seeds;
  for (size_t phase = 0; phase < 4; ++phase) {
    for (size_t index = 0; index < 4; ++index) seeds.insert(stream_seed(1, phase, index));
  }
  seeds.insert(stream_seed(2, 0, 0));
  EXPECT_EQ(seeds.size(), 17u);
  EXPECT_EQ(stream_seed(7, 1, 2), stream_seed(7, 1, 2));
}

TEST(WorkloadRng, BelowIsUniformForABoundThatIsNoPowerOfTwo) {
  Random rng(kSeed);
  std::vector<double> counts(7, 0.0);
  for (int i = 0; i < 70'000; ++i) {
    const uint64_t value = rng.below(7);
    ASSERT_LT(value, 7u);
    counts[value] += 1.0;
  }
  expect_uniform(counts, "below(7)");
  for (int i = 0; i < 1000; ++i) {
    const double u = rng.unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

// ---- Errors name the stream and the key -----------------------------------------------------------

void expect_error_of(const StreamConfig& base, const std::function<void(StreamConfig&)>& change,
                     const std::string& expected) {
  expect_generator_error(base, change, expected, kDeviceSectors);
}

TEST(SyntheticGenerator, BadFieldsAreErrorsNamingStreamAndKey) {
  const auto expect_error = [](const std::function<void(StreamConfig&)>& change,
                               const std::string& expected) {
    expect_error_of(stream_of("random"), change, expected);
  };
  expect_error([](StreamConfig& s) { s.pattern = "zipff"; },
               "pattern: 'zipff' is not a pattern; allowed sequential, random, zipf, hotcold, "
               "oltp");
  expect_error([](StreamConfig& s) { s.read_fraction = 1.5; }, "read_fraction: 1.5 is not in");
  expect_error([](StreamConfig& s) { s.trim_fraction = -0.1; }, "trim_fraction: -0.1");
  expect_error([](StreamConfig& s) { s.sizes = {}; }, "sizes: no request size");
  expect_error([](StreamConfig& s) { s.sizes = {{1000, 1.0}}; },
               "sizes: 1000 bytes is not a positive multiple of the 512-byte sector");
  expect_error([](StreamConfig& s) { s.sizes = {{4096, 0.0}}; }, "sizes: the weight 0");
  expect_error([](StreamConfig& s) { s.align_bytes = 100; }, "align: 100 bytes");
  expect_error([](StreamConfig& s) { s.offset_bytes = 1001 * 512; },
               "offset: 512512 bytes is not a multiple of align (4096 bytes)");
  expect_error([](StreamConfig& s) { s.offset_bytes = 2048 * kMiB; },
               "offset: 2147483648 bytes is not inside the device");
  expect_error(
      [](StreamConfig& s) {
        s.offset_bytes = 512 * kMiB;
        s.working_set_bytes = 768 * kMiB;
      },
      "working_set: 805306368 bytes from offset 536870912 run past the device end");
  expect_error(
      [](StreamConfig& s) {
        s.working_set_bytes = 8 * kKiB;
        s.sizes = {{16 * kKiB, 1.0}};
      },
      "working_set: 8192 bytes cannot hold a request of 16384 bytes");
  expect_error(
      [](StreamConfig& s) {
        s.pattern = "zipf";
        s.zipf_alpha = -0.1;
      },
      "alpha: -0.1 is not a number >= 0");
  expect_error(
      [](StreamConfig& s) {
        s.pattern = "hotcold";
        s.hot_space_fraction = 1.0;
      },
      "hot_space_fraction: 1 is not in (0, 1)");
  expect_error(
      [](StreamConfig& s) {
        s.pattern = "hotcold";
        s.working_set_bytes = 4 * 4 * kKiB;
        s.hot_space_fraction = 0.1;
      },
      "hot_space_fraction: 0.1 of 4 request positions leaves no hot positions");

  StreamConfig unnamed = stream_of("bogus");
  unnamed.name.clear();
  EXPECT_EQ(error_of(unnamed).rfind("pattern: 'bogus'", 0), 0u) << error_of(unnamed);
}


TEST(SyntheticGenerator, BadOltpFieldsAreErrorsNamingStreamAndKey) {
  StreamConfig oltp = stream_of("oltp");
  oltp.working_set_bytes = 1024 * 4 * kKiB;  // 1024 pages of 4 KiB
  const auto expect_error = [&](const std::function<void(StreamConfig&)>& change,
                                const std::string& expected) {
    expect_error_of(oltp, change, expected);
  };
  EXPECT_EQ(error_of(oltp), "");
  expect_error([](StreamConfig& s) { s.db_final_bytes = 2048 * 4 * kKiB; },
               "db_final_size: 2048 pages of 4096 bytes do not fit the region (offset, "
               "working_set): 1024 pages of it can start the largest request");
  expect_error([](StreamConfig& s) { s.db_final_bytes = 1000; },
               "db_final_size: 1000 bytes is not a whole number of 4096-byte pages (align)");
  expect_error(
      [](StreamConfig& s) {
        s.db_final_bytes = 100 * 4 * kKiB;
        s.db_initial_bytes = 101 * 4 * kKiB;
      },
      "db_initial_size: 101 pages of 4096 bytes is more than the 100 pages of db_final_size");
  expect_error([](StreamConfig& s) { s.insert_fraction = 0.25; },
               "insert_fraction: 0.25 is not in (0, 1 / (1 + hot_rewrites)] = (0, 0.2]");
  expect_error([](StreamConfig& s) { s.insert_fraction = 0.0; }, "insert_fraction: 0 is not in");
  expect_error([](StreamConfig& s) { s.hot_window = 0; },
               "hot_window: 0 pages is not 1 to the 1024 pages of the final database");
  expect_error([](StreamConfig& s) { s.hot_window = 1025; }, "hot_window: 1025 pages");
  expect_error([](StreamConfig& s) { s.hot_rewrites = -1.0; },
               "hot_rewrites: -1 is not a number >= 0");
  expect_error([](StreamConfig& s) { s.frozen_fraction = 1.5; },
               "frozen_fraction: 1.5 is not in [0, 1]");
  expect_error([](StreamConfig& s) { s.zipf_alpha = -0.5; }, "alpha: -0.5 is not a number >= 0");
  // The edges are allowed: no growth, everything frozen, a window of one page.
  StreamConfig edges = oltp;
  edges.db_initial_bytes = oltp.working_set_bytes;
  edges.frozen_fraction = 1.0;
  edges.hot_window = 1;
  edges.insert_fraction = 0.2;
  EXPECT_EQ(error_of(edges), "");
}

// ---- Durability: FUA share and flushes ---------------------------------------------------------

TEST(SyntheticGenerator, AFuaShareFlagsThatShareOfWritesAndChangesNoRequest) {
  StreamConfig plain = stream_of("random");
  plain.read_fraction = 0.3;
  plain.trim_fraction = 0.1;
  StreamConfig durable = plain;
  durable.fua_fraction = 0.25;
  const std::vector<HostRequest> a = draw(plain, 20000);
  const std::vector<HostRequest> b = draw(durable, 20000);
  uint64_t writes = 0, fua = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].first_sector, b[i].first_sector);
    EXPECT_EQ(a[i].sector_count, b[i].sector_count);
    EXPECT_FALSE(a[i].fua);
    if (b[i].op == HostOp::kWrite) ++writes;
    if (b[i].fua) {
      EXPECT_EQ(b[i].op, HostOp::kWrite);
      ++fua;
    }
  }
  expect_binomial(fua, writes, 0.25, "FUA writes");
  durable.fua_fraction = 1.5;
  EXPECT_EQ(error_of(durable), "stream 's': fua_fraction: 1.5 is not in [0, 1]");
}

TEST(SyntheticGenerator, FsyncIssuesAFlushAfterEveryNWrites) {
  StreamConfig stream = stream_of("random");
  stream.read_fraction = 0.5;
  stream.fsync_writes = 3;
  uint64_t writes_since_flush = 0, flushes = 0;
  for (const HostRequest& request : draw(stream, 5000)) {
    if (request.op == HostOp::kFlush) {
      EXPECT_EQ(writes_since_flush, 3u);
      EXPECT_EQ(request.sector_count, 0u);
      writes_since_flush = 0;
      ++flushes;
    } else {
      EXPECT_LT(writes_since_flush, 3u) << "a fourth write before the flush";
      writes_since_flush += request.op == HostOp::kWrite;
    }
  }
  EXPECT_GT(flushes, 500u);
}

}  // namespace
}  // namespace ssdvp::host
