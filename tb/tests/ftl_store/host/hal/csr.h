/* Host stand-in for firmware/hal/csr.h (its CSR accesses and WFI are RV32 instructions), found
 * first on the include path of the host builds of tp_store.c and the FTL runtime
 * (tb/tests/ftl_runtime): no CSRs (they read as zero, writes go nowhere), and WFI is
 * hal_stubs.cpp's, which hands it to the harness running the main loop. */
#ifndef SSDVP_FIRMWARE_HAL_CSR_H
#define SSDVP_FIRMWARE_HAL_CSR_H

#include <stdint.h>

#define csr_read(csr) 0u
#define csr_write(csr, value) ((void)(value))

#ifdef __cplusplus
extern "C" {
#endif

void cpu_wait_for_interrupt(void);

#ifdef __cplusplus
}
#endif

#endif
