// RQFTL's short-term cache (firmware/ftl/map/rqftl_stc.c) against a reference map and a model of
// the translation pages in flash: every answer is the latest mapping, evicted dirty lines carry
// exactly what flash lacks, runs coalesce, a load keeps the patches over the TP, and the line
// limit, the LRU order, the transfer marks and the update counter behave as section 4.3 and 4.7
// say. The runs live in a pool of their own here (the scheme shares it with the long-term cache).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "ftl/map/rqftl_stc.h"
#include "lib/arena.h"
}

namespace {

constexpr uint32_t kEntries = 64;
constexpr uint32_t kTps = 48;

struct Stc {
  std::vector<uint64_t> memory;
  arena_t arena{};
  scheme_budget_t budget{};
  std::vector<uint64_t> cells;
  rqftl_pool_t pool{};
  rqftl_stc_t stc{};
  // Flash's TPs, kept up to date by the evictions.
  std::vector<uint32_t> flash = std::vector<uint32_t>(kTps * kEntries, VPN_UNMAPPED);
  uint32_t dirty_evictions = 0;

  Stc(uint32_t lines, uint32_t pool_bytes) : cells(pool_bytes / 8) {
    memory.resize(1 << 15);
    arena_init(&arena, memory.data(), static_cast<uint32_t>(memory.size() * 8), 0);
    budget = {&arena, static_cast<uint32_t>(memory.size() * 8), 0};
    EXPECT_GE(cells.size(), rqftl_stc_min_cells(kEntries));
    rqftl_pool_init(&pool, cells.data(), static_cast<uint32_t>(cells.size()), &Stc::moved, this);
    EXPECT_TRUE(rqftl_stc_init(&stc, lines, kEntries, &pool, &budget, &Stc::evicted, this));
    EXPECT_EQ(budget.used, rqftl_stc_slot_bytes(lines));
  }

  static void moved(void* context, uint32_t owner, uint32_t index) {
    rqftl_stc_moved(&static_cast<Stc*>(context)->stc, owner, index);
  }

  static void evicted(void* context, uint32_t tp, const rqftl_run_t* runs, uint32_t count,
                      bool whole) {
    Stc* self = static_cast<Stc*>(context);
    ++self->dirty_evictions;
    uint32_t* page = &self->flash[tp * kEntries];
    if (whole) {
      for (uint32_t i = 0; i < kEntries; ++i) page[i] = VPN_UNMAPPED;
    }
    for (uint32_t r = 0; r < count; ++r) {
      ASSERT_GT(runs[r].length, 0u);
      ASSERT_LE(runs[r].offset + runs[r].length, kEntries);
      if (r > 0) {
        ASSERT_GE(runs[r].offset, runs[r - 1].offset + runs[r - 1].length);
      }
      for (uint32_t i = 0; i < runs[r].length; ++i) {
        page[runs[r].offset + i] =
            runs[r].vpn == VPN_UNMAPPED ? VPN_UNMAPPED : runs[r].vpn + i;
      }
    }
  }

  // A lookup; on a miss the TP is loaded from flash and asked again, which must answer.
  uint32_t translate(uint32_t lpn) {
    uint32_t vpn = 0;
    rqftl_stc_answer_t answer = rqftl_stc_lookup(&stc, lpn, &vpn);
    if (answer == RQFTL_STC_MISS) {
      EXPECT_TRUE(rqftl_stc_load(&stc, lpn / kEntries, &flash[lpn / kEntries * kEntries]));
      answer = rqftl_stc_lookup(&stc, lpn, &vpn);
      EXPECT_NE(answer, RQFTL_STC_MISS) << "LPN " << lpn << " after its TP was loaded";
    }
    return answer == RQFTL_STC_MAPPED ? vpn : VPN_UNMAPPED;
  }
};

// Random writes (runs of consecutive VPNs, some trims), reads and flushes with few lines and a
// small pool, so that lines are evicted, extents grow and move to holes or the pool slides.
void run_reference(uint32_t lines, uint32_t pool_bytes, uint32_t seed) {
  Stc cache(lines, pool_bytes);
  std::vector<uint32_t> truth(kTps * kEntries, VPN_UNMAPPED);
  std::mt19937 rng(seed);
  uint32_t next_vpn = 100;
  for (uint32_t step = 0; step < 20000; ++step) {
    const uint32_t op = rng() % 10;
    const uint32_t lpn = rng() % truth.size();
    if (op < 4) {
      const uint32_t length = 1 + rng() % 12;
      const bool trim = rng() % 16 == 0;
      for (uint32_t l = lpn; l < std::min<uint32_t>(lpn + length, truth.size()); ++l) {
        truth[l] = trim ? VPN_UNMAPPED : next_vpn++;
        ASSERT_TRUE(rqftl_stc_write(&cache.stc, l, truth[l]));
      }
      next_vpn += rng() % 4;
    } else if (op < 9) {
      ASSERT_EQ(cache.translate(lpn), truth[lpn]) << "LPN " << lpn << " at step " << step;
    } else if (rng() % 50 == 0) {
      rqftl_stc_flush(&cache.stc, nullptr);
    } else {
      const uint32_t slot = rng() % lines;  // a transfer's mark, or an abandoned one's unmark
      if (rqftl_stc_tp(&cache.stc, slot) != SCHEME_NIL) {
        if (rng() % 4 == 0) {
          rqftl_stc_unmark(&cache.stc, slot);
        } else {
          rqftl_stc_mark(&cache.stc, slot);
        }
      }
    }
    ASSERT_LE(cache.stc.stats.lines, lines);
    if (step % 97 == 0) {
      // The unmarked lines' LPNs: a whole line's TP, a patch line's patched LPNs.
      uint32_t unmarked = 0;
      for (uint32_t slot = 0; slot < lines; ++slot) {
        if (rqftl_stc_tp(&cache.stc, slot) == SCHEME_NIL || rqftl_stc_marked(&cache.stc, slot)) {
          continue;
        }
        if (cache.stc.flags[slot] & RQFTL_STC_WHOLE) {
          unmarked += kEntries;
          continue;
        }
        for (uint32_t r = 0; r < rqftl_stc_run_count(&cache.stc, slot); ++r) {
          unmarked += rqftl_stc_runs(&cache.stc, slot)[r].length;
        }
      }
      ASSERT_EQ(cache.stc.stats.unmarked_lpns, unmarked) << "at step " << step;
    }
  }
  // Everything written reaches flash once every line is flushed.
  rqftl_stc_flush(&cache.stc, nullptr);
  for (uint32_t lpn = 0; lpn < truth.size(); ++lpn) {
    ASSERT_EQ(cache.flash[lpn], truth[lpn]) << "LPN " << lpn;
  }
  EXPECT_GT(cache.stc.stats.evictions, 100u);
  EXPECT_GT(cache.dirty_evictions, 0u);
  EXPECT_GT(cache.pool.compactions + cache.pool.holes_taken, 0u) << "lines moved in the pool";
  EXPECT_EQ(cache.stc.stats.cells, cache.pool.live) << "the lines' cells are the pool's";
}

TEST(RqftlStc, AnswersTheLatestMappingWithFewLinesAndASmallPool) { run_reference(6, 4096, 1); }

TEST(RqftlStc, AnswersTheLatestMappingWithManyLines) { run_reference(40, 16384, 2); }

// Many lines in a small pool: a new line's extent often needs other lines evicted first.
TEST(RqftlStc, AnswersTheLatestMappingWhenNewLinesEvictForPoolRoom) {
  run_reference(64, 4096, 3);
}

TEST(RqftlStc, ConsecutiveWritesCoalesceIntoOneRun) {
  Stc cache(4, 4096);
  for (uint32_t i = 0; i < 20; ++i) ASSERT_TRUE(rqftl_stc_write(&cache.stc, 70 + i, 500 + i));
  const uint32_t slot = rqftl_stc_line_of(&cache.stc, 1);
  ASSERT_NE(slot, SCHEME_NIL);
  ASSERT_EQ(rqftl_stc_run_count(&cache.stc, slot), 1u);
  const rqftl_run_t run = rqftl_stc_runs(&cache.stc, slot)[0];
  EXPECT_EQ(run.offset, 6u);
  EXPECT_EQ(run.length, 20u);
  EXPECT_EQ(run.vpn, 500u);
  // One LPN in the middle rewritten: three runs; back where it was: one again.
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 80, 9000));
  EXPECT_EQ(rqftl_stc_run_count(&cache.stc, slot), 3u);
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 80, 510));
  EXPECT_EQ(rqftl_stc_run_count(&cache.stc, slot), 1u);
  uint32_t vpn = 0;
  EXPECT_EQ(rqftl_stc_lookup(&cache.stc, 69, &vpn), RQFTL_STC_MISS) << "a patch line's gap";
}

TEST(RqftlStc, ALoadKeepsThePatchesOverTheTranslationPage) {
  Stc cache(4, 4096);
  for (uint32_t i = 0; i < kEntries; ++i) cache.flash[2 * kEntries + i] = 1000 + i;
  cache.flash[2 * kEntries + 10] = VPN_UNMAPPED;
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 2 * kEntries + 5, 77));
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 2 * kEntries + 20, VPN_UNMAPPED));
  const uint32_t slot = rqftl_stc_line_of(&cache.stc, 2);
  ASSERT_TRUE(rqftl_stc_load(&cache.stc, 2, &cache.flash[2 * kEntries]));
  ASSERT_EQ(rqftl_stc_line_of(&cache.stc, 2), slot);
  // Runs: 0-4, 5 (77), 6-9, 11-19, 21-63.
  EXPECT_EQ(rqftl_stc_run_count(&cache.stc, slot), 5u);
  EXPECT_EQ(cache.translate(2 * kEntries + 5), 77u);
  EXPECT_EQ(cache.translate(2 * kEntries + 6), 1006u);
  EXPECT_EQ(cache.translate(2 * kEntries + 10), VPN_UNMAPPED);
  EXPECT_EQ(cache.translate(2 * kEntries + 20), VPN_UNMAPPED);
  EXPECT_EQ(cache.translate(2 * kEntries + 63), 1063u);
  // Still dirty: flushed whole.
  rqftl_stc_flush(&cache.stc, nullptr);
  EXPECT_EQ(cache.flash[2 * kEntries + 5], 77u);
  EXPECT_EQ(cache.flash[2 * kEntries + 20], VPN_UNMAPPED);
  EXPECT_EQ(cache.flash[2 * kEntries + 21], 1021u);
}

TEST(RqftlStc, TheLineLimitEvictsTheLeastRecentlyUsedLines) {
  Stc cache(8, 8192);
  for (uint32_t tp = 0; tp < 8; ++tp) ASSERT_TRUE(rqftl_stc_write(&cache.stc, tp * kEntries, tp));
  uint32_t vpn = 0;
  ASSERT_EQ(rqftl_stc_lookup(&cache.stc, 0, &vpn), RQFTL_STC_MAPPED);  // TP 0 used last
  rqftl_stc_set_line_limit(&cache.stc, 3);
  EXPECT_EQ(cache.stc.stats.lines, 3u);
  EXPECT_NE(rqftl_stc_line_of(&cache.stc, 0), SCHEME_NIL);
  EXPECT_NE(rqftl_stc_line_of(&cache.stc, 7), SCHEME_NIL);
  EXPECT_NE(rqftl_stc_line_of(&cache.stc, 6), SCHEME_NIL);
  EXPECT_EQ(rqftl_stc_line_of(&cache.stc, 1), SCHEME_NIL);
  EXPECT_EQ(cache.dirty_evictions, 5u);
  EXPECT_EQ(cache.flash[3 * kEntries], 3u) << "evicted dirty lines reach flash";
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 5 * kEntries, 55));
  EXPECT_EQ(cache.stc.stats.lines, 3u) << "a new line evicts within the limit";
}

TEST(RqftlStc, AWriteClearsTheTransferMarkAndCountsTheUpdatedTpsOnce) {
  Stc cache(8, 8192);
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 3, 30));
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 4, 31));
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, kEntries + 1, 40));
  EXPECT_EQ(cache.stc.stats.updated_tps, 2u);
  const uint32_t slot = rqftl_stc_line_of(&cache.stc, 0);
  rqftl_stc_mark(&cache.stc, slot);
  rqftl_stc_clear_updates(&cache.stc);
  EXPECT_EQ(cache.stc.stats.updated_tps, 0u);
  EXPECT_TRUE(rqftl_stc_marked(&cache.stc, slot));
  ASSERT_TRUE(rqftl_stc_write(&cache.stc, 5, 32));
  EXPECT_FALSE(rqftl_stc_marked(&cache.stc, slot));
  EXPECT_EQ(cache.stc.stats.updated_tps, 1u);
}

TEST(RqftlStc, NoLineOrTooSmallABudgetFailsInit) {
  std::vector<uint64_t> memory(1 << 12);
  arena_t arena{};
  arena_init(&arena, memory.data(), static_cast<uint32_t>(memory.size() * 8), 0);
  scheme_budget_t budget{&arena, static_cast<uint32_t>(memory.size() * 8), 0};
  std::vector<uint64_t> cells(1024);
  rqftl_pool_t pool{};
  rqftl_pool_init(&pool, cells.data(), 1024, nullptr, nullptr);
  rqftl_stc_t stc{};
  EXPECT_FALSE(rqftl_stc_init(&stc, 0, kEntries, &pool, &budget, nullptr, nullptr));
  budget.limit = 64;
  budget.used = 0;
  EXPECT_FALSE(rqftl_stc_init(&stc, 4, kEntries, &pool, &budget, nullptr, nullptr))
      << "over the budget";
}

}  // namespace
