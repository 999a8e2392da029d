/* Greedy victim selection: the collectable stripe with the fewest valid pages, the cheapest to
 * collect (the lowest index among equals, so runs are deterministic). The block manager keeps
 * the collectable stripes ranked, so choosing costs the same however many there are. */
#include "ftl/gc/victim.h"

/* One victim per collection, its pages to the stream GC proposes. */
static bool greedy_select(const block_manager_t *blocks, victim_choice_t *choice) {
  uint32_t victim = block_fewest_valid_collectable(blocks);
  if (victim == BLOCK_NONE) {
    return false;
  }
  choice->stripes[0] = victim;
  choice->count = 1;
  return true;
}

const victim_policy_t victim_policy_greedy = {"greedy", 0, 0, greedy_select, 0, false};

uint32_t victim_coldest(const block_manager_t *blocks) {
  return block_coldest_collectable(blocks);
}
