#include "ftl/ftl.h"

#include <string.h>

#include "ftl/buffer_flush.h"
#include "ftl/core.h"
#include "ftl/fsp/grouping.h"
#include "ftl/gc.h"
#include "ftl/gc/gtd_group.h"
#include "ftl/gc/victim.h"
#include "ftl/host_pipeline.h"
#include "ftl/policy.h"
#include "ftl/recovery.h"
#include "ftl/registry.h"
#include "ftl/task.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/job_kind.h"
#include "hal/system.h"
#include "hal/timer.h"
#include "lib/format.h"
#include "lib/metrics.h"
#include "lib/worker.h"
#include "ml/rqrmi_engine.h"

#define HIC_RING_ENTRIES 256u
/* Placement streams: the three built-in ones and those policies add at boot (beyond one per
 * GTD-entry group with the gtd_group policies). */
#define FTL_MAX_STREAMS (BLOCK_BUILTIN_STREAMS + 5u)

ftl_core_t ftl_core;

/* What the main loop and the boot wiring keep beside the shared core. */
static struct {
  const victim_policy_t *victim_policy;
  map_env_t env;
  /* Dirty TPs wait in SRAM for a whole translation wordline; once no TP has become dirty for the
   * boot config's delay they are programmed padded, so a read-mostly phase reads its TPs from
   * flash like a real device, while a write phase, which keeps dirtying TPs, pads nothing. */
  bool tp_flush_armed;
  uint32_t tp_writebacks_seen;
  volatile bool tp_flush_due; /* set by the timer interrupt */

  hic_event_t *event_ring;
  hic_request_t *request_ring;
  rqrmi_engine_t rqrmi_engine; /* the accelerator, for schemes that look ranges up on it */
} ftl;

/* GC's flash records, through the same reserve as the host's. */
static flash_op_t *take_record(flash_done_fn done, void *owner) {
  return ftl_take_record(done, owner);
}

static bool record_available(void) { return ftl_record_available(); }

static flash_op_t *take_program_record(flash_done_fn done, void *owner) {
  return ftl_take_program_record(done, owner);
}

static bool program_record_available(void) { return ftl_program_record_available(); }

/* ---- mapping env ---- */

static void env_write_back_patches(uint32_t tp, const map_patch_t *patches, uint32_t count) {
  tp_store_write_back_patches(&ftl_core.tp_store, tp, patches, count);
}

static void env_write_back_page(uint32_t tp, const uint32_t *entries) {
  tp_store_write_back_page(&ftl_core.tp_store, tp, entries);
}

static bool env_write_back_room(void) { return tp_store_can_write_back(&ftl_core.tp_store); }

static bool env_eviction_room(void) { return tp_store_eviction_room(&ftl_core.tp_store); }

static bool env_page_valid(uint32_t vpn) { return block_page_valid(&ftl_core.blocks, vpn); }

static bool env_page_readable(uint32_t vpn) {
  return block_vpn_to_ppn(&ftl_core.blocks, vpn) != BLOCK_NONE;
}

static uint32_t env_cycles(void) { return csr_read(mcycle); }

static void env_zero_time(bool on) { csr_write(CSR_MZEROTIME, on ? 1u : 0u); }

/* On the accelerator (firmware.rqrmi_engine accel), which reloads its one model as the scheme
 * switches between models. */
static uint32_t env_rqrmi_find(const rqrmi_model_t *model, const rqrmi_range_t *ranges,
                               uint32_t generation, uint32_t key) {
  uint32_t result = RQRMI_NONE;
  if (rqrmi_engine_find(&ftl.rqrmi_engine, model, ranges, generation, key, &result) != 0) {
    fw_printf("ftl: the accelerator's weight memory cannot hold an RQRMI model of %u submodels "
              "(firmware.rqrmi_* widths)\n",
              (unsigned)rqrmi_submodel_count(model));
    system_fault();
  }
  return result;
}

static void env_fault(const char *message) {
  fw_printf("ftl: scheme %s: %s\n", ftl_core.scheme->name, message);
  system_fault();
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
  uint32_t delay_ns = ftl_core.boot->ftl_tp_flush_delay_ns;
  if (delay_ns == 0) {
    return false;
  }
  if (ftl_core.tp_store.writebacks != ftl.tp_writebacks_seen) {
    ftl.tp_writebacks_seen = ftl_core.tp_store.writebacks;
    ftl.tp_flush_due = false;
    ftl.tp_flush_armed = true;
    timer_oneshot_at(timer_now() + timer_ticks_from_ns(delay_ns), tp_flush_timer_fired, 0);
    return false;
  }
  if (ftl.tp_flush_due) {
    ftl.tp_flush_due = false;
    ftl.tp_flush_armed = false;
    tp_store_pump(&ftl_core.tp_store, true);
    return true;
  }
  if (!ftl.tp_flush_armed && ftl_core.tp_store.dirty_count != 0) {
    ftl.tp_flush_armed = true;
    timer_oneshot_at(timer_now() + timer_ticks_from_ns(delay_ns), tp_flush_timer_fired, 0);
  }
  return false;
}

/* Host events are the host's; each flash completion is charged to the job kind that issued its
 * operation (ftl/flash.c). */
static void take_events(void) {
  hic_event_t event;
  uint32_t outer = JOB_KIND_COUNT; /* none entered */
  while (hic_next_event(&event)) {
    if (outer == JOB_KIND_COUNT) {
      outer = job_kind_enter(JOB_KIND_HOST);
    }
    host_pipeline_event(&event);
  }
  if (outer != JOB_KIND_COUNT) {
    job_kind_set(outer);
  }
  if (flash_drain(&ftl_core.flash) != 0) {
    task_flash_freed();
  }
}

void ftl_run(void) {
  /* Interrupts stay disabled: the loop runs their handlers itself (irq_poll), and WFI still
   * wakes on a pending one. A trap per event would save and restore every register.
   * Job kinds (hal/job_kind.h): the loop's own checks and the interrupt handlers are
   * JOB_KIND_OTHER's; each step that finds work charges it to its kind (host intake and dispatch,
   * write-buffer flushes, the TP store, GC, the worker's results, each task its own) and comes
   * back; the sleep in WFI is JOB_KIND_IDLE's. */
  irq_disable();
  for (;;) {
    irq_poll();
    worker_poll();
    take_events();
    tp_store_start_reads(&ftl_core.tp_store);
    host_pipeline_dispatch();
    task_run_ready();
    buffer_flush_program(false);
    tp_store_pump(&ftl_core.tp_store, false);
    if (tp_store_take_progress(&ftl_core.tp_store)) {
      task_flash_freed();
    }
    host_pipeline_advance_flush();
    bool busy = flush_waiting_tps();
    gc_consider(buffer_flush_host_blocked());
    busy |= task_run_ready();
    /* Another turn only when its later steps left work for the earlier ones: a turn costs every
     * check above, and most events need just one. */
    busy |= ftl_core.tp_store.progressed || host_pipeline_can_dispatch();
    if (busy) {
      continue;
    }
    /* An event posted after the check raises the interrupt, which ends the WFI even with
     * interrupts disabled; the next turn runs its handler. */
    if (!hic_event_waiting() && !flash_completion_waiting(&ftl_core.flash) && !ftl.tp_flush_due &&
        !worker_done_waiting()) {
      cpu_wait_for_interrupt();
    }
  }
}

/* ---- boot ---- */

/* GC must free a stripe when host data waits (the host's stripe is full and opening one would
 * take from the GC reserve, ftl.gc.foreground_free stripes' worth of groups) or when fewer than
 * the reserve are free. Either way at most the reserve and one stripe per stream but the host's
 * are not full: free groups and the other streams' open stripes (GC, translation, and those
 * policies added). Once groups are retired as bad the units' pools may be uneven, and host data
 * may then wait with up to one group fewer than a stripe more free. If the groups left hold more
 * pages than can be valid (one per LPN and per TP), some collectable stripe has an invalid page.
 * Checked at boot, and by GC when host data waits and it finds no stripe to free. */
static bool spare_stripes_suffice(const char **problem) {
  static char message[400];
  const block_manager_t *b = &ftl_core.blocks;
  uint32_t reserved = block_max_open_stripes(b) - 1u + ftl_core.boot->ftl_gc_foreground_free;
  /* Collected whole, GTD-entry groups need no open stripe of their own beyond their share
   * (ftl/gc/gtd_group.h): their stripes count as full, their LPNs rounded up to stripes. */
  uint64_t kept_pages = (uint64_t)ftl_core.lpn_count + ftl_core.tp_count;
  bool whole_groups = ftl.victim_policy == &victim_policy_gtd_group;
  if (whole_groups && ftl_core.boot->ftl_gc_foreground_free <= gtd_groups.share) {
    fw_snprintf(message, sizeof message,
                "ftl.gc.foreground_free (%u stripes) must exceed the %u stripes a GTD-entry "
                "group's LPNs fill (ftl.gtd_group.tps): collecting a group writes them before it "
                "erases a stripe, and translation pages may open one meanwhile; raise it, or "
                "lower ftl.gtd_group.tps",
                (unsigned)ftl_core.boot->ftl_gc_foreground_free, (unsigned)gtd_groups.share);
    *problem = message;
    return false;
  }
  if (whole_groups) {
    reserved -= gtd_groups.count;
    kept_pages = (uint64_t)gtd_groups.count * gtd_groups.share * b->stripe_pages +
                 ftl_core.tp_count;
  }
  uint32_t reserved_groups =
      reserved * b->unit_count + (b->retired_groups != 0 ? b->unit_count - 1u : 0u);
  uint32_t groups = b->group_count - b->retired_groups;
  uint32_t group_pages = b->wordlines * b->pages_per_program;
  uint64_t full_pages =
      groups > reserved_groups ? (uint64_t)(groups - reserved_groups) * group_pages : 0;
  if (full_pages > kept_pages) {
    return true;
  }
  if (whole_groups) {
    fw_snprintf(message, sizeof message,
                "over-provisioning too small for GC: %u stripes, %u open for streams other than "
                "the host's or in reserve (ftl.gc.foreground_free), %u of %u groups retired as "
                "bad, leave %u pages for %u GTD-entry groups of %u whole stripes "
                "(ftl.gtd_group.tps) and %u TPs (raise ftl.op or nand.blocks)",
                (unsigned)b->stripe_count, (unsigned)reserved, (unsigned)b->retired_groups,
                (unsigned)b->group_count, (unsigned)full_pages, (unsigned)gtd_groups.count,
                (unsigned)gtd_groups.share, (unsigned)ftl_core.tp_count);
  } else {
    fw_snprintf(message, sizeof message,
                "over-provisioning too small for GC: %u stripes, %u open for streams other than "
                "the host's or in reserve (ftl.gc.foreground_free), %u of %u groups retired as "
                "bad, leave %u pages for %u LPNs and %u TPs (raise ftl.op or nand.blocks)",
                (unsigned)b->stripe_count, (unsigned)reserved, (unsigned)b->retired_groups,
                (unsigned)b->group_count, (unsigned)full_pages, (unsigned)ftl_core.lpn_count,
                (unsigned)ftl_core.tp_count);
  }
  *problem = message;
  return false;
}

/* Runs a policy's init and registers its listener; false (with the problem) when either fails. */
static bool start_policy(const registry_entry_t *entry, const policy_env_t *env,
                         const char **problem) {
  bool (*init)(const policy_env_t *) =
      entry->kind == REGISTRY_VICTIM ? entry->of.victim->init : entry->of.grouping->init;
  const policy_listener_t *listener = entry->kind == REGISTRY_VICTIM
                                          ? entry->of.victim->listener
                                          : entry->of.grouping->listener;
  if (init != 0 && !init(env)) {
    *problem = entry->kind == REGISTRY_VICTIM ? "the GC victim policy does not fit (ftl.gc.victim)"
                                              : "the grouping policy does not fit (ftl.fsp.policy)";
    return false;
  }
  if (listener != 0 && !policy_listen(listener)) {
    *problem = "too many policies listen to FTL events (POLICY_MAX_LISTENERS)";
    return false;
  }
  return true;
}

/* The pipeline's counters, the flush's, the scheme's, and those of the block manager, the TP
 * store and GC. */
static void register_metrics(void) {
  host_pipeline_register_metrics();
  buffer_flush_register_metrics();
  const map_counters_t *scheme = ftl_core.scheme->counters();
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
  metrics_counter("map.update_oob_reads", &task_update_oob_reads);
  block_register_metrics(&ftl_core.blocks);
  tp_store_register_metrics(&ftl_core.tp_store);
  gc_register_metrics();
  recovery_register_metrics();
}

ftl_init_result_t ftl_init(const boot_config_t *boot, const nand_geometry_t *geometry,
              const hic_geometry_t *host, arena_t *sram, arena_t *dram, const char **problem) {
  ftl_core.boot = boot;
  ftl_core.geometry = *geometry;
  ftl_core.lpn_count = host->lpn_count;
  ftl_core.entries_per_tp = geometry->page_bytes / (uint32_t)sizeof(uint32_t);
  ftl_core.tp_count =
      (ftl_core.lpn_count + ftl_core.entries_per_tp - 1u) / ftl_core.entries_per_tp;
  const registry_entry_t *scheme = registry_find(REGISTRY_SCHEME, boot->scheme);
  const registry_entry_t *grouping = registry_find(REGISTRY_GROUPING, boot->ftl_fsp_policy);
  const registry_entry_t *victim = registry_find(REGISTRY_VICTIM, boot->ftl_gc_victim);
  if (scheme == 0) {
    *problem = "the scheme has no implementation in this firmware (firmware.scheme)";
    return FTL_INIT_BAD_CONFIG;
  }
  if (grouping == 0 || victim == 0 || !block_order_valid(boot->ftl_alloc_order)) {
    *problem = "bad ftl.fsp.policy, ftl.gc.victim or ftl.alloc_order";
    return FTL_INIT_BAD_CONFIG;
  }
  ftl_core.scheme = scheme->of.scheme;
  memset(&ftl, 0, sizeof ftl); /* a boot after a power loss finds what the last one left */
  ftl.victim_policy = victim->of.victim;
  if (geometry->oob_bytes < OOB_FTL_BYTES) {
    _Static_assert(OOB_FTL_BYTES == 24u, "the message names the bytes");
    *problem = "nand.oob_size is below the 24 bytes the FTL's OOB layout needs "
               "(interface/oob_layout.h)";
    return FTL_INIT_BAD_CONFIG;
  }
  uint32_t unit_pages = geometry->bits_per_cell * (boot->ftl_multi_plane ? geometry->planes : 1u);
  if (unit_pages > FTL_MAX_UNIT_PAGES) {
    *problem = "a program would write more pages (bits per cell x planes) than the firmware "
               "handles (64)";
    return FTL_INIT_BAD_CONFIG;
  }
  uint32_t streams = FTL_MAX_STREAMS;
  if (victim->of.victim == &victim_policy_gtd_group ||
      grouping->of.grouping == &grouping_policy_gtd_group) {
    streams += gtd_group_count(boot, ftl_core.lpn_count, ftl_core.entries_per_tp);
  }
  arena_t *tables_arena = boot->ftl_block_tables_location == BOOT_MEMORY_DRAM ? dram : sram;
  if (tables_arena == 0) {
    *problem = "the block tables are placed in DRAM but there is none "
               "(ftl.block_tables.location)";
    return FTL_INIT_BAD_CONFIG;
  }
  *problem = "the FTL's structures do not fit";
  bool fits = block_init_placed(&ftl_core.blocks, geometry, boot->ftl_multi_plane != 0,
                                boot->ftl_alloc_order, streams, sram, tables_arena);
  ftl_core.unit_pages = ftl_core.blocks.pages_per_program;
  fits &= flash_init_records(&ftl_core.flash, geometry, &ftl_core.blocks, boot->ftl_flash_ops,
                             boot->ftl_flash_program_ops, sram);
  ftl_core.flash.next_sequence = 1u;
  arena_t *buffer_arena = boot->ftl_write_buffer_location == BOOT_MEMORY_DRAM ? dram : sram;
  if (buffer_arena == 0) {
    *problem = "the write buffer is placed in DRAM but there is none (ftl.write_buffer.location)";
    return FTL_INIT_BAD_CONFIG;
  }
  fits &= wb_init(&ftl_core.wb, boot->ftl_write_buffer_pages, geometry->page_bytes,
                  boot->ftl_write_buffer_clean_entries != 0, sram, buffer_arena);
  fits &= gtd_init(&ftl_core.gtd, ftl_core.tp_count, sram);
  /* Policies before the spare check: the streams they add hold stripes open. */
  policy_listeners_reset();
  policy_env_t policy_env = {.boot = boot,
                             .sram = sram,
                             .dram = dram,
                             .blocks = &ftl_core.blocks,
                             .wb = &ftl_core.wb,
                             .lpn_count = ftl_core.lpn_count,
                             .entries_per_tp = ftl_core.entries_per_tp};
  if (fits && (!start_policy(grouping, &policy_env, problem) ||
               !start_policy(victim, &policy_env, problem))) {
    return FTL_INIT_NO_MEMORY;
  }
  if (!spare_stripes_suffice(problem)) {
    return FTL_INIT_BAD_CONFIG;
  }
  uint32_t waiters = boot->ftl_page_requests + boot->ftl_write_buffer_pages + ftl_core.unit_pages;
  fits &= tp_store_init(&ftl_core.tp_store, ftl_core.scheme, &ftl_core.flash, &ftl_core.blocks,
                        &ftl_core.gtd, ftl_core.entries_per_tp, waiters,
                        (tp_store_frames_t){.load = boot->ftl_tp_load_frames,
                                            .program = boot->ftl_tp_program_frames,
                                            .reserve = boot->ftl_tp_reserve_frames},
                        sram);
  fits &= host_pipeline_init(host, sram);
  fits &= buffer_flush_init(grouping->of.grouping, sram);
  gc_env_t gc_env = {.boot = boot,
                     .scheme = ftl_core.scheme,
                     .victim_policy = ftl.victim_policy,
                     .flash = &ftl_core.flash,
                     .blocks = &ftl_core.blocks,
                     .tp_store = &ftl_core.tp_store,
                     .gtd = &ftl_core.gtd,
                     .tp_count = ftl_core.tp_count,
                     .filler_page = buffer_flush_filler_page(),
                     .take_record = take_record,
                     .record_available = record_available,
                     .take_program_record = take_program_record,
                     .program_record_available = program_record_available,
                     .host_idle = host_pipeline_idle,
                     .spare_suffices = spare_stripes_suffice};
  fits &= gc_init(&gc_env, sram);
  ftl.event_ring = (hic_event_t *)arena_alloc_aligned(
      sram, "hic_event_ring", HIC_RING_ENTRIES * (uint32_t)sizeof(hic_event_t), HIC_EVENT_BYTES);
  ftl.request_ring = (hic_request_t *)arena_alloc_aligned(
      sram, "hic_request_ring", HIC_RING_ENTRIES * (uint32_t)sizeof(hic_request_t),
      HIC_REQUEST_BYTES);
  ftl.env.boot = boot;
  ftl.env.lpn_count = ftl_core.lpn_count;
  ftl.env.entries_per_tp = ftl_core.entries_per_tp;
  ftl.env.tp_count = ftl_core.tp_count;
  ftl.env.dram = dram;
  ftl.env.write_back_patches = env_write_back_patches;
  ftl.env.write_back_page = env_write_back_page;
  ftl.env.write_back_room = env_write_back_room;
  ftl.env.eviction_room = env_eviction_room;
  ftl.env.page_valid = env_page_valid;
  ftl.env.page_readable = env_page_readable;
  ftl.env.cycles = env_cycles;
  ftl.env.fault = env_fault;
  ftl.env.submit_job = worker_submit;
  ftl.env.zero_time = env_zero_time;
  ftl.env.host_commands = host_pipeline_commands_completed;
  if (boot->rqrmi_engine == BOOT_RQRMI_ENGINE_ACCEL) {
    ftl.rqrmi_engine.kind = BOOT_RQRMI_ENGINE_ACCEL;
    ftl.env.rqrmi_find = env_rqrmi_find;
    metrics_counter("rqrmi_engine.lookups", &ftl.rqrmi_engine.lookups);
    metrics_counter("rqrmi_engine.reloads", &ftl.rqrmi_engine.reloads);
  }
  ftl.env.oob_words = geometry->oob_bytes / 4u;
  ftl.env.vpn_count = ftl_core.blocks.stripe_count * ftl_core.blocks.stripe_pages;
  ftl.env.stripe_pages = ftl_core.blocks.stripe_pages;
  if (!fits || ftl.event_ring == 0 || ftl.request_ring == 0) {
    return FTL_INIT_NO_MEMORY;
  }
  if (!ftl_core.scheme->init(&ftl.env, sram, boot->ftl_map_budget_bytes)) {
    *problem = "the mapping scheme's minimum does not fit its budget (ftl.map_budget) or SRAM";
    return FTL_INIT_NO_MEMORY;
  }

  register_metrics();
  if (!metrics_fit()) {
    *problem = "a metric was refused (lib/metrics.h)";
    return FTL_INIT_BAD_CONFIG;
  }
  if (boot->power_losses != 0 && !recovery_run(sram, dram, problem)) {
    return FTL_INIT_NO_RECOVERY;
  }

  task_init();
  hic_start(ftl.event_ring, HIC_RING_ENTRIES, ftl.request_ring, HIC_RING_ENTRIES);
  irq_enable();
  return FTL_INIT_OK;
}

