#include "lib/metrics.h"

#include <stddef.h>
#include <string.h>

/* The names and variables as pointers: the block holds them as 32-bit addresses, which host
 * builds of the firmware (64-bit pointers) cannot follow back. */
static struct {
  fw_stats_t *block;
  const char *names[FW_STATS_MAX_METRICS];
  const void *values[FW_STATS_MAX_METRICS];
  const char *problem;
  const char *refused;
} metrics;

void metrics_init(fw_stats_t *block) {
  memset(&metrics, 0, sizeof(metrics));
  metrics.block = block;
  block->metric_count = 0;
}

static void refuse(const char *problem, const char *name) {
  if (metrics.problem == NULL) {
    metrics.problem = problem;
    metrics.refused = name;
  }
}

static void add(const char *name, const void *value, uint32_t kind, uint32_t value_bytes,
                uint32_t buckets, uint32_t bucket_width) {
  fw_stats_t *block = metrics.block;
  if (block == NULL) {
    refuse("metrics_init was not called", name);
    return;
  }
  if (strlen(name) >= FW_STATS_NAME_BYTES) {
    refuse("its name is longer than FW_STATS_NAME_BYTES - 1 characters", name);
    return;
  }
  if (metrics_find(name) != NULL) {
    refuse("the name is registered twice", name);
    return;
  }
  if (block->metric_count == FW_STATS_MAX_METRICS) {
    refuse("the metric table is full (FW_STATS_MAX_METRICS in interface/fw_stats.h)", name);
    return;
  }
  uint32_t index = block->metric_count++;
  metrics.names[index] = name;
  metrics.values[index] = value;
  fw_stats_metric_t *entry = &block->metrics[index];
  entry->name = (uint32_t)(uintptr_t)name;
  entry->value = (uint32_t)(uintptr_t)value;
  entry->kind = (uint16_t)kind;
  entry->value_bytes = (uint16_t)value_bytes;
  entry->buckets = (uint16_t)buckets;
  entry->reserved = 0;
  entry->bucket_width = bucket_width;
}

void metrics_counter(const char *name, const uint64_t *value) {
  add(name, value, FW_METRIC_COUNTER, sizeof(uint64_t), 1u, 1u);
}

void metrics_counter32(const char *name, const uint32_t *value) {
  add(name, value, FW_METRIC_COUNTER, sizeof(uint32_t), 1u, 1u);
}

void metrics_gauge(const char *name, const uint64_t *value) {
  add(name, value, FW_METRIC_GAUGE, sizeof(uint64_t), 1u, 1u);
}

void metrics_gauge32(const char *name, const uint32_t *value) {
  add(name, value, FW_METRIC_GAUGE, sizeof(uint32_t), 1u, 1u);
}

/* False (refused) when the bucket shape is not allowed. */
static bool buckets_allowed(const char *name, uint32_t count, uint32_t bucket_width) {
  if (count == 0 || count > FW_STATS_MAX_BUCKETS || bucket_width == 0) {
    refuse("a histogram needs 1..FW_STATS_MAX_BUCKETS buckets of a width > 0", name);
    return false;
  }
  return true;
}

void metrics_histogram(const char *name, const uint64_t *buckets, uint32_t count,
                       uint32_t bucket_width) {
  if (buckets_allowed(name, count, bucket_width)) {
    add(name, buckets, FW_METRIC_HISTOGRAM, sizeof(uint64_t), count, bucket_width);
  }
}

void metrics_distribution32(const char *name, const uint32_t *buckets, uint32_t count,
                            uint32_t bucket_width) {
  if (buckets_allowed(name, count, bucket_width)) {
    add(name, buckets, FW_METRIC_DISTRIBUTION, sizeof(uint32_t), count, bucket_width);
  }
}

bool metrics_fit(void) { return metrics.problem == NULL; }

const char *metrics_problem(void) { return metrics.problem == NULL ? "" : metrics.problem; }

const char *metrics_refused(void) { return metrics.refused == NULL ? "" : metrics.refused; }

const void *metrics_find(const char *name) {
  for (uint32_t i = 0; metrics.block != NULL && i < metrics.block->metric_count; ++i) {
    if (strcmp(metrics.names[i], name) == 0) {
      return metrics.values[i];
    }
  }
  return NULL;
}
