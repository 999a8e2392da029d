#include "ftl/write_buffer.h"

bool wb_init(write_buffer_t *wb, uint32_t slot_count, uint32_t page_bytes, arena_t *meta_arena,
             arena_t *data_arena) {
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
  for (uint32_t slot = 0; slot < slot_count; ++slot) {
    wb->slots[slot].state = WB_SLOT_FREE;
    wb->slots[slot].older = WB_NONE;
    wb->slots[slot].newer = WB_NONE;
    list_push_back(&wb->free_slots, &wb->slots[slot].link);
  }
  wb->free_count = slot_count;
  wb->dirty_count = 0;
  return true;
}

static uint32_t slot_index(const write_buffer_t *wb, const list_node_t *node) {
  return (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
}

uint32_t wb_find(const write_buffer_t *wb, uint32_t lpn) {
  uint32_t slot;
  return hash_find(&wb->newest, lpn, &slot) ? slot : WB_NONE;
}

uint32_t wb_write(write_buffer_t *wb, uint32_t lpn) {
  uint32_t newest = wb_find(wb, lpn);
  if (newest != WB_NONE && wb->slots[newest].state == WB_SLOT_DIRTY) {
    list_move_front(&wb->dirty_lru, &wb->slots[newest].link);
    wb->slots[newest].filling = 1;
    return newest;
  }
  list_node_t *node = list_pop_front(&wb->free_slots);
  if (node == 0) {
    return WB_NONE;
  }
  uint32_t slot = slot_index(wb, node);
  wb_slot_t *filled = &wb->slots[slot];
  filled->lpn = lpn;
  filled->state = WB_SLOT_DIRTY;
  filled->filling = 1;
  filled->older = newest;
  filled->newer = WB_NONE;
  if (newest != WB_NONE) {
    wb->slots[newest].newer = slot;
  }
  hash_put(&wb->newest, lpn, slot); /* cannot fail: one entry per slot at most */
  list_push_front(&wb->dirty_lru, &filled->link);
  --wb->free_count;
  ++wb->dirty_count;
  return slot;
}

void wb_filled(write_buffer_t *wb, uint32_t slot) { wb->slots[slot].filling = 0; }

bool wb_eligible(const write_buffer_t *wb, uint32_t slot) {
  const wb_slot_t *candidate = &wb->slots[slot];
  return candidate->state == WB_SLOT_DIRTY && candidate->filling == 0 &&
         candidate->older == WB_NONE;
}

void wb_start_program(write_buffer_t *wb, uint32_t slot) {
  wb_slot_t *programmed = &wb->slots[slot];
  list_remove(&programmed->link);
  programmed->state = WB_SLOT_PROGRAMMING;
  --wb->dirty_count;
}

void wb_programmed(write_buffer_t *wb, uint32_t slot) { wb->slots[slot].state = WB_SLOT_UPDATING; }

void wb_requeue(write_buffer_t *wb, uint32_t slot) {
  wb->slots[slot].state = WB_SLOT_DIRTY;
  list_push_back(&wb->dirty_lru, &wb->slots[slot].link);
  ++wb->dirty_count;
}

void wb_release(write_buffer_t *wb, uint32_t slot) {
  wb_slot_t *released = &wb->slots[slot];
  if (released->state == WB_SLOT_DIRTY) {
    list_remove(&released->link);
    --wb->dirty_count;
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

bool wb_trim(write_buffer_t *wb, uint32_t lpn) {
  uint32_t newest = wb_find(wb, lpn);
  if (newest == WB_NONE) {
    return true;
  }
  if (!wb_eligible(wb, newest)) {
    return false;
  }
  wb_release(wb, newest);
  return true;
}
