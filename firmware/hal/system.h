/* The system controller and the hart itself: exit, fault report, simulated time, boot config,
 * hart id. */
#ifndef SSDVP_FIRMWARE_HAL_SYSTEM_H
#define SSDVP_FIRMWARE_HAL_SYSTEM_H

#include <stdint.h>

#include "boot_config.h"
#include "hal/csr.h"
#include "hal/exit_codes.h"

/* Ends the run with `code` (FW_EXIT_*; 0 = success). */
void system_exit(uint32_t code) __attribute__((noreturn));

/* Reports an unrecoverable fault of this hart: the platform ends the run and prints the hart's
 * mepc (with its symbol), mcause and mtval. */
void system_fault(void) __attribute__((noreturn));

/* Simulated time in nanoseconds since reset. */
uint64_t system_time_ns(void);

/* The block the platform filled before reset (crt0 checked its magic). */
const boot_config_t *system_boot_config(void);

static inline unsigned system_hart_id(void) {
  return csr_read(mhartid);
}

#endif
