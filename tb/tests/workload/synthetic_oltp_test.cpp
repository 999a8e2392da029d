// The oltp pattern (tlm/host/synthetic_oltp.h) against the three write characteristics the 2R
// paper (PVLDB 13(11), 2020, section 2.2) measures on TPC-C and LinkBench, each computed here
// from the generated write stream alone (which page each write goes to, in order), with the
// figures the paper states:
//   skew      the 20 % most written of the pages written take more than 80 % of the writes;
//   locality  a page, once written after a quiet spell, is rewritten several times within a short
//             window and then not for a long time: a hot phase starts at a write that follows
//             no write of its page within T writes (T = the hot window in writes, hot_window *
//             (1 + hot_rewrites)); it has at least 2 rewrites within T on average, the page's
//             write rate in the 10 T after it is at most a quarter of the rate within it (a
//             stationary stream such as fio's zipf has the same rate after: ratio 1), and the
//             gaps between writes of a page are bimodal: most within T, few between T and 10 T;
//   frozen    a page is frozen at time t when it is never written after t: more than 40 % of the
//             pages written by the phase midpoint are frozen there, more than 60 % of those
//             written by four fifths of the phase.
// The phase is the growth the parameters imply, (db_final_size - db_initial_size) /
// insert_fraction pages written. Every property must also fail for parameters that remove it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tlm/host/synthetic_generator.h"
#include "tlm/host/workload.h"

namespace ssdvp::host {
namespace {

constexpr uint32_t kSector = 512;
constexpr uint64_t kPage = 4096;
constexpr uint64_t kSeed = 20200701;
constexpr uint64_t kDatabasePages = 65536;  // 256 MiB

StreamConfig oltp_stream() {
  StreamConfig stream;
  stream.name = "db";
  stream.pattern = "oltp";
  stream.working_set_bytes = kDatabasePages * kPage;
  return stream;
}

uint64_t initial_pages(const StreamConfig& stream) {
  return stream.db_initial_bytes == 0 ? kDatabasePages / 10 : stream.db_initial_bytes / kPage;
}

// The writes of the growth phase: (F - I0) / insert_fraction of them.
uint64_t phase_writes(const StreamConfig& stream) {
  return static_cast<uint64_t>(static_cast<double>(kDatabasePages - initial_pages(stream)) /
                               stream.insert_fraction);
}

// The page of each of `count` writes (the stream is write-only: read_fraction 0).
std::vector<uint32_t> write_pages(const StreamConfig& stream, uint64_t count,
                                  uint64_t seed = kSeed) {
  SyntheticGenerator generator(stream, 1024 * kDatabasePages * kPage / kSector, kSector, seed);
  std::vector<uint32_t> pages;
  pages.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const HostRequest request = *generator.next();
    EXPECT_EQ(request.op, HostOp::kWrite);
    pages.push_back(static_cast<uint32_t>(request.first_sector * kSector / kPage));
  }
  return pages;
}

// ---- The measures -------------------------------------------------------------------------------

// Share of the writes that go to the 20 % most written of the pages written.
double top_fifth_share(const std::vector<uint32_t>& pages) {
  std::vector<uint64_t> writes(kDatabasePages, 0);
  for (const uint32_t page : pages) ++writes.at(page);
  std::vector<uint64_t> counts;
  for (const uint64_t count : writes) {
    if (count != 0) counts.push_back(count);
  }
  std::sort(counts.rbegin(), counts.rend());
  uint64_t top = 0;
  for (size_t i = 0; i < counts.size() / 5; ++i) top += counts[i];
  return static_cast<double>(top) / static_cast<double>(pages.size());
}

// Of the pages first written before `t` (a write index), the share never written at or after t.
double frozen_share(const std::vector<uint32_t>& pages, uint64_t t) {
  constexpr uint64_t kNever = UINT64_MAX;
  std::vector<uint64_t> first(kDatabasePages, kNever), last(kDatabasePages, kNever);
  for (uint64_t i = 0; i < pages.size(); ++i) {
    if (first.at(pages[i]) == kNever) first[pages[i]] = i;
    last[pages[i]] = i;
  }
  uint64_t written = 0, frozen = 0;
  for (uint64_t page = 0; page < kDatabasePages; ++page) {
    if (first[page] >= t) continue;  // never written, or first after t
    ++written;
    frozen += last[page] < t;
  }
  return static_cast<double>(frozen) / static_cast<double>(written);
}

struct Locality {
  double rewrites_in_phase;  // mean rewrites within T of a hot phase's start
  double rate_drop;          // write rate within T over the rate in the 10 T after
  double gaps_within;        // share of gaps between writes of a page that are <= T
  double gaps_between;       // ... in (T, 10 T]
};

Locality locality(const std::vector<uint32_t>& pages, uint64_t window) {
  const uint64_t after = 10 * window;
  std::vector<std::vector<uint64_t>> times(kDatabasePages);
  for (uint64_t i = 0; i < pages.size(); ++i) times.at(pages[i]).push_back(i);
  uint64_t phases = 0, within = 0, later = 0;
  uint64_t gaps = 0, gaps_within = 0, gaps_between = 0;
  for (const std::vector<uint64_t>& writes : times) {
    for (size_t j = 0; j < writes.size(); ++j) {
      if (j > 0) {
        const uint64_t gap = writes[j] - writes[j - 1];
        ++gaps;
        gaps_within += gap <= window;
        gaps_between += gap > window && gap <= after;
        if (gap <= window) continue;  // inside a hot phase
      }
      // A hot phase starts; only those whose following 11 T lie in the stream count.
      if (writes[j] + window + after >= pages.size()) continue;
      ++phases;
      size_t k = j + 1;
      for (; k < writes.size() && writes[k] <= writes[j] + window; ++k) ++within;
      for (; k < writes.size() && writes[k] <= writes[j] + window + after; ++k) ++later;
    }
  }
  const double in_rate = static_cast<double>(within) / static_cast<double>(window);
  const double after_rate = static_cast<double>(later) / static_cast<double>(after);
  return {static_cast<double>(within) / static_cast<double>(phases),
          after_rate > 0.0 ? in_rate / after_rate : 1e9,
          static_cast<double>(gaps_within) / static_cast<double>(gaps),
          static_cast<double>(gaps_between) / static_cast<double>(gaps)};
}

uint64_t hot_window_writes(const StreamConfig& stream) {
  return static_cast<uint64_t>(stream.hot_window * (1.0 + stream.hot_rewrites));
}

bool stark_locality(const Locality& l) {
  return l.rewrites_in_phase >= 2.0 && l.rate_drop >= 4.0 && l.gaps_within >= 0.5 &&
         l.gaps_between <= 0.1;
}

std::string describe(const Locality& l) {
  return "rewrites in a hot phase " + std::to_string(l.rewrites_in_phase) + ", rate drop " +
         std::to_string(l.rate_drop) + ", gaps <= T " + std::to_string(l.gaps_within) +
         ", gaps in (T, 10T] " + std::to_string(l.gaps_between);
}

// The default stream's writes, generated once for the tests that only read them.
const std::vector<uint32_t>& default_writes() {
  static const std::vector<uint32_t> pages =
      write_pages(oltp_stream(), phase_writes(oltp_stream()));
  return pages;
}

// ---- The three characteristics with the defaults, and their failure without them ----------------

TEST(OltpWorkload, WriteSkewMoreThanFourFifthsOfWritesGoToAFifthOfThePages) {
  const double share = top_fifth_share(default_writes());
  EXPECT_GT(share, 0.8);
  std::cout << "write skew: the top 20 % of pages take " << share << " of the writes\n";

  // Without frozen pages and with uniform warm touches, every page is warm alike: no skew.
  StreamConfig flat = oltp_stream();
  flat.frozen_fraction = 0.0;
  flat.zipf_alpha = 0.0;
  EXPECT_LT(top_fifth_share(write_pages(flat, phase_writes(flat))), 0.8);
}

TEST(OltpWorkload, TemporalLocalityHotPhasesEndStarkly) {
  const StreamConfig stream = oltp_stream();
  const Locality measured = locality(default_writes(), hot_window_writes(stream));
  EXPECT_TRUE(stark_locality(measured)) << describe(measured);
  std::cout << "temporal locality: " << describe(measured) << "\n";

  // Without hot rewrites, writes of a page are touches at their own stationary rates.
  StreamConfig no_rewrites = stream;
  no_rewrites.hot_rewrites = 0.0;
  const Locality flat = locality(write_pages(no_rewrites, phase_writes(stream)),
                                 hot_window_writes(stream));
  EXPECT_FALSE(stark_locality(flat)) << describe(flat);
  EXPECT_LT(flat.rate_drop, 1.5) << describe(flat);

  // fio's zipf: per-page rates are stationary, so the rate after a burst is the rate within it.
  StreamConfig fio;
  fio.pattern = "zipf";
  fio.zipf_alpha = 0.9;
  fio.working_set_bytes = kDatabasePages * kPage;
  const Locality zipf = locality(write_pages(fio, phase_writes(stream)),
                                 hot_window_writes(stream));
  EXPECT_FALSE(stark_locality(zipf)) << describe(zipf);
  EXPECT_LT(zipf.rate_drop, 1.5) << describe(zipf);
}

TEST(OltpWorkload, FrozenPagesMoreThan40PercentAtTheMidpointAnd60AtFourFifths) {
  const std::vector<uint32_t>& pages = default_writes();
  const double half = frozen_share(pages, pages.size() / 2);
  const double four_fifths = frozen_share(pages, pages.size() * 4 / 5);
  EXPECT_GT(half, 0.4);
  EXPECT_GT(four_fifths, 0.6);
  std::cout << "frozen pages: " << half << " at 1/2, " << four_fifths << " at 4/5\n";

  // Inserted pages that never freeze stay warm and are touched again.
  StreamConfig thawed = oltp_stream();
  thawed.frozen_fraction = 0.0;
  const std::vector<uint32_t> warm = write_pages(thawed, phase_writes(thawed));
  EXPECT_LT(frozen_share(warm, warm.size() / 2), 0.4);
  EXPECT_LT(frozen_share(warm, warm.size() * 4 / 5), 0.6);
}

// ---- Growth, reads, determinism -----------------------------------------------------------------

TEST(OltpWorkload, TheDatabaseGrowsAtItsEndToTheFinalSizeAndStops) {
  const StreamConfig stream = oltp_stream();
  const uint64_t writes = phase_writes(stream);
  const uint64_t initial = initial_pages(stream);
  SyntheticGenerator generator(stream, 2 * kDatabasePages * kPage / kSector, kSector, kSeed);
  const OltpDatabase& database = *generator.oltp_database();
  EXPECT_EQ(database.size(), initial);
  uint64_t appended = initial;
  const auto run = [&](uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t page = generator.next()->first_sector * kSector / kPage;
      ASSERT_LE(page, appended) << "a page beyond the database end";
      if (page == appended) ++appended;  // an insert appends the next page
      ASSERT_EQ(database.size(), appended);
    }
  };
  run(writes / 2);
  // Inserts are a binomial share of the writes: half the growth at the midpoint.
  const double sigma = std::sqrt(static_cast<double>(writes / 2) * stream.insert_fraction);
  EXPECT_NEAR(static_cast<double>(database.size()),
              static_cast<double>(initial + (kDatabasePages - initial) / 2), 5.0 * sigma);
  run(writes / 2 + writes / 5);
  EXPECT_EQ(database.size(), kDatabasePages);  // reached, and stopped there
  EXPECT_GT(database.frozen_pages(), 0u);
}

TEST(OltpWorkload, ReadsAndTrimsGoToTheCurrentDatabaseUniformly) {
  StreamConfig stream = oltp_stream();
  stream.read_fraction = 0.5;
  stream.trim_fraction = 0.1;
  stream.db_initial_bytes = 1000 * kPage;
  SyntheticGenerator generator(stream, 1024 * kDatabasePages * kPage / kSector, kSector, kSeed);
  std::map<HostOp, uint64_t> lower_half, all;
  for (int i = 0; i < 40'000; ++i) {
    const HostRequest request = *generator.next();
    const uint64_t page = request.first_sector * kSector / kPage;
    const uint64_t size = generator.oltp_database()->size();
    ASSERT_LT(page, size);
    lower_half[request.op] += 2 * page < size;
    ++all[request.op];
  }
  // Reads and trims cover the database of their time evenly: half of them its lower half.
  for (const HostOp op : {HostOp::kRead, HostOp::kTrim}) {
    const double n = static_cast<double>(all[op]);
    ASSERT_GT(n, 1000.0);
    EXPECT_NEAR(static_cast<double>(lower_half[op]), n / 2, 5.0 * std::sqrt(n / 4));
  }
}

TEST(OltpWorkload, SameSeedSameStreamOtherSeedOther) {
  const StreamConfig stream = oltp_stream();
  const std::vector<uint32_t> a = write_pages(stream, 20'000), b = write_pages(stream, 20'000);
  const std::vector<uint32_t> c = write_pages(stream, 20'000, kSeed + 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

}  // namespace
}  // namespace ssdvp::host
