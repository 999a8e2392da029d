// Garbage collection (firmware/ftl/gc.c) inside the FTL runtime (ftl_harness.h): a device filled
// and overwritten through the host pipeline, then collected while the host is idle. The victim
// policy is the firmware's greedy one, or a scripted one GC is initialised with again through
// its env (gc_env_t); a listener hears the stripes erased. Checked: GC collects the stripes the
// policy chose, moves exactly their valid pages to the stream the set names, the mapping and the
// flash agree afterwards (every LPN maps to a valid page holding that LPN and the version the host
// wrote last), the victims are erased and free again, and the free pool is back above the
// background threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "tb/tests/ftl_runtime/ftl_harness.h"
#include "tb/tests/ftl_store/hal_stubs.h"

extern "C" {
#include "ftl/buffer_flush.h"
#include "ftl/core.h"
#include "ftl/gc.h"
#include "ftl/gc/victim.h"
#include "ftl/host_pipeline.h"
#include "ftl/policy.h"
#include "lib/metrics.h"
#include "oob_layout.h"
}

namespace ssdvp::test {
namespace {

constexpr uint32_t kLpns = kSmallMlcLpns;
constexpr uint32_t kStripePages = kSmallMlcStripePages;
constexpr uint32_t kUnits = kSmallMlcUnits;

// A victim set as the policy handed it to GC, with the valid pages of its stripes then: VPN ->
// the LPN in its OOB, and the copies count there.
struct Selection {
  victim_choice_t set;
  std::map<uint32_t, std::map<uint32_t, std::pair<uint32_t, uint32_t>>> valid;  // stripe -> VPN
};

// The policy GC asks: a plan of sets first (stripes and stream), then the firmware's greedy
// policy. Every answer is recorded with a snapshot of its stripes.
struct Script {
  FakeFlash *flash = nullptr;
  bool armed = false;  // until then the policy has no victim
  std::deque<std::pair<std::vector<uint32_t>, uint32_t>> plan;
  std::vector<Selection> selections;
  std::vector<uint32_t> erased;  // stripes, in the order they were erased
  std::vector<size_t> erased_after;  // [i]: selections made before erased[i]
  uint32_t host_opens = 0;               // stripes the host stream opened
  uint32_t fewest_free_at_host_open = ~0u;  // free groups when it did, at the lowest

  // Whether the set of selection `index` had `stripe` erased after it was chosen.
  bool erased_since(size_t index, uint32_t stripe) const {
    for (size_t i = 0; i < erased.size(); ++i) {
      if (erased[i] == stripe && erased_after[i] > index) {
        return true;
      }
    }
    return false;
  }
};
Script *script = nullptr;

uint32_t fewest_valid_collectable(const block_manager_t *blocks) {
  uint32_t best = BLOCK_NONE;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    uint32_t valid = blocks->stripes[stripe].valid_pages;
    if (block_collectable(blocks, stripe) &&
        (best == BLOCK_NONE || valid < blocks->stripes[best].valid_pages)) {
      best = stripe;
    }
  }
  return best;
}

bool scripted_select(const block_manager_t *blocks, victim_choice_t *choice) {
  if (!script->armed) {
    return false;
  }
  if (!script->plan.empty()) {
    auto [stripes, stream] = script->plan.front();
    script->plan.pop_front();
    choice->count = (uint32_t)stripes.size();
    std::copy(stripes.begin(), stripes.end(), choice->stripes);
    choice->stream = stream;
  } else {
    if (!victim_policy_greedy.select(blocks, choice)) {
      return false;
    }
    // Greedy: no collectable stripe has fewer valid pages.
    uint32_t fewest = fewest_valid_collectable(blocks);
    EXPECT_EQ(blocks->stripes[choice->stripes[0]].valid_pages, blocks->stripes[fewest].valid_pages);
  }
  Selection selection{*choice, {}};
  for (uint32_t i = 0; i < choice->count; ++i) {
    uint32_t stripe = choice->stripes[i];
    auto &valid = selection.valid[stripe];
    for (uint32_t vpn = stripe * kStripePages; vpn < (stripe + 1) * kStripePages; ++vpn) {
      if (block_page_valid(blocks, vpn)) {
        std::vector<uint32_t> oob = script->flash->oob(vpn);
        valid[vpn] = {oob[OOB_WORD_OWNER], oob[OOB_WORD_COPIES]};
      }
    }
  }
  script->selections.push_back(std::move(selection));
  return true;
}

const victim_policy_t scripted_policy = {"scripted", nullptr, nullptr, scripted_select, nullptr,
                                         false};

void hear_stripe(const policy_event_t *event) {
  if (event->kind == POLICY_STRIPE_ERASED) {
    script->erased.push_back(event->stripe);
    script->erased_after.push_back(script->selections.size());
  } else if (event->stream == BLOCK_STREAM_HOST) {
    ++script->host_opens;
    script->fewest_free_at_host_open =
        std::min(script->fewest_free_at_host_open, block_free_groups(&ftl_core.blocks));
  }
}
const policy_listener_t stripe_listener = {
    POLICY_EVENT_BIT(POLICY_STRIPE_ERASED) | POLICY_EVENT_BIT(POLICY_STRIPE_OPENED), hear_stripe};

flash_op_t *take_record(flash_done_fn done, void *owner) { return ftl_take_record(done, owner); }
bool record_available() { return ftl_record_available(); }
flash_op_t *take_program_record(flash_done_fn done, void *owner) {
  return ftl_take_program_record(done, owner);
}
bool program_record_available() { return ftl_program_record_available(); }
bool spare_suffices(const char **problem) {
  *problem = "";
  return true;
}

struct GcTest : ::testing::Test {
  // The ideal scheme: lookups answer from memory, and only data pages are valid.
  FtlHarness ftl{small_mlc_setup(BOOT_SCHEME_IDEAL)};
  Script record;

  uint32_t mapped_vpn(uint32_t lpn) const { return ftl.mapped_vpn(lpn); }

  void SetUp() override {
    script = &record;
    record.flash = &ftl.flash();
    // GC again, asking the scripted policy; the same env ftl_init builds otherwise.
    gc_env_t env{};
    env.boot = &ftl.boot();
    env.scheme = ftl_core.scheme;
    env.victim_policy = &scripted_policy;
    env.flash = &ftl_core.flash;
    env.blocks = &ftl_core.blocks;
    env.tp_store = &ftl_core.tp_store;
    env.gtd = &ftl_core.gtd;
    env.tp_count = ftl_core.tp_count;
    env.filler_page = buffer_flush_filler_page();
    env.take_record = take_record;
    env.record_available = record_available;
    env.take_program_record = take_program_record;
    env.program_record_available = program_record_available;
    env.host_idle = host_pipeline_idle;
    env.spare_suffices = spare_suffices;
    ASSERT_TRUE(gc_init(&env, ftl.sram()));
    ASSERT_TRUE(policy_listen(&stripe_listener));
  }
  void TearDown() override { script = nullptr; }

  // Every LPN once, then the first `overwritten[k]` LPNs of the k-th run of a stripe's worth
  // written again: stripes of known valid counts. No GC yet (the policy is not armed).
  void fill(const std::vector<uint32_t> &overwritten) {
    for (uint32_t lpn = 0; lpn < kLpns; lpn += 16) {
      ftl.write(lpn, 16);
    }
    for (uint32_t k = 0; k < overwritten.size(); ++k) {
      for (uint32_t page = 0; page < overwritten[k]; page += 4) {
        ftl.write(k * kStripePages + page, 4);
      }
    }
    ftl.flush();
    ASSERT_EQ(ftl.counter("gc.invocations"), 0u);
  }

  uint32_t stripe_of_lpn(uint32_t lpn) {
    return block_stripe_of(&ftl_core.blocks, mapped_vpn(lpn));
  }

  // The mapping and the flash agree: every LPN written maps to a valid page holding it and its
  // last version, and no other page is valid.
  void expect_mapping_agrees() {
    uint32_t mapped = 0;
    for (uint32_t lpn = 0; lpn < kLpns; ++lpn) {
      uint32_t vpn = mapped_vpn(lpn);
      if (ftl.expected_version(lpn) == 0) {
        EXPECT_EQ(vpn, VPN_UNMAPPED) << "LPN " << lpn;
        continue;
      }
      ++mapped;
      ASSERT_NE(vpn, VPN_UNMAPPED) << "LPN " << lpn;
      EXPECT_TRUE(block_page_valid(&ftl_core.blocks, vpn)) << "LPN " << lpn;
      EXPECT_EQ(ftl.flash().oob(vpn)[OOB_WORD_OWNER], lpn) << "VPN " << vpn;
      std::vector<uint32_t> data = ftl.flash().data(vpn);
      EXPECT_EQ(data[0], lpn) << "VPN " << vpn;
      EXPECT_EQ(data[1], ftl.expected_version(lpn)) << "LPN " << lpn;
    }
    uint32_t valid = 0;
    for (uint32_t stripe = 0; stripe < ftl_core.blocks.stripe_count; ++stripe) {
      valid += ftl_core.blocks.stripes[stripe].valid_pages;
    }
    EXPECT_EQ(valid, mapped);
  }

  // The selections whose stripes were erased moved exactly their valid pages: each LPN now on a
  // page of a stripe of the set's stream, holding it with one more copy; returns the pages.
  uint64_t expect_victims_relocated() {
    uint64_t moved = 0;
    for (size_t index = 0; index < record.selections.size(); ++index) {
      const Selection &selection = record.selections[index];
      for (const auto &[stripe, valid] : selection.valid) {
        if (!record.erased_since(index, stripe)) {
          continue;
        }
        for (const auto &[old_vpn, owner] : valid) {
          auto [lpn, copies] = owner;
          uint32_t vpn = mapped_vpn(lpn);
          EXPECT_NE(vpn, old_vpn) << "LPN " << lpn;
          EXPECT_EQ(ftl_core.blocks.stripes[block_stripe_of(&ftl_core.blocks, vpn)].stream,
                    selection.set.stream)
              << "LPN " << lpn;
          EXPECT_EQ(ftl.flash().oob(vpn)[OOB_WORD_OWNER], lpn);
          EXPECT_EQ(ftl.flash().oob(vpn)[OOB_WORD_COPIES], copies + 1u) << "LPN " << lpn;
        }
        moved += valid.size();
      }
    }
    return moved;
  }

  // Selection `index`'s stripe was erased after it was chosen; free now, with nothing valid
  // or programmed on it, unless a stream opened it again since.
  void expect_erased(size_t index, uint32_t stripe) {
    EXPECT_TRUE(record.erased_since(index, stripe)) << "stripe " << stripe << " was not erased";
    if (ftl_core.blocks.stripes[stripe].state == BLOCK_FREE) {
      for (uint32_t vpn = stripe * kStripePages; vpn < (stripe + 1) * kStripePages; ++vpn) {
        EXPECT_FALSE(block_page_valid(&ftl_core.blocks, vpn));
        EXPECT_EQ(ftl.flash().oob(vpn)[OOB_WORD_OWNER], 0xFFFFFFFFu) << "VPN " << vpn;
      }
    }
  }

  void expect_reserve_kept() {
    EXPECT_GE(block_free_groups(&ftl_core.blocks),
              ftl.boot().ftl_gc_background_free * kUnits);
  }
};

TEST_F(GcTest, CollectsTheVictimThePolicyChoseAndMovesExactlyItsValidPages) {
  fill({8, 16, 24, 32, 40, 48, 56, 64});
  // Not greedy's choice: the stripe of LPNs 0-63 keeps 56 valid pages, another none.
  uint32_t victim = stripe_of_lpn(8);
  ASSERT_EQ(ftl_core.blocks.stripes[victim].valid_pages, 56u);
  ASSERT_LT(ftl_core.blocks.stripes[fewest_valid_collectable(&ftl_core.blocks)].valid_pages, 56u);
  uint32_t free_before = block_free_groups(&ftl_core.blocks);
  uint64_t erases = ftl.flash().erases();
  record.plan.push_back({{victim}, BLOCK_STREAM_GC});
  record.armed = true;
  ftl.boot().ftl_gc_background_free = 6;  // below it: collect while the host is idle
  ftl.run();

  ASSERT_FALSE(record.selections.empty());
  ASSERT_EQ(record.selections[0].set.count, 1u);
  EXPECT_EQ(record.selections[0].set.stripes[0], victim);
  EXPECT_EQ(record.selections[0].valid.at(victim).size(), 56u);
  expect_erased(0, victim);
  // Then greedy's choices: the stripe without valid pages among them.
  EXPECT_EQ(record.selections.size(), record.erased.size());
  EXPECT_EQ(ftl.flash().erases() - erases, record.erased.size() * kUnits);
  EXPECT_EQ(ftl.counter("gc.pages_moved"), expect_victims_relocated());
  EXPECT_EQ(ftl.counter("gc.invocations"), record.erased.size());
  EXPECT_GT(block_free_groups(&ftl_core.blocks), free_before);
  expect_reserve_kept();
  EXPECT_TRUE(gc_idle());
  expect_mapping_agrees();
  for (uint32_t lpn = 0; lpn < kLpns; lpn += 64) {
    EXPECT_EQ(ftl.read(lpn, 64)[20], ftl.expected_version(lpn + 20));
  }
}

TEST_F(GcTest, MergesASetOfSeveralStripesIntoTheStreamItNames) {
  fill({8, 16, 24, 32, 40, 48, 56, 64});
  block_stream_t stream = block_stream_add(&ftl_core.blocks, "test");
  ASSERT_NE(stream, BLOCK_NONE);
  uint32_t first = stripe_of_lpn(16 + 64);   // 48 valid pages
  uint32_t second = stripe_of_lpn(32 + 192); // 32 valid pages
  ASSERT_NE(first, second);
  uint64_t moved = ftl.counter("gc.pages_moved");
  record.plan.push_back({{first, second}, stream});
  record.armed = true;
  ftl.boot().ftl_gc_background_free = 6;
  ftl.run();

  ASSERT_FALSE(record.selections.empty());
  ASSERT_EQ(record.selections[0].set.count, 2u);
  expect_erased(0, first);
  expect_erased(0, second);
  const auto *sets = static_cast<const uint64_t *>(metrics_find("gc.victims_per_set"));
  ASSERT_NE(sets, nullptr);
  EXPECT_EQ(sets[2], 1u) << "one set of two stripes";
  const Selection &set = record.selections[0];
  EXPECT_EQ(set.valid.at(first).size() + set.valid.at(second).size(), 80u);
  EXPECT_EQ(ftl.counter("gc.pages_moved") - moved, expect_victims_relocated());
  // The set's 80 pages went to stripes the new stream opened.
  uint32_t in_stream = 0;
  for (uint32_t stripe = 0; stripe < ftl_core.blocks.stripe_count; ++stripe) {
    if (ftl_core.blocks.stripes[stripe].state != BLOCK_FREE &&
        ftl_core.blocks.stripes[stripe].stream == stream) {
      in_stream += ftl_core.blocks.stripes[stripe].valid_pages;
    }
  }
  EXPECT_EQ(in_stream, 80u);
  EXPECT_FALSE(gc_holds_host());
  expect_reserve_kept();
  expect_mapping_agrees();
}

TEST_F(GcTest, GreedyUnderRandomOverwritesKeepsTheMappingAndTheReserve) {
  record.armed = true;
  std::mt19937 random(7);
  for (uint32_t lpn = 0; lpn < kLpns; lpn += 16) {
    ftl.write(lpn, 16);
  }
  // Batches of 60 commands: host data runs into GC's reserve while GC works beside it.
  for (int i = 0; i < 1200; ++i) {
    uint32_t lpn = std::uniform_int_distribution<uint32_t>(0, kLpns / 3)(random) * 3u % (kLpns - 4);
    ftl.submit(HIC_OP_WRITE, lpn, 1 + random() % 4);
    if (i % 100 == 99) {
      ftl.submit(HIC_OP_TRIM, std::uniform_int_distribution<uint32_t>(0, kLpns - 8)(random), 8);
    }
    if (i % 60 == 59) {
      ftl.run();
    }
  }
  ftl.flush();
  EXPECT_EQ(ftl.hic().completion_order().size(), ftl.counter("host_commands"));
  ASSERT_GT(record.erased.size(), 10u);
  EXPECT_EQ(ftl.counter("gc.invocations"), record.erased.size());
  // Host data never took GC's reserve: the last foreground_free stripes' worth of groups.
  EXPECT_GT(record.host_opens, 10u);
  EXPECT_GE(record.fewest_free_at_host_open, ftl.boot().ftl_gc_foreground_free * kUnits);
  for (uint32_t stripe : record.erased) {
    EXPECT_TRUE(std::any_of(record.selections.begin(), record.selections.end(),
                            [stripe](const Selection &s) { return s.valid.count(stripe) != 0; }))
        << "stripe " << stripe << " was erased but never chosen";
  }
  expect_reserve_kept();
  expect_mapping_agrees();
}

}  // namespace
}  // namespace ssdvp::test
