/* LearnedFTL (S. Wang, Z. Lin, S. Wu, H. Jiang, J. Zhang, B. Mao, HPCA 2024): TPFTL's cached
 * mapping table (CMT, ftl/map/tpftl.c), and beside it a learned model per translation page (GTD
 * entry) that gives the VPN of an LPN the CMT misses, trusted only where a bitmap says it is
 * exact, so that a random read needs no translation read.
 *
 * - Model of TP t (section 3.2, Figure 8): a start VPN, up to ftl.learnedftl.pieces linear
 *   pieces (ml/dplr.h) over the LPN's offset in the TP, and one bit per LPN.
 * - Lookup: the GC relocation buffer (below), the CMT, then, when the LPN's bit is set, PREDICT
 *   start + the model's VPN offset (the flash layer turns the VPN into the NAND address: VPNs are
 *   the paper's virtual PPNs, section 3.3.2); else TPFTL's miss. A set bit is never wrong (the
 *   FTL reads the OOB with the page and would count a misprediction; the tests check none).
 * - Updates clear the LPN's bit (section 3.4). Sequential initialisation (section 3.2): until
 *   its first training a TP's model is y = x, and the first program of one of its LPNs sets the
 *   start VPN; a page then mapped where y = x puts it keeps its bit set (the first contiguous
 *   write, continued over later programs), since here updates follow their program.
 * - GC-time training (section 3.3.3): with group-based allocation (ftl/gc/gtd_group.h) GC moves
 *   a group's valid pages in LPN order, TP by TP; relocated() fits the TP's model to the moved
 *   mappings and those the old model gave exactly (DPLR) and sets each bit only where the model
 *   gives the page's VPN exactly and the page is still valid (section 3.4). A TP with fewer than
 *   ftl.learnedftl.train_min moved mappings keeps its model (the authors' code trains above 30).
 * - GC's updates of LPNs the CMT does not hold (their old VPN known) gather in a relocation
 *   buffer of one TP and reach it in one writeback when GC's updates turn to another TP (or on
 *   flush), so that a group's GC rewrites only the group's TPs (section 4.2), instead of a TP
 *   read per moved page through the CMT. Until then the buffer answers for them, before the CMT.
 *
 * Writebacks per call: lookup none; update at most the relocation buffer, only while env
 * eviction_room allows (else the GC update takes the CMT's miss and loads the TP); tp_loaded
 * the CMT's (ftl/map/tpftl.c); flush the buffer and the CMT's, each while write_back_room allows.
 *
 * Memory (ftl.map_budget, the paper's equal memory: DFTL and TPFTL given the same budget spend
 * it all on their CMT): the models and bitmaps first, the relocation buffer and a TP copy, the
 * rest TPFTL's. */
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"
#include "lib/bitmap.h"
#include "lib/metrics.h"
#include "ml/dplr.h"

/* start_vpn of a TP no program has touched yet. */
#define LEARNEDFTL_NO_START 0xFFFFFFFFu

typedef struct learnedftl_stats {
  uint64_t cmt_hits;
  uint64_t model_hits;      /* PREDICT answers */
  /* PREDICT answers found wrong with the LPN's bit still set: the filter failed (none may). A
   * wrong one whose bit is clear by then read a page the host or GC replaced meanwhile. */
  uint64_t filter_errors;
  uint64_t buffer_hits;     /* lookups the relocation buffer answered */
  uint64_t trainings;       /* TP models fitted at GC */
  uint64_t trained_lpns;    /* mappings they were fitted to */
  uint64_t trained_bits;    /* of those, bits set (the model gives them exactly) */
  uint64_t train_cycles;    /* core cycles fitting and checking the models */
  uint64_t predict_cycles;  /* core cycles of bit checks and predictions in lookups */
  uint64_t buffer_writebacks;
  uint32_t bits_set;        /* LPNs a model predicts now */
  uint32_t model_bytes;
} learnedftl_stats_t;

static struct {
  map_env_t env;
  const map_scheme_t *cmt;
  uint32_t max_pieces;
  uint32_t *start_vpn;      /* [tp] */
  uint8_t *piece_count;     /* [tp] */
  uint8_t *trained;         /* [tp]: 0 = sequential initialisation (y = x) */
  dplr_piece_t *pieces;     /* [tp * max_pieces + i] */
  uint32_t *bits;           /* one per LPN */
  /* The relocation buffer: GC's mappings of TP buffer_tp, ascending LPN. */
  uint32_t buffer_tp;
  uint32_t buffer_count;
  map_patch_t *buffer;
  uint32_t *tp_copy;        /* a loaded TP with the buffer's mappings in */
  uint16_t *fit_x;
  int32_t *fit_y;
  dplr_scratch_t *fit_scratch;
  map_counters_t counters;
  learnedftl_stats_t stats;
} lf;

static bool bit_test(uint32_t lpn) { return bitmap_test(lf.bits, lpn); }

/* The bitmap, keeping bits_set in step. */
static void bit_set(uint32_t lpn) {
  if (!bit_test(lpn)) {
    bitmap_set(lf.bits, lpn);
    ++lf.stats.bits_set;
  }
}

static void bit_clear(uint32_t lpn) {
  if (bit_test(lpn)) {
    bitmap_clear(lf.bits, lpn);
    --lf.stats.bits_set;
  }
}

/* The VPN the TP's model gives lpn (the piece covering its offset), or VPN_UNMAPPED. */
static uint32_t model_vpn(uint32_t lpn) {
  uint32_t tp = lpn / lf.env.entries_per_tp;
  uint32_t offset = lpn - tp * lf.env.entries_per_tp;
  if (lf.start_vpn[tp] == LEARNEDFTL_NO_START) {
    return VPN_UNMAPPED;
  }
  if (!lf.trained[tp]) {
    return lf.start_vpn[tp] + offset; /* y = x */
  }
  const dplr_piece_t *pieces = &lf.pieces[tp * lf.max_pieces];
  uint32_t piece = dplr_find(pieces, lf.piece_count[tp], offset);
  if (piece == lf.piece_count[tp]) {
    return VPN_UNMAPPED;
  }
  return lf.start_vpn[tp] + (uint32_t)dplr_predict(&pieces[piece], offset);
}

/* Mirrors the CMT's gauges and eviction counts, with the models' bytes and LPNs added. */
static void sync_counters(void) {
  const map_counters_t *cmt = lf.cmt->counters();
  lf.counters.evictions = cmt->evictions;
  lf.counters.dirty_evictions = cmt->dirty_evictions;
  lf.counters.prefetched = cmt->prefetched;
  lf.counters.table_bytes = cmt->table_bytes + lf.stats.model_bytes;
  lf.counters.translatable_lpns = cmt->translatable_lpns + lf.stats.bits_set;
}

static void register_metrics(void) {
  learnedftl_stats_t *s = &lf.stats;
  metrics_counter("learnedftl.cmt_hits", &s->cmt_hits);
  metrics_counter("learnedftl.model_hits", &s->model_hits);
  metrics_counter("learnedftl.filter_errors", &s->filter_errors);
  metrics_counter("learnedftl.buffer_hits", &s->buffer_hits);
  metrics_counter("learnedftl.trainings", &s->trainings);
  metrics_counter("learnedftl.trained_lpns", &s->trained_lpns);
  metrics_counter("learnedftl.trained_bits", &s->trained_bits);
  metrics_counter("learnedftl.train_cycles", &s->train_cycles);
  metrics_counter("learnedftl.predict_cycles", &s->predict_cycles);
  metrics_counter("learnedftl.buffer_writebacks", &s->buffer_writebacks);
  metrics_gauge32("learnedftl.bits_set", &s->bits_set);
  metrics_gauge32("learnedftl.model_bytes", &s->model_bytes);
}

static bool learnedftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  scheme_budget_t budget = {arena, budget_bytes, 0};
  lf.env = *env;
  lf.cmt = &map_scheme_tpftl;
  lf.counters = (map_counters_t){0};
  lf.stats = (learnedftl_stats_t){0};
  lf.max_pieces = env->boot->ftl_learnedftl_pieces;
  uint32_t tps = env->tp_count;
  uint32_t entries = env->entries_per_tp;
  lf.start_vpn = scheme_alloc(&budget, "map.learnedftl.start_vpn", tps * 4u);
  lf.piece_count = scheme_alloc(&budget, "map.learnedftl.piece_count", tps);
  lf.trained = scheme_alloc(&budget, "map.learnedftl.trained", tps);
  lf.pieces = scheme_alloc(&budget, "map.learnedftl.pieces",
                           tps * lf.max_pieces * (uint32_t)sizeof(dplr_piece_t));
  uint32_t bit_words = bitmap_words(tps * entries);
  lf.bits = scheme_alloc(&budget, "map.learnedftl.bitmap", bit_words * 4u);
  lf.stats.model_bytes = budget.used;
  lf.buffer = scheme_alloc(&budget, "map.learnedftl.relocation_buffer",
                           entries * (uint32_t)sizeof(map_patch_t));
  lf.tp_copy = scheme_alloc(&budget, "map.learnedftl.tp_copy", entries * 4u);
  lf.fit_x = scheme_alloc(&budget, "map.learnedftl.fit_x", entries * 2u);
  lf.fit_y = scheme_alloc(&budget, "map.learnedftl.fit_y", entries * 4u);
  lf.fit_scratch = scheme_alloc(&budget, "map.learnedftl.fit_scratch",
                                (uint32_t)sizeof(dplr_scratch_t));
  if (!lf.start_vpn || !lf.piece_count || !lf.trained || !lf.pieces || !lf.bits || !lf.buffer ||
      !lf.tp_copy || !lf.fit_x || !lf.fit_y || !lf.fit_scratch || budget.used >= budget_bytes) {
    return false;
  }
  for (uint32_t tp = 0; tp < tps; ++tp) {
    lf.start_vpn[tp] = LEARNEDFTL_NO_START;
    lf.piece_count[tp] = 0;
    lf.trained[tp] = 0;
  }
  for (uint32_t word = 0; word < bit_words; ++word) {
    lf.bits[word] = 0;
  }
  lf.buffer_tp = SCHEME_NIL;
  lf.buffer_count = 0;
  if (!lf.cmt->init(env, arena, budget_bytes - budget.used)) {
    return false;
  }
  register_metrics();
  sync_counters();
  return true;
}

/* The relocation buffer's entry for lpn, or buffer_count. */
static uint32_t buffer_find(uint32_t lpn) {
  if (lf.buffer_count == 0 || lpn / lf.env.entries_per_tp != lf.buffer_tp) {
    return lf.buffer_count;
  }
  uint32_t low = 0;
  uint32_t high = lf.buffer_count;
  while (low < high) {
    uint32_t middle = (low + high) / 2u;
    if (lf.buffer[middle].lpn < lpn) {
      low = middle + 1u;
    } else {
      high = middle;
    }
  }
  return low < lf.buffer_count && lf.buffer[low].lpn == lpn ? low : lf.buffer_count;
}

/* The buffer's mappings leave: into the CMT where it holds the LPN (a clean copy loaded
 * meanwhile), the rest to their TP in one writeback. */
static void buffer_write_back(void) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < lf.buffer_count; ++i) {
    uint32_t replaced = lf.buffer[i].vpn;
    if (lf.cmt->update(lf.buffer[i].lpn, lf.buffer[i].vpn, &replaced) != MAP_HIT) {
      lf.buffer[kept++] = lf.buffer[i];
    }
  }
  if (kept != 0) {
    lf.env.write_back_patches(lf.buffer_tp, lf.buffer, kept);
    ++lf.stats.buffer_writebacks;
  }
  lf.buffer_count = 0;
  lf.buffer_tp = SCHEME_NIL;
}

/* GC moved lpn (its old VPN known, the CMT without it): the buffer takes the mapping, writing
 * back what it holds of another TP first. False when that finds no eviction room: the update
 * then takes the CMT's miss. */
static bool buffer_add(uint32_t lpn, uint32_t vpn) {
  uint32_t tp = lpn / lf.env.entries_per_tp;
  if (lf.buffer_count != 0 && (tp != lf.buffer_tp || lf.buffer_count == lf.env.entries_per_tp)) {
    if (!scheme_eviction_room(&lf.env)) {
      return false;
    }
    buffer_write_back();
  }
  lf.buffer_tp = tp;
  uint32_t at = lf.buffer_count++;
  for (; at > 0 && lf.buffer[at - 1u].lpn > lpn; --at) {
    lf.buffer[at] = lf.buffer[at - 1u];
  }
  lf.buffer[at].lpn = lpn;
  lf.buffer[at].vpn = vpn;
  return true;
}

static map_answer_t learnedftl_lookup(uint32_t lpn, const map_request_t *request,
                                      uint32_t *value) {
  ++lf.counters.lookups;
  uint32_t buffered = buffer_find(lpn);
  if (buffered != lf.buffer_count) {
    ++lf.counters.hits;
    ++lf.stats.buffer_hits;
    *value = lf.buffer[buffered].vpn;
    return MAP_HIT;
  }
  map_answer_t answer = lf.cmt->lookup(lpn, request, value);
  if (answer == MAP_HIT) {
    ++lf.counters.hits;
    ++lf.stats.cmt_hits;
  } else {
    uint32_t started = lf.env.cycles();
    uint32_t predicted = bit_test(lpn) ? model_vpn(lpn) : VPN_UNMAPPED;
    lf.stats.predict_cycles += lf.env.cycles() - started;
    if (predicted != VPN_UNMAPPED) {
      ++lf.counters.predictions;
      ++lf.counters.hits; /* taken back by mispredicted */
      ++lf.stats.model_hits;
      *value = predicted;
      answer = MAP_PREDICT;
    } else {
      ++lf.counters.misses;
    }
  }
  sync_counters();
  return answer;
}

/* The LPN's bit after it is mapped to vpn: set only where an untrained model's y = x puts it. */
static void update_bit(uint32_t lpn, uint32_t vpn) {
  uint32_t tp = lpn / lf.env.entries_per_tp;
  if (!lf.trained[tp] && vpn != VPN_UNMAPPED && model_vpn(lpn) == vpn) {
    bit_set(lpn);
  } else {
    bit_clear(lpn);
  }
}

static map_answer_t learnedftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  ++lf.counters.updates;
  uint32_t buffered = buffer_find(lpn);
  if (buffered != lf.buffer_count) {
    *value = lf.buffer[buffered].vpn;
    lf.buffer[buffered].vpn = vpn;
    update_bit(lpn, vpn);
    return MAP_HIT;
  }
  uint32_t old = *value;
  map_answer_t answer = lf.cmt->update(lpn, vpn, value);
  if (answer == MAP_MISS && old != MAP_OLD_UNKNOWN && vpn != VPN_UNMAPPED &&
      buffer_add(lpn, vpn)) {
    *value = old;
    answer = MAP_HIT;
  }
  if (answer == MAP_HIT) {
    update_bit(lpn, vpn);
  } else {
    ++lf.counters.update_misses;
  }
  sync_counters();
  return answer;
}

static void learnedftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                                 const map_request_t *const *requests, uint32_t wanted_count) {
  if (tp == lf.buffer_tp) {
    /* The buffer is newer than the TP: the CMT must not cache what it replaced. */
    uint32_t first = tp * lf.env.entries_per_tp;
    for (uint32_t i = 0; i < lf.env.entries_per_tp; ++i) {
      lf.tp_copy[i] = entries[i];
    }
    for (uint32_t i = 0; i < lf.buffer_count; ++i) {
      lf.tp_copy[lf.buffer[i].lpn - first] = lf.buffer[i].vpn;
    }
    entries = lf.tp_copy;
  }
  lf.cmt->tp_loaded(tp, entries, wanted, requests, wanted_count);
  sync_counters();
}

static void learnedftl_overlay(uint32_t tp, uint32_t *entries) {
  lf.cmt->overlay(tp, entries);
  if (tp == lf.buffer_tp) {
    uint32_t first = tp * lf.env.entries_per_tp;
    for (uint32_t i = 0; i < lf.buffer_count; ++i) {
      entries[lf.buffer[i].lpn - first] = lf.buffer[i].vpn;
    }
  }
}

static map_answer_t learnedftl_mispredicted(uint32_t lpn, uint32_t vpn_read, const uint32_t *oob,
                                            bool for_update, uint32_t *value) {
  (void)oob;
  (void)for_update;
  (void)value;
  ++lf.counters.mispredictions;
  --lf.counters.hits;
  if (bit_test(lpn) && model_vpn(lpn) == vpn_read) {
    ++lf.stats.filter_errors;
  }
  bit_clear(lpn); /* asked again, the lookup goes to the CMT */
  sync_counters();
  return MAP_MISS;
}

/* Sequential initialisation: the first program of an untrained TP's LPNs places its y = x. */
static void learnedftl_programmed(const uint32_t *lpns, uint32_t first_vpn, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (lpns[i] >= lf.env.lpn_count) {
      continue; /* a filler page */
    }
    uint32_t tp = lpns[i] / lf.env.entries_per_tp;
    if (!lf.trained[tp] && lf.start_vpn[tp] == LEARNEDFTL_NO_START) {
      lf.start_vpn[tp] = first_vpn + i - (lpns[i] - tp * lf.env.entries_per_tp);
    }
  }
}

/* GC-time training: DPLR over the TP's mappings GC knows, then one bit per LPN the model gives
 * exactly. Those it knows are the moved ones and those whose bit is set: their VPN is what the
 * model gives them (any update clears the bit). So when GC collected only some of the TP's pages
 * (a lone stripe of the group), the pages elsewhere the old model predicted are fitted too, and
 * keep their bit where the new model still gives their VPN. */
static void learnedftl_relocated(uint32_t tp, const uint32_t *lpns, const uint32_t *vpns,
                                 uint32_t count) {
  if (count == 0 || count < lf.env.boot->ftl_learnedftl_train_min) {
    sync_counters();
    return;
  }
  uint32_t started = lf.env.cycles();
  uint32_t first = tp * lf.env.entries_per_tp;
  uint32_t end = first + scheme_tp_lpns(&lf.env, tp);
  uint32_t start = vpns[0];
  uint32_t points = 0;
  uint32_t moved = 0;
  for (uint32_t lpn = first; lpn < end; ++lpn) {
    uint32_t vpn;
    if (moved < count && lpns[moved] == lpn) {
      vpn = vpns[moved++];
    } else if (bit_test(lpn)) {
      vpn = model_vpn(lpn);
    } else {
      continue;
    }
    lf.fit_x[points] = (uint16_t)(lpn - first);
    lf.fit_y[points] = (int32_t)(vpn - start);
    ++points;
  }
  dplr_piece_t *pieces = &lf.pieces[tp * lf.max_pieces];
  lf.piece_count[tp] =
      (uint8_t)dplr_fit(lf.fit_x, lf.fit_y, points, lf.max_pieces, lf.fit_scratch, pieces);
  lf.start_vpn[tp] = start;
  lf.trained[tp] = 1;
  moved = 0;
  for (uint32_t i = 0; i < points; ++i) {
    uint32_t lpn = first + lf.fit_x[i];
    uint32_t vpn = start + (uint32_t)lf.fit_y[i];
    bool was_moved = moved < count && lpns[moved] == lpn;
    moved += was_moved;
    if (model_vpn(lpn) == vpn && (!was_moved || lf.env.page_valid(vpn))) {
      bit_set(lpn);
      lf.stats.trained_bits += was_moved;
    } else {
      bit_clear(lpn);
    }
  }
  ++lf.stats.trainings;
  lf.stats.trained_lpns += count;
  lf.stats.train_cycles += lf.env.cycles() - started;
  sync_counters();
}

static bool learnedftl_flush(void) {
  if (lf.buffer_count != 0) {
    if (!scheme_write_back_room(&lf.env)) {
      return false;
    }
    buffer_write_back();
  }
  bool done = lf.cmt->flush();
  sync_counters();
  return done;
}

static const map_counters_t *learnedftl_counters(void) { return &lf.counters; }

const map_scheme_t map_scheme_learnedftl = {
    .name = "learnedftl",
    .init = learnedftl_init,
    .lookup = learnedftl_lookup,
    .update = learnedftl_update,
    .tp_loaded = learnedftl_tp_loaded,
    .mispredicted = learnedftl_mispredicted,
    .programmed = learnedftl_programmed,
    .overlay = learnedftl_overlay,
    .relocated = learnedftl_relocated,
    .flush = learnedftl_flush,
    .counters = learnedftl_counters,
};
