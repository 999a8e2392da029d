#include "ftl/ftl.h"

#include <string.h>

#include "data_tag.h"
#include "ftl/block.h"
#include "ftl/flash.h"
#include "ftl/fsp/grouping.h"
#include "ftl/gc.h"
#include "ftl/gc/victim.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/map/tp_store.h"
#include "ftl/task.h"
#include "ftl/write_buffer.h"
#include "hal/console.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "hal/timer.h"
#include "lib/format.h"
#include "lib/hash.h"
#include "lib/list.h"
#include "lib/metrics.h"

#define NONE 0xFFFFFFFFu
#define HIC_RING_ENTRIES 256u
/* Flash records host reads and programs leave free, for the TP store's writebacks. */
#define FTL_RECORDS_KEPT (TP_STORE_RESERVE_RECORDS + 1u)
/* Most pages one program writes (bits per cell x planes) this firmware handles. */
#define FTL_MAX_UNIT_PAGES TP_STORE_MAX_UNIT_PAGES

typedef enum pr_kind { PR_READ, PR_WRITE, PR_TRIM } pr_kind_t;

typedef enum pr_stage {
  PR_START,        /* ordered: first step */
  PR_TRANSLATE,    /* look the LPN up (reads; partial writes before the old-data read) */
  PR_FLASH,        /* waiting for a flash read */
  PR_TRANSFER,     /* waiting for DATA_IN / DATA_OUT */
} pr_stage_t;

typedef struct page_request {
  task_t task;
  tp_waiter_t waiter;
  uint32_t cmd_id;
  uint32_t page_index;
  uint32_t lpn;
  uint32_t kind;
  uint32_t stage;
  uint32_t slot;          /* read slot (reads) or write-buffer slot (writes) */
  uint32_t next_same_lpn; /* the request after this one on the same LPN */
  bool partial;
  bool predicted;
  bool asked;           /* the scheme answered this request before (a retry is no lookup) */
  bool first_predicted; /* its first answer was a prediction: a hit if the OOB confirms it */
} page_request_t;

typedef struct command {
  list_node_t link; /* in the dispatch queue or the flush queue */
  uint32_t op;
  uint32_t flags;
  uint32_t lpn;
  uint32_t pages;
  uint32_t next_page;
  uint32_t pages_done;
  uint32_t status;
  map_request_t request;
} command_t;

/* The mapping update of one write-buffer slot after its program. */
typedef struct slot_update {
  task_t task;
  tp_waiter_t waiter;
  uint32_t slot;
  uint32_t vpn;
} slot_update_t;

/* What the pipeline did, registered by name in register_metrics. */
typedef struct ftl_counters {
  uint64_t host_commands;
  uint64_t host_read_pages;
  uint64_t host_write_pages;
  uint64_t host_trim_pages;
  uint64_t write_buffer_read_hits; /* host reads served from the write buffer */
  uint64_t partial_page_merges;    /* partial-page writes merged with the old data (RMW) */
  /* Host page requests translated: each counts once, at its first lookup (it asks again after
   * a TP load); a hit needed no TP load (a right prediction included). */
  uint64_t map_lookups;
  uint64_t map_hits;
  uint64_t map_misses;
  uint64_t flash_reads_host; /* data reads for host reads, mispredictions included */
  uint64_t flash_reads_rmw;  /* old-data reads of partial-page writes */
  uint64_t host_reads_by_page_type[4]; /* flash_reads_host by the page type read */
  uint64_t programmed_host;  /* host data pages programmed */
  uint64_t padding_host;     /* filler pages completing a host wordline */
} ftl_counters_t;

static struct {
  const boot_config_t *boot;
  ftl_counters_t counters;
  const map_scheme_t *scheme;
  const grouping_policy_t *grouping;
  const victim_policy_t *victim_policy;
  nand_geometry_t geometry;
  uint32_t lpn_count;
  uint32_t entries_per_tp;
  uint32_t tp_count;
  uint32_t unit_pages; /* pages one program writes */
  flash_layer_t flash;
  block_manager_t blocks;
  write_buffer_t wb;
  gtd_t gtd;
  tp_store_t tp_store;
  map_env_t env;

  command_t *commands;
  uint32_t max_commands;
  list_node_t dispatch_queue;
  list_node_t flush_queue;
  bool flushing;

  page_request_t *requests; /* request_count of them (ftl.page_requests) */
  uint32_t *free_requests;
  uint32_t request_count;
  uint32_t free_request_count;
  hash_table_t lpn_tail; /* LPN -> the last request queued on it */

  uint8_t *read_slots; /* read_slot_count pages (ftl.read_slots) */
  uint32_t *free_read_slots;
  uint32_t read_slot_count;
  uint32_t free_read_slot_count;
  uint32_t *read_slot_owner;
  uint32_t *wb_slot_owner; /* the write request filling each slot */
  slot_update_t *updates;  /* per write-buffer slot */
  uint8_t *filler_slot;    /* a zero page for padding user wordlines */


  bool host_blocked;   /* host data waits for a stripe only GC can free */
  /* Dirty TPs wait in SRAM for a whole translation wordline; once no TP has become dirty for the
   * boot config's delay they are programmed padded, so a read-mostly phase reads its TPs from
   * flash like a real device, while a write phase, which keeps dirtying TPs, pads nothing. */
  bool tp_flush_armed;
  uint32_t tp_writebacks_seen;
  volatile bool tp_flush_due; /* set by the timer interrupt */

  hic_event_t *event_ring;
  hic_request_t *request_ring;
} ftl;

/* A flash record for host or GC work, leaving the TP store's reserve; NULL when none. */
static flash_op_t *take_record(flash_done_fn done, void *owner) {
  if (ftl.flash.free_count <= FTL_RECORDS_KEPT) {
    return 0;
  }
  return flash_op_take(&ftl.flash, done, owner);
}

static bool record_available(void) { return ftl.flash.free_count > FTL_RECORDS_KEPT; }

/* ---- mapping env ---- */

static void env_write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  tp_store_write_back_patches(&ftl.tp_store, tp, patches, count);
}

static void env_write_back_page(uint32_t tp, const uint32_t *entries) {
  tp_store_write_back_page(&ftl.tp_store, tp, entries);
}

/* ---- page requests ---- */

static page_request_t *request_of_task(task_t *task) {
  return LIST_ENTRY(task, page_request_t, task);
}

static void complete_command(uint32_t cmd_id, uint32_t status) {
  hic_complete(cmd_id, (uint8_t)status);
  ++ftl.counters.host_commands;
}

static void command_page_done(uint32_t cmd_id) {
  command_t *command = &ftl.commands[cmd_id];
  if (++command->pages_done == command->pages) {
    complete_command(cmd_id, command->status);
  }
}

static void finish_request(page_request_t *request) {
  uint32_t index = (uint32_t)(request - ftl.requests);
  if (request->next_same_lpn != NONE) {
    task_schedule(&ftl.requests[request->next_same_lpn].task);
  } else {
    hash_remove(&ftl.lpn_tail, request->lpn);
  }
  uint32_t cmd_id = request->cmd_id;
  ftl.free_requests[ftl.free_request_count++] = index;
  command_page_done(cmd_id);
}

static uint32_t take_read_slot(void) {
  return ftl.free_read_slot_count == 0 ? NONE : ftl.free_read_slots[--ftl.free_read_slot_count];
}

static uint8_t *read_slot(uint32_t slot) {
  return ftl.read_slots + slot * ftl.geometry.page_bytes;
}

static void release_read_slot(uint32_t slot) {
  ftl.free_read_slots[ftl.free_read_slot_count++] = slot;
  task_wake(TASK_WAIT_READ_SLOT, 1);
}

static void send_to_host(page_request_t *request) {
  request->stage = PR_TRANSFER;
  ftl.read_slot_owner[request->slot] = (uint32_t)(request - ftl.requests);
  hic_data_out(request->cmd_id, request->page_index, (uintptr_t)read_slot(request->slot));
}

static void receive_from_host(page_request_t *request) {
  request->stage = PR_TRANSFER;
  ftl.wb_slot_owner[request->slot] = (uint32_t)(request - ftl.requests);
  hic_data_in(request->cmd_id, request->page_index, (uintptr_t)wb_data(&ftl.wb, request->slot));
}

static void request_read_done(flash_op_t *op, uint32_t status);

/* Reads `vpn` into the request's slot (with its OOB when the VPN is a prediction). False when
 * no flash record is free (the lookup's writebacks may have taken the last). */
static bool read_page(page_request_t *request, uint32_t vpn, uint8_t *slot, bool with_oob) {
  flash_op_t *op = take_record(request_read_done, request);
  if (op == 0) {
    return false;
  }
  flash_io_user(&ftl.flash, op, 0, slot, with_oob);
  request->stage = PR_FLASH;
  if (request->kind == PR_READ) {
    ++ftl.counters.flash_reads_host;
    /* A block holds whole wordlines, so the VPN's remainder is the page's type. */
    ++ftl.counters.host_reads_by_page_type[vpn % ftl.geometry.bits_per_cell];
  } else {
    ++ftl.counters.flash_reads_rmw;
  }
  flash_read(&ftl.flash, op, vpn, 1);
  return true;
}

static void write_zero_tag(uint8_t *slot) {
  data_tag_t *tag = (data_tag_t *)slot;
  tag->lpn = 0;
  tag->version = DATA_TAG_VERSION_NONE;
}

/* Translate and start the data read (host reads) or the old-data read (partial writes). */
static void translate(page_request_t *request) {
  bool is_read = request->kind == PR_READ;
  for (;;) {
    if (!record_available() || !tp_store_can_evict(&ftl.tp_store)) {
      task_wait(TASK_WAIT_FLASH, &request->task);
      return;
    }
    uint32_t value;
    const map_request_t *host_request = &ftl.commands[request->cmd_id].request;
    map_answer_t answer = ftl.scheme->lookup(request->lpn, host_request, &value);
    if (!request->asked) {
      request->asked = true;
      request->first_predicted = answer == MAP_PREDICT;
      ++ftl.counters.map_lookups;
      if (answer == MAP_HIT) {
        ++ftl.counters.map_hits;
      } else if (answer == MAP_MISS) {
        ++ftl.counters.map_misses;
      }
    }
    uint8_t *slot = is_read ? read_slot(request->slot) : wb_data(&ftl.wb, request->slot);
    if (answer == MAP_HIT && value == VPN_UNMAPPED) {
      if (is_read) {
        write_zero_tag(slot);
        send_to_host(request);
      } else {
        receive_from_host(request);
      }
      return;
    }
    if (answer == MAP_HIT || answer == MAP_PREDICT) {
      request->predicted = answer == MAP_PREDICT;
      if (!read_page(request, value, slot, request->predicted)) {
        task_wait(TASK_WAIT_FLASH, &request->task);
      } else if (!is_read && !request->predicted) {
        ++ftl.counters.partial_page_merges;
      }
      return;
    }
    request->waiter.host_read = is_read;
    if (!task_load_tp(&ftl.tp_store, value, &request->task, &request->waiter)) {
      return;
    }
  }
}

static void request_read_done(flash_op_t *op, uint32_t status) {
  page_request_t *request = (page_request_t *)op->owner;
  if (request->predicted) {
    uint32_t stored_lpn = flash_oob(&ftl.flash, op, 0)[OOB_WORD_OWNER];
    bool right = status != NFC_STATUS_OK || stored_lpn == request->lpn;
    if (request->first_predicted) {
      request->first_predicted = false;
      ++*(right ? &ftl.counters.map_hits : &ftl.counters.map_misses);
    }
    if (!right) {
      ftl.scheme->mispredicted(request->lpn);
      request->stage = PR_TRANSLATE;
      task_schedule(&request->task);
      return;
    }
    if (request->kind == PR_WRITE && status == NFC_STATUS_OK) {
      ++ftl.counters.partial_page_merges;
    }
  }
  if (request->kind == PR_READ) {
    if (status != NFC_STATUS_OK) {
      ftl.commands[request->cmd_id].status = HIC_STATUS_ERROR;
      release_read_slot(request->slot);
      finish_request(request);
      return;
    }
    send_to_host(request);
    return;
  }
  /* The old data of a partial write is in the slot (an unreadable page leaves the host's part
   * to stand alone); now the host's part. */
  receive_from_host(request);
}

static void start_read(page_request_t *request) {
  uint32_t buffered = wb_find(&ftl.wb, request->lpn);
  if (request->slot == NONE) {
    request->slot = take_read_slot();
    if (request->slot == NONE) {
      task_wait(TASK_WAIT_READ_SLOT, &request->task);
      return;
    }
  }
  if (buffered != WB_NONE) {
    memcpy(read_slot(request->slot), wb_data(&ftl.wb, buffered), DATA_TAG_BYTES);
    ++ftl.counters.write_buffer_read_hits;
    send_to_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static void start_write(page_request_t *request) {
  if (ftl.flushing) {
    task_wait(TASK_WAIT_BUFFER, &request->task);
    return;
  }
  uint32_t newest = wb_find(&ftl.wb, request->lpn);
  bool absorbed = newest != WB_NONE && ftl.wb.slots[newest].state == WB_SLOT_DIRTY;
  uint32_t slot = wb_write(&ftl.wb, request->lpn);
  if (slot == WB_NONE) {
    task_wait(TASK_WAIT_BUFFER, &request->task);
    return;
  }
  request->slot = slot;
  if (!request->partial) {
    receive_from_host(request);
    return;
  }
  uint32_t older = ftl.wb.slots[slot].older;
  if (absorbed || older != WB_NONE) {
    /* The old data is in the buffer: merge there, no flash read. */
    if (!absorbed) {
      memcpy(wb_data(&ftl.wb, slot), wb_data(&ftl.wb, older), DATA_TAG_BYTES);
    }
    ++ftl.counters.partial_page_merges;
    receive_from_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static void run_trim(page_request_t *request) {
  /* A buffered copy being programmed is released after its mapping update: retried with the
   * flash waiters, as the program's completion leads there. */
  if (!wb_trim(&ftl.wb, request->lpn)) {
    task_wait(TASK_WAIT_FLASH, &request->task);
    return;
  }
  task_wake(TASK_WAIT_BUFFER, 1); /* the trim may have freed a slot */
  if (task_map_update(ftl.scheme, &ftl.tp_store, &ftl.blocks, request->lpn, VPN_UNMAPPED,
                      &request->task, &request->waiter)) {
    finish_request(request);
  }
}

static void run_request(task_t *task) {
  page_request_t *request = request_of_task(task);
  if (request->stage == PR_TRANSLATE) {
    translate(request);
    return;
  }
  switch (request->kind) {
  case PR_READ:
    start_read(request);
    break;
  case PR_WRITE:
    start_write(request);
    break;
  default:
    run_trim(request);
    break;
  }
}

static void resume_request(tp_waiter_t *waiter) {
  page_request_t *request = LIST_ENTRY(waiter, page_request_t, waiter);
  run_request(&request->task);
}

/* Host transfer finished: a read page is out, or a write page is in the buffer. */
static void transfer_done(const hic_event_t *event) {
  uint8_t *buffer = (uint8_t *)(uintptr_t)event->buffer;
  if (buffer >= ftl.read_slots &&
      buffer < ftl.read_slots + ftl.read_slot_count * ftl.geometry.page_bytes) {
    uint32_t slot = (uint32_t)(buffer - ftl.read_slots) / ftl.geometry.page_bytes;
    page_request_t *request = &ftl.requests[ftl.read_slot_owner[slot]];
    release_read_slot(slot);
    finish_request(request);
    return;
  }
  uint32_t slot = (uint32_t)(buffer - ftl.wb.data) / ftl.wb.page_bytes;
  page_request_t *request = &ftl.requests[ftl.wb_slot_owner[slot]];
  wb_filled(&ftl.wb, slot);
  finish_request(request);
}

/* ---- commands ---- */

static bool page_is_partial(const command_t *command, uint32_t page) {
  return (page == 0 && (command->flags & HIC_CMD_PARTIAL_FIRST) != 0) ||
         (page == command->pages - 1u && (command->flags & HIC_CMD_PARTIAL_LAST) != 0);
}

/* Turns queued commands into page requests, oldest first, while requests are free. */
static void dispatch(void) {
  while (!list_empty(&ftl.dispatch_queue) && ftl.free_request_count != 0) {
    command_t *command = LIST_ENTRY(ftl.dispatch_queue.next, command_t, link);
    uint32_t page = command->next_page++;
    if (command->next_page == command->pages) {
      list_remove(&command->link);
    }
    uint32_t cmd_id = (uint32_t)(command - ftl.commands);
    if (command->op == HIC_OP_TRIM && page_is_partial(command, page)) {
      command_page_done(cmd_id); /* a trim keeps the pages it covers in part */
      continue;
    }
    uint32_t index = ftl.free_requests[--ftl.free_request_count];
    page_request_t *request = &ftl.requests[index];
    request->cmd_id = cmd_id;
    request->page_index = page;
    request->lpn = command->lpn + page;
    request->kind = command->op == HIC_OP_READ ? PR_READ
                    : command->op == HIC_OP_WRITE ? PR_WRITE
                                                  : PR_TRIM;
    request->stage = PR_START;
    request->slot = NONE;
    request->next_same_lpn = NONE;
    request->partial = command->op == HIC_OP_WRITE && page_is_partial(command, page);
    request->asked = false;
    request->first_predicted = false;
    request->waiter.lpn = request->lpn;
    request->waiter.request = &command->request;
    request->waiter.host_read = false;
    if (request->kind == PR_READ) {
      ++ftl.counters.host_read_pages;
    } else if (request->kind == PR_WRITE) {
      ++ftl.counters.host_write_pages;
    } else {
      ++ftl.counters.host_trim_pages;
    }
    uint32_t tail;
    if (hash_find(&ftl.lpn_tail, request->lpn, &tail)) {
      ftl.requests[tail].next_same_lpn = index; /* runs once the earlier one finishes */
    } else {
      task_schedule(&request->task);
    }
    hash_put(&ftl.lpn_tail, request->lpn, index);
  }
}

static void new_command(const hic_event_t *event) {
  command_t *command = &ftl.commands[event->cmd_id];
  command->op = event->op;
  command->flags = event->flags;
  command->lpn = event->lpn;
  command->pages = event->pages;
  command->next_page = 0;
  command->pages_done = 0;
  command->status = HIC_STATUS_OK;
  command->request.first_lpn = event->lpn;
  command->request.pages = event->pages;
  if (event->op == HIC_OP_FLUSH) {
    list_push_back(&ftl.flush_queue, &command->link);
    ftl.flushing = true;
    return;
  }
  bool in_range = event->lpn < ftl.lpn_count && event->pages <= ftl.lpn_count - event->lpn &&
                  event->pages != 0 &&
                  (event->op == HIC_OP_READ || event->op == HIC_OP_WRITE ||
                   event->op == HIC_OP_TRIM);
  if (!in_range) {
    complete_command(event->cmd_id, HIC_STATUS_INVALID);
    return;
  }
  list_push_back(&ftl.dispatch_queue, &command->link);
}

/* ---- write buffer programs and mapping updates ---- */

static void run_slot_update(task_t *task) {
  slot_update_t *update = LIST_ENTRY(task, slot_update_t, task);
  uint32_t lpn = ftl.wb.slots[update->slot].lpn;
  if (task_map_update(ftl.scheme, &ftl.tp_store, &ftl.blocks, lpn, update->vpn, task,
                      &update->waiter)) {
    block_page_validate(&ftl.blocks, update->vpn);
    block_page_settled(&ftl.blocks, update->vpn);
    wb_release(&ftl.wb, update->slot);
    task_wake(TASK_WAIT_BUFFER, 1);
  }
}

static void resume_slot_update(tp_waiter_t *waiter) {
  slot_update_t *update = LIST_ENTRY(waiter, slot_update_t, waiter);
  run_slot_update(&update->task);
}

static void host_program_done(flash_op_t *op, uint32_t status) {
  uint32_t count = op->user;
  if (status != NFC_STATUS_OK) {
    block_program_failed(&ftl.blocks, op->vpn);
    for (uint32_t i = 0; i < count; ++i) {
      wb_requeue(&ftl.wb, flash_oob(&ftl.flash, op, i)[OOB_WORD_SOURCE]);
    }
    return;
  }
  for (uint32_t i = 0; i < ftl.unit_pages; ++i) {
    uint32_t vpn = op->vpn + i;
    if (i >= count) {
      block_page_settled(&ftl.blocks, vpn); /* padding */
      continue;
    }
    uint32_t slot = flash_oob(&ftl.flash, op, i)[OOB_WORD_SOURCE];
    wb_programmed(&ftl.wb, slot);
    slot_update_t *update = &ftl.updates[slot];
    update->slot = slot;
    update->vpn = vpn;
    update->waiter.lpn = ftl.wb.slots[slot].lpn;
    update->waiter.request = 0;
    update->waiter.host_read = false;
    task_schedule(&update->task);
  }
}

/* Programs whole wordlines from the write buffer; with `force`, a last partial one (padded). */
static void program_write_buffer(bool force) {
  uint32_t picked[FTL_MAX_UNIT_PAGES];
  for (;;) {
    /* Pad a partial wordline only when no slot can come free otherwise. */
    bool buffer_stuck = ftl.wb.free_count == 0 && ftl.wb.dirty_count == ftl.wb.slot_count;
    if (ftl.wb.dirty_count < ftl.unit_pages && !force && !buffer_stuck) {
      return; /* the main loop calls this often: ask the policy only when it may pick */
    }
    uint32_t count = ftl.grouping->select(&ftl.wb, ftl.unit_pages, picked);
    /* A slot still filling from the host (or behind an older copy in flight) comes eligible
     * without a program: the buffer is stuck only when the policy can pick every dirty slot. */
    buffer_stuck &= count == ftl.wb.dirty_count;
    if (count == 0 || (count < ftl.unit_pages && !force && !buffer_stuck)) {
      return;
    }
    if (!record_available()) {
      return;
    }
    /* Host data never takes the last ftl_gc_foreground_free stripes' worth of groups: GC's. */
    uint32_t vpn = block_alloc_wordline(&ftl.blocks, BLOCK_STREAM_HOST,
                                        ftl.boot->ftl_gc_foreground_free);
    ftl.host_blocked = vpn == BLOCK_NONE;
    if (ftl.host_blocked) {
      return; /* waits for GC */
    }
    flash_op_t *op = take_record(host_program_done, 0);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t *oob = flash_oob(&ftl.flash, op, i);
      wb_start_program(&ftl.wb, picked[i]);
      flash_io_user(&ftl.flash, op, i, wb_data(&ftl.wb, picked[i]), true);
      oob[OOB_WORD_OWNER] = ftl.wb.slots[picked[i]].lpn;
      oob[OOB_WORD_SOURCE] = picked[i];
    }
    ftl.counters.padding_host +=
        flash_io_pad(&ftl.flash, op, count, ftl.unit_pages, ftl.filler_slot, false);
    ftl.counters.programmed_host += count;
    op->user = count;
    flash_program(&ftl.flash, op, vpn, ftl.blocks.unit_planes);
  }
}

/* ---- flush ---- */

static void advance_flush(void) {
  if (list_empty(&ftl.flush_queue)) {
    return;
  }
  program_write_buffer(true);
  if (ftl.wb.free_count != ftl.wb.slot_count) {
    return; /* buffered pages still programming or updating */
  }
  ftl.scheme->flush();
  tp_store_pump(&ftl.tp_store, true);
  if (!tp_store_idle(&ftl.tp_store)) {
    return;
  }
  while (!list_empty(&ftl.flush_queue)) {
    command_t *command = LIST_ENTRY(list_pop_front(&ftl.flush_queue), command_t, link);
    complete_command((uint32_t)(command - ftl.commands), HIC_STATUS_OK);
  }
  ftl.flushing = false;
  task_wake(TASK_WAIT_BUFFER, TASK_WAKE_ALL);
}

/* ---- the loop ---- */

static void tp_flush_timer_fired(unsigned hart_id, void *context) {
  (void)hart_id;
  (void)context;
  ftl.tp_flush_due = true;
}

/* (Re)arms the TP flush timer whenever TPs became dirty; programs the waiting TPs when it fired.
 * Returns whether it started work. */
static bool flush_waiting_tps(void) {
  uint32_t delay_ns = ftl.boot->ftl_tp_flush_delay_ns;
  if (delay_ns == 0) {
    return false;
  }
  if (ftl.tp_store.writebacks != ftl.tp_writebacks_seen) {
    ftl.tp_writebacks_seen = ftl.tp_store.writebacks;
    ftl.tp_flush_due = false;
    ftl.tp_flush_armed = true;
    timer_oneshot_at(timer_now() + timer_ticks_from_ns(delay_ns), tp_flush_timer_fired, 0);
    return false;
  }
  if (ftl.tp_flush_due) {
    ftl.tp_flush_due = false;
    ftl.tp_flush_armed = false;
    tp_store_pump(&ftl.tp_store, true);
    return true;
  }
  if (!ftl.tp_flush_armed && ftl.tp_store.dirty_count != 0) {
    ftl.tp_flush_armed = true;
    timer_oneshot_at(timer_now() + timer_ticks_from_ns(delay_ns), tp_flush_timer_fired, 0);
  }
  return false;
}

static void take_events(void) {
  hic_event_t event;
  while (hic_next_event(&event)) {
    if (event.kind == HIC_EVENT_COMMAND) {
      new_command(&event);
    } else {
      transfer_done(&event);
    }
  }
  if (flash_drain(&ftl.flash) != 0) {
    task_flash_freed();
  }
}

static bool host_idle(void) {
  return list_empty(&ftl.dispatch_queue) && ftl.free_request_count == ftl.request_count &&
         list_empty(&ftl.flush_queue);
}

void ftl_run(void) {
  /* Interrupts stay disabled: the loop runs their handlers itself (irq_poll), and WFI still
   * wakes on a pending one. A trap per event would save and restore every register. */
  irq_disable();
  for (;;) {
    irq_poll();
    take_events();
    tp_store_deliver(&ftl.tp_store);
    dispatch();
    task_run_ready();
    program_write_buffer(false);
    tp_store_pump(&ftl.tp_store, false);
    if (tp_store_take_progress(&ftl.tp_store)) {
      task_flash_freed();
    }
    advance_flush();
    bool busy = flush_waiting_tps();
    gc_consider(ftl.host_blocked);
    busy |= task_run_ready();
    /* Another turn only when its later steps left work for the earlier ones: a turn costs every
     * check above, and most events need just one. */
    busy |= ftl.tp_store.progressed ||
            (!list_empty(&ftl.dispatch_queue) && ftl.free_request_count != 0);
    if (busy) {
      continue;
    }
    /* An event posted after the check raises the interrupt, which ends the WFI even with
     * interrupts disabled; the next turn runs its handler. */
    if (!hic_event_waiting() && !flash_completion_waiting(&ftl.flash) && !ftl.tp_flush_due) {
      cpu_wait_for_interrupt();
    }
  }
}

/* ---- boot ---- */

/* GC must free a stripe when host data waits (the host's stripe is full and no more than the
 * GC reserve, ftl.gc.foreground_free, is free) or when fewer than the reserve are free. Either
 * way at most the reserve and one stripe per stream but the host's are not full: free ones and
 * the other streams' open ones (GC, translation, and those policies added). If the others hold more pages than can be valid (one per LPN and per TP), some
 * collectable stripe has an invalid page. Bad blocks found later may still break this. */
static bool spare_stripes_suffice(const char **problem) {
  static char message[256];
  const block_manager_t *b = &ftl.blocks;
  uint32_t reserved = block_max_open_stripes(b) - 1u + ftl.boot->ftl_gc_foreground_free;
  uint32_t stripes = b->stripe_count;
  uint64_t full_pages = stripes > reserved ? (uint64_t)(stripes - reserved) * b->stripe_pages : 0;
  if (full_pages > (uint64_t)ftl.lpn_count + ftl.tp_count) {
    return true;
  }
  fw_snprintf(message, sizeof message,
              "over-provisioning too small for GC: %u stripes, %u open for streams other than the "
              "host's or in reserve (ftl.gc.foreground_free), leave %u pages for %u LPNs and %u TPs "
              "(raise ftl.op or nand.blocks)",
              (unsigned)stripes, (unsigned)reserved, (unsigned)full_pages,
              (unsigned)ftl.lpn_count, (unsigned)ftl.tp_count);
  *problem = message;
  return false;
}

static const map_scheme_t *scheme_for(uint32_t scheme) {
  switch (scheme) {
  case BOOT_SCHEME_IDEAL:
    return &map_scheme_ideal;
  case BOOT_SCHEME_DFTL:
    return &map_scheme_dftl;
  case BOOT_SCHEME_TPFTL:
    return &map_scheme_tpftl;
  case BOOT_SCHEME_SFTL:
    return &map_scheme_sftl;
  default:
    return 0;
  }
}

/* Page-type names in wordline order (nand_model: LSB first). */
static const char *const host_reads_by_page_type_names[4] = {
    "host_reads_by_page_type.lsb", "host_reads_by_page_type.clsb",
    "host_reads_by_page_type.cmsb", "host_reads_by_page_type.msb"};

/* The pipeline's counters, the scheme's, and those of the block manager, the TP store and GC. */
static void register_metrics(void) {
  ftl_counters_t *c = &ftl.counters;
  metrics_counter("host_commands", &c->host_commands);
  metrics_counter("host_read_pages", &c->host_read_pages);
  metrics_counter("host_write_pages", &c->host_write_pages);
  metrics_counter("host_trim_pages", &c->host_trim_pages);
  metrics_counter("write_buffer_read_hits", &c->write_buffer_read_hits);
  metrics_counter("partial_page_merges", &c->partial_page_merges);
  metrics_counter("map.lookups", &c->map_lookups);
  metrics_counter("map.hits", &c->map_hits);
  metrics_counter("map.misses", &c->map_misses);
  metrics_counter("flash_reads.host", &c->flash_reads_host);
  metrics_counter("flash_reads.rmw", &c->flash_reads_rmw);
  for (uint32_t type = 0; type < ftl.geometry.bits_per_cell; ++type) {
    metrics_counter(host_reads_by_page_type_names[type], &c->host_reads_by_page_type[type]);
  }
  metrics_counter("pages_programmed.host", &c->programmed_host);
  metrics_counter("pages_programmed.padding.host", &c->padding_host);
  const map_counters_t *scheme = ftl.scheme->counters();
  metrics_counter("scheme.lookups", &scheme->lookups);
  metrics_counter("scheme.hits", &scheme->hits);
  metrics_counter("scheme.misses", &scheme->misses);
  metrics_counter("scheme.predictions", &scheme->predictions);
  metrics_counter("scheme.mispredictions", &scheme->mispredictions);
  metrics_counter("scheme.updates", &scheme->updates);
  metrics_counter("scheme.update_misses", &scheme->update_misses);
  metrics_counter("scheme.evictions", &scheme->evictions);
  metrics_counter("scheme.dirty_evictions", &scheme->dirty_evictions);
  metrics_counter("scheme.prefetched", &scheme->prefetched);
  metrics_gauge32("map.table_bytes", &scheme->table_bytes);
  metrics_gauge32("map.translatable_lpns", &scheme->translatable_lpns);
  block_register_metrics(&ftl.blocks);
  tp_store_register_metrics(&ftl.tp_store);
  gc_register_metrics();
}

ftl_init_result_t ftl_init(const boot_config_t *boot, const nand_geometry_t *geometry,
              const hic_geometry_t *host, arena_t *sram, arena_t *dram, const char **problem) {
  ftl.boot = boot;
  ftl.geometry = *geometry;
  ftl.lpn_count = host->lpn_count;
  ftl.entries_per_tp = geometry->page_bytes / (uint32_t)sizeof(uint32_t);
  ftl.tp_count = (ftl.lpn_count + ftl.entries_per_tp - 1u) / ftl.entries_per_tp;
  ftl.scheme = scheme_for(boot->scheme);
  ftl.grouping = grouping_policy_for(boot->ftl_fsp_policy);
  ftl.victim_policy = victim_policy_for(boot->ftl_gc_victim);
  if (ftl.scheme == 0) {
    *problem = "the scheme has no implementation in this firmware (firmware.scheme)";
    return FTL_INIT_BAD_CONFIG;
  }
  if (ftl.grouping == 0 || ftl.victim_policy == 0 || !block_order_valid(boot->ftl_alloc_order)) {
    *problem = "bad ftl.fsp.policy, ftl.gc.victim or ftl.alloc_order";
    return FTL_INIT_BAD_CONFIG;
  }
  if (geometry->oob_bytes < OOB_FTL_BYTES) {
    *problem = "nand.oob_size is below the 8 bytes the FTL's OOB layout needs "
               "(interface/oob_layout.h)";
    return FTL_INIT_BAD_CONFIG;
  }
  uint32_t unit_pages = geometry->bits_per_cell * (boot->ftl_multi_plane ? geometry->planes : 1u);
  if (unit_pages > FTL_MAX_UNIT_PAGES) {
    *problem = "a program would write more pages (bits per cell x planes) than the firmware "
               "handles (64)";
    return FTL_INIT_BAD_CONFIG;
  }
  *problem = "the FTL's structures do not fit";
  bool fits = block_init(&ftl.blocks, geometry, boot->ftl_multi_plane != 0,
                         boot->ftl_alloc_order, BLOCK_BUILTIN_STREAMS, sram);
  ftl.unit_pages = ftl.blocks.pages_per_program;
  fits &= flash_init(&ftl.flash, geometry, &ftl.blocks, boot->ftl_flash_ops, sram);
  arena_t *buffer_arena = boot->ftl_write_buffer_location == BOOT_MEMORY_DRAM ? dram : sram;
  if (buffer_arena == 0) {
    *problem = "the write buffer is placed in DRAM but there is none (ftl.write_buffer.location)";
    return FTL_INIT_BAD_CONFIG;
  }
  fits &= wb_init(&ftl.wb, boot->ftl_write_buffer_pages, geometry->page_bytes, sram,
                  buffer_arena);
  fits &= gtd_init(&ftl.gtd, ftl.tp_count, sram);
  if (!spare_stripes_suffice(problem)) {
    return FTL_INIT_BAD_CONFIG;
  }
  ftl.request_count = boot->ftl_page_requests;
  ftl.read_slot_count = boot->ftl_read_slots;
  uint32_t waiters = ftl.request_count + boot->ftl_write_buffer_pages + ftl.unit_pages;
  fits &= tp_store_init(&ftl.tp_store, ftl.scheme, &ftl.flash, &ftl.blocks, &ftl.gtd,
                        ftl.entries_per_tp, waiters, boot->ftl_tp_load_frames, sram);
  ftl.max_commands = host->max_commands;
  ftl.commands = (command_t *)arena_alloc(sram, "host_commands",
                                          ftl.max_commands * (uint32_t)sizeof(command_t));
  fits &= hash_init(&ftl.lpn_tail, sram, "lpn_order_index", ftl.request_count);
  ftl.requests = (page_request_t *)arena_alloc(sram, "page_requests",
                                               ftl.request_count * sizeof(page_request_t));
  ftl.free_requests = (uint32_t *)arena_alloc(sram, "page_request_free_list",
                                              ftl.request_count * sizeof(uint32_t));
  ftl.read_slots = (uint8_t *)arena_alloc(sram, "read_slots",
                                          ftl.read_slot_count * geometry->page_bytes);
  ftl.free_read_slots = (uint32_t *)arena_alloc(sram, "read_slot_free_list",
                                                ftl.read_slot_count * sizeof(uint32_t));
  ftl.read_slot_owner = (uint32_t *)arena_alloc(sram, "read_slot_owners",
                                                ftl.read_slot_count * sizeof(uint32_t));
  ftl.wb_slot_owner = (uint32_t *)arena_alloc(
      sram, "write_buffer_owners", boot->ftl_write_buffer_pages * (uint32_t)sizeof(uint32_t));
  ftl.updates = (slot_update_t *)arena_alloc(
      sram, "write_buffer_updates", boot->ftl_write_buffer_pages * (uint32_t)sizeof(slot_update_t));
  ftl.filler_slot = (uint8_t *)arena_alloc(sram, "filler_page", geometry->page_bytes);
  gc_env_t gc_env = {.boot = boot,
                     .scheme = ftl.scheme,
                     .victim_policy = ftl.victim_policy,
                     .flash = &ftl.flash,
                     .blocks = &ftl.blocks,
                     .tp_store = &ftl.tp_store,
                     .gtd = &ftl.gtd,
                     .tp_count = ftl.tp_count,
                     .filler_page = ftl.filler_slot,
                     .take_record = take_record,
                     .record_available = record_available,
                     .host_idle = host_idle};
  fits &= gc_init(&gc_env, sram);
  ftl.event_ring = (hic_event_t *)arena_alloc_aligned(
      sram, "hic_event_ring", HIC_RING_ENTRIES * (uint32_t)sizeof(hic_event_t), HIC_EVENT_BYTES);
  ftl.request_ring = (hic_request_t *)arena_alloc_aligned(
      sram, "hic_request_ring", HIC_RING_ENTRIES * (uint32_t)sizeof(hic_request_t),
      HIC_REQUEST_BYTES);
  ftl.env.boot = boot;
  ftl.env.lpn_count = ftl.lpn_count;
  ftl.env.entries_per_tp = ftl.entries_per_tp;
  ftl.env.tp_count = ftl.tp_count;
  ftl.env.write_back_patches = env_write_back_patches;
  ftl.env.write_back_page = env_write_back_page;
  if (!fits || ftl.commands == 0 || ftl.requests == 0 || ftl.free_requests == 0 ||
      ftl.read_slots == 0 || ftl.free_read_slots == 0 || ftl.read_slot_owner == 0 ||
      ftl.wb_slot_owner == 0 || ftl.updates == 0 || ftl.filler_slot == 0 ||
      ftl.event_ring == 0 || ftl.request_ring == 0) {
    return FTL_INIT_NO_MEMORY;
  }
  if (!ftl.scheme->init(&ftl.env, sram, boot->ftl_map_budget_bytes)) {
    *problem = "the mapping scheme's minimum does not fit its budget (ftl.map_budget) or SRAM";
    return FTL_INIT_NO_MEMORY;
  }

  register_metrics();
  if (!metrics_fit()) {
    *problem = "a metric was refused (lib/metrics.h)";
    return FTL_INIT_BAD_CONFIG;
  }

  list_init(&ftl.dispatch_queue);
  list_init(&ftl.flush_queue);
  task_init();
  for (uint32_t i = 0; i < ftl.request_count; ++i) {
    ftl.requests[i].task.run = run_request;
    ftl.requests[i].waiter.resume = resume_request;
    ftl.free_requests[i] = ftl.request_count - 1u - i;
  }
  ftl.free_request_count = ftl.request_count;
  for (uint32_t i = 0; i < ftl.read_slot_count; ++i) {
    ftl.free_read_slots[i] = i;
  }
  ftl.free_read_slot_count = ftl.read_slot_count;
  for (uint32_t i = 0; i < boot->ftl_write_buffer_pages; ++i) {
    ftl.updates[i].task.run = run_slot_update;
    ftl.updates[i].waiter.resume = resume_slot_update;
  }
  hic_start(ftl.event_ring, HIC_RING_ENTRIES, ftl.request_ring, HIC_RING_ENTRIES);
  irq_enable();
  return FTL_INIT_OK;
}
