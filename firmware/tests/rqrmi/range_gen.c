#include "tests/rqrmi/range_gen.h"

uint32_t range_gen_random(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* A value in [low, high]. */
static uint32_t between(uint32_t *state, uint32_t low, uint32_t high) {
  return low + range_gen_random(state) % (high - low + 1);
}

uint32_t range_gen_clustered(rqrmi_range_t *ranges, uint32_t n, uint32_t seed,
                             uint32_t cluster_max, uint32_t cluster_gap) {
  uint32_t state = seed != 0 ? seed : 1;
  uint64_t next = 0;
  uint32_t left_in_cluster = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (left_in_cluster == 0) {
      left_in_cluster = between(&state, 1, cluster_max);
      next += i == 0 ? 0 : between(&state, 17, cluster_gap);
    } else {
      next += between(&state, 0, 16);
    }
    const uint64_t hi = next + between(&state, 1, 255) - 1;
    if (hi > UINT32_MAX) return i;
    ranges[i].lo = (uint32_t)next;
    ranges[i].hi = (uint32_t)hi;
    next = hi + 1;
    --left_in_cluster;
  }
  return n;
}

uint32_t range_gen_find(const rqrmi_range_t *ranges, uint32_t n, uint32_t key) {
  uint32_t low = 0;
  uint32_t high = n;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    if (ranges[middle].hi < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < n && ranges[low].lo <= key ? low : RQRMI_NONE;
}

uint32_t range_gen_checksum(const void *data, uint32_t bytes) {
  const uint8_t *byte = (const uint8_t *)data;
  uint32_t hash = 2166136261u;
  for (uint32_t i = 0; i < bytes; ++i) hash = (hash ^ byte[i]) * 16777619u;
  return hash;
}
