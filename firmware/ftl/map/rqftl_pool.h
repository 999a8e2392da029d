/* The memory RQFTL's two caches share (section 4.7): one pool of 8-byte cells in which the
 * short-term cache's lines and the long-term cache's fractions are extents, so what one part
 * gives up the other can take.
 *
 * - An extent is a header cell (its owner and its size) and its cells. Extents are taken at the
 *   pool's top, else from the first hole that fits (neighbouring holes join); a freed one leaves
 *   a hole.
 * - When neither has room but the holes together would do, the live extents slide down (compaction)
 *   and each owner hears where its extent went (the `moved` callback), so it can re-point what
 *   it keeps. One extent can be pinned (a fraction whose model is training on the other hart,
 *   which reads it): compaction leaves it in place and moves later extents below it when they
 *   fit in the room there; what room is left there is a hole like any other.
 *
 * Portable C: the firmware and the host tests run the same code. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_RQFTL_POOL_H
#define SSDVP_FIRMWARE_FTL_MAP_RQFTL_POOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RQFTL_POOL_NONE 0xFFFFFFFFu
#define RQFTL_POOL_CELL_BYTES 8u

/* An extent moved: it is now the header at `index`. */
typedef void (*rqftl_pool_moved_t)(void *context, uint32_t owner, uint32_t index);

typedef struct rqftl_pool {
  uint64_t *cells;
  uint32_t cell_count;
  uint32_t top;        /* the first cell never taken since the last compaction */
  uint32_t live;       /* cells of live extents, headers included */
  uint32_t pinned;     /* the header compaction leaves in place, or RQFTL_POOL_NONE */
  uint64_t compactions;
  uint64_t holes_taken;  /* extents placed in a hole below the top */
  rqftl_pool_moved_t moved;
  void *context;
} rqftl_pool_t;

void rqftl_pool_init(rqftl_pool_t *pool, uint64_t *cells, uint32_t cell_count,
                     rqftl_pool_moved_t moved, void *context);

/* The header index of a new extent of `cells` cells (contents undefined) owned by `owner`,
 * compacting when that makes room; RQFTL_POOL_NONE when the free cells do not suffice (or the
 * pinned extent splits them so that none of its sides does). */
uint32_t rqftl_pool_alloc(rqftl_pool_t *pool, uint32_t owner, uint32_t cells);

void rqftl_pool_free(rqftl_pool_t *pool, uint32_t index);

static inline void *rqftl_pool_data(const rqftl_pool_t *pool, uint32_t index) {
  return &pool->cells[index + 1u];
}

/* Cells of an extent (its header aside). */
static inline uint32_t rqftl_pool_size(const rqftl_pool_t *pool, uint32_t index) {
  return (uint32_t)(pool->cells[index] >> 32);
}

static inline uint32_t rqftl_pool_free_cells(const rqftl_pool_t *pool) {
  return pool->cell_count - pool->live;
}

#ifdef __cplusplus
}
#endif

#endif
