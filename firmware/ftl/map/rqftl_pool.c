#include "ftl/map/rqftl_pool.h"

#include "hal/job_kind.h"

#include <string.h>

/* A header cell: the owner in the low word (RQFTL_POOL_NONE: dead), the size in the high one. */
static uint64_t header(uint32_t owner, uint32_t size) { return ((uint64_t)size << 32) | owner; }

static uint32_t owner_of(const rqftl_pool_t *pool, uint32_t index) {
  return (uint32_t)pool->cells[index];
}

void rqftl_pool_init(rqftl_pool_t *pool, uint64_t *cells, uint32_t cell_count,
                     rqftl_pool_moved_t moved, void *context) {
  memset(pool, 0, sizeof *pool);
  pool->cells = cells;
  pool->cell_count = cell_count;
  pool->pinned = RQFTL_POOL_NONE;
  pool->moved = moved;
  pool->context = context;
}

static void move_extent(rqftl_pool_t *pool, uint32_t from, uint32_t to, uint32_t span) {
  memmove(&pool->cells[to], &pool->cells[from], span * sizeof(uint64_t));
  pool->moved(pool->context, owner_of(pool, to), to);
}

/* Moves the compaction's cursor past the pinned extent; the room left below it becomes a dead
 * extent, so the headers still chain. */
static uint32_t skip_pinned(rqftl_pool_t *pool, uint32_t write, uint32_t pin, uint32_t pin_end) {
  if (write < pin) {
    pool->cells[write] = header(RQFTL_POOL_NONE, pin - write - 1u);
  }
  return pin_end;
}

/* Slides the live extents down in order. Around a pinned extent: those before it close up below
 * it, those after it go into the room left below it while they fit, then on above it. */
static void compact(rqftl_pool_t *pool) {
  uint32_t outer = job_kind_enter(JOB_KIND_COMPACTION);
  uint32_t pin = pool->pinned;
  uint32_t pin_end = pin == RQFTL_POOL_NONE ? 0u : pin + 1u + rqftl_pool_size(pool, pin);
  uint32_t write = 0;
  for (uint32_t read = 0; read < pool->top;) {
    uint32_t span = rqftl_pool_size(pool, read) + 1u;
    uint32_t next = read + span;
    if (read != pin && owner_of(pool, read) != RQFTL_POOL_NONE) {
      if (pin != RQFTL_POOL_NONE && write < pin_end && write + span > pin) {
        write = skip_pinned(pool, write, pin, pin_end); /* it does not fit below it */
      }
      if (write != read) {
        move_extent(pool, read, write, span);
      }
      write += span;
    }
    read = next;
  }
  if (pin != RQFTL_POOL_NONE && write < pin_end) {
    write = skip_pinned(pool, write, pin, pin_end);
  }
  pool->top = write;
  ++pool->compactions;
  job_kind_set(outer);
}

/* The first dead extent of at least `span` cells (headers included), joining dead neighbours on
 * the way; dead extents that reach the top give their cells back to it. RQFTL_POOL_NONE if none
 * is large enough. */
static uint32_t first_fit(rqftl_pool_t *pool, uint32_t span) {
  for (uint32_t index = 0; index < pool->top;) {
    uint32_t end = index + rqftl_pool_size(pool, index) + 1u;
    if (owner_of(pool, index) == RQFTL_POOL_NONE) {
      while (end < pool->top && owner_of(pool, end) == RQFTL_POOL_NONE) {
        end += rqftl_pool_size(pool, end) + 1u;
      }
      if (end == pool->top) {
        pool->top = index;
        return RQFTL_POOL_NONE;
      }
      pool->cells[index] = header(RQFTL_POOL_NONE, end - index - 1u);
      if (end - index >= span) {
        return index;
      }
    }
    index = end;
  }
  return RQFTL_POOL_NONE;
}

uint32_t rqftl_pool_alloc(rqftl_pool_t *pool, uint32_t owner, uint32_t cells) {
  uint32_t span = cells + 1u;
  if (span == 0 || span > pool->cell_count - pool->live) {
    return RQFTL_POOL_NONE;
  }
  uint32_t index = RQFTL_POOL_NONE;
  if (span > pool->cell_count - pool->top) {
    /* A hole that fits costs a walk over the headers; compaction moves every live cell. */
    index = first_fit(pool, span);
    if (index == RQFTL_POOL_NONE && span > pool->cell_count - pool->top) {
      compact(pool);
      index = first_fit(pool, span); /* the room a pinned extent left below it */
    }
  }
  if (index != RQFTL_POOL_NONE) {
    ++pool->holes_taken;
    uint32_t left = rqftl_pool_size(pool, index) + 1u - span;
    if (left != 0) {
      pool->cells[index + span] = header(RQFTL_POOL_NONE, left - 1u);
    }
  } else if (span <= pool->cell_count - pool->top) {
    index = pool->top;
    pool->top += span;
  } else {
    return RQFTL_POOL_NONE;
  }
  pool->cells[index] = header(owner, cells);
  pool->live += span;
  return index;
}

void rqftl_pool_free(rqftl_pool_t *pool, uint32_t index) {
  pool->live -= rqftl_pool_size(pool, index) + 1u;
  pool->cells[index] = header(RQFTL_POOL_NONE, rqftl_pool_size(pool, index));
  if (pool->pinned == index) {
    pool->pinned = RQFTL_POOL_NONE;
  }
}
