/* Range arrays for the RQRMI programs (tests and bench/rqrmi), reproducible from a seed: LPN-like
 * ranges like those RQFTL's cache holds, clustered by translation page. Portable C: the host side
 * of bench/rqrmi builds the same arrays. */
#ifndef SSDVP_FIRMWARE_TESTS_RQRMI_RANGE_GEN_H
#define SSDVP_FIRMWARE_TESTS_RQRMI_RANGE_GEN_H

#include <stdint.h>

#include "ml/rqrmi.h"

/* xorshift32: the next value of *state (never 0). */
uint32_t range_gen_random(uint32_t *state);

/* Writes n ranges: clusters of 1..cluster_max ranges of 1..255 keys with gaps of 0..16 keys
 * inside a cluster, clusters apart by 17..cluster_gap keys. Returns the ranges written: fewer
 * than n when the next one would pass key 2^32 - 1. */
uint32_t range_gen_clustered(rqrmi_range_t *ranges, uint32_t n, uint32_t seed,
                             uint32_t cluster_max, uint32_t cluster_gap);

/* Index of the range containing key, or RQRMI_NONE: a binary search over the whole array,
 * independent of any model. */
uint32_t range_gen_find(const rqrmi_range_t *ranges, uint32_t n, uint32_t key);

/* FNV-1a of a buffer: compares models trained on different machines. */
uint32_t range_gen_checksum(const void *data, uint32_t bytes);

#endif
