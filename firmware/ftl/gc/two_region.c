#include "ftl/gc/two_region.h"

void two_region_merge_start(two_region_merge_t *merge, uint32_t first) {
  merge->first = first;
  merge->found = 0;
}

bool two_region_merge_open(const two_region_merge_t *merge, const block_manager_t *blocks) {
  return blocks->stripes[merge->first].stream != BLOCK_STREAM_TRANSLATION &&
         two_region_freed_pages(blocks, merge->first) < blocks->stripe_pages;
}

/* Most offers lose to the last kept one at once. */
void two_region_merge_offer(two_region_merge_t *merge, const block_manager_t *blocks,
                            uint32_t stripe) {
  const uint32_t room = VICTIM_MAX_SET - 1u;
  if (stripe == merge->first ||
      blocks->stripes[stripe].stream != blocks->stripes[merge->first].stream ||
      !block_collectable(blocks, stripe)) {
    return;
  }
  uint32_t kept = block_stripe_kept_pages(blocks, stripe);
  if (kept >= blocks->stripe_pages ||
      (merge->found == room && kept >= merge->best_kept[room - 1u])) {
    return;
  }
  uint32_t at = merge->found < room ? merge->found++ : room - 1u;
  for (; at > 0 && merge->best_kept[at - 1u] > kept; --at) {
    merge->best[at] = merge->best[at - 1u];
    merge->best_kept[at] = merge->best_kept[at - 1u];
  }
  merge->best[at] = stripe;
  merge->best_kept[at] = kept;
}

void two_region_merge_finish(const two_region_merge_t *merge, const block_manager_t *blocks,
                             victim_choice_t *choice) {
  choice->stripes[0] = merge->first;
  choice->count = 1;
  choice->stream = BLOCK_STREAM_GC;
  uint32_t freed = two_region_freed_pages(blocks, merge->first);
  for (uint32_t i = 0; i < merge->found && freed < blocks->stripe_pages; ++i) {
    choice->stripes[choice->count++] = merge->best[i];
    freed += blocks->stripe_pages - merge->best_kept[i];
  }
}

void two_region_greedy_set(const block_manager_t *blocks, uint32_t first,
                           victim_choice_t *choice) {
  two_region_merge_t merge;
  two_region_merge_start(&merge, first);
  if (two_region_merge_open(&merge, blocks)) {
    for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
      two_region_merge_offer(&merge, blocks, stripe);
    }
  }
  two_region_merge_finish(&merge, blocks, choice);
}
