/* Building blocks the mapping schemes share (private to ftl/map/): a budget that charges every
 * arena allocation, alignment included, against the scheme's budget_bytes; index-linked LRU
 * lists; and a chained hash over an index space. Items live in arrays and are named by their
 * index, so a link costs 4 bytes instead of a pointer plus a node header. */
#ifndef SSDVP_FIRMWARE_FTL_MAP_SCHEME_COMMON_H
#define SSDVP_FIRMWARE_FTL_MAP_SCHEME_COMMON_H

#include <stdint.h>

#include "ftl/map/map.h"
#include "lib/arena.h"

#define SCHEME_NIL 0xFFFFFFFFu

/* ---- budget ---- */

typedef struct scheme_budget {
  arena_t *arena;
  uint32_t limit;
  uint32_t used; /* bytes charged, each allocation rounded up to ARENA_ALIGN */
} scheme_budget_t;

static inline uint32_t scheme_aligned(uint32_t bytes) {
  return (bytes + ARENA_ALIGN - 1u) & ~(ARENA_ALIGN - 1u);
}

/* NULL when the bytes would take the scheme past its budget or the arena refuses them. */
static inline void *scheme_alloc(scheme_budget_t *budget, const char *name, uint32_t bytes) {
  uint32_t charged = scheme_aligned(bytes);
  if (charged < bytes || budget->used + charged < budget->used ||
      budget->used + charged > budget->limit) {
    return 0;
  }
  void *memory = arena_alloc(budget->arena, name, bytes);
  if (memory) {
    budget->used += charged;
  }
  return memory;
}

/* The largest power of two <= value (value >= 1). */
/* The LPNs translation page `tp` covers (the last one may be short). */
static inline uint32_t scheme_tp_lpns(const map_env_t *env, uint32_t tp) {
  uint32_t first = tp * env->entries_per_tp;
  uint32_t left = env->lpn_count - first;
  return left < env->entries_per_tp ? left : env->entries_per_tp;
}

/* Whether a flush may write one more TP back now (map_env_t write_back_room). */
static inline bool scheme_write_back_room(const map_env_t *env) {
  return env->write_back_room == 0 || env->write_back_room();
}

/* Whether a call of lookup, update or tp_loaded may write one more TP back now (map_env_t
 * eviction_room). */
static inline bool scheme_eviction_room(const map_env_t *env) {
  return env->eviction_room == 0 || env->eviction_room();
}

static inline uint32_t scheme_pow2_floor(uint32_t value) {
  uint32_t power = 1u;
  while (power <= value / 2u) {
    power *= 2u;
  }
  return power;
}

/* Software popcount: RV32IMAC has no bit-count instruction. */
static inline uint32_t scheme_popcount(uint32_t word) {
  word = word - ((word >> 1) & 0x55555555u);
  word = (word & 0x33333333u) + ((word >> 2) & 0x33333333u);
  word = (word + (word >> 4)) & 0x0F0F0F0Fu;
  return (word * 0x01010101u) >> 24;
}

/* ---- LRU lists: head is the most recently used ---- */

typedef struct scheme_link {
  uint32_t prev;
  uint32_t next;
} scheme_link_t;

typedef struct scheme_list {
  uint32_t head;
  uint32_t tail;
} scheme_list_t;

static inline void scheme_list_init(scheme_list_t *list) {
  list->head = SCHEME_NIL;
  list->tail = SCHEME_NIL;
}

static inline void scheme_list_push_front(scheme_list_t *list, scheme_link_t *links,
                                          uint32_t item) {
  links[item].prev = SCHEME_NIL;
  links[item].next = list->head;
  if (list->head != SCHEME_NIL) {
    links[list->head].prev = item;
  } else {
    list->tail = item;
  }
  list->head = item;
}

static inline void scheme_list_remove(scheme_list_t *list, scheme_link_t *links, uint32_t item) {
  uint32_t prev = links[item].prev;
  uint32_t next = links[item].next;
  if (prev != SCHEME_NIL) {
    links[prev].next = next;
  } else {
    list->head = next;
  }
  if (next != SCHEME_NIL) {
    links[next].prev = prev;
  } else {
    list->tail = prev;
  }
}

static inline void scheme_list_move_front(scheme_list_t *list, scheme_link_t *links,
                                          uint32_t item) {
  if (list->head != item) {
    scheme_list_remove(list, links, item);
    scheme_list_push_front(list, links, item);
  }
}

/* Appends all of `from` behind `to` and leaves `from` empty. */
static inline void scheme_list_append(scheme_list_t *to, scheme_list_t *from,
                                      scheme_link_t *links) {
  if (from->head == SCHEME_NIL) {
    return;
  }
  if (to->tail == SCHEME_NIL) {
    *to = *from;
  } else {
    links[to->tail].next = from->head;
    links[from->head].prev = to->tail;
    to->tail = from->tail;
  }
  scheme_list_init(from);
}

/* ---- chained hash: keys[item] is the key, next[item] the chain link ---- */

typedef struct scheme_hash {
  uint32_t *heads;      /* bucket_count chain heads */
  uint32_t *next;       /* one link per item */
  const uint32_t *keys; /* one key per item */
  uint32_t shift;       /* 32 - log2(bucket_count) */
} scheme_hash_t;

/* bucket_count: a power of two >= 2. */
static inline void scheme_hash_init(scheme_hash_t *hash, uint32_t *heads, uint32_t bucket_count,
                                    uint32_t *next, const uint32_t *keys) {
  hash->heads = heads;
  hash->next = next;
  hash->keys = keys;
  uint32_t bits = 0;
  while ((1u << bits) < bucket_count) {
    bits++;
  }
  hash->shift = 32u - bits;
  for (uint32_t bucket = 0; bucket < bucket_count; bucket++) {
    heads[bucket] = SCHEME_NIL;
  }
}

static inline uint32_t scheme_hash_bucket(const scheme_hash_t *hash, uint32_t key) {
  return (key * 2654435761u) >> hash->shift; /* Fibonacci hashing */
}

static inline uint32_t scheme_hash_find(const scheme_hash_t *hash, uint32_t key) {
  uint32_t item = hash->heads[scheme_hash_bucket(hash, key)];
  while (item != SCHEME_NIL && hash->keys[item] != key) {
    item = hash->next[item];
  }
  return item;
}

static inline void scheme_hash_insert(scheme_hash_t *hash, uint32_t item) {
  uint32_t bucket = scheme_hash_bucket(hash, hash->keys[item]);
  hash->next[item] = hash->heads[bucket];
  hash->heads[bucket] = item;
}

static inline void scheme_hash_remove(scheme_hash_t *hash, uint32_t item) {
  uint32_t *link = &hash->heads[scheme_hash_bucket(hash, hash->keys[item])];
  while (*link != item) {
    link = &hash->next[*link];
  }
  *link = hash->next[item];
}

#endif
