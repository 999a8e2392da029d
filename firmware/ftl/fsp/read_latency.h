/* The latency term of the RL grouping policy's reward (the QLC scheduling paper, section III-B,
 * after Kang et al. and Li et al.): host read latencies normalised to one KiB, their
 * distribution since boot, and where the latest read falls in it: below the 70th percentile
 * +1, below the 90th +0.5, below the 99th 0, else -1.
 *
 * The distribution is a histogram over logarithmic buckets, 8 per power of two (a bucket spans
 * at most 12.5 % of its values), and its percentiles are found once per episode (the renewal),
 * so a reward costs a bucket index and three compares. "Below a percentile" means in a lower
 * bucket than the percentile's. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_READ_LATENCY_H
#define SSDVP_FIRMWARE_FTL_FSP_READ_LATENCY_H

#include <stdint.h>

#define READ_LATENCY_BUCKETS 240u

typedef struct read_latency {
  uint32_t counts[READ_LATENCY_BUCKETS];
  uint32_t total;
  uint32_t latest;       /* bucket of the latest read; READ_LATENCY_BUCKETS before any */
  uint32_t thresholds[3]; /* buckets of the 70th, 90th and 99th percentiles */
} read_latency_t;

void read_latency_init(read_latency_t *latency);

/* The bucket of `ns_per_kib`. */
uint32_t read_latency_bucket(uint32_t ns_per_kib);

/* A host read of `bytes` completed after `latency_ns`. */
void read_latency_add(read_latency_t *latency, uint64_t latency_ns, uint32_t bytes);

/* Finds the percentiles of every read so far. */
void read_latency_renew(read_latency_t *latency);

/* The latest read's term in thousandths: 1000, 500, 0 or -1000; 0 before any read or any
 * renewal. */
int32_t read_latency_reward_milli(const read_latency_t *latency);

#endif
