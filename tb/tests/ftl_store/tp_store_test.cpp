// The translation-page store (firmware/ftl/map/tp_store.c) against its header's contract, over
// the fake flash layer: loads, writebacks, programs, relocation, and a long random run against a
// reference map. The scheme is a recorder of tp_loaded calls; the block manager and the GTD are
// the firmware's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "tb/tests/ftl_store/fake_flash.h"
#include "tb/tests/ftl_store/hal_stubs.h"

extern "C" {
#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/map/tp_store.h"
#include "lib/arena.h"
}

namespace ssdvp::test {
namespace {

constexpr uint32_t kCwdp = BOOT_ALLOC_LEVEL_CHANNEL | BOOT_ALLOC_LEVEL_WAY << 2 |
                           BOOT_ALLOC_LEVEL_DIE << 4 | BOOT_ALLOC_LEVEL_PLANE << 6;

// One tp_loaded call, as the scheme saw it.
struct LoadedCall {
  const uint32_t *source;  // what tp_loaded got: valid for the whole call
  uint32_t tp;
  std::vector<uint32_t> entries;
  std::vector<uint32_t> wanted;
  std::vector<const map_request_t *> requests;
};

// The recording scheme: only tp_loaded is called by the TP store.
struct Recorder {
  uint32_t entries_per_tp = 0;
  std::vector<LoadedCall> calls;
  std::vector<uint32_t> resumed;  // waiter ids, in resume order
  std::multiset<uint32_t> served; // LPNs tp_loaded received and no waiter has resumed for yet
  // Waiters resumed without their TP (the reserve was short when it was read), in resume order.
  std::vector<uint32_t> unserved;
  bool unserved_expected = false;  // a test that starves the reserve says so
  std::function<void(const LoadedCall &)> check;  // runs on every tp_loaded call
  std::function<void(uint32_t id, bool served)> on_resume;
};
Recorder *recorder = nullptr;

void record_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                      const map_request_t *const *requests, uint32_t count) {
  LoadedCall call{entries, tp, std::vector<uint32_t>(entries, entries + recorder->entries_per_tp),
                  std::vector<uint32_t>(wanted, wanted + count),
                  std::vector<const map_request_t *>(requests, requests + count)};
  recorder->served.insert(wanted, wanted + count);
  if (recorder->check) {
    recorder->check(call);
  }
  recorder->calls.push_back(std::move(call));
}

map_scheme_t recording_scheme() {
  map_scheme_t scheme{};
  scheme.name = "recorder";
  scheme.tp_loaded = record_tp_loaded;
  return scheme;
}

// A waiter with an id the resume records.
struct TestWaiter {
  tp_waiter_t waiter;  // first: resume casts back
  uint32_t id;
  bool resumed;
};

// A waiter resumes after the scheme got its TP with its LPN among the wanted ones, or, when the
// reserve was short as the TP was read, without it (it then asks for the TP again).
void record_resume(tp_waiter_t *waiter) {
  TestWaiter *owner = reinterpret_cast<TestWaiter *>(waiter);
  EXPECT_FALSE(owner->resumed) << "waiter " << owner->id << " resumed twice";
  owner->resumed = true;
  recorder->resumed.push_back(owner->id);
  auto served = recorder->served.find(waiter->lpn);
  bool was_served = served != recorder->served.end();
  if (was_served) {
    recorder->served.erase(served);
  } else if (recorder->unserved_expected) {
    recorder->unserved.push_back(owner->id);
  } else {
    ADD_FAILURE() << "waiter " << owner->id << " resumed without its LPN in tp_loaded";
  }
  if (recorder->on_resume) {
    recorder->on_resume(owner->id, was_served);
  }
}

// MLC, two planes programmed together: a translation wordline is 4 pages, page i on plane i / 2.
constexpr nand_geometry_t kMlcTwoPlanes{1, 1, 1, 2, 16, 8, 64, 32, 2};
// Frames for loads in flight (ftl.tp_load_frames, its default).
constexpr uint32_t kLoadFrames = 8;

struct TpStoreTest : ::testing::Test {
  nand_geometry_t geometry = kMlcTwoPlanes;
  bool multi_plane = true;
  uint32_t tp_count = 64;
  uint32_t waiter_capacity = 64;
  uint32_t program_frames = 0;  // ftl.tp_program_frames: 0 = a wordline's pages
  uint32_t reserve_frames = 0;  // ftl.tp_reserve_frames: 0 = TP_STORE_RESERVE_FRAMES
  std::vector<uint8_t> memory = std::vector<uint8_t>(1u << 20);
  arena_t arena{};
  Recorder record;
  map_scheme_t scheme = recording_scheme();
  std::unique_ptr<FakeFlash> flash;
  block_manager_t blocks{};
  gtd_t gtd{};
  tp_store_t store{};
  uint32_t entries_per_tp = 0;

  void SetUp() override {
    recorder = &record;
    take_console();
  }
  void TearDown() override {
    recorder = nullptr;
    flash.reset();
  }

  // Builds everything with `records` flash records.
  void start(uint32_t records = 8) {
    arena_init(&arena, memory.data(), (uint32_t)memory.size(), FW_STATS_LOCATION_SRAM);
    entries_per_tp = geometry.page_bytes / 4u;
    record.entries_per_tp = entries_per_tp;
    ASSERT_TRUE(block_init(&blocks, &geometry, multi_plane, kCwdp, BLOCK_BUILTIN_STREAMS, &arena));
    flash = std::make_unique<FakeFlash>(geometry, &blocks, records, &arena);
    ASSERT_TRUE(gtd_init(&gtd, tp_count, &arena));
    ASSERT_TRUE(tp_store_init(&store, &scheme, flash->layer(), &blocks, &gtd, entries_per_tp,
                              waiter_capacity,
                              tp_store_frames_t{kLoadFrames, program_frames, reserve_frames},
                              &arena));
  }

  uint32_t unit_pages() const { return blocks.pages_per_program; }
  uint32_t lpn(uint32_t tp, uint32_t entry) const { return tp * entries_per_tp + entry; }
  // The group (physical block) holding the page at a VPN.
  uint32_t group_of(uint32_t vpn) const {
    return block_group_of(&blocks, block_vpn_to_ppn(&blocks, vpn));
  }

  // A TP's content, distinct per (tp, seed).
  std::vector<uint32_t> content(uint32_t tp, uint32_t seed) const {
    std::vector<uint32_t> entries(entries_per_tp);
    for (uint32_t i = 0; i < entries_per_tp; ++i) {
      entries[i] = tp * 100000u + seed * 1000u + i;
    }
    return entries;
  }

  // As the FTL's main loop: run the completions, then start the reads writebacks left for want
  // of a flash record.
  void drain() {
    flash_drain(flash->layer());
    tp_store_start_reads(&store);
  }
  // Completes and drains everything in flight, oldest first.
  void settle() {
    while (!flash->in_flight().empty() || flash->completions_waiting() != 0) {
      flash->complete_all();
      drain();
    }
  }
  // Writes whole TPs and programs them (padded): the TPs are in flash afterwards.
  // TPs 0 .. count - 1 in flash.
  void put_first_in_flash(uint32_t count) {
    std::vector<uint32_t> tps(count);
    for (uint32_t tp = 0; tp < count; ++tp) tps[tp] = tp;
    put_in_flash(tps);
  }
  // As a flush: a TP at a time while the store has room, its dirty TPs programmed when it has
  // none.
  void put_in_flash(const std::vector<uint32_t> &tps, uint32_t seed = 0) {
    for (uint32_t tp : tps) {
      if (!tp_store_can_write_back(&store)) {
        tp_store_pump(&store, true);
        settle();
      }
      ASSERT_TRUE(tp_store_can_write_back(&store));
      tp_store_write_back_page(&store, tp, content(tp, seed).data());
    }
    tp_store_pump(&store, true);
    settle();
    ASSERT_TRUE(tp_store_idle(&store));
    for (uint32_t tp : tps) {
      ASSERT_NE(gtd_get(&gtd, tp), VPN_UNMAPPED) << "TP " << tp;
    }
  }
  TestWaiter waiter(uint32_t id, uint32_t lpn, const map_request_t *request = nullptr,
                    bool host_read = false) {
    TestWaiter w{};
    w.waiter.lpn = lpn;
    w.waiter.request = request;
    w.waiter.host_read = host_read;
    w.waiter.resume = record_resume;
    w.id = id;
    return w;
  }
  // What the fake flash holds at the TP's GTD VPN.
  std::vector<uint32_t> in_flash(uint32_t tp) const { return flash->data(gtd_get(&gtd, tp)); }
  size_t programs_in_flight() const {
    return std::count_if(flash->in_flight().begin(), flash->in_flight().end(),
                         [](const FakeFlashOp &op) { return op.kind == NFC_OP_PROGRAM; });
  }
};

using TpStoreLoad = TpStoreTest;
using TpStoreWriteBack = TpStoreTest;
using TpStoreProgram = TpStoreTest;
using TpStoreRelocate = TpStoreTest;

TEST_F(TpStoreLoad, UnwrittenTpIsServedAtOnceFromTheUnmappedPage) {
  start();
  TestWaiter w = waiter(1, lpn(3, 5));
  EXPECT_EQ(tp_store_load(&store, 3, &w.waiter), TP_LOAD_DONE);
  ASSERT_EQ(record.calls.size(), 1u);
  EXPECT_EQ(record.calls[0].tp, 3u);
  EXPECT_EQ(record.calls[0].entries, std::vector<uint32_t>(entries_per_tp, VPN_UNMAPPED));
  EXPECT_EQ(record.calls[0].wanted, std::vector<uint32_t>{lpn(3, 5)});
  EXPECT_TRUE(flash->in_flight().empty());
  EXPECT_EQ(flash->reads(), 0u);
  EXPECT_FALSE(w.resumed) << "TP_LOAD_DONE: the caller asks again itself";
}

TEST_F(TpStoreLoad, FlashTpIsReadOnceAndEveryWaiterResumedInOrder) {
  start();
  put_in_flash({5});
  map_request_t request{lpn(5, 0), 4};
  TestWaiter a = waiter(1, lpn(5, 2), &request);
  TestWaiter b = waiter(2, lpn(5, 7), nullptr, true);
  TestWaiter c = waiter(3, lpn(5, 2));
  EXPECT_EQ(tp_store_load(&store, 5, &a.waiter), TP_LOAD_WAITING);
  EXPECT_EQ(tp_store_load(&store, 5, &b.waiter), TP_LOAD_WAITING);
  EXPECT_EQ(tp_store_load(&store, 5, &c.waiter), TP_LOAD_WAITING);
  ASSERT_EQ(flash->in_flight().size(), 1u) << "one read however many waiters";
  EXPECT_EQ(flash->in_flight()[0].kind, NFC_OP_READ);
  EXPECT_EQ(flash->in_flight()[0].vpn, gtd_get(&gtd, 5));
  EXPECT_TRUE(record.calls.empty());
  flash->complete(0);
  EXPECT_TRUE(record.calls.empty()) << "callbacks run only when the firmware drains";
  drain();
  ASSERT_EQ(record.calls.size(), 1u);
  EXPECT_EQ(record.calls[0].entries, content(5, 0));
  EXPECT_EQ(record.calls[0].wanted, (std::vector<uint32_t>{lpn(5, 2), lpn(5, 7), lpn(5, 2)}));
  EXPECT_EQ(record.calls[0].requests,
            (std::vector<const map_request_t *>{&request, nullptr, nullptr}));
  EXPECT_EQ(record.resumed, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(store.counters.reads, 1u);
  EXPECT_EQ(store.counters.reads_for_host, 1u);
  EXPECT_TRUE(tp_store_idle(&store));
  // Clean: the frame was freed, a later load reads again.
  TestWaiter d = waiter(4, lpn(5, 0));
  EXPECT_EQ(tp_store_load(&store, 5, &d.waiter), TP_LOAD_WAITING);
  EXPECT_EQ(flash->in_flight().size(), 1u);
}

TEST_F(TpStoreLoad, StallsWhileFlashRecordsAreShortAndResumesAfterProgress) {
  start(8);
  put_first_in_flash(8);
  tp_store_take_progress(&store);
  std::vector<TestWaiter> waiters;
  waiters.reserve(8);
  for (uint32_t tp = 0; tp < 8; ++tp) waiters.push_back(waiter(tp, lpn(tp, 0)));
  // Loads leave TP_STORE_RESERVE_RECORDS records for writebacks and programs.
  uint32_t started = 8 - TP_STORE_RESERVE_RECORDS;
  for (uint32_t tp = 0; tp < started; ++tp) {
    EXPECT_EQ(tp_store_load(&store, tp, &waiters[tp].waiter), TP_LOAD_WAITING) << tp;
  }
  EXPECT_EQ(tp_store_load(&store, started, &waiters[started].waiter), TP_LOAD_STALLED);
  EXPECT_FALSE(tp_store_take_progress(&store));
  // A load of a TP already being read queues on it all the same.
  TestWaiter again = waiter(100, lpn(0, 1));
  EXPECT_EQ(tp_store_load(&store, 0, &again.waiter), TP_LOAD_WAITING);
  flash->complete(0);
  drain();
  EXPECT_TRUE(tp_store_take_progress(&store));
  EXPECT_FALSE(tp_store_take_progress(&store)) << "true once";
  EXPECT_EQ(tp_store_load(&store, started, &waiters[started].waiter), TP_LOAD_WAITING);
  settle();
  EXPECT_EQ(record.resumed.size(), started + 2u);
}

TEST_F(TpStoreLoad, StallsWhileFramesAreShort) {
  start(32);
  put_first_in_flash(32);
  std::vector<TestWaiter> waiters;
  waiters.reserve(32);
  for (uint32_t tp = 0; tp < 32; ++tp) waiters.push_back(waiter(tp, lpn(tp, 0)));
  // Loads leave the writeback reserve of frames.
  uint32_t started = store.frame_count - TP_STORE_RESERVE_FRAMES;
  for (uint32_t tp = 0; tp < started; ++tp) {
    EXPECT_EQ(tp_store_load(&store, tp, &waiters[tp].waiter), TP_LOAD_WAITING) << tp;
  }
  EXPECT_EQ(tp_store_load(&store, started, &waiters[started].waiter), TP_LOAD_STALLED);
  EXPECT_TRUE(tp_store_can_evict(&store)) << "loads never eat the reserve";
  flash->complete(0);
  drain();
  EXPECT_TRUE(tp_store_take_progress(&store));
  EXPECT_EQ(tp_store_load(&store, started, &waiters[started].waiter), TP_LOAD_WAITING);
  settle();
  EXPECT_EQ(record.resumed.size(), started + 1u);
}

TEST_F(TpStoreLoad, ReadFailureIsAFirmwareFault) {
  start();
  put_in_flash({2});
  // Point the TP at a page never programmed: the read answers ERASED.
  gtd_set(&gtd, 2, gtd_get(&gtd, 2) + geometry.pages);
  TestWaiter w = waiter(1, lpn(2, 0));
  ASSERT_EQ(tp_store_load(&store, 2, &w.waiter), TP_LOAD_WAITING);
  flash->complete(0);
  EXPECT_THROW(drain(), FirmwareFault);
  EXPECT_NE(take_console().find("reading TP 2"), std::string::npos);
}

// tp_loaded may evict, which only the frame reserve makes safe. Loads take frames down to the
// reserve, and one scheme call's writebacks to TPs being read then take the reserve (MERGING
// frames): a read completing now does not reach the scheme. Its waiters resume without the TP
// (in the FTL they find no room and wait in the task queue); once programs have freed frames
// they ask again and get the TP, writebacks merged.
TEST_F(TpStoreLoad, ReadCompletingWithTheReserveShortResumesItsWaitersWithoutTheTp) {
  start(32);
  put_first_in_flash(20);
  uint32_t loads = store.frame_count - TP_STORE_RESERVE_FRAMES;
  std::vector<TestWaiter> waiters;
  waiters.reserve(loads);
  for (uint32_t tp = 0; tp < loads; ++tp) {
    waiters.push_back(waiter(tp, lpn(tp, 0)));
    ASSERT_EQ(tp_store_load(&store, tp, &waiters.back().waiter), TP_LOAD_WAITING);
  }
  ASSERT_TRUE(tp_store_can_evict(&store));
  for (uint32_t tp = 0; tp < TP_STORE_EVICTIONS_PER_CALL; ++tp) {
    map_patch_t patch[] = {{lpn(tp, 1), 1000 + tp}};
    tp_store_write_back_patches(&store, tp, patch, 1);
  }
  ASSERT_FALSE(tp_store_can_evict(&store));
  record.unserved_expected = true;
  flash->complete(flash->in_flight().size() - 1);  // the last load's read: no writeback on it
  drain();
  EXPECT_TRUE(record.calls.empty()) << "tp_loaded ran with the frame reserve short";
  EXPECT_EQ(record.unserved, std::vector<uint32_t>{loads - 1});
  // The other reads: TPs 0-3 merged and dirty; each frame freed brings the reserve back, and
  // later reads reach the scheme.
  settle();
  EXPECT_FALSE(record.calls.empty());
  EXPECT_EQ(record.calls.size() + record.unserved.size(), loads);
  tp_store_pump(&store, true);
  settle();
  ASSERT_TRUE(tp_store_idle(&store));
  ASSERT_TRUE(tp_store_can_evict(&store));
  std::vector<uint32_t> again = record.unserved;
  record.unserved_expected = false;
  for (uint32_t id : again) {
    waiters[id] = waiter(100 + id, lpn(id, 0));
    ASSERT_EQ(tp_store_load(&store, id, &waiters[id].waiter), TP_LOAD_WAITING) << id;
  }
  settle();
  ASSERT_EQ(record.calls.size(), loads);
  for (const LoadedCall &call : record.calls) {
    std::vector<uint32_t> expected = content(call.tp, 0);
    if (call.tp < TP_STORE_EVICTIONS_PER_CALL) expected[1] = 1000 + call.tp;
    EXPECT_EQ(call.entries, expected) << "TP " << call.tp;
  }
  EXPECT_TRUE(std::all_of(waiters.begin(), waiters.end(), [](const TestWaiter &w) {
    return w.resumed;
  }));
}

// A copy waiter (GC reading a TP) needs no room: it gets its copy whatever the reserve.
TEST_F(TpStoreLoad, ACopyWaiterGetsItsCopyWithTheReserveShort) {
  start(32);
  put_first_in_flash(20);
  uint32_t loads = store.frame_count - TP_STORE_RESERVE_FRAMES;
  std::vector<TestWaiter> waiters;
  waiters.reserve(loads);
  std::vector<uint32_t> copy(entries_per_tp);
  for (uint32_t tp = 0; tp < loads; ++tp) {
    waiters.push_back(waiter(tp, lpn(tp, 0)));
    if (tp == 5) waiters.back().waiter.copy = copy.data();
    ASSERT_EQ(tp_store_load(&store, tp, &waiters.back().waiter), TP_LOAD_WAITING);
  }
  for (uint32_t tp = 10; tp < 10 + TP_STORE_EVICTIONS_PER_CALL; ++tp) {
    tp_store_write_back_page(&store, tp, content(tp, 1).data());
  }
  ASSERT_FALSE(tp_store_can_evict(&store));
  record.unserved_expected = true;
  flash->complete(5);
  drain();
  EXPECT_EQ(copy, content(5, 0));
  EXPECT_TRUE(waiters[5].resumed);
  EXPECT_TRUE(record.calls.empty());
  tp_store_pump(&store, true);
  settle();
}

// A writeback never waits for a flash record: with none free, the flash copy it must merge with
// is read once one is (tp_store_start_reads, from the main loop). Loads of the TP meanwhile wait
// for that read.
TEST_F(TpStoreWriteBack, PatchesFindingNoFlashRecordReadTheFlashCopyOnceOneIsFree) {
  start(4);
  put_first_in_flash(5);
  TestWaiter a = waiter(1, lpn(0, 0));
  TestWaiter b = waiter(2, lpn(1, 0));
  ASSERT_EQ(tp_store_load(&store, 0, &a.waiter), TP_LOAD_WAITING);
  ASSERT_EQ(tp_store_load(&store, 1, &b.waiter), TP_LOAD_WAITING);
  map_patch_t two[] = {{lpn(2, 3), 302}};
  map_patch_t three[] = {{lpn(3, 3), 303}};
  tp_store_write_back_patches(&store, 2, two, 1);
  tp_store_write_back_patches(&store, 3, three, 1);
  ASSERT_EQ(flash->layer()->free_count, 0u);
  map_patch_t four[] = {{lpn(4, 3), 304}, {lpn(4, 4), VPN_UNMAPPED}};
  tp_store_write_back_patches(&store, 4, four, 2);
  EXPECT_EQ(flash->in_flight().size(), 4u) << "no record: TP 4's read waits";
  EXPECT_FALSE(tp_store_idle(&store));
  TestWaiter c = waiter(3, lpn(4, 4));
  EXPECT_EQ(tp_store_load(&store, 4, &c.waiter), TP_LOAD_WAITING);
  flash->complete(0);
  drain();
  ASSERT_EQ(flash->in_flight().size(), 4u) << "TP 4's read starts once a record is free";
  EXPECT_EQ(flash->in_flight().back().vpn, gtd_get(&gtd, 4));
  settle();
  EXPECT_TRUE(c.resumed);
  ASSERT_FALSE(record.calls.empty());
  std::vector<uint32_t> expected = content(4, 0);
  expected[3] = 304;
  expected[4] = VPN_UNMAPPED;
  EXPECT_EQ(record.calls.back().tp, 4u);
  EXPECT_EQ(record.calls.back().entries, expected);
  tp_store_pump(&store, true);
  settle();
  EXPECT_TRUE(tp_store_idle(&store));
  EXPECT_EQ(in_flash(4), expected);
  expected = content(2, 0);
  expected[3] = 302;
  EXPECT_EQ(in_flash(2), expected);
}

TEST_F(TpStoreWriteBack, PatchesToAFlashTpReadTheOldCopyAndPatchedEntriesWin) {
  start();
  put_in_flash({4});
  uint32_t reads = (uint32_t)flash->reads();
  map_patch_t first[] = {{lpn(4, 1), 777}, {lpn(4, 5), 555}};
  tp_store_write_back_patches(&store, 4, first, 2);
  ASSERT_EQ(flash->in_flight().size(), 1u);
  EXPECT_EQ(flash->in_flight()[0].kind, NFC_OP_READ);
  // More patches while the read is in flight: the newest value of an entry wins.
  map_patch_t second[] = {{lpn(4, 1), 778}, {lpn(4, 9), VPN_UNMAPPED}};
  tp_store_write_back_patches(&store, 4, second, 2);
  EXPECT_EQ(flash->in_flight().size(), 1u) << "one read for both";
  settle();
  tp_store_pump(&store, true);
  settle();
  std::vector<uint32_t> expected = content(4, 0);
  expected[1] = 778;
  expected[5] = 555;
  expected[9] = VPN_UNMAPPED;
  EXPECT_EQ(in_flash(4), expected);
  EXPECT_EQ(flash->reads(), reads + 1u);
  EXPECT_TRUE(tp_store_idle(&store));
}

TEST_F(TpStoreWriteBack, PatchesToAnUnwrittenTpNeedNoRead) {
  start();
  map_patch_t patch[] = {{lpn(6, 3), 42}};
  tp_store_write_back_patches(&store, 6, patch, 1);
  EXPECT_TRUE(flash->in_flight().empty());
  tp_store_pump(&store, true);
  settle();
  std::vector<uint32_t> expected(entries_per_tp, VPN_UNMAPPED);
  expected[3] = 42;
  EXPECT_EQ(in_flash(6), expected);
  EXPECT_EQ(flash->reads(), 0u);
}

TEST_F(TpStoreWriteBack, WriteBackPageNeedsNoRead) {
  start();
  put_in_flash({4});
  uint64_t reads = flash->reads();
  tp_store_write_back_page(&store, 4, content(4, 1).data());
  EXPECT_TRUE(flash->in_flight().empty());
  tp_store_pump(&store, true);
  settle();
  EXPECT_EQ(in_flash(4), content(4, 1));
  EXPECT_EQ(flash->reads(), reads);
}

TEST_F(TpStoreWriteBack, LoadArrivingDuringAMergeSeesMergedContent) {
  start();
  put_in_flash({8});
  map_patch_t patch[] = {{lpn(8, 0), 1234}};
  tp_store_write_back_patches(&store, 8, patch, 1);
  TestWaiter w = waiter(1, lpn(8, 0));
  EXPECT_EQ(tp_store_load(&store, 8, &w.waiter), TP_LOAD_WAITING);
  EXPECT_EQ(flash->in_flight().size(), 1u) << "the load waits for the merge's read";
  settle();
  std::vector<uint32_t> expected = content(8, 0);
  expected[0] = 1234;
  ASSERT_EQ(record.calls.size(), 1u);
  EXPECT_EQ(record.calls[0].entries, expected);
  EXPECT_EQ(record.resumed, std::vector<uint32_t>{1});
  // Merged and dirty: a later load is answered from memory at once.
  TestWaiter again = waiter(2, lpn(8, 1));
  EXPECT_EQ(tp_store_load(&store, 8, &again.waiter), TP_LOAD_DONE);
  EXPECT_EQ(record.calls.back().entries, expected);
}

TEST_F(TpStoreWriteBack, PatchArrivingAfterALoadIsInWhatTheLoadGets) {
  start();
  put_in_flash({8});
  TestWaiter w = waiter(1, lpn(8, 3));
  EXPECT_EQ(tp_store_load(&store, 8, &w.waiter), TP_LOAD_WAITING);
  map_patch_t patch[] = {{lpn(8, 3), 99}};
  tp_store_write_back_patches(&store, 8, patch, 1);
  EXPECT_EQ(flash->in_flight().size(), 1u);
  settle();
  std::vector<uint32_t> expected = content(8, 0);
  expected[3] = 99;
  ASSERT_EQ(record.calls.size(), 1u);
  EXPECT_EQ(record.calls[0].entries, expected);
  tp_store_pump(&store, true);
  settle();
  EXPECT_EQ(in_flash(8), expected);
}

// GC reads a TP through a copy waiter: the content, patches merged, lands in its buffer before
// it resumes, and the scheme hears only of the other waiters; from memory the copy is at once.
bool g_copy_resumed = false;
void copy_resumed(tp_waiter_t *) { g_copy_resumed = true; }

TEST_F(TpStoreWriteBack, ACopyWaiterGetsTheMergedContentAndTheSchemeHearsNothingOfIt) {
  start();
  put_in_flash({8});
  std::vector<uint32_t> copy(entries_per_tp, 0);
  TestWaiter gc = waiter(9, lpn(8, 0));
  gc.waiter.copy = copy.data();
  gc.waiter.resume = copy_resumed;
  g_copy_resumed = false;
  TestWaiter host = waiter(1, lpn(8, 5));
  EXPECT_EQ(tp_store_load(&store, 8, &gc.waiter), TP_LOAD_WAITING);
  EXPECT_EQ(tp_store_load(&store, 8, &host.waiter), TP_LOAD_WAITING);
  map_patch_t patch[] = {{lpn(8, 3), 99}};
  tp_store_write_back_patches(&store, 8, patch, 1);
  settle();
  std::vector<uint32_t> expected = content(8, 0);
  expected[3] = 99;
  EXPECT_EQ(copy, expected);
  EXPECT_TRUE(g_copy_resumed);
  ASSERT_EQ(record.calls.size(), 1u);
  EXPECT_EQ(record.calls[0].wanted, std::vector<uint32_t>{lpn(8, 5)});
  // Merged and dirty: the next copy is made at once, and nobody else hears of it.
  std::fill(copy.begin(), copy.end(), 0u);
  g_copy_resumed = false;
  EXPECT_EQ(tp_store_load(&store, 8, &gc.waiter), TP_LOAD_DONE);
  EXPECT_EQ(copy, expected);
  EXPECT_FALSE(g_copy_resumed) << "TP_LOAD_DONE: the caller goes on itself";
  EXPECT_EQ(record.calls.size(), 1u);
  // An unwritten TP copies as unmapped.
  EXPECT_EQ(tp_store_load(&store, 9, &gc.waiter), TP_LOAD_DONE);
  EXPECT_EQ(copy, std::vector<uint32_t>(entries_per_tp, VPN_UNMAPPED));
}

TEST_F(TpStoreWriteBack, NewerCopyWhileProgrammingIsProgrammedAfterTheOlder) {
  start();
  tp_store_write_back_page(&store, 7, content(7, 0).data());
  tp_store_pump(&store, true);
  ASSERT_EQ(programs_in_flight(), 1u);
  // The copy being programmed stays readable.
  TestWaiter w = waiter(1, lpn(7, 0));
  EXPECT_EQ(tp_store_load(&store, 7, &w.waiter), TP_LOAD_DONE);
  EXPECT_EQ(record.calls.back().entries, content(7, 0));
  map_patch_t patch[] = {{lpn(7, 2), 4242}};
  tp_store_write_back_patches(&store, 7, patch, 1);
  EXPECT_TRUE(flash->in_flight().size() == 1u) << "no read: the newer copy starts from memory";
  tp_store_pump(&store, true);
  EXPECT_EQ(programs_in_flight(), 1u) << "the newer copy waits for the older one's program";
  flash->complete(0);
  drain();
  uint32_t older = gtd_get(&gtd, 7);
  EXPECT_EQ(flash->data(older), content(7, 0));
  tp_store_pump(&store, true);
  ASSERT_EQ(programs_in_flight(), 1u);
  settle();
  std::vector<uint32_t> expected = content(7, 0);
  expected[2] = 4242;
  EXPECT_NE(gtd_get(&gtd, 7), older);
  EXPECT_EQ(in_flash(7), expected);
  EXPECT_FALSE(block_page_valid(&blocks, older));
  EXPECT_TRUE(block_page_valid(&blocks, gtd_get(&gtd, 7)));
}

// A flush hands over more TPs than there are frames: a TP at a time while
// tp_store_can_write_back says it leaves the reserve intact. Without room it stops (the store
// never waits: nothing completes inside it), and it goes on once programs have freed frames.
TEST_F(TpStoreWriteBack, FlushStopsWithoutRoomAndGoesOnOnceProgramsFreeFrames) {
  start();
  put_first_in_flash(6);  // patches to these merge with their flash copies
  uint32_t tps = store.frame_count + 13u;
  uint32_t next = 0;
  auto flush = [&] {  // one call of a scheme's flush: true when every TP went
    for (; next < tps; ++next) {
      if (!tp_store_can_write_back(&store)) return false;
      if (next < 6) {
        map_patch_t patch[] = {{lpn(next, 2), 2000 + next}};
        tp_store_write_back_patches(&store, next, patch, 1);
      } else {
        tp_store_write_back_page(&store, next, content(next, 3).data());
      }
    }
    return true;
  };
  uint32_t stops = 0;
  while (!flush()) {
    ++stops;
    ASSERT_LT(stops, 100u);
    EXPECT_TRUE(tp_store_can_evict(&store)) << "a flush leaves the reserve to scheme calls";
    uint64_t reads = flash->reads();
    tp_store_pump(&store, true);  // as the flush command does before it waits
    ASSERT_FALSE(flash->in_flight().empty()) << "nothing would free a frame";
    EXPECT_FALSE(tp_store_can_write_back(&store)) << "room before any completion";
    EXPECT_EQ(flash->reads(), reads);
    // The flush waits in the task queue until a completion frees frames.
    while (!tp_store_take_progress(&store)) {
      ASSERT_FALSE(flash->in_flight().empty());
      flash->complete(0);
      drain();
    }
  }
  EXPECT_GT(stops, 0u);
  tp_store_pump(&store, true);
  settle();
  EXPECT_TRUE(tp_store_idle(&store));
  for (uint32_t tp = 0; tp < tps; ++tp) {
    std::vector<uint32_t> expected = content(tp, tp < 6 ? 0 : 3);
    if (tp < 6) expected[2] = 2000 + tp;
    EXPECT_EQ(in_flash(tp), expected) << "TP " << tp;
  }
}

// A scheme call that started with the reserve intact writes TPs back while
// tp_store_eviction_room says two frames are left. A whole page takes one frame; patches to a TP
// in flash take two (its flash copy being read, the patches merged into it), so the reserve
// covers TP_STORE_EVICTIONS_PER_CALL writebacks whatever they are; the call may spend it all but
// never runs out of frames (one frame left is not enough for patches), and once the reads and
// programs complete every TP holds what was written back.
TEST_F(TpStoreWriteBack, ASchemeCallWritesBackWhileItsEvictionRoomLasts) {
  start(64);
  put_first_in_flash(48);
  record.unserved_expected = true;  // the loads complete with the reserve spent
  std::vector<TestWaiter> waiters;
  waiters.reserve(24);
  for (uint32_t tp = 24; tp < 48; ++tp) {  // loads take every frame beyond the reserve
    waiters.push_back(waiter(tp, lpn(tp, 0)));
    if (tp_store_load(&store, tp, &waiters.back().waiter) == TP_LOAD_STALLED) break;
  }
  ASSERT_EQ(store.free_count, TP_STORE_RESERVE_FRAMES);
  ASSERT_TRUE(tp_store_can_evict(&store));
  ASSERT_TRUE(tp_store_eviction_room(&store));
  tp_store_write_back_page(&store, 0, content(0, 9).data());
  uint32_t written = 1;
  for (uint32_t tp = 1; tp < 24 && tp_store_eviction_room(&store); ++tp, ++written) {
    map_patch_t patch[] = {{lpn(tp, 5), 7000 + tp}};
    tp_store_write_back_patches(&store, tp, patch, 1);
  }
  EXPECT_EQ(written, TP_STORE_EVICTIONS_PER_CALL);
  EXPECT_EQ(store.free_count, 1u);
  EXPECT_FALSE(tp_store_can_evict(&store)) << "the call spent the reserve";
  for (uint32_t rounds = 0; !tp_store_idle(&store); ++rounds) {  // merged copies, then programs
    ASSERT_LT(rounds, 10u);
    tp_store_pump(&store, true);
    settle();
  }
  EXPECT_TRUE(tp_store_can_evict(&store));
  EXPECT_EQ(in_flash(0), content(0, 9));
  for (uint32_t tp = 1; tp < written; ++tp) {
    std::vector<uint32_t> expected = content(tp, 0);
    expected[5] = 7000 + tp;
    EXPECT_EQ(in_flash(tp), expected) << "TP " << tp;
  }
}

TEST_F(TpStoreProgram, WholeTranslationWordlinesOnlyUnlessForced) {
  start();
  ASSERT_EQ(unit_pages(), 4u);
  for (uint32_t tp = 0; tp < 3; ++tp) tp_store_write_back_page(&store, tp, content(tp, 0).data());
  tp_store_pump(&store, false);
  EXPECT_TRUE(flash->in_flight().empty()) << "3 of 4 pages: no program";
  tp_store_write_back_page(&store, 3, content(3, 0).data());
  tp_store_pump(&store, false);
  ASSERT_EQ(flash->in_flight().size(), 1u);
  const FakeFlashOp &program = flash->in_flight()[0];
  EXPECT_EQ(program.kind, NFC_OP_PROGRAM);
  EXPECT_EQ(program.planes, 2u);
  uint32_t first = program.vpn;
  settle();
  for (uint32_t i = 0; i < 4; ++i) {
    uint32_t vpn = first + i;
    EXPECT_EQ(gtd_get(&gtd, i), vpn) << "TP " << i << " is page " << i << " of the wordline";
    EXPECT_EQ(flash->data(vpn), content(i, 0));
    EXPECT_EQ(flash->oob(vpn)[OOB_WORD_OWNER], i | OOB_TRANSLATION);
  }
  EXPECT_EQ(store.counters.programmed, 4u);
  EXPECT_EQ(store.counters.padding, 0u);
  // A forced pump pads the last partial wordline.
  tp_store_write_back_page(&store, 10, content(10, 0).data());
  tp_store_write_back_page(&store, 11, content(11, 0).data());
  tp_store_pump(&store, false);
  EXPECT_TRUE(flash->in_flight().empty());
  tp_store_pump(&store, true);
  ASSERT_EQ(flash->in_flight().size(), 1u);
  first = flash->in_flight()[0].vpn;
  settle();
  EXPECT_EQ(gtd_get(&gtd, 10), first);
  EXPECT_EQ(gtd_get(&gtd, 11), first + 1);
  for (uint32_t i = 2; i < 4; ++i) {
    EXPECT_EQ(flash->oob(first + i)[OOB_WORD_OWNER], OOB_FILLER);
    EXPECT_FALSE(block_page_valid(&blocks, first + i));
  }
  EXPECT_EQ(store.counters.padding, 2u);
  EXPECT_TRUE(tp_store_idle(&store));
}

TEST_F(TpStoreProgram, ProgramFramesSizeThePoolAndFewerThanAWordlineStillSettleEveryTp) {
  // ftl.tp_program_frames 1 where a wordline is 4 pages: the pool is 1 + the reserve + the load
  // frames, and more dirty TPs than it holds still reach flash (padded programs when short).
  // Like a scheme, the test writes back only while the store has eviction room, and lets
  // programs complete when it has none.
  program_frames = 1;
  start();
  ASSERT_EQ(unit_pages(), 4u);
  EXPECT_EQ(store.frame_count, 1u + TP_STORE_RESERVE_FRAMES + kLoadFrames);
  uint32_t tps = store.frame_count + 5u;
  uint32_t waits = 0;
  for (uint32_t tp = 0; tp < tps; ++tp) {
    while (!tp_store_eviction_room(&store)) {
      ASSERT_LT(++waits, 100u) << "short of frames, the store must pad a program";
      tp_store_pump(&store, false);
      settle();
    }
    tp_store_write_back_page(&store, tp, content(tp, 7).data());
  }
  EXPECT_GT(waits, 0u) << "more TPs than frames: the room must run short";
  tp_store_pump(&store, true);
  settle();
  EXPECT_TRUE(tp_store_idle(&store));
  for (uint32_t tp = 0; tp < tps; ++tp) {
    EXPECT_EQ(in_flash(tp), content(tp, 7)) << "TP " << tp;
  }
}

TEST_F(TpStoreProgram, DefaultProgramFramesAreAWordline) {
  start();
  EXPECT_EQ(store.frame_count, unit_pages() + TP_STORE_RESERVE_FRAMES + kLoadFrames);
}

TEST_F(TpStoreProgram, GtdFollowsTheNewPageAndTheOldOneIsInvalid) {
  start();
  put_in_flash({1, 2, 3, 4});
  uint32_t old_vpn = gtd_get(&gtd, 2);
  uint32_t old_stripe = block_stripe_of(&blocks, old_vpn);
  uint32_t valid_before = blocks.stripes[old_stripe].valid_pages;
  EXPECT_TRUE(block_page_valid(&blocks, old_vpn));
  put_in_flash({2}, 1);
  uint32_t new_vpn = gtd_get(&gtd, 2);
  EXPECT_NE(new_vpn, old_vpn);
  EXPECT_FALSE(block_page_valid(&blocks, old_vpn));
  EXPECT_TRUE(block_page_valid(&blocks, new_vpn));
  EXPECT_EQ(flash->data(new_vpn), content(2, 1));
  EXPECT_EQ(blocks.stripes[old_stripe].valid_pages,
            valid_before - 1u + (block_stripe_of(&blocks, new_vpn) == old_stripe ? 1u : 0u));
}

TEST_F(TpStoreProgram, FailedProgramRetiresTheBlockAndProgramsTheFramesElsewhere) {
  start();
  for (uint32_t tp = 0; tp < 4; ++tp) tp_store_write_back_page(&store, tp, content(tp, 0).data());
  flash->fail_programs(1);
  tp_store_pump(&store, false);
  ASSERT_EQ(flash->in_flight().size(), 1u);
  uint32_t failed_group = block_group_of(&blocks, flash->in_flight()[0].ppn);
  EXPECT_EQ(flash->complete(0), NFC_STATUS_PROGRAM_FAIL);
  drain();
  EXPECT_EQ(blocks.groups[failed_group].state, BLOCK_GROUP_RETIRED);
  for (uint32_t tp = 0; tp < 4; ++tp) EXPECT_EQ(gtd_get(&gtd, tp), VPN_UNMAPPED);
  EXPECT_FALSE(tp_store_idle(&store)) << "the frames are dirty again";
  TestWaiter w = waiter(1, lpn(2, 0));
  EXPECT_EQ(tp_store_load(&store, 2, &w.waiter), TP_LOAD_DONE);
  EXPECT_EQ(record.calls.back().entries, content(2, 0));
  tp_store_pump(&store, false);
  ASSERT_EQ(flash->in_flight().size(), 1u) << "a whole wordline again";
  EXPECT_NE(block_group_of(&blocks, flash->in_flight()[0].ppn), failed_group);
  settle();
  for (uint32_t tp = 0; tp < 4; ++tp) {
    EXPECT_NE(group_of(gtd_get(&gtd, tp)), failed_group);
    EXPECT_EQ(in_flash(tp), content(tp, 0));
  }
  EXPECT_TRUE(tp_store_idle(&store));
}

TEST_F(TpStoreProgram, FailedOlderProgramStillGoesBeforeTheNewerCopy) {
  start();
  for (uint32_t tp = 0; tp < 4; ++tp) tp_store_write_back_page(&store, tp, content(tp, 0).data());
  flash->fail_programs(1);
  tp_store_pump(&store, false);
  tp_store_write_back_page(&store, 1, content(1, 1).data());  // newer copy behind PROGRAMMING
  settle();
  tp_store_pump(&store, true);
  settle();
  tp_store_pump(&store, true);
  settle();
  EXPECT_EQ(in_flash(1), content(1, 1));
  EXPECT_EQ(in_flash(0), content(0, 0));
  EXPECT_TRUE(tp_store_idle(&store));
}

// Every translation page programmed, padding included, must be settled in the block manager, or
// a full translation block never becomes collectable.
TEST_F(TpStoreProgram, SettlesEveryTranslationPage) {
  start();
  uint32_t per_group = unit_pages() * (geometry.pages / geometry.bits_per_cell);
  std::vector<uint32_t> tps(per_group);
  for (uint32_t tp = 0; tp < per_group; ++tp) tps[tp] = tp;
  put_in_flash(tps);
  uint32_t stripe = block_stripe_of(&blocks, gtd_get(&gtd, 0));
  EXPECT_EQ(blocks.stripes[stripe].state, BLOCK_FULL);
  EXPECT_EQ(blocks.stripes[stripe].unsettled_pages, 0u);
  put_in_flash({40, 41});  // a padded wordline in the next group
  uint32_t next = block_stripe_of(&blocks, gtd_get(&gtd, 40));
  EXPECT_EQ(blocks.stripes[next].unsettled_pages, 0u);
  put_in_flash(tps, 1);
  EXPECT_EQ(blocks.stripes[stripe].valid_pages, 0u);
  EXPECT_TRUE(block_collectable(&blocks, stripe));
}

TEST_F(TpStoreRelocate, RewritesACurrentTpAndIgnoresAStaleVpn) {
  start();
  put_in_flash({3, 4});
  uint32_t current = gtd_get(&gtd, 3);
  uint32_t stale = gtd_get(&gtd, 4);
  EXPECT_TRUE(tp_store_relocate(&store, 3, stale));
  EXPECT_TRUE(flash->in_flight().empty()) << "not TP 3's copy: nothing to do";
  EXPECT_TRUE(tp_store_idle(&store));
  EXPECT_TRUE(tp_store_relocate(&store, 3, current));
  ASSERT_EQ(flash->in_flight().size(), 1u);
  EXPECT_EQ(flash->in_flight()[0].kind, NFC_OP_READ);
  settle();
  EXPECT_TRUE(record.calls.empty()) << "a relocation wakes no scheme";
  tp_store_pump(&store, true);
  settle();
  EXPECT_NE(gtd_get(&gtd, 3), current);
  EXPECT_EQ(in_flash(3), content(3, 0));
  EXPECT_FALSE(block_page_valid(&blocks, current));
  EXPECT_TRUE(block_page_valid(&blocks, gtd_get(&gtd, 3)));
  EXPECT_EQ(gtd_get(&gtd, 4), stale);
}

TEST_F(TpStoreRelocate, ADirtyCopyNeedsNoRead) {
  start();
  put_in_flash({3});
  uint32_t current = gtd_get(&gtd, 3);
  map_patch_t patch[] = {{lpn(3, 0), 5}};
  tp_store_write_back_patches(&store, 3, patch, 1);
  settle();  // merged: DIRTY
  uint64_t reads = flash->reads();
  EXPECT_TRUE(tp_store_relocate(&store, 3, current));
  EXPECT_EQ(flash->reads(), reads);
  tp_store_pump(&store, true);
  settle();
  std::vector<uint32_t> expected = content(3, 0);
  expected[0] = 5;
  EXPECT_EQ(in_flash(3), expected);
  EXPECT_FALSE(block_page_valid(&blocks, current));
}

TEST_F(TpStoreRelocate, RefusesWhenFramesAreShort) {
  start(32);
  put_first_in_flash(32);
  std::vector<TestWaiter> waiters;
  waiters.reserve(32);
  uint32_t loads = store.frame_count - TP_STORE_RESERVE_FRAMES;
  for (uint32_t tp = 0; tp < loads; ++tp) {
    waiters.push_back(waiter(tp, lpn(tp, 0)));
    ASSERT_EQ(tp_store_load(&store, tp, &waiters.back().waiter), TP_LOAD_WAITING);
  }
  EXPECT_FALSE(tp_store_relocate(&store, 31, gtd_get(&gtd, 31)));
  settle();
  EXPECT_TRUE(tp_store_relocate(&store, 31, gtd_get(&gtd, 31)));
}

// A long random run against a reference map: writebacks of random patches and pages, loads,
// pumps, relocations and completions in random order (a read completing while the reserve is
// short resumes its waiters without the TP, and they load it again). With `gc`, the flash is small and the test collects translation blocks as the
// FTL's GC does: relocate every TP the victim holds, wait for its valid pages to reach zero,
// erase. At the end a forced pump and draining leave every TP in flash, equal to the reference.
struct RandomCase {
  const char *name;
  nand_geometry_t geometry;
  bool multi_plane;
  bool gc;
  uint32_t program_failures;  // injected at random steps
  uint32_t seed;
  uint32_t program_frames = 0;  // ftl.tp_program_frames (0: a wordline's pages)
  uint32_t reserve_frames = 0;  // ftl.tp_reserve_frames (0: TP_STORE_RESERVE_FRAMES)
};

// Names the case in test listings instead of dumping its bytes.
void PrintTo(const RandomCase &c, std::ostream *os) { *os << c.name; }

struct TpStoreRandom : TpStoreTest, ::testing::WithParamInterface<RandomCase> {
  static constexpr uint32_t kSteps = 100000;
  std::mt19937 rng;
  std::vector<std::vector<uint32_t>> reference;
  std::vector<TestWaiter> pool;                       // a waiter is busy from WAITING to resume
  std::vector<std::pair<uint32_t, uint32_t>> stalled;  // (tp, lpn) to retry after progress
  uint32_t victim = BLOCK_NONE;
  uint32_t gc_cursor = 0;
  bool erasing = false;
  bool in_scheme_call = false;
  uint64_t loads_done = 0, loads_waited = 0, loads_stalled = 0, writebacks = 0, relocations = 0,
           collected = 0;

  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); }
  uint32_t free_groups() const {
    uint32_t total = 0;
    for (uint32_t unit = 0; unit < blocks.unit_count; ++unit) total += blocks.free_count[unit];
    return total;
  }

  // As a task asks the scheme: only with the reserve intact (tp_loaded may run at once).
  void load(uint32_t tp, uint32_t lpn_wanted) {
    if (!tp_store_can_evict(&store)) {
      stalled.emplace_back(tp, lpn_wanted);
      return;
    }
    auto free_waiter = std::find_if(pool.begin(), pool.end(), [](const TestWaiter &w) {
      return w.resumed;  // idle waiters are kept "resumed"
    });
    if (free_waiter == pool.end()) {
      stalled.emplace_back(tp, lpn_wanted);
      return;
    }
    free_waiter->waiter.lpn = lpn_wanted;
    free_waiter->resumed = false;
    switch (tp_store_load(&store, tp, &free_waiter->waiter)) {
    case TP_LOAD_DONE:
      free_waiter->resumed = true;
      if (auto served = record.served.find(lpn_wanted); served != record.served.end()) {
        record.served.erase(served);
      } else {
        ADD_FAILURE() << "TP_LOAD_DONE for LPN " << lpn_wanted << " without it in tp_loaded";
      }
      ++loads_done;
      break;
    case TP_LOAD_WAITING:
      ++loads_waited;
      break;
    case TP_LOAD_STALLED:
      free_waiter->resumed = true;
      stalled.emplace_back(tp, lpn_wanted);
      ++loads_stalled;
      break;
    }
  }

  void retry_stalled() {
    std::vector<std::pair<uint32_t, uint32_t>> retry;
    retry.swap(stalled);
    for (auto [tp, lpn_wanted] : retry) load(tp, lpn_wanted);
  }

  // One call of a scheme: up to TP_STORE_EVICTIONS_PER_CALL writebacks, each while the store
  // says there is eviction room (a reserve below 8 frames cuts the call short). The scheme is not
  // reentrant: no tp_loaded may run meanwhile (nothing completes inside a writeback).
  void write_back(uint32_t loaded_tp = UINT32_MAX) {
    bool outer = in_scheme_call;
    in_scheme_call = true;
    write_back_tps(loaded_tp);
    in_scheme_call = outer;
  }
  // A scheme evicting from tp_loaded often hands back the TP just loaded (its frame is CLEAN).
  void write_back_tps(uint32_t loaded_tp) {
    uint32_t count = 1u + pick(TP_STORE_EVICTIONS_PER_CALL);
    for (uint32_t n = 0; n < count && tp_store_eviction_room(&store); ++n) {
      uint32_t tp = loaded_tp != UINT32_MAX && pick(2) == 0 ? loaded_tp : pick(tp_count);
      ++writebacks;
      if (pick(5) == 0) {
        std::vector<uint32_t> page(entries_per_tp);
        for (uint32_t &entry : page) entry = pick(8) == 0 ? VPN_UNMAPPED : (uint32_t)rng();
        reference[tp] = page;
        tp_store_write_back_page(&store, tp, page.data());
        continue;
      }
      std::vector<map_patch_t> patches(1u + pick(4));
      for (map_patch_t &patch : patches) {
        uint32_t entry = pick(entries_per_tp);
        patch = {lpn(tp, entry), pick(8) == 0 ? VPN_UNMAPPED : (uint32_t)rng()};
        reference[tp][entry] = patch.vpn;
      }
      tp_store_write_back_patches(&store, tp, patches.data(), (uint32_t)patches.size());
    }
  }

  static void erase_done(flash_op_t *op, uint32_t status) {
    auto *self = static_cast<TpStoreRandom *>(op->owner);
    EXPECT_EQ(status, NFC_STATUS_OK);
    block_member_erased(&self->blocks, self->victim, 0, true);  // one unit: one member
    block_stripe_erased(&self->blocks, self->victim);
    self->victim = BLOCK_NONE;
    self->erasing = false;
    ++self->collected;
  }

  // One step of the test's GC of translation blocks (ftl.c's GC_RELOCATE, GC_TP_WAIT, GC_ERASE).
  void collect() {
    if (victim == BLOCK_NONE) {
      // The fewest valid pages (greedy), or any (as wear levelling would), so that some victims
      // hold current TPs.
      std::vector<uint32_t> candidates;
      for (uint32_t stripe = 0; stripe < blocks.stripe_count; ++stripe) {
        if (blocks.stripes[stripe].stream == BLOCK_STREAM_TRANSLATION &&
            block_collectable(&blocks, stripe)) {
          candidates.push_back(stripe);
        }
      }
      if (candidates.empty()) return;
      victim = candidates[pick((uint32_t)candidates.size())];
      if (pick(2) == 0 || free_groups() <= 2) {
        for (uint32_t stripe : candidates) {
          if (blocks.stripes[stripe].valid_pages < blocks.stripes[victim].valid_pages) {
            victim = stripe;
          }
        }
      }
      block_mark_victim(&blocks, victim);
      gc_cursor = 0;
    }
    if (erasing) return;
    for (; gc_cursor < tp_count; ++gc_cursor) {
      uint32_t vpn = gtd_get(&gtd, gc_cursor);
      if (vpn != VPN_UNMAPPED && block_stripe_of(&blocks, vpn) == victim) {
        if (!tp_store_relocate(&store, gc_cursor, vpn)) return;
        ++relocations;
      }
    }
    if (blocks.stripes[victim].valid_pages != 0) {
      // Pad only what nothing else will complete: padding costs the flash GC is short of.
      tp_store_pump(&store, store.programs_in_flight == 0 && store.reads_in_flight == 0);
      return;
    }
    const uint32_t member = block_member_vpn(&blocks, victim, 0);
    if (member == BLOCK_NONE) {  // its one member was retired: nothing to erase
      block_stripe_erased(&blocks, victim);
      victim = BLOCK_NONE;
      return;
    }
    flash_op_t *op = flash_op_take(flash->layer(), erase_done, this);
    if (op == nullptr) return;
    erasing = true;
    flash_erase(flash->layer(), op, member, blocks.unit_planes);
  }

  void step() {
    uint32_t action = pick(100);
    bool gc_needed = GetParam().gc && free_groups() <= 4;
    if (action < 25) {
      uint32_t tp = pick(tp_count);
      load(tp, lpn(tp, pick(entries_per_tp)));
    } else if (action < 45) {
      // The pipeline starts work that may evict only with the reserve intact, and holds host
      // writes back while GC is short of blocks.
      if (tp_store_can_evict(&store) && !(gc_needed && free_groups() <= 3)) write_back();
    } else if (action < 70) {
      if (!flash->in_flight().empty()) flash->complete(pick((uint32_t)flash->in_flight().size()));
    } else if (action < 82) {
      drain();
    } else if (action < 90) {
      tp_store_pump(&store, false);
    } else if (action < 92) {
      tp_store_pump(&store, !gc_needed);  // padding costs the flash GC is short of
    } else if (action < 95) {
      uint32_t tp = pick(tp_count);
      uint32_t vpn = gtd_get(&gtd, tp);
      if (vpn != VPN_UNMAPPED) {
        // The current copy, or a stale VPN (ignored).
        bool current = pick(2) == 0;
        if (tp_store_relocate(&store, tp, current ? vpn : vpn + 1u) && current) ++relocations;
      }
    }
    if (pick(kSteps) < GetParam().program_failures) flash->fail_programs(1);
    if (gc_needed || (victim != BLOCK_NONE && pick(4) == 0)) collect();
    if (tp_store_take_progress(&store)) retry_stalled();
  }
};

TEST_P(TpStoreRandom, MatchesAReferenceMapAfterTensOfThousandsOfOperations) {
  const RandomCase &param = GetParam();
  geometry = param.geometry;
  multi_plane = param.multi_plane;
  program_frames = param.program_frames;
  reserve_frames = param.reserve_frames;
  tp_count = 24;
  start(12);
  rng.seed(param.seed);
  reference.assign(tp_count, std::vector<uint32_t>(entries_per_tp, VPN_UNMAPPED));
  pool.resize(waiter_capacity);
  for (uint32_t i = 0; i < pool.size(); ++i) {
    pool[i] = waiter(i, 0);
    pool[i].resumed = true;
  }
  uint64_t mismatches = 0;
  record.check = [&](const LoadedCall &call) {
    EXPECT_FALSE(in_scheme_call) << "tp_loaded of TP " << call.tp << " inside a writeback";
    if (call.entries != reference[call.tp] && mismatches++ == 0) {
      ADD_FAILURE() << "tp_loaded of TP " << call.tp << " differs from the reference";
    }
    // The scheme takes the TP in and may evict (the reserve is intact whenever it is asked),
    // while the test's GC has blocks to spare.
    EXPECT_TRUE(tp_store_can_evict(&store)) << "tp_loaded of TP " << call.tp << " without room";
    if (pick(4) == 0 && !(GetParam().gc && free_groups() <= 3)) write_back(call.tp);
  };
  // A resumed waiter asks the scheme again, which may miss on another TP; one resumed without
  // its TP (the reserve was short as it was read) asks for it again.
  record.unserved_expected = true;
  record.on_resume = [&](uint32_t id, bool served) {
    if (!served) {
      uint32_t wanted = pool[id].waiter.lpn;
      load(wanted / entries_per_tp, wanted);
    } else if (pick(8) == 0) {
      uint32_t tp = pick(tp_count);
      load(tp, lpn(tp, pick(entries_per_tp)));
    }
  };

  for (uint32_t i = 0; i < kSteps && !HasFatalFailure(); ++i) {
    step();
    if (record.calls.size() > 1024) record.calls.clear();  // the checks ran as they came
  }
  // Finish: every load served, everything programmed and drained.
  for (uint32_t round = 0; round < 10000; ++round) {
    bool waiting = std::any_of(pool.begin(), pool.end(), [](const TestWaiter &w) {
      return !w.resumed;
    });
    if (!waiting && stalled.empty() && tp_store_idle(&store) && flash->in_flight().empty() &&
        flash->completions_waiting() == 0 && !erasing) {
      break;
    }
    retry_stalled();
    tp_store_pump(&store, true);
    flash->complete_all();
    drain();
  }
  EXPECT_EQ(mismatches, 0u);
  ASSERT_TRUE(tp_store_idle(&store));
  uint32_t mapped = 0;
  for (uint32_t tp = 0; tp < tp_count; ++tp) {
    uint32_t vpn = gtd_get(&gtd, tp);
    if (vpn == VPN_UNMAPPED) {
      EXPECT_EQ(reference[tp], std::vector<uint32_t>(entries_per_tp, VPN_UNMAPPED)) << tp;
      continue;
    }
    ++mapped;
    EXPECT_EQ(flash->data(vpn), reference[tp]) << "TP " << tp << " at VPN " << vpn;
    EXPECT_EQ(flash->oob(vpn)[OOB_WORD_OWNER], tp | OOB_TRANSLATION) << "TP " << tp;
    EXPECT_TRUE(block_page_valid(&blocks, vpn)) << "TP " << tp;
  }
  uint32_t valid = 0;
  for (uint32_t stripe = 0; stripe < blocks.stripe_count; ++stripe) {
    valid += blocks.stripes[stripe].valid_pages;
  }
  EXPECT_EQ(valid, mapped) << "exactly the current copies are valid";
  EXPECT_GT(loads_waited, 1000u);
  EXPECT_GT(writebacks, kSteps / 10);
  EXPECT_GT(relocations, 100u);
  if (param.gc) {
    EXPECT_GT(collected, 10u);
    EXPECT_EQ(flash->erases(), collected);
  }
  std::printf("%s: %llu loads done at once, %llu waited, %llu stalled; %llu writebacks; "
              "%llu relocations, %llu blocks collected, %u retired; %llu reads, %llu programs, "
              "%zu waiters resumed without their TP\n",
              param.name, (unsigned long long)loads_done, (unsigned long long)loads_waited,
              (unsigned long long)loads_stalled, (unsigned long long)writebacks,
              (unsigned long long)relocations, (unsigned long long)collected,
              blocks.retired_groups, (unsigned long long)flash->reads(),
              (unsigned long long)flash->programs(), record.unserved.size());
}

INSTANTIATE_TEST_SUITE_P(
    Runs, TpStoreRandom,
    ::testing::Values(
        // MLC, two planes programmed together (4-page wordlines), flash for the whole run.
        RandomCase{"MlcMultiPlane", {1, 1, 1, 2, 1024, 32, 64, 32, 2}, true, false, 100, 1},
        // TLC on single planes (3-page wordlines) striped over two planes and two dies.
        RandomCase{"TlcSinglePlane", {1, 1, 2, 2, 512, 24, 64, 32, 3}, false, false, 100, 2},
        // A small MLC flash the test's GC must keep collecting (relocations).
        RandomCase{"MlcMultiPlaneGc", {1, 1, 1, 2, 24, 16, 64, 32, 2}, true, true, 4, 3},
        RandomCase{"TlcGc", {1, 1, 2, 1, 16, 12, 64, 32, 3}, false, true, 4, 4},
        // The mobile shape's frames: one program frame where a wordline is 4 pages, a reserve
        // of 2 where a scheme call writes back up to 4 TPs (the writebacks wait for room).
        RandomCase{"MlcMultiPlaneGcFewFrames", {1, 1, 1, 2, 24, 16, 64, 32, 2}, true, true, 4, 5,
                   1, 2}),
    [](const ::testing::TestParamInfo<RandomCase> &info) { return info.param.name; });

}  // namespace
}  // namespace ssdvp::test
