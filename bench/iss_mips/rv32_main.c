/* The benchmark on the controller core: prints the checksum on the console, which
 * scripts/run-benches compares with the native build's. */
#include "hal/console.h"
#include "workload.h"

int main(void) {
  uint32_t checksum = workload_run(ISS_MIPS_ROUNDS);
  fw_printf("iss_mips checksum 0x%08x rounds %u\n", (unsigned)checksum, ISS_MIPS_ROUNDS);
  return 0;
}
