/* The baseline grouping: the least recently written eligible slots, oldest first. */
#include "boot_config.h"
#include "ftl/fsp/grouping.h"

static uint32_t baseline_select(const write_buffer_t *wb, uint32_t count, uint32_t *slots) {
  uint32_t picked = 0;
  for (const list_node_t *node = wb->dirty_lru.prev; node != &wb->dirty_lru && picked < count;
       node = node->prev) {
    uint32_t slot = (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
    if (wb_eligible(wb, slot)) {
      slots[picked++] = slot;
    }
  }
  return picked;
}

const grouping_policy_t grouping_policy_baseline = {"baseline", baseline_select};

const grouping_policy_t *grouping_policy_for(uint32_t boot_fsp_policy) {
  static const grouping_policy_t *const policies[BOOT_FSP_COUNT] = {&grouping_policy_baseline};
  return boot_fsp_policy < BOOT_FSP_COUNT ? policies[boot_fsp_policy] : 0;
}
