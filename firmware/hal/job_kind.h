/* Charging this hart's cycles to a job kind (interface/job_kinds.h): the platform counts every
 * cycle the hart spends under the kind its mjobkind CSR holds. A switch is one CSR instruction;
 * nested switches restore the kind they found:
 *
 *   uint32_t outer = job_kind_enter(JOB_KIND_GC);
 *   ...
 *   job_kind_set(outer);
 *
 * On the host (unit tests of the portable modules) they compile to nothing. */
#ifndef SSDVP_FIRMWARE_HAL_JOB_KIND_H
#define SSDVP_FIRMWARE_HAL_JOB_KIND_H

#include <stdint.h>

#include "job_kinds.h"

_Static_assert(JOB_KIND_COUNT <= JOB_KIND_LIMIT, "the CSR holds every kind");
_Static_assert(JOB_KIND_IDLE == JOB_KIND_IDLE_VALUE, "crt0.S's idle kind");

#ifdef __riscv
#include "hal/csr.h"

/* Charges what follows to `kind`; returns the kind in force until now. A constant kind is the
 * instruction's immediate (csrrwi). */
static inline uint32_t job_kind_enter(uint32_t kind) {
  uint32_t outer;
  __asm__ volatile("csrrw%i1 %0, " CSR_NAME(JOB_KIND_CSR) ", %1"
                   : "=r"(outer)
                   : "rK"(kind));
  return outer;
}

/* Charges what follows to `kind` (the kind job_kind_enter returned, to go back to it). */
static inline void job_kind_set(uint32_t kind) {
  __asm__ volatile("csrw%i0 " CSR_NAME(JOB_KIND_CSR) ", %0" ::"rK"(kind));
}

/* The kind in force. */
static inline uint32_t job_kind_current(void) { return csr_read(JOB_KIND_CSR); }
#else
static inline uint32_t job_kind_enter(uint32_t kind) {
  (void)kind;
  return JOB_KIND_OTHER;
}
static inline void job_kind_set(uint32_t kind) { (void)kind; }
static inline uint32_t job_kind_current(void) { return JOB_KIND_OTHER; }
#endif

#endif
