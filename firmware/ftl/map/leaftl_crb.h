/* LeaFTL's conflict resolution buffer (CRB) of one 256-LPN group (Sun et al., ASPLOS 2023,
 * section 3.4): which LPNs each approximate segment indexes, one byte (the LPN's offset in the
 * group) each.
 *   - A segment's offsets are contiguous and increasing: a run.
 *   - Runs are in the order of their first offset (the segment's start), separated by a 0 byte.
 *   - No offset appears twice: a new run takes its offsets out of the runs already there, and a
 *     run left without any goes.
 * Offset 0 can only be the first byte (it is the smallest start and appears once), so any other
 * 0 byte is a separator: the paper's null separator, without losing offset 0.
 * Taking a run's first offset away moves its segment's start: callers re-read it with
 * leaftl_crb_start_of. Lookups scan the runs: a group holds at most 256 offsets (the paper
 * measured 14 bytes on average). */
#ifndef SSDVP_FIRMWARE_FTL_MAP_LEAFTL_CRB_H
#define SSDVP_FIRMWARE_FTL_MAP_LEAFTL_CRB_H

#include <stdbool.h>
#include <stdint.h>

/* 256 offsets and 255 separators. */
#define LEAFTL_CRB_MAX_BYTES 511u

typedef struct leaftl_crb {
  uint8_t *bytes;
  uint32_t length;
  uint32_t capacity;
} leaftl_crb_t;

/* An empty CRB in `bytes` (capacity bytes, at most LEAFTL_CRB_MAX_BYTES). */
void leaftl_crb_init(leaftl_crb_t *crb, uint8_t *bytes, uint32_t capacity);

/* The first offset of the run holding `offset`, or -1. */
int32_t leaftl_crb_start_of(const leaftl_crb_t *crb, uint32_t offset);

/* Copies the run that starts at `start` to `offsets` (room for 256); answers its length, 0 when
 * no run starts there. */
uint32_t leaftl_crb_run(const leaftl_crb_t *crb, uint32_t start, uint8_t *offsets);

/* Adds a run of `count` (>= 1) strictly increasing offsets, first taking them out of the runs
 * held. False, with nothing changed, when the result would not fit. */
bool leaftl_crb_insert(leaftl_crb_t *crb, const uint8_t *offsets, uint32_t count);

/* Takes `offset` out of the run holding it, if any. */
void leaftl_crb_erase(leaftl_crb_t *crb, uint32_t offset);

/* Removes the run that starts at `start`, if any. */
void leaftl_crb_remove_run(leaftl_crb_t *crb, uint32_t start);

#endif
