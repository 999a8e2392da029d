/* What every FTL policy (GC victim choice, ftl/gc/victim.h; wordline grouping,
 * ftl/fsp/grouping.h) is given at boot and hears while the FTL runs.
 *
 * A policy has state: at boot its init takes memory from the arenas, reads its options from the
 * boot config and may add placement streams (block_stream_add); then it hears the events it
 * subscribed to, as they happen, on hart 0. An event costs the FTL a mask test when nobody
 * listens, so policies subscribe only to what they use. */
#ifndef SSDVP_FIRMWARE_FTL_POLICY_H
#define SSDVP_FIRMWARE_FTL_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/write_buffer.h"
#include "lib/arena.h"

/* What a policy's init is given. */
typedef struct policy_env {
  const boot_config_t *boot; /* its options */
  arena_t *sram;
  arena_t *dram; /* NULL without DRAM */
  block_manager_t *blocks;   /* the stripes; block_stream_add for streams of its own */
  const write_buffer_t *wb;
  uint32_t lpn_count;
  uint32_t entries_per_tp; /* mappings of a translation page */
} policy_env_t;

/* Memory for a small structure the policy touches on every decision: SRAM, or DRAM when SRAM has
 * no room (the core waits the DRAM latency on each access: it has no data cache). NULL when
 * neither has room. Large per-LPN tables belong in DRAM (env->dram) from the start. */
void *policy_alloc_near(const policy_env_t *env, const char *name, uint32_t bytes);

typedef enum policy_event_kind {
  POLICY_STRIPE_OPENED = 0,    /* stripe, stream */
  POLICY_STRIPE_FULL = 1,      /* stripe, stream: every program allocated */
  POLICY_STRIPE_ERASED = 2,    /* stripe: free again */
  POLICY_PAGE_INVALIDATED = 3, /* vpn (stripe): its data was superseded or trimmed */
  POLICY_HOST_READ = 4,        /* lpn, vpn, page_type: a host page read from flash */
  POLICY_PAGES_PROGRAMMED = 5, /* vpn (the first), count, stream: a program completed */
  POLICY_REQUEST_COMPLETED = 6, /* lpn (the first), count (pages), latency_ns, is_read */
  POLICY_HOST_READ_HIT = 7,    /* lpn: a host page read served from the write buffer */
  POLICY_EVENT_KINDS = 8
} policy_event_kind_t;

#define POLICY_EVENT_BIT(kind) (1u << (kind))

typedef struct policy_event {
  uint32_t kind; /* policy_event_kind_t */
  uint32_t stripe;
  uint32_t stream;
  uint32_t vpn;
  uint32_t lpn;
  uint32_t count;
  uint32_t page_type; /* 0 = LSB .. bits_per_cell - 1 */
  uint64_t latency_ns;
  bool is_read;
} policy_event_t;

/* A policy's events: the kinds it hears (POLICY_EVENT_BIT mask) and the function that hears
 * them. */
typedef struct policy_listener {
  uint32_t events;
  void (*hear)(const policy_event_t *event);
} policy_listener_t;

/* Up to this many policies listen at once (the victim and the grouping policy today). */
#define POLICY_MAX_LISTENERS 4u

/* Adds a listener (a policy's, at boot); false when the table is full. */
bool policy_listen(const policy_listener_t *listener);

/* Forgets every listener (a new boot). */
void policy_listeners_reset(void);

/* The kinds somebody hears: test it before building an event. */
extern uint32_t policy_events_heard;

static inline bool policy_heard(policy_event_kind_t kind) {
  return (policy_events_heard & POLICY_EVENT_BIT(kind)) != 0;
}

/* Hands the event to every listener of its kind. */
void policy_emit(const policy_event_t *event);

#endif
