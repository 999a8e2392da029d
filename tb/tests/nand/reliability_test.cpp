// Wear, endurance, factory and grown bad blocks, and seeded fault injection.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "tb/tests/nand/array_fixture.h"

namespace ssdvp::nand {
namespace {

using test::contains;
using test::ppn_of;
using test::small_config;
using test::Wordline;

// |count - n p| within 5 standard deviations of a binomial(n, p).
void expect_binomial(uint64_t count, uint64_t n, double p) {
  const double mean = n * p;
  const double sigma = std::sqrt(n * p * (1 - p));
  EXPECT_LE(std::abs(static_cast<double>(count) - mean), 5 * sigma)
      << count << " of " << n << " at p = " << p;
}

TEST(NandReliability, EraseCountsGrowUntilTheEnduranceRetiresTheBlock) {
  NandConfig config = small_config();
  config.endurance = 3;
  NandArray array(config, 1);
  const uint32_t ppn = ppn_of(array, 0, 5, 0);
  const uint64_t block = array.geometry().block_index(ppn);
  for (uint32_t erase = 1; erase <= 3; ++erase) {
    ASSERT_EQ(array.erase(ppn), Status::kOk);
    EXPECT_EQ(array.erase_count(block), erase);
  }
  EXPECT_EQ(array.erase(ppn), Status::kProgramFail);
  EXPECT_TRUE(array.is_bad(block));
  EXPECT_FALSE(array.is_factory_bad(block));
  EXPECT_EQ(array.grown_bad_blocks(), 1u);
  const Wordline data(array, 0, false);
  EXPECT_EQ(array.program(ppn, data.pages.data()), Status::kBadBlock);
  EXPECT_EQ(array.erase(ppn), Status::kBadBlock);
  // Other blocks are untouched.
  EXPECT_EQ(array.erase(ppn_of(array, 1, 5, 0)), Status::kOk);
}

TEST(NandReliability, ListedFactoryBadBlocksAnswerBadBlock) {
  NandConfig config = small_config();
  config.bad_blocks = "0:0:0:1:2, 0:0:0:0:7 ,0:0:0:1:2";
  NandArray array(config, 1);
  EXPECT_EQ(array.factory_bad_blocks(), 2u);
  const uint32_t bad = ppn_of(array, 1, 2, 0);
  EXPECT_TRUE(array.is_factory_bad(array.geometry().block_index(bad)));
  EXPECT_TRUE(array.is_factory_bad(array.geometry().block_index(ppn_of(array, 0, 7, 0))));
  EXPECT_FALSE(array.is_bad(array.geometry().block_index(ppn_of(array, 0, 2, 0))));
  PageView view;
  EXPECT_EQ(array.read(bad + 3, view), Status::kBadBlock);
  EXPECT_EQ(array.erase(bad), Status::kBadBlock);
  const Wordline data(array, 0, false);
  EXPECT_EQ(array.program(bad, data.pages.data()), Status::kBadBlock);
}

TEST(NandReliability, MalformedBadBlockEntriesNameTheKeyAndTheRanges) {
  for (const char* list : {"0:0:0:2:1", "0:0:0:1", "a:0:0:0:0", "0:0:0:0:8"}) {
    NandConfig config = small_config();
    config.bad_blocks = list;
    try {
      NandArray array(config, 1);
      ADD_FAILURE() << list << " was accepted";
    } catch (const std::runtime_error& error) {
      const std::string message = error.what();
      EXPECT_TRUE(contains(message, "nand.bad_blocks")) << message;
      EXPECT_TRUE(contains(message, std::string("'") + list + "'")) << message;
      EXPECT_TRUE(contains(message, "plane 0..1, block 0..7")) << message;
    }
  }
}

TEST(NandReliability, FactoryBadBlockRateIsSeeded) {
  NandConfig config = small_config();
  config.blocks = 4096;
  config.bad_block_ppm = 50'000;
  const auto bad_set = [&](uint64_t seed) {
    NandArray array(config, seed);
    std::set<uint64_t> bad;
    for (uint64_t block = 0; block < array.geometry().block_count(); ++block) {
      if (array.is_factory_bad(block)) bad.insert(block);
    }
    EXPECT_EQ(bad.size(), array.factory_bad_blocks());
    return bad;
  };
  const std::set<uint64_t> first = bad_set(7);
  expect_binomial(first.size(), 8192, 0.05);
  EXPECT_EQ(bad_set(7), first);
  EXPECT_NE(bad_set(8), first);
}

TEST(NandReliability, EccFailuresFollowTheirRate) {
  for (const uint32_t ppm : {0u, 200'000u, 1'000'000u}) {
    NandConfig config = small_config();
    config.ecc_fail_ppm = ppm;
    NandArray array(config, 3);
    uint64_t failed = 0;
    constexpr uint64_t kReads = 5000;
    for (uint64_t i = 0; i < kReads; ++i) {
      PageView view;
      const Status status = array.read(static_cast<uint32_t>(i % 256), view);
      if (status == Status::kEccFail) ++failed;
    }
    if (ppm == 0) {
      EXPECT_EQ(failed, 0u);
    } else if (ppm == 1'000'000) {
      EXPECT_EQ(failed, kReads);
    } else {
      expect_binomial(failed, kReads, 0.2);
    }
  }
}

TEST(NandReliability, AFailedProgramRetiresTheBlockButKeepsWhatItHeld) {
  NandConfig config = small_config();
  config.program_fail_ppm = 1'000'000;
  NandArray array(config, 1);
  const Wordline data(array, 0, false);
  const uint32_t ppn = ppn_of(array, 0, 3, 0);
  EXPECT_EQ(array.program(ppn, data.pages.data()), Status::kProgramFail);
  EXPECT_TRUE(array.is_bad(array.geometry().block_index(ppn)));
  EXPECT_EQ(array.program(ppn, data.pages.data()), Status::kBadBlock);
  PageView view;
  EXPECT_EQ(array.read(ppn, view), Status::kErased);
}

TEST(NandReliability, AFailedEraseRetiresTheBlock) {
  NandConfig config = small_config();
  config.erase_fail_ppm = 1'000'000;
  NandArray array(config, 1);
  const uint32_t ppn = ppn_of(array, 1, 0, 0);
  EXPECT_EQ(array.erase(ppn), Status::kProgramFail);
  EXPECT_EQ(array.grown_bad_blocks(), 1u);
  EXPECT_EQ(array.erase(ppn), Status::kBadBlock);
}

}  // namespace
}  // namespace ssdvp::nand
