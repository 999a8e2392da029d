// The integrity oracle: versions per LPN, the rule for reads that overlap writes or trims, and
// the message of a mismatch (LPN, expected and found versions).
#include <gtest/gtest.h>

#include <string>

#include "tlm/host/integrity_oracle.h"

namespace ssdvp::host {
namespace {

std::string problem(IntegrityOracle& oracle, uint32_t lpn, uint32_t snapshot, data_tag_t tag) {
  return oracle.check(lpn, snapshot, tag).value_or("");
}

TEST(IntegrityOracle, NeverWrittenPagesReadAsZeroes) {
  IntegrityOracle oracle;
  const uint32_t snapshot = oracle.read_snapshot(42);
  EXPECT_EQ(problem(oracle, 42, snapshot, {0, 0}), "");
  EXPECT_EQ(problem(oracle, 42, snapshot, {42, 0}), "");
  EXPECT_EQ(problem(oracle, 42, snapshot, {42, 1}),
            "integrity check failed: LPN 42: expected version 0 (never written), found version 1");
  EXPECT_EQ(oracle.lpns_tracked(), 0u);  // reads cost no memory
  EXPECT_EQ(oracle.pages_checked(), 3u);
}

TEST(IntegrityOracle, EachWriteOfAnLpnTakesTheNextVersion) {
  IntegrityOracle oracle;
  EXPECT_EQ(oracle.begin_write(5), 1u);
  EXPECT_EQ(oracle.begin_write(6), 1u);
  oracle.complete(5);
  EXPECT_EQ(oracle.begin_write(5), 2u);
  oracle.complete(5);
  const uint32_t snapshot = oracle.read_snapshot(5);
  EXPECT_EQ(problem(oracle, 5, snapshot, {5, 2}), "");
  EXPECT_EQ(problem(oracle, 5, snapshot, {5, 1}),
            "integrity check failed: LPN 5: expected version 2, found version 1");
  EXPECT_EQ(problem(oracle, 5, snapshot, {9, 2}),
            "integrity check failed: LPN 5: expected version 2, found the data of LPN 9 version 2");
  EXPECT_EQ(problem(oracle, 5, snapshot, {DATA_TAG_ERASED_WORD, DATA_TAG_ERASED_WORD}),
            "integrity check failed: LPN 5: expected version 2, found the erased pattern");
  EXPECT_EQ(oracle.lpns_tracked(), 2u);
}

TEST(IntegrityOracle, AWriteInFlightMakesOldAndNewAcceptable) {
  IntegrityOracle oracle;
  oracle.begin_write(3);
  oracle.complete(3);
  const uint32_t read_before_write = oracle.read_snapshot(3);
  EXPECT_EQ(oracle.begin_write(3), 2u);
  EXPECT_TRUE(oracle.in_flight(3));
  EXPECT_EQ(problem(oracle, 3, read_before_write, {3, 1}), "");
  EXPECT_EQ(problem(oracle, 3, read_before_write, {3, 2}), "");
  // A read submitted while the write is in flight may see either too.
  const uint32_t read_during_write = oracle.read_snapshot(3);
  EXPECT_EQ(problem(oracle, 3, read_during_write, {3, 1}), "");
  EXPECT_EQ(problem(oracle, 3, read_during_write, {3, 2}), "");
  oracle.complete(3);
  // The first read's data may still arrive after the write completed: the old version stays
  // acceptable for it; a read submitted after the completion must see the new one.
  EXPECT_EQ(problem(oracle, 3, read_before_write, {3, 1}), "");
  const uint32_t read_after_write = oracle.read_snapshot(3);
  EXPECT_EQ(problem(oracle, 3, read_after_write, {3, 1}),
            "integrity check failed: LPN 3: expected version 2, found version 1");
  // Versions never written are caught, in flight or not.
  oracle.begin_write(3);
  EXPECT_EQ(problem(oracle, 3, read_after_write, {3, 4}),
            "integrity check failed: LPN 3: expected a version from 2 to 3 (writes of the LPN "
            "overlapped the read), found version 4");
}

TEST(IntegrityOracle, TrimmedPagesReadAsZeroes) {
  IntegrityOracle oracle;
  oracle.begin_write(8);
  oracle.complete(8);
  const uint32_t before_trim = oracle.read_snapshot(8);
  oracle.begin_trim(8);
  EXPECT_EQ(problem(oracle, 8, before_trim, {8, 1}), "");
  EXPECT_EQ(problem(oracle, 8, before_trim, {0, 0}), "");
  oracle.complete(8);
  const uint32_t after_trim = oracle.read_snapshot(8);
  EXPECT_EQ(problem(oracle, 8, after_trim, {0, 0}), "");
  EXPECT_EQ(problem(oracle, 8, after_trim, {8, 1}),
            "integrity check failed: LPN 8: expected version 0 (trimmed), found version 1");
  // Written again after the trim: zeroes are stale now.
  EXPECT_EQ(oracle.begin_write(8), 3u);
  oracle.complete(8);
  EXPECT_EQ(problem(oracle, 8, oracle.read_snapshot(8), {0, 0}),
            "integrity check failed: LPN 8: expected version 3, found version 0");
}

TEST(IntegrityOracle, ASecondOperationInFlightIsAHostModelBug) {
  IntegrityOracle oracle;
  oracle.begin_write(1);
  EXPECT_THROW(oracle.begin_write(1), std::logic_error);
  EXPECT_THROW(oracle.complete(2), std::logic_error);
}

}  // namespace
}  // namespace ssdvp::host
