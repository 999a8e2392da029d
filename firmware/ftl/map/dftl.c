/* DFTL (Gupta et al., ASPLOS 2009): a cached mapping table (CMT) over translation pages in flash.
 *
 * Entry mode (the paper's): the CMT holds single mappings, found through a chained hash and
 * replaced in LRU order. A miss loads the TP and caches the wanted mappings only. Evicting a
 * dirty mapping writes back every dirty mapping of its TP in one write_back_patches call (the
 * paper's batch update); those others stay cached, now clean, and only the victim leaves. Each
 * TP keeps a singly linked list of its dirty mappings, so a batch costs its own size, not a
 * scan: a mapping leaves that list only when its whole TP is written back.
 *
 * Whole-TP mode (boot->ftl_dftl_whole_tp, the variant RQFTL compares against): cache lines are
 * whole TPs in LRU order; a dirty line leaves through write_back_page.
 *
 * Writebacks per call: lookup and update none; tp_loaded at most one TP per wanted mapping it
 * caches (entry mode; a batch larger than the patch buffer goes in several calls for that TP)
 * or one page (whole-TP mode), each only while env eviction_room allows: past it, tp_loaded
 * caches no more wanted mappings whose slot is dirty (their waiters miss, wait for room and load
 * the TP again) and whole-TP mode does not cache the TP.
 *
 * Budget: entry mode pays per mapping its LPN, VPN, LRU links, hash link, dirty link and flag,
 * plus hash buckets (load factor at most about 2.3), a dirty-list head per TP and a patch buffer
 * of up to one TP. Whole-TP mode pays per line the TP, its tag, links and flag, plus buckets. */
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"

#define DFTL_MIN_ENTRIES 2u
#define DFTL_FLAG_DIRTY 1u

static struct {
  map_env_t env;
  bool whole_tp;
  uint32_t capacity; /* mappings (entry mode) or lines (whole-TP mode) */
  uint32_t used;     /* slots handed out so far; then every insert replaces the LRU tail */
  uint32_t *keys;    /* LPN (entry mode) or TP (whole-TP mode) per slot */
  uint32_t *vpns;    /* entry mode: one VPN per slot; whole-TP mode: entries_per_tp per line */
  uint8_t *flags;
  scheme_link_t *lru_links;
  scheme_list_t lru;
  uint32_t *hash_next;
  scheme_hash_t hash;
  /* entry mode only */
  uint32_t *dirty_heads; /* per TP: first dirty slot */
  uint32_t *dirty_next;
  map_patch_t *patches;
  uint32_t patch_capacity;
  map_counters_t counters;
} dftl;

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static bool dftl_init_entries(scheme_budget_t *budget) {
  const uint32_t per_entry = 4u + 4u + sizeof(scheme_link_t) + 4u + 4u + 1u;
  const uint32_t allocations = 9u; /* alignment slack: up to ARENA_ALIGN per allocation */
  uint32_t fixed = scheme_aligned(dftl.env.tp_count * 4u) + allocations * ARENA_ALIGN;
  if (budget->limit <= fixed) {
    return false;
  }
  uint32_t available = budget->limit - fixed;
  /* First guess with the patch buffer and one bucket per mapping, then spend what is left. */
  uint32_t guess = available / (per_entry + 4u + sizeof(map_patch_t));
  dftl.patch_capacity = min_u32(dftl.env.entries_per_tp, guess);
  if (dftl.patch_capacity < 1u) {
    return false;
  }
  available -= dftl.patch_capacity * (uint32_t)sizeof(map_patch_t);
  uint32_t buckets = scheme_pow2_floor(available / (per_entry + 4u));
  if (buckets < 2u) {
    buckets = 2u;
  }
  if (available <= buckets * 4u) {
    return false;
  }
  dftl.capacity = (available - buckets * 4u) / per_entry;
  if (dftl.capacity < DFTL_MIN_ENTRIES) {
    return false;
  }
  uint32_t n = dftl.capacity;
  dftl.keys = scheme_alloc(budget, "map.dftl.lpn", n * 4u);
  dftl.vpns = scheme_alloc(budget, "map.dftl.vpn", n * 4u);
  dftl.lru_links = scheme_alloc(budget, "map.dftl.lru", n * (uint32_t)sizeof(scheme_link_t));
  dftl.hash_next = scheme_alloc(budget, "map.dftl.hash_next", n * 4u);
  dftl.flags = scheme_alloc(budget, "map.dftl.flags", n);
  dftl.dirty_next = scheme_alloc(budget, "map.dftl.dirty_next", n * 4u);
  uint32_t *heads = scheme_alloc(budget, "map.dftl.buckets", buckets * 4u);
  dftl.dirty_heads = scheme_alloc(budget, "map.dftl.dirty_heads", dftl.env.tp_count * 4u);
  dftl.patches = scheme_alloc(budget, "map.dftl.patches",
                              dftl.patch_capacity * (uint32_t)sizeof(map_patch_t));
  if (!dftl.keys || !dftl.vpns || !dftl.lru_links || !dftl.hash_next || !dftl.flags ||
      !dftl.dirty_next || !heads || !dftl.dirty_heads || !dftl.patches) {
    return false;
  }
  for (uint32_t tp = 0; tp < dftl.env.tp_count; tp++) {
    dftl.dirty_heads[tp] = SCHEME_NIL;
  }
  scheme_hash_init(&dftl.hash, heads, buckets, dftl.hash_next, dftl.keys);
  return true;
}

static bool dftl_init_lines(scheme_budget_t *budget) {
  const uint32_t line_bytes = dftl.env.entries_per_tp * 4u;
  const uint32_t per_line = line_bytes + 4u + sizeof(scheme_link_t) + 4u + 1u + 4u;
  const uint32_t fixed = 6u * ARENA_ALIGN;
  if (budget->limit <= fixed + 8u) {
    return false;
  }
  uint32_t available = budget->limit - fixed - 8u; /* at least 2 buckets */
  uint32_t lines = available / per_line;
  if (lines < 1u) {
    return false;
  }
  uint32_t buckets = scheme_pow2_floor(lines) < 2u ? 2u : scheme_pow2_floor(lines);
  dftl.capacity = lines;
  dftl.vpns = scheme_alloc(budget, "map.dftl.lines", lines * line_bytes);
  dftl.keys = scheme_alloc(budget, "map.dftl.line_tp", lines * 4u);
  dftl.lru_links = scheme_alloc(budget, "map.dftl.lru", lines * (uint32_t)sizeof(scheme_link_t));
  dftl.hash_next = scheme_alloc(budget, "map.dftl.hash_next", lines * 4u);
  dftl.flags = scheme_alloc(budget, "map.dftl.flags", lines);
  uint32_t *heads = scheme_alloc(budget, "map.dftl.buckets", buckets * 4u);
  if (!dftl.vpns || !dftl.keys || !dftl.lru_links || !dftl.hash_next || !dftl.flags || !heads) {
    return false;
  }
  scheme_hash_init(&dftl.hash, heads, buckets, dftl.hash_next, dftl.keys);
  return true;
}

static bool dftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  scheme_budget_t budget = {arena, budget_bytes, 0};
  dftl.env = *env;
  dftl.whole_tp = env->boot->ftl_dftl_whole_tp != 0;
  dftl.used = 0;
  dftl.counters = (map_counters_t){0};
  scheme_list_init(&dftl.lru);
  return dftl.whole_tp ? dftl_init_lines(&budget) : dftl_init_entries(&budget);
}

/* ---- entry mode ---- */

/* Hands every dirty mapping of `tp` to the TP store (in patch-buffer-sized calls) and marks
 * them clean: they stay cached. */
static void dftl_write_back_tp(uint32_t tp) {
  uint32_t count = 0;
  for (uint32_t slot = dftl.dirty_heads[tp]; slot != SCHEME_NIL; slot = dftl.dirty_next[slot]) {
    dftl.flags[slot] &= (uint8_t)~DFTL_FLAG_DIRTY;
    dftl.patches[count].lpn = dftl.keys[slot];
    dftl.patches[count].vpn = dftl.vpns[slot];
    if (++count == dftl.patch_capacity) {
      dftl.env.write_back_patches(tp, dftl.patches, count);
      count = 0;
    }
  }
  if (count > 0) {
    dftl.env.write_back_patches(tp, dftl.patches, count);
  }
  dftl.dirty_heads[tp] = SCHEME_NIL;
}

/* A free slot: a fresh one while any is left, else the LRU tail, written back first if dirty;
 * SCHEME_NIL when that writeback finds no eviction room. */
static uint32_t dftl_take_entry(void) {
  if (dftl.used < dftl.capacity) {
    dftl.counters.table_bytes += 8u; /* LPN and VPN */
    ++dftl.counters.translatable_lpns;
    return dftl.used++;
  }
  uint32_t victim = dftl.lru.tail;
  if ((dftl.flags[victim] & DFTL_FLAG_DIRTY) && !scheme_eviction_room(&dftl.env)) {
    return SCHEME_NIL;
  }
  dftl.counters.evictions++;
  if (dftl.flags[victim] & DFTL_FLAG_DIRTY) {
    dftl.counters.dirty_evictions++;
    dftl_write_back_tp(dftl.keys[victim] / dftl.env.entries_per_tp);
  }
  scheme_list_remove(&dftl.lru, dftl.lru_links, victim);
  scheme_hash_remove(&dftl.hash, victim);
  return victim;
}

static map_answer_t dftl_entry_lookup(uint32_t lpn, uint32_t *value) {
  uint32_t slot = scheme_hash_find(&dftl.hash, lpn);
  if (slot == SCHEME_NIL) {
    dftl.counters.misses++;
    *value = lpn / dftl.env.entries_per_tp;
    return MAP_MISS;
  }
  dftl.counters.hits++;
  scheme_list_move_front(&dftl.lru, dftl.lru_links, slot);
  *value = dftl.vpns[slot];
  return MAP_HIT;
}

static map_answer_t dftl_entry_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  uint32_t slot = scheme_hash_find(&dftl.hash, lpn);
  if (slot == SCHEME_NIL) {
    dftl.counters.update_misses++;
    *value = lpn / dftl.env.entries_per_tp;
    return MAP_MISS;
  }
  scheme_list_move_front(&dftl.lru, dftl.lru_links, slot);
  *value = dftl.vpns[slot];
  dftl.vpns[slot] = vpn;
  if (!(dftl.flags[slot] & DFTL_FLAG_DIRTY)) {
    uint32_t tp = lpn / dftl.env.entries_per_tp;
    dftl.flags[slot] |= DFTL_FLAG_DIRTY;
    dftl.dirty_next[slot] = dftl.dirty_heads[tp];
    dftl.dirty_heads[tp] = slot;
  }
  return MAP_HIT;
}

static void dftl_entry_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                              uint32_t wanted_count) {
  uint32_t first_lpn = tp * dftl.env.entries_per_tp;
  for (uint32_t i = 0; i < wanted_count; i++) {
    uint32_t lpn = wanted[i];
    if (scheme_hash_find(&dftl.hash, lpn) != SCHEME_NIL) {
      continue; /* cached already (a repeated waiter): what the cache holds is newer */
    }
    uint32_t slot = dftl_take_entry();
    if (slot == SCHEME_NIL) {
      return; /* the LRU tail stays dirty until there is room: so do the rest */
    }
    dftl.keys[slot] = lpn;
    dftl.vpns[slot] = entries[lpn - first_lpn];
    dftl.flags[slot] = 0;
    scheme_hash_insert(&dftl.hash, slot);
    scheme_list_push_front(&dftl.lru, dftl.lru_links, slot);
  }
}

/* ---- whole-TP mode ---- */

static uint32_t *dftl_line(uint32_t line) { return dftl.vpns + line * dftl.env.entries_per_tp; }

/* A free line, as dftl_take_entry. */
static uint32_t dftl_take_line(void) {
  if (dftl.used < dftl.capacity) {
    dftl.counters.table_bytes += 4u + dftl.env.entries_per_tp * 4u; /* TP and its VPNs */
    return dftl.used++;
  }
  uint32_t victim = dftl.lru.tail;
  if ((dftl.flags[victim] & DFTL_FLAG_DIRTY) && !scheme_eviction_room(&dftl.env)) {
    return SCHEME_NIL;
  }
  dftl.counters.translatable_lpns -= scheme_tp_lpns(&dftl.env, dftl.keys[victim]);
  dftl.counters.evictions++;
  if (dftl.flags[victim] & DFTL_FLAG_DIRTY) {
    dftl.counters.dirty_evictions++;
    dftl.env.write_back_page(dftl.keys[victim], dftl_line(victim));
  }
  scheme_list_remove(&dftl.lru, dftl.lru_links, victim);
  scheme_hash_remove(&dftl.hash, victim);
  return victim;
}

/* The cached line holding lpn, moved to the LRU head, or SCHEME_NIL. */
static uint32_t dftl_find_line(uint32_t lpn) {
  uint32_t line = scheme_hash_find(&dftl.hash, lpn / dftl.env.entries_per_tp);
  if (line != SCHEME_NIL) {
    scheme_list_move_front(&dftl.lru, dftl.lru_links, line);
  }
  return line;
}

static map_answer_t dftl_line_lookup(uint32_t lpn, uint32_t *value) {
  uint32_t line = dftl_find_line(lpn);
  if (line == SCHEME_NIL) {
    dftl.counters.misses++;
    *value = lpn / dftl.env.entries_per_tp;
    return MAP_MISS;
  }
  dftl.counters.hits++;
  *value = dftl_line(line)[lpn % dftl.env.entries_per_tp];
  return MAP_HIT;
}

static map_answer_t dftl_line_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  uint32_t line = dftl_find_line(lpn);
  if (line == SCHEME_NIL) {
    dftl.counters.update_misses++;
    *value = lpn / dftl.env.entries_per_tp;
    return MAP_MISS;
  }
  uint32_t *entry = &dftl_line(line)[lpn % dftl.env.entries_per_tp];
  *value = *entry;
  *entry = vpn;
  dftl.flags[line] |= DFTL_FLAG_DIRTY;
  return MAP_HIT;
}

static void dftl_line_loaded(uint32_t tp, const uint32_t *entries) {
  if (scheme_hash_find(&dftl.hash, tp) != SCHEME_NIL) {
    return; /* cached already: the cached line is newer */
  }
  uint32_t line = dftl_take_line();
  if (line == SCHEME_NIL) {
    return;
  }
  dftl.keys[line] = tp;
  dftl.counters.translatable_lpns += scheme_tp_lpns(&dftl.env, tp);
  dftl.flags[line] = 0;
  uint32_t *content = dftl_line(line);
  for (uint32_t i = 0; i < dftl.env.entries_per_tp; i++) {
    content[i] = entries[i];
  }
  scheme_hash_insert(&dftl.hash, line);
  scheme_list_push_front(&dftl.lru, dftl.lru_links, line);
}

/* ---- the interface ---- */

static map_answer_t dftl_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  (void)request;
  dftl.counters.lookups++;
  return dftl.whole_tp ? dftl_line_lookup(lpn, value) : dftl_entry_lookup(lpn, value);
}

static map_answer_t dftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  dftl.counters.updates++;
  return dftl.whole_tp ? dftl_line_update(lpn, vpn, value) : dftl_entry_update(lpn, vpn, value);
}

static void dftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                           const map_request_t *const *requests, uint32_t wanted_count) {
  (void)requests;
  if (dftl.whole_tp) {
    dftl_line_loaded(tp, entries);
  } else {
    dftl_entry_loaded(tp, entries, wanted, wanted_count);
  }
}

static bool dftl_flush(void) {
  if (dftl.whole_tp) {
    for (uint32_t line = 0; line < dftl.used; line++) {
      if (dftl.flags[line] & DFTL_FLAG_DIRTY) {
        if (!scheme_write_back_room(&dftl.env)) {
          return false;
        }
        dftl.env.write_back_page(dftl.keys[line], dftl_line(line));
        dftl.flags[line] &= (uint8_t)~DFTL_FLAG_DIRTY;
      }
    }
    return true;
  }
  for (uint32_t tp = 0; tp < dftl.env.tp_count; tp++) {
    if (dftl.dirty_heads[tp] != SCHEME_NIL) {
      if (!scheme_write_back_room(&dftl.env)) {
        return false;
      }
      dftl_write_back_tp(tp);
    }
  }
  return true;
}

static const map_counters_t *dftl_counters(void) { return &dftl.counters; }

const map_scheme_t map_scheme_dftl = {
    .name = "dftl",
    .recovery = MAP_RECOVERY_TPS,
    .init = dftl_init,
    .lookup = dftl_lookup,
    .update = dftl_update,
    .tp_loaded = dftl_tp_loaded,
    .mispredicted = 0,
    .flush = dftl_flush,
    .counters = dftl_counters,
};
