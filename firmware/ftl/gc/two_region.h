/* 2R (M. Kang, S. Choi, G. Oh, S.-W. Lee, "2R: Efficiently Isolating Cold Pages in Flash
 * Storages", PVLDB 2020): host writes go to the normal region, the valid pages of every victim
 * to the cold region, and a collection merges several victims of one region so that their
 * valid (presumably cold) pages fill whole stripes of their own and a whole stripe comes free
 * (multi-block merge, Algorithm 1). A stripe's region is the stream that opened it: the host
 * stream's stripes are the normal region, the GC stream's the cold one (translation stripes,
 * and any stream a policy adds, are regions of their own). Regions size themselves: merging
 * normal victims grows the cold region, merging cold ones shrinks it. */
#ifndef SSDVP_FIRMWARE_FTL_GC_TWO_REGION_H
#define SSDVP_FIRMWARE_FTL_GC_TWO_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/block.h"
#include "ftl/gc/victim.h"

/* The pages collecting a stripe frees (its pages less those it keeps); 0 for none. */
static inline uint32_t two_region_freed_pages(const block_manager_t *blocks, uint32_t stripe) {
  uint32_t kept = block_stripe_kept_pages(blocks, stripe);
  return kept < blocks->stripe_pages ? blocks->stripe_pages - kept : 0;
}

/* A multi-block merge being formed: the first victim names the region, the stripes offered
 * after it compete to join, the fewest kept pages first (the lowest index among equals, when
 * offered in index order), until the set frees a whole stripe or holds VICTIM_MAX_SET. A
 * translation stripe is a set of one (GC rewrites its pages through the TP store). */
typedef struct two_region_merge {
  uint32_t first;
  uint32_t found;
  uint32_t best[VICTIM_MAX_SET - 1u]; /* sorted by the pages they keep */
  uint32_t best_kept[VICTIM_MAX_SET - 1u];
} two_region_merge_t;

void two_region_merge_start(two_region_merge_t *merge, uint32_t first);
/* Whether the merge takes offers at all (not for a translation stripe or a first victim that
 * frees a whole stripe alone). */
bool two_region_merge_open(const two_region_merge_t *merge, const block_manager_t *blocks);
void two_region_merge_offer(two_region_merge_t *merge, const block_manager_t *blocks,
                            uint32_t stripe);
/* The set: the first victim, then the best offers until a whole stripe is free; its pages to
 * the cold region. */
void two_region_merge_finish(const two_region_merge_t *merge, const block_manager_t *blocks,
                             victim_choice_t *choice);

/* 2R-Greedy's set from its first victim: every stripe is offered. It compares every stripe of
 * the region: the cost the paper gives greedy, measured here in firmware cycles. */
void two_region_greedy_set(const block_manager_t *blocks, uint32_t first, victim_choice_t *choice);

#endif
