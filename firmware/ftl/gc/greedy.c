/* Greedy victim selection: the collectable stripe with the fewest valid pages, the cheapest to
 * collect (the lowest index among equals, so runs are deterministic). */
#include "ftl/gc/victim.h"

#include "boot_config.h"

static uint32_t greedy_select(const block_manager_t *blocks) {
  uint32_t best = BLOCK_NONE;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (block_collectable(blocks, stripe) &&
        (best == BLOCK_NONE ||
         blocks->stripes[stripe].valid_pages < blocks->stripes[best].valid_pages)) {
      best = stripe;
    }
  }
  return best;
}

const victim_policy_t victim_policy_greedy = {"greedy", greedy_select};

const victim_policy_t *victim_policy_for(uint32_t boot_gc_victim) {
  static const victim_policy_t *const policies[BOOT_GC_VICTIM_COUNT] = {&victim_policy_greedy};
  return boot_gc_victim < BOOT_GC_VICTIM_COUNT ? policies[boot_gc_victim] : 0;
}

uint32_t victim_coldest(const block_manager_t *blocks) {
  uint32_t coldest = BLOCK_NONE;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (block_collectable(blocks, stripe) &&
        (coldest == BLOCK_NONE || blocks->stripes[stripe].wear < blocks->stripes[coldest].wear)) {
      coldest = stripe;
    }
  }
  return coldest;
}
