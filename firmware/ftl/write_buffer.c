#include "ftl/write_buffer.h"

#include <string.h>

bool wb_init(write_buffer_t *wb, uint32_t slot_count, uint32_t page_bytes, bool keeps_clean,
             arena_t *meta_arena, arena_t *data_arena) {
  wb->page_bytes = page_bytes;
  wb->slot_count = slot_count;
  wb->data = (uint8_t *)arena_alloc(data_arena, "write_buffer_data", slot_count * page_bytes);
  wb->slots =
      (wb_slot_t *)arena_alloc(meta_arena, "write_buffer_slots", slot_count * sizeof(wb_slot_t));
  bool index_fits = hash_init(&wb->newest, meta_arena, "write_buffer_index", slot_count);
  if (wb->data == 0 || wb->slots == 0 || !index_fits) {
    return false;
  }
  list_init(&wb->free_slots);
  list_init(&wb->dirty_lru);
  list_init(&wb->clean_lru);
  for (uint32_t slot = 0; slot < slot_count; ++slot) {
    wb->slots[slot].state = WB_SLOT_FREE;
    wb->slots[slot].older = WB_NONE;
    wb->slots[slot].newer = WB_NONE;
    list_push_back(&wb->free_slots, &wb->slots[slot].link);
  }
  wb->free_count = slot_count;
  wb->dirty_count = 0;
  wb->clean_count = 0;
  wb->clock = 0;
  wb->fua_ready = 0;
  wb->keeps_clean = keeps_clean;
  memset(&wb->counters, 0, sizeof wb->counters);
  return true;
}

/* Adds `change` (1 or -1) to fua_ready if `slot` counts there: each change of a slot's state,
 * filling or flags keeps the count. The flag comes first: other writes pay one test. */
static inline void count_fua(write_buffer_t *wb, const wb_slot_t *slot, uint32_t change) {
  if ((slot->flags & WB_ENTRY_FUA) != 0 && slot->state == WB_SLOT_DIRTY && slot->filling == 0) {
    wb->fua_ready += change;
  }
}

static uint32_t slot_index(const write_buffer_t *wb, const list_node_t *node) {
  return (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
}

uint32_t wb_find(const write_buffer_t *wb, uint32_t lpn) {
  uint32_t slot;
  return hash_find(&wb->newest, lpn, &slot) ? slot : WB_NONE;
}

void wb_read_hit(write_buffer_t *wb, uint32_t slot) {
  ++wb->counters.read_hits;
  if (!wb->keeps_clean) {
    return; /* a pure write buffer orders its slots by write alone */
  }
  wb_slot_t *hit = &wb->slots[slot];
  hit->last_access = ++wb->clock;
  if (hit->state == WB_SLOT_DIRTY) {
    list_move_front(&wb->dirty_lru, &hit->link);
  } else if (hit->state == WB_SLOT_CLEAN) {
    list_move_front(&wb->clean_lru, &hit->link);
  }
}

/* The least recent clean slot, evicted (there is one). Out of line: a pure write buffer never
 * gets here, and take_slot's free-list pop stays small enough to inline into every write. */
static __attribute__((noinline)) uint32_t evict_clean(write_buffer_t *wb) {
  list_node_t *node = list_back(&wb->clean_lru);
  list_remove(node);
  uint32_t slot = slot_index(wb, node);
  hash_remove(&wb->newest, wb->slots[slot].lpn);
  --wb->clean_count;
  ++wb->counters.evictions;
  return slot;
}

/* A slot for a new entry: a free one, else the least recent clean one, evicted. WB_NONE when
 * neither is left. The slot is in no list. */
static inline uint32_t take_slot(write_buffer_t *wb) {
  list_node_t *node = list_pop_front(&wb->free_slots);
  if (node == 0) {
    return wb->clean_count != 0 ? evict_clean(wb) : WB_NONE;
  }
  --wb->free_count;
  return slot_index(wb, node);
}

/* A taken slot becomes the newest entry of `lpn`, in `lru`: most recent, or with `oldest` least
 * recent. */
static wb_slot_t *new_entry(write_buffer_t *wb, uint32_t slot, uint32_t lpn, uint32_t older,
                            wb_state_t state, list_node_t *lru, bool oldest) {
  wb_slot_t *entry = &wb->slots[slot];
  entry->lpn = lpn;
  entry->state = (uint8_t)state;
  entry->older = older;
  entry->newer = WB_NONE;
  hash_put(&wb->newest, lpn, slot); /* cannot fail: one entry per slot at most */
  if (oldest) {
    list_push_back(lru, &entry->link);
  } else {
    list_push_front(lru, &entry->link);
  }
  return entry;
}

static void record_write(write_buffer_t *wb, wb_slot_t *written, uint32_t request_pages,
                         uint32_t flags) {
  written->request_pages =
      (uint16_t)(request_pages < WB_REQUEST_PAGES_MAX ? request_pages : WB_REQUEST_PAGES_MAX);
  written->flags = (uint8_t)flags;
  written->filling = 1;
  wb->counters.rewrites += (flags & WB_ENTRY_REWRITE) != 0;
  written->last_access = ++wb->clock;
}

uint32_t wb_write(write_buffer_t *wb, uint32_t lpn, uint32_t request_pages, uint32_t flags,
                  bool *hit) {
  uint32_t newest = wb_find(wb, lpn);
  bool absorbed = newest != WB_NONE && (wb->slots[newest].state == WB_SLOT_DIRTY ||
                                        wb->slots[newest].state == WB_SLOT_CLEAN);
  if (hit != 0) {
    *hit = absorbed;
  }
  if (absorbed) {
    wb_slot_t *rewritten = &wb->slots[newest];
    count_fua(wb, rewritten, (uint32_t)-1); /* filling again */
    if (rewritten->state == WB_SLOT_CLEAN) {
      list_remove(&rewritten->link);
      list_push_front(&wb->dirty_lru, &rewritten->link);
      rewritten->state = WB_SLOT_DIRTY;
      --wb->clean_count;
      ++wb->dirty_count;
    } else {
      list_move_front(&wb->dirty_lru, &rewritten->link);
    }
    record_write(wb, rewritten, request_pages, flags);
    ++wb->counters.write_hits;
    return newest;
  }
  uint32_t slot = take_slot(wb);
  if (slot == WB_NONE) {
    return WB_NONE;
  }
  wb_slot_t *filled = new_entry(wb, slot, lpn, newest, WB_SLOT_DIRTY, &wb->dirty_lru, false);
  record_write(wb, filled, request_pages, flags);
  if (newest != WB_NONE) {
    wb->slots[newest].newer = slot;
  }
  ++wb->dirty_count;
  return slot;
}

void wb_filled(write_buffer_t *wb, uint32_t slot) {
  wb->slots[slot].filling = 0;
  count_fua(wb, &wb->slots[slot], 1u);
}

uint32_t wb_rewrite(write_buffer_t *wb, uint32_t lpn) {
  if (wb_find(wb, lpn) != WB_NONE) {
    return WB_NONE;
  }
  uint32_t slot = take_slot(wb);
  if (slot == WB_NONE) {
    return WB_NONE;
  }
  /* Its access time is the least recent dirty entry's, as its place in the LRU is. */
  uint32_t oldest_access =
      wb->dirty_count != 0 ? LIST_ENTRY(wb->dirty_lru.prev, wb_slot_t, link)->last_access
                           : wb->clock;
  wb_slot_t *entry = new_entry(wb, slot, lpn, WB_NONE, WB_SLOT_DIRTY, &wb->dirty_lru, true);
  record_write(wb, entry, 0u, WB_ENTRY_REWRITE);
  entry->last_access = oldest_access;
  entry->filling = 0;
  ++wb->dirty_count;
  return slot;
}

bool wb_eligible(const write_buffer_t *wb, uint32_t slot) {
  const wb_slot_t *candidate = &wb->slots[slot];
  return candidate->state == WB_SLOT_DIRTY && candidate->filling == 0 &&
         candidate->older == WB_NONE;
}

bool wb_dirty_all_eligible(const write_buffer_t *wb) {
  uint32_t listed = 0;
  for (const list_node_t *node = wb->dirty_lru.next; node != &wb->dirty_lru; node = node->next) {
    if (!wb_eligible(wb, (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots))) {
      return false;
    }
    ++listed;
  }
  return listed == wb->dirty_count; /* slots being programmed count as dirty, and will free */
}

void wb_start_program(write_buffer_t *wb, uint32_t slot) {
  wb_slot_t *programmed = &wb->slots[slot];
  count_fua(wb, programmed, (uint32_t)-1);
  list_remove(&programmed->link);
  programmed->state = WB_SLOT_PROGRAMMING;
  --wb->dirty_count;
}

void wb_programmed(write_buffer_t *wb, uint32_t slot) { wb->slots[slot].state = WB_SLOT_UPDATING; }

void wb_requeue(write_buffer_t *wb, uint32_t slot) {
  wb->slots[slot].state = WB_SLOT_DIRTY;
  list_push_back(&wb->dirty_lru, &wb->slots[slot].link);
  ++wb->dirty_count;
  count_fua(wb, &wb->slots[slot], 1u);
}

void wb_release(write_buffer_t *wb, uint32_t slot) {
  wb_slot_t *released = &wb->slots[slot];
  count_fua(wb, released, (uint32_t)-1);
  if (released->state == WB_SLOT_DIRTY) {
    list_remove(&released->link);
    --wb->dirty_count;
  } else if (released->state == WB_SLOT_CLEAN) {
    list_remove(&released->link);
    --wb->clean_count;
  }
  if (released->newer != WB_NONE) {
    wb->slots[released->newer].older = WB_NONE;
  }
  if (released->older != WB_NONE) {
    wb->slots[released->older].newer = WB_NONE;
  }
  if (wb_find(wb, released->lpn) == slot) {
    hash_remove(&wb->newest, released->lpn);
  }
  released->state = WB_SLOT_FREE;
  released->filling = 0;
  released->older = WB_NONE;
  released->newer = WB_NONE;
  list_push_back(&wb->free_slots, &released->link);
  ++wb->free_count;
}

/* Puts a CLEAN slot into the clean LRU at its access time's place: programmed slots come from
 * the dirty LRU's least recent end, so the walk from the clean list's least recent end is
 * short. Clock comparisons are modulo 2^32. */
static void insert_clean(write_buffer_t *wb, wb_slot_t *clean) {
  list_node_t *after = wb->clean_lru.prev;
  while (after != &wb->clean_lru &&
         (int32_t)(LIST_ENTRY(after, wb_slot_t, link)->last_access - clean->last_access) < 0) {
    after = after->prev;
  }
  list_insert_between(&clean->link, after, after->next);
  clean->state = WB_SLOT_CLEAN;
  ++wb->clean_count;
}

void wb_settle(write_buffer_t *wb, uint32_t slot) {
  wb_slot_t *settled = &wb->slots[slot];
  if (!wb->keeps_clean || settled->newer != WB_NONE) {
    wb_release(wb, slot);
    return;
  }
  insert_clean(wb, settled);
}

uint32_t wb_fill_clean(write_buffer_t *wb, uint32_t lpn) {
  if (wb_find(wb, lpn) != WB_NONE) {
    return WB_NONE;
  }
  uint32_t slot = take_slot(wb);
  if (slot == WB_NONE) {
    return WB_NONE;
  }
  wb_slot_t *filled = new_entry(wb, slot, lpn, WB_NONE, WB_SLOT_CLEAN, &wb->clean_lru, false);
  filled->filling = 0;
  filled->request_pages = 0;
  filled->flags = 0;
  filled->last_access = ++wb->clock;
  ++wb->clean_count;
  ++wb->counters.fills;
  return slot;
}

bool wb_trim(write_buffer_t *wb, uint32_t lpn) {
  uint32_t newest = wb_find(wb, lpn);
  if (newest == WB_NONE) {
    return true;
  }
  if (!wb_eligible(wb, newest) && wb->slots[newest].state != WB_SLOT_CLEAN) {
    return false;
  }
  wb_release(wb, newest);
  return true;
}
