#include "ftl/fsp/read_latency.h"

#include <string.h>

void read_latency_init(read_latency_t *latency) {
  memset(latency->counts, 0, sizeof latency->counts);
  latency->total = 0;
  latency->latest = READ_LATENCY_BUCKETS;
  for (uint32_t i = 0; i < 3u; ++i) {
    latency->thresholds[i] = READ_LATENCY_BUCKETS;
  }
}

uint32_t read_latency_bucket(uint32_t ns_per_kib) {
  if (ns_per_kib < 8u) {
    return ns_per_kib;
  }
  uint32_t octave = 31u - (uint32_t)__builtin_clz(ns_per_kib); /* 3..31 */
  return (octave - 2u) * 8u + ((ns_per_kib >> (octave - 3u)) & 7u);
}

void read_latency_add(read_latency_t *latency, uint64_t latency_ns, uint32_t bytes) {
  uint32_t kib = bytes >> 10;
  uint64_t normalised = latency_ns / (kib != 0 ? kib : 1u);
  uint32_t bucket = read_latency_bucket(normalised > 0xFFFFFFFFu ? 0xFFFFFFFFu
                                                                 : (uint32_t)normalised);
  latency->latest = bucket;
  ++latency->counts[bucket];
  ++latency->total;
}

void read_latency_renew(read_latency_t *latency) {
  static const uint32_t kPerMille[3] = {700u, 900u, 990u};
  uint32_t below = 0;
  uint32_t next = 0;
  for (uint32_t bucket = 0; bucket < READ_LATENCY_BUCKETS && next < 3u; ++bucket) {
    below += latency->counts[bucket];
    /* The percentile's bucket: the first where the reads up to it reach the share. */
    while (next < 3u && latency->total != 0 &&
           (uint64_t)below * 1000u >= (uint64_t)latency->total * kPerMille[next]) {
      latency->thresholds[next++] = bucket;
    }
  }
}

int32_t read_latency_reward_milli(const read_latency_t *latency) {
  uint32_t latest = latency->latest;
  if (latest == READ_LATENCY_BUCKETS || latency->thresholds[2] == READ_LATENCY_BUCKETS) {
    return 0;
  }
  if (latest < latency->thresholds[0]) {
    return 1000;
  }
  if (latest < latency->thresholds[1]) {
    return 500;
  }
  return latest < latency->thresholds[2] ? 0 : -1000;
}
