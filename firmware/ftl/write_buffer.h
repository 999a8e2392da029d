/* The write buffer, a data cache: page-sized slots (in SRAM or DRAM) that absorb host writes,
 * serve reads of the LPNs they hold, and leave for flash a wordline at a time, in the groups a
 * grouping policy (ftl/fsp/grouping.h) picks from the dirty slots.
 *
 * A slot's life: FREE -> DIRTY (holds the newest data of its LPN; rewrites of the LPN land in
 * the same slot: write hits) -> PROGRAMMING (its wordline is being programmed) -> UPDATING
 * (programmed; the mapping is being updated, which may wait for a translation page) -> FREE, or,
 * when the buffer keeps clean entries, CLEAN (the same data is on flash) until its slot is
 * needed. Until it is FREE a slot serves reads of its LPN if it is the newest copy.
 *
 * Dirty and clean slots are two lists of one LRU: every write and (with clean entries) every
 * read hit stamps the slot with the buffer's access clock, so a policy can walk the two from
 * their least recent ends as one. A slot is needed when none is free: the least recent clean
 * one is evicted (dropped). Dirty slots leave only by their program, which the flush starts once
 * they pass the watermark (ftl.write_buffer.flush_watermark), evicting on demand.
 *
 * FUA writes (WB_ENTRY_FUA): while such a slot is DIRTY with its data in, it counts in
 * fua_ready, and the flush programs what is eligible at once, a partial wordline padded; the
 * flag is cleared once the slot is programmed.
 *
 * Same-LPN order: a write to an LPN whose newest copy is already in flight takes a new slot that
 * records the older one; it may not be programmed until the older copy is released, so mapping
 * updates of one LPN happen in write order. */
#ifndef SSDVP_FIRMWARE_FTL_WRITE_BUFFER_H
#define SSDVP_FIRMWARE_FTL_WRITE_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"
#include "lib/hash.h"
#include "lib/list.h"

#define WB_NONE 0xFFFFFFFFu

typedef enum wb_state {
  WB_SLOT_FREE = 0,
  WB_SLOT_DIRTY = 1,
  WB_SLOT_PROGRAMMING = 2,
  WB_SLOT_UPDATING = 3,
  WB_SLOT_CLEAN = 4,
} wb_state_t;

/* What wrote an entry (wb_slot_t.flags). */
enum {
  WB_ENTRY_PARTIAL = 1u, /* a partial-page write, merged with the page's older data */
  WB_ENTRY_REWRITE = 2u, /* the FTL rewrote the page (e.g. a QLC page-type refresh), not the host */
  WB_ENTRY_FUA = 4u,     /* a FUA write: its command completes when the page is programmed */
};

/* Pages recorded of the request that wrote an entry at most (it saturates there). */
#define WB_REQUEST_PAGES_MAX 0xFFFFu

typedef struct wb_slot {
  list_node_t link; /* in the free list, the dirty LRU or the clean LRU (front = most recent) */
  uint32_t lpn;
  uint32_t older; /* an in-flight copy of the same LPN this one must follow, or WB_NONE */
  uint32_t newer; /* the copy that follows this one, or WB_NONE */
  uint32_t last_access;   /* the access clock at its last write or read hit */
  uint16_t request_pages; /* pages of the request that last wrote it; 0: filled by a read */
  uint8_t state;          /* wb_state_t */
  uint8_t filling;        /* 1 while its data is still arriving: not to be programmed yet */
  uint8_t flags;          /* WB_ENTRY_* of its last write */
} wb_slot_t;

/* What the buffer did, registered by name by the flush (cache.*). */
typedef struct wb_counters {
  uint64_t read_hits;  /* host page reads served from the buffer */
  uint64_t write_hits; /* host page writes that landed on a dirty or clean copy of their LPN */
  uint64_t fills;      /* clean entries made from pages read from flash */
  uint64_t evictions;  /* clean entries dropped for a slot */
  uint64_t rewrites;   /* pages the FTL wrote back itself (WB_ENTRY_REWRITE) */
} wb_counters_t;

typedef struct write_buffer {
  uint8_t *data; /* slot_count * page_bytes */
  uint32_t page_bytes;
  uint32_t slot_count;
  wb_slot_t *slots;
  hash_table_t newest; /* LPN -> the slot holding its newest buffered copy */
  list_node_t free_slots;
  list_node_t dirty_lru;
  list_node_t clean_lru;
  uint32_t free_count;
  uint32_t dirty_count;
  uint32_t clean_count;
  uint32_t clock; /* access clock: one tick per write or read hit */
  uint32_t fua_ready; /* DIRTY slots of FUA writes whose data is in: programs are forced */
  bool keeps_clean; /* programmed and read pages stay as clean entries */
  wb_counters_t counters;
} write_buffer_t;

/* Slot data from data_arena ("write_buffer_data"), bookkeeping and the LPN index from
 * meta_arena. keeps_clean: the buffer keeps clean entries (ftl.write_buffer.clean_entries).
 * False when something does not fit. */
bool wb_init(write_buffer_t *wb, uint32_t slot_count, uint32_t page_bytes, bool keeps_clean,
             arena_t *meta_arena, arena_t *data_arena);

static inline uint8_t *wb_data(const write_buffer_t *wb, uint32_t slot) {
  return wb->data + (uint32_t)slot * wb->page_bytes;
}

/* The slot holding the newest buffered copy of `lpn` (any state but FREE), or WB_NONE. */
uint32_t wb_find(const write_buffer_t *wb, uint32_t lpn);

/* A host read of `lpn` is served from `slot` (wb_find's answer): counted, and, when the buffer
 * keeps clean entries, the slot becomes the most recent of its list. */
void wb_read_hit(write_buffer_t *wb, uint32_t slot);

/* The slot a write of `lpn` fills (request_pages: the pages of its request; flags: WB_ENTRY_*):
 * its DIRTY or CLEAN slot if it has one (a write hit: *hit, unless hit is NULL, says so; the
 * slot holds the LPN's newest data), else a free slot, or the least recent CLEAN one evicted;
 * now DIRTY and most recent. Either way the slot is filling until wb_filled. WB_NONE when no
 * slot is free or clean. */
uint32_t wb_write(write_buffer_t *wb, uint32_t lpn, uint32_t request_pages, uint32_t flags,
                  bool *hit);
void wb_filled(write_buffer_t *wb, uint32_t slot);

/* A rewrite of `lpn` (WB_ENTRY_REWRITE: the FTL moves data it read to another page): a DIRTY
 * entry at the dirty LRU's least recent end, the next to leave, in a free slot or the least
 * recent clean one's. The caller copies the data in before anything else runs (the slot is not
 * filling). WB_NONE when a copy of the LPN is buffered already or no slot is free or clean. */
uint32_t wb_rewrite(write_buffer_t *wb, uint32_t lpn);

/* Whether a DIRTY slot may be programmed now: its data is in and no older copy of its LPN is
 * still in flight. */
bool wb_eligible(const write_buffer_t *wb, uint32_t slot);

/* Whether every dirty slot may be programmed now, none being programmed: nothing in the buffer
 * will change without a program. */
bool wb_dirty_all_eligible(const write_buffer_t *wb);

/* DIRTY -> PROGRAMMING (leaves the LRU), PROGRAMMING -> UPDATING. */
void wb_start_program(write_buffer_t *wb, uint32_t slot);
void wb_programmed(write_buffer_t *wb, uint32_t slot);
/* PROGRAMMING -> DIRTY: the program failed; the slot goes to the LRU tail to be programmed
 * first elsewhere. */
void wb_requeue(write_buffer_t *wb, uint32_t slot);

/* The slot's mapping update is done (or it is dropped): FREE. A newer copy of its LPN becomes
 * eligible. */
void wb_release(write_buffer_t *wb, uint32_t slot);

/* The programmed slot's mapping update is done: it stays as a CLEAN entry, in LRU order, when
 * the buffer keeps clean entries and it is still the newest copy; otherwise it is released. */
void wb_settle(write_buffer_t *wb, uint32_t slot);

/* A page of `lpn` was read from flash: with clean entries kept and no copy buffered, a CLEAN
 * entry for it, the most recent, in a free slot or the least recent clean one's; the caller
 * copies the data in. WB_NONE otherwise (dirty slots are never evicted for a read). */
uint32_t wb_fill_clean(write_buffer_t *wb, uint32_t lpn);
static inline uint32_t wb_fill(write_buffer_t *wb, uint32_t lpn) {
  return wb->keeps_clean ? wb_fill_clean(wb, lpn) : WB_NONE;
}

/* Every buffered write is on flash and mapped: no slot is dirty or in flight. */
static inline bool wb_all_clean(const write_buffer_t *wb) {
  return wb->free_count + wb->clean_count == wb->slot_count;
}

/* A trim of `lpn`: drops its DIRTY or CLEAN copy. False when a copy is in flight (PROGRAMMING,
 * UPDATING, or a DIRTY copy behind one): retry once it is released so the trim's mapping update
 * comes after the write's. */
bool wb_trim(write_buffer_t *wb, uint32_t lpn);

#endif
