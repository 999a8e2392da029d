/* 2R-Greedy (2R section 4.2): the first victim is greedy's, the collectable stripe with the
 * fewest valid pages in either region; the set goes on in that region (two_region_greedy_set). */
#include "ftl/gc/two_region.h"

static bool two_region_greedy_select(const block_manager_t *blocks, victim_choice_t *choice) {
  uint32_t first = block_fewest_valid_collectable(blocks);
  if (first == BLOCK_NONE) {
    return false;
  }
  two_region_greedy_set(blocks, first, choice);
  return true;
}

const victim_policy_t victim_policy_2r_greedy = {"2r_greedy", 0, 0,
                                                 two_region_greedy_select, 0, false};
