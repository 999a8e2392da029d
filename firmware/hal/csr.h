/* Machine-mode control and status registers: access macros and the bits the HAL uses. */
#ifndef SSDVP_FIRMWARE_HAL_CSR_H
#define SSDVP_FIRMWARE_HAL_CSR_H

#include <stdint.h>

#include "job_kinds.h"

#define MSTATUS_MIE (1u << 3)
#define MIE_MSIE (1u << 3)
#define MIE_MTIE (1u << 7)
#define MIE_MEIE (1u << 11)
#define MIP_MSIP (1u << 3)
#define MIP_MTIP (1u << 7)
#define MIP_MEIP (1u << 11)
#define MCAUSE_INTERRUPT (1u << 31)
#define MCAUSE_MACHINE_SOFTWARE 3u
#define MCAUSE_MACHINE_TIMER 7u
#define MCAUSE_MACHINE_EXTERNAL 11u
/* ssdvp's own CSRs (tlm/cpu/rv_csr.h). mzerotime: bit 0 set, this hart's cycles pass no
 * simulated time. mjobkind (JOB_KIND_CSR): the job kind this hart's cycles are charged to
 * (interface/job_kinds.h, hal/job_kind.h). */
#define CSR_MZEROTIME 0x7c0

/* The CSR's name, or a macro naming its number (CSR_MZEROTIME), as the assembler takes it. */
#define CSR_NAME_(csr) #csr
#define CSR_NAME(csr) CSR_NAME_(csr)

#define csr_read(csr)                                               \
  ({                                                                \
    uint32_t csr_value_;                                            \
    __asm__ volatile("csrr %0, " CSR_NAME(csr) : "=r"(csr_value_)); \
    csr_value_;                                                     \
  })
#define csr_write(csr, value) \
  __asm__ volatile("csrw " CSR_NAME(csr) ", %0" ::"r"((uint32_t)(value)) : "memory")
#define csr_set(csr, bits) \
  __asm__ volatile("csrs " CSR_NAME(csr) ", %0" ::"r"((uint32_t)(bits)) : "memory")
#define csr_clear(csr, bits) \
  __asm__ volatile("csrc " CSR_NAME(csr) ", %0" ::"r"((uint32_t)(bits)) : "memory")
/* Clears bits and returns the previous value in one instruction. */
#define csr_read_clear(csr, bits)                   \
  ({                                                \
    uint32_t csr_value_;                            \
    __asm__ volatile("csrrc %0, " CSR_NAME(csr) ", %1" \
                     : "=r"(csr_value_)             \
                     : "r"((uint32_t)(bits))        \
                     : "memory");                   \
    csr_value_;                                     \
  })

/* Sleeps until an interrupt is pending (or at once when one is). The sleep is charged to the job
 * kind JOB_KIND_IDLE, and the kind in force before to what follows. */
static inline void cpu_wait_for_interrupt(void) {
  uint32_t outer;
  __asm__ volatile("csrrwi %0, " CSR_NAME(JOB_KIND_CSR) ", %1\n\t"
                   "wfi\n\t"
                   "csrw " CSR_NAME(JOB_KIND_CSR) ", %0"
                   : "=&r"(outer)
                   : "K"(JOB_KIND_IDLE)
                   : "memory");
}

#endif
