#include "ftl/fsp/access_history.h"

#include <stddef.h>

bool access_history_init(access_history_t *history, uint32_t lpn_count,
                         uint32_t episode_log_capacity, arena_t *arena) {
  history->lpn_count = lpn_count;
  history->entries = (uint8_t *)arena_alloc(arena, "access_history", lpn_count);
  history->episode_log = NULL;
  history->episode_log_capacity = episode_log_capacity;
  history->episode_log_length = 0;
  if (episode_log_capacity != 0) {
    history->episode_log =
        (uint32_t *)arena_alloc(arena, "access_history_episode_log", episode_log_capacity * 4u);
    if (history->episode_log == NULL) {
      return false;
    }
  }
  return history->entries != NULL;
}

void access_history_log_episode_read(access_history_t *history, uint32_t lpn) {
  if (history->episode_log_length < history->episode_log_capacity) {
    history->episode_log[history->episode_log_length] = lpn;
  }
  if (history->episode_log_length <= history->episode_log_capacity) {
    ++history->episode_log_length; /* one past the capacity marks the overflow */
  }
}

void access_history_new_episode(access_history_t *history) {
  uint8_t *entries = history->entries;
  if (history->episode_log_length > history->episode_log_capacity) {
    for (uint32_t lpn = 0; lpn < history->lpn_count; ++lpn) {
      entries[lpn] &= (uint8_t)~ACCESS_HISTORY_SHORT_TERM;
    }
  } else {
    for (uint32_t i = 0; i < history->episode_log_length; ++i) {
      entries[history->episode_log[i]] &= (uint8_t)~ACCESS_HISTORY_SHORT_TERM;
    }
  }
  history->episode_log_length = 0;
}

void access_history_programmed(access_history_t *history, const write_buffer_t *wb,
                               const uint32_t *slots, uint32_t positions, uint32_t types) {
  for (uint32_t position = 0; position < positions; ++position) {
    if (slots[position] == WB_NONE) {
      continue;
    }
    const wb_slot_t *written = &wb->slots[slots[position]];
    uint32_t type = position % types;
    if ((written->flags & WB_ENTRY_REWRITE) != 0) {
      access_history_rewritten(history, written->lpn, type);
    } else {
      access_history_written(history, written->lpn, type, written->request_pages <= 1u);
    }
  }
}
