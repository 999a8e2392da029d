// LearnedFTL's scheme (firmware/ftl/map/learnedftl.c) on the host, against a reference map: a
// model of the TP store and of page validity, GC relocations in LPN order as the gtd_group
// victim policy makes them, and host updates and lookups as the request pipeline makes them.
// Every PREDICT answer is checked against the reference: the bitmap filter may never admit a
// wrong prediction.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "ftl/map/map.h"
}

namespace ssdvp {
namespace {

constexpr uint32_t kEntriesPerTp = 256;
constexpr uint32_t kLpns = 16 * kEntriesPerTp;
constexpr uint32_t kVpns = 1u << 20;

struct World {
  std::vector<uint32_t> flash = std::vector<uint32_t>(kLpns, VPN_UNMAPPED);  // the TPs
  std::vector<uint32_t> reference = std::vector<uint32_t>(kLpns, VPN_UNMAPPED);
  std::vector<bool> valid = std::vector<bool>(kVpns, false);
  uint64_t patch_calls = 0;
  uint32_t cycles = 0;
};

World *g_world = nullptr;

void write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  ++g_world->patch_calls;
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(patches[i].lpn / kEntriesPerTp, tp) << "patch outside its TP";
    g_world->flash.at(patches[i].lpn) = patches[i].vpn;
  }
}

void write_back_page(uint32_t tp, const uint32_t *entries) {
  for (uint32_t i = 0; i < kEntriesPerTp; ++i) {
    g_world->flash.at(tp * kEntriesPerTp + i) = entries[i];
  }
}

// Whether a scheme call may write one more TP back (map_env_t eviction_room).
bool g_eviction_room = true;
bool eviction_room() { return g_eviction_room; }

bool page_valid(uint32_t vpn) { return vpn < kVpns && g_world->valid[vpn]; }
uint32_t cycles() { return g_world->cycles += 7; }
void fault(const char *message) { FAIL() << message; }

class Harness {
 public:
  explicit Harness(uint32_t budget, uint32_t pieces = 8, uint32_t train_min = 1)
      : arena_memory_(4u << 20) {
    g_world = &world_;
    boot_ = boot_config_t{};
    boot_.ftl_tpftl_prefetch_max = 16;
    boot_.ftl_learnedftl_pieces = pieces;
    boot_.ftl_learnedftl_train_min = train_min;
    env_.boot = &boot_;
    env_.lpn_count = kLpns;
    env_.entries_per_tp = kEntriesPerTp;
    env_.tp_count = kLpns / kEntriesPerTp;
    env_.write_back_patches = write_back_patches;
    env_.write_back_page = write_back_page;
    env_.page_valid = page_valid;
    env_.cycles = cycles;
    env_.fault = fault;
    env_.eviction_room = eviction_room;
    g_eviction_room = true;
    env_.vpn_count = kVpns;
    arena_init(&arena_, arena_memory_.data(), static_cast<uint32_t>(arena_memory_.size()), 0);
    budget_ = budget;
  }

  bool init() { return scheme().init(&env_, &arena_, budget_); }
  static const map_scheme_t &scheme() { return map_scheme_learnedftl; }

  void load(uint32_t tp, uint32_t lpn) {
    std::vector<uint32_t> entries(world_.flash.begin() + tp * kEntriesPerTp,
                                  world_.flash.begin() + (tp + 1) * kEntriesPerTp);
    const map_request_t *requests[1] = {nullptr};
    scheme().tp_loaded(tp, entries.data(), &lpn, requests, 1);
    ++loads;
  }

  // A host lookup; a PREDICT must name the reference VPN. Answers how it was served.
  map_answer_t lookup(uint32_t lpn) {
    uint32_t value = 0;
    map_answer_t answer = scheme().lookup(lpn, nullptr, &value);
    map_answer_t first = answer;
    if (answer == MAP_MISS) {
      EXPECT_EQ(value, lpn / kEntriesPerTp);
      load(value, lpn);
      answer = scheme().lookup(lpn, nullptr, &value);
      EXPECT_EQ(answer, MAP_HIT) << "lpn " << lpn << " missed right after its TP was loaded";
    }
    EXPECT_EQ(value, world_.reference[lpn])
        << "lpn " << lpn << (first == MAP_PREDICT ? ": a wrong prediction passed the filter" : "");
    return first;
  }

  // A host write (old VPN unknown) or GC move (old VPN known).
  void update(uint32_t lpn, uint32_t vpn, bool gc) {
    uint32_t value = gc ? world_.reference[lpn] : MAP_OLD_UNKNOWN;
    map_answer_t answer = scheme().update(lpn, vpn, &value);
    if (answer == MAP_MISS) {
      ASSERT_FALSE(gc) << "a GC move of lpn " << lpn << " asked for its TP";
      load(value, lpn);
      value = MAP_OLD_UNKNOWN;
      answer = scheme().update(lpn, vpn, &value);
    }
    ASSERT_EQ(answer, MAP_HIT);
    ASSERT_EQ(value, world_.reference[lpn]) << "replaced VPN of lpn " << lpn;
    if (value != VPN_UNMAPPED) world_.valid[value] = false;
    if (vpn != VPN_UNMAPPED) world_.valid[vpn] = true;
    world_.reference[lpn] = vpn;
  }

  // Host pages programmed at consecutive VPNs, heard before their updates, as the FTL does.
  void host_write(const std::vector<uint32_t> &lpns) {
    scheme().programmed(lpns.data(), next_vpn_, static_cast<uint32_t>(lpns.size()));
    for (uint32_t lpn : lpns) update(lpn, next_vpn_++, false);
  }

  // GC of one TP's pages in LPN order into consecutive VPNs (skipping 4 VPNs before every
  // hole_every-th page: fillers, or a retired member), then the scheme hears of the relocation.
  void relocate_tp(uint32_t tp, uint32_t hole_every = 0) {
    std::vector<uint32_t> lpns, vpns;
    for (uint32_t lpn = tp * kEntriesPerTp; lpn < (tp + 1) * kEntriesPerTp; ++lpn) {
      if (world_.reference[lpn] == VPN_UNMAPPED) continue;
      if (hole_every != 0 && lpns.size() % hole_every == hole_every - 1) next_vpn_ += 4;
      lpns.push_back(lpn);
      vpns.push_back(next_vpn_++);
    }
    for (size_t i = 0; i < lpns.size(); ++i) update(lpns[i], vpns[i], true);
    scheme().relocated(tp, lpns.data(), vpns.data(), static_cast<uint32_t>(lpns.size()));
  }

  const map_counters_t &counters() const { return *scheme().counters(); }

  World world_;
  boot_config_t boot_;
  map_env_t env_{};
  std::vector<uint8_t> arena_memory_;
  arena_t arena_{};
  uint32_t budget_ = 0;
  uint32_t next_vpn_ = 0;
  uint64_t loads = 0;
};

// Every LPN of a TP that GC rewrote in order is predicted (the CMT holds a few); nothing it
// predicts is wrong.
TEST(LearnedftlScheme, GcTrainingPredictsTheRelocatedTp) {
  Harness h(24 * 1024);
  ASSERT_TRUE(h.init());
  std::mt19937 random(3);
  for (uint32_t i = 0; i < 3000; ++i) h.host_write({static_cast<uint32_t>(random() % kLpns)});
  for (uint32_t i = 0; i < kEntriesPerTp; ++i) {
    h.host_write({5 * kEntriesPerTp + (i * 97u) % kEntriesPerTp});
  }
  if (HasFatalFailure()) return;
  h.relocate_tp(5);
  h.scheme().flush();  // the relocation buffer, which answers for its TP meanwhile, leaves
  // Writes elsewhere push TP 5 out of the CMT.
  for (uint32_t lpn = 8 * kEntriesPerTp; lpn < 12 * kEntriesPerTp; ++lpn) h.host_write({lpn});
  uint32_t predicted = 0;
  for (uint32_t lpn = 5 * kEntriesPerTp; lpn < 6 * kEntriesPerTp; ++lpn) {
    predicted += h.lookup(lpn) == MAP_PREDICT;
  }
  EXPECT_GE(predicted + 64u, kEntriesPerTp);
  EXPECT_EQ(h.counters().mispredictions, 0u);
}

// A TP's LPNs scattered in flash, rewritten in LPN order with 4 pages skipped every 10 (filler
// pages): 4 least-squares pieces over a staircase give some LPNs exactly, not all, and only
// those are predicted.
TEST(LearnedftlScheme, BitsAreSetOnlyWhereTheModelIsExact) {
  Harness h(24 * 1024, 4);
  ASSERT_TRUE(h.init());
  for (uint32_t i = 0; i < kLpns; ++i) h.host_write({(i * 37u) % kLpns});
  if (HasFatalFailure()) return;
  h.relocate_tp(2, 10);
  h.scheme().flush();
  // Writes elsewhere push TP 2 out of the CMT.
  for (uint32_t lpn = 8 * kEntriesPerTp; lpn < 12 * kEntriesPerTp; ++lpn) h.host_write({lpn});
  uint32_t predicted = 0;
  for (uint32_t lpn = 2 * kEntriesPerTp; lpn < 3 * kEntriesPerTp; ++lpn) {
    predicted += h.lookup(lpn) == MAP_PREDICT;
  }
  EXPECT_GT(predicted, 0u);
  EXPECT_LT(predicted, kEntriesPerTp * 9u / 10u);
  EXPECT_EQ(h.counters().mispredictions, 0u);
}

TEST(LearnedftlScheme, EveryUpdateClearsItsBit) {
  Harness h(24 * 1024);
  ASSERT_TRUE(h.init());
  std::vector<uint32_t> all;
  for (uint32_t lpn = 0; lpn < kLpns; ++lpn) all.push_back((lpn * 37u) % kLpns);  // scattered
  h.host_write(all);
  h.relocate_tp(7);
  h.relocate_tp(8);  // GC turning to the next TP writes TP 7's moves back
  const uint32_t first = 7 * kEntriesPerTp;
  uint32_t predicted = 0;
  for (uint32_t lpn = first; lpn < first + kEntriesPerTp; ++lpn) {
    predicted += h.lookup(lpn) == MAP_PREDICT;
  }
  ASSERT_GT(predicted, kEntriesPerTp / 2);
  // Rewritten elsewhere: the model would give the old VPN; every bit must be gone.
  for (uint32_t lpn = first; lpn < first + kEntriesPerTp; ++lpn) h.host_write({lpn});
  if (HasFatalFailure()) return;
  for (uint32_t lpn = first; lpn < first + kEntriesPerTp; ++lpn) {
    EXPECT_NE(h.lookup(lpn), MAP_PREDICT) << "lpn " << lpn;
  }
}

// Section 3.2: before any training a TP's model is y = x from the first program of its LPNs, so
// a sequential write is predicted at once.
TEST(LearnedftlScheme, SequentialInitialisationPredictsAFirstContiguousWrite) {
  Harness h(20 * 1024);
  ASSERT_TRUE(h.init());
  std::vector<uint32_t> run;
  for (uint32_t lpn = 3 * kEntriesPerTp + 20; lpn < 5 * kEntriesPerTp; ++lpn) run.push_back(lpn);
  h.host_write(run);
  // A random write elsewhere in TP 4 moves that LPN off the line.
  h.host_write({4 * kEntriesPerTp + 100});
  // Writes to other TPs push the run out of the CMT.
  std::mt19937 random(5);
  for (uint32_t i = 0; i < 3000; ++i) {
    h.host_write({8 * kEntriesPerTp + static_cast<uint32_t>(random() % (8 * kEntriesPerTp))});
  }
  uint32_t predicted = 0;
  for (uint32_t lpn : run) predicted += h.lookup(lpn) == MAP_PREDICT;
  EXPECT_GT(predicted, static_cast<uint32_t>(run.size()) * 3u / 4u);
  EXPECT_NE(h.lookup(4 * kEntriesPerTp + 100), MAP_PREDICT);
  EXPECT_EQ(h.counters().mispredictions, 0u);
}

// GC's moves of LPNs the CMT does not hold need no TP load, and reach their TP in one
// writeback when GC turns to the next TP; meanwhile the relocation buffer answers for them.
TEST(LearnedftlScheme, GcMovesReachTheirTpInOneWriteback) {
  Harness h(20 * 1024);
  ASSERT_TRUE(h.init());
  for (uint32_t lpn = 0; lpn < kLpns; ++lpn) h.host_write({(lpn * 101u) % kLpns});
  h.scheme().flush();
  ASSERT_EQ(h.world_.flash, h.world_.reference);
  const uint64_t loads = h.loads;
  const uint64_t writebacks = h.world_.patch_calls;
  h.relocate_tp(1);
  EXPECT_EQ(h.loads, loads) << "GC moves loaded a TP";
  for (uint32_t lpn = kEntriesPerTp; lpn < 2 * kEntriesPerTp; lpn += 17) h.lookup(lpn);
  h.relocate_tp(2);
  EXPECT_LE(h.world_.patch_calls, writebacks + 1u) << "TP 1's moves took several writebacks";
  h.scheme().flush();
  EXPECT_EQ(h.world_.flash, h.world_.reference);
}

// A GC move that would write the relocation buffer back (it holds another TP's moves) while the
// call has no eviction room takes the CMT's miss instead: the buffer stays and answers for its
// moves, nothing is written back, and the move goes through the buffer once there is room.
TEST(LearnedftlScheme, AGcMoveWithoutEvictionRoomLeavesTheBufferAndMisses) {
  Harness h(20 * 1024);
  ASSERT_TRUE(h.init());
  for (uint32_t lpn = 0; lpn < kLpns; ++lpn) h.host_write({(lpn * 101u) % kLpns});
  h.scheme().flush();
  // LPNs of TPs 1 and 2 that neither the CMT nor a model answers for.
  auto uncached_in = [&](uint32_t tp) {
    for (uint32_t lpn = tp * kEntriesPerTp; lpn < (tp + 1) * kEntriesPerTp; ++lpn) {
      uint32_t value;
      if (h.scheme().lookup(lpn, nullptr, &value) == MAP_MISS) return lpn;
    }
    ADD_FAILURE() << "every LPN of TP " << tp << " is cached";
    return tp * kEntriesPerTp;
  };
  const uint32_t first = uncached_in(1), second = uncached_in(2);
  const uint64_t loads = h.loads;
  h.update(first, h.next_vpn_++, true);  // into the buffer
  const uint64_t writebacks = h.world_.patch_calls;
  g_eviction_room = false;
  uint32_t value = h.world_.reference[second];
  EXPECT_EQ(h.scheme().update(second, h.next_vpn_, &value), MAP_MISS);
  EXPECT_EQ(h.world_.patch_calls, writebacks) << "the buffer was written back without room";
  h.lookup(first);  // the buffer still answers for it
  g_eviction_room = true;
  h.update(second, h.next_vpn_++, true);
  EXPECT_EQ(h.world_.patch_calls, writebacks + 1u) << "TP 1's buffered move did not leave";
  EXPECT_EQ(h.loads, loads) << "GC moves loaded a TP";
  h.scheme().flush();
  EXPECT_EQ(h.world_.flash, h.world_.reference);
}

// A long random mix of host writes, trims, lookups and GC relocations: every answer matches the
// reference and the flushed TPs hold it.
TEST(LearnedftlScheme, RandomisedAgainstTheReference) {
  Harness h(24 * 1024);
  ASSERT_TRUE(h.init());
  std::mt19937 random(11);
  uint32_t predictions = 0;
  for (uint32_t op = 0; op < 60000; ++op) {
    uint32_t kind = random() % 100;
    uint32_t lpn = random() % kLpns;
    if (kind < 45) {
      predictions += h.lookup(lpn) == MAP_PREDICT;
    } else if (kind < 75) {
      h.host_write({lpn});
    } else if (kind < 78) {
      h.update(lpn, VPN_UNMAPPED, false);
    } else if (kind < 90) {
      std::vector<uint32_t> run;
      for (uint32_t i = 0, n = 1 + random() % 64; i < n && lpn + i < kLpns; ++i) {
        run.push_back(lpn + i);
      }
      h.host_write(run);
    } else if (kind < 91) {
      h.relocate_tp(random() % (kLpns / kEntriesPerTp), random() % 2 ? 0 : 1 + random() % 40);
    } else {
      lpn -= lpn % 32;
      for (uint32_t i = 0; i < 32; ++i) predictions += h.lookup(lpn + i) == MAP_PREDICT;
    }
    if (HasFailure()) return;
  }
  EXPECT_GT(predictions, 1000u);
  EXPECT_EQ(h.counters().mispredictions, 0u);
  EXPECT_EQ(h.counters().lookups, h.counters().hits + h.counters().misses);
  h.scheme().flush();
  EXPECT_EQ(h.world_.flash, h.world_.reference);
}

TEST(LearnedftlScheme, TheModelsComeOutOfTheBudget) {
  Harness tiny(2 * 1024);
  EXPECT_FALSE(tiny.init()) << "16 models and 4096 bits cannot leave room for a CMT in 2 KiB";
  Harness h(24 * 1024);
  ASSERT_TRUE(h.init());
  EXPECT_LE(h.arena_.used, 24u * 1024u);
}

}  // namespace
}  // namespace ssdvp
