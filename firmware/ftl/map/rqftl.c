/* RQFTL (R. Marcus et al., SYSTOR 2024): an L2P cache of two parts in one budget.
 *
 * - The short-term cache (ftl/map/rqftl_stc.h, section 4.3) takes every update: translation-page
 *   lines of runs, whole TPs on read insertion, patches on write insertion, exact LRU.
 * - The long-term cache (ftl/map/rqftl_ltc.h, section 4.4) holds most mappings as ranges in F
 *   fractions, each found by an RQRMI model of its own, on the CPU or the accelerator
 *   (map_env_t rqrmi_find).
 * - Lookup (section 4.2): the long-term cache first, then the short-term one, then a TP load
 *   into the short-term cache. An update writes the short-term cache and invalidates the range
 *   holding the LPN in the long-term one (found by inference). The page an update replaces must
 *   be known (the FTL keeps page validity exact): from either cache, from the caller (GC), or
 *   else by loading the TP, as DFTL and SFTL do here; a GC move that is not cached becomes a
 *   patch line without a load.
 * - Transfers (section 4.5), one fraction at a time in round robin, one out at a time, the next
 *   as soon as the last is done while some line has not been transferred: the unmarked lines of
 *   the fraction's TPs (as many as the fraction holds) are cut into ranges of at most 255 LPNs
 *   and staged in the transfer buffer, their lines marked; the long-term cache merges them in
 *   and the model is trained as a job on the worker hart (map_env_t submit_job; inline with one
 *   hart), lookups going on with the old fraction; the swap comes from the FTL's main loop.
 * - An evicted dirty line is written back whole (a whole line: its TP is the line) or as
 *   patches the TP store merges into the TP read from flash (in pieces of half a TP's entries:
 *   the scratch is one page).
 * - Writebacks per call: lookup none; update (a write insertion) and tp_loaded (a read
 *   insertion) as many dirty lines as leave to make room, each only while env eviction_room
 *   allows, then clean lines only (LRU order); when only dirty lines could leave, update answers
 *   MAP_NO_ROOM and tp_loaded does not cache the TP (its waiters miss, wait for room and load it
 *   again). Transfers, from a call or the main loop, and flush write lines back only while
 *   write_back_room allows.
 *
 * - The partition (section 4.7): both caches live in one pool (ftl/map/rqftl_pool.h). Before
 *   each transfer, a running average of the TPs updated since the last one sets the short-term
 *   cache's line limit (at least ftl.rqftl.stc_min_lines, at most ftl.rqftl.stc_lines: the
 *   paper's 512); its lines' mean size makes that a share of cells, and the long-term cache's
 *   F fractions and spare share the rest equally. A fraction takes its new capacity when it is
 *   transferred; the short-term cache gives up lines (LRU) when the new fraction needs their
 *   room. ftl.rqftl.stc_bytes instead fixes the short-term cache's cells (a static partition).
 *
 * Budget (ftl.map_budget): the short-term cache's slots, hash and LRU links; a transfer's TP list
 * and a scratch page for write-backs; the long-term cache's slot records, F + 1 models, CLOCK
 * hands and the log of writes racing a transfer; and the pool, all the rest. A range takes 12
 * bytes and 2 bits of it, a run 8 bytes. The training workspace is the worker's scratch: SRAM
 * outside the budget, as the paper counts (section 4.8), shown in the arena as
 * rqftl_ltc_training. */
#include <string.h>

#include "ftl/map/map.h"
#include "ftl/map/rqftl_ltc.h"
#include "ftl/map/rqftl_pool.h"
#include "ftl/map/rqftl_stc.h"
#include "ftl/map/scheme_common.h"
#include "lib/bitmap.h"
#include "lib/metrics.h"
#include "lib/sort.h"
#include "ml/rqrmi_boot.h"

typedef struct rqftl_stats {
  uint32_t stc_target_lines;  /* the partition's line limit */
  uint32_t stc_target_cells;  /* the short-term cache's share of the pool */
  uint64_t ltc_hits;          /* lookups the long-term cache answered */
  uint64_t stc_hits;          /* lookups the short-term cache answered */
  uint64_t transfers;         /* transfers ended (swapped or abandoned) */
  uint64_t lines_transferred; /* lines marked by transfers */
  uint64_t training_cycles;   /* on the hart that trained (the worker, or inline) */
  uint64_t transfer_cycles;   /* on the serving hart: selection, merge, swap */
  uint64_t ltc_lookup_cycles; /* on the serving hart, long-term cache lookups and invalidations */
  uint32_t ltc_capacity;      /* ranges the last transfer's fraction holds */
  uint32_t ltc_ranges;        /* valid ranges now */
  uint32_t ltc_lpns;          /* LPNs the valid ranges map */
  uint32_t last_training_cycles;
} rqftl_stats_t;

static struct {
  map_env_t env;
  rqftl_pool_t pool;
  rqftl_stc_t stc;
  rqftl_ltc_t ltc;
  uint32_t static_stc_cells;  /* 0: the dynamic partition */
  uint32_t min_lines;
  uint32_t average_weight;
  uint32_t updated_average16; /* TPs updated between transfers, running average x 16 */
  uint32_t *transfer_tps;   /* [stc max_lines]: the TPs of the transfer out, sorted */
  uint32_t *transfer_slots; /* [stc max_lines]: their lines */
  uint32_t transfer_count;
  uint32_t next_fraction;   /* where the round robin goes on */
  bool transfer_out;
  bool pending;             /* a line may be unmarked: a transfer may have work */
  bool zero_time_training;  /* training passes no simulated time (env.zero_time) */
  uint32_t zero_time_after; /* ... once more host commands than this have completed */
  bool job_zero_time;       /* the job out trains in zero time (decided on the serving hart) */
  worker_job_t job;
  uint32_t job_cycles;      /* written by the job: its training's cycles */
  uint32_t *scratch;        /* a TP's entries, or half as many patches */
  bool in_call;             /* in update or tp_loaded, whose writebacks eviction_room allows */
  map_counters_t counters;
  rqftl_stats_t stats;
} rq;

/* ---- write-backs ---- */

static void line_evicted(void *context, uint32_t tp, const rqftl_run_t *runs, uint32_t count,
                         bool whole) {
  (void)context;
  uint32_t first = tp * rq.env.entries_per_tp;
  if (whole) {
    for (uint32_t i = 0; i < rq.env.entries_per_tp; ++i) {
      rq.scratch[i] = VPN_UNMAPPED;
    }
    for (uint32_t r = 0; r < count; ++r) {
      for (uint32_t i = 0; i < runs[r].length && runs[r].vpn != VPN_UNMAPPED; ++i) {
        rq.scratch[runs[r].offset + i] = runs[r].vpn + i;
      }
    }
    rq.env.write_back_page(tp, rq.scratch);
    return;
  }
  /* Patches, as many at a time as the scratch page holds. */
  map_patch_t *patches = (map_patch_t *)rq.scratch;
  uint32_t room = rq.env.entries_per_tp / 2u;
  uint32_t held = 0;
  for (uint32_t r = 0; r < count; ++r) {
    for (uint32_t i = 0; i < runs[r].length; ++i) {
      uint32_t vpn = runs[r].vpn == VPN_UNMAPPED ? VPN_UNMAPPED : runs[r].vpn + i;
      patches[held++] = (map_patch_t){first + runs[r].offset + i, vpn};
      if (held == room) {
        rq.env.write_back_patches(tp, patches, held);
        held = 0;
      }
    }
  }
  if (held != 0) {
    rq.env.write_back_patches(tp, patches, held);
  }
}

/* Whether a line may leave outside the scheme calls the TP store's reserve covers. */
static bool write_back_room(void) { return scheme_write_back_room(&rq.env); }

/* Whether a dirty line may leave now (the short-term cache's room): inside update and tp_loaded
 * from the call's eviction room, elsewhere (transfers from the main loop) as a flush. */
static bool line_room(void) {
  return rq.in_call ? scheme_eviction_room(&rq.env) : write_back_room();
}

/* ---- the engine ---- */

static uint32_t engine_find(void *context, const rqrmi_model_t *model, const rqrmi_range_t *ranges,
                            uint32_t generation, uint32_t key) {
  (void)context;
  return rq.env.rqrmi_find(model, ranges, generation, key);
}

static uint32_t now(void) { return rq.env.cycles ? rq.env.cycles() : 0u; }

static void ltc_gauges(void) {
  rq.stats.ltc_ranges = rq.ltc.valid_ranges;
  rq.stats.ltc_lpns = rq.ltc.valid_lpns;
  rq.counters.translatable_lpns = rq.ltc.valid_lpns + rq.stc.stats.unmarked_lpns;
  rq.counters.table_bytes =
      rq.ltc.valid_ranges * RQFTL_RANGE_BYTES + rq.stc.stats.cells * RQFTL_POOL_CELL_BYTES;
}

/* The pool slid an extent: a line's (owners below max_lines) or a slot's of the LTC. */
static void extent_moved(void *context, uint32_t owner, uint32_t index) {
  (void)context;
  if (owner < rq.stc.max_lines) {
    rqftl_stc_moved(&rq.stc, owner, index);
  } else {
    rqftl_ltc_moved(&rq.ltc, owner - rq.stc.max_lines, index);
  }
}

/* ---- the partition ---- */

/* The largest capacity whose slot takes at most `cells`. */
static uint32_t capacity_in(uint32_t cells) {
  uint32_t capacity = cells < 3u ? 0u : (uint32_t)(((uint64_t)(cells - 3u) * 32u) / 49u);
  capacity = capacity > RQRMI_MAX_RANGES ? RQRMI_MAX_RANGES : capacity;
  while (capacity != 0 && rqftl_ltc_slot_cells(capacity) > cells) {
    --capacity;
  }
  return capacity;
}

/* Section 4.7: the short-term cache's line limit from the running average of TPs updated since
 * the last transfer, its share of cells from its lines' mean size; a fraction's capacity from
 * the rest. */
static uint32_t partition(void) {
  uint32_t updated = rq.stc.stats.updated_tps;
  rqftl_stc_clear_updates(&rq.stc);
  int32_t step = ((int32_t)(updated << 4) - (int32_t)rq.updated_average16) /
                 (int32_t)rq.average_weight;
  rq.updated_average16 = (uint32_t)((int32_t)rq.updated_average16 + step);
  uint32_t floor_cells = rqftl_stc_min_cells(rq.env.entries_per_tp) + rq.env.entries_per_tp + 4u;
  uint32_t share = rq.static_stc_cells;
  if (share == 0) {
    uint32_t lines = (rq.updated_average16 + 15u) >> 4;
    lines = lines < rq.min_lines ? rq.min_lines : lines;
    lines = lines > rq.stc.max_lines ? rq.stc.max_lines : lines;
    rqftl_stc_set_line_limit(&rq.stc, lines);
    rq.stats.stc_target_lines = lines;
    /* A line's mean size now, or a whole TP of single runs while there is none. */
    uint32_t mean = rq.stc.stats.lines != 0 ? rq.stc.stats.cells / rq.stc.stats.lines
                                            : rq.env.entries_per_tp + 3u;
    uint64_t cells = (uint64_t)lines * mean;
    share = cells < floor_cells ? floor_cells : (uint32_t)cells;
  }
  share = share > rq.pool.cell_count ? rq.pool.cell_count : share;
  rq.stats.stc_target_cells = share;
  return capacity_in((rq.pool.cell_count - share) / (rq.ltc.fractions + 1u));
}

/* ---- transfers ---- */

/* Ranges a line's runs make: mapped runs cut at RQFTL_RANGE_MAX_PAGES. */
static uint32_t ranges_of_line(uint32_t slot) {
  const rqftl_run_t *runs = rqftl_stc_runs(&rq.stc, slot);
  uint32_t ranges = 0;
  for (uint32_t r = 0; r < rqftl_stc_run_count(&rq.stc, slot); ++r) {
    if (runs[r].vpn != VPN_UNMAPPED) {
      ranges += (runs[r].length + RQFTL_RANGE_MAX_PAGES - 1u) / RQFTL_RANGE_MAX_PAGES;
    }
  }
  return ranges;
}

/* The next fraction in round robin with an unmarked line, or the fraction count when none has
 * one: one pass over the lines. */
static uint32_t next_fraction_with_lines(void) {
  uint64_t waiting = 0; /* a bit per fraction (at most 64) */
  for (uint32_t slot = 0; slot < rq.stc.max_lines; ++slot) {
    uint32_t tp = rqftl_stc_tp(&rq.stc, slot);
    if (tp != SCHEME_NIL && !rqftl_stc_marked(&rq.stc, slot)) {
      waiting |= 1ull << rqftl_ltc_fraction_of_tp(&rq.ltc, tp);
    }
  }
  for (uint32_t tried = 0; tried < rq.ltc.fractions; ++tried) {
    uint32_t f = (rq.next_fraction + tried) % rq.ltc.fractions;
    if (waiting & (1ull << f)) {
      return f;
    }
  }
  return rq.ltc.fractions;
}

/* Selects fraction f's unmarked lines, as many as the fraction holds, stages their ranges and
 * begins the transfer; false when none fits. */
static bool begin_transfer(uint32_t f) {
  uint32_t lines = 0;
  uint32_t ranges = 0;
  for (uint32_t slot = 0; slot < rq.stc.max_lines; ++slot) {
    uint32_t tp = rqftl_stc_tp(&rq.stc, slot);
    if (tp == SCHEME_NIL || rqftl_stc_marked(&rq.stc, slot) ||
        rqftl_ltc_fraction_of_tp(&rq.ltc, tp) != f) {
      continue;
    }
    uint32_t more = ranges_of_line(slot);
    if (ranges + more > rqftl_ltc_spare_capacity(&rq.ltc)) {
      continue; /* a later transfer takes it */
    }
    ranges += more;
    rq.transfer_tps[lines] = tp;
    rq.transfer_slots[lines] = slot;
    ++lines;
  }
  if (lines == 0) {
    return false;
  }
  sort_pairs_u32(rq.transfer_tps, rq.transfer_slots, lines);
  rqrmi_range_t *staged = rqftl_ltc_staged_ranges(&rq.ltc, ranges);
  uint32_t *vpns = rqftl_ltc_staged_vpns(&rq.ltc, ranges);
  uint32_t out = 0;
  for (uint32_t l = 0; l < lines; ++l) {
    uint32_t slot = rq.transfer_slots[l];
    uint32_t first = rq.transfer_tps[l] * rq.env.entries_per_tp;
    const rqftl_run_t *runs = rqftl_stc_runs(&rq.stc, slot);
    for (uint32_t r = 0; r < rqftl_stc_run_count(&rq.stc, slot); ++r) {
      if (runs[r].vpn == VPN_UNMAPPED) {
        continue;
      }
      for (uint32_t done = 0; done < runs[r].length; done += RQFTL_RANGE_MAX_PAGES) {
        uint32_t left = runs[r].length - done;
        uint32_t length = left < RQFTL_RANGE_MAX_PAGES ? left : RQFTL_RANGE_MAX_PAGES;
        uint32_t lo = first + runs[r].offset + done;
        staged[out] = (rqrmi_range_t){lo, lo + length - 1u};
        vpns[out] = runs[r].vpn + done;
        ++out;
      }
    }
    rqftl_stc_mark(&rq.stc, slot);
  }
  if (rqftl_ltc_transfer_begin(&rq.ltc, f, ranges, rq.transfer_tps, lines) != RQRMI_OK) {
    rq.env.fault("rqftl: a transfer's ranges broke the long-term cache's rules");
  }
  rq.transfer_count = lines;
  rq.stats.lines_transferred += lines;
  return true;
}

static void train_job(void *argument) {
  (void)argument;
  bool zero_time = rq.job_zero_time;
  if (zero_time) {
    rq.env.zero_time(true);
  }
  uint32_t started = now();
  rqftl_ltc_transfer_train(&rq.ltc);
  rq.job_cycles = now() - started;
  if (zero_time) {
    rq.env.zero_time(false);
  }
}

/* The transfer's model is trained: swap it in (on the serving hart). */
static void end_transfer(void) {
  uint32_t started = now();
  rq.transfer_out = false;
  ++rq.stats.transfers;
  rq.stats.training_cycles += rq.job_cycles;
  rq.stats.last_training_cycles = rq.job_cycles;
  if (!rqftl_ltc_transfer_end(&rq.ltc)) {
    /* Abandoned: its lines go into a later transfer, unless they left or were written since. */
    for (uint32_t l = 0; l < rq.transfer_count; ++l) {
      uint32_t slot = rq.transfer_slots[l];
      if (rqftl_stc_tp(&rq.stc, slot) == rq.transfer_tps[l]) {
        rqftl_stc_unmark(&rq.stc, slot);
      }
    }
  }
  ltc_gauges();
  rq.stats.transfer_cycles += now() - started;
}

static void transfer_done(worker_job_t *job);

/* Starts the next transfer in round robin when none is out and some line may be unmarked. With
 * no worker (host tests) each runs to its end here. */
static void maybe_transfer(void) {
  while (!rq.transfer_out && rq.pending) {
    uint32_t started = now();
    uint32_t f = next_fraction_with_lines();
    bool begun = false;
    if (f != rq.ltc.fractions) {
      rq.next_fraction = f + 1u == rq.ltc.fractions ? 0u : f + 1u;
      /* The new fraction's room, beside the old one: the short-term cache gives up lines
       * beyond its share while the TP store has room for their writebacks (a transfer may run
       * from the main loop, outside any call the frame reserve covers), and the fraction takes
       * what there is when even that is short. */
      uint32_t capacity = partition();
      while (rqftl_pool_free_cells(&rq.pool) < rqftl_ltc_slot_cells(capacity) &&
             rq.stc.stats.cells > rq.stats.stc_target_cells && write_back_room() &&
             rqftl_stc_evict_one(&rq.stc)) {
      }
      uint32_t room = capacity_in(rqftl_pool_free_cells(&rq.pool));
      capacity = capacity < room ? capacity : room;
      rq.stats.ltc_capacity = capacity;
      if (capacity != 0 && rqftl_ltc_prepare(&rq.ltc, capacity)) {
        begun = begin_transfer(f);
        if (!begun) {
          rqftl_ltc_release_spare(&rq.ltc); /* the short-term cache may use it meanwhile */
        }
      }
    }
    rq.stats.transfer_cycles += now() - started;
    if (!begun) {
      rq.pending = false;
      return;
    }
    rq.transfer_out = true;
    rq.job_zero_time = rq.zero_time_training && rq.env.zero_time != 0 &&
                       (rq.env.host_commands == 0 || rq.env.host_commands() > rq.zero_time_after);
    rq.job.run = train_job;
    rq.job.argument = 0;
    rq.job.on_done = transfer_done;
    if (rq.env.submit_job == 0) {
      train_job(0);
      end_transfer();
    } else if (!rq.env.submit_job(&rq.job)) {
      rq.env.fault("rqftl: the worker's mailbox is full");
    } else {
      return; /* transfer_done goes on */
    }
  }
}

static void transfer_done(worker_job_t *job) {
  (void)job;
  end_transfer();
  maybe_transfer();
}

/* ---- the interface ---- */

static bool rqftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  memset(&rq, 0, sizeof rq);
  rq.env = *env;
  const boot_config_t *boot = env->boot;
  scheme_budget_t budget = {arena, budget_bytes, 0};
  uint32_t max_lines = boot->ftl_rqftl_stc_lines < env->tp_count ? boot->ftl_rqftl_stc_lines
                                                                  : env->tp_count;
  rqrmi_train_config_t train = rqrmi_boot_train_config(boot);
  uint32_t fractions = boot->ftl_rqftl_fractions;
  uint32_t race_log = boot->ftl_rqftl_race_log;
  if (!rqftl_stc_init(&rq.stc, max_lines, env->entries_per_tp, &rq.pool, &budget, line_evicted,
                      0)) {
    return false;
  }
  rq.stc.room = line_room;
  rq.transfer_tps = scheme_alloc(&budget, "map.rqftl.transfer_tps", max_lines * 4u);
  rq.transfer_slots = scheme_alloc(&budget, "map.rqftl.transfer_lines", max_lines * 4u);
  rq.scratch = scheme_alloc(&budget, "map.rqftl.scratch", env->entries_per_tp * 4u);
  if (!rq.transfer_tps || !rq.transfer_slots || !rq.scratch ||
      rqrmi_train_check_config(&train) != RQRMI_OK) {
    return false;
  }
  /* The long-term cache's records; its training workspace is the worker's, outside the budget. */
  size_t ltc_fixed = rqftl_ltc_bytes(fractions, &train, race_log) -
                     rqftl_ltc_workspace_bytes(&train);
  if (budget.used + ltc_fixed > budget.limit ||
      !rqftl_ltc_init(&rq.ltc, fractions, env->entries_per_tp, &train, race_log, &rq.pool,
                      max_lines, arena)) {
    return false;
  }
  budget.used += (uint32_t)ltc_fixed;
  /* The pool: the rest. It must hold the short-term cache's minimum and a range per slot. */
  uint32_t cells = (budget.limit - budget.used) / RQFTL_POOL_CELL_BYTES;
  rq.static_stc_cells = boot->ftl_rqftl_stc_bytes / RQFTL_POOL_CELL_BYTES;
  uint32_t stc_least = rq.static_stc_cells != 0 ? rq.static_stc_cells
                                                : rqftl_stc_min_cells(env->entries_per_tp);
  if (rq.static_stc_cells != 0 && rq.static_stc_cells < rqftl_stc_min_cells(env->entries_per_tp)) {
    return false;
  }
  if (cells < stc_least || cells - stc_least < (fractions + 1u) * rqftl_ltc_slot_cells(1)) {
    return false;
  }
  uint64_t *memory = scheme_alloc(&budget, "map.rqftl.pool", cells * RQFTL_POOL_CELL_BYTES);
  if (!memory) {
    return false;
  }
  rqftl_pool_init(&rq.pool, memory, cells, extent_moved, 0);
  if (rq.static_stc_cells != 0) {
    rqftl_stc_set_cell_limit(&rq.stc, rq.static_stc_cells);
  }
  rq.min_lines = boot->ftl_rqftl_stc_min_lines;
  rq.zero_time_training = boot->ftl_rqftl_zero_time_training != 0;
  rq.zero_time_after = boot->ftl_rqftl_zero_time_after;
  rq.average_weight = boot->ftl_rqftl_average_transfers;
  if (env->rqrmi_find) {
    rq.ltc.finder = engine_find;
  }
  rq.stats.stc_target_lines = max_lines;

  metrics_counter("rqftl.ltc_hits", &rq.stats.ltc_hits);
  metrics_counter("rqftl.stc_hits", &rq.stats.stc_hits);
  metrics_counter("rqftl.transfers", &rq.stats.transfers);
  metrics_counter("rqftl.lines_transferred", &rq.stats.lines_transferred);
  metrics_counter("rqftl.training_cycles", &rq.stats.training_cycles);
  metrics_counter("rqftl.transfer_cycles", &rq.stats.transfer_cycles);
  metrics_counter("rqftl.ltc_lookup_cycles", &rq.stats.ltc_lookup_cycles);
  metrics_counter("rqftl.transfers_abandoned", &rq.ltc.stats.abandoned);
  metrics_counter("rqftl.train_failures", &rq.ltc.stats.train_failures);
  metrics_counter("rqftl.ranges_in", &rq.ltc.stats.ranges_in);
  metrics_counter("rqftl.ranges_dropped", &rq.ltc.stats.dropped);
  metrics_counter("rqftl.ranges_evicted", &rq.ltc.stats.evicted);
  metrics_counter("rqftl.ranges_invalidated", &rq.ltc.stats.invalidations);
  metrics_counter("rqftl.ranges_raced", &rq.ltc.stats.raced);
  metrics_counter("rqftl.stc_loads", &rq.stc.stats.loads);
  metrics_counter("rqftl.stc_writes", &rq.stc.stats.writes);
  metrics_counter("rqftl.stc_evictions", &rq.stc.stats.evictions);
  metrics_counter("rqftl.stc_dirty_evictions", &rq.stc.stats.dirty_evictions);
  metrics_gauge32("rqftl.ltc_capacity", &rq.stats.ltc_capacity);
  metrics_gauge32("rqftl.ltc_ranges", &rq.stats.ltc_ranges);
  metrics_gauge32("rqftl.ltc_lpns", &rq.stats.ltc_lpns);
  metrics_gauge32("rqftl.stc_lines", &rq.stc.stats.lines);
  metrics_gauge32("rqftl.stc_cells", &rq.stc.stats.cells);
  metrics_gauge32("rqftl.stc_target_lines", &rq.stats.stc_target_lines);
  metrics_gauge32("rqftl.stc_target_cells", &rq.stats.stc_target_cells);
  metrics_gauge32("rqftl.pool_cells", &rq.pool.cell_count);
  metrics_counter("rqftl.pool_compactions", &rq.pool.compactions);
  metrics_counter("rqftl.pool_holes_taken", &rq.pool.holes_taken);
  metrics_gauge32("rqftl.stc_unmarked_lpns", &rq.stc.stats.unmarked_lpns);
  metrics_gauge32("rqftl.last_training_cycles", &rq.stats.last_training_cycles);
  return true;
}

static map_answer_t rqftl_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  (void)request;
  ++rq.counters.lookups;
  uint32_t started = now();
  bool in_ltc = rqftl_ltc_lookup(&rq.ltc, lpn, value);
  rq.stats.ltc_lookup_cycles += now() - started;
  if (in_ltc) {
    ++rq.counters.hits;
    ++rq.stats.ltc_hits;
    return MAP_HIT;
  }
  if (rqftl_stc_lookup(&rq.stc, lpn, value) != RQFTL_STC_MISS) {
    ++rq.counters.hits;
    ++rq.stats.stc_hits;
    return MAP_HIT;
  }
  ++rq.counters.misses;
  *value = lpn / rq.env.entries_per_tp;
  return MAP_MISS;
}

static map_answer_t rqftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  ++rq.counters.updates;
  uint32_t old = VPN_UNMAPPED;
  if (rqftl_stc_lookup(&rq.stc, lpn, &old) == RQFTL_STC_MISS) {
    uint32_t started = now();
    bool in_ltc = rqftl_ltc_lookup(&rq.ltc, lpn, &old);
    rq.stats.ltc_lookup_cycles += now() - started;
    if (!in_ltc) {
      if (*value == MAP_OLD_UNKNOWN) {
        ++rq.counters.update_misses;
        *value = lpn / rq.env.entries_per_tp;
        return MAP_MISS;
      }
      old = *value;
    }
  }
  rq.in_call = true;
  bool written = rqftl_stc_write(&rq.stc, lpn, vpn);
  rq.in_call = false;
  if (!written) {
    if (!scheme_eviction_room(&rq.env)) {
      return MAP_NO_ROOM; /* only dirty lines could leave */
    }
    rq.env.fault("rqftl: the short-term cache has no room for a write (ftl.rqftl.stc_bytes)");
  }
  uint32_t started = now();
  rqftl_ltc_invalidate(&rq.ltc, lpn);
  rq.stats.ltc_lookup_cycles += now() - started;
  ltc_gauges();
  *value = old;
  rq.pending = true;
  maybe_transfer();
  return MAP_HIT;
}

static void rqftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                            const map_request_t *const *requests, uint32_t wanted_count) {
  (void)wanted;
  (void)requests;
  (void)wanted_count;
  rq.in_call = true;
  bool loaded = rqftl_stc_load(&rq.stc, tp, entries);
  rq.in_call = false;
  if (!loaded && scheme_eviction_room(&rq.env)) {
    rq.env.fault("rqftl: the short-term cache cannot hold a translation page "
                 "(ftl.rqftl.stc_bytes)");
  }
  /* Not loaded for want of room: the waiters miss, wait for room and load the TP again. */
  ltc_gauges();
  rq.pending = true;
  maybe_transfer();
}

/* What the short-term cache holds of TP tp is newer than flash when its line is dirty. */
static void rqftl_overlay(uint32_t tp, uint32_t *entries) {
  uint32_t slot = rqftl_stc_line_of(&rq.stc, tp);
  if (slot == SCHEME_NIL || !(rq.stc.flags[slot] & RQFTL_STC_DIRTY)) {
    return;
  }
  bool whole = (rq.stc.flags[slot] & RQFTL_STC_WHOLE) != 0;
  if (whole) {
    for (uint32_t i = 0; i < rq.env.entries_per_tp; ++i) {
      entries[i] = VPN_UNMAPPED;
    }
  }
  const rqftl_run_t *runs = rqftl_stc_runs(&rq.stc, slot);
  for (uint32_t r = 0; r < rqftl_stc_run_count(&rq.stc, slot); ++r) {
    for (uint32_t i = 0; i < runs[r].length; ++i) {
      entries[runs[r].offset + i] = runs[r].vpn == VPN_UNMAPPED ? VPN_UNMAPPED : runs[r].vpn + i;
    }
  }
}

static bool rqftl_flush(void) { return rqftl_stc_flush(&rq.stc, write_back_room); }

static const map_counters_t *rqftl_counters(void) {
  rq.counters.evictions = rq.stc.stats.evictions;
  rq.counters.dirty_evictions = rq.stc.stats.dirty_evictions;
  return &rq.counters;
}

const map_scheme_t map_scheme_rqftl = {
    .name = "rqftl",
    .init = rqftl_init,
    .lookup = rqftl_lookup,
    .update = rqftl_update,
    .tp_loaded = rqftl_tp_loaded,
    .mispredicted = 0,
    .overlay = rqftl_overlay,
    .flush = rqftl_flush,
    .counters = rqftl_counters,
};
