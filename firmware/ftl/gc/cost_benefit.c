/* Cost-benefit victim selection (LFS, Rosenblum and Ousterhout 1992), the baseline 2R's related
 * work compares: the collectable stripe with the highest age x (1 - u) / u, where u is its
 * utilisation (the pages it keeps over its pages) and age the stripes filled since it was (LFS
 * weighs by (1 - u) / (1 + u); this is the read-plus-write cost form, 2u, up to a factor). An
 * old stripe with some valid pages beats a young one with fewer: its data is colder and will
 * stay valid, so collecting it frees space for longer. One victim per collection; a stripe
 * keeping nothing wins outright (the lowest index among those). Every collectable stripe is
 * compared. */
#include <stddef.h>

#include "ftl/gc/victim.h"

static struct {
  uint32_t *filled_at; /* [stripe]: the clock when it turned FULL */
  uint32_t clock;      /* stripes filled so far */
} cost_benefit;

static void cost_benefit_hear(const policy_event_t *event) {
  cost_benefit.filled_at[event->stripe] = ++cost_benefit.clock;
}

static const policy_listener_t cost_benefit_listener = {POLICY_EVENT_BIT(POLICY_STRIPE_FULL),
                                                        cost_benefit_hear};

static bool cost_benefit_init(const policy_env_t *env) {
  arena_t *arena = env->dram != NULL ? env->dram : env->sram;
  cost_benefit.filled_at = (uint32_t *)arena_alloc(
      arena, "gc_stripe_ages", env->blocks->stripe_count * (uint32_t)sizeof(uint32_t));
  cost_benefit.clock = 0;
  return cost_benefit.filled_at != NULL;
}

static bool cost_benefit_select(const block_manager_t *blocks, victim_choice_t *choice) {
  uint32_t best = BLOCK_NONE;
  float best_score = 0.0f;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (!block_collectable(blocks, stripe)) {
      continue;
    }
    uint32_t kept = block_stripe_kept_pages(blocks, stripe);
    if (kept >= blocks->stripe_pages) {
      continue;
    }
    if (kept == 0) {
      best = stripe;
      break;
    }
    uint32_t age = cost_benefit.clock - cost_benefit.filled_at[stripe];
    float score = (float)age * (float)(blocks->stripe_pages - kept) / (float)kept;
    if (best == BLOCK_NONE || score > best_score) {
      best = stripe;
      best_score = score;
    }
  }
  if (best == BLOCK_NONE) {
    return false;
  }
  choice->stripes[0] = best;
  choice->count = 1;
  return true;
}

const victim_policy_t victim_policy_cost_benefit = {"cost_benefit", cost_benefit_init,
                                                    &cost_benefit_listener, cost_benefit_select,
                                                    0, false};
