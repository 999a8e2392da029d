/* The write buffer: page-sized slots (in SRAM or DRAM) that absorb host writes, serve reads of
 * the LPNs they hold, and leave for flash a wordline at a time, in the groups a grouping policy
 * (ftl/fsp/grouping.h) picks from the dirty slots.
 *
 * A slot's life: FREE -> DIRTY (holds the newest data of its LPN; rewrites of the LPN land in
 * the same slot) -> PROGRAMMING (its wordline is being programmed) -> UPDATING (programmed; the
 * mapping is being updated, which may wait for a translation page) -> FREE. Until it is FREE a
 * slot still serves reads of its LPN if it is the newest copy.
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
} wb_state_t;

typedef struct wb_slot {
  list_node_t link; /* in the free list, or in the dirty LRU (front = most recent) */
  uint32_t lpn;
  uint32_t older; /* an in-flight copy of the same LPN this one must follow, or WB_NONE */
  uint32_t newer; /* the copy that follows this one, or WB_NONE */
  uint16_t state;   /* wb_state_t */
  uint16_t filling; /* 1 while its data is still arriving: not to be programmed yet */
} wb_slot_t;

typedef struct write_buffer {
  uint8_t *data; /* slot_count * page_bytes */
  uint32_t page_bytes;
  uint32_t slot_count;
  wb_slot_t *slots;
  hash_table_t newest; /* LPN -> the slot holding its newest buffered copy */
  list_node_t free_slots;
  list_node_t dirty_lru;
  uint32_t free_count;
  uint32_t dirty_count;
} write_buffer_t;

/* Slot data from data_arena ("write_buffer_data"), bookkeeping and the LPN index from
 * meta_arena. False when something does not fit. */
bool wb_init(write_buffer_t *wb, uint32_t slot_count, uint32_t page_bytes, arena_t *meta_arena,
             arena_t *data_arena);

static inline uint8_t *wb_data(const write_buffer_t *wb, uint32_t slot) {
  return wb->data + (uint32_t)slot * wb->page_bytes;
}

/* The slot holding the newest buffered copy of `lpn` (any state but FREE), or WB_NONE. */
uint32_t wb_find(const write_buffer_t *wb, uint32_t lpn);

/* The slot a host write of `lpn` fills: its DIRTY slot if it has one (made most recent), else a
 * free slot, now DIRTY and most recent. Either way the slot is filling until wb_filled. WB_NONE
 * when no slot is free. */
uint32_t wb_write(write_buffer_t *wb, uint32_t lpn);
void wb_filled(write_buffer_t *wb, uint32_t slot);

/* Whether a DIRTY slot may be programmed now: its data is in and no older copy of its LPN is
 * still in flight. */
bool wb_eligible(const write_buffer_t *wb, uint32_t slot);

/* DIRTY -> PROGRAMMING (leaves the LRU), PROGRAMMING -> UPDATING. */
void wb_start_program(write_buffer_t *wb, uint32_t slot);
void wb_programmed(write_buffer_t *wb, uint32_t slot);
/* PROGRAMMING -> DIRTY: the program failed; the slot goes to the LRU tail to be programmed
 * first elsewhere. */
void wb_requeue(write_buffer_t *wb, uint32_t slot);

/* The slot's mapping update is done (or it is dropped): FREE. A newer copy of its LPN becomes
 * eligible. */
void wb_release(write_buffer_t *wb, uint32_t slot);

/* A trim of `lpn`: drops its DIRTY copy. False when a copy is in flight (PROGRAMMING, UPDATING,
 * or a DIRTY copy behind one): retry once it is released so the trim's mapping update comes
 * after the write's. */
bool wb_trim(write_buffer_t *wb, uint32_t lpn);

#endif
