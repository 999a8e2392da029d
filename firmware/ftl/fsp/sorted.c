/* LeaFTL's grouping (Sun et al., ASPLOS 2023, section 3.3): the buffered pages go to flash in
 * ascending LPN order, so consecutive LPNs get consecutive VPNs and learn as one segment. The
 * paper sorts a whole 8 MB buffer and writes it at once; this buffer programs a wordline at a
 * time, so the policy sweeps: each wordline takes the smallest eligible LPNs at or above the
 * cursor (where the last one ended), and the sweep starts again from LPN 0 when none is left
 * above it (an elevator, so that low LPNs written again and again cannot starve the high ones).
 * Each sweep is one ascending run in LPN and in VPN, like one sorted buffer. */
#include "ftl/fsp/grouping.h"

static uint32_t sweep_cursor;

/* Inserts `slot` into `picked` (ascending LPN, at most `count`). */
static uint32_t keep_smallest(const write_buffer_t *wb, uint32_t *picked, uint32_t kept,
                              uint32_t count, uint32_t slot) {
  uint32_t lpn = wb->slots[slot].lpn;
  if (kept == count && lpn >= wb->slots[picked[kept - 1u]].lpn) {
    return kept;
  }
  uint32_t i = kept < count ? kept++ : kept - 1u;
  for (; i > 0 && wb->slots[picked[i - 1u]].lpn > lpn; --i) {
    picked[i] = picked[i - 1u];
  }
  picked[i] = slot;
  return kept;
}

/* The `count` smallest eligible LPNs in [from, to). */
static uint32_t smallest_in(const write_buffer_t *wb, uint32_t from, uint32_t to, uint32_t count,
                            uint32_t *picked) {
  uint32_t kept = 0;
  for (const list_node_t *node = wb->dirty_lru.next; node != &wb->dirty_lru; node = node->next) {
    uint32_t slot = (uint32_t)(LIST_ENTRY(node, wb_slot_t, link) - wb->slots);
    uint32_t lpn = wb->slots[slot].lpn;
    if (lpn >= from && lpn < to && wb_eligible(wb, slot)) {
      kept = keep_smallest(wb, picked, kept, count, slot);
    }
  }
  return kept;
}

static uint32_t sorted_select(const write_buffer_t *wb, uint32_t count,
                              grouping_choice_t *choice) {
  uint32_t picked = smallest_in(wb, sweep_cursor, 0xFFFFFFFFu, count, choice->slots);
  if (picked < count && sweep_cursor != 0) {
    /* The sweep is done: the rest of the wordline starts the next one from LPN 0. */
    picked += smallest_in(wb, 0, sweep_cursor, count - picked, &choice->slots[picked]);
  }
  choice->positions = picked;
  return picked;
}

static void sorted_committed(const write_buffer_t *wb, const grouping_choice_t *choice) {
  uint32_t last = WB_NONE;
  for (uint32_t i = 0; i < choice->positions; ++i) {
    if (choice->slots[i] != WB_NONE) {
      last = choice->slots[i];
    }
  }
  if (last != WB_NONE) {
    sweep_cursor = wb->slots[last].lpn + 1u;
  }
}

static bool sorted_init(const policy_env_t *env) {
  (void)env;
  sweep_cursor = 0;
  return true;
}

const grouping_policy_t grouping_policy_sorted = {"sorted", sorted_init, 0, sorted_select,
                                                  sorted_committed, 0};
