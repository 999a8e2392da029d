// CLINT: mtime rate from SystemC time, mtime writes, timer interrupts at the exact time mtime
// reaches mtimecmp, and software interrupts.
#include "tlm/system/clint.h"

#include <gtest/gtest.h>

#include "interface/clint_regs.h"
#include "test_bench.h"
#include "tlm/cpu/cpu_if.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

constexpr uint64_t kTimebaseHz = 100'000'000;  // one tick every 10 ns

class ClintTest : public ::testing::Test {
 protected:
  ClintTest() : clint_((use_picosecond_resolution(), "clint"), 2, kTimebaseHz), cpu_("cpu") {
    cpu_.socket.bind(clint_.socket);
    clint_.connect(0, hart0_);
    clint_.connect(1, hart1_);
  }

  uint64_t read_mtime() {
    const uint32_t low = cpu_.read32(CLINT_MTIME_LO);
    return (uint64_t{cpu_.read32(CLINT_MTIME_HI)} << 32) | low;
  }
  void write_mtimecmp(unsigned hart, uint64_t value) {
    cpu_.write32(CLINT_MTIMECMP_HI(hart), static_cast<uint32_t>(value >> 32));
    cpu_.write32(CLINT_MTIMECMP_LO(hart), static_cast<uint32_t>(value));
  }

  Clint clint_;
  test::TestInitiator cpu_;
  test::RecordingSink hart0_;
  test::RecordingSink hart1_;
};

TEST_F(ClintTest, MtimeCountsAtTheTimebaseIncludingTheAnnotatedDelay) {
  test::run_thread([&] {
    EXPECT_EQ(read_mtime(), 0u);
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(read_mtime(), 100u);
    sc_time delay(35, SC_NS);
    EXPECT_EQ(cpu_.read32(CLINT_MTIME_LO, delay), 103u);
    // 50 s later the count no longer fits the low word.
    sc_core::wait(sc_time(50, sc_core::SC_SEC));
    EXPECT_EQ(read_mtime(), 5'000'000'100u);
  });
}

TEST_F(ClintTest, RaisesTheTimerInterruptExactlyWhenMtimeReachesMtimecmp) {
  test::run_thread([&] {
    sc_core::wait(sc_time(2, SC_US));
    write_mtimecmp(1, 750);  // 750 ticks = 7.5 us
    EXPECT_FALSE(hart1_.level(cpu::kMtip));
    EXPECT_EQ(cpu_.read32(CLINT_MTIMECMP_LO(1)), 750u);
    EXPECT_EQ(cpu_.read32(CLINT_MTIMECMP_HI(1)), 0u);
    sc_core::wait(sc_time(18, SC_US));
    EXPECT_TRUE(hart1_.level(cpu::kMtip));
    write_mtimecmp(1, UINT64_MAX);  // acknowledges: the level drops at once
    EXPECT_FALSE(hart1_.level(cpu::kMtip));
  });
  ASSERT_EQ(hart1_.changes().size(), 2u);
  EXPECT_EQ(hart1_.changes()[0].bit, cpu::kMtip);
  EXPECT_TRUE(hart1_.changes()[0].level);
  EXPECT_EQ(hart1_.changes()[0].time_ps, 7'500'000u);
  EXPECT_FALSE(hart1_.changes()[1].level);
  EXPECT_EQ(hart1_.changes()[1].time_ps, 20'000'000u);
  EXPECT_TRUE(hart0_.changes().empty());
}

TEST_F(ClintTest, ReprogrammingMtimecmpMovesTheDeadline) {
  test::run_thread([&] {
    write_mtimecmp(0, 1000);  // 10 us
    sc_core::wait(sc_time(5, SC_US));
    write_mtimecmp(0, 700);  // earlier: 7 us
    sc_core::wait(sc_time(3, SC_US));
    write_mtimecmp(0, 2000);  // later again: the level drops, next deadline 20 us
    sc_core::wait(sc_time(30, SC_US));
  });
  ASSERT_EQ(hart0_.changes().size(), 3u);
  EXPECT_EQ(hart0_.changes()[0].time_ps, 7'000'000u);
  EXPECT_EQ(hart0_.changes()[1].time_ps, 8'000'000u);
  EXPECT_FALSE(hart0_.changes()[1].level);
  EXPECT_EQ(hart0_.changes()[2].time_ps, 20'000'000u);
  EXPECT_TRUE(hart0_.changes()[2].level);
}

TEST_F(ClintTest, WritingMtimeShiftsTheCountAndTheDeadlines) {
  test::run_thread([&] {
    sc_core::wait(sc_time(8, SC_US));  // raw count 800
    cpu_.write32(CLINT_MTIME_LO, 1000);
    sc_core::wait(sc_time(1, SC_US));
    EXPECT_EQ(read_mtime(), 1100u);
    write_mtimecmp(0, 1500);  // 400 ticks ahead: 13 us
    write_mtimecmp(1, 900);   // already passed: raised at once
    sc_core::wait(sc_time(10, SC_US));
  });
  ASSERT_EQ(hart0_.changes().size(), 1u);
  EXPECT_EQ(hart0_.changes()[0].time_ps, 13'000'000u);
  ASSERT_EQ(hart1_.changes().size(), 1u);
  EXPECT_EQ(hart1_.changes()[0].time_ps, 9'000'000u);
}

TEST_F(ClintTest, DrivesSoftwareInterruptsFromMsip) {
  test::run_thread([&] {
    cpu_.write32(CLINT_MSIP(1), 3);
    EXPECT_EQ(cpu_.read32(CLINT_MSIP(1)), 1u);
    EXPECT_TRUE(hart1_.level(cpu::kMsip));
    EXPECT_FALSE(hart0_.level(cpu::kMsip));
    cpu_.write32(CLINT_MSIP(1), 0);
    EXPECT_FALSE(hart1_.level(cpu::kMsip));
  });
  EXPECT_EQ(hart1_.changes().size(), 2u);
}

}  // namespace
}  // namespace ssdvp
