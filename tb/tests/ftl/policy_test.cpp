// Policy events (firmware/ftl/policy.h): a listener hears the kinds it subscribed to, nothing
// else, and the mask tells the FTL whether anybody listens.
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

}  // namespace
