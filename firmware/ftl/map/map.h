/* The mapping-scheme interface. Every scheme (ideal, DFTL, TPFTL, SFTL, LeaFTL, LearnedFTL,
 * RQFTL) sits behind it, chosen by the boot config.
 *
 * A scheme never touches flash. It answers from what it holds in memory and, when it cannot,
 * names the translation page (TP) the request pipeline must load first. The pipeline loads TPs
 * through the TP store (ftl/map/tp_store.h), which coalesces concurrent loads of one TP, merges
 * writebacks still in flight into what it hands over, and writes TPs to their own open blocks;
 * the GTD (ftl/map/gtd.h) records where each TP lives. A scheme that evicts dirty mappings hands
 * them to the TP store through map_env_t and forgets them at once: from then on the TP store
 * answers for them.
 *
 * Translation page t holds the VPNs of LPNs [t * entries_per_tp, (t + 1) * entries_per_tp), one
 * uint32_t each (VPN_UNMAPPED for an LPN never written or trimmed). All calls run to completion
 * on the hart that drives the FTL; nothing here is reentrant. A scheme may hand long computations
 * to the worker hart (map_env_t submit_job), by the rules of lib/worker.h. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_MAP_H
#define SSDVP_FIRMWARE_FTL_MAP_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_config.h"
#include "lib/arena.h"
#include "lib/worker.h"
#include "ml/rqrmi.h"

#define VPN_UNMAPPED 0xFFFFFFFFu
/* An update's old VPN the caller does not know (map_scheme_t.update). */
#define MAP_OLD_UNKNOWN 0xFFFFFFFDu

typedef enum map_answer {
  MAP_HIT,     /* *value is the VPN (VPN_UNMAPPED if the LPN has none) */
  MAP_MISS,    /* *value is the TP to load; call tp_loaded once it is in memory, then ask again */
  MAP_PREDICT, /* *value is a predicted VPN: read it with its OOB. It was right when the read is
                  OK, the OOB names the LPN and the page is still valid; otherwise the FTL calls
                  mispredicted with what it read. From update: the VPN replaced is known only
                  approximately; the FTL reads *value's OOB, asks mispredicted, and updates
                  again with what that answered */
  MAP_NO_ROOM, /* From update only: nothing changed; the update needs more writebacks than the
                  call's eviction room allowed (map_env_t eviction_room). The FTL asks again once
                  the TP store's reserve is intact; what the call evicted stays evicted, so the
                  next call needs less */
} map_answer_t;

/* The host command a lookup serves, for prefetching decisions (TPFTL's request-level and
 * selective prefetch). GC and internal lookups pass NULL. */
typedef struct map_request {
  uint32_t first_lpn;
  uint32_t pages;
} map_request_t;

/* One dirty mapping a scheme hands back. */
typedef struct map_patch {
  uint32_t lpn;
  uint32_t vpn;
} map_patch_t;

/* What the FTL gives a scheme. */
typedef struct map_env {
  const boot_config_t *boot; /* the scheme's own options (e.g. DFTL whole-TP lines, TPFTL
                                prefetch) live in the boot config */
  uint32_t lpn_count;      /* LPNs the host may address */
  uint32_t entries_per_tp; /* page_bytes / sizeof(uint32_t) */
  uint32_t tp_count;       /* ceil(lpn_count / entries_per_tp) */
  /* DRAM for what a scheme keeps off the SRAM its budget bounds (larger tables, models,
   * per-LPN history); NULL without DRAM. Its regions show in the arena breakdown. */
  arena_t *dram;
  /* Dirty mappings of one TP leave the scheme's memory. The TP store merges them into the TP
   * (reading it first when it exists in flash) and programs it; lookups that miss meanwhile
   * see them through tp_loaded. Never fails: a scheme asks eviction_room (in lookup, update and
   * tp_loaded) or write_back_room (in flush) before each TP it writes back. */
  void (*write_back_patches)(uint32_t tp, const map_patch_t *patches, uint32_t count);
  /* The whole content of a TP leaves the scheme's memory dirty (schemes that cache whole TPs):
   * no read of the old TP is needed. */
  void (*write_back_page)(uint32_t tp, const uint32_t *entries);
  /* Whether one more TP may be written back now outside lookup, update and tp_loaded (flush
   * asks before each TP); it leaves the reserve those calls spend intact. NULL (host tests):
   * always. */
  bool (*write_back_room)(void);
  /* Whether a call of lookup, update or tp_loaded may write one more TP back now. Every dirty
   * eviction inside such a call asks it first. The FTL starts these calls only with the TP
   * store's reserve intact, which covers at least one writeback (ftl.tp_reserve_frames / 2; 4 by
   * default), so a call always gets that far; past its room a scheme evicts clean victims only, caches
   * less (a waiter whose mapping tp_loaded did not keep misses, waits for room and loads the TP
   * again) or answers MAP_NO_ROOM from update, and never drops a mapping. NULL (host tests):
   * always. */
  bool (*eviction_room)(void);
  /* Whether a page holds the current copy of its LPN (the FTL's validity bitmap). */
  bool (*page_valid)(uint32_t vpn);
  /* Whether a page can be read: its stripe has blocks (a free stripe's VPNs name no page). */
  bool (*page_readable)(uint32_t vpn);
  /* The controller core's cycle counter (wraps), for schemes that time their own work. */
  uint32_t (*cycles)(void);
  uint32_t oob_words; /* 32-bit words in a page's OOB (interface/oob_layout.h) */
  uint32_t vpn_count;    /* VPNs of the device: [0, vpn_count) */
  uint32_t stripe_pages; /* VPNs of a stripe: its programs, one stream's, follow each other */
  /* Stops the firmware with `message` (a scheme that cannot go on: its memory, a broken table). */
  void (*fault)(const char *message);
  /* Hands a long computation to the worker hart (lib/worker.h worker_submit: with one hart it
   * runs at once); its on_done comes later, on this hart, from the FTL's main loop, outside any
   * other call of the scheme. False when the mailbox is full. NULL (host tests): the scheme runs
   * the job and its on_done itself, at once. */
  bool (*submit_job)(worker_job_t *job);
  /* The index of the range holding key, or RQRMI_NONE, by RQRMI on the engine the scenario picks
   * (firmware.rqrmi_engine). `generation` changes whenever the model or its ranges do: the
   * accelerator, which holds one model, reloads then. NULL: rqrmi_lookup on this hart. */
  uint32_t (*rqrmi_find)(const rqrmi_model_t *model, const rqrmi_range_t *ranges,
                         uint32_t generation, uint32_t key);
  /* On (true) the calling hart's work passes no simulated time until it is turned off: the
   * platform's what-if for "this took no time" (mcycle still counts it). NULL on the host. */
  void (*zero_time)(bool on);
  /* Host commands completed since boot. NULL on the host. */
  uint64_t (*host_commands)(void);
} map_env_t;

/* Counters every scheme keeps; the FTL adds them to its statistics block. */
typedef struct map_counters {
  uint64_t lookups;
  uint64_t hits;          /* lookups answered from memory (HIT, or a PREDICT that was right) */
  uint64_t misses;        /* lookups answered MISS */
  uint64_t predictions;   /* PREDICT answers */
  uint64_t mispredictions;
  uint64_t updates;
  uint64_t update_misses; /* updates answered MISS */
  uint64_t evictions;     /* mappings (or TPs, for whole-TP caches) evicted */
  uint64_t dirty_evictions;
  uint64_t prefetched;    /* mappings cached beyond those asked for */
  /* Gauges: the bytes of mapping entries the scheme holds (as it stores them, index structures
   * excluded) and the LPNs it can translate now without reading flash. */
  uint32_t table_bytes;
  uint32_t translatable_lpns;
} map_counters_t;

/* How a scheme's mappings come back after a power loss (ftl/recovery.h). */
typedef enum map_recovery {
  MAP_RECOVERY_NONE = 0, /* not implemented yet: a boot after a power loss stops with a message */
  MAP_RECOVERY_TPS,      /* every mapping lives in translation pages: recovery brings those up to
                            date on flash and the scheme's memory starts empty */
  MAP_RECOVERY_TABLE,    /* the scheme takes the recovered mappings through restore */
} map_recovery_t;

typedef struct map_scheme {
  const char *name;
  map_recovery_t recovery;
  /* MAP_RECOVERY_TABLE: after a power loss, before anything else, the recovered mappings of
   * LPNs [first_lpn, first_lpn + count): vpns[i] (VPN_UNMAPPED: none). Called once per range,
   * the ranges in LPN order covering every LPN. */
  void (*restore)(uint32_t first_lpn, uint32_t count, const uint32_t *vpns);
  /* Takes the scheme's structures from the arena, index overheads (hash tables, list links,
   * nodes) included, within budget_bytes. False when even its minimum does not fit. */
  bool (*init)(const map_env_t *env, arena_t *arena, uint32_t budget_bytes);
  map_answer_t (*lookup)(uint32_t lpn, const map_request_t *request, uint32_t *value);
  /* Records lpn -> vpn (a programmed host page, a GC move; VPN_UNMAPPED for a trim). On entry
   * *value is the VPN it replaces when the caller knows it (GC's source page, or what
   * mispredicted resolved after a PREDICT answer), else MAP_OLD_UNKNOWN. HIT: done, *value =
   * the VPN it replaced (VPN_UNMAPPED if none), so the caller can invalidate that page. MISS:
   * nothing changed, *value = the TP to load first. PREDICT: nothing changed, *value = a page
   * whose OOB tells the VPN replaced (a scheme that knows it only approximately). NO_ROOM:
   * nothing changed, ask again once there is room (map_env_t eviction_room). */
  map_answer_t (*update)(uint32_t lpn, uint32_t vpn, uint32_t *value);
  /* A TP this scheme asked for is in memory (entries: entries_per_tp VPNs, pending writebacks
   * merged). wanted[] are the LPNs waiting on it, with the request each serves (NULL entries
   * for updates and GC); the scheme must keep their mappings until the waiters have asked again
   * in this same call chain, but for those its eviction room did not let it take in (their
   * waiters miss and load the TP again). */
  void (*tp_loaded)(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                    const map_request_t *const *requests, uint32_t wanted_count);
  /* A PREDICT answer for lpn was wrong, or an update's PREDICT page was read: vpn_read is the
   * page read, oob its OOB words (interface/oob_layout.h; NULL when the read failed). HIT:
   * *value is the LPN's VPN, found from what was read (e.g. neighbours' mappings the scheme
   * keeps in its OOB area): the FTL reads it, one more read and no TP load. PREDICT: *value is
   * another page to read and verify (what was read did not settle it). MISS: the FTL asks
   * lookup again, which must not predict vpn_read again. for_update: the read serves an
   * update's PREDICT (the page it replaces), not a host lookup. PREDICT schemes only; NULL
   * otherwise. */
  map_answer_t (*mispredicted)(uint32_t lpn, uint32_t vpn_read, const uint32_t *oob,
                               bool for_update, uint32_t *value);
  /* A program completed (a write-buffer flush or a GC batch): lpns[i] was programmed at
   * first_vpn + i, in program order, OOB_FILLER for a filler page. Heard before the pages'
   * mapping updates, so a learned scheme can fit a model to the whole run. NULL: not heard. */
  void (*programmed)(const uint32_t *lpns, uint32_t first_vpn, uint32_t count);
  /* A program is about to be submitted: the OOB of its `count` pages from first_vpn
   * (`oob_words` words each, owners set) lets the scheme fill its area (OOB_SCHEME_FIRST_WORD
   * on). NULL: the area stays as it is. */
  void (*program_oob)(uint32_t first_vpn, uint32_t count, uint32_t *oob, uint32_t oob_words);
  /* GC is about to look through TP `tp`'s mappings in `entries` (its copy, pending writebacks
   * merged): the scheme writes in those of its LPNs it holds newer (dirty cached ones). NULL:
   * it holds none newer. */
  void (*overlay)(uint32_t tp, uint32_t *entries);
  /* GC has moved, in LPN order, the valid pages of TP `tp` that an LPN-ordered victim set held
   * (victim_choice_t.first_tp), and their mapping updates are done: lpns[i] (ascending) went to
   * vpns[i], in program order. LearnedFTL fits the TP's model to them here (GC-time training).
   * A page the host has rewritten since is no longer valid (env page_valid). NULL: not heard. */
  void (*relocated)(uint32_t tp, const uint32_t *lpns, const uint32_t *vpns, uint32_t count);
  /* Hands dirty mappings to write_back_* (flush command), a TP at a time while write_back_room
   * says it fits. True when none is left; false when it stopped for room: the FTL calls again
   * once the TP store has freed frames (the mappings handed over stay clean meanwhile). */
  bool (*flush)(void);
  const map_counters_t *(*counters)(void);
} map_scheme_t;

/* The schemes (one file each under ftl/map/). */
extern const map_scheme_t map_scheme_ideal;
extern const map_scheme_t map_scheme_dftl;
extern const map_scheme_t map_scheme_tpftl;
extern const map_scheme_t map_scheme_sftl;
extern const map_scheme_t map_scheme_leaftl;
extern const map_scheme_t map_scheme_learnedftl;
extern const map_scheme_t map_scheme_rqftl;

#endif
