#include "ftl/map/tp_store.h"

#include <string.h>

#include "hal/console.h"
#include "hal/job_kind.h"
#include "hal/system.h"
#include "lib/bitmap.h"
#include "lib/metrics.h"

#define NO_FRAME 0xFFFFFFFFu

typedef enum tp_frame_state {
  FRAME_FREE = 0,
  FRAME_LOADING = 1,     /* the flash copy is being read into it */
  FRAME_MERGING = 2,     /* writebacks waiting for the older LOADING frame's content */
  FRAME_DIRTY = 3,       /* complete and newer than flash: waits in the dirty FIFO */
  FRAME_PROGRAMMING = 4, /* being programmed; still readable */
  FRAME_CLEAN = 5,       /* just read, the same as flash, while the scheme takes it in */
} tp_frame_state_t;

static uint32_t frame_index(const tp_store_t *store, const tp_frame_t *frame) {
  return (uint32_t)(frame - store->frames);
}

static uint32_t newest_frame(const tp_store_t *store, uint32_t tp) {
  uint32_t index;
  return hash_find(&store->newest, tp, &index) ? index : NO_FRAME;
}

bool tp_store_init(tp_store_t *store, const map_scheme_t *scheme, flash_layer_t *flash,
                   block_manager_t *blocks, gtd_t *gtd, uint32_t entries_per_tp,
                   uint32_t waiter_capacity, tp_store_frames_t frames, arena_t *arena) {
  store->scheme = scheme;
  store->flash = flash;
  store->blocks = blocks;
  store->gtd = gtd;
  memset(&store->counters, 0, sizeof(store->counters));
  store->entries_per_tp = entries_per_tp;
  store->page_bytes = entries_per_tp * (uint32_t)sizeof(uint32_t);
  store->reserve_frames = frames.reserve != 0 ? frames.reserve : TP_STORE_RESERVE_FRAMES;
  store->frame_count = (frames.program != 0 ? frames.program : blocks->pages_per_program) +
                       store->reserve_frames + frames.load;
  store->waiter_capacity = waiter_capacity;
  store->programs_in_flight = 0;
  store->reads_in_flight = 0;
  store->writebacks = 0;
  store->progressed = false;
  uint32_t bitmap_bytes = bitmap_words(entries_per_tp) * (uint32_t)sizeof(uint32_t);
  store->frames =
      (tp_frame_t *)arena_alloc(arena, "tp_frames", store->frame_count * sizeof(tp_frame_t));
  uint8_t *pages =
      (uint8_t *)arena_alloc(arena, "tp_frame_pages", store->frame_count * store->page_bytes);
  uint8_t *bitmaps =
      (uint8_t *)arena_alloc(arena, "tp_frame_patch_maps", store->frame_count * bitmap_bytes);
  store->unmapped_page = (uint32_t *)arena_alloc(arena, "tp_unmapped_page", store->page_bytes);
  store->wanted = (uint32_t *)arena_alloc(arena, "tp_loaded_lpns",
                                          waiter_capacity * (uint32_t)sizeof(uint32_t));
  store->requests = (const map_request_t **)arena_alloc(
      arena, "tp_loaded_requests", waiter_capacity * (uint32_t)sizeof(map_request_t *));
  bool index_fits = hash_init(&store->newest, arena, "tp_frame_index", store->frame_count);
  if (store->frames == 0 || pages == 0 || bitmaps == 0 || store->unmapped_page == 0 || store->wanted == 0 || store->requests == 0 || !index_fits) {
    return false;
  }
  for (uint32_t i = 0; i < entries_per_tp; ++i) {
    store->unmapped_page[i] = VPN_UNMAPPED;
  }
  list_init(&store->free_frames);
  list_init(&store->dirty_fifo);
  list_init(&store->unread);
  for (uint32_t i = 0; i < store->frame_count; ++i) {
    tp_frame_t *frame = &store->frames[i];
    frame->entries = (uint32_t *)(pages + i * store->page_bytes);
    frame->patched = (uint32_t *)(bitmaps + i * bitmap_bytes);
    frame->state = FRAME_FREE;
    list_push_back(&store->free_frames, &frame->link);
  }
  store->free_count = store->frame_count;
  store->dirty_count = 0;
  return true;
}

bool tp_store_can_evict(const tp_store_t *store) {
  return store->free_count >= store->reserve_frames;
}

bool tp_store_eviction_room(const tp_store_t *store) { return store->free_count >= 2u; }

bool tp_store_can_write_back(const tp_store_t *store) {
  return store->free_count >= store->reserve_frames + 2u;
}

bool tp_store_take_progress(tp_store_t *store) {
  bool progressed = store->progressed;
  store->progressed = false;
  return progressed;
}

bool tp_store_idle(const tp_store_t *store) {
  return store->dirty_count == 0 && store->programs_in_flight == 0 &&
         store->reads_in_flight == 0 && list_empty(&store->unread);
}

static void read_done(flash_op_t *op, uint32_t status);
static void program_done(flash_op_t *op, uint32_t status);

/* A free frame for `tp` as its newest copy, chained behind `older` (NO_FRAME if none). */
static tp_frame_t *take_frame(tp_store_t *store, uint32_t tp, uint32_t state, uint32_t older) {
  list_node_t *node = list_pop_front(&store->free_frames);
  if (node == 0) {
    fw_printf("tp_store: out of frames (%u) for TP %u\n", (unsigned)store->frame_count,
              (unsigned)tp);
    system_fault();
  }
  --store->free_count;
  tp_frame_t *frame = LIST_ENTRY(node, tp_frame_t, link);
  frame->tp = tp;
  frame->state = state;
  frame->older = older;
  frame->newer = NO_FRAME;
  frame->keep = false;
  frame->waiters = 0;
  frame->waiters_tail = 0;
  if (older != NO_FRAME) {
    store->frames[older].newer = frame_index(store, frame);
  }
  hash_put(&store->newest, tp, frame_index(store, frame));
  return frame;
}

static void release_frame(tp_store_t *store, tp_frame_t *frame) {
  uint32_t index = frame_index(store, frame);
  if (frame->newer != NO_FRAME) {
    store->frames[frame->newer].older = NO_FRAME;
  }
  if (newest_frame(store, frame->tp) == index) {
    hash_remove(&store->newest, frame->tp);
  }
  frame->state = FRAME_FREE;
  list_push_back(&store->free_frames, &frame->link);
  ++store->free_count;
  store->progressed = true;
}

static void make_dirty(tp_store_t *store, tp_frame_t *frame) {
  frame->state = FRAME_DIRTY;
  list_push_back(&store->dirty_fifo, &frame->link);
  ++store->dirty_count;
}

/* Reads the TP's flash copy into the LOADING frame; false when no flash record is free. */
static bool submit_read(tp_store_t *store, tp_frame_t *frame) {
  flash_op_t *op = flash_op_take(store->flash, read_done, store);
  if (op == 0) {
    return false;
  }
  op->user = frame_index(store, frame);
  flash_io_meta(store->flash, op, 0, frame->entries);
  flash_read(store->flash, op, gtd_get(store->gtd, frame->tp), 1);
  ++store->reads_in_flight;
  ++store->counters.reads;
  return true;
}

/* A new LOADING frame for the TP's flash copy. Loads start only with a flash record to spare; a
 * writeback that finds none leaves its read to tp_store_start_reads rather than wait for one. */
static tp_frame_t *start_read(tp_store_t *store, uint32_t tp) {
  tp_frame_t *frame = take_frame(store, tp, FRAME_LOADING, NO_FRAME);
  if (!submit_read(store, frame)) {
    list_push_back(&store->unread, &frame->link);
  }
  return frame;
}

static void add_waiter(tp_frame_t *frame, tp_waiter_t *waiter) {
  waiter->next = 0;
  if (frame->waiters_tail == 0) {
    frame->waiters = waiter;
  } else {
    frame->waiters_tail->next = waiter;
  }
  frame->waiters_tail = waiter;
}

/* Hands a complete TP to the scheme for the given waiters, then lets each ask again. */
static void deliver(tp_store_t *store, uint32_t tp, const uint32_t *entries,
                    tp_waiter_t *waiters) {
  uint32_t count = 0;
  for (tp_waiter_t *w = waiters; w != 0 && count < store->waiter_capacity; w = w->next) {
    if (w->copy != 0) {
      memcpy(w->copy, entries, store->page_bytes);
      continue;
    }
    store->wanted[count] = w->lpn;
    store->requests[count] = w->request;
    ++count;
  }
  if (count != 0) {
    store->scheme->tp_loaded(tp, entries, store->wanted, store->requests, count);
  }
  while (waiters != 0) {
    tp_waiter_t *next = waiters->next;
    waiters->resume(waiters);
    waiters = next;
  }
}

void tp_store_register_metrics(const tp_store_t *store) {
  metrics_counter("flash_reads.translation", &store->counters.reads);
  metrics_counter("flash_reads.translation_host", &store->counters.reads_for_host);
  metrics_counter("pages_programmed.translation", &store->counters.programmed);
  metrics_counter("pages_programmed.padding.translation", &store->counters.padding);
}

/* A TP in memory goes to the waiter at once: to the scheme, or copied for a copy waiter. */
static void hand_over(tp_store_t *store, uint32_t tp, const uint32_t *entries,
                      tp_waiter_t *waiter) {
  if (waiter->copy != 0) {
    memcpy(waiter->copy, entries, store->page_bytes);
  } else {
    store->scheme->tp_loaded(tp, entries, &waiter->lpn, &waiter->request, 1);
  }
}

tp_load_result_t tp_store_load(tp_store_t *store, uint32_t tp, tp_waiter_t *waiter) {
  uint32_t newest = newest_frame(store, tp);
  if (newest != NO_FRAME) {
    tp_frame_t *frame = &store->frames[newest];
    if (frame->state == FRAME_DIRTY || frame->state == FRAME_PROGRAMMING ||
        frame->state == FRAME_CLEAN) {
      hand_over(store, tp, frame->entries, waiter);
      return TP_LOAD_DONE;
    }
    /* LOADING, or MERGING behind a LOADING frame: wait for the read. */
    tp_frame_t *loading = frame->state == FRAME_LOADING ? frame : &store->frames[frame->older];
    add_waiter(loading, waiter);
    return TP_LOAD_WAITING;
  }
  if (gtd_get(store->gtd, tp) == VPN_UNMAPPED) {
    hand_over(store, tp, store->unmapped_page, waiter);
    return TP_LOAD_DONE;
  }
  if (store->free_count <= store->reserve_frames ||
      store->flash->free_count <= TP_STORE_RESERVE_RECORDS) {
    return TP_LOAD_STALLED;
  }
  add_waiter(start_read(store, tp), waiter);
  return TP_LOAD_WAITING;
}

/* A CLEAN frame's waiters have had it: a writeback or relocation they caused keeps it as the
 * TP's newest copy (it is then programmed); otherwise it is free. */
static void settle_clean(tp_store_t *store, tp_frame_t *frame) {
  if (frame->keep && newest_frame(store, frame->tp) == frame_index(store, frame)) {
    make_dirty(store, frame);
  } else {
    release_frame(store, frame);
  }
}

/* Out of line: the reserve is rarely short when a read completes. The scheme's tp_loaded may
 * evict, which only the reserve makes safe, so its waiters resume without the TP: they find no
 * room, wait for it in the task queue and ask for the TP again (copy waiters need no room and
 * take their copy). */
static __attribute__((noinline)) void resume_without_tp(tp_store_t *store, tp_frame_t *frame,
                                                        tp_waiter_t *waiters) {
  for (tp_waiter_t *w = waiters; w != 0; w = w->next) {
    if (w->copy != 0) {
      memcpy(w->copy, frame->entries, store->page_bytes);
    }
  }
  settle_clean(store, frame);
  while (waiters != 0) {
    tp_waiter_t *next = waiters->next;
    waiters->resume(waiters);
    waiters = next;
  }
}

/* Hands a CLEAN frame's content (the TP's newest, writebacks merged) to its waiters. */
static void deliver_frame(tp_store_t *store, tp_frame_t *frame) {
  tp_waiter_t *waiters = frame->waiters;
  frame->waiters = frame->waiters_tail = 0;
  if (waiters != 0 && !tp_store_can_evict(store)) {
    resume_without_tp(store, frame, waiters);
    return;
  }
  deliver(store, frame->tp, frame->entries, waiters);
  settle_clean(store, frame);
}

static void read_done(flash_op_t *op, uint32_t status) {
  tp_store_t *store = (tp_store_t *)op->owner;
  tp_frame_t *frame = &store->frames[op->user];
  --store->reads_in_flight;
  if (status != NFC_STATUS_OK) {
    fw_printf("tp_store: reading TP %u at VPN %#x failed with NFC status %u\n",
              (unsigned)frame->tp, (unsigned)op->vpn, (unsigned)status);
    system_fault();
  }
  for (tp_waiter_t *w = frame->waiters; w != 0; w = w->next) {
    if (w->host_read) {
      ++store->counters.reads_for_host;
      break;
    }
  }
  if (frame->newer != NO_FRAME) {
    /* Writebacks arrived while reading: the flash copy fills what they did not set, and the
     * merged copy goes on to be programmed. The waiters get a copy of it in this frame, which
     * no writeback or program touches while the scheme takes it in. */
    tp_frame_t *merged = &store->frames[frame->newer];
    for (uint32_t i = 0; i < store->entries_per_tp; ++i) {
      if (!bitmap_test(merged->patched, i)) {
        merged->entries[i] = frame->entries[i];
      }
    }
    make_dirty(store, merged);
    merged->older = NO_FRAME;
    frame->newer = NO_FRAME;
    memcpy(frame->entries, merged->entries, store->page_bytes);
  }
  frame->state = FRAME_CLEAN;
  deliver_frame(store, frame);
}

/* Out of line: the main loop calls tp_store_start_reads on every turn, and the list is mostly
 * empty. */
static __attribute__((noinline)) void start_unread(tp_store_t *store) {
  while (!list_empty(&store->unread)) {
    tp_frame_t *frame = LIST_ENTRY(store->unread.next, tp_frame_t, link);
    if (!submit_read(store, frame)) {
      return;
    }
    list_remove(&frame->link);
  }
}

void tp_store_start_reads(tp_store_t *store) {
  if (!list_empty(&store->unread)) {
    uint32_t outer = job_kind_enter(JOB_KIND_TRANSLATION);
    start_unread(store);
    job_kind_set(outer);
  }
}

/* The frame writebacks of `tp` go into: a complete in-memory copy (DIRTY), or a MERGING frame
 * behind a read of the flash copy. */
static tp_frame_t *writeback_target(tp_store_t *store, uint32_t tp, bool whole_page) {
  uint32_t newest = newest_frame(store, tp);
  if (newest == NO_FRAME) {
    if (whole_page || gtd_get(store->gtd, tp) == VPN_UNMAPPED) {
      tp_frame_t *frame = take_frame(store, tp, FRAME_DIRTY, NO_FRAME);
      memcpy(frame->entries, store->unmapped_page, store->page_bytes);
      list_push_back(&store->dirty_fifo, &frame->link);
      ++store->dirty_count;
      return frame;
    }
    newest = frame_index(store, start_read(store, tp));
  }
  tp_frame_t *frame = &store->frames[newest];
  switch (frame->state) {
  case FRAME_CLEAN:
    frame->keep = true;
    return frame;
  case FRAME_DIRTY:
  case FRAME_MERGING:
    return frame;
  case FRAME_LOADING: {
    tp_frame_t *merging = take_frame(store, tp, FRAME_MERGING, newest);
    bitmap_clear_range(merging->patched, 0, store->entries_per_tp);
    return merging;
  }
  default: { /* PROGRAMMING: a newer copy, programmed after this one */
    tp_frame_t *copy = take_frame(store, tp, FRAME_DIRTY, newest);
    memcpy(copy->entries, frame->entries, store->page_bytes);
    list_push_back(&store->dirty_fifo, &copy->link);
    ++store->dirty_count;
    return copy;
  }
  }
}

void tp_store_write_back_patches(tp_store_t *store, uint32_t tp, const map_patch_t *patches,
                                 uint32_t count) {
  tp_frame_t *frame = writeback_target(store, tp, false);
  ++store->writebacks;
  uint32_t first_lpn = tp * store->entries_per_tp;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t entry = patches[i].lpn - first_lpn;
    frame->entries[entry] = patches[i].vpn;
    if (frame->state == FRAME_MERGING) {
      bitmap_set(frame->patched, entry);
    }
  }
}

void tp_store_write_back_page(tp_store_t *store, uint32_t tp, const uint32_t *entries) {
  tp_frame_t *frame = writeback_target(store, tp, true);
  ++store->writebacks;
  memcpy(frame->entries, entries, store->page_bytes);
  if (frame->state == FRAME_MERGING) {
    for (uint32_t i = 0; i < bitmap_words(store->entries_per_tp); ++i) {
      frame->patched[i] = 0xFFFFFFFFu;
    }
  }
}

bool tp_store_relocate(tp_store_t *store, uint32_t tp, uint32_t vpn) {
  if (gtd_get(store->gtd, tp) != vpn) {
    return true;
  }
  uint32_t newest = newest_frame(store, tp);
  if (newest != NO_FRAME) {
    /* A copy newer than flash will be programmed anyway, unless it is a plain load. */
    store->frames[newest].keep = true;
    return true;
  }
  if (store->free_count <= store->reserve_frames ||
      store->flash->free_count <= TP_STORE_RESERVE_RECORDS) {
    return false;
  }
  start_read(store, tp)->keep = true;
  return true;
}

/* The oldest dirty frames whose older copies are done, up to `limit`. */
static uint32_t eligible_dirty(tp_store_t *store, tp_frame_t **picked, uint32_t limit) {
  uint32_t count = 0;
  for (list_node_t *node = store->dirty_fifo.next; node != &store->dirty_fifo && count < limit;
       node = node->next) {
    tp_frame_t *frame = LIST_ENTRY(node, tp_frame_t, link);
    if (frame->older == NO_FRAME) {
      picked[count++] = frame;
    }
  }
  return count;
}

/* Out of line: tp_store_pump's check, made on every turn of the main loop, stays free of the
 * register saves and the frame array this needs. */
static __attribute__((noinline)) void program_dirty(tp_store_t *store, bool force) {
  const uint32_t unit_pages = store->blocks->pages_per_program;
  tp_frame_t *picked[TP_STORE_MAX_UNIT_PAGES];
  for (;;) {
    if (store->dirty_count == 0) {
      return; /* the usual answer on a turn of the main loop */
    }
    /* Padding costs flash: pad only when frames are short and no read or program in flight
     * will free one. */
    bool short_of_frames = store->free_count <= store->reserve_frames &&
                           store->reads_in_flight == 0 && store->programs_in_flight == 0;
    if (store->dirty_count < unit_pages && !force && !short_of_frames) {
      return; /* no whole wordline can be eligible: skip the FIFO walk */
    }
    uint32_t count = eligible_dirty(store, picked, unit_pages);
    if (count == 0 || (count < unit_pages && !force && !short_of_frames)) {
      return;
    }
    flash_op_t *op = flash_op_take_program(store->flash, program_done, store);
    if (op == 0) {
      return;
    }
    uint32_t vpn = block_alloc_wordline(store->blocks, BLOCK_STREAM_TRANSLATION, 0);
    if (vpn == BLOCK_NONE) {
      fw_printf("tp_store: no free stripe for translation pages\n");
      system_fault();
    }
    /* io entries plane-major in page-type order; page i of the unit is plane i / bits, page
     * type i % bits. */
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t *oob = flash_oob(store->flash, op, i);
      tp_frame_t *frame = picked[i];
      list_remove(&frame->link);
      --store->dirty_count;
      frame->state = FRAME_PROGRAMMING;
      flash_io_meta(store->flash, op, i, frame->entries);
      oob[OOB_WORD_OWNER] = frame->tp | OOB_TRANSLATION;
      oob[OOB_WORD_SOURCE] = frame_index(store, frame);
      oob[OOB_WORD_COPIES] = 0;
      ++store->counters.programmed;
    }
    store->counters.padding +=
        flash_io_pad(store->flash, op, count, unit_pages, store->unmapped_page, true);
    op->user = count;
    ++store->programs_in_flight;
    flash_program(store->flash, op, vpn, store->blocks->unit_planes);
  }
}

void tp_store_pump(tp_store_t *store, bool force) {
  if (store->dirty_count != 0) {
    uint32_t outer = job_kind_enter(JOB_KIND_TRANSLATION);
    program_dirty(store, force);
    job_kind_set(outer);
  }
}

static void program_done(flash_op_t *op, uint32_t status) {
  tp_store_t *store = (tp_store_t *)op->owner;
  --store->programs_in_flight;
  uint32_t count = op->user;
  if (status != NFC_STATUS_OK) {
    block_program_failed(store->blocks, op->vpn);
  } else {
    /* The wordline's pages, padding included, are final: the stripe may be collected once
     * full. */
    block_wordline_settled(store->blocks, op->vpn);
  }
  for (uint32_t i = 0; i < count; ++i) {
    tp_frame_t *frame = &store->frames[flash_oob(store->flash, op, i)[OOB_WORD_SOURCE]];
    if (status != NFC_STATUS_OK) {
      /* Rewritten elsewhere: first in line again. */
      frame->state = FRAME_DIRTY;
      list_push_front(&store->dirty_fifo, &frame->link);
      ++store->dirty_count;
      continue;
    }
    uint32_t vpn = op->vpn + i;
    uint32_t old = gtd_set(store->gtd, frame->tp, vpn);
    if (old != VPN_UNMAPPED) {
      block_page_invalidate(store->blocks, old);
    }
    block_page_validate(store->blocks, vpn);
    release_frame(store, frame);
  }
  store->progressed = true;
}
