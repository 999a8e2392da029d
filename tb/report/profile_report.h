// Firmware profile: the cycles a hart spent at each instruction address, summed per function
// symbol of the firmware ELF and ranked, for stats.json and the printed summary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tlm/system/elf_image.h"

namespace ssdvp {

// Cycles spent on the instruction at one (halfword-aligned) address.
struct AddressCycles {
  uint32_t address = 0;
  uint64_t cycles = 0;
};

struct FunctionCycles {
  std::string function;  // symbol name, or ProfileReport::kUnknownFunction
  uint64_t cycles = 0;
  double percent = 0;  // of the total cycles
};

class ProfileReport {
 public:
  // Cycles at addresses that no function symbol covers.
  static constexpr const char* kUnknownFunction = "<unknown>";

  // Functions are found with ElfImage::function_at; samples with 0 cycles are ignored.
  ProfileReport(const ElfImage& image, const std::vector<AddressCycles>& samples);

  // The core's profile counters (cpu::Core::profile_cycles: one per halfword from `base`) as
  // samples, leaving out the addresses that spent no cycles.
  static std::vector<AddressCycles> from_halfword_counters(uint32_t base,
                                                           const std::vector<uint64_t>& counters);

  uint64_t total_cycles() const { return total_cycles_; }
  // Every function that spent cycles, most cycles first (ties by name).
  const std::vector<FunctionCycles>& functions() const { return functions_; }

  // The first `top` functions as [{"function", "cycles", "percent"}, ...].
  nlohmann::json to_json(size_t top) const;
  // The first `top` functions as an aligned table with their percentages, a row summing the
  // functions left out (if any) and the total; one line per row, each ending in '\n'.
  std::string format_table(size_t top) const;

 private:
  uint64_t total_cycles_ = 0;
  std::vector<FunctionCycles> functions_;
};

}  // namespace ssdvp
