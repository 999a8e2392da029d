// Policy events (firmware/ftl/policy.h): a listener hears the kinds it subscribed to, nothing
// else, and the mask tells the FTL whether anybody listens. Policies' small structures go to
// SRAM first.
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "ftl/policy.h"
}

namespace {

std::vector<uint32_t> heard_by_first, heard_by_second;

void first_hears(const policy_event_t* event) { heard_by_first.push_back(event->kind); }
void second_hears(const policy_event_t* event) { heard_by_second.push_back(event->kind); }

TEST(PolicyEvents, ListenersHearTheKindsTheySubscribedToAndNoOthers) {
  policy_listeners_reset();
  heard_by_first.clear();
  heard_by_second.clear();
  EXPECT_FALSE(policy_heard(POLICY_HOST_READ));
  static const policy_listener_t first = {
      POLICY_EVENT_BIT(POLICY_HOST_READ) | POLICY_EVENT_BIT(POLICY_STRIPE_ERASED), first_hears};
  static const policy_listener_t second = {POLICY_EVENT_BIT(POLICY_STRIPE_ERASED), second_hears};
  ASSERT_TRUE(policy_listen(&first));
  ASSERT_TRUE(policy_listen(&second));
  EXPECT_TRUE(policy_heard(POLICY_HOST_READ));
  EXPECT_TRUE(policy_heard(POLICY_STRIPE_ERASED));
  EXPECT_FALSE(policy_heard(POLICY_PAGE_INVALIDATED));
  for (uint32_t kind : {POLICY_HOST_READ, POLICY_PAGE_INVALIDATED, POLICY_STRIPE_ERASED}) {
    policy_event_t event = {};
    event.kind = kind;
    policy_emit(&event);
  }
  EXPECT_EQ(heard_by_first, (std::vector<uint32_t>{POLICY_HOST_READ, POLICY_STRIPE_ERASED}));
  EXPECT_EQ(heard_by_second, (std::vector<uint32_t>{POLICY_STRIPE_ERASED}));
  policy_listeners_reset();
  EXPECT_FALSE(policy_heard(POLICY_STRIPE_ERASED));
}

TEST(PolicyEvents, TheListenerTableRefusesOneTooMany) {
  policy_listeners_reset();
  static const policy_listener_t listener = {POLICY_EVENT_BIT(POLICY_HOST_READ), first_hears};
  for (uint32_t i = 0; i < POLICY_MAX_LISTENERS; ++i) ASSERT_TRUE(policy_listen(&listener));
  EXPECT_FALSE(policy_listen(&listener));
  policy_listeners_reset();
}

TEST(PolicyMemory, SmallStructuresTakeSramThenDramThenNothing) {
  alignas(8) static uint8_t sram_bytes[256], dram_bytes[256];
  arena_t sram, dram;
  arena_init(&sram, sram_bytes, sizeof sram_bytes, FW_STATS_LOCATION_SRAM);
  arena_init(&dram, dram_bytes, sizeof dram_bytes, FW_STATS_LOCATION_DRAM);
  policy_env_t env{};
  env.sram = &sram;
  env.dram = &dram;
  uint8_t* first = static_cast<uint8_t*>(policy_alloc_near(&env, "first", 200));
  EXPECT_TRUE(first >= sram_bytes && first < sram_bytes + sizeof sram_bytes);
  uint8_t* second = static_cast<uint8_t*>(policy_alloc_near(&env, "second", 200));
  EXPECT_TRUE(second >= dram_bytes && second < dram_bytes + sizeof dram_bytes)
      << "SRAM is full: DRAM";
  EXPECT_EQ(policy_alloc_near(&env, "third", 200), nullptr) << "neither has room";
  env.dram = nullptr;
  EXPECT_EQ(policy_alloc_near(&env, "fourth", 200), nullptr) << "no DRAM to fall back on";
  EXPECT_NE(policy_alloc_near(&env, "fifth", 16), nullptr) << "what still fits SRAM";
}

}  // namespace
