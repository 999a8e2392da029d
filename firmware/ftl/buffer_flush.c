#include "ftl/buffer_flush.h"

#include <string.h>

#include "data_tag.h"
#include "ftl/core.h"
#include "ftl/gc.h"
#include "ftl/host_pipeline.h"
#include "ftl/task.h"
#include "lib/metrics.h"
#include "hal/csr.h"
#include "hal/job_kind.h"

/* The mapping update of one write-buffer slot after its program. */
typedef struct slot_update {
  task_t task;
  map_update_t update;
  uint32_t slot;
  uint32_t vpn;
} slot_update_t;

static struct {
  const grouping_policy_t *grouping;
  slot_update_t *updates; /* per write-buffer slot */
  uint8_t *filler_page;   /* a zero page for padding user wordlines */
  uint32_t watermark_pages; /* dirty pages above which wordlines are programmed */
  bool host_blocked;
  bool refresh_due;         /* a rewrite waits for its wordline, formed at once */
  /* What blocked host data last: it stays blocked until a group is freed or a merge ends. */
  uint32_t blocked_free_groups;
  bool blocked_by_merge;
  uint64_t flushes;         /* wordline programs of buffered pages */
  uint64_t programmed_host; /* host data pages programmed */
  uint64_t padding_host;    /* filler pages completing a host wordline */
  uint64_t fua_programs;    /* wordline programs holding a page of a FUA write */
  uint64_t rewrites_refused; /* rewrites the policy wanted that found no slot */
  uint64_t select_cycles;    /* core cycles in the policy's select */
  uint64_t commit_cycles;    /* core cycles in the policy's committed hook */
  uint64_t selections;       /* wordlines the policy was asked to form */
} flush;

static void run_slot_update(task_t *task) {
  slot_update_t *update = LIST_ENTRY(task, slot_update_t, task);
  if (task_map_update(ftl_core.scheme, &ftl_core.tp_store, &ftl_core.blocks, update->vpn,
                      &update->update)) {
    block_page_validate(&ftl_core.blocks, update->vpn);
    block_page_settled(&ftl_core.blocks, update->vpn);
    wb_settle(&ftl_core.wb, update->slot);
    task_wake(TASK_WAIT_BUFFER, 1);
  }
}

static void resume_slot_update(tp_waiter_t *waiter) {
  slot_update_t *update = LIST_ENTRY(waiter, slot_update_t, update.waiter);
  uint32_t outer = job_kind_enter(JOB_KIND_FLUSH);
  run_slot_update(&update->task);
  job_kind_set(outer);
}

static bool position_is_filler(const flash_op_t *op, uint32_t i) {
  return flash_oob(&ftl_core.flash, op, i)[OOB_WORD_OWNER] == OOB_FILLER;
}

static void host_program_done(flash_op_t *op, uint32_t status) {
  if (status != NFC_STATUS_OK) {
    block_program_failed(&ftl_core.blocks, op->vpn);
    for (uint32_t i = 0; i < ftl_core.unit_pages; ++i) {
      if (!position_is_filler(op, i)) {
        wb_requeue(&ftl_core.wb, flash_oob(&ftl_core.flash, op, i)[OOB_WORD_SOURCE]);
      }
    }
    return;
  }
  if (ftl_core.scheme->programmed != 0) {
    uint32_t lpns[FTL_MAX_UNIT_PAGES];
    for (uint32_t i = 0; i < ftl_core.unit_pages; ++i) {
      lpns[i] = flash_oob(&ftl_core.flash, op, i)[OOB_WORD_OWNER];
    }
    ftl_core.scheme->programmed(lpns, op->vpn, ftl_core.unit_pages);
  }
  for (uint32_t i = 0; i < ftl_core.unit_pages; ++i) {
    uint32_t vpn = op->vpn + i;
    if (position_is_filler(op, i)) {
      block_page_settled(&ftl_core.blocks, vpn);
      continue;
    }
    uint32_t slot = flash_oob(&ftl_core.flash, op, i)[OOB_WORD_SOURCE];
    wb_programmed(&ftl_core.wb, slot);
    slot_update_t *update = &flush.updates[slot];
    update->slot = slot;
    update->vpn = vpn;
    task_map_update_start(&update->update, &update->task, ftl_core.wb.slots[slot].lpn,
                          MAP_OLD_UNKNOWN);
    task_schedule(&update->task);
    if ((ftl_core.wb.slots[slot].flags & WB_ENTRY_FUA) != 0) {
      ftl_core.wb.slots[slot].flags &= (uint8_t)~WB_ENTRY_FUA;
      host_pipeline_fua_programmed(slot);
    }
  }
  if (policy_heard(POLICY_PAGES_PROGRAMMED)) {
    policy_event_t event = {.kind = POLICY_PAGES_PROGRAMMED,
                            .vpn = op->vpn,
                            .count = ftl_core.unit_pages,
                            .stream = op->user,
                            .stripe = block_stripe_of(&ftl_core.blocks, op->vpn)};
    policy_emit(&event);
  }
}

/* Fills the program's positions from the policy's choice: buffered pages, and filler pages where
 * the choice has none (and past its end). */
static void fill_program(flash_op_t *op, const grouping_choice_t *choice, uint32_t count) {
  write_buffer_t *wb = &ftl_core.wb;
  bool fua = false;
  for (uint32_t i = 0; i < ftl_core.unit_pages; ++i) {
    uint32_t slot = i < choice->positions ? choice->slots[i] : WB_NONE;
    if (slot == WB_NONE) {
      flash_io_pad(&ftl_core.flash, op, i, i + 1u, flush.filler_page, false);
      continue;
    }
    fua |= (wb->slots[slot].flags & WB_ENTRY_FUA) != 0;
    uint32_t *oob = flash_oob(&ftl_core.flash, op, i);
    wb_start_program(wb, slot);
    flash_io_user(&ftl_core.flash, op, i, wb_data(wb, slot), true);
    oob[OOB_WORD_OWNER] = wb->slots[slot].lpn;
    oob[OOB_WORD_SOURCE] = slot;
    oob[OOB_WORD_COPIES] = 0;
  }
  flush.padding_host += ftl_core.unit_pages - count;
  flush.programmed_host += count;
  flush.fua_programs += fua;
  ++flush.flushes;
}

/* Programs the wordline a policy formed; false when host data must wait for GC to free a
 * stripe. Out of line: the main loop often asks the policy for a wordline it cannot have yet
 * (slots still filling), and that path stays free of this one's register saves. */
static __attribute__((noinline)) bool program_choice(const grouping_choice_t *choice,
                                                     uint32_t count) {
  /* Host data never takes the last ftl_gc_foreground_free stripes' worth of groups: GC's. */
  uint32_t vpn = gc_holds_host() ? BLOCK_NONE
                                 : block_alloc_wordline(&ftl_core.blocks, choice->stream,
                                                        ftl_core.boot->ftl_gc_foreground_free);
  flush.host_blocked = vpn == BLOCK_NONE;
  if (flush.host_blocked) {
    flush.blocked_free_groups = ftl_core.blocks.free_total;
    flush.blocked_by_merge = gc_holds_host();
    return false;
  }
  if (flush.grouping->committed != 0) {
    uint32_t started = csr_read(mcycle);
    flush.grouping->committed(&ftl_core.wb, choice);
    flush.commit_cycles += csr_read(mcycle) - started;
  }
  flash_op_t *op = ftl_take_program_record(host_program_done, 0);
  fill_program(op, choice, count);
  op->user = choice->stream;
  if (ftl_core.scheme->program_oob != 0) {
    ftl_core.scheme->program_oob(vpn, ftl_core.unit_pages, op->oob, ftl_core.flash.oob_words);
  }
  flash_program(&ftl_core.flash, op, vpn, ftl_core.blocks.unit_planes);
  return true;
}

/* Host data is blocked and nothing that could unblock it has happened since: the policy is not
 * asked for a wordline that could not be programmed. */
static inline bool host_still_blocked(void) {
  return flush.host_blocked && ftl_core.blocks.free_total == flush.blocked_free_groups &&
         gc_holds_host() == flush.blocked_by_merge;
}

/* A whole wordline is dirty above the watermark, or every slot is dirty (stuck). */
static inline bool programs_due(const write_buffer_t *wb) {
  return (wb->dirty_count >= ftl_core.unit_pages && wb->dirty_count > flush.watermark_pages) ||
         wb->dirty_count == wb->slot_count;
}

/* The policy's wordline, its cycles counted. */
static uint32_t select_wordline(grouping_choice_t *choice) {
  choice->stream = BLOCK_STREAM_HOST;
  uint32_t started = csr_read(mcycle);
  uint32_t count = flush.grouping->select(&ftl_core.wb, ftl_core.unit_pages, choice);
  flush.select_cycles += csr_read(mcycle) - started;
  ++flush.selections;
  return count;
}

/* A rewrite's wordline, whole, whether or not programs are due: tried once (a rewrite that
 * finds less than a wordline eligible leaves with the next due program). */
static void program_refresh(grouping_choice_t *choice) {
  if (!ftl_program_record_available() || host_still_blocked()) {
    return; /* retried on the next turn */
  }
  flush.refresh_due = false;
  if (select_wordline(choice) == ftl_core.unit_pages && !program_choice(choice, ftl_core.unit_pages)) {
    flush.refresh_due = true; /* host data waits for GC: so does the rewrite */
  }
}

/* Out of line with its choice on the stack: buffer_flush_program's check, made on every turn
 * of the main loop, stays free of that frame. */
static __attribute__((noinline)) void program_wordlines(bool force) {
  grouping_choice_t choice;
  if (flush.refresh_due) {
    program_refresh(&choice);
  }
  for (;;) {
    const write_buffer_t *wb = &ftl_core.wb;
    /* Pad a partial wordline only when no slot can come free otherwise. */
    bool buffer_stuck = wb->dirty_count == wb->slot_count;
    /* Without a flash record or room nothing can be programmed: the policy is not asked in
     * vain. */
    if ((!force && !programs_due(wb)) || !ftl_program_record_available() ||
        host_still_blocked()) {
      return;
    }
    uint32_t count = select_wordline(&choice);
    /* A slot still filling from the host (or behind an older copy in flight) comes eligible
     * without a program: the buffer is stuck only when the policy can pick every dirty slot,
     * or every one is eligible and the policy picks fewer (gtd_group: one group's). */
    buffer_stuck &= count == wb->dirty_count || (count != 0 && wb_dirty_all_eligible(wb));
    if (count == 0 || (choice.positions < ftl_core.unit_pages && !force && !buffer_stuck)) {
      return;
    }
    if (!program_choice(&choice, count)) {
      return;
    }
  }
}

void buffer_flush_program(bool force) {
  /* A FUA write waits for its program: the buffered pages go now, a partial wordline padded. */
  force |= ftl_core.wb.fua_ready != 0 && host_pipeline_fua_due();
  if (force || flush.refresh_due || programs_due(&ftl_core.wb)) {
    uint32_t outer = job_kind_enter(JOB_KIND_FLUSH);
    program_wordlines(force);
    job_kind_set(outer);
  }
}

bool buffer_flush_rewrite_wanted(uint32_t lpn, uint32_t page_type) {
  return flush.grouping->rewrite_wanted != 0 && ftl_core.boot->ftl_fsp_rewrite &&
         flush.grouping->rewrite_wanted(lpn, page_type);
}

void buffer_flush_rewrite(uint32_t lpn, const uint8_t *data) {
  uint32_t slot = wb_rewrite(&ftl_core.wb, lpn);
  if (slot == WB_NONE) {
    ++flush.rewrites_refused;
    return;
  }
  memcpy(wb_data(&ftl_core.wb, slot), data, DATA_TAG_BYTES);
  flush.refresh_due = true;
}

bool buffer_flush_host_blocked(void) { return flush.host_blocked; }

uint8_t *buffer_flush_filler_page(void) { return flush.filler_page; }

void buffer_flush_register_metrics(void) {
  metrics_counter("pages_programmed.host", &flush.programmed_host);
  metrics_counter("pages_programmed.padding.host", &flush.padding_host);
  const wb_counters_t *cache = &ftl_core.wb.counters;
  metrics_counter("cache.read_hits", &cache->read_hits);
  metrics_counter("cache.write_hits", &cache->write_hits);
  metrics_counter("cache.fills", &cache->fills);
  metrics_counter("cache.evictions", &cache->evictions);
  metrics_counter("cache.rewrites", &cache->rewrites);
  metrics_counter("cache.flushes", &flush.flushes);
  metrics_counter("cache.fua_programs", &flush.fua_programs);
  metrics_counter("cache.rewrites_refused", &flush.rewrites_refused);
  metrics_counter("fsp.select_cycles", &flush.select_cycles);
  metrics_counter("fsp.commit_cycles", &flush.commit_cycles);
  metrics_counter("fsp.selections", &flush.selections);
  metrics_gauge32("cache.dirty_pages", &ftl_core.wb.dirty_count);
  metrics_gauge32("cache.clean_pages", &ftl_core.wb.clean_count);
}

bool buffer_flush_init(const grouping_policy_t *grouping, arena_t *arena) {
  _Static_assert(FTL_MAX_UNIT_PAGES <= GROUPING_MAX_PAGES, "a choice holds a whole program");
  uint32_t slots = ftl_core.wb.slot_count;
  memset(&flush, 0, sizeof flush); /* a boot after a power loss finds what the last one left */
  flush.grouping = grouping;
  flush.updates = (slot_update_t *)arena_alloc(arena, "write_buffer_updates",
                                               slots * (uint32_t)sizeof(slot_update_t));
  flush.filler_page = (uint8_t *)arena_alloc(arena, "filler_page", ftl_core.geometry.page_bytes);
  if (flush.updates == 0 || flush.filler_page == 0) {
    return false;
  }
  for (uint32_t i = 0; i < slots; ++i) {
    flush.updates[i].task.run = run_slot_update;
    flush.updates[i].task.kind = JOB_KIND_FLUSH;
    flush.updates[i].update.waiter.resume = resume_slot_update;
  }
  flush.watermark_pages =
      (uint32_t)((uint64_t)slots * ftl_core.boot->ftl_write_buffer_flush_watermark / 100u);
  return true;
}
