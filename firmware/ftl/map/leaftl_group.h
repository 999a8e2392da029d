/* The log-structured index of one LeaFTL group of 256 LPNs (Sun et al., ASPLOS 2023, section
 * 3.4, Algorithms 1 and 2): its segments in levels, level 0 the newest, and its CRB.
 *   - Within a level segments are sorted by start and their ranges do not overlap; across levels
 *     they may, and a lookup takes the first level, from the top, whose segment indexes the LPN.
 *   - A new segment goes on level 0. Every approximate segment it overlaps loses the LPNs it
 *     takes (the CRB lists each LPN once, under its newest approximate segment), and so does
 *     every segment of level 0 it overlaps (Algorithm 2's bitmaps): a segment left without LPNs
 *     goes, one whose range still overlaps the new one drops a level, onto a new level when it
 *     overlaps a segment there (no recursion).
 *   - Compaction does what moving every level's segments into the next one down, again and
 *     again, would end with (Algorithm 1's seg_compact, "until fully compacted"): each segment
 *     keeps only the LPNs no newer segment took, goes when none is left, and sits right below
 *     the lowest newer segment it overlaps, so the group has the fewest levels it can.
 * A trimmed segment keeps its slope and intercept: its intercept is the prediction at the group's
 * first LPN (ml/plr.h), so its start moves without changing what it predicts.
 *
 * The arrays are the caller's (ftl/map/leaftl.c keeps them in a pool); an insert needs room for
 * one more segment and for its run in the CRB. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_LEAFTL_GROUP_H
#define SSDVP_FIRMWARE_FTL_MAP_LEAFTL_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/map/leaftl_crb.h"
#include "ftl/map/leaftl_segment.h"

/* Levels are numbered in a byte. */
#define LEAFTL_MAX_LEVELS 255u

typedef struct leaftl_group {
  leaftl_segment_t *segments; /* by level, then start */
  uint8_t *levels;            /* each segment's level */
  uint32_t count;
  uint32_t capacity;
  uint32_t level_count;
  leaftl_crb_t crb;
} leaftl_group_t;

/* An empty group over the caller's arrays. */
void leaftl_group_init(leaftl_group_t *group, leaftl_segment_t *segments, uint8_t *levels,
                       uint32_t capacity, uint8_t *crb_bytes, uint32_t crb_capacity);

/* The CRB bytes an insert of an approximate segment of `offsets` LPNs may need beyond those held. */
static inline uint32_t leaftl_group_crb_room(uint32_t offsets) { return offsets + 1u; }

/* The segment indexing `offset`, searched from level 0 down; false when none does.
 * *levels_searched: the levels looked at (the one found included). */
bool leaftl_group_lookup(const leaftl_group_t *group, uint32_t offset, leaftl_segment_t *found,
                         uint32_t *levels_searched);

/* Inserts `segment` on level 0. An approximate one lists its `count` offsets (increasing; its
 * start first); an accurate one passes none. Needs count < capacity, CRB room for an approximate
 * segment (leaftl_group_crb_room) and fewer than LEAFTL_MAX_LEVELS levels. */
void leaftl_group_insert(leaftl_group_t *group, const leaftl_segment_t *segment,
                         const uint8_t *offsets, uint32_t count);

/* Puts `count` accurate segments (sorted, disjoint) on a new level under all others: older
 * mappings, found only where no segment above has the LPN. Needs the room and a level free. */
void leaftl_group_add_level_below(leaftl_group_t *group, const leaftl_segment_t *segments,
                                  uint32_t count);

/* Compacts the group fully (see above). */
void leaftl_group_compact(leaftl_group_t *group);

/* The offsets `segment` of this group indexes, as a 256-bit set; answers how many. */
uint32_t leaftl_group_offsets(const leaftl_group_t *group, const leaftl_segment_t *segment,
                              uint32_t bits[8]);

#endif
