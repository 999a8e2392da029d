/* A hash table from uint32_t keys to uint32_t values: open addressing with linear probing and
 * backward-shift deletion (no tombstones, so probe lengths stay short under churn). Its memory
 * is 8 bytes per slot, taken from the arena at init, which is the index overhead a scheme
 * charges to its budget. The caller keeps the load at most 3/4 of the slots (hash_slots_for). */
#ifndef SSDVP_FIRMWARE_LIB_HASH_H
#define SSDVP_FIRMWARE_LIB_HASH_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HASH_KEY_EMPTY 0xFFFFFFFFu /* the one key value the table cannot hold */

typedef struct hash_slot {
  uint32_t key;
  uint32_t value;
} hash_slot_t;

typedef struct hash_table {
  hash_slot_t *slots;
  uint32_t mask; /* slot count - 1 (a power of two) */
  uint32_t count;
  uint32_t capacity; /* most keys the table accepts: 3/4 of the slots */
} hash_table_t;

/* Slots (a power of two) a table for `keys` keys needs. */
uint32_t hash_slots_for(uint32_t keys);

/* Bytes a table for `keys` keys takes from the arena. */
uint32_t hash_bytes_for(uint32_t keys);

/* Takes the slots for `keys` keys from the arena under `name`. False when they do not fit. */
bool hash_init(hash_table_t *table, arena_t *arena, const char *name, uint32_t keys);

/* Empties the table. */
void hash_clear(hash_table_t *table);

/* True and *value set when `key` is present. */
bool hash_find(const hash_table_t *table, uint32_t key, uint32_t *value);

/* Inserts or replaces. False (nothing changed) when the key is new and the table is at
 * capacity, or the key is HASH_KEY_EMPTY. */
bool hash_put(hash_table_t *table, uint32_t key, uint32_t value);

/* True when `key` was present and is now gone. */
bool hash_remove(hash_table_t *table, uint32_t key);

#ifdef __cplusplus
}
#endif

#endif
