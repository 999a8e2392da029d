/* Frequency grouping (Lv et al., the QLC scheduling paper's "Frequency" counterpart): each
 * candidate's page type comes from its read count alone, the hottest on the fastest type: more
 * than five reads LSB, four or five CLSB, two or three CMSB, fewer MSB (the access history's
 * bins; types past MSB on cells of more bits take the MSB class). The oldest candidate always
 * goes (the LRU order must advance): to the first free position of its type; every other
 * position takes the oldest candidate of its type, and what is left the oldest of the rest.
 * With fewer candidates than positions it is the baseline's choice.
 * Immediate refresh: a host read from a CMSB or MSB page of data whose read bin was already the
 * highest brings it back into the buffer at the eviction end, and its wordline is formed at once
 * (ftl/buffer_flush.h). The trigger is the read count alone, less strict than the RL policy's,
 * which also asks for a read in the current episode (the paper, section IV-D2). */
#include <stddef.h>

#include "ftl/fsp/access_history.h"
#include "ftl/fsp/grouping.h"
#include "ftl/fsp/window.h"

static struct {
  access_history_t history;
  grouping_window_t window;
} frequency;

/* The page type a candidate's reads ask for. */
static uint32_t frequency_type(uint32_t lpn) {
  uint32_t type = 3u - access_history_read_bin(&frequency.history, lpn);
  uint32_t slowest = frequency.window.bits_per_cell - 1u;
  return type < slowest ? type : slowest;
}

static uint32_t frequency_select(const write_buffer_t *wb, uint32_t count,
                                 grouping_choice_t *choice) {
  grouping_window_t *window = &frequency.window;
  uint32_t found;
  if (!grouping_window_start(window, wb, count, choice, &found)) {
    return choice->positions;
  }
  /* The oldest first, then the oldest candidate of each position's type. */
  for (uint32_t i = 0; i < found; ++i) {
    uint32_t type = frequency_type(wb->slots[window->slots[i]].lpn);
    uint32_t position = grouping_free_position(choice->slots, count, type, window->bits_per_cell);
    if (position != WB_NONE) {
      choice->slots[position] = window->slots[i];
      window->taken[i] = 1;
    }
  }
  grouping_window_fill_rest(window, count, choice);
  return count;
}

static void frequency_committed(const write_buffer_t *wb, const grouping_choice_t *choice) {
  access_history_programmed(&frequency.history, wb, choice->slots, choice->positions,
                            frequency.window.bits_per_cell);
}

static bool frequency_rewrite_wanted(uint32_t lpn, uint32_t page_type) {
  return page_type >= 2u && access_history_read_bin(&frequency.history, lpn) == 3u;
}

static void frequency_hear(const policy_event_t *event) {
  access_history_read(&frequency.history, event->lpn);
}

static const policy_listener_t frequency_listener = {
    POLICY_EVENT_BIT(POLICY_HOST_READ) | POLICY_EVENT_BIT(POLICY_HOST_READ_HIT), frequency_hear};

static bool frequency_init(const policy_env_t *env) {
  arena_t *arena = env->dram != NULL ? env->dram : env->sram;
  return access_history_init(&frequency.history, env->lpn_count, 0, arena) &&
         grouping_window_init(&frequency.window, env);
}

const grouping_policy_t grouping_policy_frequency = {
    "frequency",         frequency_init,     &frequency_listener, frequency_select,
    frequency_committed, frequency_rewrite_wanted};
