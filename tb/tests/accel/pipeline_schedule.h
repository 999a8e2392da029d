// The accelerator pipeline's cycle count, derived from rqrmi_infer.v's schedule (not measured):
// the expected values of the RTL and TLM timing tests.
#pragma once

#include <cstdint>

namespace ssdvp::test {

// Cycles from the cycle after ACCEL_START until the job's end, without the search, for `keys`
// keys (no more than the result FIFO holds) through a model of `stages` stages. Keys enter while
// the issue slot is free and a key's token re-enters it for each further stage with priority
// over new keys, 5 cycles per stage: so keys go in groups of five, key k = 5g + i entering in
// cycle 1 + 5 * stages * g + i and leaving 5 * stages cycles later; the job ends in the cycle
// after the last key left.
inline uint64_t expected_job_cycles(uint64_t keys, uint64_t stages) {
  const uint64_t group = (keys - 1) / 5;
  const uint64_t in_group = (keys - 1) % 5;
  return 1 + 5 * stages * group + in_group + 5 * stages + 1;
}

}  // namespace ssdvp::test
