/* A per-LPN access history for page-type-aware grouping (the QLC scheduling paper, TCAD 2024,
 * section III-B): how often the host read the LPN's data, the page type it was last written to
 * and whether the request that wrote it was small. One byte per LPN, in DRAM when there is
 * DRAM ("access_history" in the arena breakdown):
 *   bits 0..2  reads, saturating at 7 (the paper keeps only the 2-bit bin: 0-1, 2-3, 4-5, >5;
 *              a bin alone cannot tell when the next read moves it up, so the count is kept and
 *              the bin derived);
 *   bits 3..4  page type of its last program (0 LSB .. 3 MSB; LSB for data never written);
 *   bit 5      the request that last wrote it was small (at most one page). */
#ifndef SSDVP_FIRMWARE_FTL_FSP_ACCESS_HISTORY_H
#define SSDVP_FIRMWARE_FTL_FSP_ACCESS_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"

#define ACCESS_HISTORY_MAX_READS 7u

typedef struct access_history {
  uint8_t *entries;
  uint32_t lpn_count;
} access_history_t;

/* Takes lpn_count bytes from the arena (all zero: nothing read, LSB, large); false when they do
 * not fit. */
bool access_history_init(access_history_t *history, uint32_t lpn_count, arena_t *arena);

/* A host read of the LPN's data. */
static inline void access_history_read(access_history_t *history, uint32_t lpn) {
  uint8_t *entry = &history->entries[lpn];
  if ((*entry & 7u) < ACCESS_HISTORY_MAX_READS) {
    ++*entry;
  }
}

/* The LPN's data was programmed to a page of `page_type`, written last by a small request or
 * not. */
static inline void access_history_written(access_history_t *history, uint32_t lpn,
                                          uint32_t page_type, bool small) {
  uint8_t *entry = &history->entries[lpn];
  *entry = (uint8_t)((*entry & 7u) | (page_type & 3u) << 3 | (small ? 1u << 5 : 0u));
}

static inline uint32_t access_history_reads(const access_history_t *history, uint32_t lpn) {
  return history->entries[lpn] & 7u;
}

/* The paper's long-term bin: 0 for 0-1 reads, 1 for 2-3, 2 for 4-5, 3 for more. */
static inline uint32_t access_history_read_bin(const access_history_t *history, uint32_t lpn) {
  uint32_t reads = access_history_reads(history, lpn);
  return reads > 5u ? 3u : reads >> 1;
}

static inline uint32_t access_history_page_type(const access_history_t *history, uint32_t lpn) {
  return (history->entries[lpn] >> 3) & 3u;
}

static inline bool access_history_small(const access_history_t *history, uint32_t lpn) {
  return (history->entries[lpn] >> 5) & 1u;
}

#endif
