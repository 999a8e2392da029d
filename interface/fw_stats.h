/* The firmware's statistics block. The firmware keeps it in SRAM at the ELF symbol `fw_stats`;
 * the platform reads it (by debug access, costing no simulated time) at the end of every
 * workload phase and of the run, and turns the differences into per-phase metrics in
 * stats.json. Counters only grow; a gauge (named so) holds the current value. Counts are of NAND
 * pages unless named otherwise. */
#ifndef SSDVP_INTERFACE_FW_STATS_H
#define SSDVP_INTERFACE_FW_STATS_H

#define FW_STATS_MAGIC 0x53545746u /* "FWTS" */
#define FW_STATS_VERSION 2u
#define FW_STATS_MAX_REGIONS 48u
#define FW_STATS_NAME_BYTES 24u

#define FW_STATS_LOCATION_SRAM 0u
#define FW_STATS_LOCATION_DRAM 1u

#ifndef __ASSEMBLER__
#include <stdint.h>

/* One named structure of the boot-time arena. */
typedef struct fw_stats_region {
  char name[FW_STATS_NAME_BYTES]; /* NUL-terminated */
  uint32_t bytes;
  uint32_t location; /* FW_STATS_LOCATION_* */
} fw_stats_region_t;

typedef struct fw_stats {
  uint32_t magic;
  uint32_t version;
  uint32_t boot_complete;   /* 1 once the FTL serves the host */
  uint32_t region_count;
  fw_stats_region_t regions[FW_STATS_MAX_REGIONS];
  uint32_t sram_budget_bytes; /* what the arena may use of each memory */
  uint32_t sram_used_bytes;
  uint32_t dram_budget_bytes;
  uint32_t dram_used_bytes;

  /* Host side (pages of the host's commands). */
  uint64_t host_commands;
  uint64_t host_read_pages;
  uint64_t host_write_pages;
  uint64_t host_trim_pages;
  uint64_t write_buffer_read_hits; /* host reads served from the write buffer */
  uint64_t partial_page_merges;    /* partial-page writes merged with the old data (RMW) */

  /* Mapping. Lookups, hits and misses count the first time each host page request asks (the
   * pipeline asks again after a TP load, which must not count as a hit); a right prediction is a
   * hit. The rest are the scheme's map_counters_t, kept current by the FTL. */
  uint64_t map_lookups;
  uint64_t map_hits;
  uint64_t map_misses;
  uint64_t map_predictions;
  uint64_t map_mispredictions;
  uint64_t map_updates;
  uint64_t map_update_misses;
  uint64_t map_evictions;
  uint64_t map_dirty_evictions;
  uint64_t map_prefetched;

  /* Flash operations issued, by purpose. */
  uint64_t flash_reads_host;        /* data reads for host reads, mispredictions included */
  uint64_t flash_reads_translation; /* TP reads, for whatever purpose */
  uint64_t flash_reads_translation_host; /* of those, TP reads a host read waited for */
  uint64_t flash_reads_gc;          /* data reads of GC and wear levelling */
  uint64_t flash_reads_rmw;         /* old-data reads of partial-page writes */
  uint64_t pages_programmed_host;   /* host data pages programmed */
  uint64_t pages_programmed_gc;     /* pages moved by GC and wear levelling */
  uint64_t pages_programmed_translation; /* TPs programmed */
  uint64_t pages_programmed_padding;     /* filler pages completing a wordline */
  uint64_t blocks_erased;

  /* Garbage collection and wear levelling. */
  uint64_t gc_invocations;          /* victim blocks collected */
  uint64_t gc_foreground;           /* of those, while host work waited */
  uint64_t gc_pages_moved;
  uint64_t wl_migrations;           /* blocks moved by static wear levelling */

  /* Bad blocks (groups, as GC counts them). */
  uint64_t groups_retired;          /* after a failed program or erase */
  uint64_t retired_groups_rescued;  /* retired groups whose valid pages GC moved off */
  uint64_t retired_valid_pages;     /* a gauge: valid pages still on retired groups */
} fw_stats_t;
#endif

#endif
