// RQFTL's long-term cache (firmware/ftl/map/rqftl_ltc.c) against a reference map: transferred
// ranges answer every LPN they cover and nothing else, writes invalidate what they overlap so
// nothing stale is ever served, one-handed CLOCK evicts unused ranges first, and transfers that
// break the rules are refused with the fraction unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "tb/tests/rqrmi/range_arrays.h"

extern "C" {
#include "ftl/map/rqftl_ltc.h"
#include "lib/arena.h"
}

namespace {

constexpr uint32_t kEntriesPerTp = 64;
constexpr uint32_t kUnmapped = 0xFFFFFFFFu;

// A root and 8 submodels, trained once on 1024 samples each.
rqrmi_train_config_t small_model() { return ssdvp::test::train_config({8}, 1024); }

// An LTC whose pool holds every slot at `capacity` ranges, and a little more.
struct Ltc {
  std::vector<uint64_t> memory;
  arena_t arena{};
  std::vector<uint64_t> cells;
  rqftl_pool_t pool{};
  rqftl_ltc_t ltc{};
  uint32_t capacity;

  Ltc(uint32_t fractions, uint32_t capacity, uint32_t written_capacity = 64)
      : cells((fractions + 1) * rqftl_ltc_slot_cells(capacity) + 16), capacity(capacity) {
    const rqrmi_train_config_t train = small_model();
    const size_t bytes = rqftl_ltc_bytes(fractions, &train, written_capacity);
    memory.resize(bytes / 8 + 1024);
    arena_init(&arena, memory.data(), static_cast<uint32_t>(memory.size() * 8), 0);
    rqftl_pool_init(&pool, cells.data(), static_cast<uint32_t>(cells.size()), &Ltc::moved, this);
    EXPECT_TRUE(rqftl_ltc_init(&ltc, fractions, kEntriesPerTp, &train, written_capacity, &pool,
                               kOwnerBase, &arena));
    EXPECT_EQ(arena.used, bytes) << "rqftl_ltc_bytes counts what init takes";
  }

  static constexpr uint32_t kOwnerBase = 100;

  static void moved(void* context, uint32_t owner, uint32_t index) {
    rqftl_ltc_moved(&static_cast<Ltc*>(context)->ltc, owner - kOwnerBase, index);
  }
};

// The ranges of the given TPs in `truth` (LPN -> VPN): runs of consecutive LPNs mapped to
// consecutive VPNs, cut at RQFTL_RANGE_MAX_PAGES.
void ranges_of(const std::vector<uint32_t>& truth, const std::vector<uint32_t>& tps,
               std::vector<rqrmi_range_t>* ranges, std::vector<uint32_t>* vpns) {
  ranges->clear();
  vpns->clear();
  for (uint32_t tp : tps) {
    for (uint32_t lpn = tp * kEntriesPerTp; lpn < (tp + 1) * kEntriesPerTp; ++lpn) {
      if (truth[lpn] == kUnmapped) continue;
      const bool extends = !ranges->empty() && ranges->back().hi + 1 == lpn &&
                           lpn % kEntriesPerTp != 0 &&
                           vpns->back() + (lpn - ranges->back().lo) == truth[lpn] &&
                           lpn - ranges->back().lo < RQFTL_RANGE_MAX_PAGES;
      if (extends) {
        ranges->back().hi = lpn;
      } else {
        ranges->push_back({lpn, lpn});
        vpns->push_back(truth[lpn]);
      }
    }
  }
}

// The TPs of fraction f among the first `tp_count`.
std::vector<uint32_t> tps_of(const rqftl_ltc_t& ltc, uint32_t f, uint32_t tp_count) {
  std::vector<uint32_t> tps;
  for (uint32_t tp = 0; tp < tp_count; ++tp) {
    if (rqftl_ltc_fraction_of_tp(&ltc, tp) == f) tps.push_back(tp);
  }
  return tps;
}

TEST(RqftlLtc, TransferredRangesAnswerEveryLpnTheyCoverAndNothingElse) {
  Ltc cache(4, 512);
  constexpr uint32_t kTps = 32;
  std::vector<uint32_t> truth(kTps * kEntriesPerTp, kUnmapped);
  std::mt19937 rng(3);
  uint32_t next_vpn = 1000;
  for (uint32_t lpn = 0; lpn < truth.size(); ++lpn) {
    if (rng() % 5 == 0) continue;                    // a gap
    if (rng() % 4 == 0) next_vpn += 1 + rng() % 50;  // a run ends
    truth[lpn] = next_vpn++;
  }
  std::vector<rqrmi_range_t> ranges;
  std::vector<uint32_t> vpns;
  for (uint32_t f = 0; f < 4; ++f) {
    const std::vector<uint32_t> tps = tps_of(cache.ltc, f, kTps);
    ASSERT_FALSE(tps.empty()) << "the hash spreads TPs over every fraction";
    ranges_of(truth, tps, &ranges, &vpns);
    ASSERT_EQ(rqftl_ltc_transfer(&cache.ltc, f, cache.capacity, ranges.data(), vpns.data(),
                                 static_cast<uint32_t>(ranges.size()), tps.data(),
                                 static_cast<uint32_t>(tps.size())),
              RQRMI_OK);
  }
  uint32_t mapped = 0;
  for (uint32_t lpn = 0; lpn < truth.size(); ++lpn) {
    uint32_t vpn = kUnmapped;
    const bool hit = rqftl_ltc_lookup(&cache.ltc, lpn, &vpn);
    ASSERT_EQ(hit, truth[lpn] != kUnmapped) << "LPN " << lpn;
    if (hit) {
      EXPECT_EQ(vpn, truth[lpn]) << "LPN " << lpn;
      ++mapped;
    }
  }
  EXPECT_EQ(rqftl_ltc_valid_lpns(&cache.ltc), mapped);
  EXPECT_EQ(cache.ltc.stats.evicted, 0u);
}

// Writes, transfers and lookups at random over 128 TPs: a lookup never answers a stale VPN, and
// right after a transfer that evicted nothing every LPN it brought answers. With a small
// capacity CLOCK evicts and no fraction ever holds more ranges than its capacity.
void run_reference(uint32_t fractions, uint32_t capacity, uint32_t seed, bool expect_evictions) {
  Ltc cache(fractions, capacity);
  constexpr uint32_t kTps = 128;
  std::vector<uint32_t> truth(kTps * kEntriesPerTp, kUnmapped);
  std::mt19937 rng(seed);
  uint32_t next_vpn = 1;
  std::vector<rqrmi_range_t> ranges;
  std::vector<uint32_t> vpns;
  uint64_t hits = 0;
  for (uint32_t step = 0; step < 4000; ++step) {
    const uint32_t op = rng() % 10;
    if (op < 4) {  // a write of 1..32 LPNs, programmed in order
      const uint32_t first = rng() % truth.size();
      const uint32_t length = 1 + rng() % 32;
      for (uint32_t lpn = first; lpn < std::min<uint32_t>(first + length, truth.size()); ++lpn) {
        truth[lpn] = next_vpn++;
        rqftl_ltc_invalidate(&cache.ltc, lpn);
      }
      next_vpn += rng() % 3;
    } else if (op < 6) {  // a transfer of some TPs of one fraction, as the STC holds them now
      const uint32_t f = rng() % fractions;
      std::vector<uint32_t> tps;
      for (uint32_t tp : tps_of(cache.ltc, f, kTps)) {
        if (rng() % 4 == 0) tps.push_back(tp);
      }
      ranges_of(truth, tps, &ranges, &vpns);
      if (ranges.size() > capacity) continue;
      const uint64_t evicted = cache.ltc.stats.evicted;
      ASSERT_EQ(rqftl_ltc_transfer(&cache.ltc, f, cache.capacity, ranges.data(), vpns.data(),
                                   static_cast<uint32_t>(ranges.size()), tps.data(),
                                   static_cast<uint32_t>(tps.size())),
                RQRMI_OK);
      ASSERT_LE(rqftl_ltc_fraction(&cache.ltc, f)->count, capacity);
      if (cache.ltc.stats.evicted == evicted) {
        for (const rqrmi_range_t& range : ranges) {
          for (uint32_t lpn = range.lo; lpn <= range.hi; ++lpn) {
            uint32_t vpn = kUnmapped;
            ASSERT_TRUE(rqftl_ltc_lookup(&cache.ltc, lpn, &vpn)) << "LPN " << lpn;
            ASSERT_EQ(vpn, truth[lpn]);
          }
        }
      }
    } else {  // lookups, and the kept totals against a count over the fractions
      uint32_t valid_ranges = 0;
      uint32_t valid_lpns = 0;
      for (uint32_t f = 0; f < fractions; ++f) {
        const rqftl_slot_t* slot = rqftl_ltc_fraction(&cache.ltc, f);
        for (uint32_t i = 0; i < slot->count; ++i) {
          if (slot->valid[i / 32] & (1u << (i % 32))) {
            ++valid_ranges;
            valid_lpns += slot->ranges[i].hi - slot->ranges[i].lo + 1;
          }
        }
      }
      ASSERT_EQ(rqftl_ltc_valid_ranges(&cache.ltc), valid_ranges) << "at step " << step;
      ASSERT_EQ(rqftl_ltc_valid_lpns(&cache.ltc), valid_lpns) << "at step " << step;
      for (uint32_t n = 0; n < 16; ++n) {
        const uint32_t lpn = rng() % truth.size();
        uint32_t vpn = kUnmapped;
        if (rqftl_ltc_lookup(&cache.ltc, lpn, &vpn)) {
          ASSERT_EQ(vpn, truth[lpn]) << "stale mapping served for LPN " << lpn;
          ++hits;
        }
      }
    }
  }
  EXPECT_GT(hits, 1000u);
  EXPECT_EQ(cache.ltc.stats.train_failures, 0u);
  EXPECT_GT(cache.ltc.stats.invalidations, 0u);
  if (expect_evictions) {
    EXPECT_GT(cache.ltc.stats.evicted, 0u);
  } else {
    EXPECT_EQ(cache.ltc.stats.evicted, 0u);
  }
}

TEST(RqftlLtc, NeverServesAStaleMappingOverLongRandomSequences) { run_reference(6, 4096, 7, false); }

TEST(RqftlLtc, NeverServesAStaleMappingWhileClockEvicts) { run_reference(3, 40, 11, true); }

// One fraction of 8 ranges. A transfer raises its ranges' access bits; the next transfer that
// needs room clears them all in one turn of the hand, then evicts from where it started; ranges
// looked up since are passed over (losing their bit) and the hand evicts the next ones.
TEST(RqftlLtc, ClockEvictsRangesNotUsedSinceItsLastTurnFirst) {
  Ltc cache(1, 8);
  rqftl_ltc_t* ltc = &cache.ltc;
  auto transfer = [&](uint32_t tp, uint32_t count) {
    std::vector<rqrmi_range_t> ranges;
    std::vector<uint32_t> vpns;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t lo = tp * kEntriesPerTp + i * 4;
      ranges.push_back({lo, lo + 1});
      vpns.push_back(10000 * (tp + 1) + i * 100);
    }
    ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, cache.capacity, ranges.data(), vpns.data(), count, &tp, 1),
              RQRMI_OK);
  };
  auto hits = [&](uint32_t tp, uint32_t range) {
    uint32_t vpn = 0;
    return rqftl_ltc_lookup(ltc, tp * kEntriesPerTp + range * 4, &vpn);
  };
  transfer(0, 8);
  transfer(1, 2);
  EXPECT_EQ(ltc->stats.evicted, 2u);
  EXPECT_FALSE(hits(0, 0));
  EXPECT_FALSE(hits(0, 1));
  // The hand stopped at TP 0's range 2, every bit of TP 0 cleared: ranges 2 and 3 used since.
  EXPECT_TRUE(hits(0, 2));
  EXPECT_TRUE(hits(0, 3));
  transfer(2, 2);
  EXPECT_EQ(ltc->stats.evicted, 4u);
  EXPECT_TRUE(hits(0, 2)) << "used since the hand's turn: passed over";
  EXPECT_TRUE(hits(0, 3));
  EXPECT_FALSE(hits(0, 4));
  EXPECT_FALSE(hits(0, 5));
  EXPECT_TRUE(hits(0, 6));
  EXPECT_TRUE(hits(1, 0));
  EXPECT_TRUE(hits(2, 1));
  EXPECT_EQ(rqftl_ltc_valid_ranges(ltc), 8u);
}

// A TP transferred again replaces what the fraction held of it; other TPs stay.
TEST(RqftlLtc, ATpTransferredAgainReplacesItsRanges) {
  Ltc cache(1, 64);
  const uint32_t tps[2] = {3, 5};
  const rqrmi_range_t first[2] = {{3 * kEntriesPerTp, 3 * kEntriesPerTp + 9},
                                  {5 * kEntriesPerTp + 2, 5 * kEntriesPerTp + 2}};
  const uint32_t first_vpns[2] = {500, 900};
  ASSERT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, first, first_vpns, 2, tps, 2), RQRMI_OK);
  const rqrmi_range_t again[1] = {{3 * kEntriesPerTp + 5, 3 * kEntriesPerTp + 6}};
  const uint32_t again_vpns[1] = {7000};
  ASSERT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, again, again_vpns, 1, tps, 1), RQRMI_OK);
  uint32_t vpn = 0;
  EXPECT_FALSE(rqftl_ltc_lookup(&cache.ltc, 3 * kEntriesPerTp, &vpn)) << "TP 3's old range gone";
  ASSERT_TRUE(rqftl_ltc_lookup(&cache.ltc, 3 * kEntriesPerTp + 6, &vpn));
  EXPECT_EQ(vpn, 7001u);
  ASSERT_TRUE(rqftl_ltc_lookup(&cache.ltc, 5 * kEntriesPerTp + 2, &vpn));
  EXPECT_EQ(vpn, 900u);
  EXPECT_EQ(cache.ltc.stats.dropped, 1u);
}

TEST(RqftlLtc, TransfersBreakingTheRulesAreRefusedAndChangeNothing) {
  Ltc cache(2, 4);
  const uint32_t tp = tps_of(cache.ltc, 0, 16).front();
  const uint32_t other = tps_of(cache.ltc, 1, 16).front();
  const uint32_t base = tp * kEntriesPerTp;
  const rqrmi_range_t good[1] = {{base, base + 3}};
  const uint32_t vpns[5] = {100, 200, 300, 400, 500};
  ASSERT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, good, vpns, 1, &tp, 1), RQRMI_OK);
  const rqrmi_range_t overlapping[2] = {{base, base + 3}, {base + 3, base + 5}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, overlapping, vpns, 2, &tp, 1),
            RQRMI_ERR_RANGES_OVERLAP);
  const rqrmi_range_t unsorted[2] = {{base + 8, base + 9}, {base, base + 3}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, unsorted, vpns, 2, &tp, 1),
            RQRMI_ERR_RANGES_UNSORTED);
  const rqrmi_range_t crossing[1] = {{base + kEntriesPerTp - 2, base + kEntriesPerTp + 1}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, crossing, vpns, 1, &tp, 1),
            RQRMI_ERR_RANGES_OVERLAP);
  const rqrmi_range_t too_long[1] = {{base, base + RQFTL_RANGE_MAX_PAGES}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, too_long, vpns, 1, &tp, 1),
            RQRMI_ERR_RANGE_INVERTED);
  const rqrmi_range_t five[5] = {{base, base}, {base + 2, base + 2}, {base + 4, base + 4},
                                 {base + 6, base + 6}, {base + 8, base + 8}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, five, vpns, 5, &tp, 1), RQRMI_ERR_RANGE_COUNT);
  const rqrmi_range_t elsewhere[1] = {{other * kEntriesPerTp, other * kEntriesPerTp}};
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, elsewhere, vpns, 1, &other, 1),
            RQRMI_ERR_RANGES_UNSORTED)
      << "TP " << other << " belongs to fraction 1";
  EXPECT_EQ(rqftl_ltc_transfer(&cache.ltc, 0, cache.capacity, elsewhere, vpns, 1, &tp, 1),
            RQRMI_ERR_RANGES_OVERLAP)
      << "a range outside the TPs it replaces";
  uint32_t vpn = 0;
  ASSERT_TRUE(rqftl_ltc_lookup(&cache.ltc, base + 2, &vpn));
  EXPECT_EQ(vpn, 102u);
  EXPECT_EQ(cache.ltc.stats.transfers, 1u);
}

// Stages a transfer of ranges into fraction f, 64 ranges large, and begins it.
void begin(rqftl_ltc_t* ltc, uint32_t f, const std::vector<rqrmi_range_t>& ranges,
           const std::vector<uint32_t>& vpns, const std::vector<uint32_t>& tps) {
  const uint32_t count = static_cast<uint32_t>(ranges.size());
  ASSERT_TRUE(rqftl_ltc_prepare(ltc, 64));
  std::copy(ranges.begin(), ranges.end(), rqftl_ltc_staged_ranges(ltc, count));
  std::copy(vpns.begin(), vpns.end(), rqftl_ltc_staged_vpns(ltc, count));
  ASSERT_EQ(rqftl_ltc_transfer_begin(ltc, f, count, tps.data(), static_cast<uint32_t>(tps.size())),
            RQRMI_OK);
}

// Fraction 0 gets LPNs 0-9 of TPs 2 and 7 (VPNs 100 and 200 on), then a transfer of LPNs 20-29
// of TP 2 (VPN 300 on) begins.
void transfer_then_begin_again(rqftl_ltc_t* ltc) {
  const uint32_t a = 2 * kEntriesPerTp;
  const uint32_t b = 7 * kEntriesPerTp;
  const uint32_t first_tps[2] = {2, 7};
  const rqrmi_range_t first[2] = {{a, a + 9}, {b, b + 9}};
  const uint32_t first_vpns[2] = {100, 200};
  ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, 64, first, first_vpns, 2, first_tps, 2), RQRMI_OK);
  begin(ltc, 0, {{a + 20, a + 29}}, {300}, {2});
}

// While a transfer's model trains, lookups see the old fraction (minus what the transfer
// replaces); writes then invalidate the old fraction at once and the new one at its swap, so
// neither an old range nor an incoming one serves a stale mapping afterwards.
TEST(RqftlLtc, WritesRacingATransferAreInvalidatedInTheNewFraction) {
  Ltc cache(1, 64);
  rqftl_ltc_t* ltc = &cache.ltc;
  const uint32_t a = 2 * kEntriesPerTp;
  const uint32_t b = 7 * kEntriesPerTp;
  ASSERT_NO_FATAL_FAILURE(transfer_then_begin_again(ltc));
  uint32_t vpn = 0;
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, a + 1, &vpn)) << "TP 2's old range is replaced";
  ASSERT_TRUE(rqftl_ltc_lookup(ltc, b + 1, &vpn)) << "the old fraction serves meanwhile";
  EXPECT_EQ(vpn, 201u);
  rqftl_ltc_invalidate(ltc, b + 3);   // kept range
  rqftl_ltc_invalidate(ltc, a + 25);  // incoming range
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, b + 4, &vpn)) << "invalid in the old fraction at once";
  rqftl_ltc_transfer_train(ltc);
  ASSERT_TRUE(rqftl_ltc_transfer_end(ltc));
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, b + 4, &vpn));
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, a + 21, &vpn)) << "the racing write reached the new range";
  EXPECT_EQ(ltc->stats.raced, 2u);
  EXPECT_EQ(ltc->transferring, RQFTL_LTC_IDLE);
  // A later transfer of the same fraction logs nothing from before.
  begin(ltc, 0, {{b + 40, b + 41}}, {900}, {7});
  rqftl_ltc_transfer_train(ltc);
  ASSERT_TRUE(rqftl_ltc_transfer_end(ltc));
  ASSERT_TRUE(rqftl_ltc_lookup(ltc, b + 41, &vpn));
  EXPECT_EQ(vpn, 901u);
}

// More racing writes than the log holds abandon the transfer: the old fraction stays, without
// the ranges the transfer replaced and those the writes hit.
TEST(RqftlLtc, ATransferRacedByMoreWritesThanTheLogHoldsIsAbandoned) {
  Ltc cache(1, 64, 2);
  rqftl_ltc_t* ltc = &cache.ltc;
  const uint32_t a = 2 * kEntriesPerTp;
  const uint32_t b = 7 * kEntriesPerTp;
  ASSERT_NO_FATAL_FAILURE(transfer_then_begin_again(ltc));
  rqftl_ltc_invalidate(ltc, a + 21);
  rqftl_ltc_invalidate(ltc, a + 22);
  rqftl_ltc_invalidate(ltc, a + 23);
  rqftl_ltc_transfer_train(ltc);
  EXPECT_FALSE(rqftl_ltc_transfer_end(ltc));
  EXPECT_EQ(ltc->stats.abandoned, 1u);
  uint32_t vpn = 0;
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, a + 21, &vpn));
  EXPECT_FALSE(rqftl_ltc_lookup(ltc, a + 1, &vpn));
  ASSERT_TRUE(rqftl_ltc_lookup(ltc, b + 9, &vpn));
  EXPECT_EQ(vpn, 209u);
}

// A finder stands for the engine: every lookup goes through it, with a generation that changes
// at each swap.
TEST(RqftlLtc, LookupsGoThroughTheFinderWithTheModelsGeneration) {
  Ltc cache(1, 64);
  rqftl_ltc_t* ltc = &cache.ltc;
  std::vector<uint32_t> generations;
  ltc->finder = [](void* context, const rqrmi_model_t* model, const rqrmi_range_t* ranges,
                   uint32_t generation, uint32_t key) {
    static_cast<std::vector<uint32_t>*>(context)->push_back(generation);
    return rqrmi_lookup(model, ranges, key);
  };
  ltc->finder_context = &generations;
  const uint32_t tp = 3;
  const rqrmi_range_t range[1] = {{3 * kEntriesPerTp, 3 * kEntriesPerTp + 4}};
  const uint32_t vpn0[1] = {50};
  ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, 64, range, vpn0, 1, &tp, 1), RQRMI_OK);
  uint32_t vpn = 0;
  ASSERT_TRUE(rqftl_ltc_lookup(ltc, 3 * kEntriesPerTp + 2, &vpn));
  EXPECT_EQ(vpn, 52u);
  ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, 64, range, vpn0, 1, &tp, 1), RQRMI_OK);
  ASSERT_TRUE(rqftl_ltc_lookup(ltc, 3 * kEntriesPerTp + 2, &vpn));
  ASSERT_EQ(generations.size(), 2u);
  EXPECT_NE(generations[0], generations[1]);
}

TEST(RqftlLtc, ABadConfigurationOrTooSmallAnArenaFailsInit) {
  rqrmi_train_config_t train = small_model();
  std::vector<uint64_t> memory(1 << 16);
  arena_t arena{};
  rqftl_pool_t pool{};
  rqftl_ltc_t ltc{};
  arena_init(&arena, memory.data(), static_cast<uint32_t>(memory.size() * 8), 0);
  EXPECT_FALSE(rqftl_ltc_init(&ltc, 0, kEntriesPerTp, &train, 8, &pool, 0, &arena))
      << "no fraction";
  EXPECT_FALSE(rqftl_ltc_init(&ltc, 2, kEntriesPerTp, &train, 0, &pool, 0, &arena))
      << "no write log";
  train.samples = 1;
  EXPECT_FALSE(rqftl_ltc_init(&ltc, 2, kEntriesPerTp, &train, 8, &pool, 0, &arena))
      << "bad training";
  train = small_model();
  arena_init(&arena, memory.data(), 4096, 0);
  EXPECT_FALSE(rqftl_ltc_init(&ltc, 12, kEntriesPerTp, &train, 8, &pool, 0, &arena))
      << "too small";
}

// A fraction's capacity follows the spare's from one transfer to the next: a smaller one evicts
// by CLOCK, a larger one keeps everything; the pool gets the old fraction's cells back.
TEST(RqftlLtc, AFractionTakesTheCapacityItsTransferPrepared) {
  Ltc cache(1, 16);
  rqftl_ltc_t* ltc = &cache.ltc;
  std::vector<rqrmi_range_t> ranges;
  std::vector<uint32_t> vpns;
  for (uint32_t i = 0; i < 12; ++i) {
    ranges.push_back({3 * kEntriesPerTp + 4 * i, 3 * kEntriesPerTp + 4 * i + 1});
    vpns.push_back(1000 + 10 * i);
  }
  const uint32_t tp = 3;
  ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, 16, ranges.data(), vpns.data(), 12, &tp, 1), RQRMI_OK);
  EXPECT_EQ(rqftl_ltc_cells(ltc), rqftl_ltc_slot_cells(16));
  EXPECT_EQ(cache.pool.live, rqftl_ltc_slot_cells(16)) << "the old fraction's extent is free";
  const uint32_t other = 5;
  const rqrmi_range_t one[1] = {{5 * kEntriesPerTp, 5 * kEntriesPerTp + 3}};
  const uint32_t one_vpn[1] = {7};
  ASSERT_EQ(rqftl_ltc_transfer(ltc, 0, 8, one, one_vpn, 1, &other, 1), RQRMI_OK);
  EXPECT_EQ(rqftl_ltc_fraction(ltc, 0)->capacity, 8u);
  EXPECT_EQ(rqftl_ltc_valid_ranges(ltc), 8u) << "12 kept and 1 in, 5 evicted";
  EXPECT_EQ(ltc->stats.evicted, 5u);
  EXPECT_EQ(cache.pool.live, rqftl_ltc_slot_cells(8));
  EXPECT_EQ(rqftl_ltc_transfer(ltc, 0, 100000, one, one_vpn, 1, &other, 1), RQRMI_ERR_WORKSPACE)
      << "more than the pool holds";
  EXPECT_EQ(rqftl_ltc_valid_ranges(ltc), 8u) << "the fraction is unchanged";
}

}  // namespace
