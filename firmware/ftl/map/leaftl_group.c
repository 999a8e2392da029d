#include "ftl/map/leaftl_group.h"

#include <string.h>

#include "ftl/map/scheme_common.h"

/* Marks a segment that lost all its LPNs until the sweep removes it. */
#define REMOVED_LEVEL 0xFFu

void leaftl_group_init(leaftl_group_t *group, leaftl_segment_t *segments, uint8_t *levels,
                       uint32_t capacity, uint8_t *crb_bytes, uint32_t crb_capacity) {
  group->segments = segments;
  group->levels = levels;
  group->count = 0;
  group->capacity = capacity;
  group->level_count = 0;
  leaftl_crb_init(&group->crb, crb_bytes, crb_capacity);
}

static uint32_t last_offset(const leaftl_segment_t *segment) {
  return (uint32_t)segment->start + segment->length;
}

static bool ranges_overlap(const leaftl_segment_t *a, const leaftl_segment_t *b) {
  return a->start <= last_offset(b) && b->start <= last_offset(a);
}

static bool bit_set(const uint32_t bits[8], uint32_t offset) {
  return (bits[offset >> 5] >> (offset & 31u) & 1u) != 0;
}

uint32_t leaftl_group_offsets(const leaftl_group_t *group, const leaftl_segment_t *segment,
                              uint32_t bits[8]) {
  memset(bits, 0, 8u * sizeof bits[0]);
  uint32_t count = 0;
  if (leaftl_segment_accurate(segment)) {
    uint32_t stride = plr_stride(segment->slope);
    for (uint32_t offset = segment->start; offset <= last_offset(segment); offset += stride) {
      bits[offset >> 5] |= 1u << (offset & 31u);
      ++count;
    }
    return count;
  }
  uint8_t run[LEAFTL_GROUP_LPNS];
  count = leaftl_crb_run(&group->crb, segment->start, run);
  for (uint32_t i = 0; i < count; ++i) {
    bits[run[i] >> 5] |= 1u << (run[i] & 31u);
  }
  return count;
}

/* Takes `taken` out of `segment`'s bits: its start and length shrink to what is left. False when
 * nothing is left. An approximate segment's CRB run is rewritten to the offsets it keeps. */
static bool trim(leaftl_group_t *group, leaftl_segment_t *segment, const uint32_t taken[8]) {
  uint32_t bits[8];
  leaftl_group_offsets(group, segment, bits);
  bool changed = false;
  for (uint32_t w = 0; w < 8u; ++w) {
    changed |= (bits[w] & taken[w]) != 0;
    bits[w] &= ~taken[w];
  }
  if (!changed) {
    return true;
  }
  uint8_t kept[LEAFTL_GROUP_LPNS];
  uint32_t count = 0;
  for (uint32_t offset = segment->start; offset <= last_offset(segment); ++offset) {
    if (bit_set(bits, offset)) {
      kept[count++] = (uint8_t)offset;
    }
  }
  if (!leaftl_segment_accurate(segment)) {
    leaftl_crb_remove_run(&group->crb, segment->start);
    if (count != 0 && !leaftl_crb_insert(&group->crb, kept, count)) {
      /* Never: the kept offsets are fewer than the run's and no longer need a separator more. */
      count = 0;
    }
  }
  if (count == 0) {
    return false;
  }
  segment->start = kept[0];
  segment->length = (uint8_t)(kept[count - 1u] - kept[0]);
  return true;
}

/* Drops removed segments, sorts by level, then start (insertion sort: a group holds tens of
 * segments, nearly sorted), and renumbers the levels without gaps. */
static void tidy(leaftl_group_t *group) {
  uint32_t kept = 0;
  uint32_t used[8] = {0}; /* the levels in use, a bit each */
  for (uint32_t i = 0; i < group->count; ++i) {
    uint8_t level = group->levels[i];
    if (level == REMOVED_LEVEL) {
      continue;
    }
    leaftl_segment_t segment = group->segments[i];
    uint32_t j = kept++;
    for (; j > 0 && (group->levels[j - 1u] > level || (group->levels[j - 1u] == level &&
                                                        group->segments[j - 1u].start > segment.start));
         --j) {
      group->segments[j] = group->segments[j - 1u];
      group->levels[j] = group->levels[j - 1u];
    }
    group->segments[j] = segment;
    group->levels[j] = level;
    used[level >> 5] |= 1u << (level & 31u);
  }
  group->count = kept;
  uint32_t levels = 0;
  for (uint32_t w = 0; w < 8u; ++w) {
    levels += scheme_popcount(used[w]);
  }
  group->level_count = levels;
  if (kept == 0 || group->levels[kept - 1u] + 1u == levels) {
    return; /* no empty level in between */
  }
  uint32_t renumbered = 0;
  uint8_t previous = group->levels[0];
  for (uint32_t i = 0; i < kept; ++i) {
    if (group->levels[i] != previous) {
      previous = group->levels[i];
      ++renumbered;
    }
    group->levels[i] = (uint8_t)renumbered;
  }
}

static bool overlaps_level(const leaftl_group_t *group, const leaftl_segment_t *segment,
                           uint32_t level, uint32_t except) {
  for (uint32_t i = 0; i < group->count; ++i) {
    if (i != except && group->levels[i] == level && ranges_overlap(&group->segments[i], segment)) {
      return true;
    }
  }
  return false;
}

/* Puts `segment` (indexing `bits`) on `level` at index `slot` (group->count: a new one; else a
 * slot marked removed) (Algorithm 1, seg_update): the segments below it are older. Leaves the
 * group to tidy. */
static void merge_into(leaftl_group_t *group, const leaftl_segment_t *segment,
                       const uint32_t bits[8], uint32_t level, uint32_t slot) {
  for (uint32_t i = 0; i < group->count; ++i) {
    leaftl_segment_t *older = &group->segments[i];
    if (group->levels[i] == REMOVED_LEVEL || group->levels[i] < level ||
        !ranges_overlap(older, segment)) {
      continue;
    }
    /* Approximate ones on every level: the CRB keeps each LPN under its newest segment. The
     * level's own accurate ones: Algorithm 2's bitmaps. */
    if ((!leaftl_segment_accurate(older) || group->levels[i] == level) &&
        !trim(group, older, bits)) {
      group->levels[i] = REMOVED_LEVEL;
    }
  }
  /* What still overlaps it on its level drops one, onto a level of its own when it overlaps
   * something there. */
  bool new_level = false;
  for (uint32_t i = 0; i < group->count; ++i) {
    if (group->levels[i] != level || !ranges_overlap(&group->segments[i], segment)) {
      continue;
    }
    if (!new_level && overlaps_level(group, &group->segments[i], level + 1u, i)) {
      for (uint32_t j = 0; j < group->count; ++j) {
        if (group->levels[j] != REMOVED_LEVEL && group->levels[j] > level) {
          ++group->levels[j];
        }
      }
      new_level = true;
    }
    group->levels[i] = (uint8_t)(level + 1u);
  }
  group->segments[slot] = *segment;
  group->levels[slot] = (uint8_t)level;
  if (slot == group->count) {
    ++group->count;
  }
}

void leaftl_group_insert(leaftl_group_t *group, const leaftl_segment_t *segment,
                         const uint8_t *offsets, uint32_t count) {
  uint32_t bits[8];
  if (leaftl_segment_accurate(segment)) {
    leaftl_group_offsets(group, segment, bits);
  } else {
    memset(bits, 0, sizeof bits);
    for (uint32_t i = 0; i < count; ++i) {
      bits[offsets[i] >> 5] |= 1u << (offsets[i] & 31u);
    }
  }
  merge_into(group, segment, bits, 0, group->count);
  if (!leaftl_segment_accurate(segment)) {
    leaftl_crb_insert(&group->crb, offsets, count); /* its LPNs are out of every other run */
  }
  tidy(group);
}

bool leaftl_group_lookup(const leaftl_group_t *group, uint32_t offset, leaftl_segment_t *found,
                         uint32_t *levels_searched) {
  for (uint32_t level = 0; level < group->level_count; ++level) {
    /* The last segment at or before (level, offset). */
    uint32_t low = 0, high = group->count;
    while (low < high) {
      uint32_t middle = (low + high) / 2u;
      bool at_or_before = group->levels[middle] < level ||
                          (group->levels[middle] == level && group->segments[middle].start <= offset);
      if (at_or_before) {
        low = middle + 1u;
      } else {
        high = middle;
      }
    }
    if (low != 0 && group->levels[low - 1u] == level &&
        leaftl_segment_covers(&group->segments[low - 1u], offset, &group->crb)) {
      *found = group->segments[low - 1u];
      *levels_searched = level + 1u;
      return true;
    }
  }
  *levels_searched = group->level_count;
  return false;
}

void leaftl_group_compact(leaftl_group_t *group) {
  /* Newest first (a segment above another it overlaps is the newer): each keeps only the LPNs
   * no newer segment took, as repeated merges down the levels would leave it, and goes. */
  uint32_t taken[8] = {0};
  for (uint32_t i = 0; i < group->count; ++i) {
    uint32_t bits[8];
    leaftl_group_offsets(group, &group->segments[i], bits);
    if (!trim(group, &group->segments[i], taken)) {
      group->levels[i] = REMOVED_LEVEL;
    }
    for (uint32_t w = 0; w < 8u; ++w) {
      taken[w] |= bits[w];
    }
  }
  /* Then each sits right below the lowest newer segment it overlaps: the fewest levels. */
  uint8_t depth[LEAFTL_GROUP_LPNS] = {0}; /* per offset: 1 + the lowest level over it so far */
  for (uint32_t i = 0; i < group->count; ++i) {
    if (group->levels[i] == REMOVED_LEVEL) {
      continue;
    }
    const leaftl_segment_t *segment = &group->segments[i];
    uint32_t level = 0;
    for (uint32_t offset = segment->start; offset <= last_offset(segment); ++offset) {
      level = depth[offset] > level ? depth[offset] : level;
    }
    group->levels[i] = (uint8_t)level;
    for (uint32_t offset = segment->start; offset <= last_offset(segment); ++offset) {
      depth[offset] = (uint8_t)(level + 1u);
    }
  }
  tidy(group);
}

void leaftl_group_add_level_below(leaftl_group_t *group, const leaftl_segment_t *segments,
                                  uint32_t count) {
  /* Segments are stored by level: the new bottom level goes after the others. */
  for (uint32_t i = 0; i < count; ++i) {
    group->segments[group->count] = segments[i];
    group->levels[group->count] = (uint8_t)group->level_count;
    ++group->count;
  }
  if (count != 0) {
    ++group->level_count;
  }
}
