// What a power loss leaves on the array: an interrupted program or erase, on SLC, TLC and QLC
// wordlines. Reads, programs, erases, wear, reset and storage accounting after each.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "interface/data_tag.h"
#include "tb/tests/nand/array_fixture.h"

namespace ssdvp::nand {
namespace {

using test::contains;
using test::ppn_of;
using test::small_config;
using test::Wordline;

// The small array of array_fixture.h with `cell`, 4 wordlines per block.
NandConfig config_of(NandCell cell) {
  NandConfig config = small_config();
  config.cell = static_cast<uint32_t>(cell);
  config.pages = 4 * (config.cell + 1);
  return config;
}

class NandPowerCut : public ::testing::TestWithParam<NandCell> {
 protected:
  NandArray array_{config_of(GetParam()), 1};
  const uint32_t bits_ = array_.geometry().bits_per_cell();

  // The LSB page of `wordline` of block `block` on plane 0.
  uint32_t wordline_ppn(uint32_t block, uint32_t wordline) const {
    return ppn_of(array_, 0, block, wordline * bits_);
  }
  uint64_t block_index(uint32_t block) const {
    return array_.geometry().block_index(wordline_ppn(block, 0));
  }
  // Programs `wordline` of `block` with tags lpn = 100 x (wordline + 1) + page, spare bytes on.
  void program(uint32_t block, uint32_t wordline) {
    const Wordline data(array_, 100 * (wordline + 1), true);
    ASSERT_EQ(array_.program(wordline_ppn(block, wordline), data.pages.data()), Status::kOk);
  }
  // Every page of `wordline` of `block` reads `expected`; kOk pages carry the tags of program().
  void expect_wordline(uint32_t block, uint32_t wordline, Status expected) {
    for (uint32_t page = 0; page < bits_; ++page) {
      PageView view;
      const uint32_t ppn = wordline_ppn(block, wordline) + page;
      ASSERT_EQ(array_.read(ppn, view), expected) << "block " << block << " wordline " << wordline
                                                  << " page " << page;
      if (expected == Status::kOk) {
        EXPECT_EQ(view.tag.lpn, 100 * (wordline + 1) + page);
        EXPECT_NE(view.oob, nullptr);
      } else {
        // No data: the erased pattern, no spare bytes, no metadata page.
        EXPECT_TRUE(view.erased);
        EXPECT_EQ(view.tag.lpn, DATA_TAG_ERASED_WORD);
        EXPECT_EQ(view.oob, nullptr);
        EXPECT_EQ(view.meta, nullptr);
      }
    }
  }
};

INSTANTIATE_TEST_SUITE_P(Cells, NandPowerCut,
                         ::testing::Values(NandCell::kSlc, NandCell::kTlc, NandCell::kQlc),
                         [](const ::testing::TestParamInfo<NandCell>& info) {
                           return std::string(
                               Geometry::cell_name(static_cast<uint32_t>(info.param) + 1));
                         });

TEST_P(NandPowerCut, AnInterruptedProgramLosesEveryPageOfItsWordlineEveryTime) {
  program(2, 0);
  program(2, 1);
  // Any page of the wordline names it.
  array_.interrupt_program(wordline_ppn(2, 1) + bits_ - 1);
  for (int again = 0; again < 3; ++again) {
    expect_wordline(2, 0, Status::kOk);
    expect_wordline(2, 1, Status::kEccFail);
    expect_wordline(2, 2, Status::kErased);
  }
  // The same block on the other plane is untouched.
  PageView view;
  EXPECT_EQ(array_.read(ppn_of(array_, 1, 2, 0), view), Status::kErased);
}

TEST_P(NandPowerCut, TheInterruptedWordlineStaysConsumed) {
  program(3, 0);
  array_.interrupt_program(wordline_ppn(3, 0));
  EXPECT_EQ(array_.programmed_pages(block_index(3)), bits_);
  EXPECT_EQ(array_.programmed_page_count(), bits_);
  const Wordline data(array_, 0, false);
  try {
    array_.program(wordline_ppn(3, 0), data.pages.data());
    ADD_FAILURE() << "the interrupted wordline was programmed again";
  } catch (const RuleViolation& violation) {
    EXPECT_EQ(violation.rule(), Rule::kProgramErasedOnly) << violation.what();
  }
  // The block goes on with the next wordline; the interrupted one stays unreadable.
  program(3, 1);
  expect_wordline(3, 0, Status::kEccFail);
  expect_wordline(3, 1, Status::kOk);
  EXPECT_EQ(array_.programmed_pages(block_index(3)), 2 * bits_);
}

TEST_P(NandPowerCut, ThePreviousWordlineKeepsItsDataUnlessAskedToLoseIt) {
  for (uint32_t wordline = 0; wordline < 3; ++wordline) program(1, wordline);
  for (uint32_t wordline = 0; wordline < 3; ++wordline) program(4, wordline);
  array_.interrupt_program(wordline_ppn(1, 2));
  array_.interrupt_program(wordline_ppn(4, 2), PreviousWordline::kLost);
  expect_wordline(1, 0, Status::kOk);
  expect_wordline(1, 1, Status::kOk);
  expect_wordline(1, 2, Status::kEccFail);
  expect_wordline(4, 0, Status::kOk);
  expect_wordline(4, 1, Status::kEccFail);
  expect_wordline(4, 2, Status::kEccFail);
  // A block's first wordline has none before it: nothing else is lost.
  program(5, 0);
  array_.interrupt_program(wordline_ppn(5, 0), PreviousWordline::kLost);
  expect_wordline(5, 0, Status::kEccFail);
  expect_wordline(4, 2, Status::kEccFail);
  PageView view;
  EXPECT_EQ(array_.read(ppn_of(array_, 0, 4, 4 * bits_ - 1), view), Status::kErased);
}

TEST_P(NandPowerCut, AnInterruptedEraseLeavesEveryPageUnreadableAndRefusesPrograms) {
  program(6, 0);
  program(6, 1);
  program(7, 0);
  ASSERT_EQ(array_.erase(wordline_ppn(6, 0)), Status::kOk);
  array_.interrupt_erase(wordline_ppn(6, 1));
  for (uint32_t wordline = 0; wordline < 4; ++wordline) {
    expect_wordline(6, wordline, Status::kEccFail);
  }
  expect_wordline(7, 0, Status::kOk);

  const Wordline data(array_, 0, false);
  const uint32_t ppn = wordline_ppn(6, 0);
  const std::optional<Violation> violation = array_.program_violation(ppn);
  ASSERT_TRUE(violation.has_value());
  EXPECT_EQ(violation->rule, Rule::kEraseCompleted);
  try {
    array_.program(ppn, data.pages.data());
    ADD_FAILURE() << "a block whose erase was interrupted was programmed";
  } catch (const RuleViolation& thrown) {
    const std::string message = thrown.what();
    EXPECT_EQ(thrown.rule(), Rule::kEraseCompleted) << message;
    EXPECT_TRUE(contains(message, "'program only blocks whose erase completed'")) << message;
    EXPECT_TRUE(contains(message, "plane 0 block 6 page 0")) << message;
    EXPECT_TRUE(contains(message, "interrupted the erase of block 6")) << message;
    EXPECT_TRUE(contains(message, "must be erased again")) << message;
  }
  EXPECT_EQ(array_.programmed_pages(block_index(6)), 0u);
  expect_wordline(6, 0, Status::kEccFail);

  // A complete erase makes it an ordinary erased block.
  ASSERT_EQ(array_.erase(ppn), Status::kOk);
  expect_wordline(6, 0, Status::kErased);
  EXPECT_FALSE(array_.program_violation(ppn).has_value());
  program(6, 0);
  expect_wordline(6, 0, Status::kOk);
}

TEST_P(NandPowerCut, AnInterruptedEraseCountsAsWear) {
  const uint32_t ppn = wordline_ppn(2, 0);
  ASSERT_EQ(array_.erase(ppn), Status::kOk);
  array_.interrupt_erase(ppn);
  EXPECT_EQ(array_.erase_count(block_index(2)), 1u);
  ASSERT_EQ(array_.erase(ppn), Status::kOk);
  EXPECT_EQ(array_.erase_count(block_index(2)), 2u);
}

TEST_P(NandPowerCut, AnInterruptedEraseCanRetireABlockAtItsEndurance) {
  NandConfig config = config_of(GetParam());
  config.endurance = 2;
  NandArray array(config, 1);
  const uint32_t ppn = ppn_of(array, 1, 3, 0);
  ASSERT_EQ(array.erase(ppn), Status::kOk);
  array.interrupt_erase(ppn);
  ASSERT_EQ(array.erase(ppn), Status::kOk);
  array.interrupt_erase(ppn);
  // Both interrupted erases wore the block: the third erase is beyond the endurance.
  EXPECT_EQ(array.erase(ppn), Status::kProgramFail);
  EXPECT_TRUE(array.is_bad(array.geometry().block_index(ppn)));
  // The failed erase left it erased, no longer interrupted.
  PageView view;
  EXPECT_EQ(array.read(ppn, view), Status::kErased);
}

TEST_P(NandPowerCut, InterruptedStatesLastUntilTheBlocksNextErase) {
  program(1, 0);
  program(1, 1);
  array_.interrupt_program(wordline_ppn(1, 1), PreviousWordline::kLost);
  ASSERT_EQ(array_.erase(wordline_ppn(2, 0)), Status::kOk);
  array_.interrupt_erase(wordline_ppn(2, 0));
  // Work on other blocks, and on these, changes nothing.
  program(3, 0);
  ASSERT_EQ(array_.erase(wordline_ppn(3, 0)), Status::kOk);
  program(1, 2);
  for (int again = 0; again < 3; ++again) {
    expect_wordline(1, 0, Status::kEccFail);
    expect_wordline(1, 1, Status::kEccFail);
    expect_wordline(1, 2, Status::kOk);
    expect_wordline(2, 0, Status::kEccFail);
  }
  // After an erase the same wordlines program and read back as ever.
  ASSERT_EQ(array_.erase(wordline_ppn(1, 0)), Status::kOk);
  for (uint32_t wordline = 0; wordline < 4; ++wordline) {
    expect_wordline(1, wordline, Status::kErased);
  }
  for (uint32_t wordline = 0; wordline < 3; ++wordline) program(1, wordline);
  for (uint32_t wordline = 0; wordline < 3; ++wordline) expect_wordline(1, wordline, Status::kOk);
  expect_wordline(2, 0, Status::kEccFail);
}

TEST_P(NandPowerCut, ResetBringsBackANewDevice) {
  program(1, 0);
  array_.interrupt_program(wordline_ppn(1, 0));
  ASSERT_EQ(array_.erase(wordline_ppn(2, 0)), Status::kOk);
  array_.interrupt_erase(wordline_ppn(2, 0));
  array_.reset();
  expect_wordline(1, 0, Status::kErased);
  expect_wordline(2, 0, Status::kErased);
  EXPECT_EQ(array_.erase_count(block_index(2)), 0u);
  EXPECT_FALSE(array_.program_violation(wordline_ppn(2, 0)).has_value());
  EXPECT_EQ(array_.page_storage_bytes(), 0u);
  EXPECT_EQ(array_.programmed_page_count(), 0u);
  program(1, 0);
  expect_wordline(1, 0, Status::kOk);
}

TEST_P(NandPowerCut, StorageAccountingCountsTheRecordAndGivesItBack) {
  program(1, 0);
  program(1, 1);
  program(2, 0);
  const uint64_t programmed = array_.programmed_page_count();
  const uint64_t oob = array_.oob_bytes_stored();
  const uint64_t before = array_.page_storage_bytes();
  array_.interrupt_program(wordline_ppn(1, 1), PreviousWordline::kLost);
  array_.interrupt_program(wordline_ppn(2, 0));
  // A few bytes of record; the pages stay stored (and counted) until the erase.
  EXPECT_GT(array_.page_storage_bytes(), before);
  EXPECT_LE(array_.page_storage_bytes(), before + 64);
  EXPECT_EQ(array_.programmed_page_count(), programmed);
  EXPECT_EQ(array_.oob_bytes_stored(), oob);
  // Interrupting the same wordline again adds nothing.
  const uint64_t interrupted = array_.page_storage_bytes();
  array_.interrupt_program(wordline_ppn(2, 0));
  EXPECT_EQ(array_.page_storage_bytes(), interrupted);

  ASSERT_EQ(array_.erase(wordline_ppn(1, 0)), Status::kOk);
  ASSERT_EQ(array_.erase(wordline_ppn(2, 0)), Status::kOk);
  array_.interrupt_erase(wordline_ppn(2, 0));
  EXPECT_EQ(array_.page_storage_bytes(), 0u);
  EXPECT_EQ(array_.oob_bytes_stored(), 0u);
  EXPECT_EQ(array_.programmed_page_count(), 0u);
}

TEST_P(NandPowerCut, InterruptingWhatCannotBeInProgressNamesTheAddress) {
  program(1, 0);
  program(1, 1);
  try {
    array_.interrupt_program(wordline_ppn(1, 0));
    ADD_FAILURE() << "an earlier wordline was interrupted";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_TRUE(contains(message, "interrupt_program at channel 0 way 0 die 0 plane 0 block 1"))
        << message;
    EXPECT_TRUE(contains(message, "wordline 0 is not the last programmed wordline")) << message;
  }
  EXPECT_THROW(array_.interrupt_program(wordline_ppn(1, 2)), std::invalid_argument);
  EXPECT_THROW(array_.interrupt_program(wordline_ppn(2, 0)), std::invalid_argument);
  try {
    array_.interrupt_erase(wordline_ppn(1, 3));
    ADD_FAILURE() << "a block holding pages had its erase interrupted";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_TRUE(contains(message, "interrupt_erase at channel 0 way 0 die 0 plane 0 block 1"))
        << message;
    EXPECT_TRUE(contains(message, std::to_string(2 * bits_) + " programmed pages")) << message;
  }
  EXPECT_THROW(array_.interrupt_erase(static_cast<uint32_t>(array_.geometry().page_count())),
               RuleViolation);
  // Nothing changed.
  expect_wordline(1, 0, Status::kOk);
  expect_wordline(1, 1, Status::kOk);
  expect_wordline(2, 0, Status::kErased);
}

TEST_P(NandPowerCut, BadBlocksAreLeftAsTheyAre) {
  NandConfig config = config_of(GetParam());
  config.bad_blocks = "0:0:0:0:4";
  config.program_fail_ppm = 1'000'000;
  NandArray array(config, 1);
  const Wordline data(array, 0, false);
  // A factory bad block refused the operation; a failed program retired its block unwritten.
  const uint32_t factory_bad = ppn_of(array, 0, 4, 0);
  const uint32_t failed = ppn_of(array, 1, 4, 0);
  ASSERT_EQ(array.program(failed, data.pages.data()), Status::kProgramFail);
  array.interrupt_program(factory_bad);
  array.interrupt_erase(factory_bad);
  array.interrupt_program(failed);
  array.interrupt_erase(failed);
  PageView view;
  EXPECT_EQ(array.read(factory_bad, view), Status::kBadBlock);
  EXPECT_EQ(array.read(failed, view), Status::kErased);
  EXPECT_EQ(array.page_storage_bytes(), 0u);
}

TEST_P(NandPowerCut, InjectedReadFaultsFallWhereTheyWouldWithoutThePowerLoss) {
  NandConfig config = config_of(GetParam());
  config.ecc_fail_ppm = 300'000;
  NandArray cut(config, 5);
  NandArray uncut(config, 5);
  const Wordline data(cut, 0, false);
  for (NandArray* array : {&cut, &uncut}) {
    ASSERT_EQ(array->program(ppn_of(*array, 0, 1, 0), data.pages.data()), Status::kOk);
    ASSERT_EQ(array->program(ppn_of(*array, 1, 1, 0), data.pages.data()), Status::kOk);
  }
  cut.interrupt_program(ppn_of(cut, 0, 1, 0));
  // Reads alternate between the interrupted wordline and one of another block: the faults on
  // the other block are the same in both arrays.
  uint64_t faults = 0;
  for (uint32_t i = 0; i < 400; ++i) {
    const uint32_t page = i % bits_;
    PageView view;
    EXPECT_EQ(cut.read(ppn_of(cut, 0, 1, page), view), Status::kEccFail);
    uncut.read(ppn_of(uncut, 0, 1, page), view);
    const Status status = cut.read(ppn_of(cut, 1, 1, page), view);
    EXPECT_EQ(status, uncut.read(ppn_of(uncut, 1, 1, page), view)) << "read " << i;
    if (status == Status::kEccFail) ++faults;
  }
  EXPECT_GT(faults, 0u);
}

}  // namespace
}  // namespace ssdvp::nand
