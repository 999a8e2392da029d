/* Greedy victim selection: the FULL group with the fewest valid pages, the cheapest to collect
 * (the lowest index among equals, so runs are deterministic). */
#include "ftl/gc/victim.h"

#include "boot_config.h"

static uint32_t greedy_select(const block_manager_t *blocks, uint32_t unit) {
  uint32_t first = unit == BLOCK_NONE ? 0 : unit * blocks->groups_per_unit;
  uint32_t end = unit == BLOCK_NONE ? blocks->group_count : first + blocks->groups_per_unit;
  uint32_t best = BLOCK_NONE;
  for (uint32_t group = first; group < end; ++group) {
    const block_group_t *candidate = &blocks->groups[group];
    if (block_collectable(blocks, group) &&
        (best == BLOCK_NONE || candidate->valid_pages < blocks->groups[best].valid_pages)) {
      best = group;
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
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    const block_group_t *candidate = &blocks->groups[group];
    if (block_collectable(blocks, group) &&
        (coldest == BLOCK_NONE || candidate->erase_count < blocks->groups[coldest].erase_count)) {
      coldest = group;
    }
  }
  return coldest;
}
