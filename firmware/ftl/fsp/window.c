#include "ftl/fsp/window.h"

#include <stddef.h>

bool grouping_window_init(grouping_window_t *window, const policy_env_t *env) {
  uint32_t pages = env->blocks->pages_per_program;
  uint32_t capacity = env->wb->slot_count * env->boot->ftl_fsp_window / 100u;
  window->capacity = capacity > pages ? capacity : pages;
  window->bits_per_cell = env->blocks->geometry.bits_per_cell;
  window->slots = (uint32_t *)policy_alloc_near(env, "fsp_window", window->capacity * 4u);
  window->taken = (uint8_t *)policy_alloc_near(env, "fsp_window_taken", window->capacity);
  return window->slots != NULL && window->taken != NULL;
}

/* The eligible dirty slots from the LRU end, oldest first; answers how many. */
static uint32_t window_fill(grouping_window_t *window, const write_buffer_t *wb) {
  uint32_t found = 0;
  for (const list_node_t *node = wb->dirty_lru.prev;
       node != &wb->dirty_lru && found < window->capacity; node = node->prev) {
    uint32_t slot = (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
    if (wb_eligible(wb, slot)) {
      window->taken[found] = 0;
      window->slots[found++] = slot;
    }
  }
  return found;
}

bool grouping_window_start(grouping_window_t *window, const write_buffer_t *wb, uint32_t count,
                           grouping_choice_t *choice, uint32_t *found) {
  *found = window_fill(window, wb);
  bool enough = *found >= count;
  uint32_t positions = enough ? count : *found;
  for (uint32_t i = 0; i < positions; ++i) {
    choice->slots[i] = enough ? WB_NONE : window->slots[i];
  }
  choice->positions = positions;
  return enough;
}

uint32_t grouping_free_position(const uint32_t *slots, uint32_t count, uint32_t type,
                                uint32_t types) {
  for (uint32_t position = type; position < count; position += types) {
    if (slots[position] == WB_NONE) {
      return position;
    }
  }
  return WB_NONE;
}

void grouping_window_fill_rest(grouping_window_t *window, uint32_t count,
                               grouping_choice_t *choice) {
  uint32_t next = 0;
  for (uint32_t position = 0; position < count; ++position) {
    if (choice->slots[position] != WB_NONE) {
      continue;
    }
    while (window->taken[next]) { /* count <= found: an untaken one is left */
      ++next;
    }
    window->taken[next] = 1;
    choice->slots[position] = window->slots[next];
  }
  choice->positions = count;
}
