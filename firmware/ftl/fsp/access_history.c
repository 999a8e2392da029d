#include "ftl/fsp/access_history.h"

#include <stddef.h>

bool access_history_init(access_history_t *history, uint32_t lpn_count, arena_t *arena) {
  history->lpn_count = lpn_count;
  history->entries = (uint8_t *)arena_alloc(arena, "access_history", lpn_count);
  return history->entries != NULL;
}
