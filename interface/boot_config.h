/* Boot-config block: the platform fills it at MM_BOOT_CONFIG_ADDR before reset and the firmware
 * reads it at boot. It carries everything of the scenario the firmware must know. Fields are
 * 32-bit words so C and C++ agree on the layout without packing pragmas. */
#ifndef SSDVP_INTERFACE_BOOT_CONFIG_H
#define SSDVP_INTERFACE_BOOT_CONFIG_H

#include "memory_map.h"

#define BOOT_CONFIG_MAGIC 0x43464742u /* "BGFC" */
#define BOOT_CONFIG_VERSION 20u

/* Byte offsets of the fields the boot code reads in assembly (checked against the struct). */
#define BOOT_CONFIG_OFFSET_MAGIC 0
#define BOOT_CONFIG_OFFSET_HART_COUNT 12
#define BOOT_CONFIG_OFFSET_SRAM_SIZE 28
#define BOOT_CONFIG_OFFSET_STACK_BYTES_PER_HART 36

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

/* The `options` of a numeric key in firmware_params.def: 0 is allowed below its minimum. */
#define FW_PARAM_ZERO_OK 1u

/* Mapping schemes; the names are the scenario's firmware.scheme values. */
enum boot_scheme {
  BOOT_SCHEME_IDEAL = 0,
  BOOT_SCHEME_DFTL = 1,
  BOOT_SCHEME_TPFTL = 2,
  BOOT_SCHEME_SFTL = 3,
  BOOT_SCHEME_LEAFTL = 4,
  BOOT_SCHEME_LEARNEDFTL = 5,
  BOOT_SCHEME_RQFTL = 6,
  BOOT_SCHEME_COUNT = 7
};

#define BOOT_SCHEME_NAMES {"ideal", "dftl", "tpftl", "sftl", "leaftl", "learnedftl", "rqftl"}

/* Where RQRMI lookups run; the names are the scenario's firmware.rqrmi_engine values. */
enum boot_rqrmi_engine {
  BOOT_RQRMI_ENGINE_CPU = 0,   /* inference and secondary search in firmware */
  BOOT_RQRMI_ENGINE_ACCEL = 1, /* both on the RQRMI accelerator */
  BOOT_RQRMI_ENGINE_COUNT = 2
};

#define BOOT_RQRMI_ENGINE_NAMES {"cpu", "accel"}

/* GC victim policies; the names are the scenario's ftl.gc.victim values. */
enum boot_gc_victim {
  BOOT_GC_VICTIM_GREEDY = 0,       /* the full stripe with the fewest valid pages */
  BOOT_GC_VICTIM_2R_GREEDY = 1,    /* 2R: greedy first, more of its region to free a stripe */
  BOOT_GC_VICTIM_2R_FIFO = 2,      /* 2R: a FIFO scan with selective merge and second chance */
  BOOT_GC_VICTIM_COST_BENEFIT = 3, /* LFS: the highest age x (1 - u) / u */
  BOOT_GC_VICTIM_GTD_GROUP = 4,    /* LearnedFTL: a whole GTD-entry group, moved in LPN order */
  BOOT_GC_VICTIM_COUNT = 5
};
#define BOOT_GC_VICTIM_NAMES {"greedy", "2r_greedy", "2r_fifo", "cost_benefit", "gtd_group"}

/* Write-buffer grouping (full-sequence-program) policies: ftl.fsp.policy. */
enum boot_fsp_policy {
  BOOT_FSP_BASELINE = 0,  /* the LRU tail, in order */
  BOOT_FSP_FREQUENCY = 1, /* page types by read count */
  BOOT_FSP_DISTANCE = 2,  /* LPNs far apart in one wordline */
  BOOT_FSP_RL = 3,        /* page types by Q-learning */
  BOOT_FSP_SORTED = 4,    /* ascending LPN sweeps (LeaFTL) */
  BOOT_FSP_GTD_GROUP = 5, /* each GTD-entry group to its own stream (LearnedFTL) */
  BOOT_FSP_COUNT = 6
};
#define BOOT_FSP_NAMES {"baseline", "frequency", "distance", "rl", "sorted", "gtd_group"}

/* Which stripe of a GTD-entry group gtd_group GC may collect alone, into the group's open
 * stripe, instead of the whole group: ftl.gtd_group.lone_stripe. */
enum boot_gtd_lone_stripe {
  BOOT_GTD_LONE_EMPTY = 0, /* one with no valid page (the paper: whole groups otherwise) */
  BOOT_GTD_LONE_FITS = 1,  /* the emptiest, when the open stripe has room (the authors' code) */
  BOOT_GTD_LONE_COUNT = 2
};
#define BOOT_GTD_LONE_NAMES {"empty", "fits"}

/* Where a structure lives: ftl.write_buffer.location, ftl.block_tables.location. */
enum boot_memory {
  BOOT_MEMORY_SRAM = 0,
  BOOT_MEMORY_DRAM = 1,
  BOOT_MEMORY_COUNT = 2
};
#define BOOT_MEMORY_NAMES {"sram", "dram"}

/* Striping order (ftl.alloc_order, e.g. "CWDP"): four 2-bit fields, the first the fastest
 * varying, each naming a level of parallelism. */
#define BOOT_ALLOC_LEVEL_CHANNEL 0u
#define BOOT_ALLOC_LEVEL_WAY 1u
#define BOOT_ALLOC_LEVEL_DIE 2u
#define BOOT_ALLOC_LEVEL_PLANE 3u
#define BOOT_ALLOC_ORDER_LEVEL(order, position) (((order) >> (2u * (position))) & 3u)

/* The platform's facts first, then one word per firmware key of interface/firmware_params.def
 * (the key's meaning and unit are there). */
typedef struct boot_config {
  uint32_t magic;
  uint32_t version;
  uint32_t size_bytes; /* sizeof(boot_config_t) as the platform wrote it */
  uint32_t hart_count;
  uint32_t cpu_clock_hz;
  uint32_t timebase_hz; /* CLINT mtime rate */
  uint32_t rom_size;
  uint32_t sram_size;
  uint32_t dram_size; /* 0 = no DRAM */
  uint32_t stack_bytes_per_hart;
  uint32_t seed;
  uint32_t ftl_lpn_count; /* LPNs exported to the host (what the HIC reports) */
  uint32_t power_losses; /* power cuts before this boot; 0: first boot of a factory-fresh device */
#define FW_PARAM_CHOICE(field, ...) uint32_t field;
#define FW_PARAM_FLAG(field, ...) uint32_t field;
#define FW_PARAM_COUNT(field, ...) uint32_t field;
#define FW_PARAM_SIZE(field, ...) uint32_t field;
#define FW_PARAM_TIME(field, ...) uint32_t field##_ns;
#define FW_PARAM_REAL(field, ...) float field;
#define FW_PARAM_TEXT(field, ...) uint32_t field;
#include "firmware_params.def"
} boot_config_t;

#ifdef __cplusplus
#define BOOT_CONFIG_STATIC_ASSERT static_assert
#else
#define BOOT_CONFIG_STATIC_ASSERT _Static_assert
#endif
BOOT_CONFIG_STATIC_ASSERT(sizeof(boot_config_t) <= MM_BOOT_CONFIG_RESERVED,
                          "boot config overflows its block");
BOOT_CONFIG_STATIC_ASSERT(offsetof(boot_config_t, magic) == BOOT_CONFIG_OFFSET_MAGIC, "offset");
BOOT_CONFIG_STATIC_ASSERT(offsetof(boot_config_t, hart_count) == BOOT_CONFIG_OFFSET_HART_COUNT,
                          "offset");
BOOT_CONFIG_STATIC_ASSERT(offsetof(boot_config_t, sram_size) == BOOT_CONFIG_OFFSET_SRAM_SIZE,
                          "offset");
BOOT_CONFIG_STATIC_ASSERT(offsetof(boot_config_t, stack_bytes_per_hart) ==
                              BOOT_CONFIG_OFFSET_STACK_BYTES_PER_HART,
                          "offset");
#undef BOOT_CONFIG_STATIC_ASSERT

#endif /* __ASSEMBLER__ */

#endif
