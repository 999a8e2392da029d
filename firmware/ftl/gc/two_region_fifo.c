/* 2R-FIFO (2R section 4.3): every stripe joins the tail of one FIFO list when a stream opens
 * it, normal and cold interleaved in allocation order; the open host and GC stripes at the tail
 * are the paper's cur_blk and cur_cold_blk. A collection scans the list circularly from
 * cur_scan: the first collectable stripe below ftl.gc.2r_fifo.blk_util (utilisation: the pages
 * it keeps over its pages) is the first victim and names the region; later stripes of that
 * region below the threshold join the set until it frees a whole stripe (selective merge: the
 * others keep a second chance to lose pages). The scan never goes past
 * ftl.gc.2r_fifo.scan_depth of the list: it goes back to the head there (second chance for the
 * young stripes at the tail). cur_scan then points past the last victim; victims leave the list
 * when erased, and the stripe a collection frees rejoins at the tail when it opens again.
 *
 * Where the paper is silent: when one circle of the scanned part finds no stripe below the
 * threshold (uniform writes at small over-provisioning keep every stripe well above 0.5), the
 * set is 2R-Greedy's over that part alone (the stripes beyond the depth keep their second
 * chance), counted by gc.fifo_fallbacks; a translation stripe is a set of one. */
#include <stddef.h>

#include "ftl/gc/two_region.h"
#include "lib/metrics.h"

#define FIFO_NONE BLOCK_NONE

static struct {
  uint32_t *next; /* [stripe]: the list, by stripe index */
  uint32_t *prev;
  uint32_t *order; /* [stripe]: when it joined (comparing two places in the list) */
  uint32_t head;
  uint32_t tail;
  uint32_t length;
  uint32_t joined; /* stripes that joined so far */
  uint32_t scan;       /* cur_scan, or FIFO_NONE: the head */
  uint32_t scan_depth; /* stripes ahead of cur_scan in the list */
  uint32_t util_limit; /* a victim keeps fewer pages than this */
  uint32_t depth_permille;
  uint64_t fallbacks;
  uint64_t second_chances; /* scans that went back to the head at the depth */
} fifo;

static void fifo_append(uint32_t stripe) {
  fifo.next[stripe] = FIFO_NONE;
  fifo.prev[stripe] = fifo.tail;
  fifo.order[stripe] = fifo.joined++;
  if (fifo.tail == FIFO_NONE) {
    fifo.head = stripe;
  } else {
    fifo.next[fifo.tail] = stripe;
  }
  fifo.tail = stripe;
  ++fifo.length;
}

static void fifo_remove(uint32_t stripe) {
  if (fifo.scan == stripe) {
    fifo.scan = fifo.next[stripe];
  } else if (fifo.scan != FIFO_NONE && fifo.order[stripe] < fifo.order[fifo.scan]) {
    --fifo.scan_depth;
  }
  uint32_t before = fifo.prev[stripe];
  uint32_t after = fifo.next[stripe];
  if (before == FIFO_NONE) {
    fifo.head = after;
  } else {
    fifo.next[before] = after;
  }
  if (after == FIFO_NONE) {
    fifo.tail = before;
  } else {
    fifo.prev[after] = before;
  }
  --fifo.length;
  if (fifo.scan == FIFO_NONE) {
    fifo.scan_depth = 0;
  }
}

static void fifo_hear(const policy_event_t *event) {
  if (event->kind == POLICY_STRIPE_OPENED) {
    fifo_append(event->stripe);
  } else {
    fifo_remove(event->stripe);
  }
}

static const policy_listener_t fifo_listener = {
    POLICY_EVENT_BIT(POLICY_STRIPE_OPENED) | POLICY_EVENT_BIT(POLICY_STRIPE_ERASED), fifo_hear};

static bool fifo_init(const policy_env_t *env) {
  uint32_t stripes = env->blocks->stripe_count;
  arena_t *arena = env->dram != NULL ? env->dram : env->sram;
  fifo.next = (uint32_t *)arena_alloc(arena, "gc_fifo_list", 3u * stripes * sizeof(uint32_t));
  if (fifo.next == NULL) {
    return false;
  }
  fifo.prev = fifo.next + stripes;
  fifo.order = fifo.prev + stripes;
  fifo.head = FIFO_NONE;
  fifo.tail = FIFO_NONE;
  fifo.length = 0;
  fifo.joined = 0;
  fifo.scan = FIFO_NONE;
  fifo.scan_depth = 0;
  fifo.fallbacks = 0;
  fifo.second_chances = 0;
  /* kept / stripe_pages < blk_util, in whole pages: kept < ceil(blk_util x stripe_pages). */
  float limit = env->boot->ftl_gc_2r_fifo_blk_util * (float)env->blocks->stripe_pages;
  fifo.util_limit = (uint32_t)limit;
  fifo.util_limit += (float)fifo.util_limit < limit;
  fifo.depth_permille = (uint32_t)(env->boot->ftl_gc_2r_fifo_scan_depth * 1000.0f + 0.5f);
  metrics_counter("gc.fifo_fallbacks", &fifo.fallbacks);
  metrics_counter("gc.fifo_second_chances", &fifo.second_chances);
  return true;
}

/* A walk over the scanned part of the list from cur_scan, back to the head at the depth. */
typedef struct fifo_walk {
  uint32_t at;
  uint32_t depth;
  uint32_t window;
  uint32_t left;
} fifo_walk_t;

static fifo_walk_t fifo_walk_start(uint32_t window) {
  fifo_walk_t walk = {fifo.scan, fifo.scan_depth, window, window};
  return walk;
}

/* The next stripe of the walk, or FIFO_NONE after `window` of them. */
static uint32_t fifo_walk_next(fifo_walk_t *walk, bool count_second_chance) {
  if (walk->left == 0) {
    return FIFO_NONE;
  }
  --walk->left;
  if (walk->at == FIFO_NONE || walk->depth >= walk->window) {
    fifo.second_chances += count_second_chance && walk->at != FIFO_NONE;
    walk->at = fifo.head;
    walk->depth = 0;
  }
  uint32_t stripe = walk->at;
  walk->at = fifo.next[stripe];
  ++walk->depth;
  return stripe;
}

/* No stripe of the window is below the threshold: 2R-Greedy over the window, so the young
 * stripes beyond the depth keep their second chance. */
static bool fifo_fallback(const block_manager_t *blocks, uint32_t first, uint32_t window,
                          victim_choice_t *choice) {
  if (first == FIFO_NONE) {
    return false;
  }
  ++fifo.fallbacks;
  two_region_merge_t merge;
  two_region_merge_start(&merge, first);
  if (two_region_merge_open(&merge, blocks)) {
    fifo_walk_t walk = fifo_walk_start(window);
    for (uint32_t stripe; (stripe = fifo_walk_next(&walk, false)) != FIFO_NONE;) {
      two_region_merge_offer(&merge, blocks, stripe);
    }
  }
  two_region_merge_finish(&merge, blocks, choice);
  return true;
}

static bool fifo_select(const block_manager_t *blocks, victim_choice_t *choice) {
  uint32_t window = (uint32_t)((uint64_t)fifo.length * fifo.depth_permille / 1000u);
  if (window == 0) {
    window = fifo.length;
  }
  choice->count = 0;
  choice->stream = BLOCK_STREAM_GC;
  uint32_t region = 0;
  uint32_t freed = 0;
  uint32_t last = FIFO_NONE;
  uint32_t last_depth = 0;
  uint32_t least_kept = FIFO_NONE; /* the fallback's first victim */
  fifo_walk_t walk = fifo_walk_start(window);
  for (uint32_t at; (at = fifo_walk_next(&walk, true)) != FIFO_NONE;) {
    if (!block_collectable(blocks, at)) {
      continue;
    }
    uint32_t kept = block_stripe_kept_pages(blocks, at);
    if (kept < blocks->stripe_pages &&
        (least_kept == FIFO_NONE || kept < block_stripe_kept_pages(blocks, least_kept))) {
      least_kept = at;
    }
    if (kept >= fifo.util_limit || kept >= blocks->stripe_pages ||
        (choice->count != 0 && blocks->stripes[at].stream != region)) {
      continue;
    }
    if (choice->count == 0) {
      region = blocks->stripes[at].stream;
    }
    choice->stripes[choice->count++] = at;
    freed += blocks->stripe_pages - kept;
    last = at;
    last_depth = walk.depth - 1u;
    if (region == BLOCK_STREAM_TRANSLATION || freed >= blocks->stripe_pages ||
        choice->count == VICTIM_MAX_SET) {
      break;
    }
  }
  if (last == FIFO_NONE) {
    return fifo_fallback(blocks, least_kept, window, choice);
  }
  /* Past the last victim; the depth counts stripes ahead of it, the victims included (they
   * leave the list when erased, which lowers it). */
  fifo.scan = fifo.next[last];
  fifo.scan_depth = fifo.scan == FIFO_NONE ? 0 : last_depth + 1u;
  return true;
}

const victim_policy_t victim_policy_2r_fifo = {"2r_fifo", fifo_init, &fifo_listener,
                                               fifo_select, 0, false};
