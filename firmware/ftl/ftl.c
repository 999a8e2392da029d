#include "ftl/ftl.h"

#include <string.h>

#include "data_tag.h"
#include "ftl/block.h"
#include "ftl/flash.h"
#include "ftl/fsp/grouping.h"
#include "ftl/gc/victim.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/map/tp_store.h"
#include "ftl/write_buffer.h"
#include "hal/console.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "hal/timer.h"
#include "lib/format.h"
#include "lib/hash.h"
#include "lib/list.h"

#define NONE 0xFFFFFFFFu
#define HIC_RING_ENTRIES 256u
/* Flash records host reads and programs leave free, for the TP store's writebacks. */
#define FTL_RECORDS_KEPT (TP_STORE_RESERVE_RECORDS + 1u)
/* Most pages one program writes (bits per cell x planes) this firmware handles. */
#define FTL_MAX_UNIT_PAGES TP_STORE_MAX_UNIT_PAGES

/* A unit of work that can wait: on a resource (in the wait queue of that resource, retried when
 * it comes free), on a TP load (resumed by the TP store), or on a flash or host transfer. */
typedef struct task task_t;
struct task {
  list_node_t link;
  void (*run)(task_t *task);
};

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
  uint32_t ppn;
} slot_update_t;

/* One page a GC batch moves. */
typedef struct gc_move {
  task_t task;
  tp_waiter_t waiter;
  uint32_t lpn;
  uint32_t old_ppn;
  uint32_t new_ppn;
} gc_move_t;

typedef enum gc_stage {
  GC_IDLE,
  GC_SCAN,        /* read the valid pages of data victims into the batch */
  GC_READING,     /* batch reads in flight */
  GC_PROGRAM,
  GC_PROGRAMMING,
  GC_UPDATING,
  GC_RELOCATE,    /* translation victim: hand its current TPs to the TP store */
  GC_TP_WAIT,     /* ... and wait until they are programmed elsewhere */
  GC_ERASE,       /* erase the drained victims */
  GC_ERASING,
} gc_stage_t;

/* A scanned-out victim: erased at once, or, when some of its pages are in the batch not yet
 * programmed (waiting), once that batch's mapping updates are done. */
typedef struct gc_drained {
  uint32_t group;
  bool foreground;
  bool wear_levelling;
  bool waiting;
} gc_drained_t;

static struct {
  const boot_config_t *boot;
  fw_stats_t *stats;
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

  page_request_t requests[FTL_PAGE_REQUESTS];
  uint32_t free_requests[FTL_PAGE_REQUESTS];
  uint32_t free_request_count;
  hash_table_t lpn_tail; /* LPN -> the last request queued on it */

  uint8_t *read_slots;
  uint32_t free_read_slots[FTL_READ_SLOTS];
  uint32_t free_read_slot_count;
  uint32_t read_slot_owner[FTL_READ_SLOTS];
  uint32_t *wb_slot_owner; /* the write request filling each slot */
  slot_update_t *updates;  /* per write-buffer slot */
  uint8_t *filler_slot;    /* a zero page for padding user wordlines */

  list_node_t ready; /* tasks to run now */
  /* Tasks waiting for a resource, one queue per kind, so a freed resource retries only tasks
   * that can use it: a read slot, a write-buffer slot (or the end of a flush), or flash records
   * and TP frames (retried together once any came free). */
  list_node_t wait_read_slot;
  list_node_t wait_buffer;
  list_node_t wait_flash;
  bool flash_freed; /* flash records or TP frames came free since wait_flash last ran */
  bool wear_changed;   /* a block was erased since static wear levelling last looked */

  bool host_blocked;   /* host data waits for a group only GC can free */
  /* Dirty TPs wait in SRAM for a whole translation wordline; once no TP has become dirty for the
   * boot config's delay they are programmed padded, so a read-mostly phase reads its TPs from
   * flash like a real device, while a write phase, which keeps dirtying TPs, pads nothing. */
  bool tp_flush_armed;
  uint32_t tp_writebacks_seen;
  volatile bool tp_flush_due; /* set by the timer interrupt */

  /* One GC job collects victims until the pools are above the background threshold. Pages of
   * several data victims share a wordline program: a QLC wordline padded at the end of every
   * victim (or job) would cost up to bits x planes - 1 pages of over-provisioning each time. A
   * job that ends with a partial batch parks it (GC_IDLE with batch != 0) for the next job. */
  struct {
    uint32_t stage;
    uint32_t victim; /* the victim being scanned or relocated, or BLOCK_NONE */
    bool victim_in_batch; /* a page of the victim is in the batch */
    bool foreground;
    bool wear_levelling;
    uint32_t cursor; /* next page of the victim (data) or next TP (translation) */
    uint32_t batch;
    uint32_t pending;
    gc_drained_t drained[FTL_MAX_UNIT_PAGES];
    uint32_t drained_count;
    uint8_t *slots;
    gc_move_t *moves;
    task_t task;
  } gc;

  hic_event_t *event_ring;
  hic_request_t *request_ring;
} ftl;

/* ---- tasks ---- */

static void schedule(task_t *task) { list_push_back(&ftl.ready, &task->link); }

static void wait_on(list_node_t *queue, task_t *task) { list_push_back(queue, &task->link); }

/* A task waiting for flash records or TP frames. */
static void stall(task_t *task) { wait_on(&ftl.wait_flash, task); }

/* Makes up to `count` waiters of `queue` ready, oldest first. */
static void wake(list_node_t *queue, uint32_t count) {
  while (count-- != 0 && !list_empty(queue)) {
    list_push_back(&ftl.ready, list_pop_front(queue));
  }
}

static void flash_resources_freed(void) { ftl.flash_freed = true; }

/* Runs ready tasks; gives the flash waiters another turn once records or frames came free.
 * Returns whether any task ran. */
static bool run_tasks(void) {
  bool ran = false;
  for (;;) {
    if (list_empty(&ftl.ready) && ftl.flash_freed) {
      ftl.flash_freed = false;
      wake(&ftl.wait_flash, 0xFFFFFFFFu);
    }
    list_node_t *node = list_pop_front(&ftl.ready);
    if (node == 0) {
      return ran;
    }
    task_t *task = LIST_ENTRY(node, task_t, link);
    task->run(task);
    ran = true;
  }
}

/* A flash record for host or GC work, leaving the TP store's reserve; NULL when none. */
static flash_op_t *take_record(flash_done_fn done, void *owner) {
  if (ftl.flash.free_count <= FTL_RECORDS_KEPT) {
    return 0;
  }
  return flash_op_take(&ftl.flash, done, owner);
}

static bool record_available(void) { return ftl.flash.free_count > FTL_RECORDS_KEPT; }

/* PPN of page i of a program or read at `first` (plane-major, bits_per_cell pages a plane). */
static uint32_t unit_page_ppn(uint32_t first, uint32_t i) {
  const nand_geometry_t *g = &ftl.geometry;
  uint32_t plane = i / g->bits_per_cell;
  return first + plane * g->blocks * g->pages + i % g->bits_per_cell;
}

/* ---- mapping env ---- */

static void env_write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  tp_store_write_back_patches(&ftl.tp_store, tp, patches, count);
}

static void env_write_back_page(uint32_t tp, const uint32_t *entries) {
  tp_store_write_back_page(&ftl.tp_store, tp, entries);
}

static void copy_map_counters(void) {
  const map_counters_t *c = ftl.scheme->counters();
  fw_stats_t *s = ftl.stats;
  s->map_predictions = c->predictions;
  s->map_mispredictions = c->mispredictions;
  s->map_updates = c->updates;
  s->map_update_misses = c->update_misses;
  s->map_evictions = c->evictions;
  s->map_dirty_evictions = c->dirty_evictions;
  s->map_prefetched = c->prefetched;
}

/* Asks the TP store for `tp` on behalf of `task`. True when the TP was in memory and the caller
 * should ask the scheme again at once. */
static bool load_tp(uint32_t tp, task_t *task, tp_waiter_t *waiter) {
  switch (tp_store_load(&ftl.tp_store, tp, waiter)) {
  case TP_LOAD_DONE:
    return true;
  case TP_LOAD_WAITING:
    return false;
  default:
    stall(task);
    return false;
  }
}

/* ---- page requests ---- */

static page_request_t *request_of_task(task_t *task) {
  return LIST_ENTRY(task, page_request_t, task);
}

/* The platform reads the statistics block when the host sees a phase's last completion, so the
 * scheme's counters are copied in first. */
static void complete_command(uint32_t cmd_id, uint32_t status) {
  copy_map_counters();
  hic_complete(cmd_id, (uint8_t)status);
  ++ftl.stats->host_commands;
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
    schedule(&ftl.requests[request->next_same_lpn].task);
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
  wake(&ftl.wait_read_slot, 1);
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

/* Reads `ppn` into the request's slot (with its OOB when the PPN is a prediction). False when
 * no flash record is free (the lookup's writebacks may have taken the last). */
static bool read_page(page_request_t *request, uint32_t ppn, uint8_t *slot, bool with_oob) {
  flash_op_t *op = take_record(request_read_done, request);
  if (op == 0) {
    return false;
  }
  flash_io_user(&ftl.flash, op, 0, slot, with_oob);
  request->stage = PR_FLASH;
  if (request->kind == PR_READ) {
    ++ftl.stats->flash_reads_host;
  } else {
    ++ftl.stats->flash_reads_rmw;
  }
  flash_read(&ftl.flash, op, ppn, 1);
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
      stall(&request->task);
      return;
    }
    uint32_t value;
    const map_request_t *host_request = &ftl.commands[request->cmd_id].request;
    map_answer_t answer = ftl.scheme->lookup(request->lpn, host_request, &value);
    if (!request->asked) {
      request->asked = true;
      request->first_predicted = answer == MAP_PREDICT;
      ++ftl.stats->map_lookups;
      if (answer == MAP_HIT) {
        ++ftl.stats->map_hits;
      } else if (answer == MAP_MISS) {
        ++ftl.stats->map_misses;
      }
    }
    uint8_t *slot = is_read ? read_slot(request->slot) : wb_data(&ftl.wb, request->slot);
    if (answer == MAP_HIT && value == PPN_UNMAPPED) {
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
        stall(&request->task);
      } else if (!is_read && !request->predicted) {
        ++ftl.stats->partial_page_merges;
      }
      return;
    }
    request->waiter.host_read = is_read;
    if (!load_tp(value, &request->task, &request->waiter)) {
      return;
    }
  }
}

static void request_read_done(flash_op_t *op, uint32_t status) {
  page_request_t *request = (page_request_t *)op->owner;
  if (request->predicted) {
    uint32_t stored_lpn = flash_oob(&ftl.flash, op, 0)[0];
    bool right = status != NFC_STATUS_OK || stored_lpn == request->lpn;
    if (request->first_predicted) {
      request->first_predicted = false;
      ++*(right ? &ftl.stats->map_hits : &ftl.stats->map_misses);
    }
    if (!right) {
      ftl.scheme->mispredicted(request->lpn);
      request->stage = PR_TRANSLATE;
      schedule(&request->task);
      return;
    }
    if (request->kind == PR_WRITE && status == NFC_STATUS_OK) {
      ++ftl.stats->partial_page_merges;
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
      wait_on(&ftl.wait_read_slot, &request->task);
      return;
    }
  }
  if (buffered != WB_NONE) {
    memcpy(read_slot(request->slot), wb_data(&ftl.wb, buffered), DATA_TAG_BYTES);
    ++ftl.stats->write_buffer_read_hits;
    send_to_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static void start_write(page_request_t *request) {
  if (ftl.flushing) {
    wait_on(&ftl.wait_buffer, &request->task);
    return;
  }
  uint32_t newest = wb_find(&ftl.wb, request->lpn);
  bool absorbed = newest != WB_NONE && ftl.wb.slots[newest].state == WB_SLOT_DIRTY;
  uint32_t slot = wb_write(&ftl.wb, request->lpn);
  if (slot == WB_NONE) {
    wait_on(&ftl.wait_buffer, &request->task);
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
    ++ftl.stats->partial_page_merges;
    receive_from_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static void run_trim(page_request_t *request) {
  for (;;) {
    /* A buffered copy being programmed is released after its mapping update: retried with
     * the flash waiters, as the program's completion leads there. */
    if (!wb_trim(&ftl.wb, request->lpn) || !tp_store_can_evict(&ftl.tp_store)) {
      stall(&request->task);
      return;
    }
    wake(&ftl.wait_buffer, 1); /* the trim may have freed a slot */
    uint32_t value;
    if (ftl.scheme->update(request->lpn, PPN_UNMAPPED, &value) == MAP_HIT) {
      if (value != PPN_UNMAPPED) {
        block_page_invalidate(&ftl.blocks, value);
      }
      finish_request(request);
      return;
    }
    if (!load_tp(value, &request->task, &request->waiter)) {
      return;
    }
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
      buffer < ftl.read_slots + FTL_READ_SLOTS * ftl.geometry.page_bytes) {
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
      ++ftl.stats->host_read_pages;
    } else if (request->kind == PR_WRITE) {
      ++ftl.stats->host_write_pages;
    } else {
      ++ftl.stats->host_trim_pages;
    }
    uint32_t tail;
    if (hash_find(&ftl.lpn_tail, request->lpn, &tail)) {
      ftl.requests[tail].next_same_lpn = index; /* runs once the earlier one finishes */
    } else {
      schedule(&request->task);
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
  for (;;) {
    if (!tp_store_can_evict(&ftl.tp_store)) {
      stall(task);
      return;
    }
    uint32_t value;
    if (ftl.scheme->update(lpn, update->ppn, &value) == MAP_HIT) {
      if (value != PPN_UNMAPPED) {
        block_page_invalidate(&ftl.blocks, value);
      }
      block_page_validate(&ftl.blocks, update->ppn);
      block_page_settled(&ftl.blocks, update->ppn);
      wb_release(&ftl.wb, update->slot);
      wake(&ftl.wait_buffer, 1);
      return;
    }
    if (!load_tp(value, task, &update->waiter)) {
      return;
    }
  }
}

static void resume_slot_update(tp_waiter_t *waiter) {
  slot_update_t *update = LIST_ENTRY(waiter, slot_update_t, waiter);
  run_slot_update(&update->task);
}

static void host_program_done(flash_op_t *op, uint32_t status) {
  uint32_t count = op->user;
  if (status != NFC_STATUS_OK) {
    block_retire(&ftl.blocks, block_group_of(&ftl.blocks, op->ppn));
    for (uint32_t i = 0; i < count; ++i) {
      wb_requeue(&ftl.wb, flash_oob(&ftl.flash, op, i)[1]);
    }
    return;
  }
  for (uint32_t i = 0; i < ftl.unit_pages; ++i) {
    uint32_t ppn = unit_page_ppn(op->ppn, i);
    if (i >= count) {
      block_page_settled(&ftl.blocks, ppn); /* padding */
      continue;
    }
    uint32_t slot = flash_oob(&ftl.flash, op, i)[1];
    wb_programmed(&ftl.wb, slot);
    slot_update_t *update = &ftl.updates[slot];
    update->slot = slot;
    update->ppn = ppn;
    update->waiter.lpn = ftl.wb.slots[slot].lpn;
    update->waiter.request = 0;
    update->waiter.host_read = false;
    schedule(&update->task);
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
    if (count == 0 || (count < ftl.unit_pages && !force && !buffer_stuck)) {
      return;
    }
    if (!record_available()) {
      return;
    }
    /* Host data never takes a pool's last ftl_gc_foreground_free groups: they are GC's. */
    uint32_t ppn = block_alloc_wordline(&ftl.blocks, BLOCK_STREAM_HOST,
                                        ftl.boot->ftl_gc_foreground_free);
    ftl.host_blocked = ppn == BLOCK_NONE;
    if (ftl.host_blocked) {
      return; /* waits for GC */
    }
    flash_op_t *op = take_record(host_program_done, 0);
    for (uint32_t i = 0; i < ftl.unit_pages; ++i) {
      uint32_t *oob = flash_oob(&ftl.flash, op, i);
      if (i < count) {
        wb_start_program(&ftl.wb, picked[i]);
        flash_io_user(&ftl.flash, op, i, wb_data(&ftl.wb, picked[i]), true);
        oob[0] = ftl.wb.slots[picked[i]].lpn;
        oob[1] = picked[i];
      } else {
        flash_io_user(&ftl.flash, op, i, ftl.filler_slot, true);
        oob[0] = FLASH_OOB_FILLER;
        ++ftl.stats->pages_programmed_padding;
      }
    }
    ftl.stats->pages_programmed_host += count;
    op->user = count;
    flash_program(&ftl.flash, op, ppn, ftl.blocks.unit_planes);
  }
}

/* ---- garbage collection and wear levelling ---- */

static uint32_t victim_pages(void) { return ftl.blocks.unit_planes * ftl.geometry.pages; }

static uint32_t victim_page_ppn(uint32_t page) {
  const nand_geometry_t *g = &ftl.geometry;
  uint32_t first = block_group_ppn(&ftl.blocks, ftl.gc.victim, 0);
  return first + (page / g->pages) * g->blocks * g->pages + page % g->pages;
}

/* Static wear levelling is due: the erase-count spread passed the threshold and the coldest
 * collectable group lags the most worn by more than it. Looks only after an erase. */
static uint32_t wear_levelling_victim(void) {
  uint32_t spread = ftl.boot->ftl_wl_static_spread;
  if (spread == 0 || !ftl.wear_changed) {
    return BLOCK_NONE;
  }
  ftl.wear_changed = false;
  block_wear_t wear = block_wear(&ftl.blocks);
  uint32_t coldest = victim_coldest(&ftl.blocks);
  if (wear.max - wear.min > spread && coldest != BLOCK_NONE &&
      ftl.blocks.groups[coldest].erase_count + spread < wear.max) {
    return coldest;
  }
  return BLOCK_NONE;
}

/* The policy's victim over every unit (the GC stream writes to the unit with the most free
 * groups, which evens the pools out); BLOCK_NONE when no collectable group has an invalid
 * page. */
static uint32_t policy_victim(void) {
  uint32_t victim = ftl.victim_policy->select(&ftl.blocks, BLOCK_NONE);
  if (victim == BLOCK_NONE || ftl.blocks.groups[victim].valid_pages == victim_pages()) {
    return BLOCK_NONE;
  }
  return victim;
}

/* The free groups of all units are below `threshold` per unit. The thresholds count per unit
 * but GC frees whichever group is cheapest, so it answers for the total. */
static bool pools_low(uint32_t threshold) {
  return block_free_groups(&ftl.blocks) < threshold * ftl.blocks.unit_count;
}

static void begin_victim(uint32_t victim, bool wear_levelling) {
  block_mark_victim(&ftl.blocks, victim);
  ftl.gc.victim = victim;
  ftl.gc.victim_in_batch = false;
  ftl.gc.wear_levelling = wear_levelling;
  ftl.gc.cursor = 0;
}

/* Starts a GC job when one is due: static wear levelling first, then foreground GC (host data
 * waits, or a pool is below the foreground threshold), then background GC while the host is
 * idle. */
static void consider_gc(bool host_idle) {
  bool foreground = ftl.host_blocked || pools_low(ftl.boot->ftl_gc_foreground_free);
  bool wear_levelling = true;
  uint32_t victim = wear_levelling_victim();
  if (victim == BLOCK_NONE && (foreground ||
                               (host_idle && pools_low(ftl.boot->ftl_gc_background_free)))) {
    wear_levelling = false;
    victim = policy_victim();
  }
  ftl.gc.foreground = foreground;
  if (victim == BLOCK_NONE) {
    if (foreground && ftl.gc.batch != 0) {
      ftl.gc.stage = GC_PROGRAM; /* the parked batch's victims are all that is left to free */
      schedule(&ftl.gc.task);
    }
    return;
  }
  begin_victim(victim, wear_levelling);
  ftl.gc.stage = ftl.blocks.groups[victim].stream == BLOCK_STREAM_TRANSLATION ? GC_RELOCATE
                                                                               : GC_SCAN;
  schedule(&ftl.gc.task);
}

/* The scanned-out victim waits for its erase. */
static void drain_victim(void) {
  gc_drained_t *drained = &ftl.gc.drained[ftl.gc.drained_count++];
  drained->group = ftl.gc.victim;
  drained->foreground = ftl.gc.foreground;
  drained->wear_levelling = ftl.gc.wear_levelling;
  drained->waiting = ftl.gc.victim_in_batch;
  ftl.gc.victim = BLOCK_NONE;
}

/* The last drained victim that can be erased now, or FTL_MAX_UNIT_PAGES. */
static uint32_t erasable_victim(void) {
  for (uint32_t i = ftl.gc.drained_count; i-- > 0;) {
    if (!ftl.gc.drained[i].waiting) {
      return i;
    }
  }
  return FTL_MAX_UNIT_PAGES;
}

/* Fills the rest of a partial batch from another data victim while the pools still want GC.
 * False when the batch should be programmed (padded) as it is. */
static bool take_next_victim(void) {
  if (ftl.gc.drained_count == FTL_MAX_UNIT_PAGES) {
    return false;
  }
  uint32_t victim = wear_levelling_victim();
  bool wear_levelling = victim != BLOCK_NONE;
  if (!wear_levelling) {
    if (!pools_low(ftl.boot->ftl_gc_background_free)) {
      return false;
    }
    victim = policy_victim();
  }
  if (victim == BLOCK_NONE) {
    return false;
  }
  if (ftl.blocks.groups[victim].stream == BLOCK_STREAM_TRANSLATION) {
    ftl.wear_changed |= wear_levelling; /* the next job takes it */
    return false;
  }
  begin_victim(victim, wear_levelling);
  return true;
}

static void gc_read_done(flash_op_t *op, uint32_t status) {
  gc_move_t *move = &ftl.gc.moves[op->user];
  if (status != NFC_STATUS_OK) {
    fw_printf("ftl: GC read of PPN %#x failed with NFC status %u\n", (unsigned)op->ppn,
              (unsigned)status);
    system_fault();
  }
  move->lpn = flash_oob(&ftl.flash, op, 0)[0];
  if (--ftl.gc.pending == 0) {
    ftl.gc.stage = GC_SCAN;
    schedule(&ftl.gc.task);
  }
}

/* Reads valid pages into the batch until it is full or no victim is left to take; then the
 * batch is programmed, or, when it is empty, the drained victims are erased. */
static void gc_scan(void) {
  bool out_of_records = false;
  while (ftl.gc.batch < ftl.unit_pages) {
    if (ftl.gc.victim == BLOCK_NONE) {
      if (!take_next_victim()) {
        break;
      }
      continue;
    }
    if (ftl.gc.cursor == victim_pages()) {
      drain_victim();
      continue;
    }
    uint32_t ppn = victim_page_ppn(ftl.gc.cursor);
    if (!block_page_valid(&ftl.blocks, ppn)) {
      ++ftl.gc.cursor;
      continue;
    }
    if (!record_available()) {
      out_of_records = true;
      break;
    }
    flash_op_t *op = take_record(gc_read_done, 0);
    gc_move_t *move = &ftl.gc.moves[ftl.gc.batch];
    move->old_ppn = ppn;
    op->user = ftl.gc.batch;
    flash_io_user(&ftl.flash, op, 0, ftl.gc.slots + ftl.gc.batch * ftl.geometry.page_bytes, true);
    ++ftl.gc.batch;
    ++ftl.gc.cursor;
    ++ftl.gc.pending;
    ftl.gc.victim_in_batch = true;
    ++ftl.stats->flash_reads_gc;
    flash_read(&ftl.flash, op, ppn, 1);
  }
  if (ftl.gc.pending != 0) {
    ftl.gc.stage = GC_READING; /* the last read's completion scans on */
  } else if (out_of_records) {
    stall(&ftl.gc.task);
  } else if (erasable_victim() != FTL_MAX_UNIT_PAGES) {
    ftl.gc.stage = GC_ERASE;
    schedule(&ftl.gc.task);
  } else if (ftl.gc.batch == ftl.unit_pages ||
             (ftl.gc.batch != 0 && ftl.gc.victim == BLOCK_NONE &&
              pools_low(ftl.boot->ftl_gc_background_free))) {
    /* Full, or no victim can top it up although the pools still want GC: program it padded. */
    ftl.gc.stage = GC_PROGRAM;
    schedule(&ftl.gc.task);
  } else {
    ftl.gc.stage = GC_IDLE; /* done; a partial batch stays parked for the next job */
  }
}

static void gc_program_done(flash_op_t *op, uint32_t status) {
  if (status != NFC_STATUS_OK) {
    block_retire(&ftl.blocks, block_group_of(&ftl.blocks, op->ppn));
    ftl.gc.stage = GC_PROGRAM;
    schedule(&ftl.gc.task);
    return;
  }
  for (uint32_t i = ftl.gc.batch; i < ftl.unit_pages; ++i) {
    block_page_settled(&ftl.blocks, unit_page_ppn(op->ppn, i));
  }
  ftl.gc.stage = GC_UPDATING;
  ftl.gc.pending = ftl.gc.batch;
  for (uint32_t i = 0; i < ftl.gc.batch; ++i) {
    ftl.gc.moves[i].new_ppn = unit_page_ppn(op->ppn, i);
    ftl.gc.moves[i].waiter.lpn = ftl.gc.moves[i].lpn;
    schedule(&ftl.gc.moves[i].task);
  }
}

static void gc_move_finished(void) {
  if (--ftl.gc.pending == 0) {
    ftl.gc.batch = 0;
    ftl.gc.victim_in_batch = false;
    for (uint32_t i = 0; i < ftl.gc.drained_count; ++i) {
      ftl.gc.drained[i].waiting = false;
    }
    ftl.gc.stage = GC_SCAN;
    schedule(&ftl.gc.task);
  }
}

/* The moved page replaces the victim's copy, unless the host rewrote or trimmed the LPN since
 * (the victim's page is then invalid, and so stays the new copy). */
static void run_gc_move(task_t *task) {
  gc_move_t *move = LIST_ENTRY(task, gc_move_t, task);
  for (;;) {
    if (!block_page_valid(&ftl.blocks, move->old_ppn)) {
      block_page_settled(&ftl.blocks, move->new_ppn);
      gc_move_finished();
      return;
    }
    if (!tp_store_can_evict(&ftl.tp_store)) {
      stall(task);
      return;
    }
    uint32_t value;
    if (ftl.scheme->update(move->lpn, move->new_ppn, &value) == MAP_HIT) {
      if (value != PPN_UNMAPPED) {
        block_page_invalidate(&ftl.blocks, value);
      }
      block_page_validate(&ftl.blocks, move->new_ppn);
      block_page_settled(&ftl.blocks, move->new_ppn);
      ++ftl.stats->gc_pages_moved;
      gc_move_finished();
      return;
    }
    if (!load_tp(value, task, &move->waiter)) {
      return;
    }
  }
}

static void resume_gc_move(tp_waiter_t *waiter) {
  gc_move_t *move = LIST_ENTRY(waiter, gc_move_t, waiter);
  run_gc_move(&move->task);
}

static void gc_erase_done(flash_op_t *op, uint32_t status) {
  (void)op;
  gc_drained_t erased = ftl.gc.drained[op->user];
  ftl.gc.drained[op->user] = ftl.gc.drained[--ftl.gc.drained_count];
  if (status != NFC_STATUS_OK) {
    block_retire(&ftl.blocks, erased.group);
  } else {
    block_erased(&ftl.blocks, erased.group);
    ++ftl.stats->blocks_erased;
  }
  ++ftl.stats->gc_invocations;
  ftl.stats->gc_foreground += erased.foreground;
  ftl.stats->wl_migrations += erased.wear_levelling;
  ftl.wear_changed = true;
  /* More to erase, the victim still being scanned, or another while pools are low. */
  ftl.gc.stage = GC_SCAN;
  schedule(&ftl.gc.task);
}

static void gc_program(void) {
  if (!record_available()) {
    stall(&ftl.gc.task);
    return;
  }
  uint32_t ppn = block_alloc_wordline(&ftl.blocks, BLOCK_STREAM_GC, 0);
  if (ppn == BLOCK_NONE) {
    fw_printf("ftl: no free block left for GC (fewest free groups in a unit: %u)\n",
              (unsigned)block_min_free(&ftl.blocks));
    system_fault();
  }
  flash_op_t *op = take_record(gc_program_done, 0);
  for (uint32_t i = 0; i < ftl.unit_pages; ++i) {
    uint32_t *oob = flash_oob(&ftl.flash, op, i);
    if (i < ftl.gc.batch) {
      flash_io_user(&ftl.flash, op, i, ftl.gc.slots + i * ftl.geometry.page_bytes, true);
      oob[0] = ftl.gc.moves[i].lpn;
    } else {
      flash_io_user(&ftl.flash, op, i, ftl.filler_slot, true);
      oob[0] = FLASH_OOB_FILLER;
      ++ftl.stats->pages_programmed_padding;
    }
  }
  ftl.stats->pages_programmed_gc += ftl.gc.batch;
  ftl.gc.stage = GC_PROGRAMMING;
  flash_program(&ftl.flash, op, ppn, ftl.blocks.unit_planes);
}

/* Erases a drained victim none of whose pages waits in the batch: every page it had is moved
 * and its mapping updated. */
static void gc_erase(void) {
  uint32_t index = erasable_victim();
  uint32_t group = ftl.gc.drained[index].group;
  if (ftl.blocks.groups[group].valid_pages != 0) {
    fw_printf("ftl: GC victim group %u still has %u valid pages at its erase\n",
              (unsigned)group, (unsigned)ftl.blocks.groups[group].valid_pages);
    system_fault();
  }
  if (!record_available()) {
    stall(&ftl.gc.task);
    return;
  }
  flash_op_t *op = take_record(gc_erase_done, 0);
  op->user = index;
  ftl.gc.stage = GC_ERASING;
  flash_erase(&ftl.flash, op, block_group_ppn(&ftl.blocks, group, 0), ftl.blocks.unit_planes);
}

static void run_gc(task_t *task) {
  switch (ftl.gc.stage) {
  case GC_SCAN:
    gc_scan();
    break;
  case GC_PROGRAM:
    gc_program();
    break;
  case GC_RELOCATE:
    while (ftl.gc.cursor < ftl.tp_count) {
      uint32_t ppn = gtd_get(&ftl.gtd, ftl.gc.cursor);
      if (ppn != PPN_UNMAPPED && block_group_of(&ftl.blocks, ppn) == ftl.gc.victim &&
          !tp_store_relocate(&ftl.tp_store, ftl.gc.cursor, ppn)) {
        stall(task);
        return;
      }
      ++ftl.gc.cursor;
    }
    ftl.gc.stage = GC_TP_WAIT;
    run_gc(task);
    break;
  case GC_TP_WAIT:
    if (ftl.blocks.groups[ftl.gc.victim].valid_pages != 0) {
      /* One padded program at a time: this runs again whenever anything comes free. */
      if (ftl.tp_store.programs_in_flight == 0) {
        tp_store_pump(&ftl.tp_store, true);
      }
      stall(task);
      return;
    }
    drain_victim();
    ftl.gc.stage = GC_ERASE;
    gc_erase();
    break;
  case GC_ERASE:
    gc_erase();
    break;
  default:
    break;
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
  wake(&ftl.wait_buffer, 0xFFFFFFFFu);
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

static bool take_events(void) {
  bool any = false;
  hic_event_t event;
  while (hic_next_event(&event)) {
    any = true;
    if (event.kind == HIC_EVENT_COMMAND) {
      new_command(&event);
    } else {
      transfer_done(&event);
    }
  }
  if (flash_drain(&ftl.flash) != 0) {
    any = true;
    flash_resources_freed();
  }
  return any;
}

static bool host_idle(void) {
  return list_empty(&ftl.dispatch_queue) && ftl.free_request_count == FTL_PAGE_REQUESTS &&
         list_empty(&ftl.flush_queue);
}

void ftl_run(void) {
  for (;;) {
    bool busy = take_events();
    busy |= tp_store_deliver(&ftl.tp_store);
    dispatch();
    busy |= run_tasks();
    program_write_buffer(false);
    tp_store_pump(&ftl.tp_store, false);
    if (tp_store_take_progress(&ftl.tp_store)) {
      flash_resources_freed();
      busy = true;
    }
    advance_flush();
    busy |= flush_waiting_tps();
    if (ftl.gc.stage == GC_IDLE) {
      consider_gc(host_idle());
    }
    busy |= run_tasks();
    if (busy || !list_empty(&ftl.ready)) {
      continue;
    }
    copy_map_counters(); /* GC's updates since the last completion, before sleeping */
    /* An event posted after the check raises the interrupt, which ends the WFI even with
     * interrupts disabled; enabling them then runs the handler. */
    uint32_t saved = irq_save_disable();
    if (!hic_event_waiting() && !flash_completion_waiting(&ftl.flash) && !ftl.tp_flush_due) {
      cpu_wait_for_interrupt();
    }
    irq_restore(saved);
  }
}

/* ---- boot ---- */

/* GC can always free a group if, with every stream's group open and every pool down to the GC
 * reserve, the remaining groups hold more pages than can be valid (one per LPN and per TP): then
 * some collectable group has an invalid page. Bad blocks found later may still break this. */
static bool spare_groups_suffice(const char **problem) {
  static char message[200];
  const block_manager_t *b = &ftl.blocks;
  uint32_t reserved = block_max_open_groups(b) + b->unit_count * ftl.boot->ftl_gc_foreground_free;
  uint32_t usable = b->group_count - b->retired_groups;
  uint64_t group_pages = (uint64_t)b->unit_planes * ftl.geometry.pages;
  uint64_t full_pages = usable > reserved ? (usable - reserved) * group_pages : 0;
  if (full_pages > (uint64_t)ftl.lpn_count + ftl.tp_count) {
    return true;
  }
  fw_snprintf(message, sizeof message,
              "over-provisioning too small for GC: %u groups, %u held open or in reserve "
              "(ftl.gc.foreground_free per unit), leave %u pages for %u LPNs and %u TPs "
              "(raise ftl.op or nand.blocks)",
              (unsigned)usable, (unsigned)reserved, (unsigned)full_pages,
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

ftl_init_result_t ftl_init(const boot_config_t *boot, const nand_geometry_t *geometry,
              const hic_geometry_t *host, arena_t *sram, arena_t *dram, fw_stats_t *stats,
              const char **problem) {
  ftl.boot = boot;
  ftl.stats = stats;
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
  uint32_t unit_pages = geometry->bits_per_cell * (boot->ftl_multi_plane ? geometry->planes : 1u);
  if (unit_pages > FTL_MAX_UNIT_PAGES) {
    *problem = "a program would write more pages (bits per cell x planes) than the firmware "
               "handles (64)";
    return FTL_INIT_BAD_CONFIG;
  }
  *problem = "the FTL's structures do not fit";
  bool fits = block_init(&ftl.blocks, geometry, boot->ftl_multi_plane != 0,
                         boot->ftl_alloc_order, sram);
  ftl.unit_pages = ftl.blocks.pages_per_wordline_unit;
  fits &= flash_init(&ftl.flash, geometry, FTL_FLASH_OPS, sram);
  arena_t *buffer_arena = boot->ftl_write_buffer_in_dram != 0 ? dram : sram;
  if (buffer_arena == 0) {
    *problem = "the write buffer is placed in DRAM but there is none (ftl.write_buffer.location)";
    return FTL_INIT_BAD_CONFIG;
  }
  fits &= wb_init(&ftl.wb, boot->ftl_write_buffer_pages, geometry->page_bytes, sram,
                  buffer_arena);
  fits &= gtd_init(&ftl.gtd, ftl.tp_count, sram);
  if (!spare_groups_suffice(problem)) {
    return FTL_INIT_BAD_CONFIG;
  }
  uint32_t waiters = FTL_PAGE_REQUESTS + boot->ftl_write_buffer_pages + ftl.unit_pages;
  fits &= tp_store_init(&ftl.tp_store, ftl.scheme, &ftl.flash, &ftl.blocks, &ftl.gtd, stats,
                        ftl.entries_per_tp, waiters, sram);
  ftl.max_commands = host->max_commands;
  ftl.commands = (command_t *)arena_alloc(sram, "host_commands",
                                          ftl.max_commands * (uint32_t)sizeof(command_t));
  fits &= hash_init(&ftl.lpn_tail, sram, "lpn_order_index", FTL_PAGE_REQUESTS);
  ftl.read_slots = (uint8_t *)arena_alloc(sram, "read_slots",
                                          FTL_READ_SLOTS * geometry->page_bytes);
  ftl.wb_slot_owner = (uint32_t *)arena_alloc(
      sram, "write_buffer_owners", boot->ftl_write_buffer_pages * (uint32_t)sizeof(uint32_t));
  ftl.updates = (slot_update_t *)arena_alloc(
      sram, "write_buffer_updates", boot->ftl_write_buffer_pages * (uint32_t)sizeof(slot_update_t));
  ftl.filler_slot = (uint8_t *)arena_alloc(sram, "filler_page", geometry->page_bytes);
  ftl.gc.slots = (uint8_t *)arena_alloc(sram, "gc_slots", ftl.unit_pages * geometry->page_bytes);
  ftl.gc.moves =
      (gc_move_t *)arena_alloc(sram, "gc_moves", ftl.unit_pages * (uint32_t)sizeof(gc_move_t));
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
  if (!fits || ftl.commands == 0 || ftl.read_slots == 0 || ftl.wb_slot_owner == 0 ||
      ftl.updates == 0 || ftl.filler_slot == 0 || ftl.gc.slots == 0 || ftl.gc.moves == 0 ||
      ftl.event_ring == 0 || ftl.request_ring == 0) {
    return FTL_INIT_NO_MEMORY;
  }
  if (!ftl.scheme->init(&ftl.env, sram, boot->ftl_map_budget_bytes)) {
    *problem = "the mapping scheme's minimum does not fit its budget (ftl.map_budget) or SRAM";
    return FTL_INIT_NO_MEMORY;
  }

  list_init(&ftl.dispatch_queue);
  list_init(&ftl.flush_queue);
  list_init(&ftl.ready);
  list_init(&ftl.wait_read_slot);
  list_init(&ftl.wait_buffer);
  list_init(&ftl.wait_flash);
  for (uint32_t i = 0; i < FTL_PAGE_REQUESTS; ++i) {
    ftl.requests[i].task.run = run_request;
    ftl.requests[i].waiter.resume = resume_request;
    ftl.free_requests[i] = FTL_PAGE_REQUESTS - 1u - i;
  }
  ftl.free_request_count = FTL_PAGE_REQUESTS;
  for (uint32_t i = 0; i < FTL_READ_SLOTS; ++i) {
    ftl.free_read_slots[i] = i;
  }
  ftl.free_read_slot_count = FTL_READ_SLOTS;
  for (uint32_t i = 0; i < boot->ftl_write_buffer_pages; ++i) {
    ftl.updates[i].task.run = run_slot_update;
    ftl.updates[i].waiter.resume = resume_slot_update;
  }
  for (uint32_t i = 0; i < ftl.unit_pages; ++i) {
    ftl.gc.moves[i].task.run = run_gc_move;
    ftl.gc.moves[i].waiter.resume = resume_gc_move;
    ftl.gc.moves[i].waiter.request = 0;
    ftl.gc.moves[i].waiter.host_read = false;
  }
  ftl.gc.task.run = run_gc;
  ftl.gc.stage = GC_IDLE;
  ftl.gc.victim = BLOCK_NONE;
  hic_start(ftl.event_ring, HIC_RING_ENTRIES, ftl.request_ring, HIC_RING_ENTRIES);
  irq_enable();
  return FTL_INIT_OK;
}
