/* GC victim policies, chosen by the boot config's ftl_gc_victim through the registry
 * (ftl/registry.h). A policy looks at the block manager (and its own state: ftl/policy.h) and
 * names a set of stripes to collect next and the stream their valid pages go to; GC moves their
 * valid pages, in the set's order, and erases their members. */
#ifndef SSDVP_FIRMWARE_FTL_GC_VICTIM_H
#define SSDVP_FIRMWARE_FTL_GC_VICTIM_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/block.h"
#include "ftl/policy.h"

/* Stripes one victim set holds at most. */
#define VICTIM_MAX_SET 32u

typedef struct victim_choice {
  uint32_t stripes[VICTIM_MAX_SET]; /* collectable stripes (block_collectable), in order */
  uint32_t count;
  /* Where their valid pages go (block_stream_t). GC sets it to its relocation stream (its own,
   * or the host's with ftl.gc.one_region) before asking; a policy may name another. */
  uint32_t stream;
  /* tp_count 0: GC moves the valid pages victim by victim, in VPN order. Otherwise in LPN order
   * (LearnedFTL's GC-time sorting, section 3.3.3): GC reads TPs [first_tp, first_tp + tp_count)
   * one at a time, moves the pages their entries place in the set, tells the scheme
   * (map_scheme_t.relocated) once each TP's are mapped, and last sweeps the set in VPN order
   * for pages no TP named (mappings newer than their TP). GC sets 0 before asking. */
  uint32_t first_tp;
  uint32_t tp_count;
} victim_choice_t;

typedef struct victim_policy {
  const char *name;
  /* Takes its memory and options, may add streams; NULL for a stateless policy. False when it
   * does not fit. */
  bool (*init)(const policy_env_t *env);
  const policy_listener_t *listener; /* the events it hears, or NULL */
  /* Fills `choice` with at least one victim; false when there is none. GC may ask again before
   * it takes the set's first victim (the pools changed): a set is used once its first is taken. */
  bool (*select)(const block_manager_t *blocks, victim_choice_t *choice);
  /* Whether a collection is wanted whatever the pools say (LearnedFTL's per-group block
   * limit); GC then asks select. NULL: only when the pools are low. */
  bool (*due)(const block_manager_t *blocks);
  /* Its sets may ask for LPN order (victim_choice_t.tp_count): GC keeps a TP's copy for it. */
  bool orders_by_lpn;
} victim_policy_t;

extern const victim_policy_t victim_policy_greedy;
extern const victim_policy_t victim_policy_2r_greedy;
extern const victim_policy_t victim_policy_2r_fifo;
extern const victim_policy_t victim_policy_cost_benefit;
extern const victim_policy_t victim_policy_gtd_group;

/* Static wear levelling: the collectable stripe with the least-worn member, the coldest data,
 * to migrate when the erase-count spread passes the scenario's threshold. BLOCK_NONE when none
 * is. */
uint32_t victim_coldest(const block_manager_t *blocks);

#endif
