#include "workload.h"

#include <stddef.h>

/* Sizes keep all data under 200 KiB so the rv32 image fits the default SRAM. */
#define SORT_COUNT 4096u
#define HASH_SLOTS 4096u /* power of two */
#define HASH_INSERTS 3000u
#define HASH_LOOKUPS 3000u
#define CRC_BYTES 8192u
#define MATRIX_N 24u
#define LIST_NODES 4096u

#define HASH_EMPTY 0u /* keys are made non-zero */

struct list_node {
  uint32_t value;
  uint32_t next; /* index of the next node; LIST_NODES ends the list */
};

static uint32_t sort_values[SORT_COUNT];
static uint32_t hash_keys[HASH_SLOTS];
static uint32_t hash_values[HASH_SLOTS];
static uint8_t crc_buffer[CRC_BYTES];
static uint32_t crc_table[256];
static int32_t matrix_a[MATRIX_N][MATRIX_N];
static int32_t matrix_b[MATRIX_N][MATRIX_N];
static int32_t matrix_c[MATRIX_N][MATRIX_N];
static struct list_node list_nodes[LIST_NODES];
static uint32_t list_order[LIST_NODES];

/* xorshift32: a full-period generator for any non-zero state. */
static uint32_t next_random(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* Folds a value into the running checksum (FNV-1a style on whole words). */
static uint32_t mix(uint32_t checksum, uint32_t value) {
  return (checksum ^ value) * 0x01000193u;
}

static void sift_down(uint32_t *values, size_t root, size_t count) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= count) {
      return;
    }
    if (child + 1 < count && values[child + 1] > values[child]) {
      child++;
    }
    if (values[root] >= values[child]) {
      return;
    }
    uint32_t swap = values[root];
    values[root] = values[child];
    values[child] = swap;
    root = child;
  }
}

static void heap_sort(uint32_t *values, size_t count) {
  for (size_t root = count / 2; root-- > 0;) {
    sift_down(values, root, count);
  }
  for (size_t end = count; end-- > 1;) {
    uint32_t swap = values[0];
    values[0] = values[end];
    values[end] = swap;
    sift_down(values, 0, end);
  }
}

static uint32_t run_sort(uint32_t *random) {
  for (size_t i = 0; i < SORT_COUNT; i++) {
    sort_values[i] = next_random(random);
  }
  heap_sort(sort_values, SORT_COUNT);
  uint32_t checksum = 0;
  for (size_t i = 0; i < SORT_COUNT; i++) {
    /* An unsorted pair would be a bug in the sort or in the ISS: it poisons the checksum. */
    if (i > 0 && sort_values[i - 1] > sort_values[i]) {
      checksum ^= 0xdeadbeefu;
    }
    checksum = mix(checksum, sort_values[i] >> (i & 7));
  }
  return checksum;
}

static uint32_t hash_slot(uint32_t key) {
  return ((key * 0x9e3779b1u) >> 20) & (HASH_SLOTS - 1);
}

static void hash_insert(uint32_t key, uint32_t value) {
  uint32_t slot = hash_slot(key);
  while (hash_keys[slot] != HASH_EMPTY && hash_keys[slot] != key) {
    slot = (slot + 1) & (HASH_SLOTS - 1);
  }
  hash_keys[slot] = key;
  hash_values[slot] = value;
}

/* Returns the value of key, or 0 when absent. */
static uint32_t hash_find(uint32_t key) {
  for (uint32_t slot = hash_slot(key); hash_keys[slot] != HASH_EMPTY;
       slot = (slot + 1) & (HASH_SLOTS - 1)) {
    if (hash_keys[slot] == key) {
      return hash_values[slot];
    }
  }
  return 0;
}

static uint32_t run_hash(uint32_t *random) {
  for (size_t i = 0; i < HASH_SLOTS; i++) {
    hash_keys[i] = HASH_EMPTY;
  }
  /* Keys from a small range, so inserts overwrite and lookups both hit and miss. */
  for (uint32_t i = 0; i < HASH_INSERTS; i++) {
    hash_insert(next_random(random) % 8192u + 1u, i + 1u);
  }
  uint32_t checksum = 0;
  for (uint32_t i = 0; i < HASH_LOOKUPS; i++) {
    checksum = mix(checksum, hash_find(next_random(random) % 8192u + 1u));
  }
  return checksum;
}

static void build_crc_table(void) {
  for (uint32_t byte = 0; byte < 256; byte++) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc & 1u) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    crc_table[byte] = crc;
  }
}

/* CRC-32 (IEEE 802.3, reflected), table driven. */
static uint32_t crc32(const uint8_t *bytes, size_t count) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < count; i++) {
    crc = crc_table[(crc ^ bytes[i]) & 0xffu] ^ (crc >> 8);
  }
  return crc ^ 0xffffffffu;
}

static uint32_t run_crc(uint32_t *random) {
  for (size_t i = 0; i < CRC_BYTES; i++) {
    crc_buffer[i] = (uint8_t)next_random(random);
  }
  return crc32(crc_buffer, CRC_BYTES);
}

static uint32_t run_matrix(uint32_t *random) {
  for (size_t row = 0; row < MATRIX_N; row++) {
    for (size_t column = 0; column < MATRIX_N; column++) {
      matrix_a[row][column] = (int32_t)(next_random(random) % 201u) - 100;
      matrix_b[row][column] = (int32_t)(next_random(random) % 201u) - 100;
    }
  }
  for (size_t row = 0; row < MATRIX_N; row++) {
    for (size_t column = 0; column < MATRIX_N; column++) {
      int32_t sum = 0;
      for (size_t k = 0; k < MATRIX_N; k++) {
        sum += matrix_a[row][k] * matrix_b[k][column];
      }
      matrix_c[row][column] = sum;
    }
  }
  uint32_t checksum = 0;
  for (size_t row = 0; row < MATRIX_N; row++) {
    for (size_t column = 0; column < MATRIX_N; column++) {
      checksum = mix(checksum, (uint32_t)matrix_c[row][column]);
    }
  }
  return checksum;
}

/* Links the nodes in a random order (a shuffled permutation) and walks the list. */
static uint32_t run_list(uint32_t *random) {
  for (uint32_t i = 0; i < LIST_NODES; i++) {
    list_order[i] = i;
  }
  for (uint32_t i = LIST_NODES - 1; i > 0; i--) {
    uint32_t j = next_random(random) % (i + 1);
    uint32_t swap = list_order[i];
    list_order[i] = list_order[j];
    list_order[j] = swap;
  }
  for (uint32_t i = 0; i < LIST_NODES; i++) {
    struct list_node *node = &list_nodes[list_order[i]];
    node->value = next_random(random);
    node->next = i + 1 < LIST_NODES ? list_order[i + 1] : LIST_NODES;
  }
  uint32_t checksum = 0;
  uint32_t visited = 0;
  for (uint32_t index = list_order[0]; index != LIST_NODES; index = list_nodes[index].next) {
    checksum = mix(checksum, list_nodes[index].value);
    visited++;
  }
  return mix(checksum, visited);
}

uint32_t workload_run(uint32_t rounds) {
  build_crc_table();
  uint32_t checksum = 0x811c9dc5u;
  for (uint32_t round = 0; round < rounds; round++) {
    uint32_t random = 0x2545f491u ^ (round * 0x9e3779b9u);
    if (random == 0) {
      random = 1;
    }
    checksum = mix(checksum, run_sort(&random));
    checksum = mix(checksum, run_hash(&random));
    checksum = mix(checksum, run_crc(&random));
    checksum = mix(checksum, run_matrix(&random));
    checksum = mix(checksum, run_list(&random));
  }
  return checksum;
}
