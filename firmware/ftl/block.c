#include "ftl/block.h"

#include <string.h>

#include "boot_config.h"
#include "ftl/policy.h"
#include "lib/bitmap.h"
#include "lib/format.h"
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

/* The unit at striping position `position`: the first level of the order varies fastest. */
static uint32_t unit_at(const uint32_t level_size[4], const uint32_t order[4], uint32_t position) {
  uint32_t coordinate[4];
  for (uint32_t i = 0; i < 4u; ++i) {
    uint32_t level = order[i];
    coordinate[level] = position % level_size[level];
    position /= level_size[level];
  }
  uint32_t unit = coordinate[BOOT_ALLOC_LEVEL_CHANNEL];
  unit = unit * level_size[BOOT_ALLOC_LEVEL_WAY] + coordinate[BOOT_ALLOC_LEVEL_WAY];
  unit = unit * level_size[BOOT_ALLOC_LEVEL_DIE] + coordinate[BOOT_ALLOC_LEVEL_DIE];
  return unit * level_size[BOOT_ALLOC_LEVEL_PLANE] + coordinate[BOOT_ALLOC_LEVEL_PLANE];
}

/* The winner trees (block.h). An absent leaf has the largest key and index: it loses every
 * match. */
#define ABSENT_KEY 0xFFFFFFFFu

/* The winner of a match: the smaller key, the lower index among equals. */
static uint32_t match(uint32_t a, uint32_t a_key, uint32_t b, uint32_t b_key) {
  return a_key < b_key || (a_key == b_key && a < b) ? a : b;
}

static uint32_t valid_key(const block_manager_t *blocks, uint32_t stripe) {
  return stripe == BLOCK_NONE ? ABSENT_KEY : block_stripe_kept_pages(blocks, stripe);
}

static uint32_t wear_key(const block_manager_t *blocks, uint32_t stripe) {
  return stripe == BLOCK_NONE ? ABSENT_KEY : blocks->stripes[stripe].wear;
}

/* The winners at a node of the victim tree; a leaf's are its stripe while collectable. */
static block_victim_node_t victim_winners(const block_manager_t *blocks, uint32_t node) {
  if (node < blocks->stripe_count) {
    return blocks->victim_tree[node];
  }
  uint32_t stripe = node - blocks->stripe_count;
  uint32_t candidate = block_collectable(blocks, stripe) ? stripe : BLOCK_NONE;
  return (block_victim_node_t){candidate, candidate};
}

static void victim_match(block_manager_t *blocks, uint32_t node) {
  block_victim_node_t left = victim_winners(blocks, 2u * node);
  block_victim_node_t right = victim_winners(blocks, 2u * node + 1u);
  block_victim_node_t *winners = &blocks->victim_tree[node];
  winners->fewest_valid = match(left.fewest_valid, valid_key(blocks, left.fewest_valid),
                                right.fewest_valid, valid_key(blocks, right.fewest_valid));
  winners->coldest = match(left.coldest, wear_key(blocks, left.coldest), right.coldest,
                           wear_key(blocks, right.coldest));
}

/* The stripe became collectable, stopped being, or gained a valid page. Out of line, like
 * page_invalidated, and the page paths call them last: those run for every page, mostly on
 * stripes that are not collectable, and stay leaf functions with a tail call. */
/* The stripe's place in the utilisation distribution after a change of its valid pages or of
 * whether it is collectable. */
static void utilisation_follow(block_manager_t *blocks, uint32_t stripe) {
  block_stripe_t *followed = &blocks->stripes[stripe];
  uint32_t bucket = BLOCK_UTILISATION_NONE;
  if (block_collectable(blocks, stripe)) {
    bucket = block_divide(followed->valid_pages, blocks->utilisation_width,
                          blocks->utilisation_shift);
    if (bucket >= BLOCK_UTILISATION_BUCKETS) {
      bucket = BLOCK_UTILISATION_BUCKETS - 1u;
    }
  }
  if (bucket != followed->utilisation_bucket) {
    if (followed->utilisation_bucket != BLOCK_UTILISATION_NONE) {
      --blocks->utilisation[followed->utilisation_bucket];
    }
    if (bucket != BLOCK_UTILISATION_NONE) {
      ++blocks->utilisation[bucket];
    }
    followed->utilisation_bucket = (uint8_t)bucket;
  }
}

/* Every change of a stripe's candidacy or valid count passes here or through victim_lowered. */
static __attribute__((noinline)) void victim_replay(block_manager_t *blocks, uint32_t stripe) {
  utilisation_follow(blocks, stripe);
  for (uint32_t node = (blocks->stripe_count + stripe) >> 1; node != 0; node >>= 1) {
    victim_match(blocks, node);
  }
}

/* A collectable stripe lost a valid page: it may win more matches than before, and above the
 * first one it still loses nothing changes (the rival there beats everything it beat). */
static void victim_lowered(block_manager_t *blocks, uint32_t stripe) {
  utilisation_follow(blocks, stripe);
  uint32_t valid = block_stripe_kept_pages(blocks, stripe);
  for (uint32_t node = (blocks->stripe_count + stripe) >> 1; node != 0; node >>= 1) {
    uint32_t *winner = &blocks->victim_tree[node].fewest_valid;
    uint32_t rival = *winner; /* never absent: the stripe itself is below */
    if (rival != stripe) {
      uint32_t rival_valid = block_stripe_kept_pages(blocks, rival);
      if (rival_valid < valid || (rival_valid == valid && rival < stripe)) {
        return;
      }
      *winner = stripe;
    }
  }
}

/* The pool trees' keys, over the groups of one unit: the erase count, and its complement for
 * the most worn (a group never erased then ties with an absent leaf and wins by its index). */
static uint32_t erases_key(const block_group_t *unit_groups, uint32_t local) {
  return local == BLOCK_NONE ? ABSENT_KEY : unit_groups[local].erase_count;
}

static uint32_t most_erases_key(const block_group_t *unit_groups, uint32_t local) {
  return local == BLOCK_NONE ? ABSENT_KEY : ~unit_groups[local].erase_count;
}

/* The winners at a node of a unit's pool tree; a leaf's are its group while free. */
static block_pool_node_t pool_winners(const block_manager_t *blocks, uint32_t unit,
                                      uint32_t node) {
  uint32_t first = unit * blocks->groups_per_unit;
  if (node < blocks->groups_per_unit) {
    return blocks->pool_trees[first + node];
  }
  uint32_t local = node - blocks->groups_per_unit;
  uint32_t candidate = blocks->groups[first + local].state == BLOCK_GROUP_FREE ? local : BLOCK_NONE;
  return (block_pool_node_t){candidate, candidate};
}

static void pool_match(block_manager_t *blocks, uint32_t unit, uint32_t node) {
  uint32_t first = unit * blocks->groups_per_unit;
  const block_group_t *unit_groups = &blocks->groups[first];
  block_pool_node_t left = pool_winners(blocks, unit, 2u * node);
  block_pool_node_t right = pool_winners(blocks, unit, 2u * node + 1u);
  block_pool_node_t *winners = &blocks->pool_trees[first + node];
  winners->least_worn = match(left.least_worn, erases_key(unit_groups, left.least_worn),
                              right.least_worn, erases_key(unit_groups, right.least_worn));
  winners->most_worn = match(left.most_worn, most_erases_key(unit_groups, left.most_worn),
                             right.most_worn, most_erases_key(unit_groups, right.most_worn));
}

/* The group (of `unit`) joined its pool or left it. */
static void pool_replay(block_manager_t *blocks, uint32_t unit, uint32_t group) {
  uint32_t local = group - unit * blocks->groups_per_unit;
  for (uint32_t node = (blocks->groups_per_unit + local) >> 1; node != 0; node >>= 1) {
    pool_match(blocks, unit, node);
  }
}

bool block_init(block_manager_t *blocks, const nand_geometry_t *geometry, bool multi_plane,
                uint32_t alloc_order, uint32_t stream_capacity, arena_t *arena) {
  return block_init_placed(blocks, geometry, multi_plane, alloc_order, stream_capacity, arena,
                           arena);
}

bool block_init_placed(block_manager_t *blocks, const nand_geometry_t *geometry,
                       bool multi_plane, uint32_t alloc_order, uint32_t stream_capacity,
                       arena_t *arena, arena_t *tables) {
  const nand_geometry_t *g = geometry;
  blocks->geometry = *g;
  blocks->unit_planes = multi_plane ? g->planes : 1u;
  uint32_t level_size[4];
  uint32_t order[4];
  level_size[BOOT_ALLOC_LEVEL_CHANNEL] = g->channels;
  level_size[BOOT_ALLOC_LEVEL_WAY] = g->ways;
  level_size[BOOT_ALLOC_LEVEL_DIE] = g->dies;
  level_size[BOOT_ALLOC_LEVEL_PLANE] = g->planes / blocks->unit_planes;
  for (uint32_t position = 0; position < 4u; ++position) {
    order[position] = BOOT_ALLOC_ORDER_LEVEL(alloc_order, position);
  }
  blocks->unit_count = g->channels * g->ways * g->dies * (g->planes / blocks->unit_planes);
  blocks->groups_per_unit = g->blocks;
  blocks->group_count = blocks->unit_count * g->blocks;
  blocks->wordlines = g->pages / g->bits_per_cell;
  blocks->pages_per_program = g->bits_per_cell * blocks->unit_planes;
  blocks->stripe_count = g->blocks;
  blocks->programs_per_stripe = blocks->wordlines * blocks->unit_count;
  blocks->stripe_pages = blocks->programs_per_stripe * blocks->pages_per_program;
  blocks->retired_groups = 0;
  blocks->retired_valid_pages = 0;
  memset(blocks->utilisation, 0, sizeof blocks->utilisation);
  blocks->utilisation_width = blocks->stripe_pages / (BLOCK_UTILISATION_BUCKETS - 1u);
  if (blocks->utilisation_width == 0) {
    blocks->utilisation_width = 1;
  }
  blocks->rescues_due = 0;
  blocks->gc_opens_most_worn = false;
  blocks->stripe_shift = shift_of(blocks->stripe_pages);
  blocks->program_shift = shift_of(blocks->pages_per_program);
  blocks->position_shift = shift_of(blocks->unit_count);
  blocks->bits_shift = shift_of(g->bits_per_cell);
  blocks->page_shift = shift_of(g->pages);
  blocks->block_shift = shift_of(g->blocks);
  blocks->utilisation_shift = shift_of(blocks->utilisation_width);
  blocks->vpn_shifts = blocks->stripe_shift != NO_SHIFT && blocks->program_shift != NO_SHIFT &&
                       blocks->position_shift != NO_SHIFT && blocks->bits_shift != NO_SHIFT;
  blocks->plane_stride = g->blocks * g->pages;
  blocks->stream_count = 0;
  blocks->stream_capacity = stream_capacity;
  blocks->streams = (block_stream_state_t *)arena_alloc(
      arena, "block_streams", stream_capacity * sizeof(block_stream_state_t));
  uint32_t total_pages = (uint32_t)nand_total_pages(g);
  blocks->position_unit = (uint32_t *)arena_alloc(arena, "block_positions",
                                                  blocks->unit_count * sizeof(uint32_t));
  blocks->groups = (block_group_t *)arena_alloc(tables, "block_groups",
                                                blocks->group_count * sizeof(block_group_t));
  blocks->stripes = (block_stripe_t *)arena_alloc(tables, "block_stripes",
                                                  blocks->stripe_count * sizeof(block_stripe_t));
  blocks->members = (block_member_t *)arena_alloc(tables, "block_stripe_members",
                                                  blocks->group_count * sizeof(block_member_t));
  blocks->free_count =
      (uint32_t *)arena_alloc(arena, "block_free_counts", blocks->unit_count * sizeof(uint32_t));
  blocks->free_stripes = (uint32_t *)arena_alloc(tables, "block_free_stripes",
                                                 blocks->stripe_count * sizeof(uint32_t));
  blocks->valid_bitmap = (uint32_t *)arena_alloc(tables, "page_validity",
                                                 bitmap_words(total_pages) * sizeof(uint32_t));
  blocks->victim_tree = (block_victim_node_t *)arena_alloc(
      tables, "block_victim_tree", blocks->stripe_count * sizeof(block_victim_node_t));
  blocks->pool_trees = (block_pool_node_t *)arena_alloc(
      tables, "block_pool_trees", blocks->group_count * sizeof(block_pool_node_t));
  if (blocks->streams == 0 || blocks->position_unit == 0 || blocks->groups == 0 ||
      blocks->stripes == 0 || blocks->members == 0 || blocks->free_count == 0 ||
      blocks->free_stripes == 0 || blocks->valid_bitmap == 0 || blocks->victim_tree == 0 ||
      blocks->pool_trees == 0 ||
      block_stream_add(blocks, "host") != BLOCK_STREAM_HOST ||
      block_stream_add(blocks, "gc") != BLOCK_STREAM_GC ||
      block_stream_add(blocks, "translation") != BLOCK_STREAM_TRANSLATION) {
    return false;
  }
  for (uint32_t position = 0; position < blocks->unit_count; ++position) {
    blocks->position_unit[position] = unit_at(level_size, order, position);
  }
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    blocks->free_count[u] = g->blocks;
  }
  blocks->free_total = blocks->group_count;
  for (uint32_t i = 0; i < blocks->group_count; ++i) {
    blocks->members[i].first_ppn = BLOCK_NONE;
  }
  /* A stack: stripe 0 opens first. */
  for (uint32_t s = 0; s < blocks->stripe_count; ++s) {
    blocks->free_stripes[s] = blocks->stripe_count - 1u - s;
    blocks->stripes[s].utilisation_bucket = BLOCK_UTILISATION_NONE;
  }
  blocks->free_stripe_count = blocks->stripe_count;
  /* Children before parents: no stripe is collectable yet, every group is free. */
  for (uint32_t node = blocks->stripe_count - 1u; node != 0; --node) {
    victim_match(blocks, node);
  }
  for (uint32_t u = 0; u < blocks->unit_count; ++u) {
    for (uint32_t node = blocks->groups_per_unit - 1u; node != 0; --node) {
      pool_match(blocks, u, node);
    }
  }
  return true;
}

block_stream_t block_stream_add(block_manager_t *blocks, const char *name) {
  if (blocks->stream_count == blocks->stream_capacity) {
    return BLOCK_NONE;
  }
  block_stream_state_t *stream = &blocks->streams[blocks->stream_count];
  stream->metric_name[0] = '\0';
  if (name != 0) {
    int length = fw_snprintf(stream->metric_name, sizeof stream->metric_name,
                             "blocks.%s_groups", name);
    if (length < 0 || (uint32_t)length >= sizeof stream->metric_name) {
      return BLOCK_NONE; /* the gauge's name would be cut */
    }
  }
  stream->open_stripe = BLOCK_NONE;
  stream->groups = 0;
  return blocks->stream_count++;
}

uint32_t block_group_of(const block_manager_t *blocks, uint32_t ppn) {
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t physical_block = block_divide(ppn, g->pages, blocks->page_shift);
  uint32_t global_plane = block_divide(physical_block, g->blocks, blocks->block_shift);
  uint32_t block = physical_block - global_plane * g->blocks;
  /* A unit is unit_planes consecutive planes of one die (planes is a multiple of it). */
  return (global_plane / blocks->unit_planes) * g->blocks + block;
}

uint32_t block_group_ppn(const block_manager_t *blocks, uint32_t group, uint32_t page) {
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t unit = group / g->blocks;
  uint32_t block = group % g->blocks;
  uint32_t global_plane = unit * blocks->unit_planes;
  return (global_plane * g->blocks + block) * g->pages + page;
}

static block_member_t *member_at(const block_manager_t *blocks, uint32_t stripe,
                                 uint32_t position) {
  return &blocks->members[stripe * blocks->unit_count + position];
}

/* A member takes programs: it has a group, not retired. */
static bool member_live(const block_member_t *member) {
  return member->first_ppn != BLOCK_NONE && !member->retired;
}

uint32_t block_member_of(const block_manager_t *blocks, uint32_t vpn) {
  if (blocks->vpn_shifts) {
    return ((vpn >> blocks->stripe_shift) << blocks->position_shift) +
           ((vpn >> blocks->program_shift) & (blocks->unit_count - 1u));
  }
  uint32_t stripe = block_stripe_of(blocks, vpn);
  uint32_t program = block_divide(vpn - stripe * blocks->stripe_pages, blocks->pages_per_program,
                                  blocks->program_shift);
  uint32_t wordline = block_divide(program, blocks->unit_count, blocks->position_shift);
  return stripe * blocks->unit_count + (program - wordline * blocks->unit_count);
}

uint32_t block_member_page_vpn(const block_manager_t *blocks, uint32_t member, uint32_t page) {
  uint32_t stripe = block_divide(member, blocks->unit_count, blocks->position_shift);
  uint32_t position = member - stripe * blocks->unit_count;
  uint32_t wordline = block_divide(page, blocks->pages_per_program, blocks->program_shift);
  uint32_t program = wordline * blocks->unit_count + position;
  return stripe * blocks->stripe_pages + program * blocks->pages_per_program +
         (page - wordline * blocks->pages_per_program);
}

/* block_vpn_to_ppn when every divisor is a power of two. */
static uint32_t vpn_to_ppn_by_shifts(const block_manager_t *blocks, uint32_t vpn) {
  uint32_t offset = vpn & (blocks->stripe_pages - 1u);
  uint32_t program = offset >> blocks->program_shift;
  uint32_t page = offset & (blocks->pages_per_program - 1u);
  uint32_t wordline = program >> blocks->position_shift;
  uint32_t member = ((vpn >> blocks->stripe_shift) << blocks->position_shift) +
                    (program & (blocks->unit_count - 1u));
  uint32_t plane = page >> blocks->bits_shift;
  return blocks->members[member].first_ppn + plane * blocks->plane_stride +
         (wordline << blocks->bits_shift) + (page & (blocks->geometry.bits_per_cell - 1u));
}

uint32_t block_vpn_to_ppn(const block_manager_t *blocks, uint32_t vpn) {
  if (blocks->vpn_shifts) {
    return vpn_to_ppn_by_shifts(blocks, vpn);
  }
  const nand_geometry_t *g = &blocks->geometry;
  uint32_t stripe = block_stripe_of(blocks, vpn);
  uint32_t offset = vpn - stripe * blocks->stripe_pages;
  uint32_t program = block_divide(offset, blocks->pages_per_program, blocks->program_shift);
  uint32_t page = offset - program * blocks->pages_per_program;
  uint32_t wordline = block_divide(program, blocks->unit_count, blocks->position_shift);
  uint32_t position = program - wordline * blocks->unit_count;
  uint32_t first = member_at(blocks, stripe, position)->first_ppn;
  /* A program's pages are plane-major: bits_per_cell pages of each plane in turn, the planes a
   * whole plane (blocks * pages) apart. */
  uint32_t plane = page / g->bits_per_cell;
  return first + plane * blocks->plane_stride + wordline * g->bits_per_cell +
         (page - plane * g->bits_per_cell);
}

uint32_t block_free_group_by_wear(const block_manager_t *blocks, uint32_t unit, bool most_worn) {
  block_pool_node_t root = pool_winners(blocks, unit, 1u);
  uint32_t local = most_worn ? root.most_worn : root.least_worn;
  return local == BLOCK_NONE ? BLOCK_NONE : unit * blocks->groups_per_unit + local;
}

/* The first program at or after `program` whose member takes programs. */
static uint32_t next_live_program(const block_manager_t *blocks, uint32_t stripe,
                                  uint32_t program) {
  for (; program < blocks->programs_per_stripe; ++program) {
    uint32_t wordline = block_divide(program, blocks->unit_count, blocks->position_shift);
    if (member_live(member_at(blocks, stripe, program - wordline * blocks->unit_count))) {
      break;
    }
  }
  return program;
}

/* Opens a free stripe for `stream` with a free group of every unit that has one; BLOCK_NONE
 * when no stripe is free or no unit has a free group. */
static uint32_t open_stripe(block_manager_t *blocks, block_stream_t stream) {
  if (blocks->free_stripe_count == 0) {
    return BLOCK_NONE;
  }
  uint32_t stripe = blocks->free_stripes[blocks->free_stripe_count - 1u];
  bool most_worn = stream == BLOCK_STREAM_GC && blocks->gc_opens_most_worn;
  uint32_t youngest = 0xFFFFFFFFu;
  uint32_t members = 0;
  for (uint32_t position = 0; position < blocks->unit_count; ++position) {
    uint32_t unit = blocks->position_unit[position];
    /* Dynamic wear levelling (or, for the GC stream, static). */
    uint32_t group = block_free_group_by_wear(blocks, unit, most_worn);
    block_member_t *member = member_at(blocks, stripe, position);
    member->first_ppn = group == BLOCK_NONE ? BLOCK_NONE : block_group_ppn(blocks, group, 0);
    member->valid_pages = 0;
    member->unsettled_pages = 0;
    member->retired = 0;
    member->rescue = BLOCK_RESCUE_NONE;
    if (group != BLOCK_NONE) {
      blocks->groups[group].state = BLOCK_GROUP_MEMBER;
      pool_replay(blocks, unit, group);
      if (blocks->groups[group].erase_count < youngest) {
        youngest = blocks->groups[group].erase_count;
      }
      ++members;
      --blocks->free_count[unit];
      --blocks->free_total;
    }
  }
  if (members == 0) {
    return BLOCK_NONE;
  }
  --blocks->free_stripe_count;
  block_stripe_t *opened = &blocks->stripes[stripe];
  opened->valid_pages = 0;
  opened->unsettled_pages = 0;
  opened->programmed_pages = 0;
  opened->next_program = next_live_program(blocks, stripe, 0);
  opened->wear = youngest;
  opened->members = (uint16_t)members;
  opened->state = BLOCK_OPEN;
  opened->stream = (uint16_t)stream;
  blocks->streams[stream].groups += members;
  if (policy_heard(POLICY_STRIPE_OPENED)) {
    policy_event_t event = {.kind = POLICY_STRIPE_OPENED, .stripe = stripe, .stream = stream};
    policy_emit(&event);
  }
  return stripe;
}

/* No program is left for the stripe: FULL, and no longer its stream's. Its last program is not
 * settled yet: block_page_settled makes it collectable. */
static void fill_stripe(block_manager_t *blocks, uint32_t stripe) {
  block_stripe_t *full = &blocks->stripes[stripe];
  full->state = BLOCK_FULL;
  if (blocks->streams[full->stream].open_stripe == stripe) {
    blocks->streams[full->stream].open_stripe = BLOCK_NONE;
  }
  if (policy_heard(POLICY_STRIPE_FULL)) {
    policy_event_t event = {.kind = POLICY_STRIPE_FULL, .stripe = stripe, .stream = full->stream};
    policy_emit(&event);
  }
}

void block_stream_close(block_manager_t *blocks, block_stream_t stream) {
  uint32_t stripe = blocks->streams[stream].open_stripe;
  if (stripe == BLOCK_NONE || blocks->stripes[stripe].programmed_pages == 0) {
    return;
  }
  fill_stripe(blocks, stripe);
  if (blocks->stripes[stripe].unsettled_pages == 0) {
    victim_replay(blocks, stripe);
  }
}

/* The groups a stripe opened now would take: one of every unit that has a free group. */
static uint32_t units_with_free_group(const block_manager_t *blocks) {
  uint32_t units = 0;
  for (uint32_t unit = 0; unit < blocks->unit_count; ++unit) {
    units += blocks->free_count[unit] != 0;
  }
  return units;
}

uint32_t block_alloc_wordline(block_manager_t *blocks, block_stream_t stream, uint32_t keep_free) {
  uint32_t stripe = blocks->streams[stream].open_stripe;
  /* Free groups, not free stripes, measure the room: a unit short of groups (retired ones)
   * leaves stripes that open with a hole, or not at all. */
  uint32_t reserve = keep_free * blocks->unit_count;
  bool reserve_reached = blocks->free_total <= reserve;
  if (stripe == BLOCK_NONE) {
    /* The reserve is left whole after the opening: once retired groups leave the pools uneven,
     * more than the reserve may be free while opening a stripe would still take some of it. */
    if (blocks->free_total < reserve + units_with_free_group(blocks)) {
      return BLOCK_NONE;
    }
    stripe = open_stripe(blocks, stream);
    if (stripe == BLOCK_NONE) {
      return BLOCK_NONE;
    }
    blocks->streams[stream].open_stripe = stripe;
    blocks->stripes[stripe].opened_keep_free = keep_free;
  } else if (reserve_reached && blocks->stripes[stripe].opened_keep_free < keep_free) {
    return BLOCK_NONE;
  }
  block_stripe_t *target = &blocks->stripes[stripe];
  uint32_t program = target->next_program;
  uint32_t wordline = block_divide(program, blocks->unit_count, blocks->position_shift);
  member_at(blocks, stripe, program - wordline * blocks->unit_count)->unsettled_pages +=
      (uint16_t)blocks->pages_per_program;
  target->unsettled_pages += blocks->pages_per_program;
  target->programmed_pages += blocks->pages_per_program;
  target->next_program = next_live_program(blocks, stripe, program + 1u);
  if (target->next_program == blocks->programs_per_stripe) {
    fill_stripe(blocks, stripe);
  }
  return stripe * blocks->stripe_pages + program * blocks->pages_per_program;
}

/* A retired member's validity is final (every page settled): due for a rescue if it holds
 * data. */
static void consider_rescue(block_manager_t *blocks, block_member_t *member) {
  if (member->retired && member->unsettled_pages == 0 && member->valid_pages != 0 &&
      member->rescue == BLOCK_RESCUE_NONE) {
    member->rescue = BLOCK_RESCUE_DUE;
    ++blocks->rescues_due;
  }
}

void block_page_settled(block_manager_t *blocks, uint32_t vpn) {
  block_member_t *member = &blocks->members[block_member_of(blocks, vpn)];
  if (--member->unsettled_pages == 0 && member->retired) {
    consider_rescue(blocks, member);
  }
  uint32_t stripe = block_stripe_of(blocks, vpn);
  block_stripe_t *settled = &blocks->stripes[stripe];
  if (--settled->unsettled_pages == 0 && settled->state == BLOCK_FULL) {
    victim_replay(blocks, stripe);
  }
}

void block_wordline_settled(block_manager_t *blocks, uint32_t first) {
  for (uint32_t i = 0; i < blocks->pages_per_program; ++i) {
    block_page_settled(blocks, first + i);
  }
}

void block_program_failed(block_manager_t *blocks, uint32_t first) {
  uint32_t stripe = block_stripe_of(blocks, first);
  block_stripe_t *failed = &blocks->stripes[stripe];
  block_member_t *member = &blocks->members[block_member_of(blocks, first)];
  /* Two programs in flight on the member may both fail: it is retired once. */
  if (!member->retired) {
    blocks->groups[block_group_of(blocks, member->first_ppn)].state = BLOCK_GROUP_RETIRED;
    member->retired = 1;
    ++blocks->retired_groups;
    blocks->retired_valid_pages += member->valid_pages;
    --blocks->streams[failed->stream].groups;
    --failed->members;
    if (failed->state == BLOCK_OPEN) {
      failed->next_program = next_live_program(blocks, stripe, failed->next_program);
      if (failed->next_program == blocks->programs_per_stripe) {
        fill_stripe(blocks, stripe);
      }
    }
  }
  block_wordline_settled(blocks, first);
  consider_rescue(blocks, member);
}

bool block_collectable(const block_manager_t *blocks, uint32_t stripe) {
  const block_stripe_t *candidate = &blocks->stripes[stripe];
  return candidate->state == BLOCK_FULL && candidate->unsettled_pages == 0;
}

uint32_t block_fewest_valid_collectable(const block_manager_t *blocks) {
  return victim_winners(blocks, 1u).fewest_valid;
}

uint32_t block_coldest_collectable(const block_manager_t *blocks) {
  return victim_winners(blocks, 1u).coldest;
}

void block_register_metrics(const block_manager_t *blocks) {
  metrics_counter32("retired.groups", &blocks->retired_groups);
  metrics_gauge32("retired.valid_pages_left", &blocks->retired_valid_pages);
  metrics_gauge32("blocks.free_groups", &blocks->free_total);
  metrics_distribution32("blocks.utilisation", blocks->utilisation, BLOCK_UTILISATION_BUCKETS,
                         blocks->utilisation_width);
  for (uint32_t s = 0; s < blocks->stream_count; ++s) {
    if (blocks->streams[s].metric_name[0] != '\0') {
      metrics_gauge32(blocks->streams[s].metric_name, &blocks->streams[s].groups);
    }
  }
}

void block_page_validate(block_manager_t *blocks, uint32_t vpn) {
  if (!bitmap_test(blocks->valid_bitmap, vpn)) {
    bitmap_set(blocks->valid_bitmap, vpn);
    block_member_t *member = &blocks->members[block_member_of(blocks, vpn)];
    ++member->valid_pages;
    blocks->retired_valid_pages += member->retired;
    uint32_t stripe = block_stripe_of(blocks, vpn);
    ++blocks->stripes[stripe].valid_pages;
    if (block_collectable(blocks, stripe)) {
      victim_replay(blocks, stripe);
    }
  }
}

/* A page of the stripe stopped being valid: a collectable stripe climbs the ranking, and the
 * policies listening hear it. */
static __attribute__((noinline)) void page_invalidated(block_manager_t *blocks, uint32_t stripe,
                                                       uint32_t vpn) {
  if (block_collectable(blocks, stripe)) {
    victim_lowered(blocks, stripe);
  }
  if (policy_heard(POLICY_PAGE_INVALIDATED)) {
    policy_event_t event = {.kind = POLICY_PAGE_INVALIDATED, .stripe = stripe, .vpn = vpn};
    policy_emit(&event);
  }
}

void block_page_invalidate(block_manager_t *blocks, uint32_t vpn) {
  if (bitmap_test(blocks->valid_bitmap, vpn)) {
    bitmap_clear(blocks->valid_bitmap, vpn);
    block_member_t *member = &blocks->members[block_member_of(blocks, vpn)];
    --member->valid_pages;
    blocks->retired_valid_pages -= member->retired;
    uint32_t stripe = block_stripe_of(blocks, vpn);
    --blocks->stripes[stripe].valid_pages;
    if (block_collectable(blocks, stripe) || policy_heard(POLICY_PAGE_INVALIDATED)) {
      page_invalidated(blocks, stripe, vpn);
    }
  }
}

bool block_page_valid(const block_manager_t *blocks, uint32_t vpn) {
  return bitmap_test(blocks->valid_bitmap, vpn);
}

void block_mark_victim(block_manager_t *blocks, uint32_t stripe) {
  bool collectable = block_collectable(blocks, stripe);
  blocks->stripes[stripe].state = BLOCK_VICTIM;
  if (collectable) {
    victim_replay(blocks, stripe);
  }
  for (uint32_t position = 0; blocks->rescues_due != 0 && position < blocks->unit_count;
       ++position) {
    block_member_t *member = member_at(blocks, stripe, position);
    if (member->rescue == BLOCK_RESCUE_DUE) { /* collected before its rescue came */
      member->rescue = BLOCK_RESCUE_TAKEN;
      --blocks->rescues_due;
    }
  }
}

uint32_t block_member_vpn(const block_manager_t *blocks, uint32_t stripe, uint32_t position) {
  if (!member_live(member_at(blocks, stripe, position))) {
    return BLOCK_NONE;
  }
  return stripe * blocks->stripe_pages + position * blocks->pages_per_program;
}

void block_member_erased(block_manager_t *blocks, uint32_t stripe, uint32_t position, bool ok) {
  block_member_t *member = member_at(blocks, stripe, position);
  uint32_t group = block_group_of(blocks, member->first_ppn);
  block_group_t *erased = &blocks->groups[group];
  if (ok) {
    uint32_t unit = block_divide(group, blocks->groups_per_unit, blocks->block_shift);
    erased->state = BLOCK_GROUP_FREE;
    ++erased->erase_count;
    pool_replay(blocks, unit, group);
    ++blocks->free_count[unit];
    ++blocks->free_total;
  } else {
    erased->state = BLOCK_GROUP_RETIRED;
    ++blocks->retired_groups;
  }
  --blocks->streams[blocks->stripes[stripe].stream].groups;
  member->first_ppn = BLOCK_NONE;
}

void block_stripe_erased(block_manager_t *blocks, uint32_t stripe) {
  block_stripe_t *erased = &blocks->stripes[stripe];
  for (uint32_t position = 0; position < blocks->unit_count; ++position) {
    member_at(blocks, stripe, position)->first_ppn = BLOCK_NONE; /* retired ones are dropped */
  }
  bitmap_clear_range(blocks->valid_bitmap, stripe * blocks->stripe_pages, blocks->stripe_pages);
  erased->valid_pages = 0;
  erased->members = 0;
  erased->state = BLOCK_FREE;
  blocks->free_stripes[blocks->free_stripe_count++] = stripe;
  if (policy_heard(POLICY_STRIPE_ERASED)) {
    policy_event_t event = {.kind = POLICY_STRIPE_ERASED, .stripe = stripe,
                            .stream = erased->stream};
    policy_emit(&event);
  }
}

uint32_t block_take_rescue(block_manager_t *blocks, bool data_only) {
  if (blocks->rescues_due == 0) {
    return BLOCK_NONE;
  }
  for (uint32_t index = 0; index < blocks->group_count; ++index) {
    block_member_t *member = &blocks->members[index];
    uint32_t stream = blocks->stripes[index / blocks->unit_count].stream;
    if (member->rescue == BLOCK_RESCUE_DUE &&
        !(data_only && stream == BLOCK_STREAM_TRANSLATION)) {
      member->rescue = BLOCK_RESCUE_TAKEN;
      --blocks->rescues_due;
      return index;
    }
  }
  return BLOCK_NONE;
}

block_wear_t block_wear(const block_manager_t *blocks) {
  block_wear_t wear = {0xFFFFFFFFu, 0, 0, 0};
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    const block_group_t *g = &blocks->groups[group];
    if (g->state == BLOCK_GROUP_RETIRED) {
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

void block_restore_open(block_manager_t *blocks, uint32_t stripe) {
  uint32_t index = 0;
  while (blocks->free_stripes[index] != stripe) {
    ++index;
  }
  /* The stack keeps its order: the stripes left free open as they would have. */
  for (; index + 1u < blocks->free_stripe_count; ++index) {
    blocks->free_stripes[index] = blocks->free_stripes[index + 1u];
  }
  --blocks->free_stripe_count;
  block_stripe_t *opened = &blocks->stripes[stripe];
  opened->valid_pages = 0;
  opened->unsettled_pages = 0;
  opened->programmed_pages = 0;
  opened->next_program = 0;
  opened->wear = 0xFFFFFFFFu;
  opened->opened_keep_free = 0;
  opened->members = 0;
  opened->stream = BLOCK_STREAM_HOST;
  opened->state = BLOCK_OPEN;
}

/* The striping position of a unit. */
static uint32_t position_of_unit(const block_manager_t *blocks, uint32_t unit) {
  uint32_t position = 0;
  while (blocks->position_unit[position] != unit) {
    ++position;
  }
  return position;
}

/* A free group leaves its unit's pool. */
static void take_from_pool(block_manager_t *blocks, uint32_t group, block_group_state_t state) {
  uint32_t unit = group / blocks->groups_per_unit;
  blocks->groups[group].state = (uint8_t)state;
  pool_replay(blocks, unit, group);
  --blocks->free_count[unit];
  --blocks->free_total;
}

void block_restore_member(block_manager_t *blocks, uint32_t stripe, uint32_t group) {
  uint32_t unit = group / blocks->groups_per_unit;
  block_member_t *member = member_at(blocks, stripe, position_of_unit(blocks, unit));
  member->first_ppn = block_group_ppn(blocks, group, 0);
  member->valid_pages = 0;
  member->unsettled_pages = 0;
  member->retired = 0;
  member->rescue = BLOCK_RESCUE_NONE;
  take_from_pool(blocks, group, BLOCK_GROUP_MEMBER);
  block_stripe_t *restored = &blocks->stripes[stripe];
  ++restored->members;
  if (blocks->groups[group].erase_count < restored->wear) {
    restored->wear = blocks->groups[group].erase_count;
  }
}

void block_restore_close(block_manager_t *blocks, uint32_t stripe, block_stream_t stream) {
  block_stripe_t *closed = &blocks->stripes[stripe];
  closed->stream = (uint16_t)stream;
  closed->programmed_pages = blocks->stripe_pages;
  closed->next_program = blocks->programs_per_stripe;
  closed->state = BLOCK_FULL;
  blocks->streams[stream].groups += closed->members;
  victim_replay(blocks, stripe);
}

void block_restore_retire(block_manager_t *blocks, uint32_t group) {
  take_from_pool(blocks, group, BLOCK_GROUP_RETIRED);
  ++blocks->retired_groups;
}
