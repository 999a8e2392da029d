// The rules a NAND array enforces. Breaking one is a firmware bug, not a device status: the
// violation names the rule and the address, and the platform stops the run.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "nand_model/geometry.h"

namespace ssdvp::nand {

enum class Rule {
  kWithinGeometry,       // every address, and a multi-plane operation's planes, exist
  kProgramErasedOnly,    // a program targets pages not programmed since the block's erase
  kWordlinesInOrder,     // the wordlines of a block are programmed in order, none skipped
  kFullSequence,         // a program writes every page of its wordline, starting at its LSB page
  kEraseBeforeReuse,     // a block whose every wordline is programmed is erased before reuse
  kEraseCompleted,       // a block whose erase a power loss interrupted is erased again first
};

// "program only erased pages", ...
const char* rule_name(Rule rule);

// A broken rule: which, where (an address) and what exactly.
struct Violation {
  Rule rule;
  std::string where;
  std::string detail;
  // "NAND rule '<name>' violated at <where>: <detail>".
  std::string message() const;
};

class RuleViolation : public std::runtime_error {
 public:
  explicit RuleViolation(const Violation& violation);
  Rule rule() const { return rule_; }

 private:
  Rule rule_;
};

// The checks, each as a query (for callers that must not throw, such as a SystemC process)
// and as a check that throws RuleViolation.
// `ppn` and the planes ppn's plane .. + plane_count - 1 lie inside the array.
std::optional<Violation> geometry_violation(const Geometry& geometry, uint64_t ppn,
                                            uint32_t plane_count);
void check_within_geometry(const Geometry& geometry, uint64_t ppn, uint32_t plane_count);
// A program of the wordline starting at `ppn`, in a block whose next unprogrammed page is
// `next_page` (pages are programmed a whole wordline at a time, in order) and whose last erase
// a power loss interrupted when `erase_interrupted`.
std::optional<Violation> program_violation(const Geometry& geometry, uint32_t ppn,
                                           uint32_t next_page, bool erase_interrupted);
void check_program_target(const Geometry& geometry, uint32_t ppn, uint32_t next_page,
                          bool erase_interrupted);

}  // namespace ssdvp::nand
