// A extension: AMO results and LR/SC, with two harts sharing one bus and one reservation set.
#include <cstdint>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

class AtomicTest : public CoreTest {
 protected:
  static constexpr uint32_t kAt = kCode + 4 * kPrologueInstructions;
  static constexpr uint32_t kWord = kData + 0x20;
};

TEST_F(AtomicTest, AmoResults) {
  struct Case {
    const char* name;
    uint32_t instruction;
    uint32_t memory_after;
  };
  constexpr uint32_t kOld = 0x80000001u;  // negative when signed
  constexpr uint32_t kOperand = 5;
  const Case cases[] = {
      {"amoswap", amoswap_w(a0, a2, a1), 5},
      {"amoadd", amoadd_w(a0, a2, a1), 0x80000006u},
      {"amoxor", amoxor_w(a0, a2, a1), 0x80000004u},
      {"amoand", amoand_w(a0, a2, a1), 0x00000001u},
      {"amoor", amoor_w(a0, a2, a1), 0x80000005u},
      {"amomin", amomin_w(a0, a2, a1), kOld},
      {"amomax", amomax_w(a0, a2, a1), 5},
      {"amominu", amominu_w(a0, a2, a1), 5},
      {"amomaxu", amomaxu_w(a0, a2, a1), kOld},
  };
  for (const Case& c : cases) {
    Program p = program();
    p << c.instruction;
    start(p);
    bus.poke32(kWord, kOld);
    core.set_reg(a1, kWord);
    core.set_reg(a2, kOperand);
    step();
    EXPECT_EQ(core.reg(a0), kOld) << c.name;
    EXPECT_EQ(bus.peek32(kWord), c.memory_after) << c.name;
    EXPECT_EQ(core.pc(), kAt + 4) << c.name;
  }
}

TEST_F(AtomicTest, AmoWithX0DestinationStillWritesMemory) {
  Program p = program();
  p << amoadd_w(zero, a2, a1);
  start(p);
  bus.poke32(kWord, 10);
  core.set_reg(a1, kWord);
  core.set_reg(a2, 3);
  step();
  EXPECT_EQ(bus.peek32(kWord), 13u);
  EXPECT_EQ(core.reg(zero), 0u);
}

TEST_F(AtomicTest, AmoOnTheSlowPathReadsThenWrites) {
  constexpr uint32_t kMmioWord = TestBus::kMmioBase + 0x40;
  Program p = program();
  p << amoor_w(a0, a2, a1);
  start(p);
  bus.poke32(kMmioWord, 0x10);
  core.set_reg(a1, kMmioWord);
  core.set_reg(a2, 0x01);
  step();
  EXPECT_EQ(core.reg(a0), 0x10u);
  ASSERT_EQ(bus.accesses.size(), 2u);
  EXPECT_FALSE(bus.accesses[0].write);
  EXPECT_TRUE(bus.accesses[1].write);
  EXPECT_EQ(bus.accesses[1].value, 0x11u);
}

TEST_F(AtomicTest, LrScOnOneHart) {
  Program p = program();
  p << lr_w(a0, a1) << sc_w(a3, a2, a1)  // succeeds
    << sc_w(a4, a2, a1)                  // no reservation any more: fails
    << lr_w(a0, a1) << sc_w(a5, a2, t0);  // another address: fails
  start(p);
  bus.poke32(kWord, 77);
  core.set_reg(a1, kWord);
  core.set_reg(a2, 88);
  core.set_reg(t0, kWord + 4);
  steps(2);
  EXPECT_EQ(core.reg(a0), 77u);
  EXPECT_EQ(core.reg(a3), 0u);
  EXPECT_EQ(bus.peek32(kWord), 88u);
  bus.poke32(kWord, 1);
  step();
  EXPECT_EQ(core.reg(a4), 1u);
  EXPECT_EQ(bus.peek32(kWord), 1u);
  steps(2);
  EXPECT_EQ(core.reg(a5), 1u);
  EXPECT_EQ(bus.peek32(kWord + 4), 0u);
}

// Two harts on the same bus: hart 0 runs at kCode, hart 1 at kCode + 0x800.
class TwoHartTest : public AtomicTest {
 protected:
  static constexpr uint32_t kCode1 = kCode + 0x800;

  TwoHartTest() : hart1(1, bus, reservations, InstructionCosts{}) {}

  // Hart 0: lr.w a0,(a1); sc.w a3,a2,(a1). Hart 1 runs `other` between the two.
  void lr_other_sc(uint32_t other, uint32_t other_address) {
    Program p0(kCode);
    p0 << lr_w(a0, a1) << sc_w(a3, a2, a1);
    Program p1(kCode1);
    p1 << other;
    load(p0);
    bus.load(p1.base(), p1.bytes());
    core.reset(kCode);
    hart1.reset(kCode1);
    bus.poke32(kWord, 5);
    core.set_reg(a1, kWord);
    core.set_reg(a2, 6);
    hart1.set_reg(a1, other_address);
    hart1.set_reg(a2, 9);
    core.run(1);
    hart1.run(1);
    core.run(1);
  }

  Core hart1;
};

TEST_F(TwoHartTest, StoreByTheOtherHartToTheReservedWordFailsTheSc) {
  lr_other_sc(sw(a2, a1, 0), kWord);
  EXPECT_EQ(core.reg(a3), 1u);
  EXPECT_EQ(bus.peek32(kWord), 9u);
}

TEST_F(TwoHartTest, ByteStoreIntoTheReservedGranuleFailsTheSc) {
  lr_other_sc(sb(a2, a1, 0), kWord + 3);
  EXPECT_EQ(core.reg(a3), 1u);
}

TEST_F(TwoHartTest, AmoByTheOtherHartFailsTheSc) {
  lr_other_sc(amoadd_w(a0, a2, a1), kWord);
  EXPECT_EQ(core.reg(a3), 1u);
  EXPECT_EQ(bus.peek32(kWord), 14u);
}

TEST_F(TwoHartTest, StoreElsewhereLeavesTheReservation) {
  lr_other_sc(sw(a2, a1, 0), kWord + 4);
  EXPECT_EQ(core.reg(a3), 0u);
  EXPECT_EQ(bus.peek32(kWord), 6u);
  EXPECT_EQ(bus.peek32(kWord + 4), 9u);
}

TEST_F(TwoHartTest, LoadByTheOtherHartLeavesTheReservation) {
  lr_other_sc(lw(a0, a1, 0), kWord);
  EXPECT_EQ(core.reg(a3), 0u);
  EXPECT_EQ(bus.peek32(kWord), 6u);
}

TEST_F(TwoHartTest, ReservationsAreKeptPerHart) {
  // Both harts reserve the same word; hart 1's successful sc cancels hart 0's reservation.
  Program p0(kCode);
  p0 << lr_w(a0, a1) << sc_w(a3, a2, a1);
  Program p1(kCode1);
  p1 << lr_w(a0, a1) << sc_w(a3, a2, a1);
  load(p0);
  bus.load(p1.base(), p1.bytes());
  core.reset(kCode);
  hart1.reset(kCode1);
  core.set_reg(a1, kWord);
  core.set_reg(a2, 1);
  hart1.set_reg(a1, kWord);
  hart1.set_reg(a2, 2);
  core.run(1);
  hart1.run(1);
  hart1.run(1);
  core.run(1);
  EXPECT_EQ(hart1.reg(a3), 0u);
  EXPECT_EQ(core.reg(a3), 1u);
  EXPECT_EQ(bus.peek32(kWord), 2u);
}

TEST(ReservationsTest, RejectsHartIdsOutOfRange) {
  Reservations reservations;
  EXPECT_THROW(reservations.reserve(Reservations::kMaxHarts, 0), std::runtime_error);
  TestBus bus;
  EXPECT_THROW(Core(Reservations::kMaxHarts, bus, reservations, InstructionCosts{}),
               std::runtime_error);
}

}  // namespace
}  // namespace ssdvp::cpu::test
