/* The FTL runtime: the boot wiring and the event-driven run-to-completion loop that serves the
 * host.
 *
 * ftl_init builds the shared structures (ftl/core.h) and the parts that use them: the host
 * pipeline (ftl/host_pipeline.h: commands become page requests that translate, read, buffer and
 * transfer), the write-buffer flush (ftl/buffer_flush.h: wordline programs and the mapping
 * updates after them), the TP store, and GC with wear levelling (ftl/gc.h), one job beside the
 * host's requests. The loop takes HIC events and flash completions, runs the ready tasks
 * (ftl/task.h) and gives each part its turn; when nothing is left to do the core sleeps in WFI. */
#ifndef SSDVP_FIRMWARE_FTL_FTL_H
#define SSDVP_FIRMWARE_FTL_FTL_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_config.h"
#include "hal/hic.h"
#include "lib/arena.h"
#include "nand_geometry.h"

typedef enum ftl_init_result {
  FTL_INIT_OK,
  FTL_INIT_NO_MEMORY,  /* a structure or the scheme's minimum does not fit: see the arenas */
  FTL_INIT_BAD_CONFIG, /* a policy, order or scheme this firmware does not know */
  FTL_INIT_NO_RECOVERY, /* after a power loss: the scheme or the device cannot be recovered */
} ftl_init_result_t;

/* Builds every structure from the arenas (the write buffer in DRAM when the boot config says
 * so; dram is NULL without DRAM) and starts the HIC and NFC. After a power loss (boot config
 * power_losses > 0) it recovers the FTL's state from the NAND first (ftl/recovery.h); on a
 * factory-fresh device it formats, reading nothing. `problem` says what failed. */
ftl_init_result_t ftl_init(const boot_config_t *boot, const nand_geometry_t *geometry,
              const hic_geometry_t *host, arena_t *sram, arena_t *dram,
              const char **problem);

/* Serves the host for good. */
void ftl_run(void) __attribute__((noreturn));

#endif
