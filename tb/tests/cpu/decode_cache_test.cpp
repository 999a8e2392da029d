// Decode cache: a hart's own stores into decoded code take effect (with or without fence.i),
// including an instruction that straddles two pages; jumps and branches across pages and within
// one land where they point, and straight-line code runs on into the next page; code changed
// from outside the hart needs flush_decode_cache(); loads and stores switching between direct
// regions reach each; revoked direct regions are asked for again.
#include <cstdint>

#include "tb/tests/cpu/core_fixture.h"

namespace ssdvp::cpu::test {
namespace {

using namespace enc;

class DecodeCacheTest : public CoreTest {
 protected:
  // Executes `addi a0,zero,1` at `patch`, then overwrites it with `addi a0,zero,42` and runs it
  // again; with_fence_i puts a fence.i between the store and the jump back.
  void run_self_modifying_program(bool with_fence_i) {
    Program p = program();
    p.li(t0, addi(a0, zero, 42));
    const uint32_t patch = p.here() + 8;
    p.li(t1, patch);
    ASSERT_EQ(p.here(), patch);
    const uint32_t done = patch + (with_fence_i ? 24 : 20);
    p << addi(a0, zero, 1) << bne(t2, zero, static_cast<int32_t>(done - (patch + 4)))
      << sw(t0, t1, 0);
    if (with_fence_i) p << fence_i();
    p << addi(t2, zero, 1);
    p << jal(zero, static_cast<int32_t>(patch - p.here()));
    ASSERT_EQ(p.here(), done);
    p << jal(zero, 0);
    start(p);
    core.run(500);
    EXPECT_EQ(core.pc(), done);
    EXPECT_EQ(core.reg(a0), 42u);
    EXPECT_EQ(bus.peek32(patch), addi(a0, zero, 42));
  }
};

TEST_F(DecodeCacheTest, OwnStoreOverDecodedCodeTakesEffectWithoutFenceI) {
  run_self_modifying_program(false);
}

TEST_F(DecodeCacheTest, OwnStoreOverDecodedCodeTakesEffectWithFenceI) {
  run_self_modifying_program(true);
}

TEST_F(DecodeCacheTest, HalfwordStoreOverACompressedInstruction) {
  Program p = program();
  p.li(t0, c_li(a0, 13));
  const uint32_t patch = p.here() + 8;
  p.li(t1, patch);
  p << c_li(a0, 1) << c_bnez(s0, 10) << sh(t0, t1, 0) << c_li(s0, 1)
    << c_j(static_cast<int32_t>(patch - (patch + 10)));
  const uint32_t done = p.here();
  ASSERT_EQ(done, patch + 12);
  p << c_j(0);
  start(p);
  core.set_reg(s0, 0);
  core.run(500);
  EXPECT_EQ(core.pc(), done);
  EXPECT_EQ(core.reg(a0), 13u);
}

TEST_F(DecodeCacheTest, StoreIntoTheNextPageInvalidatesAnInstructionStraddlingIt) {
  constexpr uint32_t kStraddle = 0x1FFE;  // bytes 0x1FFE..0x2001: two 4 KiB pages
  Program p = program();
  p.li(t0, addi(a0, a0, 0x100) >> 16);  // the new upper half
  p.li(t1, kStraddle + 2);
  p.li(t3, kStraddle - 6);
  p << jalr(zero, t3, 0);
  Program body(kStraddle - 6);
  body << c_nop() << c_nop() << c_nop()
       << addi(a0, a0, 1)  // straddles the page boundary
       << bne(t2, zero, 16) << sh(t0, t1, 0) << addi(t2, zero, 1)
       << jal(zero, static_cast<int32_t>(kStraddle - (kStraddle + 16)));
  const uint32_t done = body.here();
  body << jal(zero, 0);
  load(body);
  start(p);
  core.run(500);
  EXPECT_EQ(core.pc(), done);
  EXPECT_EQ(core.reg(a0), 0x101u);  // 1 on the first pass, 0x100 after the patch
}

// The loop keeps its place in a decoded page and looks the pc up only when execution leaves the
// page: every way of leaving (and of staying) must land on the instruction the pc names.
TEST_F(DecodeCacheTest, JumpsAndBranchesAcrossPagesLandOnTheirTargets) {
  constexpr uint32_t kPageEnd = 0x2FF8;    // straight-line code runs from page 2 into page 3
  constexpr uint32_t kInnerLoop = 0x2100;  // reached by a backward branch from page 3
  // `done` follows two lui+addi pairs and the jump: 2 x 8 + 4 bytes after the prologue.
  const uint32_t done = kCode + 4 * kPrologueInstructions + 20;
  Program main = program();
  main.li(a2, 5);
  main.li(t3, done);
  main << jal(zero, static_cast<int32_t>(kPageEnd - main.here()));  // forward, two pages on
  ASSERT_EQ(main.here(), done);
  main << jal(zero, 0);

  Program straight(kPageEnd);
  straight << addi(a0, a0, 1) << c_nop()
           << addi(a0, a0, 2);  // at 0x2FFE: straddles into page 3
  ASSERT_EQ(straight.here(), 0x3002u);
  straight << addi(a0, a0, 4)
           << beq(zero, zero, static_cast<int32_t>(kInnerLoop - straight.here()));  // backward
  Program inner(kInnerLoop);
  inner << addi(a0, a0, 8) << addi(a3, a3, 1) << addi(a2, a2, -1)
        << bne(a2, zero, -8)  // backward within the page
        << jalr(zero, t3, 0);  // back to page 1 through a register
  load(straight);
  load(inner);
  start(main);
  core.run(500);
  EXPECT_EQ(core.pc(), done);
  EXPECT_EQ(core.reg(a0), 15u);
  EXPECT_EQ(core.reg(a3), 5u);
  EXPECT_EQ(core.reg(a2), 0u);
}

// Straight-line code that ends exactly at a page's end steps onto the page's first guard slot,
// from a 4-byte and from a compressed instruction; it must go on at the next page's start.
TEST_F(DecodeCacheTest, StraightLineCodeEndingAtAPageEndGoesOnInTheNextPage) {
  const uint32_t done = kCode + 4 * kPrologueInstructions + 12;  // after one lui+addi pair
  Program main = program();
  main.li(t3, done);
  main << jal(zero, static_cast<int32_t>(0x2FFC - main.here()));
  ASSERT_EQ(main.here(), done);
  main << jal(zero, 0);

  Program wide_end(0x2FFC);
  wide_end << addi(a0, a0, 1);  // the last 4 bytes of page 2
  Program page3(0x3000);
  page3 << addi(a0, a0, 2) << jal(zero, static_cast<int32_t>(0x3FFA - 0x3004));
  Program compressed_end(0x3FFA);
  compressed_end << addi(a0, a0, 4) << c_li(a1, 7);  // the c.li is the last 2 bytes of page 3
  Program page4(0x4000);
  page4 << addi(a0, a0, 8) << jalr(zero, t3, 0);
  for (const Program* part : {&wide_end, &page3, &compressed_end, &page4}) load(*part);
  start(main);
  core.run(500);
  EXPECT_EQ(core.pc(), done);
  EXPECT_EQ(core.reg(a0), 15u);
  EXPECT_EQ(core.reg(a1), 7u);
}

// Each direct load and store first tries the region the previous one used.
TEST_F(DecodeCacheTest, LoadsAndStoresSwitchingRegionsReachEach) {
  constexpr uint32_t kRamWord = TestBus::kRamBase + TestBus::kRamSize - 4;  // last words
  constexpr uint32_t kSramWord = TestBus::kSramBase + TestBus::kSramSize - 4;
  bus.poke32(kRamWord, 0x11111111);
  bus.poke32(kSramWord, 0x22222222);
  Program p = program();
  p.li(t0, kRamWord);
  p.li(t1, kSramWord);
  p << lw(a0, t0, 0) << lw(a1, t1, 0) << lw(a2, t0, 0)  // RAM, SRAM, RAM
    << sw(a1, t0, 0) << sw(a0, t1, 0)                   // swap them
    << sb(a1, t1, 3) << lbu(a3, t1, 3) << lbu(a4, t0, 3);  // last bytes
  const uint32_t done = p.here();
  p << jal(zero, 0);
  start(p);
  core.run(100);
  EXPECT_EQ(core.pc(), done);
  EXPECT_EQ(core.reg(a0), 0x11111111u);
  EXPECT_EQ(core.reg(a1), 0x22222222u);
  EXPECT_EQ(core.reg(a2), 0x11111111u);
  EXPECT_EQ(bus.peek32(kRamWord), 0x22222222u);
  EXPECT_EQ(bus.peek32(kSramWord), 0x22111111u);  // the byte store changed only the top byte
  EXPECT_EQ(core.reg(a3), 0x22u);
  EXPECT_EQ(core.reg(a4), 0x22u);
  EXPECT_TRUE(bus.accesses.empty());  // all of them direct
}

TEST_F(DecodeCacheTest, CodeChangedFromOutsideNeedsAFlush) {
  Program p = program();
  const uint32_t loop = p.here();
  p << addi(a0, a0, 1) << jal(zero, -4);
  start(p);
  core.run(10);
  const uint32_t after_first = core.reg(a0);
  EXPECT_GT(after_first, 0u);
  Program patched(loop);
  patched << addi(a0, a0, 100);
  bus.load(patched.base(), patched.bytes());  // behind the hart's back: still decoded as +1
  while (core.pc() != loop) step();
  step();
  EXPECT_EQ(core.reg(a0), after_first + 1);
  core.flush_decode_cache();
  steps(2);
  EXPECT_EQ(core.reg(a0), after_first + 101);
}

TEST_F(DecodeCacheTest, RevokedDirectRegionsAreAskedForAgain) {
  Program p = program();
  p << lw(a0, a1, 0) << lw(a2, a1, 4);
  start(p);
  core.set_reg(a1, kData);
  bus.poke32(kData, 11);
  bus.poke32(kData + 4, 22);
  step();
  const unsigned requests = bus.direct_region_requests;
  core.invalidate_direct_regions();
  bus.sram_direct = false;  // the grant is gone: the load takes the bus
  step();
  EXPECT_EQ(core.reg(a0), 11u);
  EXPECT_EQ(core.reg(a2), 22u);
  EXPECT_GT(bus.direct_region_requests, requests);
  ASSERT_EQ(bus.accesses.size(), 1u);
  EXPECT_EQ(bus.accesses[0].addr, kData + 4);
}

TEST_F(DecodeCacheTest, ARefusedRangeIsAskedForOnceUntilTheRegionsAreInvalidated) {
  Program p = program();
  p << lw(a0, a1, 0) << lw(a2, a1, 4) << lw(a3, a1, 8);
  start(p);
  core.set_reg(a1, kData);
  bus.poke32(kData + 8, 33);
  bus.sram_direct = false;
  bus.report_refused_range = true;
  step();
  const unsigned after_first = bus.direct_region_requests;
  step();
  EXPECT_EQ(bus.direct_region_requests, after_first);  // the refusal is remembered
  core.invalidate_direct_regions();
  step();
  EXPECT_EQ(core.reg(a3), 33u);
  EXPECT_GT(bus.direct_region_requests, after_first);
  EXPECT_EQ(bus.accesses.size(), 3u);  // every load took the slow path
}

}  // namespace
}  // namespace ssdvp::cpu::test
