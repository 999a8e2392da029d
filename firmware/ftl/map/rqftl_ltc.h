/* RQFTL's long-term cache, LTC (R. Marcus et al., SYSTOR 2024, sections 4.4, 4.5 and 4.7): the
 * bulk of the L2P cache, ranges of consecutive LPNs mapped to consecutive VPNs, found by RQRMI
 * inference (ml/rqrmi.h) instead of a tree.
 *
 * - Fractions: the ranges are split over F fractions by a hash of their translation page (a
 *   range never crosses one: the short-term cache's lines are TPs), each a range array sorted by
 *   LPN with its own RQRMI model. A transfer rebuilds one fraction into the spare slot and swaps
 *   it in whole, so lookups see the old fraction or the new one, never a mix.
 * - Memory: each slot's ranges, VPNs and bits are an extent of the pool the short-term cache
 *   shares (ftl/map/rqftl_pool.h), sized when a transfer prepares the spare slot: a fraction's
 *   capacity follows the partition between the two caches (section 4.7) from one transfer to the
 *   next. rqftl_ltc_moved follows extents the pool slides (a new generation: an engine that
 *   holds the model reloads).
 * - A range: the RQRMI record (first and last LPN: the 8 bytes the accelerator's search reads),
 *   its first VPN (4 bytes), an access bit and a valid bit: 12 bytes and 2 bits where the paper
 *   counts 9 bytes (a 1-byte length beside the first LPN and PPN). At most
 *   RQFTL_RANGE_MAX_PAGES LPNs.
 * - Lookup: the fraction's model predicts, the secondary search finds the range holding the LPN;
 *   a valid range answers and gets its access bit.
 * - Invalidation: a write makes the LTC's range holding the LPN invalid (found by inference, as
 *   the paper does); it is dropped at the fraction's next transfer.
 * - Transfer (section 4.5), in three steps so the training can run on another hart:
 *   - prepare (serving hart): the spare slot gets an extent of the capacity the new fraction
 *     will have (the paper's transfer buffer: with F fractions of equal capacity it is
 *     1/(F + 1) of the LTC).
 *   - begin (serving hart): the incoming ranges, staged in the spare slot, are checked; the fraction drops its
 *     invalid ranges and those of the TPs the transfer brings, evicts by one-handed CLOCK while
 *     the rest and the incoming ranges exceed its capacity (a range whose access bit is set loses
 *     it and is passed over once), and the two sorted lists merge into the spare slot, the
 *     incoming ranges with their access bits raised. Lookups go on with the old fraction.
 *   - train (any hart): the spare slot's model is trained. It touches nothing else; its extent
 *     is pinned in the pool until the end.
 *   - end (serving hart): the spare slot is swapped in whole, so lookups see the old fraction or
 *     the new one, never a mix. LPNs written since begin (logged by rqftl_ltc_invalidate, which
 *     also invalidates them in the old fraction) are invalidated in the new one, so nothing stale
 *     is served; the old fraction's extent is freed. A transfer that more writes raced than the
 *     log holds is abandoned: the old fraction stays, its replaced ranges invalid (the scheme
 *     selects their lines again).
 *   Access bits set on the old fraction while the model trains are not carried over.
 *
 * Portable C: the firmware and the host tests run the same code. The slots, models, training
 * workspace and race log come from an arena. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_RQFTL_LTC_H
#define SSDVP_FIRMWARE_FTL_MAP_RQFTL_LTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftl/map/rqftl_pool.h"
#include "lib/arena.h"
#include "ml/rqrmi.h"
#include "ml/rqrmi_train.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RQFTL_RANGE_MAX_PAGES 255u
/* Bytes a cached range takes, bits aside (the record, its VPN). */
#define RQFTL_RANGE_BYTES 12u

/* A range array and its model: a fraction's, or the spare one a transfer builds. */
typedef struct rqftl_slot {
  rqrmi_range_t *ranges; /* [count]: sorted, disjoint */
  uint32_t *vpns;        /* [count]: the VPN of each range's first LPN */
  uint32_t *accessed;    /* bitmap over the ranges */
  uint32_t *valid;       /* bitmap over the ranges */
  rqrmi_model_t *model;  /* trained on ranges when count != 0 */
  uint32_t count;
  uint32_t capacity;     /* ranges its extent holds */
  uint32_t extent;       /* its extent's header in the pool, or RQFTL_POOL_NONE (capacity 0) */
  uint32_t generation;   /* changes whenever the model and ranges do (an engine's reload key) */
  uint32_t valid_ranges; /* valid bits set */
  uint32_t valid_lpns;   /* LPNs the valid ranges map */
} rqftl_slot_t;

/* Finds the range holding key with a fraction's model (an RQRMI engine: the CPU or the
 * accelerator, which reloads when the model or its generation changes); RQRMI_NONE if none. */
typedef uint32_t (*rqftl_ltc_finder_t)(void *context, const rqrmi_model_t *model,
                                       const rqrmi_range_t *ranges, uint32_t generation,
                                       uint32_t key);

#define RQFTL_LTC_IDLE 0xFFFFFFFFu /* rqftl_ltc_t.transferring: no transfer out */

typedef struct rqftl_ltc_stats {
  uint64_t lookups;
  uint64_t hits;
  uint64_t invalidations;  /* ranges made invalid by writes */
  uint64_t transfers;
  uint64_t ranges_in;      /* ranges transfers brought */
  uint64_t dropped;        /* ranges transfers dropped: invalid, or of a TP they brought anew */
  uint64_t evicted;        /* ranges CLOCK evicted */
  uint64_t train_failures; /* transfers whose model could not be trained (fraction left empty) */
  uint64_t abandoned;      /* transfers more racing writes than the log holds abandoned */
  uint64_t raced;          /* ranges of a new fraction invalidated at its swap by racing writes */
} rqftl_ltc_stats_t;

typedef struct rqftl_ltc {
  uint32_t fractions;      /* F */
  uint32_t entries_per_tp; /* LPNs a TP maps: ranges never cross a TP */
  rqftl_pool_t *pool;
  uint32_t owner_base;     /* slot s's extent has owner owner_base + s in the pool */
  rqftl_slot_t *slots;     /* [F + 1] */
  uint32_t *slot_of;       /* [F]: the slot holding fraction f */
  uint32_t spare;          /* the slot the next transfer builds in */
  uint32_t *clock_hand;    /* [F]: the range CLOCK looks at next */
  rqrmi_train_config_t train;
  size_t model_capacity;   /* bytes of each slot's model buffer */
  void *workspace;
  size_t workspace_bytes;
  rqrmi_train_report_t last_training;
  rqrmi_status_t training_status; /* of the last train step */
  uint32_t transferring;   /* the fraction a transfer is out for, or RQFTL_LTC_IDLE */
  uint32_t next_hand;      /* the transfer's CLOCK hand in the new fraction */
  uint32_t *written;       /* LPNs of the transferring fraction written since begin */
  uint32_t written_capacity;
  uint32_t written_count;
  bool overrun;            /* more were written than the log holds */
  uint32_t generations;
  uint32_t valid_ranges;   /* over the fractions lookups see */
  uint32_t valid_lpns;
  rqftl_ltc_finder_t finder; /* NULL: rqrmi_lookup on this hart */
  void *finder_context;
  rqftl_ltc_stats_t stats;
} rqftl_ltc_t;

/* Bytes rqftl_ltc_init takes from its arena, each allocation rounded up to ARENA_ALIGN; of them,
 * the training workspace's. */
size_t rqftl_ltc_workspace_bytes(const rqrmi_train_config_t *train);
size_t rqftl_ltc_bytes(uint32_t fractions, const rqrmi_train_config_t *train,
                       uint32_t written_capacity);

/* Pool cells a slot of `capacity` ranges takes, its header included. */
uint32_t rqftl_ltc_slot_cells(uint32_t capacity);

/* Takes the slots, models, training workspace and the log of racing writes (written_capacity
 * LPNs, at least 1) from the arena; the ranges go in `pool`, as owners owner_base to
 * owner_base + F. False when the configuration is invalid (rqrmi_train_check_config, no
 * fraction) or it does not fit. Every fraction starts empty, with no extent. */
bool rqftl_ltc_init(rqftl_ltc_t *ltc, uint32_t fractions, uint32_t entries_per_tp,
                    const rqrmi_train_config_t *train, uint32_t written_capacity,
                    rqftl_pool_t *pool, uint32_t owner_base, arena_t *arena);

/* The pool moved slot s's extent (owner owner_base + s) to `index`. */
void rqftl_ltc_moved(rqftl_ltc_t *ltc, uint32_t s, uint32_t index);

/* Cells of the pool the fractions and the spare take now. */
uint32_t rqftl_ltc_cells(const rqftl_ltc_t *ltc);

/* The fraction holding TP tp's ranges. */
uint32_t rqftl_ltc_fraction_of_tp(const rqftl_ltc_t *ltc, uint32_t tp);

/* The slot of fraction f as lookups see it. */
static inline const rqftl_slot_t *rqftl_ltc_fraction(const rqftl_ltc_t *ltc, uint32_t f) {
  return &ltc->slots[ltc->slot_of[f]];
}

/* The index of the range of fraction f holding lpn (valid or not), or RQRMI_NONE. */
uint32_t rqftl_ltc_find(const rqftl_ltc_t *ltc, uint32_t f, uint32_t lpn);

/* A valid range holding lpn: *vpn is its VPN and the range's access bit is set. */
bool rqftl_ltc_lookup(rqftl_ltc_t *ltc, uint32_t lpn, uint32_t *vpn);

/* lpn's mapping changed: the range holding it, if any, is invalid from now on (and in the
 * fraction a transfer is building, at its end). */
void rqftl_ltc_invalidate(rqftl_ltc_t *ltc, uint32_t lpn);

/* Gives the spare slot an extent of `capacity` ranges (1 to RQRMI_MAX_RANGES) for the next
 * transfer, replacing one it has; false when the pool has no room for it (the spare then has
 * none). Not while a transfer is out. */
bool rqftl_ltc_prepare(rqftl_ltc_t *ltc, uint32_t capacity);

/* Frees the spare slot's extent (no transfer to make). */
void rqftl_ltc_release_spare(rqftl_ltc_t *ltc);

/* The spare slot's capacity (0 before prepare). */
static inline uint32_t rqftl_ltc_spare_capacity(const rqftl_ltc_t *ltc) {
  return ltc->slots[ltc->spare].capacity;
}

/* Where a transfer's incoming ranges are staged (in the prepared spare slot): room for `count` of
 * them (at most its capacity). Not while a transfer is out. */
rqrmi_range_t *rqftl_ltc_staged_ranges(rqftl_ltc_t *ltc, uint32_t count);
uint32_t *rqftl_ltc_staged_vpns(rqftl_ltc_t *ltc, uint32_t count);

/* Begins a transfer into fraction f of the `count` staged ranges (sorted, disjoint, each within
 * one of the TPs tps[0..tp_count), which are sorted and all belong to f, at most
 * RQFTL_RANGE_MAX_PAGES LPNs) with their first VPNs: they replace whatever the fraction held of
 * those TPs, and the fraction keeps what fits of the rest in the spare's capacity.
 * RQRMI_ERR_RANGE_COUNT when count exceeds that capacity (or nothing is prepared),
 * RQRMI_ERR_RANGES_OVERLAP (and the like) for ranges breaking the rules above; nothing changes
 * then and no transfer is out. Not while another transfer is out. */
rqrmi_status_t rqftl_ltc_transfer_begin(rqftl_ltc_t *ltc, uint32_t f, uint32_t count,
                                        const uint32_t *tps, uint32_t tp_count);

/* Trains the transfer's model: the job of the worker hart (or inline). Sets training_status. */
void rqftl_ltc_transfer_train(rqftl_ltc_t *ltc);

/* Ends the transfer: false when it was abandoned (the old fraction stays). A model that could not
 * be trained leaves the fraction empty (counted). */
bool rqftl_ltc_transfer_end(rqftl_ltc_t *ltc);

/* Prepare (capacity ranges), begin, train and end at once, from ranges and vpns of the caller's:
 * RQRMI_ERR_WORKSPACE when the pool has no room, the status of begin, else of the training. */
rqrmi_status_t rqftl_ltc_transfer(rqftl_ltc_t *ltc, uint32_t f, uint32_t capacity,
                                  const rqrmi_range_t *ranges, const uint32_t *vpns,
                                  uint32_t count, const uint32_t *tps, uint32_t tp_count);

/* Valid ranges and the LPNs they map, over every fraction. */
uint32_t rqftl_ltc_valid_ranges(const rqftl_ltc_t *ltc);
uint32_t rqftl_ltc_valid_lpns(const rqftl_ltc_t *ltc);

#ifdef __cplusplus
}
#endif

#endif
