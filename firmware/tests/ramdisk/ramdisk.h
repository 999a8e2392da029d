/* Test firmware's RAM disk behind the real host interface path, for the host-side tests until
 * the FTL serves commands; served by one hart (tests/ramdisk/main.c, tests/worker/main.c).
 *
 * - Storage: a compact table in DRAM at MM_DRAM_BASE, one 32-bit version per LPN (0 = never
 *   written or trimmed), zeroed at boot. A page read back holds {lpn, version}, or zeroes for
 *   version 0.
 * - Buffers: RAMDISK_SLOTS page-sized slots in DRAM after the table. Commands wait for free
 *   slots in arrival order, one page per slot.
 * - Trims clear only the pages they cover whole; a partial page keeps its data. A command that
 *   reaches beyond HIC_LPN_COUNT completes with HIC_STATUS_INVALID.
 * Built with RAMDISK_STALE_LPN defined (ramdisk_stale.elf), it hands out the previous version of
 * that LPN on reads, for the integrity oracle's tests. */
#ifndef SSDVP_FIRMWARE_TESTS_RAMDISK_RAMDISK_H
#define SSDVP_FIRMWARE_TESTS_RAMDISK_RAMDISK_H

#include <stdint.h>

#include "boot_config.h"

/* Checks that the platform can be served (HIC present, its command slots, DRAM for the table
 * and the slots), zeroes the table, prints one line and starts the HIC rings. Stops the run
 * with a message when the platform cannot be served. */
void ramdisk_start(const boot_config_t *config);

/* Serves HIC events until none waits; returns how many. */
uint32_t ramdisk_serve(void);

/* Sleeps in WFI until an interrupt is pending, unless a HIC event already waits. An event
 * posted after the check raises the interrupt, which ends the WFI even with interrupts
 * disabled; enabling them then runs the handler that acknowledges it. */
void ramdisk_idle(void);

#endif
