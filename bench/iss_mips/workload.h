/* The ISS speed benchmark's workload: CPU-bound, deterministic, the same code for the rv32 image
 * (bench/iss_mips.elf, run by ssdsim) and the native build (iss_mips_native), so both print the
 * same checksum and their run times compare like for like. */
#ifndef SSDVP_BENCH_ISS_MIPS_WORKLOAD_H
#define SSDVP_BENCH_ISS_MIPS_WORKLOAD_H

#include <stdint.h>

/* Rounds of the benchmark run: one round is about 1.66 million rv32 instructions, so the run
 * is about 416 million (harts[0].instret on ssdsim). */
#define ISS_MIPS_ROUNDS 250u

/* Runs `rounds` rounds of sorting, hashing, CRC-32, matrix multiply and linked-list traversal
 * and returns a checksum of every result. */
uint32_t workload_run(uint32_t rounds);

#endif
