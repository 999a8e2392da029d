/* The benchmark on the host: prints the checksum and its own wall time. An optional argument
 * sets the number of rounds (to size the rv32 run). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "workload.h"

static double monotonic_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  uint32_t rounds = ISS_MIPS_ROUNDS;
  if (argc > 2) {
    fprintf(stderr, "usage: %s [rounds]\n", argv[0]);
    return 2;
  }
  if (argc == 2) {
    char *end = NULL;
    errno = 0;
    unsigned long value = strtoul(argv[1], &end, 10);
    if (errno != 0 || end == argv[1] || *end != 0 || value == 0 || value > UINT32_MAX) {
      fprintf(stderr, "iss_mips_native: rounds '%s' must be an integer in 1..%" PRIu32 "\n",
              argv[1], UINT32_MAX);
      return 2;
    }
    rounds = (uint32_t)value;
  }
  double start = monotonic_seconds();
  uint32_t checksum = workload_run(rounds);
  double seconds = monotonic_seconds() - start;
  printf("iss_mips checksum 0x%08" PRIx32 " rounds %" PRIu32 "\n", checksum, rounds);
  printf("native_seconds %.6f\n", seconds);
  return 0;
}
