/* Distance grouping (Wu et al., the QLC scheduling paper's "Distance" counterpart): a wordline
 * of pages whose LPNs lie far apart, so that later reads of neighbouring data spread over
 * wordlines and dies. The oldest candidate goes first; each later candidate joins, oldest
 * first, when its LPN is more than half the buffer's pages away from every page already in;
 * what is left takes the oldest of the rest. Page types follow the order of joining. With
 * fewer candidates than positions it is the baseline's choice. */
#include <stddef.h>

#include "ftl/fsp/grouping.h"
#include "ftl/fsp/window.h"

static struct {
  grouping_window_t window;
  uint32_t threshold; /* LPN distance: half the buffer's pages */
} distance;

static bool far_from_all(const write_buffer_t *wb, const grouping_choice_t *choice,
                         uint32_t placed, uint32_t lpn) {
  for (uint32_t i = 0; i < placed; ++i) {
    uint32_t other = wb->slots[choice->slots[i]].lpn;
    uint32_t gap = lpn > other ? lpn - other : other - lpn;
    if (gap <= distance.threshold) {
      return false;
    }
  }
  return true;
}

static uint32_t distance_select(const write_buffer_t *wb, uint32_t count,
                                grouping_choice_t *choice) {
  grouping_window_t *window = &distance.window;
  uint32_t found;
  if (!grouping_window_start(window, wb, count, choice, &found)) {
    return choice->positions;
  }
  uint32_t placed = 0;
  for (uint32_t i = 0; i < found && placed < count; ++i) {
    if (far_from_all(wb, choice, placed, wb->slots[window->slots[i]].lpn)) {
      choice->slots[placed++] = window->slots[i];
      window->taken[i] = 1;
    }
  }
  grouping_window_fill_rest(window, count, choice);
  return count;
}

static bool distance_init(const policy_env_t *env) {
  distance.threshold = env->wb->slot_count / 2u;
  return grouping_window_init(&distance.window, env);
}

const grouping_policy_t grouping_policy_distance = {"distance", distance_init, 0,
                                                    distance_select, 0, 0};
