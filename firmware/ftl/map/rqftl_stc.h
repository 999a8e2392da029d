/* RQFTL's short-term cache, STC (R. Marcus et al., SYSTOR 2024, section 4.3): the updatable part
 * of the L2P cache, translation pages held as runs, in the manner of S-FTL.
 *
 * - A line is one TP: its runs (consecutive LPNs mapped to consecutive VPNs, or unmapped), sorted
 *   by offset. A read insertion brings the whole TP (a whole line: where no run is, the LPN is
 *   unmapped); a write insertion adds a patch to the TP's line, creating a patch line when the TP
 *   is not cached (there, where no run is, the mapping is unknown). A TP loaded while it has a
 *   patch line becomes whole with the patches over it.
 * - Lines are found through a chained hash and replaced in exact LRU order, at most `line_limit`
 *   of them (RQFTL's dynamic partition moves the limit; section 4.7) in at most `cell_limit`
 *   cells of the pool (a static partition). Every lookup that finds a
 *   line moves it to the front.
 * - Each line carries a dirty bit (its TP in flash is stale) and a transfer mark (section 4.5:
 *   its runs are in the transfer buffer; a write clears it). An evicted dirty line is handed to
 *   the `evicted` callback (the scheme writes it back: whole lines as a page, patch lines as
 *   patches merged into the TP read from flash); a clean one is dropped.
 * - The runs live in extents of the pool the long-term cache shares (ftl/map/rqftl_pool.h), a run
 *   to a cell (offset, length, VPN: 8 bytes); an extent grows by moving to the pool's top, and
 *   lines are evicted when the pool has no room (rqftl_stc_moved follows extents the pool
 *   slides).
 *
 * Portable C: the firmware and the host tests run the same code. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_RQFTL_STC_H
#define SSDVP_FIRMWARE_FTL_MAP_RQFTL_STC_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/map/rqftl_pool.h"
#include "ftl/map/scheme_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rqftl_run {
  uint16_t offset; /* first LPN, within the TP */
  uint16_t length;
  uint32_t vpn;    /* of the first LPN, or VPN_UNMAPPED for the whole run */
} rqftl_run_t;

#define RQFTL_STC_WHOLE 1u  /* the line holds the whole TP */
#define RQFTL_STC_DIRTY 2u
#define RQFTL_STC_MARKED 4u /* its runs are in a transfer */

/* An evicted dirty line: the TP, its runs and whether they are the whole TP. */
typedef void (*rqftl_stc_evicted_t)(void *context, uint32_t tp, const rqftl_run_t *runs,
                                    uint32_t count, bool whole);

typedef struct rqftl_stc_stats {
  uint64_t lookups;
  uint64_t hits;          /* lookups a line answered (mapped or known unmapped) */
  uint64_t loads;         /* read insertions */
  uint64_t writes;        /* write insertions */
  uint64_t evictions;
  uint64_t dirty_evictions;
  uint32_t updated_tps;   /* lines that turned dirty, or were written while marked: the
                             partition's counter, cleared by the scheme at each transfer */
  uint32_t lines;
  uint32_t cells;         /* of the pool, in the lines' extents (headers included) */
  /* LPNs the unmarked lines translate (a whole line all its TP's, a patch line its patches):
   * those of marked lines are in the long-term cache. */
  uint32_t unmarked_lpns;
} rqftl_stc_stats_t;

typedef struct rqftl_stc {
  uint32_t entries_per_tp;
  uint32_t max_lines;   /* slots */
  uint32_t line_limit;  /* lines held at most now (<= max_lines) */
  uint32_t cell_limit;  /* pool cells its lines take at most (a static partition) */
  uint32_t *tps;        /* [slot] */
  uint32_t *hash_next;  /* [slot]; free slots chain through it */
  scheme_hash_t hash;
  scheme_link_t *links; /* [slot]: LRU */
  scheme_list_t lru;
  uint32_t free_slots;
  uint32_t *extent;     /* [slot]: the header of its extent in the pool */
  uint16_t *count;      /* [slot]: runs */
  uint16_t *known;      /* [slot]: LPNs the line translates */
  uint8_t *flags;       /* [slot] */
  rqftl_pool_t *pool;   /* extents owned by their slot */
  rqftl_stc_evicted_t evicted;
  void *context;
  /* Whether a dirty line may be written back now (NULL, as rqftl_stc_init leaves it: always).
   * Without room the least recently used clean line leaves instead, and a write or load that
   * finds no clean one fails (the scheme answers for it). */
  bool (*room)(void);
  rqftl_stc_stats_t stats;
} rqftl_stc_t;

typedef enum rqftl_stc_answer {
  RQFTL_STC_MISS = 0,     /* no line, or a patch line without the LPN */
  RQFTL_STC_MAPPED = 1,   /* *vpn */
  RQFTL_STC_UNMAPPED = 2, /* the line knows the LPN holds no data */
} rqftl_stc_answer_t;

/* Takes max_lines slots from the budget; the runs go in `pool`, whose owners [0, max_lines) are
 * the lines. False when it does not fit or max_lines is 0. */
bool rqftl_stc_init(rqftl_stc_t *stc, uint32_t max_lines, uint32_t entries_per_tp,
                    rqftl_pool_t *pool, scheme_budget_t *budget, rqftl_stc_evicted_t evicted,
                    void *context);

/* Bytes rqftl_stc_init takes. */
uint32_t rqftl_stc_slot_bytes(uint32_t max_lines);

/* Cells the pool must hold for the short-term cache to work: two whole TPs of one run per
 * entry (a load while the TP has a patch line holds both). */
uint32_t rqftl_stc_min_cells(uint32_t entries_per_tp);

/* The pool moved the extent of line `slot` to `index`. */
static inline void rqftl_stc_moved(rqftl_stc_t *stc, uint32_t slot, uint32_t index) {
  stc->extent[slot] = index;
}

/* Evicts the least recently used line (a clean one when `room` says no dirty one may go); false
 * when there is none. */
bool rqftl_stc_evict_one(rqftl_stc_t *stc);

rqftl_stc_answer_t rqftl_stc_lookup(rqftl_stc_t *stc, uint32_t lpn, uint32_t *vpn);

/* The line of TP tp, or SCHEME_NIL. */
uint32_t rqftl_stc_line_of(const rqftl_stc_t *stc, uint32_t tp);

/* Write insertion: lpn now maps to vpn (VPN_UNMAPPED: trimmed). The line turns dirty and loses
 * its transfer mark. False when no room could be made: only dirty lines could leave and `room`
 * said no (nothing changed but what left), or the pool does not hold two whole TPs. */
bool rqftl_stc_write(rqftl_stc_t *stc, uint32_t lpn, uint32_t vpn);

/* Read insertion: TP tp's entries (entries_per_tp VPNs) from flash; a patch line of the TP keeps
 * its patches over them. False as for rqftl_stc_write. */
bool rqftl_stc_load(rqftl_stc_t *stc, uint32_t tp, const uint32_t *entries);

/* Holds at most `limit` lines (at least 1, at most max_lines) from now on, evicting the least
 * recently used ones beyond it. */
void rqftl_stc_set_line_limit(rqftl_stc_t *stc, uint32_t limit);

/* Takes at most `cells` of the pool from now on (a static partition), evicting the least
 * recently used lines beyond it. */
void rqftl_stc_set_cell_limit(rqftl_stc_t *stc, uint32_t cells);

/* A line's TP, flags and runs (slot < max_lines; SCHEME_NIL tp for a free slot). */
static inline uint32_t rqftl_stc_tp(const rqftl_stc_t *stc, uint32_t slot) {
  return stc->tps[slot];
}
static inline uint32_t rqftl_stc_run_count(const rqftl_stc_t *stc, uint32_t slot) {
  return stc->count[slot];
}
static inline const rqftl_run_t *rqftl_stc_runs(const rqftl_stc_t *stc, uint32_t slot) {
  return (const rqftl_run_t *)rqftl_pool_data(stc->pool, stc->extent[slot]);
}

/* Forgets which lines were written: stats.updated_tps counts from 0 again (at a transfer). */
void rqftl_stc_clear_updates(rqftl_stc_t *stc);

/* The line's runs went into a transfer; a later write clears the mark. */
void rqftl_stc_mark(rqftl_stc_t *stc, uint32_t slot);
/* The transfer was abandoned: the line goes into a later one. */
void rqftl_stc_unmark(rqftl_stc_t *stc, uint32_t slot);
static inline bool rqftl_stc_marked(const rqftl_stc_t *stc, uint32_t slot) {
  return (stc->flags[slot] & RQFTL_STC_MARKED) != 0;
}

/* Hands dirty lines to `evicted` and marks them clean (flush), each while `room` says one more
 * may go (NULL: always). True when none is left dirty; false when it stopped for room. */
bool rqftl_stc_flush(rqftl_stc_t *stc, bool (*room)(void));

#ifdef __cplusplus
}
#endif

#endif
