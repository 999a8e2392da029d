/* The baseline grouping: the least recently written eligible slots, oldest first, to the host
 * stream. */
#include "ftl/fsp/grouping.h"

static uint32_t baseline_select(const write_buffer_t *wb, uint32_t count,
                                grouping_choice_t *choice) {
  uint32_t picked = 0;
  for (const list_node_t *node = wb->dirty_lru.prev; node != &wb->dirty_lru && picked < count;
       node = node->prev) {
    uint32_t slot = (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
    if (wb_eligible(wb, slot)) {
      choice->slots[picked++] = slot;
    }
  }
  choice->positions = picked;
  return picked;
}

const grouping_policy_t grouping_policy_baseline = {"baseline", 0, 0, baseline_select, 0, 0};
