/* The translation-page store: every read and write of a translation page (TP) goes through it.
 *
 * - Loads: a scheme's MISS names a TP; tp_store_load reads it (one read however many requests
 *   wait: they queue on the frame), hands it to the scheme's tp_loaded with every waiter's LPN,
 *   then resumes the waiters in the same call chain so they ask the scheme again. tp_loaded may
 *   evict, so it runs only while the frame reserve is intact; a read completing without it
 *   resumes its waiters without the TP (they wait for room like any other task, then ask again).
 * - Writebacks: dirty mappings a scheme evicts (map_env_t write_back_*) land in a frame, merged
 *   with the TP's flash copy (read first when it exists) or its newer copy in memory; loads that
 *   arrive meanwhile see the merged content.
 * - Programs: dirty frames are buffered until a whole translation wordline is ready (readable
 *   all the while), then programmed to the translation stream; padding pages complete a wordline
 *   only when forced (flush, or frames running out). When a program completes, the GTD points at
 *   the new page and the old one is invalidated.
 * - GC of translation blocks: tp_store_relocate rewrites a still-current TP elsewhere.
 *
 * Frames are page-sized buffers from the arena. Writebacks never wait: a scheme call (lookup,
 * update, tp_loaded) starts only while tp_store_can_evict says the reserve is intact and writes
 * each TP back only while tp_store_eviction_room says two frames are left; any other writeback
 * (a scheme's flush) hands over a TP only while tp_store_can_write_back says it leaves the
 * reserve intact; a flash copy that must be read first when no flash record is free is read
 * later (tp_store_start_reads). A flush that finds no room stops and is called again once frames
 * come free (map.h). Same-TP copies are programmed in order (a newer copy waits for the older
 * one's program). */
#ifndef SSDVP_FIRMWARE_FTL_MAP_TP_STORE_H
#define SSDVP_FIRMWARE_FTL_MAP_TP_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/block.h"
#include "ftl/flash.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "lib/arena.h"
#include "lib/hash.h"
#include "lib/list.h"

/* TPs the default reserve (ftl.tp_reserve_frames 0) lets every call of a scheme (lookup,
 * update or tp_loaded) write back, at least; each may need two frames (the flash copy being read
 * and the patches waiting for it). A reserve of R frames lets a call write back R / 2. */
#define TP_STORE_EVICTIONS_PER_CALL 4u
#define TP_STORE_RESERVE_FRAMES (2u * TP_STORE_EVICTIONS_PER_CALL)
/* Flash records loads leave for writebacks and TP programs. */
#define TP_STORE_RESERVE_RECORDS 2u
/* Most pages one translation wordline program writes (the FTL refuses larger geometries). */
#define TP_STORE_MAX_UNIT_PAGES 64u

typedef struct tp_waiter tp_waiter_t;
struct tp_waiter {
  tp_waiter_t *next;
  uint32_t lpn;                  /* the LPN it wants (for tp_loaded) */
  const map_request_t *request;  /* the host command it serves, or NULL */
  bool host_read;                /* counts the TP read as one a host read waited for */
  /* Non-NULL: the TP's content (pending writebacks merged) is copied here before the waiter
   * resumes, and the scheme does not hear of it (GC reads TPs this way). */
  uint32_t *copy;
  void (*resume)(tp_waiter_t *waiter);
};

typedef enum tp_load_result {
  TP_LOAD_DONE,    /* the TP was in memory: tp_loaded has run, ask the scheme again now */
  TP_LOAD_WAITING, /* the waiter's resume runs once the TP is in */
  TP_LOAD_STALLED, /* no frame or flash record free now: try again after tp_store_progress */
} tp_load_result_t;

typedef struct tp_frame {
  list_node_t link; /* free list or dirty FIFO */
  uint32_t tp;
  uint32_t state;   /* tp_frame_state_t (tp_store.c) */
  uint32_t *entries;
  uint32_t *patched; /* bitmap of entries set by writebacks while the flash copy is read */
  uint32_t older;    /* frame of an older copy of the same TP still loading or programming */
  uint32_t newer;
  bool keep;         /* a load's frame becomes dirty instead of free (patched, or relocated) */
  tp_waiter_t *waiters;
  tp_waiter_t *waiters_tail;
} tp_frame_t;

/* What the TP store did (tp_store_register_metrics names them). */
typedef struct tp_store_counters {
  uint64_t reads;          /* TPs read, for whatever purpose */
  uint64_t reads_for_host; /* of those, reads a host read waited for */
  uint64_t programmed;     /* TPs programmed */
  uint64_t padding;        /* filler pages completing a TP wordline */
} tp_store_counters_t;

typedef struct tp_store {
  const map_scheme_t *scheme;
  flash_layer_t *flash;
  block_manager_t *blocks;
  gtd_t *gtd;
  tp_store_counters_t counters;
  uint32_t entries_per_tp;
  uint32_t page_bytes;
  uint32_t frame_count;
  uint32_t reserve_frames; /* kept free for a scheme call's writebacks (ftl.tp_reserve_frames) */
  tp_frame_t *frames;
  hash_table_t newest; /* TP -> its newest frame */
  list_node_t free_frames;
  list_node_t dirty_fifo;
  list_node_t unread; /* LOADING frames whose read waits for a flash record */
  uint32_t free_count;
  uint32_t dirty_count;
  uint32_t programs_in_flight;
  uint32_t reads_in_flight;
  uint32_t writebacks; /* write_back_* calls so far: TPs keep becoming dirty while it moves */
  /* entries_per_tp x VPN_UNMAPPED: a TP never written, and the padding of partial translation
   * wordlines (a filler page is never read as a TP) */
  uint32_t *unmapped_page;
  uint32_t *wanted;        /* tp_loaded arguments, waiter_capacity each */
  const map_request_t **requests;
  uint32_t waiter_capacity;
  bool progressed; /* a frame or flash record came free since the last tp_store_take_progress */
} tp_store_t;

/* The frames of a TP store (ftl.tp_load_frames, ftl.tp_program_frames, ftl.tp_reserve_frames).
 * load: frames for loads in flight beyond the others; program: frames where dirty TPs gather
 * for a program (0: a wordline's pages, blocks->pages_per_program); reserve: frames kept free
 * for the writebacks of one scheme call (0: TP_STORE_RESERVE_FRAMES). */
typedef struct tp_store_frames {
  uint32_t load;
  uint32_t program;
  uint32_t reserve;
} tp_store_frames_t;

/* waiter_capacity: the most waiters that can exist at once (page requests, buffer slots, GC
 * moves). False when the frames do not fit in the arena. */
bool tp_store_init(tp_store_t *store, const map_scheme_t *scheme, flash_layer_t *flash,
                   block_manager_t *blocks, gtd_t *gtd, uint32_t entries_per_tp,
                   uint32_t waiter_capacity, tp_store_frames_t frames, arena_t *arena);

/* Registers the counters as metrics (lib/metrics.h). */
void tp_store_register_metrics(const tp_store_t *store);

tp_load_result_t tp_store_load(tp_store_t *store, uint32_t tp, tp_waiter_t *waiter);

/* The map_env_t callbacks (write_back_patches, write_back_page) forward here. */
void tp_store_write_back_patches(tp_store_t *store, uint32_t tp, const map_patch_t *patches,
                                 uint32_t count);
void tp_store_write_back_page(tp_store_t *store, uint32_t tp, const uint32_t *entries);

/* Whether work that may make the scheme evict can start (the writeback reserve is free). */
bool tp_store_can_evict(const tp_store_t *store);

/* Whether a scheme call the reserve let start may write one more TP back now (map_env_t
 * eviction_room): it takes at most two frames, and a flash copy it must read waits for a
 * record on its own (tp_store_start_reads). */
bool tp_store_eviction_room(const tp_store_t *store);

/* Whether a writeback outside the scheme calls the reserve covers (a flush) may hand over one
 * more TP now: it takes at most two frames and leaves the reserve. */
bool tp_store_can_write_back(const tp_store_t *store);

/* GC found TP `tp` at `vpn`: if that is still its current copy, it will be rewritten elsewhere.
 * False when no frame is free now (try again later). */
bool tp_store_relocate(tp_store_t *store, uint32_t tp, uint32_t vpn);

/* Programs whole translation wordlines of dirty TPs; with `force`, a last partial one too
 * (padded). Also forces one when frames run short. */
void tp_store_pump(tp_store_t *store, bool force);

/* Starts the reads writebacks left for want of a flash record. The main loop calls it after
 * draining flash completions. */
void tp_store_start_reads(tp_store_t *store);

/* No TP read or program in flight or waiting to start, and nothing dirty. */
bool tp_store_idle(const tp_store_t *store);

/* True once after a frame or flash record came free (stalled loads may retry). */
bool tp_store_take_progress(tp_store_t *store);

#endif
