/* The FTL runtime: the event-driven run-to-completion loop that serves the host.
 *
 * Host commands arrive as HIC events and become page requests that move through stages:
 * ordering behind earlier requests to the same LPN, translate (the scheme's lookup; a miss loads
 * the translation page through the TP store, a prediction is read with its OOB and checked),
 * the data operation, and the transfer to or from the host. Writes land in the write buffer and
 * their command completes once every page is buffered; whole wordlines are programmed later and
 * the mapping updated when the program completes. GC and wear levelling run as one job beside
 * the host's requests; flash completions come back through the flash layer's queue.
 * When nothing is left to do the core sleeps in WFI. */
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
} ftl_init_result_t;

/* Builds every structure from the arenas (the write buffer in DRAM when the boot config says
 * so; dram is NULL without DRAM) and starts the HIC and NFC. `problem` says what failed. */
ftl_init_result_t ftl_init(const boot_config_t *boot, const nand_geometry_t *geometry,
              const hic_geometry_t *host, arena_t *sram, arena_t *dram,
              const char **problem);

/* Serves the host for good. */
void ftl_run(void) __attribute__((noreturn));

#endif
