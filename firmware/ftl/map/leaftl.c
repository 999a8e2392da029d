/* LeaFTL (Sun et al., ASPLOS 2023): the mapping table as learned index segments.
 *
 * Mapping updates gather in a batch (exact, hashed by LPN: the paper's sorted data buffer, whose
 * mappings it answers from the buffer). A full batch, or a flush, is sorted by LPN and learned:
 * greedy PLR with error bound gamma (ml/plr.h) cuts it into segments within each group of
 * group_lpns LPNs, and each segment goes on top of its group's log-structured index
 * (ftl/map/leaftl_group.h; trims become single-point segments mapping to VPN_UNMAPPED). Host
 * flushes come sorted when the write buffer uses the `sorted` grouping policy; GC batches are
 * learned like host ones (section 3.6). Every compaction_writes updates, every group compacts.
 *
 * Lookup: the batch, else the group's levels from the top. An accurate segment answers HIT; an
 * approximate one PREDICT, verified through the page's OOB. Each page's OOB carries the LPNs of
 * the 2 gamma + 1 pages around it (section 3.5), those known when it is programmed: its own
 * program's and, through a short table of program tails, the ones before it in its stripe. A wrong prediction
 * is resolved from the OOB read (one more read); when the answer lies in a program written
 * after the page read, the scheme names the next page to try in a fixed order over the window
 * (p, p + 1 .. p + gamma, p - 1 .. p - gamma), skipping what each OOB already rules out, so a
 * resolution always ends within the window.
 *
 * An update must name the page it replaces, so that the FTL can invalidate it (the paper's
 * simulator reads it from a reference map). Through an approximate segment that page is known
 * only within gamma: the update answers PREDICT and the FTL reads the predicted page's OOB
 * (map.update_oob_reads counts these reads), unless it knows the page already (GC).
 *
 * Memory: per group a 16-byte record; its segments (8 bytes), their levels (1 byte) and its CRB
 * in one extent of a pool that slides its extents down when its top is reached. The batch, the
 * program tails and the learning scratch are fixed. All of it comes from the map budget.
 * With index_overhead, the budget is counted as RQFTL's section 3.4.1 counts LeaFTL: each
 * extent also holds an AVL node of 5 bytes per segment it has room for and its group's share of
 * a hash-table entry of 5 bytes at load factor 0.5 per cached translation page (10 bytes per
 * TP, in whole bytes per group); the group records, which stand for that hash table and the
 * trees' roots, then come from the arena outside the budget.
 *
 * When the pool cannot take a group's growth, every group compacts if a quarter of the segments
 * held came since the last compaction; otherwise whole groups leave it, chosen by CLOCK (the
 * public code evicts whole groups too). The translation pages stay the authoritative copy: a
 * group with mappings newer than its TP hands its LPNs' VPNs to the TP store first, so only
 * groups whose segments are all accurate can leave dirty (an approximate segment knows its VPNs
 * only within gamma). A lookup, or an update that must name the page it replaces, in a group
 * that left answers MISS for its TP; once the TP is in, the group is learned again from its
 * entries (PLR with the scheme's gamma: one level, counted apart from batch learning). A batch
 * learned into a group that left makes it partial (its new segments alone, as the public code's
 * write misses): a lookup they do not answer loads the TP, whose LPNs they lack go under them as
 * one level learned at gamma 0 (no CRB to merge). The groups a TP load's waiters want stay until
 * they have asked again. When nothing can leave, every group compacts; when even that is not
 * enough the firmware stops with a message naming ftl.map_budget.
 *
 * Writebacks per call: lookup none; update (learning a full batch) and tp_loaded (learning the
 * wanted groups again) one per dirty group that leaves for room, each only while env
 * eviction_room allows (flush: write_back_room); past it only clean groups leave. Learning that
 * then finds no room stops: the batch keeps the mappings of the groups not learned yet (and of
 * the one it stopped in, whose segments learned so far agree with the batch), an update finding
 * the batch still full answers MAP_NO_ROOM, a group learned again from its TP stays on flash (its
 * waiters miss, wait for room and load the TP again), and flush stops for room. */
#include "ftl/map/leaftl_group.h"
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"
#include "hal/job_kind.h"
#include "lib/format.h"
#include "lib/metrics.h"
#include "lib/sort.h"
#include "ml/plr.h"
#include "oob_layout.h"

#include <string.h>

#define LEAFTL_TAILS 8u              /* program tails remembered (streams writing at once) */
#define LEAFTL_UNKNOWN 0xFFFFFFFFu   /* an OOB neighbour entry not known at program time */
#define LEAFTL_LEVEL_BUCKETS 16u     /* levels searched per lookup: bucket k counts k (the last k
                                        or more; a lookup searches at least one) */
#define LEAFTL_EXTENT_HEADER_WORDS 2u /* owner group, size in words */
#define LEAFTL_GROW_MIN 4u           /* segments added to a full extent at least */
/* RQFTL section 3.4.1: an AVL node (two 2-byte links, a balance byte) per segment and a hash
 * entry (3-byte TP number, 2-byte SRAM location) per cached TP at load factor 0.5. */
#define LEAFTL_AVL_NODE_BYTES 5u
#define LEAFTL_HASH_BYTES_PER_TP 10u
/* SFTL's table in the paper's accounting: per 1024-LPN frame holding a mapping a 256 B bitmap
 * and a 4 B pointer, and 4 B per run head (consecutive LPNs on consecutive VPNs). */
#define SFTL_FRAME_LPNS 1024u
#define SFTL_FRAME_BYTES (256u + 4u)
#define SFTL_RUN_BYTES 4u

typedef struct group_record {
  uint32_t extent; /* pool word offset, SCHEME_NIL while the group has never had a segment */
  uint16_t count;
  uint16_t capacity;
  uint16_t crb_length;
  uint16_t crb_capacity;
  uint8_t level_count;
  uint8_t flags; /* GROUP_* */
  uint8_t reserved[2];
} group_record_t;

#define GROUP_ON_FLASH 1u    /* its TP holds its mappings (it has left the pool once) */
#define GROUP_DIRTY 2u       /* its segments hold mappings its TP does not */
#define GROUP_REFERENCED 4u  /* used since the CLOCK hand passed it */
#define GROUP_APPROXIMATE 8u /* it has approximate segments */
#define GROUP_WANTED 16u     /* waiters of the last TP loaded want it: it stays until they asked */
#define GROUP_PARTIAL 32u    /* learned while out of the pool: its segments hold the mappings
                                newer than its TP, the TP the rest */

/* The LPNs of the last pages a program wrote, for the OOB of the program that continues it. */
typedef struct program_tail {
  uint32_t next_vpn; /* the VPN after its last page; 0 for an unused tail */
  uint32_t used;     /* last use, for replacement */
  uint32_t *lpns;    /* gamma LPNs, the last one at the end */
} program_tail_t;

/* Everything stats.json shows beyond map_counters_t. */
typedef struct leaftl_stats {
  uint64_t segments;             /* gauges, over every group */
  uint64_t approximate_segments;
  uint64_t single_point_segments;
  uint64_t crb_bytes;
  uint64_t groups_used;
  uint64_t bytes_paper;          /* 8 B a segment (5 B a single point) + 4 B a group */
  uint64_t bytes_ours;           /* records, live extents, batch, tails, scratch */
  uint64_t bytes_index;          /* index_overhead: AVL nodes of the segments and hash entries
                                    of the groups in the pool (in the extents, so in bytes_ours) */
  uint64_t bytes_dftl;           /* 8 B per mapped LPN, as DFTL's table would take */
  uint64_t bytes_sftl;           /* SFTL's, with account_sftl */
  uint64_t sftl_run_heads;
  uint64_t sftl_frames_used;
  uint64_t mapped_lpns;
  uint64_t batches_learned;      /* counters */
  uint64_t lpns_learned;
  uint64_t learn_cycles;         /* sorting, PLR and inserting a batch */
  uint64_t plr_cycles;           /* of those, PLR alone */
  uint64_t lookup_cycles;        /* searching the levels, per lookup that reached them */
  uint64_t level_lookups;
  uint64_t levels_searched[LEAFTL_LEVEL_BUCKETS];
  uint64_t compactions;
  uint64_t compaction_cycles;
  uint64_t oob_resolved;         /* mispredictions the OOB read answered */
  uint64_t oob_probes;           /* ... that needed another page read first */
  uint64_t update_predictions;   /* updates whose old page an OOB read had to find */
  uint64_t update_mispredictions; /* ... where the predicted page was not it */
  uint64_t pool_slides;
  uint64_t compactions_for_room; /* compactions a full pool started */
  uint64_t groups_on_flash;      /* gauge: groups out of the pool, mappings in their TP */
  uint64_t groups_evicted;       /* counters */
  uint64_t groups_written_back;  /* ... of those, dirty: their mappings went to the TP store */
  uint64_t evict_cycles;
  uint64_t groups_relearned;     /* groups learned again from a loaded TP */
  uint64_t groups_partial;       /* groups a batch was learned into while out of the pool */
  uint64_t groups_completed;     /* ... completed from a loaded TP since */
  uint64_t relearn_cycles;
} leaftl_stats_t;

static struct {
  map_env_t env;
  map_counters_t counters;
  leaftl_stats_t stats;
  uint32_t gamma;
  uint32_t group_lpns;
  uint32_t group_count;
  group_record_t *groups;
  uint32_t *pool;
  uint32_t pool_words;
  uint32_t pool_top;
  uint32_t pool_live;
  /* The batch. */
  uint32_t batch_capacity;
  uint32_t batch_count;
  uint32_t *batch_lpns;
  uint32_t *batch_vpns;
  uint32_t *batch_next;
  uint32_t *batch_heads;
  uint32_t batch_buckets;
  scheme_hash_t batch_hash;
  /* Learning scratch, one group at a time. */
  uint32_t *xs;
  uint32_t *ys;
  plr_segment_t *learned;
  leaftl_segment_t *learned_segments; /* learned segments encoded, to go in as one level */
  uint8_t *offsets;
  program_tail_t tails[LEAFTL_TAILS];
  uint32_t tail_clock;
  uint32_t fixed_bytes; /* records, batch, tails, scratch: what is not the pool */
  uint32_t avl_node_bytes; /* index_overhead: an extent's bytes per segment slot, else 0 */
  uint32_t hash_bytes;     /* index_overhead: an extent's share of its TP's hash entry, else 0 */
  uint32_t updates_since_compaction;
  uint32_t segments_since_compaction; /* segments inserted since the last compaction */
  uint32_t unaccounted; /* the group whose share of the gauges is out while it learns */
  bool relearning;      /* learning a group from its TP */
  uint32_t compaction_writes;
  uint16_t *frame_mapped; /* with account_sftl: mapped LPNs per SFTL frame */
  map_patch_t *patches;   /* a leaving group's mappings */
  uint32_t clock_hand;
  uint32_t loaded_tp;     /* the TP of the last tp_loaded, whose GROUP_WANTED groups stay */
  /* Whether a dirty group may leave now: eviction_room in the scheme calls, write_back_room in
   * flush. */
  bool (*room)(const map_env_t *env);
  bool short_of_room;     /* ensure_room found no room because no dirty group could leave */
} lea;

/* ---- the pool ---- */

static uint32_t words_of(uint32_t bytes) { return (bytes + 3u) / 4u; }

static uint32_t extent_words(uint32_t capacity, uint32_t crb_capacity) {
  return LEAFTL_EXTENT_HEADER_WORDS + 2u * capacity + words_of(capacity) + words_of(crb_capacity) +
         words_of(lea.avl_node_bytes * capacity + lea.hash_bytes);
}

/* Moves the live extents to the pool's bottom, in order. */
static void pool_slide(void) {
  uint32_t write = 0;
  for (uint32_t read = 0; read < lea.pool_top;) {
    uint32_t owner = lea.pool[read];
    uint32_t size = lea.pool[read + 1u];
    if (owner != SCHEME_NIL) {
      if (write != read) {
        memmove(&lea.pool[write], &lea.pool[read], size * 4u);
      }
      lea.groups[owner].extent = write;
      write += size;
    }
    read += size;
  }
  lea.pool_top = write;
  ++lea.stats.pool_slides;
}

static uint32_t pool_take(uint32_t words, uint32_t owner) {
  if (lea.pool_top + words > lea.pool_words) {
    pool_slide();
    if (lea.pool_top + words > lea.pool_words) {
      return SCHEME_NIL;
    }
  }
  uint32_t extent = lea.pool_top;
  lea.pool[extent] = owner;
  lea.pool[extent + 1u] = words;
  lea.pool_top += words;
  lea.pool_live += words;
  return extent;
}

/* The group's index over its extent. */
static leaftl_group_t view(uint32_t g) {
  const group_record_t *record = &lea.groups[g];
  leaftl_group_t group;
  uint32_t *base = &lea.pool[record->extent + LEAFTL_EXTENT_HEADER_WORDS];
  uint8_t *levels = (uint8_t *)(base + 2u * record->capacity);
  leaftl_group_init(&group, (leaftl_segment_t *)base, levels, record->capacity,
                    levels + 4u * words_of(record->capacity), record->crb_capacity);
  group.count = record->count;
  group.level_count = record->level_count;
  group.crb.length = record->crb_length;
  return group;
}

static void store(uint32_t g, const leaftl_group_t *group) {
  group_record_t *record = &lea.groups[g];
  record->count = (uint16_t)group->count;
  record->level_count = (uint8_t)group->level_count;
  record->crb_length = (uint16_t)group->crb.length;
}

/* Whether group g is out of the pool, its mappings in its TP. */
static bool on_flash(uint32_t g) {
  return lea.groups[g].extent == SCHEME_NIL && (lea.groups[g].flags & GROUP_ON_FLASH);
}

static void out_of_budget(uint32_t g) {
  uint32_t held = 0; /* groups that cannot leave: approximate segments newer than their TP */
  for (uint32_t other = 0; other < lea.group_count; ++other) {
    const group_record_t *record = &lea.groups[other];
    held += record->extent != SCHEME_NIL && (record->flags & GROUP_DIRTY) &&
            (record->flags & GROUP_APPROXIMATE);
  }
  char message[256];
  fw_snprintf(message, sizeof message,
              "group %u's segments do not fit the map budget (ftl.map_budget): %u of %u pool "
              "bytes live, %u segments in %u groups, %u of them held by approximate segments "
              "newer than their translation page (ftl.leaftl.gamma %u)",
              (unsigned)g, (unsigned)(lea.pool_live * 4u), (unsigned)(lea.pool_words * 4u),
              (unsigned)lea.stats.segments, (unsigned)lea.stats.groups_used, (unsigned)held,
              (unsigned)lea.gamma);
  lea.env.fault(message);
}

/* Gives back the room group g's extent holds beyond its segments and CRB: the rest of the
 * extent becomes a dead one the next slide drops. */
static void shrink_extent(uint32_t g) {
  group_record_t *record = &lea.groups[g];
  uint32_t capacity = record->count < LEAFTL_GROW_MIN ? LEAFTL_GROW_MIN : record->count;
  uint32_t crb_capacity = (record->crb_length + 15u) & ~15u;
  if (crb_capacity > LEAFTL_CRB_MAX_BYTES) {
    crb_capacity = LEAFTL_CRB_MAX_BYTES;
  }
  uint32_t old_words = lea.pool[record->extent + 1u];
  uint32_t new_words = extent_words(capacity, crb_capacity);
  if (new_words + LEAFTL_EXTENT_HEADER_WORDS > old_words) {
    return;
  }
  leaftl_group_t old = view(g);
  uint32_t *base = &lea.pool[record->extent + LEAFTL_EXTENT_HEADER_WORDS];
  uint8_t *levels = (uint8_t *)(base + 2u * capacity);
  memmove(levels, old.levels, old.count);
  memmove(levels + 4u * words_of(capacity), old.crb.bytes, old.crb.length);
  lea.pool[record->extent + 1u] = new_words;
  lea.pool[record->extent + new_words] = SCHEME_NIL;
  lea.pool[record->extent + new_words + 1u] = old_words - new_words;
  lea.pool_live -= old_words - new_words;
  record->capacity = (uint16_t)capacity;
  record->crb_capacity = (uint16_t)crb_capacity;
}

static void compact_all(void);
static uint32_t clock_victim(uint32_t except, bool dirty_ok);
static bool dirty_could_leave(uint32_t except);
static bool evict(uint32_t g);

/* Compacts every group and takes back what their extents hold spare. */
static void compact_for_room(void) {
  ++lea.stats.compactions_for_room;
  compact_all();
  for (uint32_t other = 0; other < lea.group_count; ++other) {
    if (lea.groups[other].extent != SCHEME_NIL) {
      shrink_extent(other);
    }
  }
}

/* Room in group g's extent for `segments` more segments and `crb_bytes` more CRB bytes. A full
 * pool first compacts every group when a quarter of the segments held came since the last
 * compaction (a compaction frees what newer segments superseded; more often it would run again
 * and again for nothing), else sends other groups out (CLOCK; dirty ones only while lea.room
 * says so), compacting as a last resort. False when even that leaves no room: with
 * lea.short_of_room set when a dirty group could have left, else after env.fault (which a host
 * test may survive). */
static bool ensure_room(uint32_t g, uint32_t segments, uint32_t crb_bytes) {
  group_record_t *record = &lea.groups[g];
  bool first = record->extent == SCHEME_NIL;
  uint32_t capacity = record->capacity;
  uint32_t crb_capacity = record->crb_capacity;
  uint32_t needed = record->count + segments;
  if (!first && needed <= capacity && record->crb_length + crb_bytes <= crb_capacity) {
    return true;
  }
  if (first || needed > capacity) {
    uint32_t more = capacity / 2u;
    capacity += more < LEAFTL_GROW_MIN ? LEAFTL_GROW_MIN : more;
    capacity = capacity < needed ? needed : capacity;
  }
  if (record->crb_length + crb_bytes > crb_capacity) {
    crb_capacity = (record->crb_length + crb_bytes + 15u) & ~15u;
    if (crb_capacity > LEAFTL_CRB_MAX_BYTES) {
      crb_capacity = LEAFTL_CRB_MAX_BYTES;
    }
  }
  uint32_t words = extent_words(capacity, crb_capacity);
  uint32_t extent = pool_take(words, g);
  bool compacted = false;
  if (extent == SCHEME_NIL && 4u * lea.segments_since_compaction >= lea.stats.segments) {
    compact_for_room();
    compacted = true;
    extent = pool_take(words, g);
  }
  while (extent == SCHEME_NIL) {
    uint32_t victim = clock_victim(g, lea.room(&lea.env));
    if (victim == SCHEME_NIL) {
      break;
    }
    if (!evict(victim)) {
      return false;
    }
    extent = pool_take(words, g);
  }
  if (extent == SCHEME_NIL && !compacted) {
    compact_for_room();
    extent = pool_take(words, g);
  }
  if (extent == SCHEME_NIL) {
    if (dirty_could_leave(g)) {
      lea.short_of_room = true;
    } else {
      out_of_budget(g);
    }
    return false;
  }
  if (first) {
    ++lea.stats.groups_used;
  } else {
    /* The old extent may have slid while the new one was taken: read it where it is now. */
    leaftl_group_t old = view(g);
    uint32_t *base = &lea.pool[extent + LEAFTL_EXTENT_HEADER_WORDS];
    uint8_t *levels = (uint8_t *)(base + 2u * capacity);
    memcpy(base, old.segments, old.count * sizeof(leaftl_segment_t));
    memcpy(levels, old.levels, old.count);
    memcpy(levels + 4u * words_of(capacity), old.crb.bytes, old.crb.length);
    lea.pool[record->extent] = SCHEME_NIL;
    lea.pool_live -= lea.pool[record->extent + 1u];
  }
  record->extent = extent;
  record->capacity = (uint16_t)capacity;
  record->crb_capacity = (uint16_t)crb_capacity;
  return true;
}

/* ---- accounting ---- */

/* Adds (sign +1) or takes away (-1) a group's share of the gauges; answers its approximate
 * segments. */
static uint32_t account(const leaftl_group_t *group, int32_t sign) {
  uint64_t singles = 0, approximate = 0;
  for (uint32_t i = 0; i < group->count; ++i) {
    singles += group->segments[i].length == 0;
    approximate += !leaftl_segment_accurate(&group->segments[i]);
  }
  int64_t s = sign;
  lea.stats.segments += (uint64_t)(s * group->count);
  lea.stats.single_point_segments += (uint64_t)(s * (int64_t)singles);
  lea.stats.approximate_segments += (uint64_t)(s * (int64_t)approximate);
  lea.stats.crb_bytes += (uint64_t)(s * group->crb.length);
  int64_t paper = 8 * ((int64_t)group->count - (int64_t)singles) + 5 * (int64_t)singles +
                  (group->count != 0 ? 4 : 0);
  lea.stats.bytes_paper += (uint64_t)(s * paper);
  return (uint32_t)approximate;
}

static void refresh_gauges(void) {
  lea.stats.bytes_ours = lea.fixed_bytes + 4ull * lea.pool_live;
  lea.stats.bytes_index =
      lea.avl_node_bytes * lea.stats.segments + lea.hash_bytes * lea.stats.groups_used;
  uint64_t away = lea.stats.groups_on_flash * lea.group_lpns;
  lea.counters.translatable_lpns = away < lea.env.lpn_count ? lea.env.lpn_count - (uint32_t)away : 0;
  lea.stats.bytes_dftl = 8u * lea.stats.mapped_lpns;
  lea.stats.bytes_sftl =
      SFTL_RUN_BYTES * lea.stats.sftl_run_heads + SFTL_FRAME_BYTES * lea.stats.sftl_frames_used;
  lea.counters.table_bytes = (uint32_t)(8u * lea.stats.segments + lea.stats.crb_bytes);
}

/* ---- the batch ---- */

static uint32_t batch_find(uint32_t lpn) {
  return lea.batch_count == 0 ? SCHEME_NIL : scheme_hash_find(&lea.batch_hash, lpn);
}

static void batch_clear(void) {
  lea.batch_count = 0;
  scheme_hash_init(&lea.batch_hash, lea.batch_heads, lea.batch_buckets, lea.batch_next,
                   lea.batch_lpns);
}

/* Inserts one learned segment (or a trim's single point) into group g, whose share of the
 * gauges the caller has taken out. */
static void insert_segment(uint32_t g, const leaftl_segment_t *segment, const uint8_t *offsets,
                           uint32_t count) {
  bool approximate = !leaftl_segment_accurate(segment);
  if (!ensure_room(g, 1u, approximate ? leaftl_group_crb_room(count) : 0u)) {
    return;
  }
  leaftl_group_t group = view(g);
  if (group.level_count + 1u >= LEAFTL_MAX_LEVELS) {
    leaftl_group_compact(&group);
  }
  leaftl_group_insert(&group, segment, approximate ? offsets : 0, approximate ? count : 0u);
  store(g, &group);
  /* Segments relearned from a TP supersede none: a compaction could not take them back. */
  lea.segments_since_compaction += !lea.relearning;
}

/* Adds (+1) or takes out (-1) group g's share of the gauges, if it has segments. */
static void account_group(uint32_t g, int32_t sign) {
  if (lea.groups[g].extent != SCHEME_NIL) {
    leaftl_group_t group = view(g);
    uint32_t approximate = account(&group, sign);
    if (sign > 0) {
      lea.groups[g].flags = (uint8_t)((lea.groups[g].flags & ~GROUP_APPROXIMATE) |
                                      (approximate != 0 ? GROUP_APPROXIMATE : 0u));
    }
  }
}

/* Learns lea.xs/ys[0, mapped) (increasing LPNs, all in group g) onto the group's top. */
static void learn_points(uint32_t g, uint32_t mapped) {
  uint32_t base = g * lea.group_lpns;
  uint32_t started = lea.env.cycles();
  uint32_t count = plr_learn(lea.xs, lea.ys, mapped, lea.gamma, lea.group_lpns, lea.learned);
  lea.stats.plr_cycles += lea.env.cycles() - started;
  /* Room for them all at once: growing by a segment at a time would copy the extent again
   * and again. */
  uint32_t crb_bytes = 0;
  for (uint32_t s = 0; s < count; ++s) {
    crb_bytes += plr_accurate(&lea.learned[s]) ? 0u : leaftl_group_crb_room(lea.learned[s].points);
  }
  if (count != 0 && !ensure_room(g, count, crb_bytes)) {
    return;
  }
  if (lea.groups[g].count == 0 && crb_bytes == 0) {
    /* An empty group and accurate segments (sorted, disjoint): they are its one level as they
     * come, with none of the inserts' trimming to do. */
    leaftl_group_t group = view(g);
    for (uint32_t s = 0; s < count; ++s) {
      lea.learned_segments[s] = leaftl_segment_of(&lea.learned[s], base);
    }
    leaftl_group_add_level_below(&group, lea.learned_segments, count);
    store(g, &group);
    lea.segments_since_compaction += lea.relearning ? 0u : count;
    return;
  }
  uint32_t point = 0;
  for (uint32_t s = 0; s < count; ++s) {
    const plr_segment_t *learned = &lea.learned[s];
    leaftl_segment_t segment = leaftl_segment_of(learned, base);
    for (uint32_t i = 0; i < learned->points; ++i) {
      lea.offsets[i] = (uint8_t)(lea.xs[point + i] - base);
    }
    point += learned->points;
    insert_segment(g, &segment, lea.offsets, learned->points);
  }
}

/* Learns the points [first, end) of the sorted batch, all in group g; lea.short_of_room when
 * some found no room. */
static void learn_group(uint32_t g, uint32_t first, uint32_t end) {
  uint32_t base = g * lea.group_lpns;
  uint32_t mapped = 0;
  bool was_on_flash = on_flash(g);
  if (was_on_flash) {
    /* Out of the pool since its mappings were batched: the new ones go in alone. */
    --lea.stats.groups_on_flash;
    ++lea.stats.groups_partial;
    lea.groups[g].flags |= GROUP_PARTIAL;
  }
  account_group(g, -1);
  lea.unaccounted = g;
  for (uint32_t i = first; i < end; ++i) {
    if (lea.batch_vpns[i] == VPN_UNMAPPED) {
      leaftl_segment_t trimmed = {(uint8_t)(lea.batch_lpns[i] - base), 0, 0, VPN_UNMAPPED};
      insert_segment(g, &trimmed, 0, 0);
      continue;
    }
    lea.xs[mapped] = lea.batch_lpns[i];
    lea.ys[mapped] = lea.batch_vpns[i];
    ++mapped;
  }
  learn_points(g, mapped);
  lea.unaccounted = SCHEME_NIL;
  if (was_on_flash && lea.groups[g].extent == SCHEME_NIL) {
    /* Nothing went in for want of room: it is still out, all of it in its TP. */
    ++lea.stats.groups_on_flash;
    --lea.stats.groups_partial;
    lea.groups[g].flags &= (uint8_t)~GROUP_PARTIAL;
    return;
  }
  lea.groups[g].flags |= GROUP_DIRTY | GROUP_REFERENCED;
  account_group(g, +1);
}

/* The batch keeps its sorted points [first, batch_count), the rest learned. */
static void batch_keep(uint32_t first) {
  uint32_t kept = lea.batch_count - first;
  memmove(lea.batch_lpns, lea.batch_lpns + first, kept * 4u);
  memmove(lea.batch_vpns, lea.batch_vpns + first, kept * 4u);
  batch_clear();
  for (uint32_t item = 0; item < kept; ++item) {
    scheme_hash_insert(&lea.batch_hash, item);
  }
  lea.batch_count = kept;
}

/* Learns the batch, group by group in LPN order; a group that finds no room (lea.short_of_room)
 * stops it, and the batch keeps that group's points and the rest. */
static void learn_batch(void) {
  if (lea.batch_count == 0) {
    return;
  }
  uint32_t started = lea.env.cycles();
  sort_pairs_u32(lea.batch_lpns, lea.batch_vpns, lea.batch_count);
  lea.short_of_room = false;
  uint32_t first = 0;
  while (first < lea.batch_count) {
    uint32_t g = lea.batch_lpns[first] / lea.group_lpns;
    uint32_t end = first + 1u;
    while (end < lea.batch_count && lea.batch_lpns[end] / lea.group_lpns == g) {
      ++end;
    }
    learn_group(g, first, end);
    if (lea.short_of_room) {
      break;
    }
    first = end;
  }
  lea.stats.lpns_learned += first;
  if (first == lea.batch_count) {
    ++lea.stats.batches_learned;
  }
  batch_keep(first);
  lea.stats.learn_cycles += lea.env.cycles() - started;
  refresh_gauges();
}

static void compact_all(void) {
  uint32_t outer = job_kind_enter(JOB_KIND_COMPACTION);
  uint32_t started = lea.env.cycles();
  for (uint32_t g = 0; g < lea.group_count; ++g) {
    if (lea.groups[g].extent != SCHEME_NIL && lea.groups[g].level_count > 1u) {
      bool accounted = g != lea.unaccounted;
      if (accounted) {
        account_group(g, -1);
      }
      leaftl_group_t group = view(g);
      leaftl_group_compact(&group);
      store(g, &group);
      if (accounted) {
        account_group(g, +1);
      }
    }
  }
  lea.segments_since_compaction = 0;
  ++lea.stats.compactions;
  lea.stats.compaction_cycles += lea.env.cycles() - started;
  refresh_gauges();
  job_kind_set(outer);
}

/* ---- groups leaving the pool and coming back ---- */

static uint32_t tp_of_group(uint32_t g) { return g * lea.group_lpns / lea.env.entries_per_tp; }

static uint32_t lpns_of_group(uint32_t g) {
  uint32_t base = g * lea.group_lpns;
  return lea.env.lpn_count - base < lea.group_lpns ? lea.env.lpn_count - base : lea.group_lpns;
}

static bool can_leave(uint32_t g) {
  const group_record_t *record = &lea.groups[g];
  if (record->extent == SCHEME_NIL || (record->flags & GROUP_WANTED)) {
    return false;
  }
  /* A dirty group writes its exact VPNs back: an approximate segment does not know them. */
  return (record->flags & (GROUP_DIRTY | GROUP_APPROXIMATE)) != (GROUP_DIRTY | GROUP_APPROXIMATE);
}

/* The next group CLOCK sends out of the pool (never `except`; a dirty one only when
 * `dirty_ok`), or SCHEME_NIL. */
static uint32_t clock_victim(uint32_t except, bool dirty_ok) {
  for (uint32_t step = 0; step < 2u * lea.group_count; ++step) {
    uint32_t g = lea.clock_hand;
    lea.clock_hand = g + 1u == lea.group_count ? 0u : g + 1u;
    if (g == except || !can_leave(g) || (!dirty_ok && (lea.groups[g].flags & GROUP_DIRTY))) {
      continue;
    }
    if (lea.groups[g].flags & GROUP_REFERENCED) {
      lea.groups[g].flags &= (uint8_t)~GROUP_REFERENCED;
      continue;
    }
    return g;
  }
  return SCHEME_NIL;
}

/* Whether a dirty group other than `except` could leave, room allowing. */
static bool dirty_could_leave(uint32_t except) {
  for (uint32_t g = 0; g < lea.group_count; ++g) {
    if (g != except && can_leave(g) && (lea.groups[g].flags & GROUP_DIRTY)) {
      return true;
    }
  }
  return false;
}

/* Group g leaves the pool; its mappings go to its TP first when the TP lacks some. False
 * (after env.fault) when the scheme may not send groups out. */
static bool evict(uint32_t g) {
  if (lea.frame_mapped != 0) {
    lea.env.fault("ftl.leaftl.account_sftl counts SFTL's table from every mapping held: the whole "
                  "table must fit ftl.map_budget");
    return false;
  }
  uint32_t started = lea.env.cycles();
  group_record_t *record = &lea.groups[g];
  leaftl_group_t group = view(g);
  if (record->flags & GROUP_DIRTY) {
    /* Every LPN, unmapped where no segment has it; only those its segments have for a partial
     * group, whose TP holds the rest. */
    uint32_t base = g * lea.group_lpns;
    uint32_t patches = 0;
    for (uint32_t offset = 0; offset < lpns_of_group(g); ++offset) {
      leaftl_segment_t segment;
      uint32_t searched;
      bool hit = leaftl_group_lookup(&group, offset, &segment, &searched);
      if (hit || !(record->flags & GROUP_PARTIAL)) {
        lea.patches[patches].lpn = base + offset;
        lea.patches[patches].vpn = hit ? leaftl_segment_predict(&segment, offset) : VPN_UNMAPPED;
        ++patches;
      }
    }
    lea.env.write_back_patches(tp_of_group(g), lea.patches, patches);
    ++lea.stats.groups_written_back;
    ++lea.counters.dirty_evictions;
  }
  account(&group, -1);
  lea.pool[record->extent] = SCHEME_NIL;
  lea.pool_live -= lea.pool[record->extent + 1u];
  *record = (group_record_t){.extent = SCHEME_NIL, .flags = GROUP_ON_FLASH};
  --lea.stats.groups_used;
  ++lea.stats.groups_on_flash;
  ++lea.stats.groups_evicted;
  ++lea.counters.evictions;
  lea.stats.evict_cycles += lea.env.cycles() - started;
  return true;
}

/* Group g, out of the pool, learned again from its TP's entries (`entries`: the group's LPNs). */
static void relearn(uint32_t g, const uint32_t *entries) {
  uint32_t started = lea.env.cycles();
  uint32_t base = g * lea.group_lpns;
  uint32_t mapped = 0;
  for (uint32_t offset = 0; offset < lpns_of_group(g); ++offset) {
    if (entries[offset] != VPN_UNMAPPED) {
      lea.xs[mapped] = base + offset;
      lea.ys[mapped] = entries[offset];
      ++mapped;
    }
  }
  --lea.stats.groups_on_flash;
  /* Nothing mapped: the group is as one never written. */
  lea.groups[g].flags = (uint8_t)((lea.groups[g].flags & GROUP_WANTED) |
                                  (mapped != 0 ? GROUP_ON_FLASH | GROUP_REFERENCED : 0u));
  lea.unaccounted = g;
  lea.relearning = true;
  lea.short_of_room = false;
  learn_points(g, mapped);
  lea.relearning = false;
  lea.unaccounted = SCHEME_NIL;
  if (lea.short_of_room) {
    /* No room for all of it: it stays out (its TP holds every mapping) until a later load. */
    group_record_t *record = &lea.groups[g];
    if (record->extent != SCHEME_NIL) {
      lea.pool[record->extent] = SCHEME_NIL;
      lea.pool_live -= lea.pool[record->extent + 1u];
      --lea.stats.groups_used;
    }
    uint8_t wanted = (uint8_t)(record->flags & GROUP_WANTED);
    *record = (group_record_t){.extent = SCHEME_NIL, .flags = (uint8_t)(wanted | GROUP_ON_FLASH)};
    ++lea.stats.groups_on_flash;
    lea.stats.relearn_cycles += lea.env.cycles() - started;
    return;
  }
  account_group(g, +1);
  ++lea.stats.groups_relearned;
  lea.stats.relearn_cycles += lea.env.cycles() - started;
}

/* A partial group g completed from its TP's entries: the LPNs none of its segments has are
 * learned (gamma 0: no CRB to merge) into one level under its others. */
static void complete_partial(uint32_t g, const uint32_t *entries) {
  uint32_t started = lea.env.cycles();
  uint32_t base = g * lea.group_lpns;
  account_group(g, -1);
  lea.unaccounted = g;
  lea.relearning = true;
  leaftl_group_t group = view(g);
  uint32_t mapped = 0;
  for (uint32_t offset = 0; offset < lpns_of_group(g); ++offset) {
    leaftl_segment_t segment;
    uint32_t searched;
    if (entries[offset] != VPN_UNMAPPED &&
        !leaftl_group_lookup(&group, offset, &segment, &searched)) {
      lea.xs[mapped] = base + offset;
      lea.ys[mapped] = entries[offset];
      ++mapped;
    }
  }
  uint32_t plr_started = lea.env.cycles();
  uint32_t count = plr_learn(lea.xs, lea.ys, mapped, 0u, lea.group_lpns, lea.learned);
  lea.stats.plr_cycles += lea.env.cycles() - plr_started;
  /* Without room it stays partial: a lookup its segments do not answer loads the TP again. */
  if (count == 0 || ensure_room(g, count, 0u)) {
    group = view(g); /* ensure_room may have moved or compacted it */
    if (group.level_count + 1u >= LEAFTL_MAX_LEVELS) {
      leaftl_group_compact(&group);
    }
    for (uint32_t s = 0; s < count; ++s) {
      lea.learned_segments[s] = leaftl_segment_of(&lea.learned[s], base);
    }
    leaftl_group_add_level_below(&group, lea.learned_segments, count);
    store(g, &group);
    lea.groups[g].flags &= (uint8_t)~GROUP_PARTIAL;
  }
  lea.relearning = false;
  lea.unaccounted = SCHEME_NIL;
  account_group(g, +1);
  ++lea.stats.groups_completed;
  lea.stats.relearn_cycles += lea.env.cycles() - started;
}

/* ---- lookups ---- */

typedef enum found_kind {
  FOUND_NONE,
  FOUND_EXACT,
  FOUND_APPROXIMATE,
  FOUND_ON_FLASH, /* its group is out of the pool: *vpn is the TP to load */
} found_kind_t;

/* What the table says of lpn: nothing, an exact VPN, a prediction (*vpn), or that its group
 * must come back first. A host lookup (`host`) counts its cycles and the levels it searched. */
static found_kind_t find(uint32_t lpn, uint32_t *vpn, bool host) {
  uint32_t item = batch_find(lpn);
  if (item != SCHEME_NIL) {
    *vpn = lea.batch_vpns[item];
    return FOUND_EXACT;
  }
  uint32_t g = lpn / lea.group_lpns;
  if (on_flash(g)) {
    *vpn = tp_of_group(g);
    return FOUND_ON_FLASH;
  }
  if (lea.groups[g].extent == SCHEME_NIL) {
    *vpn = VPN_UNMAPPED;
    return FOUND_NONE;
  }
  lea.groups[g].flags |= GROUP_REFERENCED;
  uint32_t started = lea.env.cycles();
  leaftl_group_t group = view(g);
  leaftl_segment_t segment;
  uint32_t searched;
  uint32_t offset = lpn - g * lea.group_lpns;
  bool hit = leaftl_group_lookup(&group, offset, &segment, &searched);
  *vpn = hit ? leaftl_segment_predict(&segment, offset) : VPN_UNMAPPED;
  if (host) {
    lea.stats.lookup_cycles += lea.env.cycles() - started;
    ++lea.stats.level_lookups;
    metrics_histogram_add(lea.stats.levels_searched, LEAFTL_LEVEL_BUCKETS, 1, searched);
  }
  if (!hit) {
    if (lea.groups[g].flags & GROUP_PARTIAL) {
      *vpn = tp_of_group(g);
      return FOUND_ON_FLASH;
    }
    return FOUND_NONE;
  }
  if (leaftl_segment_accurate(&segment)) {
    return FOUND_EXACT;
  }
  /* Within gamma of a page that exists, a prediction may fall off either end of the device. */
  if (*vpn >= lea.env.vpn_count) {
    *vpn = *vpn >= 0x80000000u ? 0u : lea.env.vpn_count - 1u;
  }
  return FOUND_APPROXIMATE;
}

/* The position of `vpn` in the probing order around `predicted`: predicted, predicted + 1 ..
 * + gamma, predicted - 1 .. - gamma; 2 gamma + 1 when outside the window. */
static uint32_t probe_position(uint32_t predicted, uint32_t vpn) {
  if (vpn >= predicted && vpn - predicted <= lea.gamma) {
    return vpn - predicted;
  }
  if (vpn < predicted && predicted - vpn <= lea.gamma) {
    return lea.gamma + (predicted - vpn);
  }
  return 2u * lea.gamma + 1u;
}

static uint32_t probe_vpn(uint32_t predicted, uint32_t position) {
  return position <= lea.gamma ? predicted + position : predicted - (position - lea.gamma);
}

/* The first page from `position` on in the probing order around `predicted` (below) that can be
 * read, or VPN_UNMAPPED: a prediction may name a page of a stripe that has no blocks now. */
static uint32_t first_readable(uint32_t predicted, uint32_t position) {
  for (; position <= 2u * lea.gamma; ++position) {
    uint32_t vpn = probe_vpn(predicted, position);
    if (vpn < lea.env.vpn_count && lea.env.page_readable(vpn)) {
      return vpn;
    }
  }
  return VPN_UNMAPPED;
}

static void table_broken(uint32_t lpn, uint32_t predicted) {
  char message[96];
  fw_snprintf(message, sizeof message, "LPN %u is on no page within gamma %u of VPN %#x",
              (unsigned)lpn, (unsigned)lea.gamma, (unsigned)predicted);
  lea.env.fault(message);
}

/* An approximate answer for lpn: the page to read first, around the prediction. */
static map_answer_t predict(uint32_t lpn, uint32_t predicted, uint32_t *value) {
  *value = first_readable(predicted, 0);
  if (*value == VPN_UNMAPPED) {
    table_broken(lpn, predicted);
    return MAP_MISS;
  }
  return MAP_PREDICT;
}

static map_answer_t leaftl_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  (void)request;
  ++lea.counters.lookups;
  switch (find(lpn, value, true)) {
  case FOUND_APPROXIMATE:
    ++lea.counters.predictions;
    return predict(lpn, *value, value);
  case FOUND_ON_FLASH:
    ++lea.counters.misses;
    return MAP_MISS;
  default:
    ++lea.counters.hits;
    return MAP_HIT;
  }
}

/* Whether lpn, mapped at vpn, starts an SFTL run: it is the first of its frame, or the LPN before
 * it is not on the VPN before (through an approximate segment, as predicted). */
static bool sftl_run_head(uint32_t lpn, uint32_t vpn, uint32_t before_vpn) {
  return vpn != VPN_UNMAPPED &&
         (lpn % SFTL_FRAME_LPNS == 0 || before_vpn == VPN_UNMAPPED || before_vpn + 1u != vpn);
}

/* SFTL's run heads and frames as lpn moves from old to vpn: only lpn and lpn + 1 may change. */
static void account_sftl(uint32_t lpn, uint32_t old, uint32_t vpn) {
  uint32_t before = VPN_UNMAPPED, after = VPN_UNMAPPED;
  if (lpn != 0) {
    find(lpn - 1u, &before, false);
  }
  if (lpn + 1u < lea.env.lpn_count) {
    find(lpn + 1u, &after, false);
    lea.stats.sftl_run_heads -= sftl_run_head(lpn + 1u, after, old);
    lea.stats.sftl_run_heads += sftl_run_head(lpn + 1u, after, vpn);
  }
  lea.stats.sftl_run_heads -= sftl_run_head(lpn, old, before);
  lea.stats.sftl_run_heads += sftl_run_head(lpn, vpn, before);
  uint16_t *frame = &lea.frame_mapped[lpn / SFTL_FRAME_LPNS];
  if (old == VPN_UNMAPPED && vpn != VPN_UNMAPPED && (*frame)++ == 0) {
    ++lea.stats.sftl_frames_used;
  } else if (old != VPN_UNMAPPED && vpn == VPN_UNMAPPED && --*frame == 0) {
    --lea.stats.sftl_frames_used;
  }
}

static map_answer_t leaftl_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  uint32_t item = batch_find(lpn);
  uint32_t old = *value;
  if (item != SCHEME_NIL) {
    old = lea.batch_vpns[item];
    lea.batch_vpns[item] = vpn;
  } else {
    if (old == MAP_OLD_UNKNOWN) {
      switch (find(lpn, &old, false)) {
      case FOUND_APPROXIMATE:
        ++lea.stats.update_predictions;
        return predict(lpn, old, value); /* the FTL reads its OOB and comes back */
      case FOUND_ON_FLASH: /* the page replaced is named in the TP */
        ++lea.counters.update_misses;
        *value = old;
        return MAP_MISS;
      default:
        break;
      }
    }
    if (lea.batch_count == lea.batch_capacity) {
      learn_batch();
      if (lea.batch_count == lea.batch_capacity) {
        return MAP_NO_ROOM; /* not one group learned: the batch stays full */
      }
    }
    item = lea.batch_count++;
    lea.batch_lpns[item] = lpn;
    lea.batch_vpns[item] = vpn;
    scheme_hash_insert(&lea.batch_hash, item);
  }
  ++lea.counters.updates;
  if (lea.frame_mapped != 0) {
    account_sftl(lpn, old, vpn);
  }
  if (old == VPN_UNMAPPED && vpn != VPN_UNMAPPED) {
    ++lea.stats.mapped_lpns;
  } else if (old != VPN_UNMAPPED && vpn == VPN_UNMAPPED) {
    --lea.stats.mapped_lpns;
  }
  if (lea.compaction_writes != 0 && ++lea.updates_since_compaction >= lea.compaction_writes) {
    lea.updates_since_compaction = 0;
    learn_batch();
    compact_all();
  }
  *value = old;
  return MAP_HIT;
}

/* What the OOB of `read` (NULL: unreadable) says of page `vpn` holding lpn: 1 it does, 0 it does
 * not, -1 unknown. */
static int32_t oob_says(const uint32_t *oob, uint32_t read, uint32_t vpn, uint32_t lpn) {
  if (oob == 0 || (vpn < read && read - vpn > lea.gamma) || (vpn > read && vpn - read > lea.gamma)) {
    return -1;
  }
  uint32_t entry = oob[OOB_SCHEME_FIRST_WORD + (vpn + lea.gamma - read)];
  if (entry == LEAFTL_UNKNOWN) {
    return -1;
  }
  return entry == lpn && lea.env.page_valid(vpn) ? 1 : 0;
}

static map_answer_t leaftl_mispredicted(uint32_t lpn, uint32_t vpn_read, const uint32_t *oob,
                                        bool for_update, uint32_t *value) {
  /* Host lookups' wrong predictions count as the scheme's; updates' as their own. */
  uint64_t *wrong = for_update ? &lea.stats.update_mispredictions : &lea.counters.mispredictions;
  uint32_t predicted;
  found_kind_t kind = find(lpn, &predicted, false);
  if (kind == FOUND_ON_FLASH) {
    return MAP_MISS; /* its group left since: the lookup loads it */
  }
  if (kind != FOUND_APPROXIMATE) {
    *value = predicted; /* rewritten or trimmed since: what the table says now is exact */
    return MAP_HIT;
  }
  uint32_t read_position = probe_position(predicted, vpn_read);
  if (read_position > 2u * lea.gamma) {
    return predict(lpn, predicted, value); /* relearned elsewhere since the read was issued */
  }
  for (uint32_t position = 0; position <= 2u * lea.gamma; ++position) {
    uint32_t vpn = probe_vpn(predicted, position);
    if (oob_says(oob, vpn_read, vpn, lpn) == 1) {
      if (vpn != predicted) {
        *wrong += vpn_read == predicted;
        ++lea.stats.oob_resolved;
      }
      *value = vpn;
      return MAP_HIT;
    }
  }
  *wrong += vpn_read == predicted;
  for (uint32_t position = read_position + 1u; position <= 2u * lea.gamma; ++position) {
    uint32_t vpn = first_readable(predicted, position);
    if (vpn == VPN_UNMAPPED) {
      break;
    }
    position = probe_position(predicted, vpn);
    if (oob_says(oob, vpn_read, vpn, lpn) != 0) {
      ++lea.stats.oob_probes;
      *value = vpn;
      return MAP_PREDICT;
    }
  }
  table_broken(lpn, predicted);
  return MAP_MISS;
}

/* ---- the OOB of a program ---- */

/* The tail a program continues: never across a stripe's start, where the pages before belong to
 * another stripe that may have been erased and written again since its tail was kept. */
static program_tail_t *tail_before(uint32_t first_vpn) {
  if (first_vpn % lea.env.stripe_pages == 0) {
    return 0;
  }
  for (uint32_t t = 0; t < LEAFTL_TAILS; ++t) {
    if (lea.tails[t].next_vpn == first_vpn) {
      return &lea.tails[t];
    }
  }
  return 0;
}

static void leaftl_program_oob(uint32_t first_vpn, uint32_t count, uint32_t *oob,
                               uint32_t oob_words) {
  if (lea.gamma == 0) {
    return; /* accurate segments only: no prediction to resolve */
  }
  program_tail_t *tail = tail_before(first_vpn);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t *entries = &oob[i * oob_words + OOB_SCHEME_FIRST_WORD];
    for (uint32_t j = 0; j <= 2u * lea.gamma; ++j) {
      int32_t neighbour = (int32_t)i + (int32_t)j - (int32_t)lea.gamma; /* in this program */
      if (neighbour >= 0 && neighbour < (int32_t)count) {
        entries[j] = oob[(uint32_t)neighbour * oob_words + OOB_WORD_OWNER];
      } else if (neighbour < 0 && tail != 0 && (uint32_t)(-neighbour) <= lea.gamma) {
        entries[j] = tail->lpns[lea.gamma - (uint32_t)(-neighbour)];
      } else {
        entries[j] = LEAFTL_UNKNOWN;
      }
    }
  }
  /* This program's tail replaces the one it continues, else the least recently used. */
  if (tail == 0) {
    tail = &lea.tails[0];
    for (uint32_t t = 1; t < LEAFTL_TAILS; ++t) {
      if (lea.tails[t].used < tail->used) {
        tail = &lea.tails[t];
      }
    }
    for (uint32_t k = 0; k < lea.gamma; ++k) {
      tail->lpns[k] = LEAFTL_UNKNOWN;
    }
  }
  uint32_t shift = count < lea.gamma ? count : lea.gamma;
  memmove(tail->lpns, tail->lpns + shift, (lea.gamma - shift) * 4u);
  for (uint32_t k = 0; k < shift; ++k) {
    tail->lpns[lea.gamma - shift + k] = oob[(count - shift + k) * oob_words + OOB_WORD_OWNER];
  }
  tail->next_vpn = first_vpn + count;
  tail->used = ++lea.tail_clock;
}

/* ---- the rest of the interface ---- */

static void leaftl_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                             const map_request_t *const *requests, uint32_t wanted_count) {
  (void)requests;
  /* The last load's waiters have asked again since: its groups may leave. */
  uint32_t per_tp = lea.env.entries_per_tp / lea.group_lpns;
  if (lea.loaded_tp != SCHEME_NIL) {
    for (uint32_t g = lea.loaded_tp * per_tp; g < (lea.loaded_tp + 1u) * per_tp && g < lea.group_count;
         ++g) {
      lea.groups[g].flags &= (uint8_t)~GROUP_WANTED;
    }
  }
  lea.loaded_tp = tp;
  uint32_t first_lpn = tp * lea.env.entries_per_tp;
  for (uint32_t i = 0; i < wanted_count; ++i) {
    lea.groups[wanted[i] / lea.group_lpns].flags |= GROUP_WANTED;
  }
  for (uint32_t i = 0; i < wanted_count; ++i) {
    uint32_t g = wanted[i] / lea.group_lpns;
    const uint32_t *group_entries = entries + (g * lea.group_lpns - first_lpn);
    if (on_flash(g)) {
      relearn(g, group_entries);
    } else if (lea.groups[g].flags & GROUP_PARTIAL) {
      complete_partial(g, group_entries);
    }
  }
  refresh_gauges();
}

/* Learning the batch may send dirty groups out of the pool, each while write_back_room allows;
 * it stops for room with the rest still batched. The groups' segments stay where they are. */
static bool leaftl_flush(void) {
  lea.room = scheme_write_back_room;
  learn_batch();
  lea.room = scheme_eviction_room;
  refresh_gauges();
  return lea.batch_count == 0;
}

static const map_counters_t *leaftl_counters(void) { return &lea.counters; }

static void register_metrics(void) {
  leaftl_stats_t *s = &lea.stats;
  metrics_gauge("leaftl.segments", &s->segments);
  metrics_gauge("leaftl.approximate_segments", &s->approximate_segments);
  metrics_gauge("leaftl.single_point_segments", &s->single_point_segments);
  metrics_gauge("leaftl.crb_bytes", &s->crb_bytes);
  metrics_gauge("leaftl.groups_used", &s->groups_used);
  metrics_gauge("leaftl.bytes_paper", &s->bytes_paper);
  metrics_gauge("leaftl.bytes_ours", &s->bytes_ours);
  metrics_gauge("leaftl.bytes_index", &s->bytes_index);
  metrics_gauge("leaftl.bytes_dftl", &s->bytes_dftl);
  if (lea.frame_mapped != 0) {
    metrics_gauge("leaftl.bytes_sftl", &s->bytes_sftl);
    metrics_gauge("leaftl.sftl_run_heads", &s->sftl_run_heads);
  }
  metrics_gauge("leaftl.mapped_lpns", &s->mapped_lpns);
  metrics_counter("leaftl.batches_learned", &s->batches_learned);
  metrics_counter("leaftl.lpns_learned", &s->lpns_learned);
  metrics_counter("leaftl.learn_cycles", &s->learn_cycles);
  metrics_counter("leaftl.plr_cycles", &s->plr_cycles);
  metrics_counter("leaftl.lookup_cycles", &s->lookup_cycles);
  metrics_counter("leaftl.level_lookups", &s->level_lookups);
  metrics_histogram("leaftl.levels_searched", s->levels_searched, LEAFTL_LEVEL_BUCKETS, 1);
  metrics_counter("leaftl.compactions", &s->compactions);
  metrics_counter("leaftl.compaction_cycles", &s->compaction_cycles);
  metrics_counter("leaftl.oob_resolved", &s->oob_resolved);
  metrics_counter("leaftl.oob_probes", &s->oob_probes);
  metrics_counter("leaftl.update_predictions", &s->update_predictions);
  metrics_counter("leaftl.update_mispredictions", &s->update_mispredictions);
  metrics_counter("leaftl.pool_slides", &s->pool_slides);
  metrics_counter("leaftl.compactions_for_room", &s->compactions_for_room);
  metrics_gauge("leaftl.groups_on_flash", &s->groups_on_flash);
  metrics_counter("leaftl.groups_evicted", &s->groups_evicted);
  metrics_counter("leaftl.groups_written_back", &s->groups_written_back);
  metrics_counter("leaftl.evict_cycles", &s->evict_cycles);
  metrics_counter("leaftl.groups_relearned", &s->groups_relearned);
  metrics_counter("leaftl.groups_partial", &s->groups_partial);
  metrics_counter("leaftl.groups_completed", &s->groups_completed);
  metrics_counter("leaftl.relearn_cycles", &s->relearn_cycles);
}

static bool leaftl_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  const boot_config_t *boot = env->boot;
  memset(&lea, 0, sizeof lea);
  lea.env = *env;
  lea.room = scheme_eviction_room;
  lea.gamma = boot->ftl_leaftl_gamma;
  lea.group_lpns = boot->ftl_leaftl_group_lpns;
  lea.compaction_writes = boot->ftl_leaftl_compaction_writes;
  lea.batch_capacity = boot->ftl_leaftl_batch_pages != 0 ? boot->ftl_leaftl_batch_pages
                                                         : boot->ftl_write_buffer_pages;
  if (lea.group_lpns == 0 || lea.group_lpns > LEAFTL_GROUP_LPNS ||
      (lea.group_lpns & (lea.group_lpns - 1u)) != 0 || env->entries_per_tp % lea.group_lpns != 0 ||
      env->oob_words < OOB_SCHEME_FIRST_WORD + 2u * lea.gamma + 1u) {
    return false; /* the platform checks these first, with a message */
  }
  lea.group_count = (env->lpn_count + lea.group_lpns - 1u) / lea.group_lpns;
  lea.batch_buckets = scheme_pow2_floor(lea.batch_capacity) < 2u
                          ? 2u
                          : scheme_pow2_floor(lea.batch_capacity);
  scheme_budget_t budget = {arena, budget_bytes, 0};
  if (boot->ftl_leaftl_index_overhead != 0) {
    lea.avl_node_bytes = LEAFTL_AVL_NODE_BYTES;
    uint32_t groups_per_tp = env->entries_per_tp / lea.group_lpns;
    lea.hash_bytes = (LEAFTL_HASH_BYTES_PER_TP + groups_per_tp - 1u) / groups_per_tp;
    lea.groups = arena_alloc(arena, "map.leaftl.groups", lea.group_count * sizeof(group_record_t));
  } else {
    lea.groups =
        scheme_alloc(&budget, "map.leaftl.groups", lea.group_count * sizeof(group_record_t));
  }
  lea.batch_lpns = scheme_alloc(&budget, "map.leaftl.batch_lpns", lea.batch_capacity * 4u);
  lea.batch_vpns = scheme_alloc(&budget, "map.leaftl.batch_vpns", lea.batch_capacity * 4u);
  lea.batch_next = scheme_alloc(&budget, "map.leaftl.batch_next", lea.batch_capacity * 4u);
  lea.batch_heads = scheme_alloc(&budget, "map.leaftl.batch_buckets", lea.batch_buckets * 4u);
  lea.xs = scheme_alloc(&budget, "map.leaftl.learn_x", lea.group_lpns * 4u);
  lea.ys = scheme_alloc(&budget, "map.leaftl.learn_y", lea.group_lpns * 4u);
  lea.learned = scheme_alloc(&budget, "map.leaftl.learned",
                             lea.group_lpns * (uint32_t)sizeof(plr_segment_t));
  lea.offsets = scheme_alloc(&budget, "map.leaftl.learn_offsets", lea.group_lpns);
  lea.patches = scheme_alloc(&budget, "map.leaftl.patches", lea.group_lpns * sizeof(map_patch_t));
  lea.learned_segments = scheme_alloc(&budget, "map.leaftl.learned_segments",
                                      lea.group_lpns * (uint32_t)sizeof(leaftl_segment_t));
  uint32_t *tail_lpns = lea.gamma == 0 ? 0
                                       : scheme_alloc(&budget, "map.leaftl.tails",
                                                      LEAFTL_TAILS * lea.gamma * 4u);
  if (boot->ftl_leaftl_account_sftl != 0) {
    uint32_t frames = (env->lpn_count + SFTL_FRAME_LPNS - 1u) / SFTL_FRAME_LPNS;
    lea.frame_mapped = scheme_alloc(&budget, "map.leaftl.sftl_frames", frames * 2u);
    if (lea.frame_mapped == 0) {
      return false;
    }
    memset(lea.frame_mapped, 0, frames * 2u);
  }
  if (!lea.groups || !lea.batch_lpns || !lea.batch_vpns || !lea.batch_next || !lea.batch_heads ||
      !lea.xs || !lea.ys || !lea.learned || !lea.offsets || !lea.patches || !lea.learned_segments ||
      (lea.gamma != 0 && !tail_lpns)) {
    return false;
  }
  /* SFTL's frame counts are for the comparison, not LeaFTL's: out of its own bytes. */
  lea.fixed_bytes = budget.used - (lea.frame_mapped != 0
                                       ? scheme_aligned(((env->lpn_count + SFTL_FRAME_LPNS - 1u) /
                                                         SFTL_FRAME_LPNS) * 2u)
                                       : 0u);
  /* The pool: the rest of the budget, as far as the arena has it. */
  uint32_t left = budget_bytes - budget.used;
  uint32_t free_bytes = arena_free_bytes(arena);
  uint32_t pool_bytes = (left < free_bytes ? left : free_bytes) & ~(ARENA_ALIGN - 1u);
  if (pool_bytes >= ARENA_ALIGN) {
    pool_bytes -= ARENA_ALIGN; /* the arena's own alignment of the region */
  }
  lea.pool_words = pool_bytes / 4u;
  lea.pool = scheme_alloc(&budget, "map.leaftl.pool", lea.pool_words * 4u);
  if (lea.pool == 0 || lea.pool_words < extent_words(LEAFTL_GROW_MIN, 16u)) {
    return false;
  }
  for (uint32_t g = 0; g < lea.group_count; ++g) {
    lea.groups[g] = (group_record_t){.extent = SCHEME_NIL};
  }
  for (uint32_t t = 0; t < LEAFTL_TAILS; ++t) {
    lea.tails[t].lpns = tail_lpns + t * lea.gamma;
  }
  batch_clear();
  lea.loaded_tp = SCHEME_NIL;
  lea.unaccounted = SCHEME_NIL;
  refresh_gauges();
  register_metrics();
  return true;
}

const map_scheme_t map_scheme_leaftl = {
    .name = "leaftl",
    .init = leaftl_init,
    .lookup = leaftl_lookup,
    .update = leaftl_update,
    .tp_loaded = leaftl_tp_loaded,
    .mispredicted = leaftl_mispredicted,
    .programmed = 0,
    .program_oob = leaftl_program_oob,
    .flush = leaftl_flush,
    .counters = leaftl_counters,
};
