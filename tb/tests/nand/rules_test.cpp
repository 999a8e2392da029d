// Every rule of rules.h: the violation names the rule and the address, and nothing changes.
#include <gtest/gtest.h>

#include <string>

#include "tb/tests/nand/array_fixture.h"

namespace ssdvp::nand {
namespace {

using test::contains;
using test::ppn_of;
using test::small_config;
using test::Wordline;

// The message of the RuleViolation `action` throws, checked to carry `rule`.
template <typename Action>
std::string violation_of(Action action, Rule rule) {
  try {
    action();
  } catch (const RuleViolation& violation) {
    EXPECT_EQ(violation.rule(), rule) << violation.what();
    return violation.what();
  }
  ADD_FAILURE() << "no rule violation";
  return "";
}

class NandRules : public ::testing::Test {
 protected:
  NandArray array_{small_config(), 1};
  Wordline data_{array_, 100, false};

  Status program(uint32_t plane, uint32_t block, uint32_t page) {
    return array_.program(ppn_of(array_, plane, block, page), data_.pages.data());
  }
};

TEST_F(NandRules, ProgramOnlyErasedPages) {
  ASSERT_EQ(program(0, 1, 0), Status::kOk);
  ASSERT_EQ(program(0, 1, 4), Status::kOk);
  const std::string message = violation_of([&] { program(0, 1, 0); }, Rule::kProgramErasedOnly);
  EXPECT_TRUE(contains(message, "'program only erased pages'")) << message;
  EXPECT_TRUE(contains(message, "channel 0 way 0 die 0 plane 0 block 1 page 0")) << message;
  EXPECT_TRUE(contains(message, "wordline 0 is already programmed")) << message;
  EXPECT_EQ(array_.programmed_pages(array_.geometry().block_index(ppn_of(array_, 0, 1, 0))), 8u);
}

TEST_F(NandRules, WordlinesInOrderWithinABlock) {
  const std::string message = violation_of([&] { program(1, 2, 8); }, Rule::kWordlinesInOrder);
  EXPECT_TRUE(contains(message, "'wordlines in order within a block'")) << message;
  EXPECT_TRUE(contains(message, "plane 1 block 2 page 8")) << message;
  EXPECT_TRUE(contains(message, "wordline 2 would skip wordline 0")) << message;
  EXPECT_EQ(array_.programmed_page_count(), 0u);
}

TEST_F(NandRules, AFullSequenceProgramStartsAtTheLsbPage) {
  const std::string message = violation_of([&] { program(0, 0, 2); }, Rule::kFullSequence);
  EXPECT_TRUE(contains(message, "every page of its wordline")) << message;
  EXPECT_TRUE(contains(message, "the cmsb page of wordline 0")) << message;
}

TEST_F(NandRules, EraseBeforeReuse) {
  for (uint32_t page = 0; page < 16; page += 4) ASSERT_EQ(program(0, 3, page), Status::kOk);
  const std::string message = violation_of([&] { program(0, 3, 0); }, Rule::kEraseBeforeReuse);
  EXPECT_TRUE(contains(message, "'erase before reuse'")) << message;
  EXPECT_TRUE(contains(message, "all 4 wordlines of the block are programmed")) << message;
  ASSERT_EQ(array_.erase(ppn_of(array_, 0, 3, 0)), Status::kOk);
  EXPECT_EQ(program(0, 3, 0), Status::kOk);
}

TEST_F(NandRules, AddressesBeyondTheGeometryAreRejected) {
  const uint64_t pages = array_.geometry().page_count();  // 2 planes x 8 blocks x 16 pages
  ASSERT_EQ(pages, 256u);
  PageView view;
  std::string message =
      violation_of([&] { array_.read(static_cast<uint32_t>(pages), view); }, Rule::kWithinGeometry);
  EXPECT_TRUE(contains(message, "ppn 0x100")) << message;
  EXPECT_TRUE(contains(message, "ppn 0 .. 0xff")) << message;
  violation_of([&] { array_.erase(static_cast<uint32_t>(pages + 5)); }, Rule::kWithinGeometry);
  violation_of([&] { array_.program(static_cast<uint32_t>(pages), data_.pages.data()); },
               Rule::kWithinGeometry);
}

TEST_F(NandRules, MultiPlaneOperationsStayWithinTheDiesPlanes) {
  check_within_geometry(array_.geometry(), ppn_of(array_, 0, 5, 0), 2);
  const std::string message = violation_of(
      [&] { check_within_geometry(array_.geometry(), ppn_of(array_, 1, 5, 0), 2); },
      Rule::kWithinGeometry);
  EXPECT_TRUE(contains(message, "a 2-plane operation from plane 1 needs planes 1 .. 2")) << message;
  violation_of([&] { check_within_geometry(array_.geometry(), 0, 0); }, Rule::kWithinGeometry);
}

}  // namespace
}  // namespace ssdvp::nand
