#include "ftl/gc.h"

#include <string.h>

#include "ftl/task.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/job_kind.h"
#include "hal/system.h"
#include "lib/bitmap.h"
#include "lib/metrics.h"

/* Victims waiting for their erase: each has a page in the batch, or none left at all. */
#define GC_MAX_DRAINED TP_STORE_MAX_UNIT_PAGES
/* A migration frees no space, and while it runs the GC and translation streams may each open a
 * stripe: below this many free stripes, static wear levelling waits for GC to reclaim some. */
#define GC_WL_MIN_FREE_STRIPES 2u

static gc_env_t env;

/* The buckets of the copy-number histogram: 0 (unused) to 15 and more. */
#define GC_COPY_BUCKETS 16u

/* The buckets of the victims' valid-page histogram. */
#define GC_VALID_BUCKETS 33u

/* What GC did, registered by name (lib/metrics.h). */
static struct gc_counters {
  uint64_t flash_reads;      /* valid pages read (GC and wear levelling) */
  uint64_t pages_programmed; /* of those, programmed elsewhere */
  uint64_t padding;          /* filler pages completing a GC wordline */
  uint64_t blocks_erased;    /* groups (member blocks) erased */
  uint64_t invocations;      /* victim stripes collected */
  uint64_t foreground;       /* of those, while host work waited */
  uint64_t pages_moved;
  uint64_t pages_moved_from_cold; /* of those, from stripes GC had opened (2R's cold region) */
  uint64_t wl_migrations;    /* stripes moved by static wear levelling */
  uint64_t rescued;          /* retired members whose valid pages GC moved off */
  uint64_t selections;       /* victim sets the policy was asked for */
  uint64_t select_cycles;    /* core cycles the policy spent choosing them */
  uint64_t victim_valid_pages[GC_VALID_BUCKETS]; /* valid pages of each victim when chosen */
  /* The same for the victims of the normal region (opened by the host stream) and the cold
   * one (opened by GC): 2R's per-region victim utilisation. */
  uint64_t normal_victim_valid_pages[GC_VALID_BUCKETS];
  uint64_t cold_victim_valid_pages[GC_VALID_BUCKETS];
  uint64_t victims_per_set[VICTIM_MAX_SET + 1u];  /* stripes of each victim set begun */
  uint64_t ordered_sets;        /* LPN-ordered victim sets collected (victim_choice_t.tp_count) */
  uint64_t ordered_tp_reads;    /* TPs their passes read */
  uint64_t ordered_scan_cycles; /* core cycles looking through those TPs (putting pages in LPN
                                   order: the paper's sorting) */
  uint64_t ordered_set_cycles;  /* cycles from choosing such a set to erasing its last stripe */
  uint64_t ordered_swept_pages; /* pages of such sets no TP named, moved by the closing sweep */
  uint64_t page_copies[GC_COPY_BUCKETS]; /* moved pages by their copy number (1: first move) */
  uint32_t victim_valid_bucket_width;
} counters;

static uint32_t unit_pages(void) { return env.blocks->pages_per_program; }

/* The pages a batch holds: ftl.gc.batch_programs program units. */
static uint32_t batch_capacity(void) { return unit_pages() * env.boot->ftl_gc_batch_programs; }

/* One page a GC batch moves. */
typedef struct gc_move {
  task_t task;
  map_update_t update;
  uint32_t lpn;
  uint32_t copies; /* GC moves of the page's data before this one (its OOB) */
  uint32_t version; /* the sequence number of the data's first program (its OOB): the copy's */
  uint32_t old_vpn;
  uint32_t new_vpn;
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
  GC_ERASE,       /* erase the members of a drained victim */
  GC_ERASING,
  GC_TP_READ,     /* an LPN-ordered set's pass waits for a TP */
} gc_stage_t;

/* An LPN-ordered victim set (victim_choice_t.tp_count): a pass over its TPs, then a sweep of its
 * stripes in VPN order for pages no TP named. */
typedef enum gc_ordered {
  GC_ORDERED_NONE,
  GC_ORDERED_PASS,
  GC_ORDERED_SWEEP,
} gc_ordered_t;

/* tp_cursor before the TP's copy is in. */
#define GC_TP_UNREAD 0xFFFFFFFFu
/* next_ordered_page's answers beside a VPN. */
#define GC_TP_WAITING 0xFFFFFFFEu
#define GC_TP_STALLED 0xFFFFFFFDu

/* A scanned-out victim: erased at once, or, when some of its pages are in the batch not yet
 * programmed (waiting), once that batch's mapping updates are done. */
typedef struct gc_drained {
  uint32_t stripe;
  bool foreground;
  bool wear_levelling;
  bool waiting;
  bool merged; /* one of a victim set of several stripes (counted by merging) */
} gc_drained_t;

/* One GC job collects victims until the pools are above the background threshold. Pages of
 * several data victims share a wordline program: a QLC wordline padded at the end of every
 * victim (or job) would cost up to bits x planes - 1 pages of over-provisioning each time. A
 * job that ends with a partial batch parks it (GC_IDLE with batch != 0) for the next job. */
static struct {
  uint32_t stage;
  uint32_t victim; /* the victim being scanned or relocated, or BLOCK_NONE */
  bool victim_in_batch; /* a page of the victim is in the batch */
  bool foreground;
  bool wear_levelling;
  bool merged;          /* the victim is one of a set of several stripes */
  bool rescue;          /* the victim is rescue_member: moved off, never erased */
  uint32_t rescue_member;
  bool batch_rescued;   /* the batch holds pages of a rescue: program it without waiting */
  bool batch_cold;      /* the batch holds pages of a wear-levelling victim: cold data */
  uint32_t cursor; /* next page of the victim (data) or next TP (translation) */
  uint32_t batch;
  uint32_t pending;
  /* The batch's programs (ftl.gc.batch_programs of them at most; program p holds pages
   * [p * unit_pages, (p + 1) * unit_pages)): each one's VPN once submitted (BLOCK_NONE before,
   * and again after it failed), and those done. */
  uint32_t *program_vpn;
  uint32_t programs;
  uint32_t programs_done;
  gc_drained_t drained[GC_MAX_DRAINED];
  uint32_t drained_count;
  gc_drained_t erasing;    /* the victim whose members are being erased (stripe BLOCK_NONE: none) */
  uint32_t erase_position; /* its next member to erase */
  uint32_t erases_pending;
  uint8_t *slots;
  gc_move_t *moves;
  task_t task;
  bool wear_changed; /* a stripe was erased since static wear levelling last looked */
  victim_choice_t set; /* the policy's last victim set */
  uint32_t set_next;   /* its next victim to take; set.count: used up */
  /* Stripes of sets of several not yet erased (nor skipped): a multi-block merge runs. Without
   * ftl.gc.async_merge, host data waits for it to end. */
  uint32_t merging;
  uint32_t victim_stream; /* where the victim's valid pages go */
  uint32_t batch_stream;  /* where the batch goes (its pages all go to one stream) */
  uint32_t relocation_stream; /* of rescues and wear levelling: GC's, or the host's (one region) */
  /* The LPN-ordered set being collected (gc_ordered_t). */
  uint32_t ordered;
  uint32_t tp_next;      /* the TP being read or looked through */
  uint32_t tp_end;
  uint32_t tp_cursor;    /* its next entry, or GC_TP_UNREAD */
  bool tp_overlaid;      /* the scheme has written its newer mappings into the copy */
  bool tp_reading;
  uint32_t *tp_entries;  /* its copy */
  tp_waiter_t tp_waiter;
  uint32_t relocated_tp; /* the first TP the scheme has not heard of as relocated */
  uint32_t sweep_next;   /* the set's next stripe to sweep */
  uint32_t ordered_left; /* the set's stripes not yet erased */
  uint32_t ordered_started; /* mcycle when it was chosen */
  uint8_t *in_set;       /* [stripe]: one of its victims */
  uint32_t *moved_lpns;  /* mapped moves of TPs from relocated_tp on, for the scheme */
  uint32_t *moved_vpns;
  uint32_t moved_count;
  uint32_t moved_capacity;
  uint32_t entries_per_tp;
} gc;

/* Static wear levelling is due: the erase-count spread passed the threshold and the coldest
 * collectable stripe lags the most worn group by more than it. Looks only after an erase. */
static uint32_t wear_levelling_victim(void) {
  uint32_t spread = env.boot->ftl_wl_static_spread;
  if (spread == 0 || !gc.wear_changed ||
      block_free_groups(env.blocks) < GC_WL_MIN_FREE_STRIPES * env.blocks->unit_count) {
    return BLOCK_NONE;
  }
  gc.wear_changed = false;
  block_wear_t wear = block_wear(env.blocks);
  uint32_t coldest = victim_coldest(env.blocks);
  if (wear.max - wear.min > spread && coldest != BLOCK_NONE &&
      env.blocks->stripes[coldest].wear + spread < wear.max) {
    return coldest;
  }
  return BLOCK_NONE;
}

/* A victim set the policy got wrong is a firmware bug: said, and the run stops. */
static void check_set(const victim_choice_t *set) {
  bool fine = set->count != 0 && set->count <= VICTIM_MAX_SET &&
              set->stream < env.blocks->stream_count;
  for (uint32_t i = 0; fine && i < set->count; ++i) {
    fine = set->stripes[i] < env.blocks->stripe_count &&
           block_collectable(env.blocks, set->stripes[i]);
  }
  if (!fine) {
    fw_printf("ftl: victim policy %s chose a bad set (%u stripes to stream %u)\n",
              env.victim_policy->name, (unsigned)set->count, (unsigned)set->stream);
    system_fault();
  }
}

/* The next victim of the policy's set, a new set asked for when none has begun; BLOCK_NONE when
 * the policy has none or collecting its first would free nothing (block_stripe_kept_pages). A
 * set's stripes stay collectable until taken, unless wear levelling took one meanwhile
 * (skipped). */
static uint32_t policy_victim(void) {
  while (gc.set_next != 0 && gc.set_next < gc.set.count &&
         !block_collectable(env.blocks, gc.set.stripes[gc.set_next])) {
    ++gc.set_next;
    gc.merging -= gc.set.count > 1u;
  }
  if (gc.set_next == 0 || gc.set_next == gc.set.count) {
    gc.set_next = 0;
    gc.set.count = 0;
    gc.set.stream = gc.relocation_stream;
    gc.set.first_tp = 0;
    gc.set.tp_count = 0;
    uint32_t started = csr_read(mcycle);
    bool chosen = env.victim_policy->select(env.blocks, &gc.set);
    counters.select_cycles += csr_read(mcycle) - started;
    ++counters.selections;
    if (!chosen) {
      gc.set.count = 0;
      return BLOCK_NONE;
    }
    if (gc.set.tp_count != 0 && gc.in_set == 0) {
      fw_printf("ftl: victim policy %s asked for LPN order without orders_by_lpn\n",
                env.victim_policy->name);
      system_fault();
    }
    check_set(&gc.set);
    uint32_t first = gc.set.stripes[0];
    if (block_stripe_kept_pages(env.blocks, first) >= env.blocks->stripe_pages) {
      gc.set.count = 0;
      return BLOCK_NONE;
    }
  }
  return gc.set.stripes[gc.set_next];
}

/* Fewer than `threshold` stripes' worth of groups are free (the thresholds count free groups
 * per unit, and a stripe takes one group of every unit). */
static bool pools_low(uint32_t threshold) {
  return block_free_groups(env.blocks) < threshold * env.blocks->unit_count;
}

/* The victim from now on: stripe, or only its member rescue_member (BLOCK_NONE: the stripe). */
static void take_victim(uint32_t stripe, bool wear_levelling, uint32_t rescue_member) {
  gc.victim = stripe;
  gc.rescue_member = rescue_member;
  gc.rescue = rescue_member != BLOCK_NONE;
  gc.victim_in_batch = false;
  gc.wear_levelling = wear_levelling;
  gc.merged = false;
  gc.cursor = 0;
}

/* A set of several stripes is merged whole, whatever the pools say. */
static bool set_goes_on(void) { return gc.set_next != 0 && gc.set_next < gc.set.count; }

static void start_ordered_set(void);

static void begin_victim(uint32_t victim, bool wear_levelling) {
  uint32_t valid = env.blocks->stripes[victim].valid_pages;
  uint32_t width = counters.victim_valid_bucket_width;
  metrics_histogram_add(counters.victim_valid_pages, GC_VALID_BUCKETS, width, valid);
  uint32_t region = env.blocks->stripes[victim].stream;
  if (region == BLOCK_STREAM_HOST) {
    metrics_histogram_add(counters.normal_victim_valid_pages, GC_VALID_BUCKETS, width, valid);
  } else if (region == BLOCK_STREAM_GC) {
    metrics_histogram_add(counters.cold_victim_valid_pages, GC_VALID_BUCKETS, width, valid);
  }
  block_mark_victim(env.blocks, victim);
  take_victim(victim, wear_levelling, BLOCK_NONE);
  bool from_set = !wear_levelling && gc.set_next < gc.set.count &&
                  gc.set.stripes[gc.set_next] == victim;
  gc.merged = from_set && gc.set.count > 1u;
  if (from_set) {
    ++gc.set_next;
    if (gc.set_next == 1) {
      metrics_histogram_add(counters.victims_per_set, VICTIM_MAX_SET + 1u, 1, gc.set.count);
      gc.merging += gc.merged ? gc.set.count : 0u;
    }
  }
  gc.victim_stream = from_set ? gc.set.stream : gc.relocation_stream;
  if (from_set && gc.set_next == 1u && gc.set.tp_count != 0) {
    start_ordered_set();
  }
}

/* Every stripe of the LPN-ordered set just chosen is a victim from now on; the pass over its TPs
 * begins. */
static void start_ordered_set(void) {
  for (uint32_t i = 0; i < gc.set.count; ++i) {
    gc.in_set[gc.set.stripes[i]] = 1;
  }
  while (gc.set_next < gc.set.count) {
    begin_victim(gc.set.stripes[gc.set_next], false);
  }
  gc.victim = BLOCK_NONE;
  gc.ordered = GC_ORDERED_PASS;
  gc.tp_next = gc.set.first_tp < env.tp_count ? gc.set.first_tp : env.tp_count;
  uint32_t left = env.tp_count - gc.tp_next;
  gc.tp_end = gc.tp_next + (gc.set.tp_count < left ? gc.set.tp_count : left);
  gc.tp_cursor = GC_TP_UNREAD;
  gc.relocated_tp = gc.tp_next;
  gc.moved_count = 0;
  gc.sweep_next = 0;
  gc.ordered_left = gc.set.count;
  gc.ordered_started = csr_read(mcycle);
  ++counters.ordered_sets;
}

static void ordered_tp_read(tp_waiter_t *waiter) {
  (void)waiter;
  gc.tp_reading = false;
  gc.tp_cursor = 0;
  gc.tp_overlaid = false;
  if (gc.stage == GC_TP_READ) {
    gc.stage = GC_SCAN;
    task_schedule(&gc.task);
  }
}

/* The next page of the pass: the next entry of its TPs, in LPN order, that places a valid page
 * in the set. BLOCK_NONE when the pass is over; GC_TP_WAITING while a TP is read, GC_TP_STALLED
 * when its read cannot start now. */
static uint32_t next_ordered_page(void) {
  while (gc.tp_next != gc.tp_end) {
    if (gc.tp_reading) {
      return GC_TP_WAITING;
    }
    if (gc.tp_cursor == GC_TP_UNREAD) {
      gc.tp_waiter.copy = gc.tp_entries;
      gc.tp_waiter.lpn = gc.tp_next * gc.entries_per_tp;
      tp_load_result_t result = tp_store_load(env.tp_store, gc.tp_next, &gc.tp_waiter);
      if (result == TP_LOAD_STALLED) {
        return GC_TP_STALLED;
      }
      ++counters.ordered_tp_reads;
      if (result == TP_LOAD_WAITING) {
        gc.tp_reading = true;
        return GC_TP_WAITING;
      }
      gc.tp_cursor = 0;
      gc.tp_overlaid = false;
    }
    uint32_t started = csr_read(mcycle);
    if (!gc.tp_overlaid) {
      if (env.scheme->overlay != 0) {
        env.scheme->overlay(gc.tp_next, gc.tp_entries);
      }
      gc.tp_overlaid = true;
    }
    /* The cursor stays on the page returned: gc_scan passes it once the page's read is out
     * (without a record, or with the batch bound elsewhere, it is asked for again). */
    while (gc.tp_cursor < gc.entries_per_tp) {
      uint32_t vpn = gc.tp_entries[gc.tp_cursor];
      if (vpn != VPN_UNMAPPED && gc.in_set[block_stripe_of(env.blocks, vpn)] &&
          block_page_valid(env.blocks, vpn)) {
        counters.ordered_scan_cycles += csr_read(mcycle) - started;
        return vpn;
      }
      ++gc.tp_cursor;
    }
    counters.ordered_scan_cycles += csr_read(mcycle) - started;
    gc.tp_cursor = GC_TP_UNREAD;
    ++gc.tp_next;
  }
  return BLOCK_NONE;
}

/* The pass is over: its stripes are swept in VPN order for what no TP named. */
static bool next_swept_victim(void) {
  if (gc.ordered != GC_ORDERED_SWEEP || gc.sweep_next == gc.set.count) {
    return false;
  }
  take_victim(gc.set.stripes[gc.sweep_next++], false, BLOCK_NONE);
  gc.merged = gc.set.count > 1u;
  gc.victim_stream = gc.set.stream;
  return true;
}

/* A move of the set was mapped: the scheme hears of it with its TP, unless that TP's relocation
 * was told already (a page the sweep found). */
static void record_ordered_move(uint32_t lpn, uint32_t vpn) {
  uint32_t tp = lpn / gc.entries_per_tp;
  if (gc.ordered == GC_ORDERED_NONE || tp < gc.relocated_tp || tp >= gc.tp_end ||
      gc.moved_count == gc.moved_capacity) {
    return;
  }
  gc.moved_lpns[gc.moved_count] = lpn;
  gc.moved_vpns[gc.moved_count] = vpn;
  ++gc.moved_count;
}

/* With no page in flight: the scheme hears of every TP the pass has finished (all of them once
 * it is over), each with its mapped moves in LPN order; those of the TP being looked through
 * stay. */
static void tell_relocated(void) {
  uint32_t finished = gc.ordered == GC_ORDERED_PASS ? gc.tp_next : gc.tp_end;
  if (gc.ordered == GC_ORDERED_NONE || gc.relocated_tp == finished) {
    return;
  }
  /* In LPN order (they come nearly so: the batch's order, updates finishing in turn). */
  for (uint32_t i = 1; i < gc.moved_count; ++i) {
    uint32_t lpn = gc.moved_lpns[i];
    uint32_t vpn = gc.moved_vpns[i];
    uint32_t at = i;
    for (; at > 0 && gc.moved_lpns[at - 1u] > lpn; --at) {
      gc.moved_lpns[at] = gc.moved_lpns[at - 1u];
      gc.moved_vpns[at] = gc.moved_vpns[at - 1u];
    }
    gc.moved_lpns[at] = lpn;
    gc.moved_vpns[at] = vpn;
  }
  uint32_t first = 0;
  for (; gc.relocated_tp < finished; ++gc.relocated_tp) {
    uint32_t end = first;
    while (end < gc.moved_count && gc.moved_lpns[end] / gc.entries_per_tp == gc.relocated_tp) {
      ++end;
    }
    if (env.scheme->relocated != 0) {
      env.scheme->relocated(gc.relocated_tp, &gc.moved_lpns[first], &gc.moved_vpns[first],
                            end - first);
    }
    first = end;
  }
  gc.moved_count -= first;
  memmove(gc.moved_lpns, &gc.moved_lpns[first], gc.moved_count * sizeof(uint32_t));
  memmove(gc.moved_vpns, &gc.moved_vpns[first], gc.moved_count * sizeof(uint32_t));
}

/* With the batch empty: the scheme hears of the TPs finished, and a swept set is done with. */
static void settle_ordered(void) {
  tell_relocated();
  if (gc.ordered == GC_ORDERED_SWEEP && gc.sweep_next == gc.set.count &&
      gc.victim == BLOCK_NONE && gc.relocated_tp == gc.tp_end) {
    gc.ordered = GC_ORDERED_NONE;
  }
}

/* A retired member's data is the victim: its stripe goes on (it may still be open). */
static void begin_rescue(uint32_t member) {
  take_victim(member / env.blocks->unit_count, false, member);
  gc.victim_stream = gc.relocation_stream;
}

/* The victim's pages: its stripe's, or, for a rescue, its member's. */
static bool victim_holds(uint32_t vpn) {
  return block_stripe_of(env.blocks, vpn) == gc.victim &&
         (!gc.rescue || block_member_of(env.blocks, vpn) == gc.rescue_member);
}

static uint32_t victim_valid_pages(void) {
  return gc.rescue ? env.blocks->members[gc.rescue_member].valid_pages
                   : env.blocks->stripes[gc.victim].valid_pages;
}

/* The next valid page of the victim from gc.cursor (which it moves there), or BLOCK_NONE. */
static uint32_t next_victim_page(void) {
  if (gc.rescue) {
    uint32_t pages = env.blocks->wordlines * env.blocks->pages_per_program;
    for (; gc.cursor < pages; ++gc.cursor) {
      uint32_t vpn = block_member_page_vpn(env.blocks, gc.rescue_member, gc.cursor);
      if (block_page_valid(env.blocks, vpn)) {
        return vpn;
      }
    }
    return BLOCK_NONE;
  }
  /* Straight to the next valid page: a stripe spans every unit. */
  uint32_t first = gc.victim * env.blocks->stripe_pages;
  uint32_t vpn = bitmap_next_set(env.blocks->valid_bitmap, first + env.blocks->stripe_pages,
                                 first + gc.cursor);
  if (vpn == BITMAP_NONE) {
    return BLOCK_NONE;
  }
  gc.cursor = vpn - first;
  return vpn;
}

/* Host data waits and no stripe has a page to free. Programs and TP writes still settling may
 * give one; once the groups retired as bad leave too few for the data, none will: said, and the
 * run stops rather than sleep for ever. */
static void check_room_left(void) {
  const char *problem = 0;
  if (!env.spare_suffices(&problem)) {
    fw_printf("ftl: out of space: host data waits and GC finds no stripe to free: %s\n", problem);
    system_fault();
  }
}

/* Starts a GC job when one is due: the rescue of a retired member's data first (it sits on a
 * failing block), then static wear levelling, then foreground GC (host data waits, or a pool
 * is below the foreground threshold), then background GC while the host is idle. Out of line:
 * gc_consider's check, made on every turn of the main loop, stays free of the register saves
 * this needs. */
static bool policy_due(void) {
  return env.victim_policy->due != 0 && env.victim_policy->due(env.blocks);
}

static __attribute__((noinline)) void start_job(bool host_blocked, bool below_background) {
  bool foreground = host_blocked || pools_low(env.boot->ftl_gc_foreground_free);
  gc.foreground = foreground;
  uint32_t rescued = block_take_rescue(env.blocks, false);
  if (rescued != BLOCK_NONE) {
    begin_rescue(rescued);
  } else {
    uint32_t victim = wear_levelling_victim();
    bool wear_levelling = victim != BLOCK_NONE;
    if (victim == BLOCK_NONE &&
        (foreground || (below_background && env.host_idle()) || policy_due())) {
      victim = policy_victim();
    }
    if (victim == BLOCK_NONE) {
      if (foreground && gc.batch != 0) {
        gc.stage = GC_PROGRAM; /* the parked batch's victims are all that is left to free */
        task_schedule(&gc.task);
      } else if (host_blocked) {
        check_room_left();
      }
      return;
    }
    begin_victim(victim, wear_levelling);
  }
  uint32_t victim = gc.victim;
  gc.stage = victim != BLOCK_NONE && env.blocks->stripes[victim].stream == BLOCK_STREAM_TRANSLATION
                 ? GC_RELOCATE
                 : GC_SCAN;
  task_schedule(&gc.task);
}

void gc_consider(bool host_blocked) {
  if (gc.stage != GC_IDLE) {
    return;
  }
  bool wear_due = gc.wear_changed && env.boot->ftl_wl_static_spread != 0;
  bool below_background = pools_low(env.boot->ftl_gc_background_free);
  if (wear_due || host_blocked || below_background || env.blocks->rescues_due != 0 ||
      policy_due()) {
    uint32_t outer = job_kind_enter(JOB_KIND_GC);
    start_job(host_blocked, below_background);
    job_kind_set(outer);
  }
}

/* Every valid page of the rescued member is in a batch (or was relocated): it stays retired. */
static void finish_rescue(void) {
  ++counters.rescued;
  gc.batch_rescued |= gc.victim_in_batch;
  gc.victim = BLOCK_NONE;
  gc.rescue = false;
}

/* The scanned-out victim waits for its erase; a rescued member needs none. */
static void drain_victim(void) {
  if (gc.rescue) {
    finish_rescue();
    return;
  }
  gc_drained_t *drained = &gc.drained[gc.drained_count++];
  drained->stripe = gc.victim;
  drained->foreground = gc.foreground;
  drained->wear_levelling = gc.wear_levelling;
  drained->waiting = gc.victim_in_batch;
  drained->merged = gc.merged;
  gc.victim = BLOCK_NONE;
}

/* The last drained victim that can be erased now, or GC_MAX_DRAINED. */
static uint32_t erasable_victim(void) {
  for (uint32_t i = gc.drained_count; i-- > 0;) {
    if (!gc.drained[i].waiting) {
      return i;
    }
  }
  return GC_MAX_DRAINED;
}

/* Fills the rest of a partial batch from another data victim: a retired member's data first,
 * then while the pools still want GC. False when the batch should be programmed (padded) as it
 * is. */
static bool take_next_victim(void) {
  if (gc.drained_count == GC_MAX_DRAINED) {
    return false;
  }
  if (next_swept_victim()) {
    return true;
  }
  if (gc.batch == 0) {
    settle_ordered();
  }
  if (gc.ordered != GC_ORDERED_NONE) {
    return false; /* the scheme has not heard of every TP of the ordered set yet */
  }
  if (env.victim_policy->orders_by_lpn && gc.drained_count != 0) {
    return false; /* a whole group's stripes are erased before the next group takes fresh ones */
  }
  uint32_t rescued = block_take_rescue(env.blocks, true);
  if (rescued != BLOCK_NONE) {
    begin_rescue(rescued);
    return true;
  }
  uint32_t victim = wear_levelling_victim();
  bool wear_levelling = victim != BLOCK_NONE;
  if (!wear_levelling) {
    if (!set_goes_on() && !pools_low(env.boot->ftl_gc_background_free)) {
      return false;
    }
    victim = policy_victim();
  }
  if (victim == BLOCK_NONE) {
    return false;
  }
  if (env.blocks->stripes[victim].stream == BLOCK_STREAM_TRANSLATION) {
    gc.wear_changed |= wear_levelling; /* the next job takes it */
    return false;
  }
  begin_victim(victim, wear_levelling);
  return true;
}

static void gc_read_done(flash_op_t *op, uint32_t status) {
  gc_move_t *move = &gc.moves[op->user];
  if (status != NFC_STATUS_OK) {
    fw_printf("ftl: GC read of VPN %#x failed with NFC status %u\n", (unsigned)op->vpn,
              (unsigned)status);
    system_fault();
  }
  move->lpn = flash_oob(env.flash, op, 0)[OOB_WORD_OWNER];
  move->copies = flash_oob(env.flash, op, 0)[OOB_WORD_COPIES];
  move->version = flash_oob(env.flash, op, 0)[OOB_WORD_VERSION];
  if (--gc.pending == 0) {
    gc.stage = GC_SCAN;
    task_schedule(&gc.task);
  }
}

/* Reads valid pages into the batch until it is full or no victim is left to take; then the
 * batch is programmed, or, when it is empty, the drained victims are erased. */
static void gc_scan(void) {
  bool out_of_records = false;
  bool stream_changes = false; /* the victim's pages go elsewhere than the batch's */
  bool tp_waiting = false;     /* the ordered pass waits for a TP */
  if (gc.batch == 0) {
    settle_ordered();
  }
  while (gc.batch < batch_capacity()) {
    uint32_t vpn;
    if (gc.ordered == GC_ORDERED_PASS) {
      vpn = next_ordered_page();
      if (vpn == GC_TP_WAITING || vpn == GC_TP_STALLED) {
        tp_waiting = vpn == GC_TP_WAITING;
        out_of_records = vpn == GC_TP_STALLED;
        break;
      }
      if (vpn == BLOCK_NONE) {
        gc.ordered = GC_ORDERED_SWEEP;
        continue;
      }
    } else {
      if (gc.victim == BLOCK_NONE) {
        if (!take_next_victim()) {
          break;
        }
        continue;
      }
      vpn = next_victim_page();
      if (vpn == BLOCK_NONE) {
        drain_victim();
        continue;
      }
      counters.ordered_swept_pages += gc.ordered == GC_ORDERED_SWEEP;
    }
    if (gc.batch == 0) {
      gc.batch_stream = gc.victim_stream;
    } else if (gc.batch_stream != gc.victim_stream) {
      stream_changes = true;
      break;
    }
    if (!env.record_available()) {
      out_of_records = true;
      break;
    }
    flash_op_t *op = env.take_record(gc_read_done, 0);
    gc_move_t *move = &gc.moves[gc.batch];
    move->old_vpn = vpn;
    op->user = gc.batch;
    flash_io_user(env.flash, op, 0, gc.slots + gc.batch * env.blocks->geometry.page_bytes, true);
    ++gc.batch;
    ++gc.cursor;
    gc.tp_cursor += gc.ordered == GC_ORDERED_PASS;
    ++gc.pending;
    gc.victim_in_batch = true;
    gc.batch_cold |= gc.wear_levelling;
    ++counters.flash_reads;
    flash_read(env.flash, op, vpn, 1);
  }
  if (gc.pending != 0) {
    gc.stage = GC_READING; /* the last read's completion scans on */
  } else if (tp_waiting) {
    gc.stage = GC_TP_READ; /* the TP's arrival scans on */
  } else if (out_of_records) {
    task_wait(TASK_WAIT_FLASH, &gc.task);
  } else if (erasable_victim() != GC_MAX_DRAINED) {
    gc.stage = GC_ERASE;
    task_schedule(&gc.task);
  } else if (gc.batch == batch_capacity() || stream_changes ||
             (gc.batch != 0 && gc.victim == BLOCK_NONE &&
              (gc.batch_rescued || gc.merging != 0 || gc.ordered != GC_ORDERED_NONE ||
               pools_low(env.boot->ftl_gc_background_free)))) {
    /* Full, or no victim can top it up although the pools still want GC (or rescued data waits
     * in it): program it padded. */
    gc.stage = GC_PROGRAM;
    task_schedule(&gc.task);
  } else {
    gc.stage = GC_IDLE; /* done; a partial batch stays parked for the next job */
  }
}

/* The batch's pages [first, end) of program `program`. */
static uint32_t program_first(uint32_t program) { return program * unit_pages(); }
static uint32_t program_end(uint32_t program) {
  uint32_t end = program_first(program) + unit_pages();
  return end < gc.batch ? end : gc.batch;
}

static void gc_program_done(flash_op_t *op, uint32_t status) {
  uint32_t program = op->user;
  if (status != NFC_STATUS_OK) {
    block_program_failed(env.blocks, op->vpn);
    gc.program_vpn[program] = BLOCK_NONE; /* programmed again elsewhere */
    if (gc.stage == GC_PROGRAMMING) {
      gc.stage = GC_PROGRAM;
      task_schedule(&gc.task);
    }
    return;
  }
  uint32_t first = program_first(program);
  uint32_t count = program_end(program) - first;
  for (uint32_t i = count; i < unit_pages(); ++i) {
    block_page_settled(env.blocks, op->vpn + i);
  }
  if (env.scheme->programmed != 0) {
    uint32_t lpns[TP_STORE_MAX_UNIT_PAGES];
    for (uint32_t i = 0; i < unit_pages(); ++i) {
      lpns[i] = i < count ? gc.moves[first + i].lpn : OOB_FILLER;
    }
    env.scheme->programmed(lpns, op->vpn, unit_pages());
  }
  if (policy_heard(POLICY_PAGES_PROGRAMMED)) {
    policy_event_t event = {.kind = POLICY_PAGES_PROGRAMMED,
                            .vpn = op->vpn,
                            .count = unit_pages(),
                            .stream = gc.batch_stream,
                            .stripe = block_stripe_of(env.blocks, op->vpn)};
    policy_emit(&event);
  }
  for (uint32_t i = 0; i < count; ++i) {
    gc.moves[first + i].new_vpn = op->vpn + i;
  }
  if (++gc.programs_done < gc.programs) {
    return;
  }
  /* Every program is done: the moves are mapped, the batch's in turn. */
  gc.stage = GC_UPDATING;
  gc.pending = gc.batch;
  for (uint32_t i = 0; i < gc.batch; ++i) {
    /* GC knows the page its copy replaces: no scheme has to find it. */
    task_map_update_start(&gc.moves[i].update, &gc.moves[i].task, gc.moves[i].lpn,
                          gc.moves[i].old_vpn);
    task_schedule(&gc.moves[i].task);
  }
}

static void gc_move_finished(void) {
  if (--gc.pending == 0) {
    gc.batch = 0;
    gc.programs = 0;
    gc.programs_done = 0;
    gc.victim_in_batch = false;
    gc.batch_rescued = false;
    gc.batch_cold = false;
    for (uint32_t i = 0; i < gc.drained_count; ++i) {
      gc.drained[i].waiting = false;
    }
    gc.stage = GC_SCAN;
    task_schedule(&gc.task);
  }
}

/* The moved page replaces the victim's copy, unless the host rewrote or trimmed the LPN since
 * (the victim's page is then invalid, and so stays the new copy). */
static void run_gc_move(task_t *task) {
  gc_move_t *move = LIST_ENTRY(task, gc_move_t, task);
  if (!block_page_valid(env.blocks, move->old_vpn)) {
    block_page_settled(env.blocks, move->new_vpn);
    gc_move_finished();
    return;
  }
  if (task_map_update(env.scheme, env.tp_store, env.blocks, move->new_vpn, &move->update)) {
    block_page_validate(env.blocks, move->new_vpn);
    block_page_settled(env.blocks, move->new_vpn);
    record_ordered_move(move->lpn, move->new_vpn);
    ++counters.pages_moved;
    counters.pages_moved_from_cold +=
        env.blocks->stripes[block_stripe_of(env.blocks, move->old_vpn)].stream == BLOCK_STREAM_GC;
    metrics_histogram_add(counters.page_copies, GC_COPY_BUCKETS, 1, move->copies + 1u);
    gc_move_finished();
  }
}

static void resume_gc_move(tp_waiter_t *waiter) {
  gc_move_t *move = LIST_ENTRY(waiter, gc_move_t, update.waiter);
  uint32_t outer = job_kind_enter(JOB_KIND_GC);
  run_gc_move(&move->task);
  job_kind_set(outer);
}

/* Every member of the victim is erased (or retired): the stripe is free. */
static void finish_erase(void) {
  block_stripe_erased(env.blocks, gc.erasing.stripe);
  if (gc.in_set != 0 && gc.in_set[gc.erasing.stripe]) {
    gc.in_set[gc.erasing.stripe] = 0;
    if (--gc.ordered_left == 0) {
      counters.ordered_set_cycles += csr_read(mcycle) - gc.ordered_started;
    }
  }
  ++counters.invocations;
  counters.foreground += gc.erasing.foreground;
  counters.wl_migrations += gc.erasing.wear_levelling;
  gc.merging -= gc.erasing.merged;
  gc.erasing.stripe = BLOCK_NONE;
  gc.wear_changed = true;
  /* More to erase, the victim still being scanned, or another while pools are low. */
  gc.stage = GC_SCAN;
  task_schedule(&gc.task);
}

static void gc_erase_done(flash_op_t *op, uint32_t status) {
  bool ok = status == NFC_STATUS_OK;
  block_member_erased(env.blocks, gc.erasing.stripe, op->user, ok);
  counters.blocks_erased += ok;
  if (--gc.erases_pending == 0 && gc.stage == GC_ERASING) {
    finish_erase();
  }
}

/* Submits the batch's programs not yet submitted (all of them, on the first call), as records
 * allow; GC_PROGRAMMING once every one is out. */
static void gc_program(void) {
  if (gc.programs == 0) {
    gc.programs = (gc.batch + unit_pages() - 1u) / unit_pages();
    for (uint32_t program = 0; program < gc.programs; ++program) {
      gc.program_vpn[program] = BLOCK_NONE;
    }
  }
  gc.stage = GC_PROGRAM;
  for (uint32_t program = 0; program < gc.programs; ++program) {
    if (gc.program_vpn[program] != BLOCK_NONE) {
      continue;
    }
    if (!env.program_record_available()) {
      task_wait(TASK_WAIT_FLASH, &gc.task);
      return;
    }
    env.blocks->gc_opens_most_worn = gc.batch_cold;
    /* Into the stream's reserve if need be: GC frees what the host waits for. */
    uint32_t vpn = block_alloc_wordline(env.blocks, gc.batch_stream, 0);
    if (vpn == BLOCK_NONE) {
      fw_printf("ftl: no free stripe left for GC (%u free groups; %u groups retired as bad)\n",
                (unsigned)block_free_groups(env.blocks), (unsigned)env.blocks->retired_groups);
      system_fault();
    }
    gc.program_vpn[program] = vpn;
    flash_op_t *op = env.take_program_record(gc_program_done, 0);
    op->user = program;
    uint32_t first = program_first(program);
    uint32_t count = program_end(program) - first;
    for (uint32_t i = 0; i < count; ++i) {
      const gc_move_t *move = &gc.moves[first + i];
      flash_io_user(env.flash, op, i, gc.slots + (first + i) * env.blocks->geometry.page_bytes,
                    true);
      flash_oob(env.flash, op, i)[OOB_WORD_OWNER] = move->lpn;
      flash_oob(env.flash, op, i)[OOB_WORD_COPIES] = move->copies + 1u;
      flash_oob(env.flash, op, i)[OOB_WORD_VERSION] = move->version;
    }
    counters.padding += flash_io_pad(env.flash, op, count, unit_pages(), env.filler_page, false);
    counters.pages_programmed += count;
    if (env.scheme->program_oob != 0) {
      env.scheme->program_oob(vpn, unit_pages(), op->oob, env.flash->oob_words);
    }
    flash_program(env.flash, op, vpn, env.blocks->unit_planes);
  }
  gc.stage = GC_PROGRAMMING;
}

/* Erases the members of a drained victim none of whose pages waits in the batch: every page it
 * had is moved and its mapping updated. The erases go out together, as records allow. */
static void gc_erase(void) {
  if (gc.erasing.stripe == BLOCK_NONE) {
    uint32_t index = erasable_victim();
    gc.erasing = gc.drained[index];
    gc.drained[index] = gc.drained[--gc.drained_count];
    gc.erase_position = 0;
    gc.erases_pending = 0;
    uint32_t valid = env.blocks->stripes[gc.erasing.stripe].valid_pages;
    if (valid != 0) {
      fw_printf("ftl: GC victim stripe %u still has %u valid pages at its erase\n",
                (unsigned)gc.erasing.stripe, (unsigned)valid);
      system_fault();
    }
  }
  for (; gc.erase_position < env.blocks->unit_count; ++gc.erase_position) {
    uint32_t vpn = block_member_vpn(env.blocks, gc.erasing.stripe, gc.erase_position);
    if (vpn == BLOCK_NONE) {
      continue;
    }
    if (!env.record_available()) {
      gc.stage = GC_ERASE;
      task_wait(TASK_WAIT_FLASH, &gc.task);
      return;
    }
    flash_op_t *op = env.take_record(gc_erase_done, 0);
    op->user = gc.erase_position;
    ++gc.erases_pending;
    flash_erase(env.flash, op, vpn, env.blocks->unit_planes);
  }
  gc.stage = GC_ERASING;
  if (gc.erases_pending == 0) {
    finish_erase(); /* every member was retired */
  }
}

static void run_gc(task_t *task) {
  switch (gc.stage) {
  case GC_SCAN:
    gc_scan();
    break;
  case GC_PROGRAM:
    gc_program();
    break;
  case GC_RELOCATE:
    while (gc.cursor < env.tp_count) {
      uint32_t vpn = gtd_get(env.gtd, gc.cursor);
      if (vpn != VPN_UNMAPPED && victim_holds(vpn) &&
          !tp_store_relocate(env.tp_store, gc.cursor, vpn)) {
        task_wait(TASK_WAIT_FLASH, task);
        return;
      }
      ++gc.cursor;
    }
    gc.stage = GC_TP_WAIT;
    run_gc(task);
    break;
  case GC_TP_WAIT:
    if (victim_valid_pages() != 0) {
      /* One padded program at a time: this runs again whenever anything comes free. */
      if (env.tp_store->programs_in_flight == 0) {
        tp_store_pump(env.tp_store, true);
      }
      task_wait(TASK_WAIT_FLASH, task);
      return;
    }
    if (gc.rescue) {
      finish_rescue();
      gc.stage = GC_SCAN; /* ends the job, or fills a parked batch */
      gc_scan();
      break;
    }
    drain_victim();
    gc.stage = GC_ERASE;
    gc_erase();
    break;
  case GC_ERASE:
    gc_erase();
    break;
  default:
    break;
  }
}

void gc_register_metrics(void) {
  metrics_counter("flash_reads.gc", &counters.flash_reads);
  metrics_counter("pages_programmed.gc", &counters.pages_programmed);
  metrics_counter("pages_programmed.padding.gc", &counters.padding);
  metrics_counter("blocks_erased", &counters.blocks_erased);
  metrics_counter("gc.invocations", &counters.invocations);
  metrics_counter("gc.foreground", &counters.foreground);
  metrics_counter("gc.pages_moved", &counters.pages_moved);
  metrics_counter("gc.pages_moved_from_cold", &counters.pages_moved_from_cold);
  metrics_histogram("gc.victim_valid_pages", counters.victim_valid_pages, GC_VALID_BUCKETS,
                    counters.victim_valid_bucket_width);
  metrics_histogram("gc.page_copies", counters.page_copies, GC_COPY_BUCKETS, 1);
  metrics_histogram("gc.normal_victim_valid_pages", counters.normal_victim_valid_pages,
                    GC_VALID_BUCKETS, counters.victim_valid_bucket_width);
  metrics_histogram("gc.cold_victim_valid_pages", counters.cold_victim_valid_pages,
                    GC_VALID_BUCKETS, counters.victim_valid_bucket_width);
  metrics_histogram("gc.victims_per_set", counters.victims_per_set, VICTIM_MAX_SET + 1u, 1);
  metrics_counter("wl_migrations", &counters.wl_migrations);
  metrics_counter("retired.rescued", &counters.rescued);
  metrics_counter("gc.selections", &counters.selections);
  metrics_counter("gc.select_cycles", &counters.select_cycles);
  metrics_counter("gc.ordered_sets", &counters.ordered_sets);
  metrics_counter("gc.ordered_tp_reads", &counters.ordered_tp_reads);
  metrics_counter("gc.ordered_scan_cycles", &counters.ordered_scan_cycles);
  metrics_counter("gc.ordered_set_cycles", &counters.ordered_set_cycles);
  metrics_counter("gc.ordered_swept_pages", &counters.ordered_swept_pages);
}

bool gc_init(const gc_env_t *gc_env, arena_t *arena) {
  memset(&gc, 0, sizeof gc); /* a boot after a power loss finds what the last one left */
  env = *gc_env;
  memset(&counters, 0, sizeof(counters));
  /* A victim holds 0 to a whole stripe of valid pages: the last bucket is the full stripe. */
  counters.victim_valid_bucket_width = env.blocks->stripe_pages / (GC_VALID_BUCKETS - 1u);
  if (counters.victim_valid_bucket_width == 0) {
    counters.victim_valid_bucket_width = 1;
  }
  const uint32_t page_bytes = env.blocks->geometry.page_bytes;
  gc.slots = (uint8_t *)arena_alloc(arena, "gc_slots", batch_capacity() * page_bytes);
  gc.moves =
      (gc_move_t *)arena_alloc(arena, "gc_moves", batch_capacity() * (uint32_t)sizeof(gc_move_t));
  gc.program_vpn = (uint32_t *)arena_alloc(arena, "gc_program_vpns",
                                           env.boot->ftl_gc_batch_programs * 4u);
  if (gc.slots == 0 || gc.moves == 0 || gc.program_vpn == 0) {
    return false;
  }
  gc.ordered = GC_ORDERED_NONE;
  gc.entries_per_tp = page_bytes / (uint32_t)sizeof(uint32_t);
  gc.tp_waiter.resume = ordered_tp_read;
  if (env.victim_policy->orders_by_lpn) {
    /* The TP copy, the set's stripes, and the moves of up to a TP and a batch beyond it. */
    gc.moved_capacity = gc.entries_per_tp + batch_capacity();
    gc.tp_entries = (uint32_t *)arena_alloc(arena, "gc_tp_copy", page_bytes);
    gc.in_set = (uint8_t *)arena_alloc(arena, "gc_ordered_set", env.blocks->stripe_count);
    gc.moved_lpns = (uint32_t *)arena_alloc(arena, "gc_moved_lpns", gc.moved_capacity * 4u);
    gc.moved_vpns = (uint32_t *)arena_alloc(arena, "gc_moved_vpns", gc.moved_capacity * 4u);
    if (gc.tp_entries == 0 || gc.in_set == 0 || gc.moved_lpns == 0 || gc.moved_vpns == 0) {
      return false;
    }
    memset(gc.in_set, 0, env.blocks->stripe_count);
  }
  for (uint32_t i = 0; i < batch_capacity(); ++i) {
    gc.moves[i].task.run = run_gc_move;
    gc.moves[i].task.kind = JOB_KIND_GC;
    gc.moves[i].update.waiter.resume = resume_gc_move;
  }
  gc.task.run = run_gc;
  gc.task.kind = JOB_KIND_GC;
  gc.stage = GC_IDLE;
  gc.victim = BLOCK_NONE;
  gc.erasing.stripe = BLOCK_NONE;
  /* One region: relocated pages go where host data goes (2R's 1R baseline). */
  gc.relocation_stream = env.boot->ftl_gc_one_region ? BLOCK_STREAM_HOST : BLOCK_STREAM_GC;
  gc.victim_stream = gc.relocation_stream;
  gc.batch_stream = gc.relocation_stream;
  return true;
}

bool gc_idle(void) { return gc.stage == GC_IDLE; }

bool gc_holds_host(void) { return gc.merging != 0 && env.boot->ftl_gc_async_merge == 0; }
