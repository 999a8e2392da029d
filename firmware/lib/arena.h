/* The boot-time arena: every structure of the firmware takes its bytes from here, under a name,
 * so the memory breakdown is known and a configuration that does not fit is refused at boot
 * instead of failing later. No free: structures live until the firmware stops.
 *
 * An arena covers one memory (SRAM or DRAM). Allocation never fails silently: a request that
 * does not fit is recorded as the arena's shortfall (name and bytes) and answered NULL, so boot
 * code can carry on collecting the whole breakdown and print it once. */
#ifndef SSDVP_FIRMWARE_LIB_ARENA_H
#define SSDVP_FIRMWARE_LIB_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARENA_MAX_REGIONS FW_STATS_MAX_REGIONS
#define ARENA_ALIGN 8u /* every allocation starts on an 8-byte boundary (uint64_t, DMA) */

typedef struct arena_region {
  const char *name; /* a string that outlives the arena (a literal) */
  uint32_t bytes;   /* as asked, before alignment */
} arena_region_t;

typedef struct arena {
  uint8_t *base;
  uint32_t capacity; /* bytes the arena may hand out */
  uint32_t used;     /* aligned bytes handed out */
  uint32_t location; /* FW_STATS_LOCATION_*, reported with each region */
  uint32_t region_count;
  arena_region_t regions[ARENA_MAX_REGIONS];
  uint32_t refused_bytes; /* the sum of what was asked and did not fit (0 while all fit) */
  uint32_t refused_count;
  const char *first_refused; /* the first request that did not fit */
  bool table_full;           /* a request was refused because the region table was full */
} arena_t;

/* Covers [base, base + capacity); base is rounded up to ARENA_ALIGN (the bytes skipped count
 * against the capacity). */
void arena_init(arena_t *arena, void *base, uint32_t capacity, uint32_t location);

/* `bytes` zeroed bytes named `name` (a literal: the arena keeps the pointer), or NULL when they
 * do not fit or the region table is full; the request is then counted as refused. A zero-byte
 * request is recorded and answers a non-NULL pointer that must not be dereferenced. */
void *arena_alloc(arena_t *arena, const char *name, uint32_t bytes);

/* Like arena_alloc, starting on an `align`-byte boundary (a power of two, for DMA rings); the
 * bytes skipped count as used. */
void *arena_alloc_aligned(arena_t *arena, const char *name, uint32_t bytes, uint32_t align);

/* Bytes still free, after alignment of the next allocation. */
uint32_t arena_free_bytes(const arena_t *arena);

/* True while every request has fitted. */
bool arena_fits(const arena_t *arena);

/* Writes the breakdown through `print` (a printf-like sink): one line per region, the total, the
 * capacity and, when something did not fit, what was refused, naming the region table when it
 * was full. `label` names the memory. */
typedef int (*arena_print_fn)(const char *format, ...);
void arena_print_breakdown(const arena_t *arena, const char *label, arena_print_fn print);

/* Appends the arena's regions to the statistics block (as many as fit in it: both arenas
 * together hold at most ARENA_MAX_REGIONS) and sets its budget and used fields for the arena's
 * memory. */
void arena_export(const arena_t *arena, fw_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif
