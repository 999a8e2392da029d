/* A per-LPN access history for page-type-aware grouping (the QLC scheduling paper, TCAD 2024,
 * section III-B): how often the host read the LPN's data, whether it did so in the current
 * episode, the page type it was last written to and whether the request that wrote it was
 * small. One byte per LPN, in DRAM when there is DRAM ("access_history" in the arena breakdown):
 *   bits 0..2  reads, saturating at 7 (the paper keeps only the 2-bit bin: 0-1, 2-3, 4-5, >5;
 *              a bin alone cannot tell when the next read moves it up, so the count is kept and
 *              the bin derived);
 *   bits 3..4  page type of its last program (0 LSB .. 3 MSB; LSB for data never written);
 *   bit 5      the request that last wrote it was small (at most one page);
 *   bit 6      short term: read in the current episode (episodes are on only for a history
 *              started with an episode log);
 *   bit 7      read since its last program (the RL policy's reward asks).
 * Every host read counts, served from the buffer or from flash: both say the data is hot.
 *
 * The episode log lists the LPNs whose short-term bit this episode set, so that a new episode
 * clears only those (the paper's "episode log"); when more are read than it holds, the new
 * episode clears every LPN's bit instead. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_ACCESS_HISTORY_H
#define SSDVP_FIRMWARE_FTL_FSP_ACCESS_HISTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/write_buffer.h"
#include "lib/arena.h"

#define ACCESS_HISTORY_MAX_READS 7u
#define ACCESS_HISTORY_SHORT_TERM 0x40u
#define ACCESS_HISTORY_READ_SINCE_WRITTEN 0x80u

typedef struct access_history {
  uint8_t *entries;
  uint32_t lpn_count;
  uint32_t *episode_log; /* LPNs first read this episode; NULL: no episodes */
  uint32_t episode_log_capacity;
  uint32_t episode_log_length; /* past the capacity: the log overflowed */
} access_history_t;

/* Takes lpn_count bytes from the arena (all zero: nothing read, LSB, large), and an episode log
 * of episode_log_capacity LPNs (0: the history keeps no short-term bit); false when they do not
 * fit. */
bool access_history_init(access_history_t *history, uint32_t lpn_count,
                         uint32_t episode_log_capacity, arena_t *arena);

/* The first read of an LPN in this episode: logged. */
void access_history_log_episode_read(access_history_t *history, uint32_t lpn);

/* A host read of the LPN's data. */
static inline void access_history_read(access_history_t *history, uint32_t lpn) {
  uint8_t *entry = &history->entries[lpn];
  uint32_t value = *entry | ACCESS_HISTORY_READ_SINCE_WRITTEN;
  if ((value & 7u) < ACCESS_HISTORY_MAX_READS) {
    ++value;
  }
  if (history->episode_log != 0 && (value & ACCESS_HISTORY_SHORT_TERM) == 0) {
    value |= ACCESS_HISTORY_SHORT_TERM;
    access_history_log_episode_read(history, lpn);
  }
  *entry = (uint8_t)value;
}

/* A new episode: no LPN has been read in it yet. */
void access_history_new_episode(access_history_t *history);

/* The LPN's data was programmed to a page of `page_type`, written last by a small request or
 * not; it has not been read since. */
static inline void access_history_written(access_history_t *history, uint32_t lpn,
                                          uint32_t page_type, bool small) {
  uint8_t *entry = &history->entries[lpn];
  *entry = (uint8_t)((*entry & (7u | ACCESS_HISTORY_SHORT_TERM)) | (page_type & 3u) << 3 |
                     (small ? 1u << 5 : 0u));
}

/* The LPN's data, unchanged, was programmed again to a page of `page_type` (a rewrite): the
 * reads since its last program stay, for the reward of that program's page type. */
static inline void access_history_rewritten(access_history_t *history, uint32_t lpn,
                                            uint32_t page_type) {
  uint8_t *entry = &history->entries[lpn];
  *entry = (uint8_t)((*entry & ~(3u << 3)) | (page_type & 3u) << 3);
}

/* A wordline was programmed from `slots` (WB_NONE: a filler), position p at page type
 * p % types: its LPNs' histories say so (rewrites keep their reads and writer's size). */
void access_history_programmed(access_history_t *history, const write_buffer_t *wb,
                               const uint32_t *slots, uint32_t positions, uint32_t types);

static inline uint32_t access_history_reads(const access_history_t *history, uint32_t lpn) {
  return history->entries[lpn] & 7u;
}

/* The paper's long-term bin of a read count: 0 for 0-1 reads, 1 for 2-3, 2 for 4-5, 3 for
 * more. */
static inline uint32_t access_history_bin(uint32_t reads) { return reads > 5u ? 3u : reads >> 1; }

static inline uint32_t access_history_read_bin(const access_history_t *history, uint32_t lpn) {
  return access_history_bin(access_history_reads(history, lpn));
}

static inline uint32_t access_history_page_type(const access_history_t *history, uint32_t lpn) {
  return (history->entries[lpn] >> 3) & 3u;
}

static inline bool access_history_small(const access_history_t *history, uint32_t lpn) {
  return (history->entries[lpn] >> 5) & 1u;
}

static inline bool access_history_short_term(const access_history_t *history, uint32_t lpn) {
  return (history->entries[lpn] & ACCESS_HISTORY_SHORT_TERM) != 0;
}

static inline bool access_history_read_since_written(const access_history_t *history,
                                                     uint32_t lpn) {
  return (history->entries[lpn] & ACCESS_HISTORY_READ_SINCE_WRITTEN) != 0;
}

#endif
