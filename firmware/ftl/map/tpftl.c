/* TPFTL (Zhou et al., EuroSys 2015): a two-level LRU cache of mappings. The first level orders
 * TP nodes (one per cached translation page), the second the mappings inside each node, kept
 * in two lists, clean and dirty, each in LRU order.
 *
 * - Request-level prefetch: a miss caches, besides the wanted mapping, the other LPNs of the
 *   same host request that fall in the loaded TP.
 * - Selective prefetch: consecutive requests (one starting where the previous ended) form a
 *   sequential stream; while a stream runs, a miss also caches the mappings that follow the
 *   request in that TP, as many as the stream is long, at most boot->ftl_tpftl_prefetch_max.
 *   Prefetch never takes more than half the cache, so it cannot flush the working set.
 * - Replacement: the victim is in the LRU node; clean-first takes its LRU clean mapping. When
 *   the node holds only dirty mappings, batch update writes all of them back in one
 *   write_back_patches call; they become clean and the LRU one leaves.
 *
 * Writebacks per call: lookup and update none; tp_loaded at most one TP for a node it frees
 * plus one per wanted mapping it caches (prefetch never causes one), each only while env
 * eviction_room allows: past it, tp_loaded caches no wanted mapping that would write a node back
 * (its waiter misses, waits for room and loads the TP again), nor any when its TP needs a node
 * that only a writeback would free.
 *
 * Budget: per mapping its LPN, VPN, links, hash link, node and flag, plus buckets (load factor
 * at most about 2.3); nodes (one per 4 mapping slots, since mappings cluster in TPs; when none
 * is free the LRU node leaves whole) with their own hash; a patch buffer of up to one TP. */
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"

#define TPFTL_MIN_ENTRIES 4u
#define TPFTL_ENTRIES_PER_NODE_SLOT 4u
#define TPFTL_FLAG_DIRTY 1u

typedef struct tpftl_node {
  scheme_list_t clean;
  scheme_list_t dirty;
  uint32_t entry_count;
  uint32_t dirty_count;
} tpftl_node_t;

static struct {
  map_env_t env;
  uint32_t capacity;
  uint32_t entry_count;
  uint32_t free_entries; /* chained through hash_next */
  uint32_t *lpns;
  uint32_t *vpns;
  uint32_t *entry_node;
  uint8_t *flags;
  scheme_link_t *entry_links; /* in the node's clean or dirty list */
  uint32_t *entry_hash_next;
  scheme_hash_t entry_hash;

  uint32_t node_capacity;
  uint32_t free_nodes; /* chained through node_hash_next */
  tpftl_node_t *nodes;
  uint32_t *node_tps;
  scheme_link_t *node_links;
  scheme_list_t node_lru;
  uint32_t *node_hash_next;
  scheme_hash_t node_hash;

  map_patch_t *patches;
  uint32_t patch_capacity;

  /* sequential stream detection */
  uint32_t last_request_first;
  uint32_t last_request_end;
  uint32_t stream_pages;

  map_counters_t counters;
} tpftl;

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static bool tpftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  scheme_budget_t budget = {arena, budget_bytes, 0};
  tpftl.env = *env;
  tpftl.counters = (map_counters_t){0};
  tpftl.last_request_first = SCHEME_NIL;
  tpftl.last_request_end = SCHEME_NIL;
  tpftl.stream_pages = 0;
  scheme_list_init(&tpftl.node_lru);

  const uint32_t per_entry = 4u + 4u + 4u + 1u + sizeof(scheme_link_t) + 4u;
  const uint32_t per_node = sizeof(tpftl_node_t) + 4u + sizeof(scheme_link_t) + 4u + 4u;
  const uint32_t per_slot = per_entry + 4u + (per_node + TPFTL_ENTRIES_PER_NODE_SLOT - 1u) /
                                                TPFTL_ENTRIES_PER_NODE_SLOT;
  const uint32_t fixed = 12u * ARENA_ALIGN;
  if (budget_bytes <= fixed) {
    return false;
  }
  uint32_t available = budget_bytes - fixed;
  uint32_t guess = available / (per_slot + sizeof(map_patch_t));
  tpftl.patch_capacity = min_u32(env->entries_per_tp, guess);
  if (tpftl.patch_capacity < 1u) {
    return false;
  }
  available -= tpftl.patch_capacity * (uint32_t)sizeof(map_patch_t);
  uint32_t n = available / per_slot;
  if (n < TPFTL_MIN_ENTRIES) {
    return false;
  }
  uint32_t nodes = min_u32(env->tp_count, (n + TPFTL_ENTRIES_PER_NODE_SLOT - 1u) /
                                              TPFTL_ENTRIES_PER_NODE_SLOT);
  uint32_t node_buckets = scheme_pow2_floor(nodes) < 2u ? 2u : scheme_pow2_floor(nodes);
  uint32_t node_bytes = nodes * per_node + node_buckets * 4u;
  uint32_t entry_buckets = scheme_pow2_floor(n) < 2u ? 2u : scheme_pow2_floor(n);
  /* spend what the node estimate left over on more mappings */
  n = (available - node_bytes - entry_buckets * 4u) / per_entry;
  tpftl.capacity = n;
  tpftl.node_capacity = nodes;

  tpftl.lpns = scheme_alloc(&budget, "map.tpftl.lpn", n * 4u);
  tpftl.vpns = scheme_alloc(&budget, "map.tpftl.vpn", n * 4u);
  tpftl.entry_node = scheme_alloc(&budget, "map.tpftl.entry_node", n * 4u);
  tpftl.flags = scheme_alloc(&budget, "map.tpftl.flags", n);
  tpftl.entry_links =
      scheme_alloc(&budget, "map.tpftl.entry_lru", n * (uint32_t)sizeof(scheme_link_t));
  tpftl.entry_hash_next = scheme_alloc(&budget, "map.tpftl.entry_next", n * 4u);
  uint32_t *entry_heads = scheme_alloc(&budget, "map.tpftl.entry_buckets", entry_buckets * 4u);
  tpftl.nodes = scheme_alloc(&budget, "map.tpftl.nodes", nodes * (uint32_t)sizeof(tpftl_node_t));
  tpftl.node_tps = scheme_alloc(&budget, "map.tpftl.node_tp", nodes * 4u);
  tpftl.node_links =
      scheme_alloc(&budget, "map.tpftl.node_lru", nodes * (uint32_t)sizeof(scheme_link_t));
  tpftl.node_hash_next = scheme_alloc(&budget, "map.tpftl.node_next", nodes * 4u);
  uint32_t *node_heads = scheme_alloc(&budget, "map.tpftl.node_buckets", node_buckets * 4u);
  tpftl.patches = scheme_alloc(&budget, "map.tpftl.patches",
                               tpftl.patch_capacity * (uint32_t)sizeof(map_patch_t));
  if (!tpftl.lpns || !tpftl.vpns || !tpftl.entry_node || !tpftl.flags || !tpftl.entry_links ||
      !tpftl.entry_hash_next || !entry_heads || !tpftl.nodes || !tpftl.node_tps ||
      !tpftl.node_links || !tpftl.node_hash_next || !node_heads || !tpftl.patches) {
    return false;
  }
  scheme_hash_init(&tpftl.entry_hash, entry_heads, entry_buckets, tpftl.entry_hash_next,
                   tpftl.lpns);
  scheme_hash_init(&tpftl.node_hash, node_heads, node_buckets, tpftl.node_hash_next,
                   tpftl.node_tps);
  tpftl.entry_count = 0;
  tpftl.free_entries = SCHEME_NIL;
  for (uint32_t entry = n; entry-- > 0;) {
    tpftl.entry_hash_next[entry] = tpftl.free_entries;
    tpftl.free_entries = entry;
  }
  tpftl.free_nodes = SCHEME_NIL;
  for (uint32_t node = nodes; node-- > 0;) {
    tpftl.node_hash_next[node] = tpftl.free_nodes;
    tpftl.free_nodes = node;
  }
  return true;
}

/* Batch update: every dirty mapping of the node goes back in one call (or patch-buffer-sized
 * calls) and joins the clean list behind the clean ones. */
static void tpftl_write_back_node(uint32_t node) {
  tpftl_node_t *n = &tpftl.nodes[node];
  uint32_t count = 0;
  for (uint32_t entry = n->dirty.head; entry != SCHEME_NIL; entry = tpftl.entry_links[entry].next) {
    tpftl.flags[entry] &= (uint8_t)~TPFTL_FLAG_DIRTY;
    tpftl.patches[count].lpn = tpftl.lpns[entry];
    tpftl.patches[count].vpn = tpftl.vpns[entry];
    if (++count == tpftl.patch_capacity) {
      tpftl.env.write_back_patches(tpftl.node_tps[node], tpftl.patches, count);
      count = 0;
    }
  }
  if (count > 0) {
    tpftl.env.write_back_patches(tpftl.node_tps[node], tpftl.patches, count);
  }
  scheme_list_append(&n->clean, &n->dirty, tpftl.entry_links);
  n->dirty_count = 0;
}

static void tpftl_release_node(uint32_t node) {
  scheme_list_remove(&tpftl.node_lru, tpftl.node_links, node);
  scheme_hash_remove(&tpftl.node_hash, node);
  tpftl.node_hash_next[node] = tpftl.free_nodes;
  tpftl.free_nodes = node;
}

/* Drops one clean mapping (the node's list must be the clean one). */
static void tpftl_drop_entry(uint32_t node, uint32_t entry) {
  tpftl_node_t *n = &tpftl.nodes[node];
  scheme_list_remove(&n->clean, tpftl.entry_links, entry);
  scheme_hash_remove(&tpftl.entry_hash, entry);
  tpftl.entry_hash_next[entry] = tpftl.free_entries;
  tpftl.free_entries = entry;
  tpftl.entry_count--;
  tpftl.counters.table_bytes -= 8u; /* LPN and VPN */
  --tpftl.counters.translatable_lpns;
  tpftl.counters.evictions++;
  if (--n->entry_count == 0) {
    tpftl_release_node(node);
  }
}

/* Clean-first replacement in the LRU node that is not `keep`. */
static void tpftl_evict_one(uint32_t keep) {
  uint32_t node = tpftl.node_lru.tail;
  if (node == keep && tpftl.node_links[node].prev != SCHEME_NIL) {
    node = tpftl.node_links[node].prev;
  }
  tpftl_node_t *n = &tpftl.nodes[node];
  if (n->clean.tail == SCHEME_NIL) {
    tpftl.counters.dirty_evictions++;
    tpftl_write_back_node(node);
  }
  tpftl_drop_entry(node, n->clean.tail);
}

/* Frees the whole LRU node (writing its dirty mappings back first): no node was free. */
static void tpftl_evict_node(void) {
  uint32_t node = tpftl.node_lru.tail;
  tpftl_node_t *n = &tpftl.nodes[node];
  if (n->dirty_count > 0) {
    tpftl.counters.dirty_evictions++;
    tpftl_write_back_node(node);
  }
  while (tpftl.free_nodes != node) {
    tpftl_drop_entry(node, n->clean.tail);
  }
}

/* The node of `tp`, cached now if it was not; SCHEME_NIL when that needs a writeback and the
 * call has no eviction room. */
static uint32_t tpftl_node_for(uint32_t tp) {
  uint32_t node = scheme_hash_find(&tpftl.node_hash, tp);
  if (node != SCHEME_NIL) {
    scheme_list_move_front(&tpftl.node_lru, tpftl.node_links, node);
    return node;
  }
  if (tpftl.free_nodes == SCHEME_NIL) {
    if (tpftl.nodes[tpftl.node_lru.tail].dirty_count > 0 && !scheme_eviction_room(&tpftl.env)) {
      return SCHEME_NIL;
    }
    tpftl_evict_node();
  }
  node = tpftl.free_nodes;
  tpftl.free_nodes = tpftl.node_hash_next[node];
  tpftl.node_tps[node] = tp;
  tpftl.nodes[node] = (tpftl_node_t){{SCHEME_NIL, SCHEME_NIL}, {SCHEME_NIL, SCHEME_NIL}, 0, 0};
  scheme_hash_insert(&tpftl.node_hash, node);
  scheme_list_push_front(&tpftl.node_lru, tpftl.node_links, node);
  return node;
}

/* Caches lpn -> vpn clean in `node` unless it is cached; true when it was inserted. */
static bool tpftl_insert(uint32_t node, uint32_t lpn, uint32_t vpn) {
  uint32_t entry = scheme_hash_find(&tpftl.entry_hash, lpn);
  if (entry != SCHEME_NIL) {
    tpftl_node_t *n = &tpftl.nodes[node];
    scheme_list_move_front(tpftl.flags[entry] & TPFTL_FLAG_DIRTY ? &n->dirty : &n->clean,
                           tpftl.entry_links, entry);
    return false; /* what the cache holds is newer than the loaded TP */
  }
  if (tpftl.entry_count == tpftl.capacity) {
    tpftl_evict_one(node);
  }
  entry = tpftl.free_entries;
  tpftl.free_entries = tpftl.entry_hash_next[entry];
  tpftl.entry_count++;
  tpftl.counters.table_bytes += 8u;
  ++tpftl.counters.translatable_lpns;
  tpftl.lpns[entry] = lpn;
  tpftl.vpns[entry] = vpn;
  tpftl.flags[entry] = 0;
  tpftl.entry_node[entry] = node;
  scheme_hash_insert(&tpftl.entry_hash, entry);
  scheme_list_push_front(&tpftl.nodes[node].clean, tpftl.entry_links, entry);
  tpftl.nodes[node].entry_count++;
  return true;
}

/* The cached mapping of lpn, touched in both LRU levels, or SCHEME_NIL. */
static uint32_t tpftl_touch(uint32_t lpn) {
  uint32_t entry = scheme_hash_find(&tpftl.entry_hash, lpn);
  if (entry != SCHEME_NIL) {
    uint32_t node = tpftl.entry_node[entry];
    tpftl_node_t *n = &tpftl.nodes[node];
    scheme_list_move_front(tpftl.flags[entry] & TPFTL_FLAG_DIRTY ? &n->dirty : &n->clean,
                           tpftl.entry_links, entry);
    scheme_list_move_front(&tpftl.node_lru, tpftl.node_links, node);
  }
  return entry;
}

/* Follows the request stream: a request that starts where the previous one ended extends it. */
static void tpftl_observe(const map_request_t *request) {
  if (!request || request->first_lpn == tpftl.last_request_first) {
    return;
  }
  if (request->first_lpn == tpftl.last_request_end) {
    tpftl.stream_pages += request->pages;
  } else {
    tpftl.stream_pages = 0;
  }
  tpftl.last_request_first = request->first_lpn;
  tpftl.last_request_end = request->first_lpn + request->pages;
}

static map_answer_t tpftl_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  tpftl.counters.lookups++;
  tpftl_observe(request);
  uint32_t entry = tpftl_touch(lpn);
  if (entry == SCHEME_NIL) {
    tpftl.counters.misses++;
    *value = lpn / tpftl.env.entries_per_tp;
    return MAP_MISS;
  }
  tpftl.counters.hits++;
  *value = tpftl.vpns[entry];
  return MAP_HIT;
}

static map_answer_t tpftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  tpftl.counters.updates++;
  uint32_t entry = tpftl_touch(lpn);
  if (entry == SCHEME_NIL) {
    tpftl.counters.update_misses++;
    *value = lpn / tpftl.env.entries_per_tp;
    return MAP_MISS;
  }
  *value = tpftl.vpns[entry];
  tpftl.vpns[entry] = vpn;
  if (!(tpftl.flags[entry] & TPFTL_FLAG_DIRTY)) {
    tpftl_node_t *n = &tpftl.nodes[tpftl.entry_node[entry]];
    tpftl.flags[entry] |= TPFTL_FLAG_DIRTY;
    scheme_list_remove(&n->clean, tpftl.entry_links, entry);
    scheme_list_push_front(&n->dirty, tpftl.entry_links, entry);
    n->dirty_count++;
  }
  return MAP_HIT;
}

/* Whether caching one more mapping now would write a node back: the cache is full and the
 * victim node (the LRU one other than `keep`) holds no clean mapping. */
static bool tpftl_insert_writes_back(uint32_t keep) {
  if (tpftl.entry_count < tpftl.capacity) {
    return false;
  }
  uint32_t node = tpftl.node_lru.tail;
  if (node == keep && tpftl.node_links[node].prev != SCHEME_NIL) {
    node = tpftl.node_links[node].prev;
  }
  return tpftl.nodes[node].clean.tail == SCHEME_NIL;
}

/* Caches [from, to) of the loaded TP as prefetched mappings, within `allowance`. Prefetch stops
 * where it would cost a writeback: only wanted mappings may make a call write TPs back. */
static void tpftl_prefetch(uint32_t node, uint32_t tp_first, const uint32_t *entries,
                           uint32_t from, uint32_t to, uint32_t wanted, uint32_t *allowance) {
  for (uint32_t lpn = from; lpn < to && *allowance > 0; lpn++) {
    if (tpftl_insert_writes_back(node)) {
      *allowance = 0;
      return;
    }
    if (lpn != wanted && tpftl_insert(node, lpn, entries[lpn - tp_first])) {
      tpftl.counters.prefetched++;
      (*allowance)--;
    }
  }
}

static void tpftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                            const map_request_t *const *requests, uint32_t wanted_count) {
  uint32_t node = tpftl_node_for(tp);
  if (node == SCHEME_NIL) {
    return;
  }
  uint32_t tp_first = tp * tpftl.env.entries_per_tp;
  uint32_t tp_end = tp_first + tpftl.env.entries_per_tp;
  if (tp_end > tpftl.env.lpn_count) {
    tp_end = tpftl.env.lpn_count;
  }
  /* Prefetched mappings go in first, so the wanted ones, inserted last, are the most recent
   * and cannot be evicted by this call. */
  uint32_t allowance = tpftl.capacity / 2u > wanted_count ? tpftl.capacity / 2u - wanted_count : 0;
  for (uint32_t i = 0; i < wanted_count && allowance > 0; i++) {
    const map_request_t *request = requests ? requests[i] : 0;
    if (!request) {
      continue;
    }
    uint32_t request_end = request->first_lpn + request->pages;
    uint32_t from = request->first_lpn > tp_first ? request->first_lpn : tp_first;
    uint32_t to = request_end < tp_end ? request_end : tp_end;
    tpftl_prefetch(node, tp_first, entries, from, to, wanted[i], &allowance);
    if (tpftl.stream_pages > 0 && request->first_lpn == tpftl.last_request_first) {
      uint32_t length = min_u32(tpftl.stream_pages, tpftl.env.boot->ftl_tpftl_prefetch_max);
      uint32_t start = request_end > tp_first ? request_end : tp_first;
      uint32_t stop = start < tp_end && tp_end - start > length ? start + length : tp_end;
      tpftl_prefetch(node, tp_first, entries, start, stop, wanted[i], &allowance);
    }
  }
  for (uint32_t i = 0; i < wanted_count; i++) {
    if (!tpftl_insert_writes_back(node) ||
        scheme_hash_find(&tpftl.entry_hash, wanted[i]) != SCHEME_NIL ||
        scheme_eviction_room(&tpftl.env)) {
      tpftl_insert(node, wanted[i], entries[wanted[i] - tp_first]);
    }
  }
  if (tpftl.nodes[node].entry_count == 0) {
    tpftl_release_node(node); /* nothing was wanted: an empty node must not stay cached */
  }
}

static void tpftl_overlay(uint32_t tp, uint32_t *entries) {
  uint32_t node = scheme_hash_find(&tpftl.node_hash, tp);
  if (node == SCHEME_NIL) {
    return;
  }
  uint32_t first = tp * tpftl.env.entries_per_tp;
  for (uint32_t entry = tpftl.nodes[node].dirty.head; entry != SCHEME_NIL;
       entry = tpftl.entry_links[entry].next) {
    entries[tpftl.lpns[entry] - first] = tpftl.vpns[entry];
  }
}

static bool tpftl_flush(void) {
  for (uint32_t node = tpftl.node_lru.head; node != SCHEME_NIL; node = tpftl.node_links[node].next) {
    if (tpftl.nodes[node].dirty_count > 0) {
      if (!scheme_write_back_room(&tpftl.env)) {
        return false;
      }
      tpftl_write_back_node(node);
    }
  }
  return true;
}

static const map_counters_t *tpftl_counters(void) { return &tpftl.counters; }

const map_scheme_t map_scheme_tpftl = {
    .name = "tpftl",
    .recovery = MAP_RECOVERY_TPS,
    .init = tpftl_init,
    .lookup = tpftl_lookup,
    .update = tpftl_update,
    .tp_loaded = tpftl_tp_loaded,
    .mispredicted = 0,
    .overlay = tpftl_overlay,
    .flush = tpftl_flush,
    .counters = tpftl_counters,
};
