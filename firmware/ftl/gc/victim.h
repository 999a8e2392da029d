/* GC victim policies, chosen by the boot config's ftl_gc_victim (enum boot_gc_victim). A policy
 * looks at the block manager and names the stripe to collect next; GC then moves its valid
 * pages and erases its members. */
#ifndef SSDVP_FIRMWARE_FTL_GC_VICTIM_H
#define SSDVP_FIRMWARE_FTL_GC_VICTIM_H

#include <stdint.h>

#include "ftl/block.h"

typedef struct victim_policy {
  const char *name;
  /* A collectable stripe (block_collectable) to collect, or BLOCK_NONE when there is none. */
  uint32_t (*select)(const block_manager_t *blocks);
} victim_policy_t;

extern const victim_policy_t victim_policy_greedy;

/* The policy a boot_gc_victim value names (NULL when out of range). */
const victim_policy_t *victim_policy_for(uint32_t boot_gc_victim);

/* Static wear levelling: the collectable stripe with the least-worn member, the coldest data,
 * to migrate when the erase-count spread passes the scenario's threshold. BLOCK_NONE when none
 * is. */
uint32_t victim_coldest(const block_manager_t *blocks);

#endif
