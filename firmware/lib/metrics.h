/* Named metrics the platform reads (interface/fw_stats.h). Each module registers, once at boot,
 * the variables it already keeps: a counter only grows, a gauge holds a current value, a
 * histogram is an array of counters over equal-width buckets. Registration records only the
 * name and the address, so updating a metric costs what updating the variable costs.
 *
 * A name is a string that outlives the firmware (a literal), dotted for nesting
 * ("gc.pages_moved"). A registration that does not fit the table, or a name registered twice,
 * is refused: metrics_fit() turns false and metrics_problem() says which and why, and boot
 * stops with that message. */
#ifndef SSDVP_FIRMWARE_LIB_METRICS_H
#define SSDVP_FIRMWARE_LIB_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "fw_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts an empty table in `block` (which the platform finds by its symbol). */
void metrics_init(fw_stats_t *block);

void metrics_counter(const char *name, const uint64_t *value);
void metrics_counter32(const char *name, const uint32_t *value);
void metrics_gauge(const char *name, const uint64_t *value);
void metrics_gauge32(const char *name, const uint32_t *value);
/* `buckets` counters of `bucket_width` each; the last also counts everything larger. */
void metrics_histogram(const char *name, const uint64_t *buckets, uint32_t count,
                       uint32_t bucket_width);

/* `buckets` current counts of `bucket_width` each (how many things have a value in each bucket
 * now, e.g. stripes by valid pages): reported at a span's end, not as growth. */
void metrics_distribution32(const char *name, const uint32_t *buckets, uint32_t count,
                            uint32_t bucket_width);

/* Counts `value` into a histogram of `count` buckets of `bucket_width`. */
static inline void metrics_histogram_add(uint64_t *buckets, uint32_t count, uint32_t bucket_width,
                                         uint32_t value) {
  uint32_t bucket = value / bucket_width;
  ++buckets[bucket < count ? bucket : count - 1u];
}

/* True while every registration has been taken. */
bool metrics_fit(void);
/* Why the first refused registration was refused ("" while all fit): the table and its limit,
 * the name twice, ...; and its name. */
const char *metrics_problem(void);
const char *metrics_refused(void);

/* The variable registered under `name`, or NULL (host tests read metrics by name). */
const void *metrics_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
