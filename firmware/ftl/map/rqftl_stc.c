#include "ftl/map/rqftl_stc.h"

#include <string.h>

#define STC_MIN_CAPACITY 4u
/* Set on a line written since the scheme last cleared the counter (section 4.7). */
#define STC_UPDATED 8u

uint32_t rqftl_stc_slot_bytes(uint32_t max_lines) {
  uint32_t buckets = scheme_pow2_floor(max_lines < 2u ? 2u : max_lines) * 2u;
  return scheme_aligned(max_lines * 4u) * 3u + scheme_aligned(max_lines * 8u) +
         scheme_aligned(max_lines * 2u) * 2u + scheme_aligned(max_lines) +
         scheme_aligned(buckets * 4u);
}

_Static_assert(sizeof(rqftl_run_t) == RQFTL_POOL_CELL_BYTES, "a run is a pool cell");

uint32_t rqftl_stc_min_cells(uint32_t entries_per_tp) { return 2u * (entries_per_tp + 3u); }

bool rqftl_stc_init(rqftl_stc_t *stc, uint32_t max_lines, uint32_t entries_per_tp,
                    rqftl_pool_t *pool, scheme_budget_t *budget, rqftl_stc_evicted_t evicted,
                    void *context) {
  memset(stc, 0, sizeof *stc);
  if (max_lines == 0 || entries_per_tp == 0 || entries_per_tp > 0xFFF0u) {
    return false;
  }
  uint32_t buckets = scheme_pow2_floor(max_lines < 2u ? 2u : max_lines) * 2u;
  stc->entries_per_tp = entries_per_tp;
  stc->max_lines = max_lines;
  stc->line_limit = max_lines;
  stc->cell_limit = 0xFFFFFFFFu;
  stc->tps = scheme_alloc(budget, "map.rqftl.stc_tps", max_lines * 4u);
  stc->hash_next = scheme_alloc(budget, "map.rqftl.stc_hash_next", max_lines * 4u);
  stc->extent = scheme_alloc(budget, "map.rqftl.stc_extents", max_lines * 4u);
  stc->links = scheme_alloc(budget, "map.rqftl.stc_lru", max_lines * 8u);
  stc->count = scheme_alloc(budget, "map.rqftl.stc_counts", max_lines * 2u);
  stc->known = scheme_alloc(budget, "map.rqftl.stc_known", max_lines * 2u);
  stc->flags = scheme_alloc(budget, "map.rqftl.stc_flags", max_lines);
  uint32_t *heads = scheme_alloc(budget, "map.rqftl.stc_buckets", buckets * 4u);
  stc->pool = pool;
  if (!stc->tps || !stc->hash_next || !stc->extent || !stc->links || !stc->count || !stc->known ||
      !stc->flags || !heads) {
    return false;
  }
  scheme_hash_init(&stc->hash, heads, buckets, stc->hash_next, stc->tps);
  scheme_list_init(&stc->lru);
  stc->free_slots = SCHEME_NIL;
  for (uint32_t slot = max_lines; slot-- > 0;) {
    stc->tps[slot] = SCHEME_NIL;
    stc->hash_next[slot] = stc->free_slots;
    stc->free_slots = slot;
  }
  stc->evicted = evicted;
  stc->context = context;
  return true;
}

static uint32_t capacity_of(const rqftl_stc_t *stc, uint32_t slot) {
  return rqftl_pool_size(stc->pool, stc->extent[slot]);
}

static rqftl_run_t *runs_of(rqftl_stc_t *stc, uint32_t slot) {
  return (rqftl_run_t *)rqftl_pool_data(stc->pool, stc->extent[slot]);
}

/* The line translates `known` LPNs from now on. */
static void set_known(rqftl_stc_t *stc, uint32_t slot, uint32_t known) {
  if (!(stc->flags[slot] & RQFTL_STC_MARKED)) {
    stc->stats.unmarked_lpns = stc->stats.unmarked_lpns - stc->known[slot] + known;
  }
  stc->known[slot] = (uint16_t)known;
}

static void set_marked(rqftl_stc_t *stc, uint32_t slot, bool marked) {
  bool was = (stc->flags[slot] & RQFTL_STC_MARKED) != 0;
  if (was == marked) {
    return;
  }
  if (marked) {
    stc->flags[slot] |= RQFTL_STC_MARKED;
    stc->stats.unmarked_lpns -= stc->known[slot];
  } else {
    stc->flags[slot] &= (uint8_t)~RQFTL_STC_MARKED;
    stc->stats.unmarked_lpns += stc->known[slot];
  }
}

static void kill_extent(rqftl_stc_t *stc, uint32_t index) {
  stc->stats.cells -= rqftl_pool_size(stc->pool, index) + 1u;
  rqftl_pool_free(stc->pool, index);
}

/* Drops a line; a dirty one is handed to the scheme first. */
static void drop_line(rqftl_stc_t *stc, uint32_t slot) {
  if (stc->flags[slot] & RQFTL_STC_DIRTY) {
    stc->evicted(stc->context, stc->tps[slot], runs_of(stc, slot), stc->count[slot],
                 (stc->flags[slot] & RQFTL_STC_WHOLE) != 0);
    ++stc->stats.dirty_evictions;
  }
  ++stc->stats.evictions;
  set_known(stc, slot, 0);
  kill_extent(stc, stc->extent[slot]);
  scheme_hash_remove(&stc->hash, slot);
  scheme_list_remove(&stc->lru, stc->links, slot);
  stc->tps[slot] = SCHEME_NIL;
  stc->hash_next[slot] = stc->free_slots;
  stc->free_slots = slot;
  --stc->stats.lines;
}

/* Evicts the least recently used line other than `keep`, the least recently used clean one
 * when a dirty one may not be written back now; false when there is none. */
static bool evict_lru(rqftl_stc_t *stc, uint32_t keep) {
  uint32_t victim = stc->lru.tail;
  if (victim == keep && victim != SCHEME_NIL) {
    victim = stc->links[victim].prev;
  }
  if (victim != SCHEME_NIL && (stc->flags[victim] & RQFTL_STC_DIRTY) && stc->room != 0 &&
      !stc->room()) {
    while (victim != SCHEME_NIL && (victim == keep || (stc->flags[victim] & RQFTL_STC_DIRTY))) {
      victim = stc->links[victim].prev;
    }
  }
  if (victim == SCHEME_NIL) {
    return false;
  }
  drop_line(stc, victim);
  return true;
}

bool rqftl_stc_evict_one(rqftl_stc_t *stc) { return evict_lru(stc, SCHEME_NIL); }

/* A new extent of `capacity` runs owned by `slot` at the pool's top, evicting lines other than
 * `slot` while the pool has no room or the lines would pass the cell limit; its index, or
 * SCHEME_NIL. The slot's own extent may move
 * meanwhile (stc->extent follows it). */
static uint32_t alloc_extent(rqftl_stc_t *stc, uint32_t slot, uint32_t capacity) {
  for (;;) {
    bool within = stc->stats.cells + capacity + 1u <= stc->cell_limit;
    uint32_t index = within ? rqftl_pool_alloc(stc->pool, slot, capacity) : RQFTL_POOL_NONE;
    if (index != RQFTL_POOL_NONE) {
      stc->stats.cells += capacity + 1u;
      return index;
    }
    if (!evict_lru(stc, slot)) {
      return SCHEME_NIL;
    }
  }
}

/* Makes room for `needed` runs in the line (never more than a TP's entries and two). */
static bool grow(rqftl_stc_t *stc, uint32_t slot, uint32_t needed) {
  uint32_t capacity = capacity_of(stc, slot);
  if (needed <= capacity) {
    return true;
  }
  uint32_t want = capacity * 2u > needed ? capacity * 2u : needed;
  if (want > stc->entries_per_tp + 2u) {
    want = stc->entries_per_tp + 2u;
  }
  uint32_t index = alloc_extent(stc, slot, want);
  if (index == SCHEME_NIL) {
    return false;
  }
  uint32_t old = stc->extent[slot];
  memcpy(rqftl_pool_data(stc->pool, index), rqftl_pool_data(stc->pool, old),
         stc->count[slot] * sizeof(rqftl_run_t));
  kill_extent(stc, old);
  stc->extent[slot] = index;
  return true;
}

/* A new empty line for tp (the LRU's front), or SCHEME_NIL when no room can be made. */
static uint32_t new_line(rqftl_stc_t *stc, uint32_t tp, uint32_t capacity) {
  while (stc->stats.lines >= stc->line_limit) {
    if (!evict_lru(stc, SCHEME_NIL)) {
      return SCHEME_NIL;
    }
  }
  /* Off the free list first: making pool room may evict lines, which go onto it. */
  uint32_t slot = stc->free_slots;
  stc->free_slots = stc->hash_next[slot];
  uint32_t index = alloc_extent(stc, slot, capacity < STC_MIN_CAPACITY ? STC_MIN_CAPACITY
                                                                       : capacity);
  if (index == SCHEME_NIL) {
    stc->hash_next[slot] = stc->free_slots;
    stc->free_slots = slot;
    return SCHEME_NIL;
  }
  stc->extent[slot] = index;
  stc->tps[slot] = tp;
  stc->count[slot] = 0;
  stc->known[slot] = 0;
  stc->flags[slot] = 0;
  scheme_hash_insert(&stc->hash, slot);
  scheme_list_push_front(&stc->lru, stc->links, slot);
  ++stc->stats.lines;
  return slot;
}

uint32_t rqftl_stc_line_of(const rqftl_stc_t *stc, uint32_t tp) {
  return scheme_hash_find(&stc->hash, tp);
}

/* The last run starting at or before offset, or `count` when none does. */
static uint32_t run_before(const rqftl_run_t *runs, uint32_t count, uint32_t offset) {
  uint32_t low = 0;
  uint32_t high = count;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2u;
    if (runs[middle].offset <= offset) {
      low = middle + 1u;
    } else {
      high = middle;
    }
  }
  return low == 0 ? count : low - 1u;
}

static bool covers(const rqftl_run_t *run, uint32_t offset) {
  return offset >= run->offset && offset < (uint32_t)run->offset + run->length;
}

static uint32_t vpn_at(const rqftl_run_t *run, uint32_t offset) {
  return run->vpn == VPN_UNMAPPED ? VPN_UNMAPPED : run->vpn + (offset - run->offset);
}

/* Whether run b continues run a (adjacent, and both unmapped or mapped consecutively). */
static bool continues(const rqftl_run_t *a, const rqftl_run_t *b) {
  if ((uint32_t)a->offset + a->length != b->offset || (uint32_t)a->length + b->length > 0xFFFFu) {
    return false;
  }
  return a->vpn == VPN_UNMAPPED ? b->vpn == VPN_UNMAPPED
                                : b->vpn != VPN_UNMAPPED && a->vpn + a->length == b->vpn;
}

/* Merges runs[at + 1] into runs[at] when it continues it. */
static void coalesce(rqftl_run_t *runs, uint16_t *count, uint32_t at) {
  if (at + 1u < *count && continues(&runs[at], &runs[at + 1u])) {
    runs[at].length = (uint16_t)(runs[at].length + runs[at + 1u].length);
    memmove(&runs[at + 1u], &runs[at + 2u], (*count - at - 2u) * sizeof(rqftl_run_t));
    --*count;
  }
}

/* The line's mapping of `offset` becomes vpn; the line gains two runs at most. False only when
 * no room can be made. */
static bool set_offset(rqftl_stc_t *stc, uint32_t slot, uint32_t offset, uint32_t vpn) {
  if (!grow(stc, slot, stc->count[slot] + 2u)) {
    return false;
  }
  rqftl_run_t *runs = runs_of(stc, slot);
  uint16_t *count = &stc->count[slot];
  /* A whole line's gaps are unmapped: no run stands for unmapped LPNs there. */
  bool keep_new = vpn != VPN_UNMAPPED || !(stc->flags[slot] & RQFTL_STC_WHOLE);
  rqftl_run_t replacement[3];
  uint32_t parts = 0;
  uint32_t before = run_before(runs, *count, offset);
  uint32_t at; /* where the replacement goes */
  uint32_t replaced;
  if (before != *count && covers(&runs[before], offset)) {
    rqftl_run_t old = runs[before];
    if (vpn_at(&old, offset) == vpn) {
      return true;
    }
    uint32_t end = (uint32_t)old.offset + old.length;
    if (offset > old.offset) {
      replacement[parts++] = (rqftl_run_t){old.offset, (uint16_t)(offset - old.offset), old.vpn};
    }
    if (keep_new) {
      replacement[parts++] = (rqftl_run_t){(uint16_t)offset, 1, vpn};
    }
    if (offset + 1u < end) {
      replacement[parts++] = (rqftl_run_t){(uint16_t)(offset + 1u), (uint16_t)(end - offset - 1u),
                                           vpn_at(&old, offset + 1u)};
    }
    at = before;
    replaced = 1;
  } else {
    if (!keep_new) {
      return true;
    }
    replacement[parts++] = (rqftl_run_t){(uint16_t)offset, 1, vpn};
    at = before == *count ? 0u : before + 1u;
    replaced = 0;
    if (!(stc->flags[slot] & RQFTL_STC_WHOLE)) {
      set_known(stc, slot, stc->known[slot] + 1u); /* a patch line learns the LPN */
    }
  }
  memmove(&runs[at + parts], &runs[at + replaced], (*count - at - replaced) * sizeof(rqftl_run_t));
  memcpy(&runs[at], replacement, parts * sizeof(rqftl_run_t));
  *count = (uint16_t)(*count + parts - replaced);
  /* The replacement with its neighbours, from the right so the indexes to the left stay put. */
  uint32_t lowest = at == 0 ? 0u : at - 1u;
  for (uint32_t i = at + parts; i-- > lowest;) {
    coalesce(runs, count, i);
  }
  return true;
}

rqftl_stc_answer_t rqftl_stc_lookup(rqftl_stc_t *stc, uint32_t lpn, uint32_t *vpn) {
  ++stc->stats.lookups;
  uint32_t slot = rqftl_stc_line_of(stc, lpn / stc->entries_per_tp);
  if (slot == SCHEME_NIL) {
    return RQFTL_STC_MISS;
  }
  scheme_list_move_front(&stc->lru, stc->links, slot);
  uint32_t offset = lpn % stc->entries_per_tp;
  const rqftl_run_t *runs = runs_of(stc, slot);
  uint32_t before = run_before(runs, stc->count[slot], offset);
  uint32_t found = VPN_UNMAPPED;
  if (before != stc->count[slot] && covers(&runs[before], offset)) {
    found = vpn_at(&runs[before], offset);
  } else if (!(stc->flags[slot] & RQFTL_STC_WHOLE)) {
    return RQFTL_STC_MISS;
  }
  ++stc->stats.hits;
  *vpn = found;
  return found == VPN_UNMAPPED ? RQFTL_STC_UNMAPPED : RQFTL_STC_MAPPED;
}

bool rqftl_stc_write(rqftl_stc_t *stc, uint32_t lpn, uint32_t vpn) {
  ++stc->stats.writes;
  uint32_t tp = lpn / stc->entries_per_tp;
  uint32_t slot = rqftl_stc_line_of(stc, tp);
  if (slot == SCHEME_NIL) {
    slot = new_line(stc, tp, STC_MIN_CAPACITY);
  } else {
    scheme_list_move_front(&stc->lru, stc->links, slot);
  }
  if (slot == SCHEME_NIL || !set_offset(stc, slot, lpn % stc->entries_per_tp, vpn)) {
    return false;
  }
  if (!(stc->flags[slot] & STC_UPDATED)) {
    stc->flags[slot] |= STC_UPDATED;
    ++stc->stats.updated_tps;
  }
  set_marked(stc, slot, false);
  stc->flags[slot] |= RQFTL_STC_DIRTY;
  return true;
}

bool rqftl_stc_load(rqftl_stc_t *stc, uint32_t tp, const uint32_t *entries) {
  ++stc->stats.loads;
  uint32_t slot = rqftl_stc_line_of(stc, tp);
  if (slot != SCHEME_NIL && (stc->flags[slot] & RQFTL_STC_WHOLE)) {
    scheme_list_move_front(&stc->lru, stc->links, slot);
    return true; /* what the line holds is newer than the flash */
  }
  uint32_t runs = 0;
  for (uint32_t i = 0; i < stc->entries_per_tp; ++i) {
    runs += entries[i] != VPN_UNMAPPED &&
            (i == 0 || entries[i - 1u] == VPN_UNMAPPED || entries[i - 1u] + 1u != entries[i]);
  }
  /* Each patched LPN adds two runs at most (set_offset): with room for them the extent never
   * moves while the patches, in their own extent, are laid over it. */
  uint32_t patch_lpns = 0;
  uint32_t patch_runs = slot == SCHEME_NIL ? 0u : stc->count[slot];
  for (uint32_t p = 0; p < patch_runs; ++p) {
    patch_lpns += runs_of(stc, slot)[p].length;
  }
  uint32_t capacity = runs + 2u * patch_lpns;
  if (capacity > stc->entries_per_tp + 2u) {
    capacity = stc->entries_per_tp + 2u;
  }
  uint32_t index;
  if (slot == SCHEME_NIL) {
    slot = new_line(stc, tp, capacity);
    if (slot == SCHEME_NIL) {
      return false;
    }
    index = stc->extent[slot];
  } else {
    scheme_list_move_front(&stc->lru, stc->links, slot);
    index = alloc_extent(stc, slot, capacity);
    if (index == SCHEME_NIL) {
      return false;
    }
  }
  uint32_t patches = stc->extent[slot]; /* the patch line's extent (the new one if none) */
  rqftl_run_t *built = (rqftl_run_t *)rqftl_pool_data(stc->pool, index);
  uint16_t count = 0;
  for (uint32_t i = 0; i < stc->entries_per_tp; ++i) {
    if (entries[i] == VPN_UNMAPPED) {
      continue;
    }
    rqftl_run_t next = {(uint16_t)i, 1, entries[i]};
    if (count != 0 && continues(&built[count - 1u], &next)) {
      ++built[count - 1u].length;
    } else {
      built[count++] = next;
    }
  }
  stc->extent[slot] = index;
  stc->count[slot] = count;
  set_marked(stc, slot, false);
  stc->flags[slot] =
      (uint8_t)(RQFTL_STC_WHOLE | (stc->flags[slot] & (RQFTL_STC_DIRTY | STC_UPDATED)));
  set_known(stc, slot, stc->entries_per_tp);
  if (patches != index) {
    /* The patches go over the TP: they are newer. */
    const rqftl_run_t *patch = (const rqftl_run_t *)rqftl_pool_data(stc->pool, patches);
    for (uint32_t p = 0; p < patch_runs; ++p) {
      uint32_t end = (uint32_t)patch[p].offset + patch[p].length;
      for (uint32_t offset = patch[p].offset; offset < end; ++offset) {
        set_offset(stc, slot, offset, vpn_at(&patch[p], offset));
      }
    }
    kill_extent(stc, patches);
  }
  return true;
}

void rqftl_stc_set_line_limit(rqftl_stc_t *stc, uint32_t limit) {
  if (limit < 1u) {
    limit = 1u;
  }
  stc->line_limit = limit < stc->max_lines ? limit : stc->max_lines;
  while (stc->stats.lines > stc->line_limit && evict_lru(stc, SCHEME_NIL)) {
  }
}

void rqftl_stc_set_cell_limit(rqftl_stc_t *stc, uint32_t cells) {
  stc->cell_limit = cells;
  while (stc->stats.cells > stc->cell_limit && evict_lru(stc, SCHEME_NIL)) {
  }
}

void rqftl_stc_clear_updates(rqftl_stc_t *stc) {
  for (uint32_t slot = 0; slot < stc->max_lines; ++slot) {
    stc->flags[slot] &= (uint8_t)~STC_UPDATED;
  }
  stc->stats.updated_tps = 0;
}

void rqftl_stc_mark(rqftl_stc_t *stc, uint32_t slot) { set_marked(stc, slot, true); }

void rqftl_stc_unmark(rqftl_stc_t *stc, uint32_t slot) { set_marked(stc, slot, false); }

bool rqftl_stc_flush(rqftl_stc_t *stc, bool (*room)(void)) {
  for (uint32_t slot = 0; slot < stc->max_lines; ++slot) {
    if (stc->tps[slot] != SCHEME_NIL && (stc->flags[slot] & RQFTL_STC_DIRTY)) {
      if (room != 0 && !room()) {
        return false;
      }
      stc->evicted(stc->context, stc->tps[slot], runs_of(stc, slot), stc->count[slot],
                   (stc->flags[slot] & RQFTL_STC_WHOLE) != 0);
      stc->flags[slot] &= (uint8_t)~RQFTL_STC_DIRTY;
    }
  }
  return true;
}
