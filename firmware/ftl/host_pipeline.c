#include "ftl/host_pipeline.h"

#include <string.h>

#include "data_tag.h"
#include "ftl/buffer_flush.h"
#include "ftl/core.h"
#include "ftl/policy.h"
#include "ftl/task.h"
#include "hal/console.h"
#include "hal/job_kind.h"
#include "hal/system.h"
#include "hal/timer.h"
#include "lib/hash.h"
#include "lib/list.h"
#include "lib/metrics.h"

#define NONE 0xFFFFFFFFu

typedef enum pr_kind { PR_READ, PR_WRITE, PR_TRIM } pr_kind_t;

typedef enum pr_stage {
  PR_START,        /* ordered: first step */
  PR_TRANSLATE,    /* look the LPN up (reads; partial writes before the old-data read) */
  PR_FLASH,        /* waiting for a flash read */
  PR_TRANSFER,     /* waiting for DATA_IN / DATA_OUT */
} pr_stage_t;

typedef struct page_request {
  task_t task;
  map_update_t update; /* its waiter also serves lookups' TP loads */
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
  bool rewrite;         /* the grouping policy wants the data it reads rewritten */
  uint32_t hint;        /* a VPN the scheme found after a misprediction, to read next, or NONE */
  bool hint_predicted;  /* the hint is one more guess, to verify like a prediction */
  uint32_t wrong_vpn;   /* the last wrong prediction, or NONE */
  uint32_t sequence;    /* dispatch order, for the write buffer's queue */
  bool buffer_waiting;  /* queued for a write-buffer slot since it first found none */
} page_request_t;

typedef struct command {
  list_node_t link; /* in the dispatch queue or the flush queue */
  uint32_t op;
  uint32_t flags;
  uint32_t lpn;
  uint32_t pages;
  uint32_t next_page;
  uint32_t pages_done;
  uint32_t pages_buffered; /* FUA writes: pages in the write buffer, programmed or not */
  uint32_t status;
  uint64_t arrival; /* timer ticks, when a policy hears completions */
  map_request_t request;
} command_t;


/* What the pipeline did, registered by name (lib/metrics.h). */
typedef struct pipeline_counters {
  uint64_t host_commands;
  uint64_t host_read_pages;
  uint64_t host_write_pages;
  uint64_t host_trim_pages;
  uint64_t host_fua_writes;        /* write commands flagged FUA */
  uint64_t partial_page_merges;    /* partial-page writes merged with the old data (RMW) */
  /* Host page requests translated: each counts once, at its first lookup (it asks again after
   * a TP load); a hit needed no TP load (a right prediction included). */
  uint64_t map_lookups;
  uint64_t map_hits;
  uint64_t map_misses;
  uint64_t flash_reads_host; /* data reads for host reads, mispredictions included */
  uint64_t flash_reads_rmw;  /* old-data reads of partial-page writes */
  uint64_t host_reads_by_page_type[4]; /* flash_reads_host by the page type read */
  uint64_t flush_room_waits; /* times a flush command's scheme flush stopped for TP store room */
} pipeline_counters_t;

static struct {
  pipeline_counters_t counters;
  command_t *commands;
  uint32_t max_commands;
  list_node_t dispatch_queue;
  list_node_t flush_queue;
  bool flushing;
  /* The flush commands' work while the scheme's flush waits for room in the TP store (in the
   * task queue, like any resource wait); the main loop advances it otherwise. */
  task_t flush_task;
  bool flush_waits;

  page_request_t *requests; /* request_count of them (ftl.page_requests) */
  uint32_t *free_requests;
  uint32_t request_count;
  uint32_t free_request_count;
  uint32_t next_sequence;  /* dispatch order of the next page request */
  uint32_t buffer_waiters; /* write requests queued for a buffer slot (waiting or woken) */
  /* FUA writes with every page in the buffer, not yet all programmed: their programs are due. */
  uint32_t fua_commands_buffered;
  hash_table_t lpn_tail; /* LPN -> the last request queued on it */

  uint8_t *read_slots; /* read_slot_count pages (ftl.read_slots) */
  uint32_t *free_read_slots;
  uint32_t read_slot_count;
  uint32_t free_read_slot_count;
  uint32_t *read_slot_owner;
  uint32_t *wb_slot_owner; /* the write request filling each slot */
} pipeline;

static page_request_t *request_of_task(task_t *task) {
  return LIST_ENTRY(task, page_request_t, task);
}

/* Out of line: only a policy that hears completions pays for the timer read. */
static __attribute__((noinline)) void emit_completion(const command_t *command) {
  policy_event_t event = {.kind = POLICY_REQUEST_COMPLETED,
                          .lpn = command->lpn,
                          .count = command->pages,
                          .latency_ns = timer_ns_from_ticks(timer_now() - command->arrival),
                          .is_read = command->op == HIC_OP_READ};
  policy_emit(&event);
}

static void complete_command(uint32_t cmd_id, uint32_t status) {
  hic_complete(cmd_id, (uint8_t)status);
  ++pipeline.counters.host_commands;
  if (policy_heard(POLICY_REQUEST_COMPLETED)) {
    emit_completion(&pipeline.commands[cmd_id]);
  }
}

static void command_page_done(uint32_t cmd_id) {
  command_t *command = &pipeline.commands[cmd_id];
  if (++command->pages_done == command->pages) {
    complete_command(cmd_id, command->status);
  }
}

static void finish_request(page_request_t *request) {
  uint32_t index = (uint32_t)(request - pipeline.requests);
  if (request->next_same_lpn != NONE) {
    task_schedule(&pipeline.requests[request->next_same_lpn].task);
  } else {
    hash_remove(&pipeline.lpn_tail, request->lpn);
  }
  uint32_t cmd_id = request->cmd_id;
  pipeline.free_requests[pipeline.free_request_count++] = index;
  command_page_done(cmd_id);
}

static uint32_t take_read_slot(void) {
  return pipeline.free_read_slot_count == 0 ? NONE : pipeline.free_read_slots[--pipeline.free_read_slot_count];
}

static uint8_t *read_slot(uint32_t slot) {
  return pipeline.read_slots + slot * ftl_core.geometry.page_bytes;
}

static void release_read_slot(uint32_t slot) {
  pipeline.free_read_slots[pipeline.free_read_slot_count++] = slot;
  task_wake(TASK_WAIT_READ_SLOT, 1);
}

static void send_to_host(page_request_t *request) {
  request->stage = PR_TRANSFER;
  pipeline.read_slot_owner[request->slot] = (uint32_t)(request - pipeline.requests);
  hic_data_out(request->cmd_id, request->page_index, (uintptr_t)read_slot(request->slot));
}

static void receive_from_host(page_request_t *request) {
  request->stage = PR_TRANSFER;
  pipeline.wb_slot_owner[request->slot] = (uint32_t)(request - pipeline.requests);
  hic_data_in(request->cmd_id, request->page_index, (uintptr_t)wb_data(&ftl_core.wb, request->slot));
}

static void request_read_done(flash_op_t *op, uint32_t status);

/* Out of line: the read path, run for every host page, stays free of the event's stack frame
 * when nobody listens. */
static __attribute__((noinline)) void emit_host_read(uint32_t lpn, uint32_t vpn,
                                                     uint32_t page_type) {
  policy_event_t event = {.kind = POLICY_HOST_READ,
                          .lpn = lpn,
                          .vpn = vpn,
                          .page_type = page_type,
                          .stripe = block_stripe_of(&ftl_core.blocks, vpn)};
  policy_emit(&event);
}

/* Reads `vpn` into the request's slot (with its OOB when the VPN is a prediction). False when
 * no flash record is free (the lookup's writebacks may have taken the last). */
static bool read_page(page_request_t *request, uint32_t vpn, uint8_t *slot, bool with_oob) {
  flash_op_t *op = ftl_take_record(request_read_done, request);
  if (op == 0) {
    return false;
  }
  flash_io_user(&ftl_core.flash, op, 0, slot, with_oob);
  request->stage = PR_FLASH;
  if (request->kind == PR_READ) {
    ++pipeline.counters.flash_reads_host;
    /* A block holds whole wordlines, so the VPN's remainder is the page's type. */
    uint32_t page_type = vpn % ftl_core.geometry.bits_per_cell;
    ++pipeline.counters.host_reads_by_page_type[page_type];
    request->rewrite = buffer_flush_rewrite_wanted(request->lpn, page_type);
    if (policy_heard(POLICY_HOST_READ)) {
      emit_host_read(request->lpn, vpn, page_type);
    }
  } else {
    ++pipeline.counters.flash_reads_rmw;
  }
  flash_read(&ftl_core.flash, op, vpn, 1);
  return true;
}

/* Out of line, as emit_host_read. */
static __attribute__((noinline)) void emit_host_read_hit(uint32_t lpn) {
  policy_event_t event = {.kind = POLICY_HOST_READ_HIT, .lpn = lpn};
  policy_emit(&event);
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
    if (!ftl_record_available() || !tp_store_can_evict(&ftl_core.tp_store)) {
      task_wait(TASK_WAIT_FLASH, &request->task);
      return;
    }
    uint32_t value = request->hint;
    map_answer_t answer = request->hint_predicted ? MAP_PREDICT : MAP_HIT;
    if (value == NONE) {
      const map_request_t *host_request = &pipeline.commands[request->cmd_id].request;
      answer = ftl_core.scheme->lookup(request->lpn, host_request, &value);
    }
    request->hint = NONE;
    request->hint_predicted = false;
    if (answer == MAP_PREDICT && value == request->wrong_vpn) {
      fw_printf("ftl: scheme %s predicted LPN %u at VPN %#x again after it was wrong\n",
                ftl_core.scheme->name, (unsigned)request->lpn, (unsigned)value);
      system_fault();
    }
    if (!request->asked) {
      request->asked = true;
      request->first_predicted = answer == MAP_PREDICT;
      ++pipeline.counters.map_lookups;
      if (answer == MAP_HIT) {
        ++pipeline.counters.map_hits;
      } else if (answer == MAP_MISS) {
        ++pipeline.counters.map_misses;
      }
    }
    uint8_t *slot = is_read ? read_slot(request->slot) : wb_data(&ftl_core.wb, request->slot);
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
        ++pipeline.counters.partial_page_merges;
      }
      return;
    }
    request->update.waiter.host_read = is_read;
    if (!task_load_tp(&ftl_core.tp_store, value, &request->task, &request->update.waiter)) {
      return;
    }
  }
}

static void request_read_done(flash_op_t *op, uint32_t status) {
  page_request_t *request = (page_request_t *)op->owner;
  if (request->predicted) {
    const uint32_t *oob = flash_oob(&ftl_core.flash, op, 0);
    /* A stale copy of the LPN (rewritten since) or an unreadable page is no confirmation. */
    bool readable = status == NFC_STATUS_OK;
    bool right = readable && oob[OOB_WORD_OWNER] == request->lpn &&
                 block_page_valid(&ftl_core.blocks, op->vpn);
    if (request->first_predicted) {
      request->first_predicted = false;
      ++*(right ? &pipeline.counters.map_hits : &pipeline.counters.map_misses);
    }
    if (!right) {
      uint32_t value;
      map_answer_t answer =
          ftl_core.scheme->mispredicted(request->lpn, op->vpn, readable ? oob : 0, false, &value);
      if (answer != MAP_MISS) {
        request->hint = value;
        request->hint_predicted = answer == MAP_PREDICT;
      }
      request->wrong_vpn = op->vpn;
      request->predicted = false;
      request->stage = PR_TRANSLATE;
      task_schedule(&request->task);
      return;
    }
    if (request->kind == PR_WRITE) {
      ++pipeline.counters.partial_page_merges;
    }
  }
  if (request->kind == PR_READ) {
    if (status != NFC_STATUS_OK) {
      pipeline.commands[request->cmd_id].status = HIC_STATUS_ERROR;
      release_read_slot(request->slot);
      finish_request(request);
      return;
    }
    if (request->rewrite) {
      buffer_flush_rewrite(request->lpn, read_slot(request->slot));
    } else {
      uint32_t cached = wb_fill(&ftl_core.wb, request->lpn);
      if (cached != WB_NONE) {
        memcpy(wb_data(&ftl_core.wb, cached), read_slot(request->slot), DATA_TAG_BYTES);
      }
    }
    send_to_host(request);
    return;
  }
  /* The old data of a partial write is in the slot (an unreadable page leaves the host's part
   * to stand alone); now the host's part. */
  receive_from_host(request);
}

static void start_read(page_request_t *request) {
  uint32_t buffered = wb_find(&ftl_core.wb, request->lpn);
  if (request->slot == NONE) {
    request->slot = take_read_slot();
    if (request->slot == NONE) {
      task_wait(TASK_WAIT_READ_SLOT, &request->task);
      return;
    }
  }
  if (buffered != WB_NONE) {
    memcpy(read_slot(request->slot), wb_data(&ftl_core.wb, buffered), DATA_TAG_BYTES);
    wb_read_hit(&ftl_core.wb, buffered);
    if (policy_heard(POLICY_HOST_READ_HIT)) {
      emit_host_read_hit(request->lpn);
    }
    send_to_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static bool dispatched_before(const task_t *first, const task_t *second) {
  const page_request_t *a = LIST_ENTRY(first, page_request_t, task);
  const page_request_t *b = LIST_ENTRY(second, page_request_t, task);
  return (int32_t)(a->sequence - b->sequence) < 0;
}

/* Write-buffer slots go in dispatch order: a page never takes a slot while an earlier one waits
 * for one, and a woken waiter that finds none again keeps its place. Otherwise a slot freed for
 * the head of the queue goes to a page dispatched since, the head goes to the back, and the
 * pages of concurrent commands enter the buffer interleaved (and are programmed so). */
static void wait_for_buffer(page_request_t *request) {
  if (!request->buffer_waiting) {
    request->buffer_waiting = true;
    ++pipeline.buffer_waiters;
  }
  task_wait_ordered(TASK_WAIT_BUFFER, &request->task, dispatched_before);
}

static void start_write(page_request_t *request) {
  if (pipeline.flushing || (!request->buffer_waiting && pipeline.buffer_waiters != 0)) {
    wait_for_buffer(request);
    return;
  }
  bool absorbed;
  const command_t *command = &pipeline.commands[request->cmd_id];
  uint32_t flags = (request->partial ? WB_ENTRY_PARTIAL : 0u) |
                   ((command->flags & HIC_CMD_FUA) != 0 ? WB_ENTRY_FUA : 0u);
  uint32_t slot = wb_write(&ftl_core.wb, request->lpn, command->pages, flags, &absorbed);
  if (slot == WB_NONE) {
    wait_for_buffer(request);
    return;
  }
  if (request->buffer_waiting) {
    request->buffer_waiting = false;
    if (--pipeline.buffer_waiters != 0) {
      task_wake(TASK_WAIT_BUFFER, 1); /* a slot freed with none waiting woke nobody: try it */
    }
  }
  request->slot = slot;
  if (!request->partial) {
    receive_from_host(request);
    return;
  }
  uint32_t older = ftl_core.wb.slots[slot].older;
  if (absorbed || older != WB_NONE) {
    /* The old data is in the buffer: merge there, no flash read. */
    if (!absorbed) {
      memcpy(wb_data(&ftl_core.wb, slot), wb_data(&ftl_core.wb, older), DATA_TAG_BYTES);
    }
    ++pipeline.counters.partial_page_merges;
    receive_from_host(request);
    return;
  }
  request->stage = PR_TRANSLATE;
  translate(request);
}

static void run_trim(page_request_t *request) {
  /* A buffered copy being programmed is released after its mapping update: retried with the
   * flash waiters, as the program's completion leads there. */
  if (!wb_trim(&ftl_core.wb, request->lpn)) {
    task_wait(TASK_WAIT_FLASH, &request->task);
    return;
  }
  task_wake(TASK_WAIT_BUFFER, 1); /* the trim may have freed a slot */
  if (task_map_update(ftl_core.scheme, &ftl_core.tp_store, &ftl_core.blocks, VPN_UNMAPPED,
                      &request->update)) {
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
  page_request_t *request = LIST_ENTRY(waiter, page_request_t, update.waiter);
  uint32_t outer = job_kind_enter(JOB_KIND_HOST);
  run_request(&request->task);
  job_kind_set(outer);
}

/* Host transfer finished: a read page is out, or a write page is in the buffer. */
static void transfer_done(const hic_event_t *event) {
  uint8_t *buffer = (uint8_t *)(uintptr_t)event->buffer;
  if (buffer >= pipeline.read_slots &&
      buffer < pipeline.read_slots + pipeline.read_slot_count * ftl_core.geometry.page_bytes) {
    uint32_t slot = (uint32_t)(buffer - pipeline.read_slots) / ftl_core.geometry.page_bytes;
    page_request_t *request = &pipeline.requests[pipeline.read_slot_owner[slot]];
    release_read_slot(slot);
    finish_request(request);
    return;
  }
  uint32_t slot = (uint32_t)(buffer - ftl_core.wb.data) / ftl_core.wb.page_bytes;
  page_request_t *request = &pipeline.requests[pipeline.wb_slot_owner[slot]];
  wb_filled(&ftl_core.wb, slot);
  if ((ftl_core.wb.slots[slot].flags & WB_ENTRY_FUA) != 0) {
    /* A FUA page finishes once programmed (host_pipeline_fua_programmed); until then later
     * requests of its LPN wait behind it, so nothing rewrites or trims its slot. */
    command_t *command = &pipeline.commands[request->cmd_id];
    if (++command->pages_buffered == command->pages) {
      ++pipeline.fua_commands_buffered;
    }
    return;
  }
  finish_request(request);
}

void host_pipeline_fua_programmed(uint32_t slot) {
  /* Its mapping update follows (buffer_flush.c) and is not persisted before the completion:
   * after a power loss, recovery finds the page by its OOB. */
  page_request_t *request = &pipeline.requests[pipeline.wb_slot_owner[slot]];
  const command_t *command = &pipeline.commands[request->cmd_id];
  finish_request(request);
  if (command->pages_done == command->pages) {
    --pipeline.fua_commands_buffered; /* completed */
  }
}

bool host_pipeline_fua_due(void) {
  /* With every page request held, a FUA write longer than the pool cannot get all its pages in:
   * its programs are due as well. */
  return pipeline.fua_commands_buffered != 0 || pipeline.free_request_count == 0;
}

static bool page_is_partial(const command_t *command, uint32_t page) {
  return (page == 0 && (command->flags & HIC_CMD_PARTIAL_FIRST) != 0) ||
         (page == command->pages - 1u && (command->flags & HIC_CMD_PARTIAL_LAST) != 0);
}

static void dispatch(void) {
  while (!list_empty(&pipeline.dispatch_queue) && pipeline.free_request_count != 0) {
    command_t *command = LIST_ENTRY(pipeline.dispatch_queue.next, command_t, link);
    uint32_t page = command->next_page++;
    if (command->next_page == command->pages) {
      list_remove(&command->link);
    }
    uint32_t cmd_id = (uint32_t)(command - pipeline.commands);
    if (command->op == HIC_OP_TRIM && page_is_partial(command, page)) {
      command_page_done(cmd_id); /* a trim keeps the pages it covers in part */
      continue;
    }
    uint32_t index = pipeline.free_requests[--pipeline.free_request_count];
    page_request_t *request = &pipeline.requests[index];
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
    request->rewrite = false;
    request->hint = NONE;
    request->hint_predicted = false;
    request->wrong_vpn = NONE;
    request->sequence = pipeline.next_sequence++;
    request->buffer_waiting = false;
    task_map_update_start(&request->update, &request->task, request->lpn, MAP_OLD_UNKNOWN);
    request->update.waiter.request = &command->request;
    if (request->kind == PR_READ) {
      ++pipeline.counters.host_read_pages;
    } else if (request->kind == PR_WRITE) {
      ++pipeline.counters.host_write_pages;
    } else {
      ++pipeline.counters.host_trim_pages;
    }
    uint32_t tail;
    if (hash_find(&pipeline.lpn_tail, request->lpn, &tail)) {
      pipeline.requests[tail].next_same_lpn = index; /* runs once the earlier one finishes */
    } else {
      task_schedule(&request->task);
    }
    hash_put(&pipeline.lpn_tail, request->lpn, index);
  }
}

void host_pipeline_dispatch(void) {
  if (host_pipeline_can_dispatch()) {
    uint32_t outer = job_kind_enter(JOB_KIND_HOST);
    dispatch();
    job_kind_set(outer);
  }
}

static void new_command(const hic_event_t *event) {
  command_t *command = &pipeline.commands[event->cmd_id];
  command->op = event->op;
  command->flags = event->flags;
  command->lpn = event->lpn;
  command->pages = event->pages;
  command->next_page = 0;
  command->pages_done = 0;
  command->pages_buffered = 0;
  command->status = HIC_STATUS_OK;
  if (policy_heard(POLICY_REQUEST_COMPLETED)) {
    command->arrival = timer_now();
  }
  command->request.first_lpn = event->lpn;
  command->request.pages = event->pages;
  if (event->op == HIC_OP_WRITE && (event->flags & HIC_CMD_FUA) != 0) {
    ++pipeline.counters.host_fua_writes;
  }
  if (event->op == HIC_OP_FLUSH) {
    list_push_back(&pipeline.flush_queue, &command->link);
    pipeline.flushing = true;
    return;
  }
  bool in_range = event->lpn < ftl_core.lpn_count && event->pages <= ftl_core.lpn_count - event->lpn &&
                  event->pages != 0 &&
                  (event->op == HIC_OP_READ || event->op == HIC_OP_WRITE ||
                   event->op == HIC_OP_TRIM);
  if (!in_range) {
    complete_command(event->cmd_id, HIC_STATUS_INVALID);
    return;
  }
  list_push_back(&pipeline.dispatch_queue, &command->link);
}

/* The flush commands waiting: the write buffer programmed, then the scheme's dirty entries. */
static void advance_flush(void) {
  buffer_flush_program(true);
  if (!wb_all_clean(&ftl_core.wb)) {
    return; /* buffered pages still programming or updating */
  }
  uint32_t outer = job_kind_enter(JOB_KIND_TRANSLATION);
  bool handed_over = ftl_core.scheme->flush();
  tp_store_pump(&ftl_core.tp_store, true);
  job_kind_set(outer);
  if (!handed_over) {
    /* The programs just started and the reads in flight free the frames the rest needs. */
    ++pipeline.counters.flush_room_waits;
    pipeline.flush_waits = true;
    task_wait(TASK_WAIT_FLASH, &pipeline.flush_task);
    return;
  }
  if (!tp_store_idle(&ftl_core.tp_store)) {
    return;
  }
  while (!list_empty(&pipeline.flush_queue)) {
    command_t *command = LIST_ENTRY(list_pop_front(&pipeline.flush_queue), command_t, link);
    complete_command((uint32_t)(command - pipeline.commands), HIC_STATUS_OK);
  }
  pipeline.flushing = false;
  task_wake(TASK_WAIT_BUFFER, TASK_WAKE_ALL);
}

static void run_flush(task_t *task) {
  (void)task;
  pipeline.flush_waits = false;
  advance_flush();
}

void host_pipeline_advance_flush(void) {
  if (!list_empty(&pipeline.flush_queue) && !pipeline.flush_waits) {
    uint32_t outer = job_kind_enter(JOB_KIND_FLUSH);
    advance_flush();
    job_kind_set(outer);
  }
}

void host_pipeline_event(const hic_event_t *event) {
  if (event->kind == HIC_EVENT_COMMAND) {
    new_command(event);
  } else {
    transfer_done(event);
  }
}

bool host_pipeline_can_dispatch(void) {
  return !list_empty(&pipeline.dispatch_queue) && pipeline.free_request_count != 0;
}

uint64_t host_pipeline_commands_completed(void) { return pipeline.counters.host_commands; }

bool host_pipeline_idle(void) {
  return list_empty(&pipeline.dispatch_queue) &&
         pipeline.free_request_count == pipeline.request_count && list_empty(&pipeline.flush_queue);
}

/* Page-type names in wordline order (nand_model: LSB first). */
static const char *const host_reads_by_page_type_names[4] = {
    "host_reads_by_page_type.lsb", "host_reads_by_page_type.clsb",
    "host_reads_by_page_type.cmsb", "host_reads_by_page_type.msb"};

void host_pipeline_register_metrics(void) {
  pipeline_counters_t *c = &pipeline.counters;
  metrics_counter("host_commands", &c->host_commands);
  metrics_counter("host_read_pages", &c->host_read_pages);
  metrics_counter("host_write_pages", &c->host_write_pages);
  metrics_counter("host_trim_pages", &c->host_trim_pages);
  metrics_counter("host_fua_writes", &c->host_fua_writes);
  metrics_counter("partial_page_merges", &c->partial_page_merges);
  metrics_counter("map.lookups", &c->map_lookups);
  metrics_counter("map.hits", &c->map_hits);
  metrics_counter("map.misses", &c->map_misses);
  metrics_counter("flash_reads.host", &c->flash_reads_host);
  metrics_counter("flash_reads.rmw", &c->flash_reads_rmw);
  metrics_counter("map.flush_room_waits", &c->flush_room_waits);
  for (uint32_t type = 0; type < ftl_core.geometry.bits_per_cell; ++type) {
    metrics_counter(host_reads_by_page_type_names[type], &c->host_reads_by_page_type[type]);
  }
}

bool host_pipeline_init(const hic_geometry_t *host, arena_t *arena) {
  memset(&pipeline, 0, sizeof pipeline); /* a boot after a power loss finds what the last left */
  pipeline.request_count = ftl_core.boot->ftl_page_requests;
  pipeline.read_slot_count = ftl_core.boot->ftl_read_slots;
  pipeline.max_commands = host->max_commands;
  pipeline.commands = (command_t *)arena_alloc(arena, "host_commands",
                                               pipeline.max_commands * (uint32_t)sizeof(command_t));
  bool fits = hash_init(&pipeline.lpn_tail, arena, "lpn_order_index", pipeline.request_count);
  pipeline.requests = (page_request_t *)arena_alloc(
      arena, "page_requests", pipeline.request_count * sizeof(page_request_t));
  pipeline.free_requests = (uint32_t *)arena_alloc(arena, "page_request_free_list",
                                                   pipeline.request_count * sizeof(uint32_t));
  pipeline.read_slots = (uint8_t *)arena_alloc(
      arena, "read_slots", pipeline.read_slot_count * ftl_core.geometry.page_bytes);
  pipeline.free_read_slots = (uint32_t *)arena_alloc(
      arena, "read_slot_free_list", pipeline.read_slot_count * sizeof(uint32_t));
  pipeline.read_slot_owner = (uint32_t *)arena_alloc(
      arena, "read_slot_owners", pipeline.read_slot_count * sizeof(uint32_t));
  pipeline.wb_slot_owner = (uint32_t *)arena_alloc(
      arena, "write_buffer_owners", ftl_core.wb.slot_count * (uint32_t)sizeof(uint32_t));
  if (!fits || pipeline.commands == 0 || pipeline.requests == 0 || pipeline.free_requests == 0 ||
      pipeline.read_slots == 0 || pipeline.free_read_slots == 0 ||
      pipeline.read_slot_owner == 0 || pipeline.wb_slot_owner == 0) {
    return false;
  }
  list_init(&pipeline.dispatch_queue);
  list_init(&pipeline.flush_queue);
  pipeline.flush_task.run = run_flush;
  pipeline.flush_task.kind = JOB_KIND_FLUSH;
  for (uint32_t i = 0; i < pipeline.request_count; ++i) {
    pipeline.requests[i].task.run = run_request;
    pipeline.requests[i].task.kind = JOB_KIND_HOST;
    pipeline.requests[i].update.waiter.resume = resume_request;
    pipeline.free_requests[i] = pipeline.request_count - 1u - i;
  }
  pipeline.free_request_count = pipeline.request_count;
  for (uint32_t i = 0; i < pipeline.read_slot_count; ++i) {
    pipeline.free_read_slots[i] = i;
  }
  pipeline.free_read_slot_count = pipeline.read_slot_count;
  return true;
}
