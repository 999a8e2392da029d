// The LeaFTL mapping scheme (firmware/ftl/map/leaftl.c) driven as the FTL drives it, against a
// model of the flash: programs of a few pages on consecutive VPNs per stream, their OOB filled by
// program_oob, a page valid while it holds its LPN's last write. Checked: every lookup ends at
// the LPN's last write (a PREDICT through the pages it reads, as the pipeline verifies them);
// every update names the page it replaces (through an OOB read when the scheme asks for one);
// the extra reads of a misprediction; the accounting gauges; groups that leave a small budget for
// their translation pages (a fake TP store) and come back from them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "ftl/map/map.h"
#include "lib/metrics.h"
#include "oob_layout.h"
}

namespace ssdvp {
namespace {

constexpr uint32_t kOobWords = 64;  // 256 B
constexpr uint32_t kNoOwner = 0xFFFFFFFFu;
constexpr uint32_t kEntriesPerTp = 1024;

struct Flash {
  std::vector<uint32_t> oob;        // kOobWords per VPN
  std::vector<uint32_t> reference;  // LPN -> VPN of its last write
  std::vector<uint32_t> program_end;  // VPN -> one past the last page of its program
  std::vector<uint32_t> tps;        // the translation pages, kEntriesPerTp VPNs each
  uint64_t tp_loads = 0, tp_patches = 0;
  std::string fault;
};

Flash *g_flash = nullptr;

bool page_valid(uint32_t vpn) {
  uint32_t owner = g_flash->oob[vpn * kOobWords + OOB_WORD_OWNER];
  return owner < g_flash->reference.size() && g_flash->reference[owner] == vpn;
}

bool page_readable(uint32_t vpn) { return vpn < g_flash->program_end.size(); }

uint32_t cycles() { return 0; }

void fault(const char *message) { g_flash->fault = message; }

// The room of a scheme call (map_env_t eviction_room): g_call_room TPs per call, counted in
// g_round_tps; unlimited unless a test limits it.
uint32_t g_call_room = UINT32_MAX;
std::set<uint32_t> g_round_tps;
uint64_t g_room_refusals = 0;

bool eviction_room() {
  bool room = g_round_tps.size() < g_call_room;
  g_room_refusals += !room;
  return room;
}

void write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  g_round_tps.insert(tp);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(patches[i].lpn / kEntriesPerTp, tp) << "a patch outside its TP";
    g_flash->tps[patches[i].lpn] = patches[i].vpn;
  }
  ++g_flash->tp_patches;
}

class Leaftl {
 public:
  Leaftl(uint32_t gamma, uint32_t lpns, uint32_t vpns, uint32_t batch, bool account_sftl = false)
      : arena_memory_(8u << 20) {
    metrics_init(&stats_);
    flash_.oob.assign(static_cast<size_t>(vpns) * kOobWords, kNoOwner);
    flash_.reference.assign(lpns, VPN_UNMAPPED);
    flash_.program_end.assign(vpns, 0);
    flash_.tps.assign((lpns + kEntriesPerTp - 1) / kEntriesPerTp * kEntriesPerTp, VPN_UNMAPPED);
    g_flash = &flash_;
    boot_ = boot_config_t{};
    boot_.ftl_leaftl_gamma = gamma;
    boot_.ftl_leaftl_group_lpns = 256;
    boot_.ftl_leaftl_batch_pages = batch;
    boot_.ftl_leaftl_compaction_writes = 5000;
    boot_.ftl_leaftl_account_sftl = account_sftl ? 1u : 0u;
    env_.boot = &boot_;
    env_.lpn_count = lpns;
    env_.entries_per_tp = kEntriesPerTp;
    env_.tp_count = (lpns + kEntriesPerTp - 1) / kEntriesPerTp;
    env_.write_back_patches = write_back_patches;
    env_.page_valid = page_valid;
    env_.page_readable = page_readable;
    env_.cycles = cycles;
    env_.oob_words = kOobWords;
    env_.vpn_count = vpns;
    env_.stripe_pages = 4096;
    env_.fault = fault;
    env_.eviction_room = eviction_room;
    g_call_room = UINT32_MAX;
    g_room_refusals = 0;
    arena_init(&arena_, arena_memory_.data(), static_cast<uint32_t>(arena_memory_.size()), 0);
  }

  bool init(uint32_t budget) { return map_scheme_leaftl.init(&env_, &arena_, budget); }

  // Each call of lookup, update and tp_loaded starts with its eviction room intact and must stay
  // within it (call_done).
  bool room_limited() const { return g_call_room != UINT32_MAX; }
  void call_begins() { g_round_tps.clear(); }
  void call_done(const char *what) {
    max_call_tps = std::max<uint64_t>(max_call_tps, g_round_tps.size());
    if (room_limited()) {
      EXPECT_LE(g_round_tps.size(), g_call_room) << what << " wrote back past its eviction room";
    }
  }

  // Programs `lpns` at first_vpn.. as one program, then updates each mapping (old page known
  // when `gc`). Returns false on a failed assertion.
  void program(const std::vector<uint32_t> &lpns, uint32_t first_vpn, bool gc) {
    const uint32_t count = static_cast<uint32_t>(lpns.size());
    for (uint32_t i = 0; i < count; ++i) {
      flash_.oob[(first_vpn + i) * kOobWords + OOB_WORD_OWNER] = lpns[i];
      flash_.program_end[first_vpn + i] = first_vpn + count;
    }
    map_scheme_leaftl.program_oob(first_vpn, count, &flash_.oob[first_vpn * kOobWords],
                                  kOobWords);
    for (uint32_t i = 0; i < count; ++i) {
      update(lpns[i], first_vpn + i, gc ? flash_.reference[lpns[i]] : MAP_OLD_UNKNOWN);
      if (::testing::Test::HasFatalFailure() || !flash_.fault.empty()) return;
    }
  }

  // A MISS: the TP is read and handed over, and the caller asks again.
  void load(uint32_t tp, uint32_t lpn) {
    ++flash_.tp_loads;
    const map_request_t *request = nullptr;
    call_begins();
    map_scheme_leaftl.tp_loaded(tp, &flash_.tps[tp * kEntriesPerTp], &lpn, &request, 1);
    call_done("tp_loaded");
  }

  // An update as task_map_update drives it: a MISS loads the TP, a PREDICT reads OOBs until
  // the page replaced is known, and the update is asked again.
  void update(uint32_t lpn, uint32_t vpn, uint32_t known_old) {
    uint32_t value = known_old;
    int loads = 0;
    for (int asks = 0;; ++asks) {
      ASSERT_LT(asks, 40) << "update of LPN " << lpn << " never completed";
      call_begins();
      const map_answer_t answer = map_scheme_leaftl.update(lpn, vpn, &value);
      call_done("update");
      if (answer == MAP_HIT) break;
      if (answer == MAP_NO_ROOM) {
        ASSERT_TRUE(room_limited()) << "update of LPN " << lpn << " without room to limit it";
        ++no_room_answers;
        value = known_old;
        continue;
      }
      if (answer == MAP_MISS) {
        // The TP's groups stay until their waiters have asked again: one load is enough, unless
        // the load found no room to learn them.
        ASSERT_TRUE(loads++ < 1 || room_limited())
            << "update of LPN " << lpn << " misses after its TP came in";
        ASSERT_EQ(value, lpn / kEntriesPerTp) << flash_.fault;
        load(value, lpn);
        if (!flash_.fault.empty()) return;  // the scheme stopped the firmware
        value = known_old;
        continue;
      }
      map_answer_t step = MAP_PREDICT;
      for (int reads = 0; step == MAP_PREDICT; ++reads) {
        ASSERT_LT(reads, 40) << "update of LPN " << lpn << " never resolved";
        ++update_oob_reads;
        const uint32_t read = value;
        step = map_scheme_leaftl.mispredicted(lpn, read, oob_of(read), true, &value);
      }
      ASSERT_NE(step, MAP_MISS) << flash_.fault;
    }
    ASSERT_EQ(value, flash_.reference[lpn]) << "the page LPN " << lpn << "'s update replaces";
    flash_.reference[lpn] = vpn;
  }

  // A host lookup verified as the pipeline verifies it; returns the extra reads it took.
  int lookup(uint32_t lpn) {
    uint32_t value = 0;
    call_begins();
    map_answer_t answer = map_scheme_leaftl.lookup(lpn, nullptr, &value);
    call_done("lookup");
    for (int loads = 0; answer == MAP_MISS; ++loads) {
      EXPECT_EQ(value, lpn / kEntriesPerTp) << flash_.fault;
      if (value != lpn / kEntriesPerTp) return 0;
      // Without room to learn its group again the lookup misses again and loads once more.
      EXPECT_TRUE(loads == 0 || room_limited())
          << "lookup of LPN " << lpn << " after its TP came in: " << flash_.fault;
      EXPECT_LT(loads, 40) << "lookup of LPN " << lpn << " never stays";
      if (loads >= 40 || (loads != 0 && !room_limited())) return 0;
      reloads += loads != 0;
      load(value, lpn);
      if (!flash_.fault.empty()) return 0;  // the scheme stopped the firmware
      call_begins();
      answer = map_scheme_leaftl.lookup(lpn, nullptr, &value);
      call_done("lookup");
    }
    int extra = 0;
    uint32_t first_predicted = value;
    while (answer == MAP_PREDICT) {
      const bool right = flash_.oob[value * kOobWords + OOB_WORD_OWNER] == lpn && page_valid(value);
      if (right) break;
      EXPECT_LT(extra, 40) << "lookup of LPN " << lpn << " never resolved";
      if (extra >= 40) return extra;
      ++extra;
      uint32_t next = 0;
      answer = map_scheme_leaftl.mispredicted(lpn, value, oob_of(value), false, &next);
      EXPECT_NE(answer, MAP_MISS) << flash_.fault;
      value = next;
    }
    EXPECT_EQ(value, flash_.reference[lpn]) << "lookup of LPN " << lpn;
    const uint32_t truth = flash_.reference[lpn];
    if (extra > 0 && truth != VPN_UNMAPPED) {
      // The predicted page's OOB lists its own program and what came before it.
      const bool known = truth < flash_.program_end[first_predicted];
      if (known) {
        EXPECT_EQ(extra, 1) << "LPN " << lpn << " predicted at " << first_predicted << ", on "
                            << truth;
      }
      (known ? resolved_known : resolved_later) += 1;
      reads_when_later = std::max(reads_when_later, extra);
    }
    return extra;
  }

  const uint32_t *oob_of(uint32_t vpn) {
    return flash_.oob[vpn * kOobWords + OOB_WORD_OWNER] == kNoOwner ? nullptr
                                                                     : &flash_.oob[vpn * kOobWords];
  }

  uint64_t gauge(const char *name) {
    const void *value = metrics_find(name);
    EXPECT_NE(value, nullptr) << name;
    return value ? *static_cast<const uint64_t *>(value) : 0;
  }

  fw_stats_t stats_{};
  Flash flash_;
  boot_config_t boot_;
  map_env_t env_{};
  std::vector<uint8_t> arena_memory_;
  arena_t arena_{};
  uint64_t update_oob_reads = 0;
  uint64_t resolved_known = 0, resolved_later = 0;
  uint64_t max_call_tps = 0;     // the most TPs one call wrote back
  uint64_t reloads = 0;          // lookups that loaded their TP again
  uint64_t no_room_answers = 0;  // MAP_NO_ROOM from update
  int reads_when_later = 0;
};

// Host writes through a sorted write buffer (ascending LPN sweeps over what is buffered) in
// programs of `unit` pages, GC moves now and then, trims, and lookups everywhere.
void run(Leaftl &h, uint32_t seed, uint32_t rounds, uint32_t unit) {
  std::mt19937 random(seed);
  const uint32_t lpns = static_cast<uint32_t>(h.flash_.reference.size());
  uint32_t host_vpn = 0, gc_vpn = static_cast<uint32_t>(h.flash_.program_end.size()) / 2;
  for (uint32_t round = 0; round < rounds; ++round) {
    // A buffer's worth: runs of consecutive LPNs, strided ones and scattered ones, sorted.
    std::vector<uint32_t> buffered;
    for (uint32_t piece = 0, pieces = 1 + random() % 6; piece < pieces; ++piece) {
      const uint32_t first = random() % lpns, n = 1 + random() % 48;
      const uint32_t stride = random() % 4 == 0 ? 2 + random() % 3 : 1;
      for (uint32_t i = 0; i < n && first + i * stride < lpns; ++i) {
        if (random() % 5 != 0) buffered.push_back(first + i * stride);
      }
    }
    std::sort(buffered.begin(), buffered.end());
    buffered.erase(std::unique(buffered.begin(), buffered.end()), buffered.end());
    for (size_t at = 0; at < buffered.size(); at += unit) {
      std::vector<uint32_t> program(buffered.begin() + at,
                                    buffered.begin() + std::min(buffered.size(), at + unit));
      h.program(program, host_vpn, false);
      host_vpn += static_cast<uint32_t>(program.size());
      if (::testing::Test::HasFatalFailure() || !h.flash_.fault.empty()) return;
    }
    if (random() % 8 == 0) {  // GC moves a few valid pages, in VPN order
      std::vector<uint32_t> moved;
      for (uint32_t i = 0, n = 1 + random() % 16; i < n; ++i) {
        const uint32_t lpn = random() % lpns;
        if (h.flash_.reference[lpn] != VPN_UNMAPPED &&
            std::find(moved.begin(), moved.end(), lpn) == moved.end()) {
          moved.push_back(lpn);
        }
      }
      std::sort(moved.begin(), moved.end(), [&](uint32_t a, uint32_t b) {
        return h.flash_.reference[a] < h.flash_.reference[b];
      });
      if (!moved.empty()) {
        h.program(moved, gc_vpn, true);
        gc_vpn += static_cast<uint32_t>(moved.size());
      }
    }
    if (random() % 10 == 0) {
      const uint32_t lpn = random() % lpns;
      h.update(lpn, VPN_UNMAPPED, MAP_OLD_UNKNOWN);
    }
    for (uint32_t i = 0; i < 64; ++i) {
      h.lookup(random() % lpns);
      if (::testing::Test::HasFailure() || !h.flash_.fault.empty()) return;
    }
  }
  map_scheme_leaftl.flush();
  for (uint32_t lpn = 0; lpn < lpns; ++lpn) {
    h.lookup(lpn);
    if (::testing::Test::HasFailure() || !h.flash_.fault.empty()) return;
  }
}

TEST(LeaftlScheme, AccurateSegmentsAnswerEveryLookupExactly) {
  Leaftl h(0, 8192, 1u << 20, 256);
  ASSERT_TRUE(h.init(1u << 20));
  run(h, 7, 400, 8);
  const map_counters_t &c = *map_scheme_leaftl.counters();
  EXPECT_EQ(c.predictions, 0u) << "gamma 0 learns accurate segments only";
  EXPECT_EQ(h.update_oob_reads, 0u);
  EXPECT_GT(h.gauge("leaftl.segments"), 0u);
  EXPECT_EQ(h.gauge("leaftl.approximate_segments"), 0u);
}

TEST(LeaftlScheme, ApproximateSegmentsResolveThroughTheOob) {
  for (uint32_t gamma : {1u, 4u, 16u}) {
    Leaftl h(gamma, 8192, 1u << 20, 256);
    ASSERT_TRUE(h.init(1u << 20));
    run(h, 11 + gamma, 400, 8);
    if (HasFailure()) return;
    const map_counters_t &c = *map_scheme_leaftl.counters();
    EXPECT_GT(c.predictions, 0u) << "gamma " << gamma;
    EXPECT_GT(c.mispredictions, 0u) << "gamma " << gamma;
    EXPECT_LE(c.mispredictions, c.predictions) << "host lookups' wrong predictions only";
    EXPECT_LE(h.gauge("leaftl.update_mispredictions"), h.gauge("leaftl.update_predictions"));
    EXPECT_GT(h.gauge("leaftl.approximate_segments"), 0u) << "gamma " << gamma;
    EXPECT_GT(h.resolved_known, 0u) << "gamma " << gamma;
    EXPECT_LE(h.reads_when_later, static_cast<int>(2 * gamma + 1)) << "gamma " << gamma;
  }
}

// The gauges follow from the segments: 8 B a segment, 5 B a single point, 4 B a used group (the
// paper's accounting); 8 B per mapped LPN for DFTL.
TEST(LeaftlScheme, AccountingFollowsTheSegments) {
  Leaftl h(4, 8192, 1u << 20, 128);
  ASSERT_TRUE(h.init(1u << 20));
  run(h, 3, 200, 8);
  const uint64_t segments = h.gauge("leaftl.segments");
  const uint64_t singles = h.gauge("leaftl.single_point_segments");
  EXPECT_EQ(h.gauge("leaftl.bytes_paper"),
            8 * (segments - singles) + 5 * singles + 4 * h.gauge("leaftl.groups_used"));
  uint64_t mapped = 0;
  for (uint32_t vpn : h.flash_.reference) mapped += vpn != VPN_UNMAPPED;
  EXPECT_EQ(h.gauge("leaftl.mapped_lpns"), mapped);
  EXPECT_EQ(h.gauge("leaftl.bytes_dftl"), 8 * mapped);
  EXPECT_GT(h.gauge("leaftl.bytes_ours"), h.gauge("leaftl.bytes_paper"));
  EXPECT_GT(h.gauge("leaftl.compactions"), 0u) << "every 5000 updates";
}

// SFTL's table for the same mappings, counted as they change: 4 B per run head (a mapped LPN that
// starts its 1024-LPN frame or does not follow its predecessor's VPN) and 260 B per frame in use.
TEST(LeaftlScheme, SftlAccountingMatchesTheMappings) {
  Leaftl h(0, 8192, 1u << 20, 256, true);
  ASSERT_TRUE(h.init(1u << 20));
  run(h, 9, 300, 8);
  const std::vector<uint32_t>& map = h.flash_.reference;
  uint64_t heads = 0;
  std::set<uint32_t> frames;
  for (uint32_t lpn = 0; lpn < map.size(); ++lpn) {
    if (map[lpn] == VPN_UNMAPPED) continue;
    frames.insert(lpn / 1024);
    heads += lpn % 1024 == 0 || map[lpn - 1] == VPN_UNMAPPED || map[lpn - 1] + 1 != map[lpn];
  }
  EXPECT_EQ(h.gauge("leaftl.sftl_run_heads"), heads);
  EXPECT_EQ(h.gauge("leaftl.bytes_sftl"), 4 * heads + 260 * frames.size());
}

// A sequential write learns one segment per group: 256 LPNs in 8 bytes.
TEST(LeaftlScheme, SequentialWriteIsOneSegmentPerGroup) {
  Leaftl h(0, 4096, 1u << 16, 1024);
  ASSERT_TRUE(h.init(1u << 20));
  std::vector<uint32_t> program;
  for (uint32_t lpn = 0; lpn < 4096; ++lpn) {
    program.push_back(lpn);
    if (program.size() == 16) {
      h.program(program, lpn - 15, false);
      program.clear();
    }
  }
  map_scheme_leaftl.flush();
  EXPECT_EQ(h.gauge("leaftl.segments"), 16u);
  EXPECT_EQ(h.gauge("leaftl.bytes_paper"), 16u * (8 + 4));
  for (uint32_t lpn = 0; lpn < 4096; lpn += 17) EXPECT_EQ(h.lookup(lpn), 0);
}

// The bytes a scheme takes beyond its pool (records, batch, scratch) at this size.
uint64_t fixed_bytes(uint32_t gamma, uint32_t lpns, uint32_t batch) {
  Leaftl probe(gamma, lpns, 1u << 20, batch);
  EXPECT_TRUE(probe.init(1u << 20));
  return probe.gauge("leaftl.bytes_ours");
}

// A budget far below the table: groups leave for their TPs (dirty ones writing their mappings
// there) and are learned again from them when a lookup or an update needs them; every LPN still
// translates to its last write.
TEST(LeaftlScheme, GroupsLeaveASmallBudgetAndComeBackFromTheirTranslationPages) {
  const uint64_t fixed = fixed_bytes(0, 65536, 256);
  Leaftl h(0, 65536, 1u << 20, 256);
  ASSERT_TRUE(h.init(static_cast<uint32_t>(fixed) + 12 * 1024));
  run(h, 21, 300, 8);
  if (HasFailure()) return;
  EXPECT_EQ(h.flash_.fault, "");
  const uint64_t evicted = h.gauge("leaftl.groups_evicted");
  EXPECT_GT(evicted, 50u);
  EXPECT_GT(h.gauge("leaftl.groups_written_back"), 0u);
  EXPECT_LT(h.gauge("leaftl.groups_written_back"), evicted) << "clean groups leave unwritten";
  EXPECT_EQ(h.flash_.tp_patches, h.gauge("leaftl.groups_written_back"));
  // A group that left comes back by a lookup or overwrite (learned again from its TP) or by a
  // batch learned into it (partial: its new segments alone, the TP under them on the next miss).
  const uint64_t relearned = h.gauge("leaftl.groups_relearned");
  const uint64_t partial = h.gauge("leaftl.groups_partial");
  EXPECT_GT(relearned, 0u);
  EXPECT_GT(partial, 0u);
  EXPECT_GT(h.gauge("leaftl.groups_completed"), 0u);
  EXPECT_LE(h.gauge("leaftl.groups_completed"), partial);
  EXPECT_EQ(relearned + h.gauge("leaftl.groups_completed"), h.flash_.tp_loads);
  EXPECT_EQ(h.gauge("leaftl.groups_on_flash"), evicted - relearned - partial);
  EXPECT_LE(h.gauge("leaftl.bytes_ours"), fixed + 12 * 1024);
  const map_counters_t &c = *map_scheme_leaftl.counters();
  EXPECT_GT(c.misses, 0u);
  EXPECT_GT(c.update_misses, 0u);
  EXPECT_EQ(c.translatable_lpns, 65536u - 256u * h.gauge("leaftl.groups_on_flash"));
}

// The same with room for one writeback per call (the FTL's reserve guarantees four): no call
// writes back more, learning that finds no room stops (updates answer MAP_NO_ROOM, groups learned
// from a TP stay out and their lookups load it again), and every LPN still translates to its
// last write, the gauges still adding up.
TEST(LeaftlScheme, EachCallWritesBackWithinItsEvictionRoomAndLosesNothing) {
  const uint64_t fixed = fixed_bytes(0, 65536, 256);
  Leaftl h(0, 65536, 1u << 20, 256);
  ASSERT_TRUE(h.init(static_cast<uint32_t>(fixed) + 12 * 1024));
  g_call_room = 1;
  run(h, 21, 300, 8);
  if (HasFailure()) return;
  EXPECT_EQ(h.flash_.fault, "");
  std::printf("room 1: %llu refusals, %llu reloads, %llu MAP_NO_ROOM\n",
              static_cast<unsigned long long>(g_room_refusals),
              static_cast<unsigned long long>(h.reloads),
              static_cast<unsigned long long>(h.no_room_answers));
  EXPECT_EQ(h.max_call_tps, 1u);
  EXPECT_GT(g_room_refusals, 0u) << "the room never ran short: nothing was tested";
  const uint64_t evicted = h.gauge("leaftl.groups_evicted");
  EXPECT_EQ(h.gauge("leaftl.groups_on_flash"),
            evicted - h.gauge("leaftl.groups_relearned") - h.gauge("leaftl.groups_partial"));
  const map_counters_t &c = *map_scheme_leaftl.counters();
  EXPECT_EQ(c.translatable_lpns, 65536u - 256u * h.gauge("leaftl.groups_on_flash"));
  // With the room back, a flush learns what is still batched.
  g_call_room = UINT32_MAX;
  EXPECT_TRUE(map_scheme_leaftl.flush());
  for (uint32_t lpn = 0; lpn < 65536; lpn += 97) {
    h.lookup(lpn);
    if (HasFailure()) return;
  }
}

// index_overhead counts the budget as RQFTL's section 3.4.1 counts LeaFTL: the group records
// leave it, and each extent holds 5 bytes of AVL node per segment slot and its group's share of
// a 10-byte hash entry per TP (4 groups of 256 LPNs a 1024-LPN TP: 3 bytes). In the same budget
// beyond the fixed part, more groups must leave, and every LPN still translates right.
TEST(LeaftlScheme, IndexOverheadCountsAvlNodesAndHashEntriesInTheBudget) {
  const uint64_t fixed = fixed_bytes(0, 65536, 256);
  Leaftl plain(0, 65536, 1u << 20, 256);
  ASSERT_TRUE(plain.init(static_cast<uint32_t>(fixed) + 12 * 1024));
  run(plain, 21, 300, 8);
  if (HasFailure()) return;
  const uint64_t plain_evicted = plain.gauge("leaftl.groups_evicted");
  EXPECT_EQ(plain.gauge("leaftl.bytes_index"), 0u);

  Leaftl counted(0, 65536, 1u << 20, 256);
  counted.boot_.ftl_leaftl_index_overhead = 1;
  ASSERT_TRUE(counted.init(1u << 20));
  const uint64_t counted_fixed = counted.gauge("leaftl.bytes_ours");
  EXPECT_EQ(counted_fixed, fixed - 256 * 16) << "the 256 group records leave the budget";

  Leaftl h(0, 65536, 1u << 20, 256);
  h.boot_.ftl_leaftl_index_overhead = 1;
  ASSERT_TRUE(h.init(static_cast<uint32_t>(counted_fixed) + 12 * 1024));
  run(h, 21, 300, 8);
  if (HasFailure()) return;
  EXPECT_EQ(h.flash_.fault, "");
  EXPECT_EQ(h.gauge("leaftl.bytes_index"),
            5 * h.gauge("leaftl.segments") + 3 * h.gauge("leaftl.groups_used"));
  EXPECT_GT(h.gauge("leaftl.bytes_index"), 0u);
  EXPECT_GT(h.gauge("leaftl.groups_evicted"), plain_evicted) << "the overheads fill the budget";
  EXPECT_LE(h.gauge("leaftl.bytes_ours"), counted_fixed + 12 * 1024);
}

// Above gamma 0, a group whose approximate segments hold mappings its TP lacks cannot leave (its
// exact VPNs are known only within gamma): a budget they fill stops the firmware with a message
// naming the budget and gamma.
TEST(LeaftlScheme, ApproximateDirtyGroupsStayAndFillingTheBudgetWithThemIsAClearFault) {
  const uint64_t fixed = fixed_bytes(4, 65536, 256);
  Leaftl h(4, 65536, 1u << 20, 256);
  ASSERT_TRUE(h.init(static_cast<uint32_t>(fixed) + 12 * 1024));
  run(h, 25, 300, 8);
  EXPECT_NE(h.flash_.fault.find("ftl.map_budget"), std::string::npos) << h.flash_.fault;
  EXPECT_NE(h.flash_.fault.find("newer than their translation page (ftl.leaftl.gamma 4)"),
            std::string::npos)
      << h.flash_.fault;
}

// Up to `pages` one-page programs of random LPNs (single-point segments), until a fault.
void write_single_pages_until_a_fault(Leaftl &h, int pages) {
  std::mt19937 random(5);
  const uint32_t lpns = static_cast<uint32_t>(h.flash_.reference.size());
  uint32_t vpn = 0;
  for (int i = 0; i < pages && h.flash_.fault.empty(); ++i) {
    h.program({static_cast<uint32_t>(random() % lpns)}, vpn++, false);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// A group must fit the pool whole: one whose segments outgrow it stops the firmware with a
// message naming ftl.map_budget.
TEST(LeaftlScheme, AGroupLargerThanThePoolIsAClearFault) {
  const uint64_t fixed = fixed_bytes(0, 65536, 64);
  Leaftl h(0, 65536, 1u << 20, 64);
  ASSERT_TRUE(h.init(static_cast<uint32_t>(fixed) + 512));
  // Group 0's LPNs in a random order: sorted, their VPNs follow no line (single points).
  std::vector<uint32_t> lpns(256);
  for (uint32_t i = 0; i < 256; ++i) lpns[i] = i;
  std::shuffle(lpns.begin(), lpns.end(), std::mt19937(3));
  uint32_t vpn = 0;
  for (uint32_t lpn : lpns) {
    h.program({lpn}, vpn++, false);
    if (HasFatalFailure() || !h.flash_.fault.empty()) break;
  }
  map_scheme_leaftl.flush();
  EXPECT_NE(h.flash_.fault.find("ftl.map_budget"), std::string::npos) << h.flash_.fault;
}

// Counting SFTL's table needs every mapping in memory: a group that would leave stops the
// firmware naming both keys.
TEST(LeaftlScheme, SftlAccountingRefusesToSendGroupsOut) {
  const uint64_t fixed = fixed_bytes(0, 65536, 64);
  Leaftl h(0, 65536, 1u << 20, 64, true);
  ASSERT_TRUE(h.init(static_cast<uint32_t>(fixed) + 64 * 1024));
  write_single_pages_until_a_fault(h, 20000);
  if (HasFatalFailure()) return;
  EXPECT_NE(h.flash_.fault.find("ftl.leaftl.account_sftl"), std::string::npos) << h.flash_.fault;
  EXPECT_NE(h.flash_.fault.find("ftl.map_budget"), std::string::npos) << h.flash_.fault;
}

}  // namespace
}  // namespace ssdvp
