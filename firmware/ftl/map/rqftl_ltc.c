#include "ftl/map/rqftl_ltc.h"

#include <string.h>

#include "lib/bitmap.h"

/* One table per field over all F + 1 slots: the arena's region table stays short. */
static uint32_t slot_count(uint32_t fractions) { return fractions + 1u; }

static size_t aligned(size_t bytes) { return (bytes + ARENA_ALIGN - 1u) & ~(size_t)(ARENA_ALIGN - 1u); }

size_t rqftl_ltc_workspace_bytes(const rqrmi_train_config_t *train) {
  return aligned(rqrmi_train_workspace_bytes(train));
}

size_t rqftl_ltc_bytes(uint32_t fractions, const rqrmi_train_config_t *train,
                       uint32_t written_capacity) {
  size_t slots = slot_count(fractions);
  return aligned(slots * sizeof(rqftl_slot_t)) + 2u * aligned((size_t)fractions * 4u) +
         aligned(slots * rqrmi_train_model_capacity(train)) + rqftl_ltc_workspace_bytes(train) +
         aligned((size_t)written_capacity * 4u);
}

/* A slot's extent: the ranges (a cell each), the VPNs (two to a cell), then the access and valid
 * bitmaps (a word each per 32 ranges: a cell). */
_Static_assert(sizeof(rqrmi_range_t) == RQFTL_POOL_CELL_BYTES, "a range is a pool cell");

static uint32_t vpn_cells(uint32_t capacity) { return (capacity + 1u) / 2u; }

uint32_t rqftl_ltc_slot_cells(uint32_t capacity) {
  return 1u + capacity + vpn_cells(capacity) + bitmap_words(capacity);
}

/* Points slot s's arrays into its extent. */
static void point_slot(rqftl_ltc_t *ltc, rqftl_slot_t *slot) {
  uint64_t *cells = rqftl_pool_data(ltc->pool, slot->extent);
  slot->ranges = (rqrmi_range_t *)cells;
  slot->vpns = (uint32_t *)(cells + slot->capacity);
  slot->accessed = (uint32_t *)(cells + slot->capacity + vpn_cells(slot->capacity));
  slot->valid = slot->accessed + bitmap_words(slot->capacity);
}

bool rqftl_ltc_init(rqftl_ltc_t *ltc, uint32_t fractions, uint32_t entries_per_tp,
                    const rqrmi_train_config_t *train, uint32_t written_capacity,
                    rqftl_pool_t *pool, uint32_t owner_base, arena_t *arena) {
  memset(ltc, 0, sizeof *ltc);
  ltc->transferring = RQFTL_LTC_IDLE;
  if (fractions == 0 || entries_per_tp == 0 || written_capacity == 0 ||
      rqrmi_train_check_config(train) != RQRMI_OK) {
    return false;
  }
  uint32_t slots = slot_count(fractions);
  ltc->fractions = fractions;
  ltc->entries_per_tp = entries_per_tp;
  ltc->pool = pool;
  ltc->owner_base = owner_base;
  ltc->train = *train;
  ltc->model_capacity = rqrmi_train_model_capacity(train);
  ltc->workspace_bytes = rqrmi_train_workspace_bytes(train);
  ltc->slots = arena_alloc(arena, "rqftl_ltc_slots", slots * (uint32_t)sizeof(rqftl_slot_t));
  ltc->slot_of = arena_alloc(arena, "rqftl_ltc_slot_of", fractions * 4u);
  ltc->clock_hand = arena_alloc(arena, "rqftl_ltc_clock", fractions * 4u);
  uint8_t *models =
      arena_alloc(arena, "rqftl_ltc_models", slots * (uint32_t)ltc->model_capacity);
  ltc->workspace = arena_alloc(arena, "rqftl_ltc_training", (uint32_t)ltc->workspace_bytes);
  ltc->written = arena_alloc(arena, "rqftl_ltc_written", written_capacity * 4u);
  ltc->written_capacity = written_capacity;
  if (!ltc->slots || !ltc->slot_of || !ltc->clock_hand || !models || !ltc->workspace ||
      !ltc->written) {
    return false;
  }
  for (uint32_t s = 0; s < slots; ++s) {
    ltc->slots[s] = (rqftl_slot_t){0};
    ltc->slots[s].model = (rqrmi_model_t *)(models + (size_t)s * ltc->model_capacity);
    ltc->slots[s].extent = RQFTL_POOL_NONE;
  }
  for (uint32_t f = 0; f < fractions; ++f) {
    ltc->slot_of[f] = f;
    ltc->clock_hand[f] = 0;
  }
  ltc->spare = fractions;
  return true;
}

void rqftl_ltc_moved(rqftl_ltc_t *ltc, uint32_t s, uint32_t index) {
  rqftl_slot_t *slot = &ltc->slots[s];
  slot->extent = index;
  point_slot(ltc, slot);
  slot->generation = ++ltc->generations; /* the ranges' address changed */
}

uint32_t rqftl_ltc_cells(const rqftl_ltc_t *ltc) {
  uint32_t cells = 0;
  for (uint32_t s = 0; s < slot_count(ltc->fractions); ++s) {
    if (ltc->slots[s].extent != RQFTL_POOL_NONE) {
      cells += rqftl_ltc_slot_cells(ltc->slots[s].capacity);
    }
  }
  return cells;
}

/* Gives slot s no extent. */
static void drop_extent(rqftl_ltc_t *ltc, rqftl_slot_t *slot) {
  if (slot->extent != RQFTL_POOL_NONE) {
    rqftl_pool_free(ltc->pool, slot->extent);
  }
  slot->extent = RQFTL_POOL_NONE;
  slot->capacity = 0;
  slot->count = 0;
  slot->valid_ranges = 0;
  slot->valid_lpns = 0;
}

void rqftl_ltc_release_spare(rqftl_ltc_t *ltc) { drop_extent(ltc, &ltc->slots[ltc->spare]); }

bool rqftl_ltc_prepare(rqftl_ltc_t *ltc, uint32_t capacity) {
  rqftl_slot_t *spare = &ltc->slots[ltc->spare];
  drop_extent(ltc, spare);
  if (capacity == 0 || capacity > RQRMI_MAX_RANGES) {
    return false;
  }
  uint32_t index =
      rqftl_pool_alloc(ltc->pool, ltc->owner_base + ltc->spare, rqftl_ltc_slot_cells(capacity) - 1u);
  if (index == RQFTL_POOL_NONE) {
    return false;
  }
  spare->extent = index;
  spare->capacity = capacity;
  point_slot(ltc, spare);
  return true;
}

static uint32_t range_lpns(const rqftl_slot_t *slot, uint32_t index) {
  return slot->ranges[index].hi - slot->ranges[index].lo + 1u;
}

/* Clears a valid bit; `live`: the slot is a fraction's, in the totals. */
static void clear_valid(rqftl_ltc_t *ltc, rqftl_slot_t *slot, uint32_t index, bool live) {
  bitmap_clear(slot->valid, index);
  --slot->valid_ranges;
  slot->valid_lpns -= range_lpns(slot, index);
  if (live) {
    --ltc->valid_ranges;
    ltc->valid_lpns -= range_lpns(slot, index);
  }
}

uint32_t rqftl_ltc_fraction_of_tp(const rqftl_ltc_t *ltc, uint32_t tp) {
  /* Fibonacci hashing: neighbouring TPs land in different fractions. */
  return (uint32_t)(((uint64_t)(tp * 0x9E3779B1u) * ltc->fractions) >> 32);
}

static uint32_t fraction_of_lpn(const rqftl_ltc_t *ltc, uint32_t lpn) {
  return rqftl_ltc_fraction_of_tp(ltc, lpn / ltc->entries_per_tp);
}

uint32_t rqftl_ltc_find(const rqftl_ltc_t *ltc, uint32_t f, uint32_t lpn) {
  const rqftl_slot_t *slot = rqftl_ltc_fraction(ltc, f);
  if (slot->count == 0) {
    return RQRMI_NONE;
  }
  if (ltc->finder) {
    return ltc->finder(ltc->finder_context, slot->model, slot->ranges, slot->generation, lpn);
  }
  return rqrmi_lookup(slot->model, slot->ranges, lpn);
}

bool rqftl_ltc_lookup(rqftl_ltc_t *ltc, uint32_t lpn, uint32_t *vpn) {
  ++ltc->stats.lookups;
  uint32_t f = fraction_of_lpn(ltc, lpn);
  uint32_t index = rqftl_ltc_find(ltc, f, lpn);
  rqftl_slot_t *slot = &ltc->slots[ltc->slot_of[f]];
  if (index == RQRMI_NONE || !bitmap_test(slot->valid, index)) {
    return false;
  }
  bitmap_set(slot->accessed, index);
  *vpn = slot->vpns[index] + (lpn - slot->ranges[index].lo);
  ++ltc->stats.hits;
  return true;
}

void rqftl_ltc_invalidate(rqftl_ltc_t *ltc, uint32_t lpn) {
  uint32_t f = fraction_of_lpn(ltc, lpn);
  uint32_t index = rqftl_ltc_find(ltc, f, lpn);
  rqftl_slot_t *slot = &ltc->slots[ltc->slot_of[f]];
  if (index != RQRMI_NONE && bitmap_test(slot->valid, index)) {
    clear_valid(ltc, slot, index, true);
    ++ltc->stats.invalidations;
  }
  if (ltc->transferring == f) {
    if (ltc->written_count < ltc->written_capacity) {
      ltc->written[ltc->written_count++] = lpn;
    } else {
      ltc->overrun = true;
    }
  }
}

/* Walks the sorted tps alongside ascending LPNs: moves *t to the first TP not below lpn's and
 * says whether lpn is in it (both only ascend, so a whole pass costs one step per TP). */
static bool in_tps(const rqftl_ltc_t *ltc, const uint32_t *tps, uint32_t tp_count, uint32_t *t,
                   uint32_t lpn) {
  uint64_t entries = ltc->entries_per_tp;
  while (*t < tp_count && ((uint64_t)tps[*t] + 1u) * entries <= lpn) {
    ++*t;
  }
  return *t < tp_count && (uint64_t)tps[*t] * entries <= lpn;
}

/* The incoming ranges follow the transfer's rules: sorted, disjoint, short, each inside one TP
 * of the (sorted) tps, all of fraction f. */
static rqrmi_status_t check_incoming(const rqftl_ltc_t *ltc, uint32_t f,
                                     const rqrmi_range_t *ranges, uint32_t count,
                                     const uint32_t *tps, uint32_t tp_count) {
  for (uint32_t t = 0; t < tp_count; ++t) {
    if ((t != 0 && tps[t] <= tps[t - 1u]) || rqftl_ltc_fraction_of_tp(ltc, tps[t]) != f) {
      return RQRMI_ERR_RANGES_UNSORTED;
    }
  }
  uint32_t t = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const rqrmi_range_t *range = &ranges[i];
    if (range->lo > range->hi || range->hi - range->lo >= RQFTL_RANGE_MAX_PAGES) {
      return RQRMI_ERR_RANGE_INVERTED;
    }
    if (i != 0 && range->lo <= ranges[i - 1u].hi) {
      return ranges[i].lo < ranges[i - 1u].lo ? RQRMI_ERR_RANGES_UNSORTED
                                              : RQRMI_ERR_RANGES_OVERLAP;
    }
    if (!in_tps(ltc, tps, tp_count, &t, range->lo) ||
        ((uint64_t)tps[t] + 1u) * ltc->entries_per_tp <= range->hi) {
      return RQRMI_ERR_RANGES_OVERLAP; /* outside the TPs, or across a TP's end */
    }
  }
  return RQRMI_OK;
}

/* The staged incoming ranges sit at the top of the spare slot, so the merge can write its output
 * from the bottom of the same arrays: with kept + count <= capacity, the output never passes the
 * next incoming range it has not read. */
rqrmi_range_t *rqftl_ltc_staged_ranges(rqftl_ltc_t *ltc, uint32_t count) {
  const rqftl_slot_t *spare = &ltc->slots[ltc->spare];
  return spare->ranges + (spare->capacity - count);
}

uint32_t *rqftl_ltc_staged_vpns(rqftl_ltc_t *ltc, uint32_t count) {
  const rqftl_slot_t *spare = &ltc->slots[ltc->spare];
  return spare->vpns + (spare->capacity - count);
}

rqrmi_status_t rqftl_ltc_transfer_begin(rqftl_ltc_t *ltc, uint32_t f, uint32_t count,
                                        const uint32_t *tps, uint32_t tp_count) {
  rqftl_slot_t *built = &ltc->slots[ltc->spare];
  if (built->extent == RQFTL_POOL_NONE || count > built->capacity) {
    return RQRMI_ERR_RANGE_COUNT;
  }
  const rqrmi_range_t *ranges = rqftl_ltc_staged_ranges(ltc, count);
  const uint32_t *vpns = rqftl_ltc_staged_vpns(ltc, count);
  rqrmi_status_t status = check_incoming(ltc, f, ranges, count, tps, tp_count);
  if (status != RQRMI_OK) {
    return status;
  }
  rqftl_slot_t *old = &ltc->slots[ltc->slot_of[f]];
  /* Drop the invalid ranges and those of the TPs coming anew; mark the rest kept (valid bit). */
  uint32_t kept = 0;
  uint32_t t = 0;
  for (uint32_t i = 0; i < old->count; ++i) {
    if (in_tps(ltc, tps, tp_count, &t, old->ranges[i].lo) && bitmap_test(old->valid, i)) {
      clear_valid(ltc, old, i, true);
    }
    if (bitmap_test(old->valid, i)) {
      ++kept;
    } else {
      ++ltc->stats.dropped;
    }
  }
  /* One-handed CLOCK over the kept ranges until the incoming ones fit. */
  uint32_t hand = ltc->clock_hand[f] < old->count ? ltc->clock_hand[f] : 0u;
  while (kept + count > built->capacity) {
    if (bitmap_test(old->valid, hand)) {
      if (bitmap_test(old->accessed, hand)) {
        bitmap_clear(old->accessed, hand);
      } else {
        clear_valid(ltc, old, hand, true);
        --kept;
        ++ltc->stats.evicted;
      }
    }
    hand = hand + 1u == old->count ? 0u : hand + 1u;
  }
  /* Merge the kept and the incoming ranges, both sorted, into the spare slot. */
  uint32_t words = bitmap_words(built->capacity);
  memset(built->accessed, 0, words * 4u);
  memset(built->valid, 0, words * 4u);
  built->valid_lpns = 0;
  uint32_t out = 0;
  uint32_t next_hand = 0;
  bool hand_placed = false;
  uint32_t i = 0;
  uint32_t j = 0;
  while (i < old->count || j < count) {
    if (i < old->count && !bitmap_test(old->valid, i)) {
      ++i;
      continue;
    }
    bool take_old = j == count || (i < old->count && old->ranges[i].lo < ranges[j].lo);
    if (take_old) {
      if (i >= hand && !hand_placed) {
        next_hand = out; /* CLOCK goes on from where it stopped */
        hand_placed = true;
      }
      built->ranges[out] = old->ranges[i];
      built->vpns[out] = old->vpns[i];
      if (bitmap_test(old->accessed, i)) {
        bitmap_set(built->accessed, out);
      }
      ++i;
    } else {
      rqrmi_range_t range = ranges[j];
      uint32_t vpn = vpns[j];
      built->ranges[out] = range;
      built->vpns[out] = vpn;
      bitmap_set(built->accessed, out); /* new ranges are not evicted before they are used */
      ++j;
    }
    bitmap_set(built->valid, out);
    built->valid_lpns += range_lpns(built, out);
    ++out;
  }
  built->count = out;
  built->valid_ranges = out;
  ltc->stats.ranges_in += count;
  ++ltc->stats.transfers;
  ltc->transferring = f;
  ltc->next_hand = next_hand;
  ltc->written_count = 0;
  ltc->overrun = false;
  ltc->training_status = RQRMI_OK;
  ltc->pool->pinned = built->extent; /* the training reads it */
  return RQRMI_OK;
}

void rqftl_ltc_transfer_train(rqftl_ltc_t *ltc) {
  rqftl_slot_t *built = &ltc->slots[ltc->spare];
  ltc->training_status = RQRMI_OK;
  if (built->count != 0) {
    ltc->training_status =
        rqrmi_train(&ltc->train, built->ranges, built->count, built->model, ltc->model_capacity,
                    ltc->workspace, ltc->workspace_bytes, &ltc->last_training);
  }
}

bool rqftl_ltc_transfer_end(rqftl_ltc_t *ltc) {
  uint32_t f = ltc->transferring;
  ltc->transferring = RQFTL_LTC_IDLE;
  rqftl_slot_t *built = &ltc->slots[ltc->spare];
  ltc->pool->pinned = RQFTL_POOL_NONE;
  if (ltc->overrun) {
    ++ltc->stats.abandoned;
    drop_extent(ltc, built);
    return false;
  }
  if (ltc->training_status != RQRMI_OK) {
    built->count = 0;
    built->valid_ranges = 0;
    built->valid_lpns = 0;
    ++ltc->stats.train_failures;
  }
  built->generation = ++ltc->generations;
  /* The swap: lookups see the new array and model from here on. */
  uint32_t previous = ltc->slot_of[f];
  ltc->valid_ranges += built->valid_ranges - ltc->slots[previous].valid_ranges;
  ltc->valid_lpns += built->valid_lpns - ltc->slots[previous].valid_lpns;
  ltc->slot_of[f] = ltc->spare;
  ltc->spare = previous;
  ltc->clock_hand[f] = ltc->next_hand < built->count ? ltc->next_hand : 0u;
  drop_extent(ltc, &ltc->slots[previous]);
  for (uint32_t w = 0; w < ltc->written_count; ++w) {
    uint32_t index = rqftl_ltc_find(ltc, f, ltc->written[w]);
    if (index != RQRMI_NONE && bitmap_test(built->valid, index)) {
      clear_valid(ltc, built, index, true);
      ++ltc->stats.raced;
    }
  }
  return true;
}

rqrmi_status_t rqftl_ltc_transfer(rqftl_ltc_t *ltc, uint32_t f, uint32_t capacity,
                                  const rqrmi_range_t *ranges, const uint32_t *vpns,
                                  uint32_t count, const uint32_t *tps, uint32_t tp_count) {
  if (!rqftl_ltc_prepare(ltc, capacity)) {
    return RQRMI_ERR_WORKSPACE;
  }
  if (count > capacity) {
    return RQRMI_ERR_RANGE_COUNT;
  }
  if (count > 0) { /* an empty transfer may pass no arrays; memcpy from NULL is undefined */
    memcpy(rqftl_ltc_staged_ranges(ltc, count), ranges, count * sizeof *ranges);
    memcpy(rqftl_ltc_staged_vpns(ltc, count), vpns, count * sizeof *vpns);
  }
  rqrmi_status_t status = rqftl_ltc_transfer_begin(ltc, f, count, tps, tp_count);
  if (status != RQRMI_OK) {
    return status;
  }
  rqftl_ltc_transfer_train(ltc);
  status = ltc->training_status;
  rqftl_ltc_transfer_end(ltc);
  return status;
}

uint32_t rqftl_ltc_valid_ranges(const rqftl_ltc_t *ltc) { return ltc->valid_ranges; }

uint32_t rqftl_ltc_valid_lpns(const rqftl_ltc_t *ltc) { return ltc->valid_lpns; }
