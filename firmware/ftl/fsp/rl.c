/* RL grouping (the QLC scheduling paper, TCAD 2024, section III): Q-learning chooses each
 * candidate's page type, the group module forms the wordline from the choices, and the rewrite
 * module brings hot data read from slow pages back for a faster one.
 *
 * Agent (section III-B, Algorithm 1). A candidate's state (7 bits, ftl/fsp/q_table.h): its
 * long-term read bin, whether it was read in this episode, whether the request that wrote it was
 * small (at most one page; a rewrite keeps its writer's), whether its data is partial (a
 * partial-page write: the paper's small data), and the page type its LPN was last written to.
 * Its action, decided at every selection from the active q-values: epsilon-greedy with
 * epsilon ftl.fsp.rl.explore_epsilon for the first ftl.fsp.rl.explore_episodes episodes, then
 * ftl.fsp.rl.epsilon; random numbers from the scenario seed.
 * A step is one page programmed; an episode is ftl.fsp.rl.episode_steps steps. The log holds
 * the last episode's steps (LPN, state, and the page type it was written to: the action the
 * environment saw, which is the decided one unless the group module substituted it). Step t of
 * an episode rewards step t of the one before, the same offset, exactly one episode later:
 *   page-type term, read since it was programmed or not: LSB +1/-1, CLSB +0.5/-0.5, CMSB
 *   +0.5/-0.5, MSB -1/+1 (the paper's "+-1, +-0.5, +-0.5, -+1", taken as printed);
 *   latency term of the latest host read (ftl/fsp/read_latency.h): +1, +0.5, 0 or -1;
 * and updates its shadow q-value with the step that followed it. A new episode renews the active
 * q-values, clears the short-term bits and finds the latency percentiles again.
 *
 * Group module (section III-C, Figure 7): candidates, oldest first, take the first free position
 * of their action's type (so the oldest always goes and the LRU order advances); a type left
 * without a candidate takes the oldest one whose action is a neighbouring type (one faster or
 * one slower); what is still empty takes the oldest of the rest.
 *
 * Rewrite module (section III-D): a host read from a CMSB or MSB page of data whose long-term
 * bin is the highest and which was read before in this episode comes back into the buffer at
 * the eviction end (ftl/buffer_flush.h). QLC only (the platform checks). */
#include <stddef.h>

#include "ftl/fsp/access_history.h"
#include "ftl/fsp/grouping.h"
#include "ftl/fsp/q_table.h"
#include "ftl/fsp/read_latency.h"
#include "ftl/fsp/rl.h"
#include "ftl/fsp/window.h"
#include "lib/metrics.h"

/* One step of the episode log. */
typedef struct rl_step {
  uint32_t lpn;
  uint8_t state;
  uint8_t action; /* the page type it was written to */
} rl_step_t;

static struct {
  access_history_t history;
  grouping_window_t window;
  q_table_t *q;
  read_latency_t *latency;
  rl_step_t *log;          /* [step offset]: this episode's up to `step`, the last one's after */
  uint8_t *states;         /* [candidate] at the last selection */
  uint8_t *actions;        /* [candidate] */
  uint8_t chosen_states[GROUPING_MAX_PAGES]; /* [position] of the last choice */
  uint32_t page_bytes;
  uint32_t episode_steps;
  uint32_t step;           /* offset in the current episode */
  uint32_t episodes;       /* completed */
  uint32_t explore_episodes;
  uint32_t explore_epsilon; /* percent */
  uint32_t epsilon;         /* percent, now */
  uint32_t exploit_epsilon;
  uint32_t random;          /* xorshift32 state */
  uint64_t steps;           /* steps taken */
  uint64_t rewarded;        /* steps rewarded */
  uint64_t reward_gained;   /* thousandths, positive rewards summed */
  uint64_t reward_lost;     /* thousandths, negative rewards summed (as positive) */
  uint64_t explorations;    /* decisions made at random */
  uint64_t decisions;
} rl;

static uint32_t next_random(void) {
  uint32_t x = rl.random;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rl.random = x;
  return x;
}

/* Algorithm 1's q_table(S): a random action with probability epsilon, else the best. */
static uint32_t decide(uint32_t state) {
  ++rl.decisions;
  if (next_random() % 100u < rl.epsilon) {
    ++rl.explorations;
    return next_random() % Q_TABLE_ACTIONS;
  }
  return q_table_best(rl.q, state);
}

void rl_group(const uint8_t *actions, uint32_t found, uint32_t count, uint8_t *taken,
              uint32_t *position) {
  for (uint32_t p = 0; p < count; ++p) {
    position[p] = WB_NONE;
  }
  for (uint32_t i = 0; i < found; ++i) {
    taken[i] = 0;
  }
  for (uint32_t i = 0; i < found; ++i) {
    uint32_t p = grouping_free_position(position, count, actions[i], Q_TABLE_ACTIONS);
    if (p != WB_NONE) {
      position[p] = i;
      taken[i] = 1;
    }
  }
  for (uint32_t p = 0; p < count; ++p) {
    uint32_t type = p % Q_TABLE_ACTIONS;
    for (uint32_t i = 0; i < found && position[p] == WB_NONE; ++i) {
      if (!taken[i] && (actions[i] + 1u == type || actions[i] == type + 1u)) {
        position[p] = i;
        taken[i] = 1;
      }
    }
  }
  for (uint32_t p = 0, i = 0; p < count; ++p) {
    if (position[p] == WB_NONE) {
      while (taken[i]) { /* count <= found: an untaken one is left */
        ++i;
      }
      position[p] = i;
      taken[i] = 1;
    }
  }
}

static uint32_t rl_select(const write_buffer_t *wb, uint32_t count, grouping_choice_t *choice) {
  grouping_window_t *window = &rl.window;
  uint32_t found;
  if (!grouping_window_start(window, wb, count, choice, &found)) {
    for (uint32_t position = 0; position < choice->positions; ++position) {
      rl.chosen_states[position] =
          (uint8_t)rl_state(&rl.history, &wb->slots[choice->slots[position]]);
    }
    return choice->positions;
  }
  for (uint32_t i = 0; i < found; ++i) {
    rl.states[i] = (uint8_t)rl_state(&rl.history, &wb->slots[window->slots[i]]);
    rl.actions[i] = (uint8_t)decide(rl.states[i]);
  }
  uint32_t position[GROUPING_MAX_PAGES];
  rl_group(rl.actions, found, count, window->taken, position);
  for (uint32_t p = 0; p < count; ++p) {
    choice->slots[p] = window->slots[position[p]];
    rl.chosen_states[p] = rl.states[position[p]];
  }
  return count;
}

/* The delayed reward of a step of the last episode, in thousandths. */
static int32_t reward_milli(const rl_step_t *step) {
  static const int32_t kRead[Q_TABLE_ACTIONS] = {1000, 500, 500, -1000};
  int32_t page_term = kRead[step->action];
  if (!access_history_read_since_written(&rl.history, step->lpn)) {
    page_term = -page_term;
  }
  return page_term + read_latency_reward_milli(rl.latency);
}

static void new_episode(void) {
  ++rl.episodes;
  q_table_renew(rl.q);
  access_history_new_episode(&rl.history);
  read_latency_renew(rl.latency);
  rl.epsilon = rl.episodes < rl.explore_episodes ? rl.explore_epsilon : rl.exploit_epsilon;
}

/* A page of `lpn` in `state` was written to a page of `type`: the step at this offset in the
 * last episode gets its reward, then this one takes its place in the log. */
static void take_step(uint32_t lpn, uint32_t state, uint32_t type) {
  rl_step_t *logged = &rl.log[rl.step];
  if (rl.episodes != 0) {
    /* Its next step: the following offset, or, for the last one, this episode's first. */
    const rl_step_t *next = &rl.log[rl.step + 1u < rl.episode_steps ? rl.step + 1u : 0u];
    int32_t reward = reward_milli(logged);
    q_table_update(rl.q, logged->state, logged->action, (float)reward / 1000.0f, next->state,
                   next->action);
    ++rl.rewarded;
    if (reward >= 0) {
      rl.reward_gained += (uint32_t)reward;
    } else {
      rl.reward_lost += (uint32_t)-reward;
    }
  }
  logged->lpn = lpn;
  logged->state = (uint8_t)state;
  logged->action = (uint8_t)type;
  ++rl.steps;
  if (++rl.step == rl.episode_steps) {
    rl.step = 0;
    new_episode();
  }
}

static void rl_committed(const write_buffer_t *wb, const grouping_choice_t *choice) {
  for (uint32_t position = 0; position < choice->positions; ++position) {
    if (choice->slots[position] != WB_NONE) {
      take_step(wb->slots[choice->slots[position]].lpn, rl.chosen_states[position],
                position % Q_TABLE_ACTIONS);
    }
  }
  access_history_programmed(&rl.history, wb, choice->slots, choice->positions, Q_TABLE_ACTIONS);
}

static bool rl_rewrite_wanted(uint32_t lpn, uint32_t page_type) {
  return page_type >= 2u && access_history_read_bin(&rl.history, lpn) == 3u &&
         access_history_short_term(&rl.history, lpn);
}

static void rl_hear(const policy_event_t *event) {
  if (event->kind == POLICY_REQUEST_COMPLETED) {
    if (event->is_read) {
      read_latency_add(rl.latency, event->latency_ns, event->count * rl.page_bytes);
    }
    return;
  }
  access_history_read(&rl.history, event->lpn);
}

static const policy_listener_t rl_listener = {
    POLICY_EVENT_BIT(POLICY_HOST_READ) | POLICY_EVENT_BIT(POLICY_HOST_READ_HIT) |
        POLICY_EVENT_BIT(POLICY_REQUEST_COMPLETED),
    rl_hear};

static void rl_register_metrics(void) {
  metrics_counter32("fsp.rl.episodes", &rl.episodes);
  metrics_counter("fsp.rl.steps", &rl.steps);
  metrics_counter("fsp.rl.rewarded_steps", &rl.rewarded);
  metrics_counter("fsp.rl.reward_gained", &rl.reward_gained);
  metrics_counter("fsp.rl.reward_lost", &rl.reward_lost);
  metrics_counter("fsp.rl.decisions", &rl.decisions);
  metrics_counter("fsp.rl.explorations", &rl.explorations);
}

static bool rl_init(const policy_env_t *env) {
  const boot_config_t *boot = env->boot;
  arena_t *arena = env->dram != NULL ? env->dram : env->sram;
  if (!access_history_init(&rl.history, env->lpn_count, boot->ftl_fsp_rl_episode_log, arena) ||
      !grouping_window_init(&rl.window, env)) {
    return false;
  }
  rl.q = (q_table_t *)policy_alloc_near(env, "rl_q_table", sizeof(q_table_t));
  rl.latency =
      (read_latency_t *)policy_alloc_near(env, "rl_read_latency", sizeof(read_latency_t));
  rl.episode_steps = boot->ftl_fsp_rl_episode_steps;
  rl.log = (rl_step_t *)policy_alloc_near(env, "rl_episode_log",
                                          rl.episode_steps * (uint32_t)sizeof(rl_step_t));
  rl.states = (uint8_t *)policy_alloc_near(env, "rl_states", rl.window.capacity);
  rl.actions = (uint8_t *)policy_alloc_near(env, "rl_actions", rl.window.capacity);
  if (rl.q == NULL || rl.latency == NULL || rl.log == NULL || rl.states == NULL ||
      rl.actions == NULL) {
    return false;
  }
  q_table_init(rl.q, boot->ftl_fsp_rl_alpha, boot->ftl_fsp_rl_gamma);
  read_latency_init(rl.latency);
  rl.page_bytes = env->blocks->geometry.page_bytes;
  rl.step = 0;
  rl.episodes = 0;
  rl.explore_episodes = boot->ftl_fsp_rl_explore_episodes;
  rl.explore_epsilon = boot->ftl_fsp_rl_explore_epsilon;
  rl.exploit_epsilon = boot->ftl_fsp_rl_epsilon;
  rl.epsilon = rl.explore_episodes != 0 ? rl.explore_epsilon : rl.exploit_epsilon;
  rl.random = boot->seed * 2654435761u + 0x9E3779B9u;
  if (rl.random == 0) {
    rl.random = 1; /* xorshift's one fixed point */
  }
  rl.steps = 0;
  rl.rewarded = 0;
  rl.reward_gained = 0;
  rl.reward_lost = 0;
  rl.explorations = 0;
  rl.decisions = 0;
  rl_register_metrics();
  return true;
}

const grouping_policy_t grouping_policy_rl = {"rl",         rl_init,      &rl_listener, rl_select,
                                              rl_committed, rl_rewrite_wanted};
