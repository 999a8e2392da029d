// Interrupt controller: gateway, per-hart enables, claim/complete and re-pending of a line that
// is still high.
#include "tlm/system/intc.h"

#include <gtest/gtest.h>

#include "interface/intc_regs.h"
#include "interface/memory_map.h"
#include "test_bench.h"
#include "tlm/cpu/cpu_if.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

class IntcTest : public ::testing::Test {
 protected:
  IntcTest() : intc_((use_picosecond_resolution(), "intc"), 2), cpu_("cpu") {
    cpu_.socket.bind(intc_.socket);
    intc_.connect(0, hart0_);
    intc_.connect(1, hart1_);
  }

  Intc intc_;
  test::TestInitiator cpu_;
  test::RecordingSink hart0_;
  test::RecordingSink hart1_;
};

TEST_F(IntcTest, ClaimCompleteAndRependWhileTheLineIsHigh) {
  test::run_thread([&] {
    intc_.set_line(2, true);
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 1u << 2);
    EXPECT_EQ(cpu_.read32(INTC_LEVEL), 1u << 2);
    EXPECT_FALSE(hart0_.level(cpu::kMeip));  // not enabled yet
    cpu_.write32(INTC_ENABLE(0), 1u << 2);
    EXPECT_TRUE(hart0_.level(cpu::kMeip));

    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 2u);
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 0u);
    EXPECT_FALSE(hart0_.level(cpu::kMeip));
    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 0u);  // nothing left to claim

    cpu_.write32(INTC_CLAIM(0), 2);  // complete with the line still high: pends again
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 1u << 2);
    EXPECT_TRUE(hart0_.level(cpu::kMeip));

    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 2u);
    intc_.set_line(2, false);
    cpu_.write32(INTC_CLAIM(0), 2);  // line low now: stays quiet
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 0u);
    EXPECT_FALSE(hart0_.level(cpu::kMeip));
  });
  EXPECT_TRUE(hart1_.changes().empty());
}

TEST_F(IntcTest, ARisingLineWhileInServiceWaitsForTheCompletion) {
  test::run_thread([&] {
    cpu_.write32(INTC_ENABLE(0), 1u << 4);
    intc_.set_line(4, true);
    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 4u);
    intc_.set_line(4, false);
    intc_.set_line(4, true);  // held back by the gateway
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 0u);
    EXPECT_FALSE(hart0_.level(cpu::kMeip));
    cpu_.write32(INTC_CLAIM(0), 4);
    EXPECT_EQ(cpu_.read32(INTC_PENDING), 1u << 4);
  });
}

TEST_F(IntcTest, EachHartClaimsOnlyWhatItEnablesLowestSourceFirst) {
  test::run_thread([&] {
    cpu_.write32(INTC_ENABLE(0), (1u << 3) | (1u << 5));
    cpu_.write32(INTC_ENABLE(1), 1u << 5);
    intc_.set_line(5, true);
    intc_.set_line(3, true);
    EXPECT_TRUE(hart0_.level(cpu::kMeip));
    EXPECT_TRUE(hart1_.level(cpu::kMeip));
    EXPECT_EQ(cpu_.read32(INTC_CLAIM(1)), 5u);  // hart 1 never sees source 3
    EXPECT_FALSE(hart1_.level(cpu::kMeip));
    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 3u);
    EXPECT_EQ(cpu_.read32(INTC_CLAIM(0)), 0u);  // 5 is already in service on hart 1
    EXPECT_FALSE(hart0_.level(cpu::kMeip));
    EXPECT_EQ(intc_.in_service(), (1u << 3) | (1u << 5));
  });
}

TEST_F(IntcTest, SourceZeroDoesNotExist) {
  EXPECT_THROW(intc_.set_line(0, true), std::runtime_error);
  EXPECT_THROW(intc_.set_line(IRQ_SRC_COUNT, true), std::runtime_error);
  test::run_thread([&] {
    cpu_.write32(INTC_ENABLE(1), 0xFFFFFFFFu);
    EXPECT_EQ(cpu_.read32(INTC_ENABLE(1)), 0xFFFFFFFEu);
    cpu_.write32(INTC_CLAIM(1), 0);  // completing "no interrupt" is ignored
    EXPECT_EQ(intc_.in_service(), 0u);
  });
}

}  // namespace
}  // namespace ssdvp
