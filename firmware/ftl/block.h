/* Block management: stripes, the virtual page numbers (VPNs) of their pages, the state and valid
 * count of every stripe, the erase count of every block, the page-validity table, the free pools
 * and the allocation of wordlines to the write streams.
 *
 * A unit is one plane, or, with multi-plane operation, one die whose planes are programmed and
 * erased together (a "group" is then block b of every plane of the die; without multi-plane a
 * group is one block). A stripe (a superblock) is one group of every unit, opened together by
 * one stream, collected and erased together. Its members come from a table filled when it
 * opens: each unit gives its least-worn free group (dynamic wear levelling; the GC stream may
 * ask for the most-worn, for static wear levelling), and a unit with no free group left, or a
 * member retired as bad, leaves a hole the stripe's programs skip.
 *
 * VPNs number the pages in the order a stream programs them: stripe s holds VPNs
 * [s * stripe_pages, (s + 1) * stripe_pages); within it, program p (wordline p / units of the
 * unit at striping position p % units, the scenario's order with the first level varying fastest)
 * holds the pages_per_program VPNs from p * pages_per_program, plane-major as the NFC moves them.
 * Consecutive pages a stream writes therefore get consecutive VPNs across the whole stripe, which
 * range-based and learned mappings rely on. Everything above the flash layer works in VPNs; the
 * flash layer converts to the NAND address (block_vpn_to_ppn) once, at submission.
 *
 * GC and allocation ask for the collectable stripe with the fewest valid pages or the coldest,
 * and for a unit's least- or most-worn free group. Firmware cycles are a measured result, so
 * winner trees (tournaments) answer these in constant time where a scan would cost more on
 * every larger device: n leaves (the stripes, or the groups of one unit) under n - 1 internal
 * nodes, node k the parent of 2k and 2k + 1, leaf i at node n + i, node 1 the root. An internal
 * node keeps the winners of its subtree: the smallest key, and among equal keys the lowest
 * index, so the answers are those of a scan in index order. A leaf that is not a candidate (a
 * stripe not collectable, a group not free) loses every match. A change replays the matches on
 * one leaf's way to the root, log2(n) of them; a stripe losing a valid page (every host
 * overwrite) stops at the first match it still loses, usually the first.
 *
 * Nothing here touches hardware: the flash layer and GC drive it, and the host tests check it. */
#ifndef SSDVP_FIRMWARE_FTL_BLOCK_H
#define SSDVP_FIRMWARE_FTL_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"
#include "nand_geometry.h"

#define BLOCK_NONE 0xFFFFFFFFu

/* A placement stream: its own open stripe. The three every FTL has are registered by
 * block_init; policies add theirs at boot (block_stream_add), e.g. a cold region. */
typedef uint32_t block_stream_t;
enum {
  BLOCK_STREAM_HOST = 0,
  BLOCK_STREAM_GC = 1,
  BLOCK_STREAM_TRANSLATION = 2,
  BLOCK_BUILTIN_STREAMS = 3
};

/* Room for "blocks.<name>_groups", the stream's gauge. */
#define BLOCK_STREAM_METRIC_BYTES 48u

typedef struct block_stream_state {
  uint32_t open_stripe;  /* or BLOCK_NONE */
  uint32_t groups;       /* member groups of its stripes, until erased or retired */
  char metric_name[BLOCK_STREAM_METRIC_BYTES];
} block_stream_state_t;

typedef enum block_state {
  BLOCK_FREE = 0,   /* no members: its groups are back in their units' pools */
  BLOCK_OPEN = 1,   /* a stream is programming it */
  BLOCK_FULL = 2,   /* every program taken: a GC candidate */
  BLOCK_VICTIM = 3, /* being collected */
} block_state_t;

typedef enum block_group_state {
  BLOCK_GROUP_FREE = 0,    /* erased, in its unit's pool */
  BLOCK_GROUP_MEMBER = 1,  /* in a stripe */
  BLOCK_GROUP_RETIRED = 2, /* bad: never used again */
} block_group_state_t;

/* Per group (the planes of a multi-plane group share it). */
typedef struct block_group {
  uint32_t erase_count;
  uint8_t state; /* block_group_state_t */
} block_group_t;

typedef struct block_stripe {
  uint32_t valid_pages;
  uint32_t unsettled_pages; /* allocated pages whose program or mapping update is not done */
  uint32_t programmed_pages; /* pages allocated since it opened */
  uint32_t next_program;    /* while OPEN */
  uint32_t wear;            /* erase count of its least-worn member (static wear levelling) */
  uint32_t opened_keep_free; /* the keep_free of the allocation that opened it */
  uint16_t members;         /* members programs still go to (not retired) */
  uint16_t stream;          /* the stream that opened it */
  uint8_t state;            /* block_state_t */
  uint8_t utilisation_bucket; /* where it counts in utilisation[], or BLOCK_UTILISATION_NONE */
} block_stripe_t;

typedef enum block_rescue {
  BLOCK_RESCUE_NONE = 0,
  BLOCK_RESCUE_DUE = 1,   /* retired, settled, holding valid pages: GC is to move them off */
  BLOCK_RESCUE_TAKEN = 2, /* GC took it (or collects the whole stripe) */
} block_rescue_t;

/* One group of a stripe, at one striping position. */
typedef struct block_member {
  uint32_t first_ppn;       /* page 0 of the group's first plane, or BLOCK_NONE */
  uint32_t valid_pages;
  uint16_t unsettled_pages;
  uint8_t retired;          /* a program failed: programs skip it, its pages stay readable */
  uint8_t rescue;           /* block_rescue_t */
} block_member_t;

/* The buckets of the collectable stripes' utilisation distribution: valid pages in 32 equal
 * steps of a stripe, the last bucket a full stripe. */
#define BLOCK_UTILISATION_BUCKETS 33u
#define BLOCK_UTILISATION_NONE 0xFFu

/* An internal node of the collectable stripes' winner tree: the winning stripes below it. */
typedef struct block_victim_node {
  uint32_t fewest_valid; /* the fewest valid pages (greedy GC) */
  uint32_t coldest;      /* the lowest wear (static wear levelling) */
} block_victim_node_t;

/* An internal node of a unit's free-group winner tree: the winning groups below it (indices
 * within the unit). */
typedef struct block_pool_node {
  uint32_t least_worn;
  uint32_t most_worn;
} block_pool_node_t;

typedef struct block_manager {
  nand_geometry_t geometry;
  uint32_t unit_planes;       /* planes per unit: 1, or planes with multi-plane */
  uint32_t unit_count;
  uint32_t groups_per_unit;   /* = blocks per plane */
  uint32_t group_count;       /* unit_count * groups_per_unit */
  uint32_t wordlines;         /* per block */
  uint32_t pages_per_program; /* bits_per_cell * unit_planes: pages one program writes */
  uint32_t stripe_count;      /* = groups_per_unit */
  uint32_t programs_per_stripe; /* wordlines * unit_count */
  uint32_t stripe_pages;        /* programs_per_stripe * pages_per_program */
  uint32_t *position_unit;      /* [position]: the unit at that striping position */
  block_group_t *groups;        /* [unit * groups_per_unit + block] */
  block_stripe_t *stripes;
  block_member_t *members;      /* [stripe * unit_count + position] */
  uint32_t *free_count;       /* free groups per unit */
  uint32_t free_total;        /* over all units */
  uint32_t *free_stripes;     /* stack of FREE stripes (more than the free groups can fill once
                                 groups are retired) */
  uint32_t free_stripe_count;
  uint32_t *valid_bitmap;     /* one bit per page, by VPN */
  block_victim_node_t *victim_tree; /* [node]: nodes 1 .. stripe_count - 1 */
  block_pool_node_t *pool_trees;    /* [unit * groups_per_unit + node], node >= 1 */
  /* Collectable stripes by valid pages (blocks.utilisation: 2R's bimodality), in buckets of
   * utilisation_width pages. */
  uint32_t utilisation[BLOCK_UTILISATION_BUCKETS];
  uint32_t utilisation_width;
  block_stream_state_t *streams;
  uint32_t stream_count;
  uint32_t stream_capacity;
  uint32_t retired_groups;
  uint32_t retired_valid_pages; /* valid pages on retired members: data GC has still to move */
  uint32_t rescues_due;         /* members with BLOCK_RESCUE_DUE */
  /* The GC stream's next stripe takes the most-worn free group of each unit instead of the
   * least-worn: static wear levelling moves cold data there, so that the worn blocks rest under
   * it while the young blocks it came from take host writes. GC sets it per program. */
  bool gc_opens_most_worn;
  /* log2 of stripe_pages, pages_per_program, unit_count, bits_per_cell, pages per block and
   * blocks per plane, or 0xFF when not a power of two: VPNs are converted for every flash
   * operation, and a shift costs 1 cycle where a divide costs 34. */
  uint8_t stripe_shift;
  uint8_t program_shift;
  uint8_t position_shift;
  uint8_t bits_shift;
  uint8_t page_shift;
  uint8_t block_shift;
  uint8_t utilisation_shift; /* log2 of utilisation_width: every host overwrite rebuckets */
  /* The first four are all powers of two (the usual geometry): block_vpn_to_ppn then takes
   * shifts and masks alone. */
  bool vpn_shifts;
  uint32_t plane_stride; /* pages between the same page of two planes: blocks * pages */
} block_manager_t;

/* Sizes everything from the geometry and takes the tables from the arena; false when they do
 * not fit (the arena records what). alloc_order: BOOT_ALLOC_ORDER_LEVEL fields; it must name
 * each level once (block_order_valid). stream_capacity: the streams there may be, the three
 * built-in ones (host, gc, translation) included. All groups start FREE with erase count 0. */
bool block_init(block_manager_t *blocks, const nand_geometry_t *geometry, bool multi_plane,
                uint32_t alloc_order, uint32_t stream_capacity, arena_t *arena);

/* block_init with the tables that grow with the device (page validity, the groups, stripes and
 * their members, the free-stripe list, the victim and pool trees) taken from `tables` instead:
 * DRAM with ftl.block_tables.location = dram. The per-unit and per-stream ones stay in `arena`. */
bool block_init_placed(block_manager_t *blocks, const nand_geometry_t *geometry,
                       bool multi_plane, uint32_t alloc_order, uint32_t stream_capacity,
                       arena_t *arena, arena_t *tables);

/* A new stream named `name` (its gauge: blocks.<name>_groups; NULL: no gauge, for policies that
 * add many streams and count them themselves); BLOCK_NONE when the capacity is reached or the
 * name is too long. */
block_stream_t block_stream_add(block_manager_t *blocks, const char *name);

/* The stream's open stripe takes no more programs: FULL now, its programs not yet allocated
 * never written, so that GC can collect it with the stream's other stripes (LearnedFTL's group
 * GC collects a group's every block). Nothing happens when the stream has no open stripe or
 * its open stripe has no program yet. */
void block_stream_close(block_manager_t *blocks, block_stream_t stream);

/* Whether alloc_order names each of the four levels exactly once. */
bool block_order_valid(uint32_t alloc_order);

/* The divide by a power of two as a shift (shift from block_init), any other by dividing. */
static inline uint32_t block_divide(uint32_t value, uint32_t divisor, uint8_t shift) {
  return shift != 0xFFu ? value >> shift : value / divisor;
}

static inline uint32_t block_stripe_of(const block_manager_t *blocks, uint32_t vpn) {
  return block_divide(vpn, blocks->stripe_pages, blocks->stripe_shift);
}

/* The member (stripe * unit_count + position) holding a VPN's page. */
uint32_t block_member_of(const block_manager_t *blocks, uint32_t vpn);

/* The VPN of page `page` (0 .. group pages - 1, in program order) of a member. */
uint32_t block_member_page_vpn(const block_manager_t *blocks, uint32_t member, uint32_t page);

/* The NAND address of a VPN (of a program's first page: the address the NFC takes). */
uint32_t block_vpn_to_ppn(const block_manager_t *blocks, uint32_t vpn);

/* Group index (unit * groups_per_unit + block) of a PPN, and the PPN of page `page` of the
 * group's first plane. */
uint32_t block_group_of(const block_manager_t *blocks, uint32_t ppn);
uint32_t block_group_ppn(const block_manager_t *blocks, uint32_t group, uint32_t page);

/* The first VPN of the next program for `stream`: its open stripe's next program, or the first
 * of a stripe it opens when keep_free stripes' worth of groups (keep_free x units) are still
 * free after the groups it takes (the host keeps the GC reserve this way). A stripe opened into
 * a reserve (by a caller with a smaller keep_free, as GC appending to the host stream) takes
 * programs of a caller with a larger one only while that caller's reserve is free, so the host
 * cannot spend the reserve GC opened it from. BLOCK_NONE when there is no room. The program
 * counts as written from now on; the stripe turns FULL with its last one. Its pages are
 * unsettled until block_page_settled. */
uint32_t block_alloc_wordline(block_manager_t *blocks, block_stream_t stream, uint32_t keep_free);

/* A page of an allocated program is settled: programmed and its mapping (or padding) done.
 * GC takes only stripes whose pages are all settled, so validity is final. */
void block_page_settled(block_manager_t *blocks, uint32_t vpn);
/* Every page of the program that starts at `first` is settled. */
void block_wordline_settled(block_manager_t *blocks, uint32_t first);
/* The program that starts at `first` failed: its member group is retired (programs skip it from
 * now on; once its pages are settled, the valid ones are due for a rescue) and the program's
 * pages, which hold no data, are settled. */
void block_program_failed(block_manager_t *blocks, uint32_t first);

/* Whether a stripe may be collected: FULL with every page settled. */
bool block_collectable(const block_manager_t *blocks, uint32_t stripe);

/* The pages a stripe's collection leaves in use: its valid pages, which move elsewhere, and the
 * pages of each group it lacks (a unit that had no free group when it opened, or a member
 * retired as bad), which it does not free. Collecting it frees space only while this is below
 * stripe_pages; for a stripe with every member it is its valid count. */
static inline uint32_t block_stripe_kept_pages(const block_manager_t *blocks, uint32_t stripe) {
  const block_stripe_t *kept = &blocks->stripes[stripe];
  return kept->valid_pages + (blocks->unit_count - kept->members) * blocks->wordlines *
                                 blocks->pages_per_program;
}

/* The collectable stripe with the fewest valid pages (block_stripe_kept_pages: a missing
 * group's pages count as valid), and the one with the lowest wear (the lowest index among
 * equals, so runs are deterministic); BLOCK_NONE when none is. */
uint32_t block_fewest_valid_collectable(const block_manager_t *blocks);
uint32_t block_coldest_collectable(const block_manager_t *blocks);

/* The free group (unit * groups_per_unit + block) of a unit with the fewest erases, or with
 * `most_worn` the most (the lowest index among equals); BLOCK_NONE when the unit has none. */
uint32_t block_free_group_by_wear(const block_manager_t *blocks, uint32_t unit, bool most_worn);

/* Registers the retired figures, the free groups, the groups of each stream and the collectable
 * stripes' utilisation distribution as metrics (lib/metrics.h). */
void block_register_metrics(const block_manager_t *blocks);

/* Page validity: set when a mapping points at the page, cleared when it stops. */
void block_page_validate(block_manager_t *blocks, uint32_t vpn);
void block_page_invalidate(block_manager_t *blocks, uint32_t vpn);
bool block_page_valid(const block_manager_t *blocks, uint32_t vpn);

/* A FULL stripe chosen for collection (or wear levelling) becomes a VICTIM (a rescue due on one
 * of its members is then taken with it). */
void block_mark_victim(block_manager_t *blocks, uint32_t stripe);
/* The first VPN of the member at striping position `position` of a stripe, the address its
 * erase takes; BLOCK_NONE when the position has no member or a retired one. */
uint32_t block_member_vpn(const block_manager_t *blocks, uint32_t stripe, uint32_t position);
/* The erase of that member finished: the group returns to its unit's pool with one more erase,
 * or, when the erase failed, is retired. */
void block_member_erased(block_manager_t *blocks, uint32_t stripe, uint32_t position, bool ok);
/* Every member's erase finished: the stripe is FREE (retired members are dropped). Its valid
 * count must be zero. */
void block_stripe_erased(block_manager_t *blocks, uint32_t stripe);

/* A retired member due for a rescue (GC moves its valid pages off before anything else and never
 * erases it), taken; with data_only, not one of a translation stripe. BLOCK_NONE when none is
 * due. */
uint32_t block_take_rescue(block_manager_t *blocks, bool data_only);

static inline uint32_t block_free_groups(const block_manager_t *blocks) {
  return blocks->free_total;
}

/* Stripes the streams can hold open at once: one each. */
static inline uint32_t block_max_open_stripes(const block_manager_t *blocks) {
  return blocks->stream_count;
}

/* Recovery after a power loss (ftl/recovery.h) rebuilds the stripes it finds on the NAND into
 * a manager fresh from block_init, every stripe closed: a stripe leaves the free list
 * (block_restore_open), takes the groups it held at their striping positions
 * (block_restore_member), then is FULL and collectable (block_restore_close); its unwritten
 * programs are never written, as a stream's closed stripe. block_restore_retire takes a free
 * group out of use for good (its erase failed). */
void block_restore_open(block_manager_t *blocks, uint32_t stripe);
void block_restore_member(block_manager_t *blocks, uint32_t stripe, uint32_t group);
void block_restore_close(block_manager_t *blocks, uint32_t stripe, block_stream_t stream);
void block_restore_retire(block_manager_t *blocks, uint32_t group);

/* Erase counts over the groups that are not retired. */
typedef struct block_wear {
  uint32_t min;
  uint32_t max;
  uint64_t sum;
  uint32_t groups;
} block_wear_t;
block_wear_t block_wear(const block_manager_t *blocks);

#endif
