#include "ftl/recovery.h"

#include <string.h>

#include "ftl/core.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/job_kind.h"
#include "hal/timer.h"
#include "lib/bitmap.h"
#include "lib/format.h"
#include "lib/metrics.h"
#include "oob_layout.h"

/* What a group held (rec.group_stripe) besides the stripe of its readable pages. */
#define GROUP_ERASED 0xFFFFFFFFu     /* every page erased: free */
#define GROUP_UNREADABLE 0xFFFFFFFEu /* unreadable pages only: erased again, then free */

typedef struct recovery_counters {
  uint64_t cycles;
  uint64_t time_ns;
  uint64_t pages_scanned;
  uint64_t groups_erased; /* unreadable ones, and those of stripes left with no valid page */
  uint64_t tps_rewritten;
  uint64_t flash_reads;      /* OOB scans and TP reads */
  uint64_t pages_programmed; /* TPs programmed again and their padding: part of the WAF */
  uint32_t power_losses; /* before this boot (the boot config's) */
  uint32_t checkpoint_found; /* 1 when a checkpoint was found: none is written yet */
  uint32_t passes;       /* scans of the device (LPN windows) */
} recovery_counters_t;

static recovery_counters_t counters;

static struct {
  uint32_t *group_stripe;      /* [group] */
  uint32_t *translation;       /* bitmap over stripes: holds translation pages */
  uint32_t *restored;          /* bitmap over stripes: found on flash */
  uint32_t *tp_vpn;            /* [tp]: its newest copy on flash (TP schemes) */
  uint32_t *tp_version;
  uint32_t *rewrite;           /* bitmap over TPs: to be programmed again */
  uint32_t rewrites;
  uint32_t *lpn_vpn;           /* [lpn - window_first]: the newest page of the window's LPNs */
  uint32_t *lpn_version;
  uint32_t window_first;
  uint32_t window_lpns;        /* the most a window holds */
  uint32_t window_count;       /* this window's */
  uint8_t *pages;              /* pages_per_program + 1 page buffers (TP schemes) */
  uint32_t highest_sequence;
  bool first_pass;
  uint32_t page;               /* the page of its block each read in flight reads */
  uint32_t pending;            /* operations in flight */
  uint32_t status;             /* of the last synchronous operation */
  uint32_t *active;            /* [record]: the group a read of the batch reads, or BLOCK_NONE */
} rec;

/* ---- flash, synchronously ---- */

static void wait_for_flash(void) {
  while (rec.pending != 0) {
    irq_poll();
    if (flash_drain(&ftl_core.flash) == 0 && !flash_completion_waiting(&ftl_core.flash)) {
      job_kind_set(JOB_KIND_IDLE);
      cpu_wait_for_interrupt();
    }
    job_kind_set(JOB_KIND_RECOVERY);
  }
}

static void sync_done(flash_op_t *op, uint32_t status) {
  (void)op;
  rec.status = status;
  --rec.pending;
}

static flash_op_t *take_sync(void) {
  flash_op_t *op = flash_op_take_program(&ftl_core.flash, sync_done, 0);
  ++rec.pending;
  return op;
}

/* ---- the scan ---- */

/* One readable page's OOB. */
static void note_page(uint32_t group, const uint32_t *oob) {
  const block_manager_t *blocks = &ftl_core.blocks;
  uint32_t owner = oob[OOB_WORD_OWNER];
  uint32_t vpn = oob[OOB_WORD_VPN];
  uint32_t version = oob[OOB_WORD_VERSION];
  uint32_t stripe = block_stripe_of(blocks, vpn);
  if (stripe >= blocks->stripe_count) {
    return; /* not an OOB this firmware wrote */
  }
  if (oob[OOB_WORD_SEQUENCE] > rec.highest_sequence) {
    rec.highest_sequence = oob[OOB_WORD_SEQUENCE];
  }
  if (rec.first_pass) {
    rec.group_stripe[group] = stripe;
  }
  if (owner == OOB_FILLER) {
    return;
  }
  if ((owner & OOB_TRANSLATION) != 0) {
    uint32_t tp = owner & ~OOB_TRANSLATION;
    if (rec.first_pass) {
      bitmap_set(rec.translation, stripe);
      if (rec.tp_vpn != 0 && tp < ftl_core.tp_count && version > rec.tp_version[tp]) {
        rec.tp_vpn[tp] = vpn;
        rec.tp_version[tp] = version;
      }
    }
    return;
  }
  uint32_t index = owner - rec.window_first;
  if (owner >= rec.window_first && index < rec.window_count && version > rec.lpn_version[index]) {
    rec.lpn_vpn[index] = vpn;
    rec.lpn_version[index] = version;
  }
}

/* A read of page rec.page of a group (every plane of its unit) finished. */
static void scan_done(flash_op_t *op, uint32_t status) {
  uint32_t slot = op->user;
  uint32_t group = rec.active[slot];
  --rec.pending;
  ++counters.flash_reads;
  counters.pages_scanned += ftl_core.blocks.unit_planes;
  if (status == NFC_STATUS_OK) {
    for (uint32_t plane = 0; plane < ftl_core.blocks.unit_planes; ++plane) {
      note_page(group, flash_oob(&ftl_core.flash, op, plane));
    }
  } else if (status != NFC_STATUS_ERASED && rec.first_pass &&
             rec.group_stripe[group] == GROUP_ERASED) {
    rec.group_stripe[group] = GROUP_UNREADABLE;
  }
  /* Pages are programmed in order: past the first erased one the block is erased. */
  if (status == NFC_STATUS_ERASED || rec.page + 1u == ftl_core.geometry.pages) {
    rec.active[slot] = BLOCK_NONE;
  }
}

/* Reads the OOB of every programmed page of every group, groups in batches as large as the flash
 * records allow, a page of each in flight at a time. */
static void scan_device(void) {
  block_manager_t *blocks = &ftl_core.blocks;
  flash_layer_t *flash = &ftl_core.flash;
  uint32_t batch = flash_free_programs(flash);
  for (uint32_t first = 0; first < blocks->group_count; first += batch) {
    uint32_t count = blocks->group_count - first < batch ? blocks->group_count - first : batch;
    for (uint32_t slot = 0; slot < count; ++slot) {
      rec.active[slot] = first + slot;
    }
    bool any = true;
    for (rec.page = 0; any && rec.page < ftl_core.geometry.pages; ++rec.page) {
      any = false;
      for (uint32_t slot = 0; slot < count; ++slot) {
        if (rec.active[slot] == BLOCK_NONE) {
          continue;
        }
        any = true;
        flash_op_t *op = flash_op_take_program(flash, scan_done, 0);
        op->user = slot;
        for (uint32_t plane = 0; plane < blocks->unit_planes; ++plane) {
          flash_io_oob(flash, op, plane);
        }
        ++rec.pending;
        flash_read_ppn(flash, op, block_group_ppn(blocks, rec.active[slot], rec.page),
                       blocks->unit_planes);
      }
      wait_for_flash();
    }
  }
  ++counters.passes;
}

/* ---- the blocks ---- */

/* Erases again each group an interrupted operation left unreadable; one that fails is retired. */
static void erase_unreadable(void) {
  block_manager_t *blocks = &ftl_core.blocks;
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    if (rec.group_stripe[group] != GROUP_UNREADABLE) {
      continue;
    }
    flash_erase_ppn(&ftl_core.flash, take_sync(), block_group_ppn(blocks, group, 0),
                    blocks->unit_planes);
    wait_for_flash();
    ++counters.groups_erased;
    if (rec.status != NFC_STATUS_OK) {
      block_restore_retire(blocks, group);
    }
    rec.group_stripe[group] = GROUP_ERASED;
  }
}

/* The stripes the groups held, each closed. */
static void restore_stripes(void) {
  block_manager_t *blocks = &ftl_core.blocks;
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    uint32_t stripe = rec.group_stripe[group];
    if (stripe == GROUP_ERASED) {
      continue;
    }
    if (!bitmap_test(rec.restored, stripe)) {
      bitmap_set(rec.restored, stripe);
      block_restore_open(blocks, stripe);
    }
    block_restore_member(blocks, stripe, group);
  }
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (bitmap_test(rec.restored, stripe)) {
      block_restore_close(blocks, stripe,
                          bitmap_test(rec.translation, stripe) ? BLOCK_STREAM_TRANSLATION
                                                               : BLOCK_STREAM_HOST);
    }
  }
}

/* ---- the mappings ---- */

static uint8_t *page_buffer(uint32_t index) {
  return rec.pages + index * ftl_core.geometry.page_bytes;
}

/* The window's mappings of TP `tp` into `entries` (VPN_UNMAPPED beyond the LPNs). */
static void tp_entries(uint32_t tp, uint32_t *entries) {
  uint32_t first = tp * ftl_core.entries_per_tp;
  for (uint32_t i = 0; i < ftl_core.entries_per_tp; ++i) {
    uint32_t lpn = first + i;
    entries[i] = lpn < ftl_core.lpn_count ? rec.lpn_vpn[lpn - rec.window_first] : VPN_UNMAPPED;
  }
}

static uint32_t window_first_tp(void) { return rec.window_first / ftl_core.entries_per_tp; }

static uint32_t window_end_tp(void) {
  return (rec.window_first + rec.window_count + ftl_core.entries_per_tp - 1u) /
         ftl_core.entries_per_tp;
}

/* Whether the TP's newest copy on flash holds exactly the recovered mappings. */
static bool tp_on_flash_agrees(uint32_t tp, const uint32_t *entries) {
  uint32_t vpn = rec.tp_vpn[tp];
  if (vpn == VPN_UNMAPPED) {
    return false;
  }
  flash_op_t *op = take_sync();
  uint32_t *read = (uint32_t *)page_buffer(ftl_core.unit_pages);
  flash_io_meta(&ftl_core.flash, op, 0, read);
  flash_read(&ftl_core.flash, op, vpn, 1);
  ++counters.flash_reads;
  wait_for_flash();
  if (rec.status != NFC_STATUS_OK) {
    return false;
  }
  for (uint32_t i = 0; i < ftl_core.entries_per_tp; ++i) {
    if (read[i] != entries[i]) {
      return false;
    }
  }
  return true;
}

/* Programs the `count` TPs staged in the page buffers (their numbers in tps[]) on the
 * translation stream; a failed program retires its group and the TPs go to the next. */
static bool program_tps(const uint32_t *tps, uint32_t count, const char **problem) {
  block_manager_t *blocks = &ftl_core.blocks;
  flash_layer_t *flash = &ftl_core.flash;
  for (;;) {
    uint32_t vpn = block_alloc_wordline(blocks, BLOCK_STREAM_TRANSLATION, 0);
    if (vpn == BLOCK_NONE) {
      *problem = "recovery: no free block left to program the translation pages again";
      return false;
    }
    flash_op_t *op = take_sync();
    for (uint32_t i = 0; i < count; ++i) {
      flash_io_meta(flash, op, i, page_buffer(i));
      uint32_t *oob = flash_oob(flash, op, i);
      oob[OOB_WORD_OWNER] = tps[i] | OOB_TRANSLATION;
      oob[OOB_WORD_SOURCE] = 0;
      oob[OOB_WORD_COPIES] = 0;
    }
    flash_io_pad(flash, op, count, ftl_core.unit_pages, page_buffer(count), true);
    flash_program(flash, op, vpn, blocks->unit_planes);
    counters.pages_programmed += ftl_core.unit_pages;
    wait_for_flash();
    if (rec.status != NFC_STATUS_OK) {
      block_program_failed(blocks, vpn);
      continue;
    }
    for (uint32_t i = 0; i < count; ++i) {
      gtd_set(&ftl_core.gtd, tps[i], vpn + i);
      block_page_validate(blocks, vpn + i);
    }
    block_wordline_settled(blocks, vpn);
    counters.tps_rewritten += count;
    return true;
  }
}

/* The window's TPs: each kept where its newest copy on flash agrees with the recovered
 * mappings, else marked for programming again (none is needed while every LPN is unmapped). */
static void check_tps(void) {
  uint32_t *entries = (uint32_t *)page_buffer(0);
  for (uint32_t tp = window_first_tp(); tp < window_end_tp(); ++tp) {
    tp_entries(tp, entries);
    if (tp_on_flash_agrees(tp, entries)) {
      gtd_set(&ftl_core.gtd, tp, rec.tp_vpn[tp]);
      block_page_validate(&ftl_core.blocks, rec.tp_vpn[tp]);
      continue;
    }
    for (uint32_t i = 0; i < ftl_core.entries_per_tp; ++i) {
      if (entries[i] != VPN_UNMAPPED) {
        bitmap_set(rec.rewrite, tp);
        ++rec.rewrites;
        break;
      }
    }
  }
}

/* Programs the window's TPs marked for it, a program's worth at a time. */
static bool rewrite_tps(const char **problem) {
  uint32_t staged[FTL_MAX_UNIT_PAGES];
  uint32_t count = 0;
  for (uint32_t tp = window_first_tp(); tp < window_end_tp(); ++tp) {
    if (!bitmap_test(rec.rewrite, tp)) {
      continue;
    }
    tp_entries(tp, (uint32_t *)page_buffer(count));
    staged[count++] = tp;
    if (count == ftl_core.unit_pages) {
      if (!program_tps(staged, count, problem)) {
        return false;
      }
      count = 0;
    }
  }
  return count == 0 || program_tps(staged, count, problem);
}

/* Scans for the LPNs of [first, first + count): rec.lpn_vpn holds their newest pages. */
static void scan_window(uint32_t first, uint32_t count) {
  rec.window_first = first;
  rec.window_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    rec.lpn_vpn[i] = VPN_UNMAPPED;
    rec.lpn_version[i] = 0;
  }
  scan_device();
  if (rec.first_pass) {
    rec.first_pass = false;
    ftl_core.flash.next_sequence = rec.highest_sequence + 1u;
    erase_unreadable();
    restore_stripes();
  }
}

/* The window's mappings: their pages valid, the scheme's table or the TPs checked. */
static void restore_window(void) {
  for (uint32_t i = 0; i < rec.window_count; ++i) {
    if (rec.lpn_vpn[i] != VPN_UNMAPPED) {
      block_page_validate(&ftl_core.blocks, rec.lpn_vpn[i]);
    }
  }
  if (ftl_core.scheme->recovery == MAP_RECOVERY_TABLE) {
    ftl_core.scheme->restore(rec.window_first, rec.window_count, rec.lpn_vpn);
  } else {
    check_tps();
  }
}

/* Erases every restored stripe left without a valid page (what was open when the power went,
 * what GC had emptied, old translation pages), before anything is programmed: the free pool the
 * runtime counts on. */
static void erase_empty_stripes(void) {
  block_manager_t *blocks = &ftl_core.blocks;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (!bitmap_test(rec.restored, stripe) || blocks->stripes[stripe].valid_pages != 0) {
      continue;
    }
    block_mark_victim(blocks, stripe);
    for (uint32_t position = 0; position < blocks->unit_count; ++position) {
      uint32_t vpn = block_member_vpn(blocks, stripe, position);
      if (vpn == BLOCK_NONE) {
        continue;
      }
      flash_erase(&ftl_core.flash, take_sync(), vpn, blocks->unit_planes);
      wait_for_flash();
      ++counters.groups_erased;
      block_member_erased(blocks, stripe, position, rec.status == NFC_STATUS_OK);
    }
    block_stripe_erased(blocks, stripe);
    bitmap_clear(rec.restored, stripe);
  }
}

/* ---- scratch memory ---- *//* ---- scratch memory ---- */

static void *take_words(uint8_t **cursor, uint32_t words) {
  void *taken = *cursor;
  *cursor += words * sizeof(uint32_t);
  return taken;
}

/* Lays the scratch out: the per-group, per-stripe and per-TP tables, the page buffers, then the
 * largest LPN window that fits (whole TPs). False when not even one TP's window fits. */
static bool take_scratch(arena_t *sram, arena_t *dram, const char **problem) {
  static char message[200];
  const block_manager_t *blocks = &ftl_core.blocks;
  bool tps = ftl_core.scheme->recovery == MAP_RECOVERY_TPS;
  uint32_t fixed_words = blocks->group_count + 2u * bitmap_words(blocks->stripe_count) +
                         ftl_core.flash.op_count +
                         (tps ? 2u * ftl_core.tp_count + bitmap_words(ftl_core.tp_count) : 0u) +
                         (tps ? (ftl_core.unit_pages + 1u) * (ftl_core.geometry.page_bytes / 4u)
                              : 0u);
  uint32_t step = tps ? ftl_core.entries_per_tp : 1u;
  uint32_t all_lpns = (ftl_core.lpn_count + step - 1u) / step * step;
  arena_t *arena = dram != 0 && arena_free_bytes(dram) > arena_free_bytes(sram) ? dram : sram;
  uint64_t wanted = ((uint64_t)fixed_words + 2u * (uint64_t)all_lpns) * sizeof(uint32_t);
  uint32_t available = arena_free_bytes(arena);
  uint32_t bytes = wanted < available ? (uint32_t)wanted : available & ~(ARENA_ALIGN - 1u);
  uint32_t window_words = bytes / 4u > fixed_words ? bytes / 4u - fixed_words : 0u;
  rec.window_lpns = window_words / 2u / step * step;
  if (rec.window_lpns == 0) {
    fw_snprintf(message, sizeof message,
                "recovery needs at least %u bytes of scratch memory; %u are free",
                (unsigned)((fixed_words + 2u * step) * 4u), (unsigned)available);
    *problem = message;
    return false;
  }
  uint8_t *cursor = (uint8_t *)arena_alloc(arena, "recovery_scratch", bytes);
  if (cursor == 0) {
    *problem = "recovery: its scratch memory was refused";
    return false;
  }
  rec.group_stripe = take_words(&cursor, blocks->group_count);
  rec.translation = take_words(&cursor, bitmap_words(blocks->stripe_count));
  rec.restored = take_words(&cursor, bitmap_words(blocks->stripe_count));
  rec.active = take_words(&cursor, ftl_core.flash.op_count);
  rec.tp_vpn = tps ? take_words(&cursor, ftl_core.tp_count) : 0;
  rec.tp_version = tps ? take_words(&cursor, ftl_core.tp_count) : 0;
  rec.rewrite = tps ? take_words(&cursor, bitmap_words(ftl_core.tp_count)) : 0;
  rec.pages = tps ? take_words(&cursor, (ftl_core.unit_pages + 1u) *
                                            (ftl_core.geometry.page_bytes / 4u))
                  : 0;
  rec.lpn_vpn = take_words(&cursor, rec.window_lpns);
  rec.lpn_version = take_words(&cursor, rec.window_lpns);
  return true;
}

/* The window of LPNs from `first`. */
static uint32_t window_at(uint32_t first) {
  return ftl_core.lpn_count - first < rec.window_lpns ? ftl_core.lpn_count - first
                                                       : rec.window_lpns;
}

/* Recovery proper, once the scratch is laid out: every window's mappings restored (the TPs that
 * disagree marked), the empty stripes erased, then the marked TPs programmed again (each window
 * scanned again when there are several). */
static bool recover(const char **problem) {
  const block_manager_t *blocks = &ftl_core.blocks;
  for (uint32_t group = 0; group < blocks->group_count; ++group) {
    rec.group_stripe[group] = GROUP_ERASED;
  }
  bitmap_clear_range(rec.translation, 0, blocks->stripe_count);
  bitmap_clear_range(rec.restored, 0, blocks->stripe_count);
  for (uint32_t tp = 0; rec.tp_vpn != 0 && tp < ftl_core.tp_count; ++tp) {
    rec.tp_vpn[tp] = VPN_UNMAPPED;
    rec.tp_version[tp] = 0;
  }
  if (rec.rewrite != 0) {
    bitmap_clear_range(rec.rewrite, 0, ftl_core.tp_count);
  }
  rec.first_pass = true;
  irq_disable();
  for (uint32_t first = 0; first < ftl_core.lpn_count; first += rec.window_lpns) {
    scan_window(first, window_at(first));
    restore_window();
  }
  erase_empty_stripes();
  if (rec.rewrites == 0) {
    return true;
  }
  bool one_window = rec.window_lpns >= ftl_core.lpn_count;
  for (uint32_t first = 0; first < ftl_core.lpn_count; first += rec.window_lpns) {
    if (!one_window) {
      scan_window(first, window_at(first));
    }
    if (!rewrite_tps(problem)) {
      return false;
    }
  }
  return true;
}

bool recovery_run(arena_t *sram, arena_t *dram, const char **problem) {
  counters.power_losses = ftl_core.boot->power_losses;
  if (ftl_core.scheme->recovery == MAP_RECOVERY_NONE) {
    *problem = "booted after a power loss, and this mapping scheme cannot recover its mappings "
               "yet (firmware.scheme; ideal, dftl, tpftl and sftl can)";
    return false;
  }
  memset(&rec, 0, sizeof rec); /* a cut during the last recovery left it */
  uint32_t outer = job_kind_enter(JOB_KIND_RECOVERY);
  uint32_t cycles_at_start = csr_read(mcycle);
  uint64_t time_at_start = timer_now();
  bool recovered = take_scratch(sram, dram, problem) && recover(problem);
  counters.cycles += csr_read(mcycle) - cycles_at_start;
  counters.time_ns += timer_ns_from_ticks(timer_now() - time_at_start);
  job_kind_set(outer);
  return recovered;
}

void recovery_register_metrics(void) {
  counters = (recovery_counters_t){0};
  metrics_gauge32("recovery.power_losses", &counters.power_losses);
  metrics_gauge32("recovery.checkpoint_found", &counters.checkpoint_found);
  metrics_counter32("recovery.passes", &counters.passes);
  metrics_counter("recovery.cycles", &counters.cycles);
  metrics_counter("recovery.time_ns", &counters.time_ns);
  metrics_counter("recovery.pages_scanned", &counters.pages_scanned);
  metrics_counter("recovery.groups_erased", &counters.groups_erased);
  metrics_counter("recovery.tps_rewritten", &counters.tps_rewritten);
  metrics_counter("flash_reads.recovery", &counters.flash_reads);
  metrics_counter("pages_programmed.recovery", &counters.pages_programmed);
}
