/* The RL grouping policy's parts that are plain functions (ftl/fsp/rl.c describes the policy):
 * a buffered page's state, and the group module's placement. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_RL_H
#define SSDVP_FIRMWARE_FTL_FSP_RL_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/fsp/access_history.h"
#include "ftl/write_buffer.h"

/* The state of a buffered page (ftl/fsp/q_table.h): long-term read bin (bits 5-6), read in this
 * episode (bit 4), small request (bit 3; a rewrite keeps its writer's, from the history), partial
 * data (bit 2), the page type its LPN was last written to (bits 0-1). */
static inline uint32_t rl_state(const access_history_t *history, const wb_slot_t *entry) {
  /* One read of the history's byte (in DRAM: each access waits its latency). */
  uint32_t byte = history->entries[entry->lpn];
  uint32_t bin = access_history_bin(byte & 7u);
  bool small_request = (entry->flags & WB_ENTRY_REWRITE) != 0 ? (byte >> 5 & 1u) != 0
                                                               : entry->request_pages <= 1u;
  return bin << 5 | ((byte & ACCESS_HISTORY_SHORT_TERM) != 0 ? 1u : 0u) << 4 |
         (small_request ? 1u : 0u) << 3 | ((entry->flags & WB_ENTRY_PARTIAL) != 0 ? 1u : 0u) << 2 |
         (byte >> 3 & 3u);
}

/* The group module: places `found` candidates (oldest first, their decided page types in
 * `actions`) on a wordline of `count` positions (count <= found; position p has page type
 * p % 4): position[p] = the candidate there. Candidates, oldest first, take the first free
 * position of their type; an empty position takes the oldest candidate left whose type
 * neighbours its own; what is still empty, the oldest left. taken[found] is scratch. */
void rl_group(const uint8_t *actions, uint32_t found, uint32_t count, uint8_t *taken,
              uint32_t *position);

#endif
