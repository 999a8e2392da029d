// The integrity oracle's durability: which writes and trims are guaranteed (flushes submitted
// after their completion, FUA, power-loss protection), the recovery rule for reads after a
// power loss, several cuts, and the LPNs a verification reads back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tlm/host/integrity_oracle.h"

namespace ssdvp::host {
namespace {

// Submits and completes a write of `lpn`; returns its version.
uint32_t write(IntegrityOracle& oracle, uint32_t lpn, bool fua = false) {
  const uint32_t version = oracle.begin_write(lpn);
  oracle.complete(lpn, fua);
  return version;
}

void trim(IntegrityOracle& oracle, uint32_t lpn) {
  oracle.begin_trim(lpn);
  oracle.complete(lpn);
}

void flush(IntegrityOracle& oracle) { oracle.complete_flush(oracle.begin_flush()); }

// What a read of `lpn` submitted now finds wrong with `tag` ("" = nothing).
std::string read(IntegrityOracle& oracle, uint32_t lpn, data_tag_t tag) {
  return oracle.check(lpn, oracle.read_snapshot(lpn), tag).value_or("");
}

TEST(IntegrityDurability, ACompletedWriteIsNotGuaranteedWithoutAFlush) {
  IntegrityOracle oracle;
  write(oracle, 7);
  EXPECT_EQ(oracle.guaranteed(7), 0u);
  EXPECT_TRUE(oracle.guaranteed_lpns().empty());
  oracle.power_lost();
  // Nothing of it guaranteed: the LPN may read as never written, or as the write.
  EXPECT_EQ(read(oracle, 7, {0, 0}), "");
  EXPECT_EQ(read(oracle, 7, {7, 1}), "");
  EXPECT_EQ(read(oracle, 7, {7, 2}),
            "integrity check failed: LPN 7: expected a version from 1 to 1 or 0 (writes "
            "submitted before the power loss may have reached the media) after a power loss, "
            "nothing of it guaranteed, found version 2");
}

TEST(IntegrityDurability, AFlushSubmittedAfterTheCompletionGuaranteesTheWrite) {
  IntegrityOracle oracle;
  write(oracle, 7);
  const uint64_t id = oracle.begin_flush();
  EXPECT_EQ(oracle.guaranteed(7), 0u);  // only once the flush completed
  oracle.complete_flush(id);
  EXPECT_EQ(oracle.guaranteed(7), 1u);
  EXPECT_EQ(oracle.guaranteed_lpns(), std::vector<uint32_t>{7});
}

TEST(IntegrityDurability, AFlushSubmittedBeforeTheCompletionDoesNotCoverTheWrite) {
  IntegrityOracle oracle;
  oracle.begin_write(7);
  const uint64_t id = oracle.begin_flush();  // the write is still in flight
  oracle.complete(7);
  oracle.complete_flush(id);
  EXPECT_EQ(oracle.guaranteed(7), 0u);
  // A flush submitted after an earlier one covers what that one covers, too.
  write(oracle, 8);
  const uint64_t first = oracle.begin_flush();
  write(oracle, 9);
  const uint64_t second = oracle.begin_flush();
  oracle.complete_flush(second);
  EXPECT_EQ(oracle.guaranteed(7), 1u);
  EXPECT_EQ(oracle.guaranteed(8), 1u);
  EXPECT_EQ(oracle.guaranteed(9), 1u);
  EXPECT_THROW(oracle.complete_flush(first), std::logic_error);  // done with the second
}

TEST(IntegrityDurability, AFlushGuaranteesTheLastVersionCompletedBeforeIt) {
  IntegrityOracle oracle;
  write(oracle, 7);
  const uint64_t id = oracle.begin_flush();
  write(oracle, 7);  // version 2 completes while the flush is in flight: not covered
  oracle.complete_flush(id);
  EXPECT_EQ(oracle.guaranteed(7), 1u);
  flush(oracle);
  EXPECT_EQ(oracle.guaranteed(7), 2u);
}

TEST(IntegrityDurability, AFuaWriteIsGuaranteedAtItsCompletion) {
  IntegrityOracle oracle;
  write(oracle, 3);
  write(oracle, 3, /*fua=*/true);
  EXPECT_EQ(oracle.guaranteed(3), 2u);
  oracle.begin_write(4);
  EXPECT_EQ(oracle.guaranteed(4), 0u);  // not while in flight
  oracle.complete(4, true);
  EXPECT_EQ(oracle.guaranteed(4), 1u);
}

TEST(IntegrityDurability, WithPowerLossProtectionEveryCompletionIsGuaranteed) {
  IntegrityOracle oracle(/*power_loss_protection=*/true);
  write(oracle, 5);
  trim(oracle, 6);
  EXPECT_EQ(oracle.guaranteed(5), 1u);
  EXPECT_EQ(oracle.guaranteed(6), 1u);
  oracle.begin_write(5);
  oracle.power_lost();
  EXPECT_EQ(read(oracle, 5, {5, 1}), "");
  EXPECT_EQ(read(oracle, 5, {5, 2}), "");  // in flight at the cut: may have reached the media
  EXPECT_NE(read(oracle, 5, {0, 0}), "");
  EXPECT_EQ(read(oracle, 6, {0, 0}), "");
}

TEST(IntegrityDurability, ALostGuaranteedWriteIsReportedWithTheVersions) {
  IntegrityOracle oracle;
  write(oracle, 12);
  write(oracle, 12);
  flush(oracle);  // version 2 guaranteed
  write(oracle, 12);
  oracle.begin_write(12);  // version 4 in flight at the cut
  oracle.power_lost();
  EXPECT_EQ(read(oracle, 12, {12, 2}), "");
  EXPECT_EQ(read(oracle, 12, {12, 3}), "");
  EXPECT_EQ(read(oracle, 12, {12, 4}), "");
  EXPECT_EQ(read(oracle, 12, {12, 1}),
            "integrity check failed: LPN 12: expected a version from 2 to 4 (writes submitted "
            "before the power loss may have reached the media) after a power loss, operation 2 "
            "guaranteed, found version 1");
  EXPECT_NE(read(oracle, 12, {0, 0}), "");  // zeroes: the LPN lost its guaranteed write
  EXPECT_NE(read(oracle, 12, {12, 5}), "");  // a version it never held
  EXPECT_NE(read(oracle, 12, {13, 2}), "");  // another LPN's data
}

TEST(IntegrityDurability, AGuaranteedTrimReadsAsZeroesOrALaterWrite) {
  IntegrityOracle oracle;
  write(oracle, 2);
  trim(oracle, 2);
  flush(oracle);  // the trim (operation 2) guaranteed
  EXPECT_EQ(oracle.guaranteed_lpns(), std::vector<uint32_t>{2});
  write(oracle, 2);  // version 3, not guaranteed
  oracle.power_lost();
  EXPECT_EQ(read(oracle, 2, {0, 0}), "");
  EXPECT_EQ(read(oracle, 2, {2, 3}), "");
  EXPECT_NE(read(oracle, 2, {2, 1}), "");  // the data the trim removed
  EXPECT_NE(read(oracle, 2, {2, 2}), "");  // the trim's own number is no version
}

TEST(IntegrityDurability, ATrimAfterTheGuaranteedWriteMakesZeroesAcceptable) {
  IntegrityOracle oracle;
  write(oracle, 2);
  flush(oracle);  // version 1 guaranteed
  trim(oracle, 2);  // not guaranteed, but it may have reached the media
  oracle.power_lost();
  EXPECT_EQ(read(oracle, 2, {2, 1}), "");
  EXPECT_EQ(read(oracle, 2, {0, 0}), "");
  // Without the trim, zeroes would be a lost write.
  IntegrityOracle without_trim;
  write(without_trim, 2);
  flush(without_trim);
  write(without_trim, 2);
  without_trim.power_lost();
  EXPECT_NE(read(without_trim, 2, {0, 0}), "");
}

TEST(IntegrityDurability, AWriteAfterTheCutEndsTheRecoveryRuleForItsLpn) {
  IntegrityOracle oracle;
  write(oracle, 1);
  flush(oracle);
  write(oracle, 1);  // version 2, not guaranteed
  oracle.power_lost();
  const uint32_t recovering = oracle.read_snapshot(1);
  EXPECT_EQ(oracle.begin_write(1), 3u);
  // A read submitted before the new write may see anything from the guaranteed version on.
  EXPECT_EQ(oracle.check(1, recovering, {1, 1}).value_or(""), "");
  oracle.complete(1);
  // The normal rule again: the completed write only.
  EXPECT_EQ(read(oracle, 1, {1, 3}), "");
  EXPECT_NE(read(oracle, 1, {1, 1}), "");
  EXPECT_NE(read(oracle, 1, {1, 2}), "");
}

TEST(IntegrityDurability, GuaranteesCarryAcrossSeveralCuts) {
  IntegrityOracle oracle;
  write(oracle, 4);
  flush(oracle);  // LPN 4 version 1 guaranteed
  write(oracle, 5);
  oracle.begin_write(5);  // in flight at the first cut
  oracle.power_lost();
  EXPECT_EQ(read(oracle, 4, {4, 1}), "");
  // The workload goes on after recovery: LPN 4 again, LPN 6 made durable by FUA.
  write(oracle, 4);  // version 2, not guaranteed
  write(oracle, 6, true);
  const uint64_t lost = oracle.begin_flush();  // in flight at the second cut: covers nothing
  oracle.power_lost();
  EXPECT_THROW(oracle.complete_flush(lost), std::logic_error);
  EXPECT_EQ(oracle.power_losses(), 2u);
  EXPECT_EQ(read(oracle, 4, {4, 1}), "");
  EXPECT_EQ(read(oracle, 4, {4, 2}), "");
  EXPECT_EQ(read(oracle, 5, {0, 0}), "");  // LPN 5 was never guaranteed
  EXPECT_EQ(read(oracle, 5, {5, 2}), "");
  EXPECT_EQ(read(oracle, 6, {6, 1}), "");
  EXPECT_NE(read(oracle, 6, {0, 0}), "");
  EXPECT_EQ(oracle.guaranteed_lpns(), (std::vector<uint32_t>{4, 6}));
  // Nothing is in flight after a cut: the host may write every LPN again.
  EXPECT_FALSE(oracle.in_flight(5));
  EXPECT_EQ(oracle.begin_write(5), 3u);
}

TEST(IntegrityDurability, WritesAwaitingAFlushAreListedOncePerLpn) {
  IntegrityOracle oracle;
  for (int i = 0; i < 3; ++i) write(oracle, 9);
  write(oracle, 10);
  flush(oracle);
  EXPECT_EQ(oracle.guaranteed(9), 3u);
  EXPECT_EQ(oracle.guaranteed(10), 1u);
  EXPECT_EQ(oracle.guaranteed_lpns(), (std::vector<uint32_t>{9, 10}));
}

}  // namespace
}  // namespace ssdvp::host
