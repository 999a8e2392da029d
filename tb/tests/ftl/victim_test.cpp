// GC victim policies (firmware/ftl/gc/): each against a reference model of its choice, written
// here from the policy's definition with plain containers, on random stripe states; 2R-FIFO's
// pointers and second chance on a scripted list; no 2R set ever mixes regions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <random>
#include <vector>

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/gc/victim.h"
#include "ftl/policy.h"
#include "lib/metrics.h"
}

namespace {

constexpr uint32_t kCWDP = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                           BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;

using Set = std::vector<uint32_t>;

struct VictimTest : ::testing::Test {
  // 2 units (channels) x 48 blocks of 8 pages (4 two-bit wordlines): 48 stripes of 16 pages.
  nand_geometry_t geometry{2, 1, 1, 1, 48, 8, 4096, 64, 2};
  alignas(8) uint8_t memory[65536];
  arena_t arena;
  block_manager_t blocks;
  boot_config_t boot{};
  fw_stats_t stats{};  // the policies register their counters here
  std::mt19937 rng{7};
  std::vector<uint32_t> opened;  // stripes in the order they opened (the FIFO's order)
  std::vector<uint32_t> filled;  // the cost-benefit clock when each stripe turned FULL
  uint32_t clock = 0;
  size_t scan = 0;  // the FIFO reference's cur_scan: a position in `opened`

  void start(const victim_policy_t& policy, float blk_util = 0.5f, float depth = 0.8f) {
    arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
    ASSERT_TRUE(block_init(&blocks, &geometry, false, kCWDP, BLOCK_BUILTIN_STREAMS, &arena));
    boot.ftl_gc_2r_fifo_blk_util = blk_util;
    boot.ftl_gc_2r_fifo_scan_depth = depth;
    policy_listeners_reset();
    metrics_init(&stats);
    policy_env_t env{&boot, &arena, nullptr, &blocks, nullptr, 1000, 1024};
    if (policy.init != nullptr) {
      ASSERT_TRUE(policy.init(&env));
    }
    if (policy.listener != nullptr) {
      ASSERT_TRUE(policy_listen(policy.listener));
    }
    filled.assign(blocks.stripe_count, 0);
  }
  void TearDown() override { policy_listeners_reset(); }

  // Opens a stripe for `stream` and takes every program of it, all pages valid and settled.
  uint32_t fill(block_stream_t stream) {
    const uint32_t first = block_alloc_wordline(&blocks, stream, 0);
    if (first == BLOCK_NONE) return BLOCK_NONE;
    const uint32_t stripe = block_stripe_of(&blocks, first);
    opened.push_back(stripe);
    uint32_t vpn = first;
    for (;;) {
      for (uint32_t i = 0; i < blocks.pages_per_program; ++i) {
        block_page_validate(&blocks, vpn + i);
        block_page_settled(&blocks, vpn + i);
      }
      if (blocks.streams[stream].open_stripe != stripe) break;
      vpn = block_alloc_wordline(&blocks, stream, 0);
    }
    filled[stripe] = ++clock;
    return stripe;
  }
  // Leaves `keep` of a full stripe's pages valid, chosen at random.
  void keep_valid(uint32_t stripe, uint32_t keep) {
    std::vector<uint32_t> valid;
    for (uint32_t p = 0; p < blocks.stripe_pages; ++p) {
      const uint32_t vpn = stripe * blocks.stripe_pages + p;
      if (block_page_valid(&blocks, vpn)) valid.push_back(vpn);
    }
    std::shuffle(valid.begin(), valid.end(), rng);
    for (size_t i = keep; i < valid.size(); ++i) block_page_invalidate(&blocks, valid[i]);
  }
  // Collects a stripe as GC would (its pages go elsewhere: here they are dropped) and erases it.
  void collect(uint32_t stripe) {
    block_mark_victim(&blocks, stripe);
    keep_valid(stripe, 0);
    for (uint32_t position = 0; position < blocks.unit_count; ++position) {
      if (block_member_vpn(&blocks, stripe, position) != BLOCK_NONE) {
        block_member_erased(&blocks, stripe, position, true);
      }
    }
    block_stripe_erased(&blocks, stripe);
    const auto at = std::find(opened.begin(), opened.end(), stripe);
    if (size_t(at - opened.begin()) < scan) --scan;  // the reference's cur_scan keeps its place
    opened.erase(at);
    if (scan == opened.size()) scan = 0;  // past the tail: the head is next, whatever joins
  }
  uint32_t kept(uint32_t stripe) const { return block_stripe_kept_pages(&blocks, stripe); }
  bool frees(uint32_t stripe) const {
    return block_collectable(&blocks, stripe) && kept(stripe) < blocks.stripe_pages;
  }
  Set select(const victim_policy_t& policy) {
    victim_choice_t choice{};
    choice.stream = BLOCK_STREAM_HOST;
    if (!policy.select(&blocks, &choice)) return {};
    // GC takes no set whose first victim would free nothing (gc.c policy_victim).
    if (!frees(choice.stripes[0])) return {};
    return Set(choice.stripes, choice.stripes + choice.count);
  }
  // Random states: stripes filled by the host or GC stream, random utilisation, some collected.
  void churn(uint32_t rounds) {
    std::uniform_int_distribution<uint32_t> percent(0, 99);
    for (uint32_t r = 0; r < rounds; ++r) {
      if (blocks.free_stripe_count > 2 && percent(rng) < 70) {
        const uint32_t stripe =
            fill(percent(rng) < 60 ? BLOCK_STREAM_HOST : BLOCK_STREAM_GC);
        if (stripe != BLOCK_NONE) {
          keep_valid(stripe, std::uniform_int_distribution<uint32_t>(0, 16)(rng) *
                                 blocks.stripe_pages / 16);
        }
      } else {
        std::vector<uint32_t> full;
        for (uint32_t s = 0; s < blocks.stripe_count; ++s)
          if (block_collectable(&blocks, s)) full.push_back(s);
        if (!full.empty()) collect(full[rng() % full.size()]);
      }
    }
  }

  // ---- The reference models -----------------------------------------------------------------

  Set greedy_reference() const {
    uint32_t best = BLOCK_NONE;
    for (uint32_t s = 0; s < blocks.stripe_count; ++s)
      if (frees(s) && (best == BLOCK_NONE || kept(s) < kept(best))) best = s;
    return best == BLOCK_NONE ? Set{} : Set{best};
  }
  // Algorithm 1: more victims of the first's region, fewest valid first, until the set's
  // invalid pages make a whole stripe.
  Set merge_reference(uint32_t first) const {
    Set set{first};
    uint32_t freed = blocks.stripe_pages - kept(first);
    Set others;
    for (uint32_t s = 0; s < blocks.stripe_count; ++s)
      if (s != first && frees(s) && blocks.stripes[s].stream == blocks.stripes[first].stream)
        others.push_back(s);
    std::stable_sort(others.begin(), others.end(),
                     [&](uint32_t a, uint32_t b) { return kept(a) < kept(b); });
    for (uint32_t s : others) {
      if (freed >= blocks.stripe_pages || set.size() == VICTIM_MAX_SET) break;
      set.push_back(s);
      freed += blocks.stripe_pages - kept(s);
    }
    return set;
  }
  Set two_region_greedy_reference() const {
    Set first = greedy_reference();
    return first.empty() ? first : merge_reference(first[0]);
  }
  // Section 4.3 over a vector in allocation order; `scan` is cur_scan's position in it.
  Set fifo_reference(float blk_util, float depth) {
    const size_t window = std::max<size_t>(1, opened.size() * size_t(depth * 1000 + 0.5f) / 1000);
    std::vector<uint32_t> walk;  // the window in scan order, from cur_scan, wrapping at the depth
    for (size_t visited = 0, at = scan; visited < window; ++visited, ++at) {
      if (at >= window) at = 0;
      walk.push_back(uint32_t(at));
    }
    Set set;
    uint32_t freed = 0;
    size_t last = SIZE_MAX;
    for (uint32_t at : walk) {
      const uint32_t s = opened[at];
      const bool below = frees(s) && kept(s) < blk_util * blocks.stripe_pages;
      if (!below || (!set.empty() && blocks.stripes[s].stream != blocks.stripes[set[0]].stream))
        continue;
      set.push_back(s);
      last = at;
      freed += blocks.stripe_pages - kept(s);
      if (freed >= blocks.stripe_pages || set.size() == VICTIM_MAX_SET) break;
    }
    if (last != SIZE_MAX) {
      scan = last + 1 == opened.size() ? 0 : last + 1;
      return set;
    }
    // Nothing below the threshold: Algorithm 1 over the window, in scan order among equals.
    Set window_stripes;
    for (uint32_t at : walk)
      if (frees(opened[at])) window_stripes.push_back(opened[at]);
    if (window_stripes.empty()) return {};
    std::stable_sort(window_stripes.begin(), window_stripes.end(),
                     [&](uint32_t a, uint32_t b) { return kept(a) < kept(b); });
    set = {window_stripes[0]};
    freed = blocks.stripe_pages - kept(set[0]);
    for (size_t i = 1; i < window_stripes.size(); ++i) {
      const uint32_t s = window_stripes[i];
      if (freed >= blocks.stripe_pages || set.size() == VICTIM_MAX_SET) break;
      if (blocks.stripes[s].stream != blocks.stripes[set[0]].stream) continue;
      set.push_back(s);
      freed += blocks.stripe_pages - kept(s);
    }
    return set;
  }
  Set cost_benefit_reference() const {
    uint32_t best = BLOCK_NONE;
    float best_score = 0;
    for (uint32_t s = 0; s < blocks.stripe_count; ++s) {
      if (!frees(s)) continue;
      if (kept(s) == 0) return {s};
      const float score =
          float(clock - filled[s]) * float(blocks.stripe_pages - kept(s)) / float(kept(s));
      if (best == BLOCK_NONE || score > best_score) best = s, best_score = score;
    }
    return best == BLOCK_NONE ? Set{} : Set{best};
  }
};

TEST_F(VictimTest, GreedyMatchesTheReferenceOnRandomStates) {
  start(victim_policy_greedy);
  for (int round = 0; round < 200; ++round) {
    churn(3);
    ASSERT_EQ(select(victim_policy_greedy), greedy_reference()) << "round " << round;
  }
}

TEST_F(VictimTest, TwoRegionGreedyMergesItsRegionUntilAWholeStripeIsFree) {
  start(victim_policy_2r_greedy);
  uint32_t multi = 0;
  for (int round = 0; round < 300; ++round) {
    churn(3);
    const Set set = select(victim_policy_2r_greedy);
    ASSERT_EQ(set, two_region_greedy_reference()) << "round " << round;
    multi += set.size() > 1;
  }
  EXPECT_GT(multi, 50u) << "the random states should call for multi-block merges";
}

TEST_F(VictimTest, TwoRegionFifoMatchesTheReferenceAcrossCollections) {
  for (const float depth : {0.6f, 0.8f, 1.0f}) {
    opened.clear();
    scan = 0;
    clock = 0;
    start(victim_policy_2r_fifo, 0.5f, depth);
    uint32_t multi = 0;
    for (int round = 0; round < 300; ++round) {
      churn(2);
      const Set set = select(victim_policy_2r_fifo);
      ASSERT_EQ(set, fifo_reference(0.5f, depth)) << "depth " << depth << " round " << round;
      multi += set.size() > 1;
      if (round % 2 == 0) {
        for (uint32_t s : set) collect(s);
      }
    }
    EXPECT_GT(multi, 20u) << depth;
  }
}

TEST_F(VictimTest, CostBenefitMatchesTheReferenceOnRandomStates) {
  start(victim_policy_cost_benefit);
  for (int round = 0; round < 200; ++round) {
    churn(3);
    ASSERT_EQ(select(victim_policy_cost_benefit), cost_benefit_reference()) << round;
  }
}

TEST_F(VictimTest, TwoRegionSetsNeverMixRegions) {
  for (const victim_policy_t* policy : {&victim_policy_2r_greedy, &victim_policy_2r_fifo}) {
    opened.clear();
    start(*policy);
    for (int round = 0; round < 300; ++round) {
      churn(2);
      const Set set = select(*policy);
      for (uint32_t s : set) {
        ASSERT_EQ(blocks.stripes[s].stream, blocks.stripes[set[0]].stream)
            << policy->name << " round " << round;
      }
      for (uint32_t s : set) collect(s);
    }
  }
}

// The scripted list: ten stripes H0 C1 H2 C3 H4 H5 H6 C7 H8 H9 (H host, C GC) in opening order.
TEST_F(VictimTest, TwoRegionFifoScansFromCurScanSkipsFullStripesAndGivesTheTailASecondChance) {
  start(victim_policy_2r_fifo, 0.5f, 0.8f);
  const block_stream_t kinds[] = {BLOCK_STREAM_HOST, BLOCK_STREAM_GC,   BLOCK_STREAM_HOST,
                                  BLOCK_STREAM_GC,   BLOCK_STREAM_HOST, BLOCK_STREAM_HOST,
                                  BLOCK_STREAM_HOST, BLOCK_STREAM_GC,   BLOCK_STREAM_HOST,
                                  BLOCK_STREAM_HOST};
  // Valid pages of 16: H0 12 (skipped: 0.75), C1 4, H2 6, C3 2, H4 10, H5 4, H6 2, C7 0, H8 0,
  // H9 0 (the last two lie beyond 80 % of the list).
  const uint32_t valid[] = {12, 4, 6, 2, 10, 4, 2, 0, 0, 0};
  std::vector<uint32_t> s;
  for (uint32_t i = 0; i < 10; ++i) {
    s.push_back(fill(kinds[i]));
    keep_valid(s[i], valid[i]);
  }
  // From the head: H0 is above the threshold; C1 names the cold region; C3 joins (H2 is the
  // other region); 12 + 14 pages free a stripe.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[1], s[3]}));
  collect(s[1]);
  collect(s[3]);
  // cur_scan is past C3: H4 (10 of 16 valid) is skipped, H5 and H6 free 12 + 14.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[5], s[6]}));
  collect(s[5]);
  collect(s[6]);
  // Six stripes left (H0 H2 H4 C7 H8 H9), the window four: cur_scan is at C7, which frees a
  // stripe alone.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[7]}));
  collect(s[7]);
  // Five left, window four: H8 is the fourth, inside it.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[8]}));
  collect(s[8]);
  // Four left, window three: cur_scan (H9) is at the depth, so the scan goes back to the head
  // (second chance for the young H9, empty as it is): H0 is above the threshold, H2 is taken,
  // H4 is above it, and the window ends: H2 alone, though it frees only 10 pages.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[2]}));
}

TEST_F(VictimTest, TwoRegionFifoFallsBackToTwoRegionGreedyOverTheWindowWhenNothingIsBelow) {
  start(victim_policy_2r_fifo, 0.5f, 0.8f);
  std::vector<uint32_t> s;
  for (uint32_t valid : {14u, 9u, 8u, 10u, 11u, 1u}) {
    s.push_back(fill(BLOCK_STREAM_HOST));
    keep_valid(s.back(), valid);
  }
  // The window is four stripes; none of them is below 8 valid pages: 2R-Greedy's set over
  // them, the fewest valid first until 16 pages are free (8 + 7 + 6). The last two, young,
  // keep their second chance, the emptiest (1 valid) too.
  EXPECT_EQ(select(victim_policy_2r_fifo), (Set{s[2], s[1], s[3]}));
}

}  // namespace
