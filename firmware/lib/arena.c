#include "lib/arena.h"

#include <string.h>

static uint32_t align_up(uint32_t value) { return (value + ARENA_ALIGN - 1u) & ~(ARENA_ALIGN - 1u); }

void arena_init(arena_t *arena, void *base, uint32_t capacity, uint32_t location) {
  memset(arena, 0, sizeof(*arena));
  uintptr_t address = (uintptr_t)base;
  uint32_t skip = (uint32_t)((ARENA_ALIGN - (address & (ARENA_ALIGN - 1u))) & (ARENA_ALIGN - 1u));
  arena->base = (uint8_t *)base + skip;
  arena->capacity = capacity > skip ? capacity - skip : 0u;
  arena->location = location;
}

static void refuse(arena_t *arena, const char *name, uint32_t bytes) {
  if (arena->refused_count == 0) {
    arena->first_refused = name;
  }
  ++arena->refused_count;
  arena->refused_bytes += bytes;
}

void *arena_alloc(arena_t *arena, const char *name, uint32_t bytes) {
  uint32_t aligned = align_up(bytes);
  /* aligned < bytes catches a request so large that rounding wrapped around. */
  if (arena->region_count == ARENA_MAX_REGIONS) {
    arena->table_full = true;
    refuse(arena, name, bytes);
    return NULL;
  }
  if (aligned < bytes || aligned > arena->capacity - arena->used) {
    refuse(arena, name, bytes);
    return NULL;
  }
  uint8_t *block = arena->base + arena->used;
  arena->used += aligned;
  arena_region_t *region = &arena->regions[arena->region_count++];
  region->name = name;
  region->bytes = bytes;
  memset(block, 0, bytes);
  return block;
}

void *arena_alloc_aligned(arena_t *arena, const char *name, uint32_t bytes, uint32_t align) {
  uintptr_t next = (uintptr_t)(arena->base + arena->used);
  uint32_t skip = (uint32_t)((align - (next & (align - 1u))) & (align - 1u));
  if (skip > arena->capacity - arena->used) {
    refuse(arena, name, bytes);
    return NULL;
  }
  arena->used += skip;
  void *block = arena_alloc(arena, name, bytes);
  if (block == NULL) {
    arena->used -= skip;
  }
  return block;
}

uint32_t arena_free_bytes(const arena_t *arena) { return arena->capacity - arena->used; }

bool arena_fits(const arena_t *arena) { return arena->refused_count == 0; }

void arena_print_breakdown(const arena_t *arena, const char *label, arena_print_fn print) {
  print("%s arena: %u of %u bytes used\n", label, (unsigned)arena->used,
        (unsigned)arena->capacity);
  for (uint32_t i = 0; i < arena->region_count; ++i) {
    print("  %-24s %10u\n", arena->regions[i].name, (unsigned)arena->regions[i].bytes);
  }
  if (arena->refused_count != 0) {
    print("  did not fit: %u request(s), %u bytes, first \"%s\"; %u bytes were free\n",
          (unsigned)arena->refused_count, (unsigned)arena->refused_bytes, arena->first_refused,
          (unsigned)arena_free_bytes(arena));
  }
  if (arena->table_full) {
    print("  the region table is full: ARENA_MAX_REGIONS is %u (FW_STATS_MAX_REGIONS in "
          "interface/fw_stats.h)\n",
          (unsigned)ARENA_MAX_REGIONS);
  }
}

void arena_export(const arena_t *arena, fw_stats_t *stats) {
  for (uint32_t i = 0; i < arena->region_count && stats->region_count < FW_STATS_MAX_REGIONS;
       ++i) {
    fw_stats_region_t *out = &stats->regions[stats->region_count++];
    out->name = (uint32_t)(uintptr_t)arena->regions[i].name;
    out->bytes = arena->regions[i].bytes;
    out->location = arena->location;
  }
  if (arena->location == FW_STATS_LOCATION_DRAM) {
    stats->dram_budget_bytes = arena->capacity;
    stats->dram_used_bytes = arena->used;
  } else {
    stats->sram_budget_bytes = arena->capacity;
    stats->sram_used_bytes = arena->used;
  }
}
