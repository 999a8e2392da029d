/* S-FTL (Jiang et al., MSST 2011): whole translation pages cached in compressed form.
 *
 * A cached TP is an extent in a fixed pool: a bitmap with one bit per entry, set where a run
 * starts (a run: consecutive entries whose VPNs are consecutive, or all unmapped), a rank
 * directory (set bits before every 8 bitmap words), and one word per run. The word stores the
 * run's first VPN minus its first entry plus entries_per_tp, so entry i of run r is
 * runs[r] + i - entries_per_tp with no search for where the run starts; unmapped runs store
 * VPN_UNMAPPED. Lookup: rank(i) = directory + at most 8 popcounts. A TP whose runs would take
 * more room than its raw entries (or whose VPNs come within entries_per_tp of VPN_UNMAPPED,
 * where the encoding would collide) is kept raw.
 *
 * A raw TP is updated in place. Other updates go to a small dirty buffer per cached TP
 * (SFTL_DIRTY_BUFFER_ENTRIES offset/VPN pairs, searched first on lookup). When it is full, the
 * TP is decompressed, the buffer merged and the result recompressed into a new extent (the TP is
 * then dirty). An evicted TP that is dirty or has buffered updates is decompressed, merged and
 * handed back whole with write_back_page: the scheme holds the whole TP, so the TP store need
 * not read the old one. Merges and evictions decompress into two scratch pages of their own,
 * since a merge may evict other TPs to make room. The dirty buffer's size is a compile-time
 * property of the scheme (boot_config has no key for it).
 *
 * Cached TPs are found through a chained hash and replaced in LRU order, either for a slot or for
 * pool room. Extents are allocated at the pool's top; when the top is reached the live extents
 * slide down (each extent's header names its slot), so sizes vary freely within the pool.
 *
 * Writebacks per call: lookup none; update (a merge) and tp_loaded as many dirty TPs as leave
 * to make pool room for the new extent (plus one for a slot, in tp_loaded), each only while env
 * eviction_room allows; past it only clean TPs leave (in LRU order, skipping dirty ones). When
 * even that leaves too little room, tp_loaded does not cache the TP (its waiters miss, wait for
 * room and load it again) and an update that must merge answers MAP_NO_ROOM, its full dirty
 * buffer kept as it was: it is merged when the FTL asks again with the reserve intact, the TPs
 * written back meanwhile staying out. Flush asks write_back_room before each TP it writes back,
 * its merges' victims included.
 *
 * Budget: per slot its TP, links, hash link, extent, flags and dirty buffer, plus buckets; the
 * pool (sized for about 8 runs per cached TP, and at least one raw TP); two TPs of scratch. */
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"

#define SFTL_DIRTY_BUFFER_ENTRIES 8u
#define SFTL_TYPICAL_RUNS 8u
#define SFTL_EXTENT_HEADER_WORDS 2u /* owner slot, size in words */
#define SFTL_WORDS_PER_RANK 8u
#define SFTL_FLAG_DIRTY 1u
#define SFTL_FLAG_RAW 2u

static struct {
  map_env_t env;
  uint32_t bitmap_words;
  uint32_t rank_words; /* 16 bits per SFTL_WORDS_PER_RANK bitmap words, two to a word */
  uint32_t slot_capacity;
  uint32_t free_slots; /* chained through hash_next */
  uint32_t *tps;
  uint32_t *hash_next;
  scheme_hash_t hash;
  scheme_link_t *links;
  scheme_list_t lru;
  uint32_t *extents; /* pool word offset of each slot's extent */
  uint8_t *flags;
  uint8_t *patch_counts;
  uint16_t *patch_offsets; /* SFTL_DIRTY_BUFFER_ENTRIES per slot */
  uint32_t *patch_vpns;
  uint32_t *pool;
  uint32_t pool_words;
  uint32_t pool_top;
  uint32_t pool_live;
  uint32_t *merged;  /* the TP a merge or flush is rebuilding, decompressed */
  uint32_t *evicted; /* the TP an eviction hands back, decompressed */
  map_counters_t counters;
} sftl;

static uint32_t sftl_extent_words(uint32_t slot) { return sftl.pool[sftl.extents[slot] + 1]; }

static uint32_t sftl_raw_words(void) { return SFTL_EXTENT_HEADER_WORDS + sftl.env.entries_per_tp; }

static bool sftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  scheme_budget_t budget = {arena, budget_bytes, 0};
  sftl.env = *env;
  sftl.counters = (map_counters_t){0};
  scheme_list_init(&sftl.lru);
  if (env->entries_per_tp == 0 || env->entries_per_tp > 65536u) {
    return false; /* dirty-buffer offsets are 16-bit */
  }
  sftl.bitmap_words = (env->entries_per_tp + 31u) / 32u;
  uint32_t rank_groups = (sftl.bitmap_words + SFTL_WORDS_PER_RANK - 1u) / SFTL_WORDS_PER_RANK;
  sftl.rank_words = (rank_groups + 1u) / 2u;

  const uint32_t D = SFTL_DIRTY_BUFFER_ENTRIES;
  const uint32_t per_slot = 4u + 4u + sizeof(scheme_link_t) + 4u + 1u + 1u + D * 6u + 4u;
  const uint32_t typical_extent =
      4u * (SFTL_EXTENT_HEADER_WORDS + sftl.bitmap_words + sftl.rank_words + SFTL_TYPICAL_RUNS);
  const uint32_t raw_bytes = 4u * sftl_raw_words();
  const uint32_t scratch_bytes = 4u * env->entries_per_tp;
  const uint32_t fixed = 2u * scratch_bytes + 12u * ARENA_ALIGN + 8u; /* + 2 buckets at least */
  if (budget_bytes <= fixed + raw_bytes + per_slot) {
    return false;
  }
  uint32_t available = budget_bytes - fixed;
  uint32_t slots = available / (per_slot + typical_extent);
  if (available - slots * per_slot < raw_bytes) {
    slots = (available - raw_bytes) / per_slot;
  }
  if (slots > env->tp_count) {
    slots = env->tp_count;
  }
  if (slots < 1u) {
    return false;
  }
  uint32_t buckets = scheme_pow2_floor(slots) < 2u ? 2u : scheme_pow2_floor(slots);
  sftl.slot_capacity = slots;
  sftl.pool_words = (available - slots * per_slot) / 4u;

  sftl.tps = scheme_alloc(&budget, "map.sftl.tp", slots * 4u);
  sftl.hash_next = scheme_alloc(&budget, "map.sftl.hash_next", slots * 4u);
  sftl.links = scheme_alloc(&budget, "map.sftl.lru", slots * (uint32_t)sizeof(scheme_link_t));
  sftl.extents = scheme_alloc(&budget, "map.sftl.extent", slots * 4u);
  sftl.flags = scheme_alloc(&budget, "map.sftl.flags", slots);
  sftl.patch_counts = scheme_alloc(&budget, "map.sftl.dirty_count", slots);
  sftl.patch_offsets = scheme_alloc(&budget, "map.sftl.dirty_offset", slots * D * 2u);
  sftl.patch_vpns = scheme_alloc(&budget, "map.sftl.dirty_vpn", slots * D * 4u);
  uint32_t *heads = scheme_alloc(&budget, "map.sftl.buckets", buckets * 4u);
  sftl.pool = scheme_alloc(&budget, "map.sftl.pool", sftl.pool_words * 4u);
  sftl.merged = scheme_alloc(&budget, "map.sftl.merged", scratch_bytes);
  sftl.evicted = scheme_alloc(&budget, "map.sftl.evicted", scratch_bytes);
  if (!sftl.tps || !sftl.hash_next || !sftl.links || !sftl.extents || !sftl.flags ||
      !sftl.patch_counts || !sftl.patch_offsets || !sftl.patch_vpns || !heads || !sftl.pool ||
      !sftl.merged || !sftl.evicted) {
    return false;
  }
  scheme_hash_init(&sftl.hash, heads, buckets, sftl.hash_next, sftl.tps);
  sftl.free_slots = SCHEME_NIL;
  for (uint32_t slot = slots; slot-- > 0;) {
    sftl.hash_next[slot] = sftl.free_slots;
    sftl.free_slots = slot;
  }
  sftl.pool_top = 0;
  sftl.pool_live = 0;
  return true;
}

/* ---- the compressed form ---- */

static uint32_t sftl_decode(uint32_t slot, uint32_t offset) {
  const uint32_t *extent = sftl.pool + sftl.extents[slot] + SFTL_EXTENT_HEADER_WORDS;
  if (sftl.flags[slot] & SFTL_FLAG_RAW) {
    return extent[offset];
  }
  const uint32_t *bitmap = extent;
  const uint32_t *rank = extent + sftl.bitmap_words;
  const uint32_t *runs = extent + sftl.bitmap_words + sftl.rank_words;
  uint32_t word = offset / 32u;
  uint32_t bit = offset % 32u;
  uint32_t group = word / SFTL_WORDS_PER_RANK;
  uint32_t set_bits = (rank[group / 2u] >> (16u * (group % 2u))) & 0xFFFFu;
  for (uint32_t w = group * SFTL_WORDS_PER_RANK; w < word; w++) {
    set_bits += scheme_popcount(bitmap[w]);
  }
  uint32_t mask = bit == 31u ? 0xFFFFFFFFu : (2u << bit) - 1u;
  set_bits += scheme_popcount(bitmap[word] & mask);
  uint32_t base = runs[set_bits - 1u];
  return base == VPN_UNMAPPED ? VPN_UNMAPPED : base + offset - sftl.env.entries_per_tp;
}

static void sftl_decompress(uint32_t slot, uint32_t *entries) {
  const uint32_t *extent = sftl.pool + sftl.extents[slot] + SFTL_EXTENT_HEADER_WORDS;
  uint32_t count = sftl.env.entries_per_tp;
  if (sftl.flags[slot] & SFTL_FLAG_RAW) {
    for (uint32_t i = 0; i < count; i++) {
      entries[i] = extent[i];
    }
    return;
  }
  const uint32_t *runs = extent + sftl.bitmap_words + sftl.rank_words;
  uint32_t run = SCHEME_NIL;
  for (uint32_t i = 0; i < count; i++) {
    if (extent[i / 32u] & (1u << (i % 32u))) {
      run++;
    }
    entries[i] = runs[run] == VPN_UNMAPPED ? VPN_UNMAPPED : runs[run] + i - count;
  }
}

/* Entry i continues the run of entry i - 1. */
static bool sftl_continues(const uint32_t *entries, uint32_t i) {
  if (entries[i] == VPN_UNMAPPED) {
    return entries[i - 1] == VPN_UNMAPPED;
  }
  return entries[i - 1] != VPN_UNMAPPED && entries[i] == entries[i - 1] + 1u;
}

/* Runs of a TP, or SCHEME_NIL when a VPN is too close to VPN_UNMAPPED to be encoded. */
static uint32_t sftl_count_runs(const uint32_t *entries) {
  uint32_t runs = 0;
  for (uint32_t i = 0; i < sftl.env.entries_per_tp; i++) {
    if (entries[i] != VPN_UNMAPPED && entries[i] >= VPN_UNMAPPED - sftl.env.entries_per_tp) {
      return SCHEME_NIL;
    }
    if (i == 0 || !sftl_continues(entries, i)) {
      runs++;
    }
  }
  return runs;
}

static void sftl_free_extent(uint32_t slot) {
  sftl.pool[sftl.extents[slot]] = SCHEME_NIL;
  sftl.pool_live -= sftl_extent_words(slot);
  sftl.counters.table_bytes = sftl.pool_live * 4u;
  sftl.extents[slot] = SCHEME_NIL;
}

/* Slides the live extents down over the holes. */
static void sftl_compact(void) {
  uint32_t to = 0;
  for (uint32_t from = 0; from < sftl.pool_top;) {
    uint32_t owner = sftl.pool[from];
    uint32_t words = sftl.pool[from + 1];
    if (owner != SCHEME_NIL) {
      for (uint32_t w = 0; w < words && to != from; w++) {
        sftl.pool[to + w] = sftl.pool[from + w];
      }
      sftl.extents[owner] = to;
      to += words;
    }
    from += words;
  }
  sftl.pool_top = to;
}

/* ---- slots ---- */

/* The cached TP is newer than flash: dirty, or with buffered updates. */
static bool sftl_dirty(uint32_t slot) {
  return (sftl.flags[slot] & SFTL_FLAG_DIRTY) || sftl.patch_counts[slot] > 0;
}

/* The TP leaves: decompressed, merged with its dirty buffer and written back when dirty. */
static void sftl_evict(uint32_t slot) {
  sftl.counters.evictions++;
  if (sftl_dirty(slot)) {
    sftl.counters.dirty_evictions++;
    sftl_decompress(slot, sftl.evicted);
    for (uint32_t p = 0; p < sftl.patch_counts[slot]; p++) {
      uint32_t index = slot * SFTL_DIRTY_BUFFER_ENTRIES + p;
      sftl.evicted[sftl.patch_offsets[index]] = sftl.patch_vpns[index];
    }
    sftl.env.write_back_page(sftl.tps[slot], sftl.evicted);
  }
  sftl_free_extent(slot);
  sftl.counters.translatable_lpns -= scheme_tp_lpns(&sftl.env, sftl.tps[slot]);
  scheme_list_remove(&sftl.lru, sftl.links, slot);
  scheme_hash_remove(&sftl.hash, slot);
  sftl.hash_next[slot] = sftl.free_slots;
  sftl.free_slots = slot;
}

/* The LRU TP other than `keep` that may leave now: a dirty one only while `room` says it may be
 * written back, else the LRU clean one; SCHEME_NIL when none may. */
static uint32_t sftl_victim(uint32_t keep, bool (*room)(const map_env_t *)) {
  uint32_t victim = sftl.lru.tail;
  if (victim == keep) {
    victim = sftl.links[victim].prev;
  }
  if (victim == SCHEME_NIL || !sftl_dirty(victim) || room(&sftl.env)) {
    return victim;
  }
  while (victim != SCHEME_NIL && (victim == keep || sftl_dirty(victim))) {
    victim = sftl.links[victim].prev;
  }
  return victim;
}

/* Evicts LRU TPs other than `keep` until the pool has `words` free, counting `reused` words the
 * caller frees before it stores, and a slot is free when `slot` asks for one. False when no TP
 * may leave and there is not room enough yet (what left stays out). */
static bool sftl_make_room(uint32_t words, uint32_t reused, bool slot, uint32_t keep,
                           bool (*room)(const map_env_t *)) {
  while (sftl.pool_words - sftl.pool_live + reused < words ||
         (slot && sftl.free_slots == SCHEME_NIL)) {
    uint32_t victim = sftl_victim(keep, room);
    if (victim == SCHEME_NIL) {
      return false;
    }
    sftl_evict(victim);
  }
  return true;
}

/* Words the extent of a TP with `runs` runs takes (raw when that is smaller). */
static uint32_t sftl_words_for(uint32_t runs) {
  if (runs == SCHEME_NIL) {
    return sftl_raw_words();
  }
  uint32_t compressed = SFTL_EXTENT_HEADER_WORDS + sftl.bitmap_words + sftl.rank_words + runs;
  return compressed < sftl_raw_words() ? compressed : sftl_raw_words();
}

/* Compresses `entries` (`runs` runs) into a new extent for `slot`; the pool must have room. */
static void sftl_store(uint32_t slot, const uint32_t *entries, uint32_t runs) {
  uint32_t words = sftl_words_for(runs);
  bool raw = words == sftl_raw_words();
  if (sftl.pool_top + words > sftl.pool_words) {
    sftl_compact();
  }
  uint32_t offset = sftl.pool_top;
  sftl.pool_top += words;
  sftl.pool_live += words;
  sftl.counters.table_bytes = sftl.pool_live * 4u; /* extents: headers, bitmaps, runs */
  sftl.extents[slot] = offset;
  uint32_t *extent = sftl.pool + offset;
  extent[0] = slot;
  extent[1] = words;
  extent += SFTL_EXTENT_HEADER_WORDS;
  uint32_t count = sftl.env.entries_per_tp;
  if (raw) {
    sftl.flags[slot] |= SFTL_FLAG_RAW;
    for (uint32_t i = 0; i < count; i++) {
      extent[i] = entries[i];
    }
    return;
  }
  sftl.flags[slot] &= (uint8_t)~SFTL_FLAG_RAW;
  uint32_t *bitmap = extent;
  uint32_t *rank = extent + sftl.bitmap_words;
  uint32_t *run_words = extent + sftl.bitmap_words + sftl.rank_words;
  for (uint32_t w = 0; w < sftl.bitmap_words + sftl.rank_words; w++) {
    extent[w] = 0;
  }
  uint32_t run = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (i % (32u * SFTL_WORDS_PER_RANK) == 0) {
      uint32_t group = i / (32u * SFTL_WORDS_PER_RANK);
      rank[group / 2u] |= run << (16u * (group % 2u));
    }
    if (i == 0 || !sftl_continues(entries, i)) {
      bitmap[i / 32u] |= 1u << (i % 32u);
      run_words[run++] = entries[i] == VPN_UNMAPPED ? VPN_UNMAPPED : entries[i] - i + count;
    }
  }
}

/* Merges the dirty buffer (and offset -> vpn when offset is not SCHEME_NIL) into a new extent;
 * the merged TP stays in `merged`. False when the pool has no room for it and no TP may leave
 * (`room`): the slot stays as it was. */
static bool sftl_merge(uint32_t slot, uint32_t offset, uint32_t vpn,
                       bool (*room)(const map_env_t *)) {
  sftl_decompress(slot, sftl.merged);
  for (uint32_t p = 0; p < sftl.patch_counts[slot]; p++) {
    uint32_t index = slot * SFTL_DIRTY_BUFFER_ENTRIES + p;
    sftl.merged[sftl.patch_offsets[index]] = sftl.patch_vpns[index];
  }
  if (offset != SCHEME_NIL) {
    sftl.merged[offset] = vpn;
  }
  uint32_t runs = sftl_count_runs(sftl.merged);
  if (!sftl_make_room(sftl_words_for(runs), sftl_extent_words(slot), false, slot, room)) {
    return false;
  }
  sftl.patch_counts[slot] = 0;
  sftl_free_extent(slot);
  sftl_store(slot, sftl.merged, runs);
  sftl.flags[slot] |= SFTL_FLAG_DIRTY;
  return true;
}

/* The cached slot of lpn's TP, moved to the LRU head, or SCHEME_NIL. */
static uint32_t sftl_find(uint32_t lpn) {
  uint32_t slot = scheme_hash_find(&sftl.hash, lpn / sftl.env.entries_per_tp);
  if (slot != SCHEME_NIL) {
    scheme_list_move_front(&sftl.lru, sftl.links, slot);
  }
  return slot;
}

/* Index of offset in the slot's dirty buffer, or SCHEME_NIL. */
static uint32_t sftl_find_patch(uint32_t slot, uint32_t offset) {
  uint32_t first = slot * SFTL_DIRTY_BUFFER_ENTRIES;
  for (uint32_t index = first; index < first + sftl.patch_counts[slot]; index++) {
    if (sftl.patch_offsets[index] == offset) {
      return index;
    }
  }
  return SCHEME_NIL;
}

/* ---- the interface ---- */

static map_answer_t sftl_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  (void)request;
  sftl.counters.lookups++;
  uint32_t slot = sftl_find(lpn);
  if (slot == SCHEME_NIL) {
    sftl.counters.misses++;
    *value = lpn / sftl.env.entries_per_tp;
    return MAP_MISS;
  }
  sftl.counters.hits++;
  uint32_t offset = lpn % sftl.env.entries_per_tp;
  uint32_t patch = sftl_find_patch(slot, offset);
  *value = patch != SCHEME_NIL ? sftl.patch_vpns[patch] : sftl_decode(slot, offset);
  return MAP_HIT;
}

static map_answer_t sftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  sftl.counters.updates++;
  uint32_t slot = sftl_find(lpn);
  if (slot == SCHEME_NIL) {
    sftl.counters.update_misses++;
    *value = lpn / sftl.env.entries_per_tp;
    return MAP_MISS;
  }
  uint32_t offset = lpn % sftl.env.entries_per_tp;
  uint32_t patch = sftl_find_patch(slot, offset);
  if (patch != SCHEME_NIL) {
    *value = sftl.patch_vpns[patch];
    sftl.patch_vpns[patch] = vpn;
    return MAP_HIT;
  }
  if (sftl.flags[slot] & SFTL_FLAG_RAW) {
    /* a raw TP is a plain array: update in place, no buffer and no recompression */
    uint32_t *entry = sftl.pool + sftl.extents[slot] + SFTL_EXTENT_HEADER_WORDS + offset;
    *value = *entry;
    *entry = vpn;
    sftl.flags[slot] |= SFTL_FLAG_DIRTY;
    return MAP_HIT;
  }
  uint32_t old = sftl_decode(slot, offset);
  if (sftl.patch_counts[slot] < SFTL_DIRTY_BUFFER_ENTRIES) {
    uint32_t index = slot * SFTL_DIRTY_BUFFER_ENTRIES + sftl.patch_counts[slot]++;
    sftl.patch_offsets[index] = (uint16_t)offset;
    sftl.patch_vpns[index] = vpn;
  } else if (!sftl_merge(slot, offset, vpn, scheme_eviction_room)) {
    return MAP_NO_ROOM;
  }
  *value = old;
  return MAP_HIT;
}

static void sftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                           const map_request_t *const *requests, uint32_t wanted_count) {
  (void)wanted;
  (void)requests;
  (void)wanted_count;
  if (scheme_hash_find(&sftl.hash, tp) != SCHEME_NIL) {
    return; /* cached already: the cached TP is newer */
  }
  uint32_t runs = sftl_count_runs(entries);
  if (!sftl_make_room(sftl_words_for(runs), 0, true, SCHEME_NIL, scheme_eviction_room)) {
    return;
  }
  uint32_t slot = sftl.free_slots;
  sftl.free_slots = sftl.hash_next[slot];
  sftl.tps[slot] = tp;
  sftl.counters.translatable_lpns += scheme_tp_lpns(&sftl.env, tp);
  sftl.flags[slot] = 0;
  sftl.patch_counts[slot] = 0;
  sftl.extents[slot] = SCHEME_NIL;
  scheme_hash_insert(&sftl.hash, slot);
  scheme_list_push_front(&sftl.lru, sftl.links, slot);
  sftl_store(slot, entries, runs);
}

/* Every dirty TP is merged, written back whole and kept, clean. A merge may evict other dirty
 * TPs to make room: each asks write_back_room as the TP itself does. */
static bool sftl_flush(void) {
  for (uint32_t slot = sftl.lru.head; slot != SCHEME_NIL; slot = sftl.links[slot].next) {
    if (sftl_dirty(slot)) {
      if (sftl.patch_counts[slot] > 0) {
        if (!sftl_merge(slot, SCHEME_NIL, 0, scheme_write_back_room)) {
          return false;
        }
      } else {
        sftl_decompress(slot, sftl.merged);
      }
      if (!scheme_write_back_room(&sftl.env)) {
        return false;
      }
      sftl.env.write_back_page(sftl.tps[slot], sftl.merged);
      sftl.flags[slot] &= (uint8_t)~SFTL_FLAG_DIRTY;
    }
  }
  return true;
}

static const map_counters_t *sftl_counters(void) { return &sftl.counters; }

const map_scheme_t map_scheme_sftl = {
    .name = "sftl",
    .recovery = MAP_RECOVERY_TPS,
    .init = sftl_init,
    .lookup = sftl_lookup,
    .update = sftl_update,
    .tp_loaded = sftl_tp_loaded,
    .mispredicted = 0,
    .flush = sftl_flush,
    .counters = sftl_counters,
};
