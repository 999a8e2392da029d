// firmware/lib/metrics: registration by name into the statistics block, and its refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" {
#include "lib/metrics.h"
}

namespace {

struct MetricsTest : ::testing::Test {
  fw_stats_t block{};
  void SetUp() override { metrics_init(&block); }
};

TEST_F(MetricsTest, EachKindIsRecordedWithItsVariable) {
  uint64_t reads = 7;
  uint32_t free_groups = 3;
  uint64_t buckets[4] = {};
  metrics_counter("flash_reads.host", &reads);
  metrics_gauge32("blocks.free_groups", &free_groups);
  metrics_histogram("gc.victim_valid_pages", buckets, 4, 16);
  uint32_t stripes[5] = {};
  metrics_distribution32("blocks.utilisation", stripes, 5, 8);
  ASSERT_TRUE(metrics_fit()) << metrics_problem();
  ASSERT_EQ(block.metric_count, 4u);
  EXPECT_EQ(block.metrics[0].kind, FW_METRIC_COUNTER);
  EXPECT_EQ(block.metrics[0].value_bytes, 8u);
  EXPECT_EQ(block.metrics[0].value, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(&reads)));
  EXPECT_EQ(block.metrics[1].kind, FW_METRIC_GAUGE);
  EXPECT_EQ(block.metrics[1].value_bytes, 4u);
  EXPECT_EQ(block.metrics[2].kind, FW_METRIC_HISTOGRAM);
  EXPECT_EQ(block.metrics[2].buckets, 4u);
  EXPECT_EQ(block.metrics[2].bucket_width, 16u);
  EXPECT_EQ(block.metrics[3].kind, FW_METRIC_DISTRIBUTION);
  EXPECT_EQ(block.metrics[3].value_bytes, 4u);
  EXPECT_EQ(block.metrics[3].buckets, 5u);
  EXPECT_EQ(metrics_find("flash_reads.host"), &reads);
  EXPECT_EQ(metrics_find("blocks.free_groups"), &free_groups);
  EXPECT_EQ(metrics_find("nothing"), nullptr);
}

TEST_F(MetricsTest, HistogramBucketsAreByWidthAndTheLastTakesTheRest) {
  uint64_t buckets[4] = {};
  for (uint32_t value : {0u, 15u, 16u, 47u, 48u, 1000u}) {
    metrics_histogram_add(buckets, 4, 16, value);
  }
  EXPECT_EQ(buckets[0], 2u);
  EXPECT_EQ(buckets[1], 1u);
  EXPECT_EQ(buckets[2], 1u);
  EXPECT_EQ(buckets[3], 2u);
}

TEST_F(MetricsTest, ANameTwiceIsRefusedAndNamed) {
  uint64_t a = 0, b = 0;
  metrics_counter("gc.invocations", &a);
  metrics_counter("gc.invocations", &b);
  EXPECT_FALSE(metrics_fit());
  EXPECT_STREQ(metrics_refused(), "gc.invocations");
  EXPECT_NE(std::string(metrics_problem()).find("twice"), std::string::npos);
  EXPECT_EQ(block.metric_count, 1u);
}

TEST_F(MetricsTest, AFullTableIsRefusedNamingItsLimit) {
  static uint64_t values[FW_STATS_MAX_METRICS + 1];
  static char names[FW_STATS_MAX_METRICS + 1][16];
  for (uint32_t i = 0; i <= FW_STATS_MAX_METRICS; ++i) {
    std::snprintf(names[i], sizeof names[i], "m%u", i);
    metrics_counter(names[i], &values[i]);
  }
  EXPECT_FALSE(metrics_fit());
  EXPECT_EQ(block.metric_count, FW_STATS_MAX_METRICS);
  EXPECT_STREQ(metrics_refused(), names[FW_STATS_MAX_METRICS]);
  EXPECT_NE(std::string(metrics_problem()).find("FW_STATS_MAX_METRICS"), std::string::npos);
}

TEST_F(MetricsTest, LongNamesAndEmptyHistogramsAreRefused) {
  uint64_t value = 0;
  metrics_counter(std::string(FW_STATS_NAME_BYTES, 'x').c_str(), &value);
  EXPECT_FALSE(metrics_fit());
  metrics_init(&block);
  metrics_histogram("h", &value, 0, 4);
  EXPECT_FALSE(metrics_fit());
  EXPECT_STREQ(metrics_refused(), "h");
}

}  // namespace
