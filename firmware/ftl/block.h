/* Block management: the state, valid count and erase count of every block, the page-validity
 * table, the free-block pools and the allocation of wordlines to the write streams.
 *
 * Allocation works on units: a unit is one plane, or, with multi-plane operation, one die whose
 * planes are programmed and erased together (a "group" is then block b of every plane of the
 * die; without multi-plane a group is one block). Each unit keeps a pool of free groups. The
 * host stream has an open group in every unit and a cursor that stripes successive wordlines over
 * the units in the scenario's order (CWDP and the others: the first level varies fastest). The GC
 * and translation streams write one wordline at a time, so striping would buy them nothing and
 * cost an open group per unit of over-provisioning: each has one open group, opened in the unit
 * with the most free groups, which also evens out the pools. Dynamic wear levelling: a stream
 * opening a group takes the least-worn free group of the unit.
 *
 * Nothing here touches hardware: the flash layer and GC drive it, and the host tests check it. */
#ifndef SSDVP_FIRMWARE_FTL_BLOCK_H
#define SSDVP_FIRMWARE_FTL_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"
#include "nand_geometry.h"

#define BLOCK_NONE 0xFFFFFFFFu

typedef enum block_stream {
  BLOCK_STREAM_HOST = 0,
  BLOCK_STREAM_GC = 1,
  BLOCK_STREAM_TRANSLATION = 2,
  BLOCK_STREAM_COUNT = 3
} block_stream_t;

typedef enum block_state {
  BLOCK_FREE = 0,    /* erased, in its unit's pool */
  BLOCK_OPEN = 1,    /* a stream is programming it */
  BLOCK_FULL = 2,    /* every wordline programmed: a GC candidate */
  BLOCK_VICTIM = 3,  /* being collected */
  BLOCK_RETIRED = 4, /* bad: never used again */
} block_state_t;

/* Per group (the planes of a multi-plane group share it). */
typedef struct block_group {
  uint32_t erase_count;
  uint32_t valid_pages; /* over the planes of the group */
  uint16_t next_wordline;   /* while OPEN */
  uint16_t unsettled_pages; /* allocated pages whose program or mapping update is not done */
  uint8_t state;            /* block_state_t */
  uint8_t stream;           /* block_stream_t that opened it */
  uint8_t rescue_due;       /* RETIRED, settled and holding valid pages GC has not taken */
} block_group_t;

typedef struct block_manager {
  nand_geometry_t geometry;
  uint32_t unit_planes;       /* planes per unit: 1, or planes with multi-plane */
  uint32_t unit_count;
  uint32_t groups_per_unit;   /* = blocks per plane */
  uint32_t group_count;       /* unit_count * groups_per_unit */
  uint32_t wordlines;         /* per block */
  uint32_t pages_per_wordline_unit; /* bits_per_cell * unit_planes: pages one program writes */
  uint32_t level_size[4];     /* units along channel, way, die, plane (BOOT_ALLOC_LEVEL_*) */
  uint32_t order[4];          /* the levels, fastest first */
  block_group_t *groups;      /* [unit * groups_per_unit + group] */
  uint32_t *free_count;       /* per unit */
  uint32_t free_total;        /* over all units */
  uint32_t *valid_bitmap;     /* one bit per physical page, by PPN */
  uint32_t *open_group;       /* [unit]: the host stream's open group or BLOCK_NONE */
  uint32_t cursor;            /* the host stream's striping position */
  uint32_t single_open[BLOCK_STREAM_COUNT]; /* the GC and translation streams' open group */
  uint32_t stream_groups[BLOCK_STREAM_COUNT]; /* groups each stream opened, until erased or
                                                 retired */
  uint32_t retired_groups;
  uint32_t retired_valid_pages; /* valid pages on retired groups: data GC has still to move */
  uint32_t rescues_due;         /* groups with rescue_due set */
  /* The GC stream's next group is the most-worn free one instead of the least-worn: static
   * wear levelling moves cold data there, so that the worn block rests under it while the
   * young block it came from takes host writes. GC sets it per program. */
  bool gc_opens_most_worn;
  /* The static wear-levelling threshold (0: off), set at boot. A free group that lags the most
   * worn by more than it is the next the GC stream opens, in whichever unit: the host stream
   * never opens a group of a unit down to its reserve, so such a group could sit there until
   * the spread trips a migration that cannot help (a free group holds nothing to move). */
  uint32_t wl_static_spread;
  /* log2 of pages per block, blocks per plane and planes per unit, or 0xFF when not a power of
   * two: block_group_of runs for every page programmed, and a shift costs 1 cycle where a divide
   * costs 34. */
  uint8_t page_shift;
  uint8_t block_shift;
  uint8_t unit_plane_shift;
} block_manager_t;

/* Sizes everything from the geometry and takes the tables from the arena; false when they do
 * not fit (the arena records what). alloc_order: BOOT_ALLOC_ORDER_LEVEL fields; it must name
 * each level once (block_order_valid). All groups start FREE with erase count 0. */
bool block_init(block_manager_t *blocks, const nand_geometry_t *geometry, bool multi_plane,
                uint32_t alloc_order, arena_t *arena);

/* Whether alloc_order names each of the four levels exactly once. */
bool block_order_valid(uint32_t alloc_order);

/* Group index (unit * groups_per_unit + block) of a PPN, and the PPN of page `page` of the
 * group's first plane. */
uint32_t block_group_of(const block_manager_t *blocks, uint32_t ppn);
uint32_t block_group_ppn(const block_manager_t *blocks, uint32_t group, uint32_t page);
uint32_t block_unit_of_group(const block_manager_t *blocks, uint32_t group);

/* PPN of page i of a program or read that starts at `first` (its io entries plane-major:
 * bits_per_cell pages of each plane in turn). */
uint32_t block_program_page_ppn(const block_manager_t *blocks, uint32_t first, uint32_t i);

/* The PPN of the next wordline (its LSB page on the unit's first plane) for `stream`. The host
 * stream takes the next unit in striping order that has an open group, or more than `keep_free`
 * free groups (it opens the least-worn one; the host keeps the GC reserve this way). The other
 * streams continue their open group, or open one in the unit with the most free groups (more than
 * keep_free; the most-worn free group there while gc_opens_most_worn is set for the GC stream,
 * else a lagging free group of any unit first, see wl_static_spread).
 * BLOCK_NONE when no unit has room. The wordline counts as written from now on; the
 * group turns FULL with its last wordline. Its pages are unsettled until block_page_settled. */
uint32_t block_alloc_wordline(block_manager_t *blocks, block_stream_t stream, uint32_t keep_free);

/* A page of an allocated wordline is settled: programmed and its mapping (or padding) done.
 * GC takes only groups whose pages are all settled, so validity is final. */
void block_page_settled(block_manager_t *blocks, uint32_t ppn);
/* Every page of the wordline program that starts at `first` is settled. */
void block_wordline_settled(block_manager_t *blocks, uint32_t first);
/* The wordline program that starts at `first` failed: its group is retired (block_retire) and
 * its pages, which hold no data, are settled. */
void block_program_failed(block_manager_t *blocks, uint32_t first);

/* Whether a group may be collected: FULL with every page settled. */
bool block_collectable(const block_manager_t *blocks, uint32_t group);

/* Registers the retired figures, the free groups and the groups of each stream as metrics
 * (lib/metrics.h). */
void block_register_metrics(const block_manager_t *blocks);

/* Page validity: set when a mapping points at the page, cleared when it stops. */
void block_page_validate(block_manager_t *blocks, uint32_t ppn);
void block_page_invalidate(block_manager_t *blocks, uint32_t ppn);
bool block_page_valid(const block_manager_t *blocks, uint32_t ppn);

/* A FULL group chosen for collection (or wear levelling) becomes a VICTIM. */
void block_mark_victim(block_manager_t *blocks, uint32_t group);
/* The group was erased: FREE again, one more erase, back in its unit's pool. Its valid count
 * must be zero. */
void block_erased(block_manager_t *blocks, uint32_t group);
/* A program or erase failed: the group is never used again (an open group stops being open).
 * Its valid pages stay readable until GC moves them: once every page of the group is settled
 * (a failed program settles its wordline's pages, which never hold data), the group is due for
 * a rescue. Retiring a retired group again changes nothing. */
void block_retire(block_manager_t *blocks, uint32_t group);

/* A retired group due for a rescue (GC moves its valid pages and never erases it), no longer
 * due once taken; with data_only, not one of the translation stream. BLOCK_NONE when none is
 * due. */
uint32_t block_take_rescue(block_manager_t *blocks, bool data_only);

/* Free groups of the unit with the fewest, and of all units. */
uint32_t block_min_free(const block_manager_t *blocks);
static inline uint32_t block_free_groups(const block_manager_t *blocks) {
  return blocks->free_total;
}

/* Groups the streams can hold open at once: one per unit for the host, one each for GC and
 * translation pages. */
uint32_t block_max_open_groups(const block_manager_t *blocks);

/* Erase counts over the groups that are not retired. */
typedef struct block_wear {
  uint32_t min;
  uint32_t max;
  uint64_t sum;
  uint32_t groups;
} block_wear_t;
block_wear_t block_wear(const block_manager_t *blocks);

#endif
