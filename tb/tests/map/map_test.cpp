// The mapping schemes (ideal, DFTL in both modes, TPFTL, SFTL) against a reference map, with a
// host model of the TP store: translation pages in flash that honour write_back_patches and
// write_back_page and answer loads with merged content.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "ftl/map/map.h"
#include "lib/metrics.h"
}

namespace ssdvp {
namespace {

// Translation pages as they are in flash, and what the scheme handed back.
struct TpStoreModel {
  uint32_t entries_per_tp = 0;
  std::vector<uint32_t> flash;  // one VPN per LPN
  uint64_t patch_calls = 0;
  uint64_t page_calls = 0;
  uint64_t patches = 0;
  std::vector<std::pair<uint32_t, std::vector<map_patch_t>>> patch_log;
  std::vector<uint32_t> page_log;
  uint64_t digest = 1469598103934665603ull;  // FNV-1a over every write-back, for determinism

  void mix(uint32_t value) {
    digest = (digest ^ value) * 1099511628211ull;
  }
};

TpStoreModel *g_store = nullptr;
constexpr uint32_t kNoTp = 0xFFFFFFFFu;

// The TP store's room as a flush sees it (map_env_t write_back_room): g_room_tps TPs per call of
// flush, counted in g_round_tps (the TPs written back since the call began).
uint32_t g_room_tps = UINT32_MAX;
std::set<uint32_t> g_round_tps;

bool write_back_room() { return g_round_tps.size() < g_room_tps; }

// The room a call of lookup, update or tp_loaded sees (map_env_t eviction_room): g_call_room TPs
// per call, counted in g_round_tps as well.
uint32_t g_call_room = UINT32_MAX;

uint64_t g_room_refusals = 0;

bool eviction_room() {
  bool room = g_round_tps.size() < g_call_room;
  g_room_refusals += !room;
  return room;
}

void write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  TpStoreModel &store = *g_store;
  g_round_tps.insert(tp);
  store.patch_calls++;
  store.patches += count;
  store.mix(tp);
  std::vector<map_patch_t> logged(patches, patches + count);
  for (uint32_t i = 0; i < count; i++) {
    ASSERT_EQ(patches[i].lpn / store.entries_per_tp, tp) << "patch outside its TP";
    store.flash.at(patches[i].lpn) = patches[i].vpn;
    store.mix(patches[i].lpn);
    store.mix(patches[i].vpn);
  }
  store.patch_log.emplace_back(tp, std::move(logged));
}

void write_back_page(uint32_t tp, const uint32_t *entries) {
  TpStoreModel &store = *g_store;
  g_round_tps.insert(tp);
  store.page_calls++;
  store.page_log.push_back(tp);
  store.mix(tp);
  for (uint32_t i = 0; i < store.entries_per_tp; i++) {
    uint32_t lpn = tp * store.entries_per_tp + i;
    if (lpn < store.flash.size()) {
      store.flash[lpn] = entries[i];
    }
    store.mix(entries[i]);
  }
}

// The worker hart, for schemes that hand it jobs: a job submitted waits until the harness runs
// it (and delivers it) a few operations later, as hart 1 would while hart 0 serves.
worker_job_t *g_job_out = nullptr;

bool submit_job(worker_job_t *job) {
  if (g_job_out != nullptr) return false;
  job->state = WORKER_JOB_RUNNING;
  g_job_out = job;
  return true;
}

void deliver_job() {
  worker_job_t *job = g_job_out;
  if (job == nullptr) return;
  job->run(job->argument);
  g_job_out = nullptr;
  job->state = WORKER_JOB_DONE;
  if (job->on_done) job->on_done(job);
}

struct Config {
  const char *scheme;
  bool whole_tp;
  uint32_t entries_per_tp;
  uint32_t lpn_count;
  uint32_t budget;
  uint32_t prefetch_max;
  uint32_t rqftl_stc_bytes = 0;
  uint32_t rqftl_fractions = 12;
  uint32_t worker_delay = 0;  // operations a job waits on the worker (0: no worker, inline)
};

const map_scheme_t *scheme_named(const std::string &name) {
  if (name == "ideal") return &map_scheme_ideal;
  if (name == "dftl") return &map_scheme_dftl;
  if (name == "tpftl") return &map_scheme_tpftl;
  if (name == "rqftl") return &map_scheme_rqftl;
  return &map_scheme_sftl;
}

// One scheme, initialised in its own arena, driven like the request pipeline drives it.
class Harness {
 public:
  explicit Harness(const Config &config)
      : config_(config), scheme_(scheme_named(config.scheme)), arena_memory_(4u << 20) {
    metrics_init(&stats_);
    boot_ = boot_config_t{};
    boot_.ftl_dftl_whole_tp = config.whole_tp ? 1u : 0u;
    boot_.ftl_tpftl_prefetch_max = config.prefetch_max;
    boot_.ftl_rqftl_fractions = config.rqftl_fractions;
    boot_.ftl_rqftl_stc_lines = 512;
    boot_.ftl_rqftl_stc_bytes = config.rqftl_stc_bytes;
    boot_.ftl_rqftl_stc_min_lines = 64;
    boot_.ftl_rqftl_average_transfers = 8;
    boot_.ftl_rqftl_race_log = 256;
    boot_.rqrmi_stage1_width = 4;
    boot_.rqrmi_samples = 4096;
    boot_.rqrmi_error_target = 0;
    boot_.rqrmi_max_model_bytes = 0;
    boot_.rqrmi_max_rounds = 1;
    store_.entries_per_tp = config.entries_per_tp;
    store_.flash.assign(config.lpn_count, VPN_UNMAPPED);
    reference_.assign(config.lpn_count, VPN_UNMAPPED);
    g_store = &store_;
    env_.boot = &boot_;
    env_.lpn_count = config.lpn_count;
    env_.entries_per_tp = config.entries_per_tp;
    env_.tp_count = (config.lpn_count + config.entries_per_tp - 1) / config.entries_per_tp;
    env_.write_back_patches = write_back_patches;
    env_.write_back_page = write_back_page;
    env_.write_back_room = write_back_room;
    env_.eviction_room = eviction_room;
    g_room_tps = UINT32_MAX;
    g_call_room = UINT32_MAX;
    g_room_refusals = 0;
    env_.fault = [](const char *message) {
      std::fprintf(stderr, "scheme fault: %s\n", message);
      std::abort();
    };
    g_job_out = nullptr;
    if (config.worker_delay != 0) env_.submit_job = submit_job;
    arena_init(&arena_, arena_memory_.data(), static_cast<uint32_t>(arena_memory_.size()), 0);
  }

  bool init() { return scheme_->init(&env_, &arena_, config_.budget); }

  uint32_t tp_of(uint32_t lpn) const { return lpn / config_.entries_per_tp; }

  // With eviction room limited (limit_call_room), every scheme call starts with its room
  // intact, as the FTL starts it with the TP store's reserve intact, and must stay within it.
  void limit_call_room(uint32_t tps) {
    g_call_room = tps;
    g_room_tps = tps;  // a transfer inside a call asks write_back_room: no more than that
  }
  bool room_limited() const { return g_call_room != UINT32_MAX; }
  void begin_call() {
    if (room_limited()) g_round_tps.clear();
  }
  void end_call(const char *what) {
    if (!room_limited()) return;
    max_call_tps = std::max<uint64_t>(max_call_tps, g_round_tps.size());
    ASSERT_LE(g_round_tps.size(), g_call_room) << what << " wrote back past its eviction room";
  }

  void load(uint32_t tp, uint32_t lpn, const map_request_t *request) {
    std::vector<uint32_t> entries(config_.entries_per_tp, VPN_UNMAPPED);
    for (uint32_t i = 0; i < config_.entries_per_tp; i++) {
      uint32_t l = tp * config_.entries_per_tp + i;
      if (l < config_.lpn_count) entries[i] = store_.flash[l];
    }
    const map_request_t *requests[1] = {request};
    begin_call();
    scheme_->tp_loaded(tp, entries.data(), &lpn, requests, 1);
    end_call("tp_loaded");
    loads++;
  }

  // Looks lpn up as the pipeline would: on a miss, load the TP and ask again. A scheme whose
  // tp_loaded ran out of eviction room may miss again: the waiter loads the TP once more, with
  // its room intact.
  void lookup(uint32_t lpn, const map_request_t *request = nullptr) {
    uint32_t value = 0;
    begin_call();
    map_answer_t answer = scheme_->lookup(lpn, request, &value);
    end_call("lookup");
    for (uint32_t loads_for_it = 0; answer == MAP_MISS; ++loads_for_it) {
      ASSERT_EQ(value, tp_of(lpn)) << "lpn " << lpn;
      ASSERT_TRUE(loads_for_it == 0 || room_limited())
          << "lpn " << lpn << " missed right after its TP was loaded";
      ASSERT_LT(loads_for_it, 100u) << "lpn " << lpn << " never stays cached";
      reloads += loads_for_it != 0;
      if (::testing::Test::HasFatalFailure()) return;
      load(value, lpn, request);
      if (::testing::Test::HasFatalFailure()) return;
      begin_call();
      answer = scheme_->lookup(lpn, request, &value);
      end_call("lookup");
    }
    ASSERT_EQ(answer, MAP_HIT);
    ASSERT_EQ(value, reference_[lpn]) << "lookup of lpn " << lpn;
  }

  // A host write: the page it replaces is unknown to the caller. MAP_NO_ROOM: asked again once
  // the room is back.
  void update(uint32_t lpn, uint32_t vpn) {
    map_answer_t answer;
    uint32_t value;
    for (uint32_t asks = 0;; ++asks) {
      ASSERT_LT(asks, 100u) << "update of lpn " << lpn << " never finds room";
      value = MAP_OLD_UNKNOWN;
      begin_call();
      answer = scheme_->update(lpn, vpn, &value);
      end_call("update");
      if (::testing::Test::HasFatalFailure()) return;
      if (answer == MAP_NO_ROOM) {
        ASSERT_TRUE(room_limited()) << "update of lpn " << lpn << " without room to limit it";
        no_room_answers++;
        continue;
      }
      if (answer != MAP_MISS) break;
      ASSERT_EQ(value, tp_of(lpn)) << "lpn " << lpn;
      ASSERT_TRUE(asks == 0 || room_limited())
          << "update of lpn " << lpn << " missed after its TP loaded";
      load(value, lpn, nullptr);
      if (::testing::Test::HasFatalFailure()) return;
    }
    ASSERT_EQ(answer, MAP_HIT);
    ASSERT_EQ(value, reference_[lpn]) << "replaced VPN of lpn " << lpn;
    reference_[lpn] = vpn;
  }

  // Waiters that missed on one TP are served by a single load, as the TP store coalesces them:
  // every LPN asks, the misses wait, one tp_loaded hands them all over, and each asks again.
  void coalesced_lookups(const std::vector<uint32_t> &lpns, const map_request_t *request) {
    std::vector<uint32_t> waiting;
    uint32_t tp = kNoTp;
    for (uint32_t lpn : lpns) {
      uint32_t value = 0;
      if (scheme_->lookup(lpn, request, &value) == MAP_MISS) {
        ASSERT_EQ(value, tp_of(lpn));
        tp = value;
        waiting.push_back(lpn);
      } else {
        ASSERT_EQ(value, reference_[lpn]) << "lookup of lpn " << lpn;
      }
    }
    if (waiting.empty()) return;
    std::vector<uint32_t> entries(config_.entries_per_tp, VPN_UNMAPPED);
    for (uint32_t i = 0; i < config_.entries_per_tp; i++) {
      uint32_t l = tp * config_.entries_per_tp + i;
      if (l < config_.lpn_count) entries[i] = store_.flash[l];
    }
    std::vector<const map_request_t *> requests(waiting.size(), request);
    begin_call();
    scheme_->tp_loaded(tp, entries.data(), waiting.data(), requests.data(),
                       static_cast<uint32_t>(waiting.size()));
    end_call("tp_loaded");
    loads++;
    for (uint32_t lpn : waiting) {
      uint32_t value = 0;
      begin_call();
      map_answer_t answer = scheme_->lookup(lpn, request, &value);
      end_call("lookup");
      if (answer == MAP_MISS && room_limited()) {
        waiters_left++;  // tp_loaded ran out of room before its mapping: it loads again
        lookup(lpn, request);
        if (::testing::Test::HasFatalFailure()) return;
        continue;
      }
      ASSERT_EQ(answer, MAP_HIT) << "waiter lpn " << lpn;
      ASSERT_EQ(value, reference_[lpn]) << "waiter lpn " << lpn;
    }
  }

  // Flush as the FTL does when the TP store has room for `room` TPs at a time: a call that
  // stops for room is called again, and flash must then hold the reference map (schemes that
  // write TPs).
  void flush_and_check(uint32_t room = 1) {
    g_room_tps = room;
    for (uint32_t calls = 1;; ++calls) {
      g_round_tps.clear();
      bool done = scheme_->flush();
      flush_tps += g_round_tps.size();
      if (done) break;
      ASSERT_GE(g_round_tps.size(), room) << "flush stopped with room left";
      ASSERT_LT(calls, 1000000u) << "flush never finishes";
      flush_calls++;
    }
    g_room_tps = UINT32_MAX;
    for (uint32_t lpn = 0; lpn < config_.lpn_count; lpn++) {
      ASSERT_EQ(store_.flash[lpn], reference_[lpn]) << "flash after flush, lpn " << lpn;
    }
  }

  const map_counters_t &counters() const { return *scheme_->counters(); }

  // Bytes of the arena a scheme takes outside its budget: RQFTL's training workspace, the
  // worker's scratch (ftl/map/rqftl.c).
  uint32_t outside_budget() const {
    uint32_t bytes = 0;
    for (uint32_t r = 0; r < arena_.region_count; ++r) {
      if (std::string(arena_.regions[r].name) == "rqftl_ltc_training") {
        bytes += arena_.regions[r].bytes;
      }
    }
    return bytes;
  }

  // The hit ratio of host lookups: every miss is asked again after its load and hits then, so
  // those second asks are taken out (lookup-only runs).
  double first_ask_hit_ratio() const {
    const map_counters_t &c = counters();
    return static_cast<double>(c.hits - c.misses) / static_cast<double>(c.lookups - c.misses);
  }

  // A 64-bit metric the scheme registered.
  uint64_t metric(const char *name) const {
    const void *value = metrics_find(name);
    EXPECT_NE(value, nullptr) << name;
    return value ? *static_cast<const uint64_t *>(value) : 0;
  }

  fw_stats_t stats_{};
  Config config_;
  const map_scheme_t *scheme_;
  boot_config_t boot_;
  map_env_t env_{};
  std::vector<uint8_t> arena_memory_;
  arena_t arena_{};
  TpStoreModel store_;
  std::vector<uint32_t> reference_;
  uint64_t loads = 0;
  uint64_t flush_calls = 0;  // flush calls that stopped for room
  uint64_t flush_tps = 0;    // TPs the flush calls wrote back
  // With eviction room limited: the most TPs one call wrote back, and how the schemes made do.
  uint64_t max_call_tps = 0;
  uint64_t reloads = 0;          // lookups that loaded their TP again
  uint64_t waiters_left = 0;     // coalesced waiters a tp_loaded did not serve
  uint64_t no_room_answers = 0;  // MAP_NO_ROOM from update
};

// A long randomised mix: hot-set and uniform single-page operations, sequential multi-page
// writes and reads, and trims. VPNs come from a log-structured counter, so sequential writes
// get consecutive VPNs as on a real device.
void run_mix(Harness &h, uint32_t seed, uint32_t operations) {
  std::mt19937 random(seed);
  const uint32_t lpns = h.config_.lpn_count;
  const uint32_t hot = lpns / 16;
  uint32_t next_vpn = 0;
  for (uint32_t op = 0; op < operations; op++) {
    if (h.config_.worker_delay != 0 && op % h.config_.worker_delay == 0) deliver_job();
    uint32_t kind = random() % 100;
    uint32_t lpn = (random() % 4 == 0) ? random() % lpns : random() % hot;
    if (kind < 35) {
      h.lookup(lpn);
    } else if (kind < 70) {
      h.update(lpn, next_vpn++);
    } else if (kind < 75) {
      h.update(lpn, VPN_UNMAPPED);
    } else if (kind < 88) {
      uint32_t pages = 1 + random() % 64;
      uint32_t first = random() % (lpns - pages);
      for (uint32_t i = 0; i < pages; i++) h.update(first + i, next_vpn++);
    } else if (kind < 92) {
      // several waiters (repeats included) on one TP, served by one load
      uint32_t tp_first = lpn - lpn % h.config_.entries_per_tp;
      uint32_t span = std::min(h.config_.entries_per_tp, lpns - tp_first);
      std::vector<uint32_t> waiters;
      for (uint32_t i = 0, n = 2 + random() % 6; i < n; i++) {
        waiters.push_back(tp_first + random() % span);
      }
      h.coalesced_lookups(waiters, nullptr);
    } else {
      map_request_t request{static_cast<uint32_t>(random() % (lpns - 64)),
                            static_cast<uint32_t>(1 + random() % 64)};
      for (uint32_t i = 0; i < request.pages; i++) h.lookup(request.first_lpn + i, &request);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

class MapRandomised : public ::testing::TestWithParam<Config> {};

TEST_P(MapRandomised, EveryAnswerMatchesTheReference) {
  const Config &config = GetParam();
  Harness h(config);
  ASSERT_TRUE(h.init());
  EXPECT_LE(h.arena_.used - h.outside_budget(), config.budget)
      << "the scheme's structures exceed its budget";
  run_mix(h, 12345u, 60000u);
  if (HasFatalFailure()) return;
  const map_counters_t &c = h.counters();
  // The gauges: every LPN the scheme says it can translate answers without a TP load.
  const uint32_t translatable = c.translatable_lpns;
  uint32_t answered = 0;
  for (uint32_t lpn = 0; lpn < config.lpn_count; ++lpn) {
    uint32_t value;
    answered += h.scheme_->lookup(lpn, nullptr, &value) != MAP_MISS;
  }
  if (std::string(config.scheme) == "rqftl") {
    // An estimate (ftl/map/rqftl.c): the long-term cache's LPNs and the unmarked lines'.
    EXPECT_NEAR(answered, translatable, answered / 4.0);
    // Both caches served, and writes hit ranges already transferred.
    EXPECT_GT(h.metric("rqftl.transfers"), 100u);
    EXPECT_GT(h.metric("rqftl.ltc_hits"), 100u);
    EXPECT_GT(h.metric("rqftl.stc_hits"), 1000u);
    EXPECT_GT(h.metric("rqftl.ranges_invalidated"), 100u);
    std::printf("rqftl: %llu transfers, %llu long-term and %llu short-term hits\n",
                static_cast<unsigned long long>(h.metric("rqftl.transfers")),
                static_cast<unsigned long long>(h.metric("rqftl.ltc_hits")),
                static_cast<unsigned long long>(h.metric("rqftl.stc_hits")));
  } else {
    EXPECT_EQ(answered, translatable);
  }
  EXPECT_GT(c.table_bytes, 0u);
  EXPECT_LE(c.table_bytes, config.budget);
  EXPECT_EQ(c.lookups, c.hits + c.misses);
  if (std::string(config.scheme) == "ideal") {
    EXPECT_EQ(c.misses, 0u);
    EXPECT_EQ(h.loads, 0u);
    h.scheme_->flush();
    EXPECT_EQ(h.store_.patch_calls + h.store_.page_calls, 0u) << "ideal never writes TPs";
    return;
  }
  EXPECT_GT(c.misses, 0u) << "the cache is far smaller than the map: it must miss";
  EXPECT_GT(c.evictions, 0u);
  EXPECT_GT(c.dirty_evictions, 0u);
  h.flush_and_check();
  if (HasFatalFailure()) return;
  if (h.flush_tps > 1) {
    EXPECT_GT(h.flush_calls, 0u) << "the flush never stopped for room";
  }
  // Lookups after the flush still answer the reference, from cache or reloaded TPs.
  for (uint32_t lpn = 0; lpn < config.lpn_count; lpn += 7) {
    h.lookup(lpn);
    if (HasFatalFailure()) return;
  }
}

std::string config_name(const ::testing::TestParamInfo<Config> &info) {
  const Config &c = info.param;
  std::string name = std::string(c.scheme) + (c.whole_tp ? "_whole_tp" : "") + "_E" +
                     std::to_string(c.entries_per_tp) + "_B" + std::to_string(c.budget) + "_P" +
                     std::to_string(c.prefetch_max);
  if (std::string(c.scheme) == "rqftl") {
    name += "_S" + std::to_string(c.rqftl_stc_bytes) + "_F" + std::to_string(c.rqftl_fractions) +
            "_W" + std::to_string(c.worker_delay);
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, MapRandomised,
    ::testing::Values(Config{"ideal", false, 1024, 65536, 65536 * 4, 0},
                      Config{"dftl", false, 1024, 65536, 16384, 0},
                      Config{"dftl", false, 128, 50000, 4096, 0},
                      Config{"dftl", true, 1024, 65536, 16384, 0},
                      Config{"dftl", true, 128, 50000, 3000, 0},
                      Config{"tpftl", false, 1024, 65536, 16384, 64},
                      Config{"tpftl", false, 128, 50000, 4096, 16},
                      Config{"tpftl", false, 1024, 65536, 16384, 0},
                      Config{"sftl", false, 1024, 65536, 24576, 0},
                      Config{"sftl", false, 128, 50000, 4096, 0},
                      Config{"rqftl", false, 1024, 65536, 65536, 0, 0, 12},
                      Config{"rqftl", false, 1024, 65536, 65536, 0, 24576, 12},
                      Config{"rqftl", false, 128, 50000, 32768, 0, 0, 3},
                      Config{"rqftl", false, 1024, 65536, 65536, 0, 0, 12, 7},
                      Config{"rqftl", false, 1024, 65536, 65536, 0, 24576, 12, 3},
                      Config{"rqftl", false, 128, 50000, 32768, 0, 0, 3, 20}),
    config_name);

// Eviction room limited to one or two TPs per call (the FTL's reserve guarantees four): every
// call of lookup, update and tp_loaded writes back no more, the schemes make do (waiters load
// their TP again, updates answer MAP_NO_ROOM and are asked again) and every answer still
// matches the reference, the flush's result included.
struct RoomConfig {
  Config config;
  uint32_t room;
};

class MapEvictionRoom : public ::testing::TestWithParam<RoomConfig> {};

TEST_P(MapEvictionRoom, EveryCallStaysWithinItsRoomAndLosesNothing) {
  const RoomConfig &param = GetParam();
  Harness h(param.config);
  ASSERT_TRUE(h.init());
  h.limit_call_room(param.room);
  run_mix(h, 4242u, 30000u);
  if (HasFatalFailure()) return;
  std::printf("%s room %u: %llu refusals, most TPs in a call %llu, %llu reloads, %llu waiters "
              "left, %llu MAP_NO_ROOM\n",
              param.config.scheme, param.room, static_cast<unsigned long long>(g_room_refusals),
              static_cast<unsigned long long>(h.max_call_tps),
              static_cast<unsigned long long>(h.reloads),
              static_cast<unsigned long long>(h.waiters_left),
              static_cast<unsigned long long>(h.no_room_answers));
  EXPECT_GT(g_room_refusals, 0u) << "the room never ran short: nothing was tested";
  EXPECT_EQ(h.max_call_tps, param.room);
  h.limit_call_room(UINT32_MAX);
  h.flush_and_check();
  if (HasFatalFailure()) return;
  for (uint32_t lpn = 0; lpn < param.config.lpn_count; lpn += 5) {
    h.lookup(lpn);
    if (HasFatalFailure()) return;
  }
}

std::string room_config_name(const ::testing::TestParamInfo<RoomConfig> &info) {
  const Config &c = info.param.config;
  return std::string(c.scheme) + (c.whole_tp ? "_whole_tp" : "") + "_E" +
         std::to_string(c.entries_per_tp) + "_B" + std::to_string(c.budget) +
         (c.rqftl_stc_bytes != 0 ? "_S" + std::to_string(c.rqftl_stc_bytes) : "") + "_room" +
         std::to_string(info.param.room);
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, MapEvictionRoom,
    ::testing::Values(RoomConfig{Config{"dftl", false, 128, 50000, 4096, 0}, 1},
                      RoomConfig{Config{"dftl", false, 128, 50000, 4096, 0}, 2},
                      RoomConfig{Config{"dftl", false, 1024, 65536, 16384, 0}, 1},
                      RoomConfig{Config{"tpftl", false, 128, 50000, 4096, 16}, 1},
                      RoomConfig{Config{"tpftl", false, 1024, 65536, 16384, 64}, 2},
                      RoomConfig{Config{"sftl", false, 128, 50000, 4096, 0}, 1},
                      RoomConfig{Config{"sftl", false, 1024, 65536, 24576, 0}, 1},
                      RoomConfig{Config{"rqftl", false, 1024, 65536, 65536, 0, 24576, 12}, 1},
                      RoomConfig{Config{"rqftl", false, 128, 50000, 32768, 0, 0, 3}, 1}),
    room_config_name);

// The failing case of the FTL runtime's random run: a TP load with 12 waiters while the 12 LRU
// mappings are dirty, each of another TP. With room for 4 writebacks the load caches 4 wanted
// mappings and writes 4 TPs back; the other waiters miss and load the TP again, 4 at a time.
TEST(MapEvictionRoom, DftlLoadCachesOnlyTheWantedMappingsItsRoomCovers) {
  const uint32_t entries = 128;
  Harness h(Config{"dftl", false, entries, 50000, 4096, 0});
  ASSERT_TRUE(h.init());
  for (uint32_t tp = 0; tp < 300; ++tp) {  // far more TPs than the cache holds mappings
    h.update(tp * entries, 1000u + tp);
    if (HasFatalFailure()) return;
  }
  const uint32_t tp = 350;
  std::vector<uint32_t> waiting;
  for (uint32_t i = 0; i < 12; ++i) {
    uint32_t lpn = tp * entries + i;
    h.store_.flash[lpn] = h.reference_[lpn] = 5000u + i;
    waiting.push_back(lpn);
  }
  h.limit_call_room(4);
  std::vector<const map_request_t *> requests(waiting.size(), nullptr);
  for (uint32_t served = 0; served < waiting.size(); served += 4) {
    std::vector<uint32_t> entries_of_tp(h.store_.flash.begin() + tp * entries,
                                        h.store_.flash.begin() + (tp + 1) * entries);
    h.begin_call();
    h.scheme_->tp_loaded(tp, entries_of_tp.data(), waiting.data() + served, requests.data(),
                         static_cast<uint32_t>(waiting.size() - served));
    EXPECT_EQ(g_round_tps.size(), 4u) << "waiters from " << served;
    for (uint32_t i = served; i < waiting.size(); ++i) {
      uint32_t value = 0;
      map_answer_t answer = h.scheme_->lookup(waiting[i], nullptr, &value);
      EXPECT_EQ(answer, i < served + 4 ? MAP_HIT : MAP_MISS) << "waiter " << i;
      if (answer == MAP_HIT) {
        EXPECT_EQ(value, h.reference_[waiting[i]]) << "waiter " << i;
      }
    }
  }
  h.limit_call_room(UINT32_MAX);
  h.flush_and_check();
}

// SFTL: an update whose full dirty buffer must be merged while the pool has room only for what
// dirty TPs would free, and the call has no room to write one back, changes nothing and answers
// MAP_NO_ROOM; asked again with room, it merges.
TEST(MapEvictionRoom, SftlUpdateThatCannotMergeAnswersNoRoomAndChangesNothing) {
  const uint32_t entries = 128;
  Harness h(Config{"sftl", false, entries, 50000, 4096, 0});
  ASSERT_TRUE(h.init());
  for (uint32_t tp = 0; tp < 200; ++tp) {  // every cached TP dirty, more TPs than slots
    h.update(tp * entries, 100000u + tp);
    if (HasFatalFailure()) return;
  }
  uint32_t no_room = 0, vpn = 200000;
  for (uint32_t i = 0; i < 4000 && no_room < 3; ++i, vpn += 2) {  // scattered: many runs
    const uint32_t lpn = (190 + i % 10) * entries + (i * 37) % entries;
    h.limit_call_room(0);
    uint32_t value = MAP_OLD_UNKNOWN;
    h.begin_call();
    map_answer_t answer = h.scheme_->update(lpn, vpn, &value);
    h.end_call("update");
    if (HasFatalFailure()) return;
    h.limit_call_room(UINT32_MAX);
    if (answer == MAP_MISS) continue;  // not cached: no load without room
    if (answer == MAP_NO_ROOM) {
      ++no_room;
      h.lookup(lpn);  // still the old mapping
      if (HasFatalFailure()) return;
      value = MAP_OLD_UNKNOWN;
      answer = h.scheme_->update(lpn, vpn, &value);
    }
    ASSERT_EQ(answer, MAP_HIT) << "lpn " << lpn;
    ASSERT_EQ(value, h.reference_[lpn]) << "lpn " << lpn;
    h.reference_[lpn] = vpn;
  }
  EXPECT_GT(no_room, 0u) << "no merge ran short of room: nothing was tested";
  h.flush_and_check();
}

TEST(MapBudget, IdealNeedsTheWholeTable) {
  Config config{"ideal", false, 1024, 10000, 10000 * 4 - 1, 0};
  Harness too_small(config);
  EXPECT_FALSE(too_small.init());
  config.budget = 10000 * 4;
  Harness exact(config);
  EXPECT_TRUE(exact.init());
  EXPECT_LE(exact.arena_.used, config.budget);
}

TEST(MapBudget, EverySchemeStaysWithinItsBudgetAndRefusesATinyOne) {
  for (const char *name : {"dftl", "tpftl", "sftl"}) {
    for (bool whole : {false, true}) {
      for (uint32_t budget : {20000u, 50000u, 100000u, 1000000u}) {
        Harness h(Config{name, whole, 1024, 1u << 20, budget, 64});
        ASSERT_TRUE(h.init()) << name << " budget " << budget;
        EXPECT_LE(h.arena_.used, budget) << name << " budget " << budget;
        if (!whole) {  // whole-TP lines leave up to one line's bytes unused
          EXPECT_GT(h.arena_.used, budget * 9 / 10) << name << " leaves budget unused";
        }
      }
      Harness tiny(Config{name, whole, 1024, 1u << 20, 64, 64});
      EXPECT_FALSE(tiny.init()) << name;
    }
  }
}

// DFTL: random lookups over a space much larger than its cache almost never hit, so nearly
// every host read costs a TP read too (LearnedFTL figure 3(b): 0.1%).
TEST(MapBehaviour, DftlRandomLookupsAlmostNeverHit) {
  const uint32_t lpns = 1u << 20;
  Harness h(Config{"dftl", false, 1024, lpns, 16384, 0});
  ASSERT_TRUE(h.init());
  std::mt19937 random(7);
  const uint32_t reads = 50000;
  for (uint32_t i = 0; i < reads; i++) {
    h.lookup(random() % lpns);
    if (HasFatalFailure()) return;
  }
  // At most 16 KiB / 25 bytes of mappings are cached: a hit ratio of about 650 / 1 Mi.
  double expected_ceiling = 16384.0 / 25.0 / lpns;
  EXPECT_LT(h.first_ask_hit_ratio(), 5 * expected_ceiling + 0.001);
  EXPECT_EQ(h.counters().misses, h.loads);
  std::printf("dftl random first-ask hit ratio %.5f\n", h.first_ask_hit_ratio());
}

// TPFTL: sequential single-page reads hit at least 80% (LearnedFTL reports 80-93%), thanks to
// selective prefetch; DFTL gets nothing from the same stream.
TEST(MapBehaviour, TpftlSequentialLookupsHitThanksToSelectivePrefetch) {
  const uint32_t lpns = 1u << 16;
  for (const char *name : {"tpftl", "dftl"}) {
    Harness h(Config{name, false, 1024, lpns, 16384, 64});
    ASSERT_TRUE(h.init());
    for (uint32_t lpn = 0; lpn < lpns; lpn++) {
      map_request_t request{lpn, 1};
      h.lookup(lpn, &request);
      if (HasFatalFailure()) return;
    }
    if (std::string(name) == "tpftl") {
      EXPECT_GE(h.first_ask_hit_ratio(), 0.80);
      EXPECT_GT(h.counters().prefetched, 0u);
    } else {
      EXPECT_EQ(h.first_ask_hit_ratio(), 0.0);
    }
    std::printf("%s sequential first-ask hit ratio %.4f\n", name, h.first_ask_hit_ratio());
  }
}

// TPFTL request-level prefetch: one miss caches the rest of a multi-page request in that TP.
TEST(MapBehaviour, TpftlRequestLevelPrefetchServesTheWholeRequest) {
  Harness h(Config{"tpftl", false, 1024, 1u << 16, 16384, 0});
  ASSERT_TRUE(h.init());
  map_request_t request{1000, 40};  // crosses from TP 0 into TP 1
  for (uint32_t i = 0; i < request.pages; i++) h.lookup(request.first_lpn + i, &request);
  EXPECT_EQ(h.counters().misses, 2u);
  EXPECT_EQ(h.counters().prefetched, 38u);
}

// TPFTL batch update and clean-first: a node of dirty mappings leaves in one write-back.
TEST(MapBehaviour, TpftlBatchUpdateWritesANodeBackAtOnce) {
  Harness h(Config{"tpftl", false, 1024, 1u << 16, 8192, 0});
  ASSERT_TRUE(h.init());
  for (uint32_t lpn = 0; lpn < 20; lpn++) h.update(lpn, 5000 + lpn);  // all in TP 0
  // Clean mappings from other TPs fill the cache and push TP 0's node to the LRU end.
  for (uint32_t lpn = 2048; lpn < 2048 + 4000; lpn++) h.lookup(lpn);
  ASSERT_GE(h.store_.patch_log.size(), 1u);
  EXPECT_EQ(h.store_.patch_log[0].first, 0u);
  EXPECT_EQ(h.store_.patch_log[0].second.size(), 20u);
  for (uint32_t lpn = 0; lpn < 20; lpn++) EXPECT_EQ(h.store_.flash[lpn], 5000 + lpn);
  h.flush_and_check();
}

// DFTL: evicting one dirty mapping writes back every dirty mapping of its TP together.
TEST(MapBehaviour, DftlDirtyEvictionWritesBackTheWholeTpBatch) {
  Harness h(Config{"dftl", false, 1024, 1u << 16, 8192, 0});
  ASSERT_TRUE(h.init());
  for (uint32_t lpn = 0; lpn < 30; lpn += 3) h.update(lpn, 100 + lpn);  // 10 dirty, TP 0
  for (uint32_t lpn = 4096; lpn < 4096 + 2000; lpn++) h.lookup(lpn);   // clean, evicts them
  ASSERT_GE(h.store_.patch_log.size(), 1u);
  EXPECT_EQ(h.store_.patch_log[0].first, 0u);
  EXPECT_EQ(h.store_.patch_log[0].second.size(), 10u);
  EXPECT_EQ(h.store_.patch_calls, 1u) << "the batch left them clean: no second write-back";
  EXPECT_EQ(h.counters().dirty_evictions, 1u);
  h.flush_and_check();
}

// DFTL whole-TP lines: only dirty lines are written back, whole.
TEST(MapBehaviour, DftlWholeTpWritesBackOnlyDirtyLines) {
  const uint32_t e = 128;
  Harness h(Config{"dftl", true, e, 1u << 16, 4 * (e * 4 + 64), 0});
  ASSERT_TRUE(h.init());
  h.update(5, 77);               // TP 0 dirty
  for (uint32_t tp = 1; tp < 20; tp++) h.lookup(tp * e);  // clean TPs push TP 0 out
  EXPECT_EQ(h.store_.patch_calls, 0u);
  ASSERT_EQ(h.store_.page_log.size(), 1u);
  EXPECT_EQ(h.store_.page_log[0], 0u);
  EXPECT_EQ(h.store_.flash[5], 77u);
  EXPECT_EQ(h.counters().dirty_evictions, 1u);
  EXPECT_GT(h.counters().evictions, 0u);
}

// SFTL: sequentially written TPs compress to a run each, so many more fit than raw TPs would.
TEST(MapBehaviour, SftlCompressesSequentialTpsToFewRuns) {
  const uint32_t e = 1024;
  const uint32_t tps = 24;
  const uint32_t budget = 16384;
  ASSERT_GT(tps * e * 4, 2 * budget) << "raw, the TPs could not all fit";
  Harness h(Config{"sftl", false, e, 1u << 16, budget, 0});
  ASSERT_TRUE(h.init());
  for (uint32_t lpn = 0; lpn < tps * e; lpn++) h.update(lpn, 900000 + lpn);
  h.flush_and_check();
  if (HasFatalFailure()) return;
  for (uint32_t lpn = 0; lpn < tps * e; lpn++) h.lookup(lpn);  // brings every TP in once
  uint64_t misses = h.counters().misses;
  uint64_t evictions = h.counters().evictions;
  for (uint32_t lpn = 0; lpn < tps * e; lpn += 3) h.lookup(lpn);
  EXPECT_EQ(h.counters().misses, misses) << "all sequential TPs should be cached compressed";
  EXPECT_EQ(h.counters().evictions, evictions);
}

// SFTL: a TP of scattered VPNs is kept raw and still answers exactly.
TEST(MapBehaviour, SftlScatteredTpStaysExact) {
  const uint32_t e = 128;
  Harness h(Config{"sftl", false, e, 1u << 14, 8192, 0});
  ASSERT_TRUE(h.init());
  std::mt19937 random(3);
  for (uint32_t lpn = 0; lpn < 4 * e; lpn++) h.update(lpn, random() % 1000000);
  h.flush_and_check();
  for (uint32_t lpn = 0; lpn < 4 * e; lpn++) h.lookup(lpn);
}

TEST(MapDeterminism, SameSeedSameWriteBacksAndCounters) {
  for (const char *name : {"dftl", "tpftl", "sftl"}) {
    Config config{name, false, 128, 50000, 4096, 16};
    uint64_t digest[2];
    map_counters_t counters[2];
    for (int run = 0; run < 2; run++) {
      Harness h(config);
      ASSERT_TRUE(h.init());
      run_mix(h, 99u, 20000u);
      h.scheme_->flush();
      digest[run] = h.store_.digest;
      counters[run] = h.counters();
    }
    EXPECT_EQ(digest[0], digest[1]) << name;
    EXPECT_EQ(counters[0].hits, counters[1].hits) << name;
    EXPECT_EQ(counters[0].evictions, counters[1].evictions) << name;
  }
}

}  // namespace
}  // namespace ssdvp
