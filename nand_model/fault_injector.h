// Seeded randomness of the array: which blocks leave the factory bad, and which operations fail
// when fault injection asks for it (rates in parts per million). Each purpose draws from a
// stream of its own, so enabling one kind of fault does not change where another falls.
#pragma once

#include <cstdint>
#include <vector>

#include "nand_model/geometry.h"
#include "tlm/system/random.h"
#include "tlm/system/soc_config.h"

namespace ssdvp::nand {

class FaultInjector {
 public:
  FaultInjector(const NandConfig& config, uint64_t seed);

  bool read_fails() { return ecc_.chance_ppm(ecc_fail_ppm_); }
  bool program_fails() { return program_.chance_ppm(program_fail_ppm_); }
  bool erase_fails() { return erase_.chance_ppm(erase_fail_ppm_); }

  // Block indices (geometry.block_index) of the factory bad blocks: each block with probability
  // nand.bad_block_rate, plus those listed in nand.bad_blocks ("channel:way:die:plane:block",
  // separated by commas or spaces). Sorted, without duplicates. Throws std::runtime_error naming
  // nand.bad_blocks, the entry and the allowed ranges for a malformed entry.
  static std::vector<uint64_t> factory_bad_blocks(const NandConfig& config,
                                                  const Geometry& geometry, uint64_t seed);

 private:
  uint32_t ecc_fail_ppm_;
  uint32_t program_fail_ppm_;
  uint32_t erase_fail_ppm_;
  Random ecc_;
  Random program_;
  Random erase_;
};

}  // namespace ssdvp::nand
