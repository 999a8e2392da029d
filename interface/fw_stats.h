/* The firmware's statistics block. The firmware keeps it in SRAM at the ELF symbol `fw_stats`;
 * the platform reads it (by debug access, costing no simulated time) at the start and end of
 * every workload phase, every host.stats_interval and at the end of the run, and turns the
 * differences into per-phase metrics and time series in stats.json.
 *
 * It holds two tables the firmware fills at boot: the regions of its memory arenas, and its
 * metrics. A metric is registered by name with the address of the variable the firmware keeps
 * it in (firmware/lib/metrics.h); the platform reads the table, then each variable. Names are
 * addresses of NUL-terminated strings in the image, dotted for nesting in stats.json
 * ("flash_reads.host"). Counts are of NAND pages unless named otherwise. */
#ifndef SSDVP_INTERFACE_FW_STATS_H
#define SSDVP_INTERFACE_FW_STATS_H

#define FW_STATS_MAGIC 0x53545746u /* "FWTS" */
#define FW_STATS_VERSION 3u
#define FW_STATS_MAX_REGIONS 128u /* arena regions, SRAM and DRAM together */
#define FW_STATS_MAX_METRICS 160u
#define FW_STATS_NAME_BYTES 48u   /* the longest name the platform reads, NUL included */
#define FW_STATS_MAX_BUCKETS 1024u

#define FW_STATS_LOCATION_SRAM 0u
#define FW_STATS_LOCATION_DRAM 1u

/* Metric kinds. */
#define FW_METRIC_COUNTER 0u   /* only grows: a span reports its growth */
#define FW_METRIC_GAUGE 1u     /* a current value: a span reports it at its end */
#define FW_METRIC_HISTOGRAM 2u /* `buckets` counters: bucket i counts the values in
                                  [i * bucket_width, (i + 1) * bucket_width), the last one
                                  also every larger value */
#define FW_METRIC_DISTRIBUTION 3u /* `buckets` current counts, bucketed as a histogram's: a
                                     span reports them at its end */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* One named structure of a boot-time arena. */
typedef struct fw_stats_region {
  uint32_t name;     /* address of its name */
  uint32_t bytes;
  uint32_t location; /* FW_STATS_LOCATION_* */
} fw_stats_region_t;

/* One metric. */
typedef struct fw_stats_metric {
  uint32_t name;         /* address of its name */
  uint32_t value;        /* address of its value, or of its first bucket */
  uint16_t kind;         /* FW_METRIC_* */
  uint16_t value_bytes;  /* 4 or 8: each value (bucket) is a uint32_t or a uint64_t */
  uint16_t buckets;      /* histograms: 1..FW_STATS_MAX_BUCKETS; 1 for the others */
  uint16_t reserved;
  uint32_t bucket_width; /* histograms: > 0 */
} fw_stats_metric_t;

typedef struct fw_stats {
  uint32_t magic;
  uint32_t version;
  uint32_t boot_complete; /* 1 once the FTL serves the host */
  uint32_t sram_budget_bytes; /* what the arena may use of each memory */
  uint32_t sram_used_bytes;
  uint32_t dram_budget_bytes;
  uint32_t dram_used_bytes;
  uint32_t region_count;
  uint32_t metric_count;
  fw_stats_region_t regions[FW_STATS_MAX_REGIONS];
  fw_stats_metric_t metrics[FW_STATS_MAX_METRICS];
} fw_stats_t;
#endif

#endif
