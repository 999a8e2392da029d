#include "lib/hash.h"

/* A multiplicative (Fibonacci) hash: consecutive LPNs spread over the table. */
static uint32_t slot_of(const hash_table_t *table, uint32_t key) {
  return (key * 0x9E3779B1u) & table->mask;
}

uint32_t hash_slots_for(uint32_t keys) {
  /* Load at most 3/4, and always one empty slot so probes terminate. */
  uint32_t needed = (uint32_t)(((uint64_t)keys * 4u + 2u) / 3u);
  if (needed < keys + 1u) {
    needed = keys + 1u;
  }
  uint32_t slots = 1;
  while (slots < needed) {
    slots <<= 1;
  }
  return slots;
}

uint32_t hash_bytes_for(uint32_t keys) { return hash_slots_for(keys) * (uint32_t)sizeof(hash_slot_t); }

bool hash_init(hash_table_t *table, arena_t *arena, const char *name, uint32_t keys) {
  uint32_t slots = hash_slots_for(keys);
  table->slots = (hash_slot_t *)arena_alloc(arena, name, slots * (uint32_t)sizeof(hash_slot_t));
  if (table->slots == NULL) {
    return false;
  }
  table->mask = slots - 1u;
  table->capacity = keys;
  hash_clear(table);
  return true;
}

void hash_clear(hash_table_t *table) {
  for (uint32_t i = 0; i <= table->mask; ++i) {
    table->slots[i].key = HASH_KEY_EMPTY;
  }
  table->count = 0;
}

bool hash_find(const hash_table_t *table, uint32_t key, uint32_t *value) {
  if (key == HASH_KEY_EMPTY) {
    return false;
  }
  for (uint32_t i = slot_of(table, key);; i = (i + 1u) & table->mask) {
    if (table->slots[i].key == key) {
      *value = table->slots[i].value;
      return true;
    }
    if (table->slots[i].key == HASH_KEY_EMPTY) {
      return false;
    }
  }
}

bool hash_put(hash_table_t *table, uint32_t key, uint32_t value) {
  if (key == HASH_KEY_EMPTY) {
    return false;
  }
  for (uint32_t i = slot_of(table, key);; i = (i + 1u) & table->mask) {
    if (table->slots[i].key == key) {
      table->slots[i].value = value;
      return true;
    }
    if (table->slots[i].key == HASH_KEY_EMPTY) {
      if (table->count == table->capacity) {
        return false;
      }
      table->slots[i].key = key;
      table->slots[i].value = value;
      ++table->count;
      return true;
    }
  }
}

bool hash_remove(hash_table_t *table, uint32_t key) {
  if (key == HASH_KEY_EMPTY) {
    return false;
  }
  uint32_t hole = slot_of(table, key);
  while (table->slots[hole].key != key) {
    if (table->slots[hole].key == HASH_KEY_EMPTY) {
      return false;
    }
    hole = (hole + 1u) & table->mask;
  }
  /* Shift back every later key of the cluster whose home slot does not lie strictly between the
   * hole and its own slot, so lookups never stop at the hole early. */
  for (uint32_t next = (hole + 1u) & table->mask; table->slots[next].key != HASH_KEY_EMPTY;
       next = (next + 1u) & table->mask) {
    uint32_t home = slot_of(table, table->slots[next].key);
    bool home_in_gap = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (!home_in_gap) {
      table->slots[hole] = table->slots[next];
      hole = next;
    }
  }
  table->slots[hole].key = HASH_KEY_EMPTY;
  --table->count;
  return true;
}
