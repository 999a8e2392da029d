#include "ftl/policy.h"

#include <stddef.h>

uint32_t policy_events_heard;

static struct {
  const policy_listener_t *listeners[POLICY_MAX_LISTENERS];
  uint32_t count;
} table;

bool policy_listen(const policy_listener_t *listener) {
  if (table.count == POLICY_MAX_LISTENERS) {
    return false;
  }
  table.listeners[table.count++] = listener;
  policy_events_heard |= listener->events;
  return true;
}

void policy_listeners_reset(void) {
  table.count = 0;
  policy_events_heard = 0;
}

void policy_emit(const policy_event_t *event) {
  uint32_t bit = POLICY_EVENT_BIT(event->kind);
  for (uint32_t i = 0; i < table.count; ++i) {
    if ((table.listeners[i]->events & bit) != 0) {
      table.listeners[i]->hear(event);
    }
  }
}

void *policy_alloc_near(const policy_env_t *env, const char *name, uint32_t bytes) {
  void *near = arena_alloc(env->sram, name, bytes);
  return near != NULL || env->dram == NULL ? near : arena_alloc(env->dram, name, bytes);
}
