#include "ftl/block.h"

#include "boot_config.h"
#include "lib/bitmap.h"
#include "lib/metrics.h"

bool block_order_valid(uint32_t alloc_order) {
  uint32_t seen = 0;
  for (uint32_t position = 0; position < 4u; ++position) {
    seen |= 1u << BOOT_ALLOC_ORDER_LEVEL(alloc_order, position);
  }
  return seen == 0xFu && (alloc_order >> 8) == 0;
}

#define NO_SHIFT 0xFFu

static uint8_t shift_of(uint32_t value) {
  for (uint8_t shift = 0; shift < 32u; ++shift) {
    if (value == 1u << shift) {
      return shift;
    }
  }
  return NO_SHIFT;
}

bool block_init(block_manager_t *blocks, const nand_geometry_t *geometry, bool multi_plane,
                uint32_t alloc_order, arena_t *arena) {
  const nand_geometry_t *g = geometry;
  blocks->geometry = *g;
  blocks->unit_planes = multi_plane ? g->planes : 1u;
  blocks->level_size[BOOT_ALLOC_LEVEL_CHANNEL] = g->channels;
  blocks->level_size[BOOT_ALLOC_LEVEL_WAY] = g->ways;
  blocks->level_size[BOOT_ALLOC_LEVEL_DIE] = g->dies;
  blocks->level_size[BOOT_ALLOC_LEVEL_PLANE] = g->planes / blocks->unit_planes;
  for (uint32_t position = 0; position < 4u; ++position) {
    blocks->order[position] = BOOT_ALLOC_ORDER_LEVEL(alloc_order, position);
  }
  blocks->unit_count = g->channels * g->ways * g->dies * (g->planes / blocks->unit_planes);
  blocks->groups_per_unit = g->blocks;
  blocks->group_count = blocks->unit_count * g->blocks;
  blocks->wordlines = g->pages / g->bits_per_cell;
  blocks->pages_per_wordline_unit = g->bits_per_cell * blocks->unit_planes;
  blocks->retired_groups = 0;
  blocks->retired_valid_pages = 0;
  blocks->rescues_due = 0;
  blocks->gc_opens_most_worn = false;
  blocks->wl_static_spread = 0;
  blocks->page_shift = shift_of(g->pages);
  blocks->block_shift = shift_of(g->blocks);
  blocks->unit_plane_shift = shift_of(blocks->unit_planes);
  blocks->cursor = 0;
  for (uint32_t s = 0; s < BLOCK_STREAM_COUNT; ++s) {
    blocks->single_open[s] = BLOCK_NONE;
    blocks->stream_groups[s] = 0;
  }
  uint32_t total_pages = (uint32_t)nand_total_pages(g);
  blocks->groups = (block_group_t *)arena_alloc(arena, "block_groups",
                                                blocks->group_count * sizeof(block_group_t));
  blocks->free_count =
      (uint32_t *)arena_alloc(arena, "block_free_counts", blocks->unit_count * sizeof(uint32_t));
  blocks->valid_bitmap = (uint32_t *)arena_alloc(arena, "page_validity",
                                                 bitmap_words(total_pages) * sizeof(uint32_t));
  blocks->open_group = (uint32_t *)arena_alloc(arena, "block_open_groups",
                                               blocks->unit_count * sizeof(uint32_t));
  if (blocks->groups == 0 || blocks->free_count == 0 || blocks->valid_bitmap == 0 ||
      blocks->open_group == 0) {
    return false;
  }
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    blocks->free_count[u] = g->blocks;
  }
  blocks->free_total = blocks->group_count;
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    blocks->open_group[u] = BLOCK_NONE;
  }
  return true;
}

uint32_t block_unit_of_group(const block_manager_t *blocks, uint32_t group) {
  return group / blocks->groups_per_unit;
}

uint32_t block_group_of(const block_manager_t *blocks, uint32_t ppn) {
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t physical_block =
      blocks->page_shift != NO_SHIFT ? ppn >> blocks->page_shift : ppn / g->pages;
  uint32_t global_plane = blocks->block_shift != NO_SHIFT ? physical_block >> blocks->block_shift
                                                          : physical_block / g->blocks;
  uint32_t block = physical_block - global_plane * g->blocks;
  /* A unit is unit_planes consecutive planes of one die (planes is a multiple of it). */
  uint32_t unit = blocks->unit_plane_shift != NO_SHIFT ? global_plane >> blocks->unit_plane_shift
                                                      : global_plane / blocks->unit_planes;
  return unit * g->blocks + block;
}

uint32_t block_group_ppn(const block_manager_t *blocks, uint32_t group, uint32_t page) {
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t unit = group / g->blocks;
  uint32_t block = group % g->blocks;
  uint32_t units_per_die = g->planes / blocks->unit_planes;
  uint32_t die = unit / units_per_die;
  uint32_t plane = (unit % units_per_die) * blocks->unit_planes;
  uint32_t global_plane = die * g->planes + plane;
  return (global_plane * g->blocks + block) * g->pages + page;
}

uint32_t block_program_page_ppn(const block_manager_t *blocks, uint32_t first, uint32_t i) {
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t plane = i / g->bits_per_cell;
  return first + plane * g->blocks * g->pages + i % g->bits_per_cell;
}

/* The unit at striping position `position`: the first level of the order varies fastest. */
static uint32_t unit_at(const block_manager_t *blocks, uint32_t position) {
  uint32_t coordinate[4];
  for (uint32_t i = 0; i < 4u; ++i) {
    uint32_t level = blocks->order[i];
    coordinate[level] = position % blocks->level_size[level];
    position /= blocks->level_size[level];
  }
  uint32_t unit = coordinate[BOOT_ALLOC_LEVEL_CHANNEL];
  unit = unit * blocks->level_size[BOOT_ALLOC_LEVEL_WAY] + coordinate[BOOT_ALLOC_LEVEL_WAY];
  unit = unit * blocks->level_size[BOOT_ALLOC_LEVEL_DIE] + coordinate[BOOT_ALLOC_LEVEL_DIE];
  return unit * blocks->level_size[BOOT_ALLOC_LEVEL_PLANE] + coordinate[BOOT_ALLOC_LEVEL_PLANE];
}

/* Dynamic wear levelling: the free group of the unit with the fewest erases, or with
 * `most_worn` the most (the lowest index among equals, so runs are deterministic). */
static uint32_t free_group_by_wear(const block_manager_t *blocks, uint32_t unit, bool most_worn) {
  uint32_t best = BLOCK_NONE;
  uint32_t first = unit * blocks->groups_per_unit;
  for (uint32_t group = first; group < first + blocks->groups_per_unit; ++group) {
    const block_group_t *candidate = &blocks->groups[group];
    if (candidate->state != BLOCK_FREE) {
      continue;
    }
    uint32_t best_erases = best == BLOCK_NONE ? 0 : blocks->groups[best].erase_count;
    if (best == BLOCK_NONE || (most_worn ? candidate->erase_count > best_erases
                                         : candidate->erase_count < best_erases)) {
      best = group;
    }
  }
  return best;
}

/* Opens a free group of `unit` for `stream` (the least-worn, unless the GC stream wants the
 * most-worn); BLOCK_NONE when it has none. */
static uint32_t open_group_in(block_manager_t *blocks, uint32_t unit, block_stream_t stream) {
  bool most_worn = stream == BLOCK_STREAM_GC && blocks->gc_opens_most_worn;
  uint32_t group = free_group_by_wear(blocks, unit, most_worn);
  if (group != BLOCK_NONE) {
    block_group_t *opened = &blocks->groups[group];
    opened->state = BLOCK_OPEN;
    opened->stream = (uint8_t)stream;
    opened->next_wordline = 0;
    ++blocks->stream_groups[stream];
    --blocks->free_count[unit];
    --blocks->free_total;
  }
  return group;
}

/* Takes the next wordline of an open group; `*open` becomes BLOCK_NONE when the group fills. */
static uint32_t take_wordline(block_manager_t *blocks, uint32_t *open) {
  block_group_t *target = &blocks->groups[*open];
  uint32_t wordline = target->next_wordline++;
  target->unsettled_pages += (uint16_t)blocks->pages_per_wordline_unit;
  uint32_t ppn = block_group_ppn(blocks, *open, wordline * blocks->geometry.bits_per_cell);
  if (target->next_wordline == blocks->wordlines) {
    target->state = BLOCK_FULL;
    *open = BLOCK_NONE;
  }
  return ppn;
}

static uint32_t alloc_host_wordline(block_manager_t *blocks, uint32_t keep_free) {
  for (uint32_t tried = 0; tried < blocks->unit_count; ++tried) {
    uint32_t position = blocks->cursor;
    blocks->cursor = (position + 1u) % blocks->unit_count;
    uint32_t unit = unit_at(blocks, position);
    uint32_t *open = &blocks->open_group[unit];
    if (*open == BLOCK_NONE) {
      if (blocks->free_count[unit] <= keep_free) {
        continue;
      }
      *open = open_group_in(blocks, unit, BLOCK_STREAM_HOST);
      if (*open == BLOCK_NONE) {
        continue;
      }
    }
    return take_wordline(blocks, open);
  }
  return BLOCK_NONE;
}

/* The unit with the most free groups, more than keep_free (the first of equals); BLOCK_NONE
 * when none has that many. */
static uint32_t richest_unit(const block_manager_t *blocks, uint32_t keep_free) {
  uint32_t richest = BLOCK_NONE;
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    if (blocks->free_count[u] > keep_free &&
        (richest == BLOCK_NONE || blocks->free_count[u] > blocks->free_count[richest])) {
      richest = u;
    }
  }
  return richest;
}

/* The unit, among those with more than keep_free free groups, whose least-worn free group lags
 * the most worn group by more than wl_static_spread (the youngest such group's unit); BLOCK_NONE
 * when there is none, or static wear levelling is off. */
static uint32_t unit_with_lagging_free(const block_manager_t *blocks, uint32_t keep_free) {
  if (blocks->wl_static_spread == 0) {
    return BLOCK_NONE;
  }
  uint32_t max_erases = block_wear(blocks).max;
  uint32_t lagging_unit = BLOCK_NONE;
  uint32_t fewest_erases = 0;
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    if (blocks->free_count[u] <= keep_free) {
      continue;
    }
    uint32_t erases = blocks->groups[free_group_by_wear(blocks, u, false)].erase_count;
    if (erases + blocks->wl_static_spread < max_erases &&
        (lagging_unit == BLOCK_NONE || erases < fewest_erases)) {
      lagging_unit = u;
      fewest_erases = erases;
    }
  }
  return lagging_unit;
}

uint32_t block_alloc_wordline(block_manager_t *blocks, block_stream_t stream, uint32_t keep_free) {
  if (stream == BLOCK_STREAM_HOST) {
    return alloc_host_wordline(blocks, keep_free);
  }
  uint32_t *open = &blocks->single_open[stream];
  if (*open == BLOCK_NONE) {
    uint32_t unit = BLOCK_NONE;
    if (stream == BLOCK_STREAM_GC && !blocks->gc_opens_most_worn) {
      unit = unit_with_lagging_free(blocks, keep_free);
    }
    if (unit == BLOCK_NONE) {
      unit = richest_unit(blocks, keep_free);
    }
    if (unit == BLOCK_NONE) {
      return BLOCK_NONE;
    }
    *open = open_group_in(blocks, unit, stream);
    if (*open == BLOCK_NONE) {
      return BLOCK_NONE;
    }
  }
  return take_wordline(blocks, open);
}

/* The retired group's validity is final (every page settled): due for a rescue if it holds
 * data. */
static void consider_rescue(block_manager_t *blocks, block_group_t *retired) {
  if (retired->unsettled_pages == 0 && retired->valid_pages != 0 && !retired->rescue_due) {
    retired->rescue_due = 1;
    ++blocks->rescues_due;
  }
}

void block_page_settled(block_manager_t *blocks, uint32_t ppn) {
  block_group_t *g = &blocks->groups[block_group_of(blocks, ppn)];
  if (--g->unsettled_pages == 0 && g->state == BLOCK_RETIRED) {
    consider_rescue(blocks, g);
  }
}

void block_wordline_settled(block_manager_t *blocks, uint32_t first) {
  for (uint32_t i = 0; i < blocks->pages_per_wordline_unit; ++i) {
    block_page_settled(blocks, block_program_page_ppn(blocks, first, i));
  }
}

void block_program_failed(block_manager_t *blocks, uint32_t first) {
  block_retire(blocks, block_group_of(blocks, first));
  block_wordline_settled(blocks, first);
}

bool block_collectable(const block_manager_t *blocks, uint32_t group) {
  const block_group_t *candidate = &blocks->groups[group];
  return candidate->state == BLOCK_FULL && candidate->unsettled_pages == 0;
}

void block_register_metrics(const block_manager_t *blocks) {
  metrics_counter32("retired.groups", &blocks->retired_groups);
  metrics_gauge32("retired.valid_pages_left", &blocks->retired_valid_pages);
  metrics_gauge32("blocks.free_groups", &blocks->free_total);
  metrics_gauge32("blocks.host_groups", &blocks->stream_groups[BLOCK_STREAM_HOST]);
  metrics_gauge32("blocks.gc_groups", &blocks->stream_groups[BLOCK_STREAM_GC]);
  metrics_gauge32("blocks.translation_groups", &blocks->stream_groups[BLOCK_STREAM_TRANSLATION]);
}

void block_page_validate(block_manager_t *blocks, uint32_t ppn) {
  if (!bitmap_test(blocks->valid_bitmap, ppn)) {
    bitmap_set(blocks->valid_bitmap, ppn);
    block_group_t *g = &blocks->groups[block_group_of(blocks, ppn)];
    ++g->valid_pages;
    if (g->state == BLOCK_RETIRED) {
      ++blocks->retired_valid_pages;
    }
  }
}

void block_page_invalidate(block_manager_t *blocks, uint32_t ppn) {
  if (bitmap_test(blocks->valid_bitmap, ppn)) {
    bitmap_clear(blocks->valid_bitmap, ppn);
    block_group_t *g = &blocks->groups[block_group_of(blocks, ppn)];
    --g->valid_pages;
    if (g->state == BLOCK_RETIRED) {
      --blocks->retired_valid_pages;
    }
  }
}

bool block_page_valid(const block_manager_t *blocks, uint32_t ppn) {
  return bitmap_test(blocks->valid_bitmap, ppn);
}

void block_mark_victim(block_manager_t *blocks, uint32_t group) {
  blocks->groups[group].state = BLOCK_VICTIM;
}

void block_erased(block_manager_t *blocks, uint32_t group) {
  block_group_t *erased = &blocks->groups[group];
  const nand_geometry_t *g = &blocks->geometry;
  /* The planes of a group are consecutive in PPN order, a whole plane (blocks * pages) apart. */
  uint32_t first = block_group_ppn(blocks, group, 0);
  for (uint32_t plane = 0; plane < blocks->unit_planes; ++plane) {
    bitmap_clear_range(blocks->valid_bitmap, first + plane * g->blocks * g->pages, g->pages);
  }
  erased->valid_pages = 0;
  erased->state = BLOCK_FREE;
  --blocks->stream_groups[erased->stream];
  ++erased->erase_count;
  ++blocks->free_count[block_unit_of_group(blocks, group)];
  ++blocks->free_total;
}

void block_retire(block_manager_t *blocks, uint32_t group) {
  block_group_t *retired = &blocks->groups[group];
  uint32_t unit = block_unit_of_group(blocks, group);
  if (retired->state == BLOCK_RETIRED) {
    return; /* two programs in flight on the group both failed */
  }
  if (retired->state == BLOCK_FREE) {
    --blocks->free_count[unit];
    --blocks->free_total;
  } else {
    --blocks->stream_groups[retired->stream];
  }
  if (retired->state == BLOCK_OPEN) {
    uint32_t *open = retired->stream == BLOCK_STREAM_HOST ? &blocks->open_group[unit]
                                                          : &blocks->single_open[retired->stream];
    *open = BLOCK_NONE;
  }
  retired->state = BLOCK_RETIRED;
  ++blocks->retired_groups;
  blocks->retired_valid_pages += retired->valid_pages;
  consider_rescue(blocks, retired);
}

uint32_t block_take_rescue(block_manager_t *blocks, bool data_only) {
  if (blocks->rescues_due == 0) {
    return BLOCK_NONE;
  }
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    block_group_t *g = &blocks->groups[group];
    if (g->rescue_due && !(data_only && g->stream == BLOCK_STREAM_TRANSLATION)) {
      g->rescue_due = 0;
      --blocks->rescues_due;
      return group;
    }
  }
  return BLOCK_NONE;
}

uint32_t block_min_free(const block_manager_t *blocks) {
  uint32_t fewest = blocks->free_count[0];
  for (uint32_t u = 1; u < blocks->unit_count; ++u) {
    if (blocks->free_count[u] < fewest) {
      fewest = blocks->free_count[u];
    }
  }
  return fewest;
}

uint32_t block_max_open_groups(const block_manager_t *blocks) {
  return blocks->unit_count + (BLOCK_STREAM_COUNT - 1u);
}

block_wear_t block_wear(const block_manager_t *blocks) {
  block_wear_t wear = {0xFFFFFFFFu, 0, 0, 0};
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    const block_group_t *g = &blocks->groups[group];
    if (g->state == BLOCK_RETIRED) {
      continue;
    }
    wear.min = g->erase_count < wear.min ? g->erase_count : wear.min;
    wear.max = g->erase_count > wear.max ? g->erase_count : wear.max;
    wear.sum += g->erase_count;
    ++wear.groups;
  }
  if (wear.groups == 0) {
    wear.min = 0;
  }
  return wear;
}
