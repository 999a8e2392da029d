/* Garbage collection and static wear levelling: one job at a time beside the host's requests.
 *
 * A job starts when one is due (gc_consider): the rescue of a retired member's data first (GC
 * moves the valid pages off a block whose program failed, and never erases it); static wear
 * levelling next, once the erase-count spread passes ftl.wl.static_spread (the stripe with the
 * least-worn member moves to the most-worn free groups); then foreground GC while host data
 * waits for a stripe or fewer than ftl.gc.foreground_free stripes' worth of groups are free;
 * then background GC while the host is idle and fewer than ftl.gc.background_free are. Victims
 * are stripes, chosen by the victim policy (ftl/gc/victim.h). The valid pages of data victims
 * are read (their OOB names the LPN), programmed a whole wordline at a time to the GC stream's
 * stripe, and their mappings updated through the scheme; a wordline takes pages from as many
 * victims as it needs, and a job ending with a partial one parks it for the next job rather than
 * pad it. Translation victims hand their current TPs to the TP store to be rewritten. A victim's
 * members are erased together once every page it had is moved and mapped. */
#ifndef SSDVP_FIRMWARE_FTL_GC_H
#define SSDVP_FIRMWARE_FTL_GC_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/flash.h"
#include "ftl/gc/victim.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/map/tp_store.h"
#include "lib/arena.h"

/* What GC works with. Flash records come through the FTL's take_record, which keeps a reserve
 * for the TP store. */
typedef struct gc_env {
  const boot_config_t *boot;
  const map_scheme_t *scheme;
  const victim_policy_t *victim_policy;
  flash_layer_t *flash;
  block_manager_t *blocks;
  tp_store_t *tp_store;
  const gtd_t *gtd;
  uint32_t tp_count;
  uint8_t *filler_page; /* a page of padding */
  flash_op_t *(*take_record)(flash_done_fn done, void *owner);
  bool (*record_available)(void);
  /* The same for a program: a record of a wordline (ftl.flash_program_ops). */
  flash_op_t *(*take_program_record)(flash_done_fn done, void *owner);
  bool (*program_record_available)(void);
  bool (*host_idle)(void); /* no host work waits or runs: background GC may start */
  /* Whether the groups not retired as bad hold more pages than can be valid beyond the GC
   * reserve and the open stripes (so while host data waits some stripe has a page to free);
   * when not, *problem says why, naming the figures. */
  bool (*spare_suffices)(const char **problem);
} gc_env_t;

/* Takes the batch buffers from the arena; false when they do not fit. */
bool gc_init(const gc_env_t *env, arena_t *arena);

/* Registers GC's counters as metrics (lib/metrics.h). */
void gc_register_metrics(void);

/* Starts a job when one is due and none runs. host_blocked: host data waits for a stripe. */
void gc_consider(bool host_blocked);

/* No job runs (a parked partial wordline may wait for the next one). */
bool gc_idle(void);

/* A victim set of several stripes is being merged and host data waits for it to end (2R's
 * synchronous multi-block merge; ftl.gc.async_merge lets host data go on beside it). */
bool gc_holds_host(void);

#endif
