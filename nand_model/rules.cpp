#include "nand_model/rules.h"

#include <fmt/format.h>

namespace ssdvp::nand {

const char* rule_name(Rule rule) {
  switch (rule) {
    case Rule::kWithinGeometry: return "addresses within the geometry";
    case Rule::kProgramErasedOnly: return "program only erased pages";
    case Rule::kWordlinesInOrder: return "wordlines in order within a block";
    case Rule::kFullSequence: return "a full-sequence program writes every page of its wordline";
    case Rule::kEraseBeforeReuse: return "erase before reuse";
    case Rule::kEraseCompleted: return "program only blocks whose erase completed";
  }
  return "unknown rule";
}

std::string Violation::message() const {
  return fmt::format("NAND rule '{}' violated at {}: {}", rule_name(rule), where, detail);
}

RuleViolation::RuleViolation(const Violation& violation)
    : std::runtime_error(violation.message()), rule_(violation.rule) {}

std::optional<Violation> geometry_violation(const Geometry& geometry, uint64_t ppn,
                                            uint32_t plane_count) {
  if (!geometry.contains(ppn)) {
    return Violation{Rule::kWithinGeometry, fmt::format("ppn {:#x}", ppn),
                     fmt::format("the array has {} pages (ppn 0 .. {:#x})", geometry.page_count(),
                                 geometry.page_count() - 1)};
  }
  const uint32_t plane = geometry.address(static_cast<uint32_t>(ppn)).plane;
  if (plane_count == 0 || plane + plane_count > geometry.planes()) {
    return Violation{
        Rule::kWithinGeometry, geometry.describe(static_cast<uint32_t>(ppn)),
        fmt::format("a {}-plane operation from plane {} needs planes {} .. {}, the die has "
                    "planes 0 .. {}",
                    plane_count, plane, plane, plane + plane_count - 1, geometry.planes() - 1)};
  }
  return std::nullopt;
}

void check_within_geometry(const Geometry& geometry, uint64_t ppn, uint32_t plane_count) {
  if (const std::optional<Violation> violation = geometry_violation(geometry, ppn, plane_count)) {
    throw RuleViolation(*violation);
  }
}

std::optional<Violation> program_violation(const Geometry& geometry, uint32_t ppn,
                                           uint32_t next_page, bool erase_interrupted) {
  if (erase_interrupted) {
    return Violation{Rule::kEraseCompleted, geometry.describe(ppn),
                     fmt::format("a power loss interrupted the erase of block {}: its pages are "
                                 "neither erased nor readable; it must be erased again before "
                                 "a program",
                                 geometry.address(ppn).block)};
  }
  const uint32_t page = geometry.page_in_block(ppn);
  const uint32_t bits = geometry.bits_per_cell();
  if (geometry.page_type(page) != NAND_PAGE_LSB) {
    return Violation{
        Rule::kFullSequence, geometry.describe(ppn),
        fmt::format("a program starts at the LSB page of a wordline; page {} is the {} page of "
                    "wordline {}",
                    page, Geometry::page_type_name(geometry.page_type(page)),
                    geometry.wordline(page))};
  }
  const uint32_t wordline = geometry.wordline(page);
  const uint32_t next_wordline = next_page / bits;
  if (next_wordline == geometry.wordlines_per_block()) {
    return Violation{Rule::kEraseBeforeReuse, geometry.describe(ppn),
                     fmt::format("all {} wordlines of the block are programmed; erase it first",
                                 geometry.wordlines_per_block())};
  }
  if (wordline < next_wordline) {
    return Violation{Rule::kProgramErasedOnly, geometry.describe(ppn),
                     fmt::format("wordline {} is already programmed (the block's next erased "
                                 "wordline is {})",
                                 wordline, next_wordline)};
  }
  if (wordline > next_wordline) {
    return Violation{Rule::kWordlinesInOrder, geometry.describe(ppn),
                     fmt::format("wordline {} would skip wordline {}, the block's next erased "
                                 "wordline",
                                 wordline, next_wordline)};
  }
  return std::nullopt;
}

void check_program_target(const Geometry& geometry, uint32_t ppn, uint32_t next_page,
                          bool erase_interrupted) {
  if (const std::optional<Violation> violation =
          program_violation(geometry, ppn, next_page, erase_interrupted)) {
    throw RuleViolation(*violation);
  }
}

}  // namespace ssdvp::nand
