// ProfileReport over profile_fixture.S: alpha 0x100 (16 bytes), beta 0x110 (8), a gap at
// 0x118..0x120, gamma 0x120 (no size, up to delta), delta 0x140 (4).
#include "tb/report/profile_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace ssdvp {
namespace {

const std::vector<AddressCycles> kSamples = {
    {0x100, 10}, {0x102, 5}, {0x10e, 1},  // alpha: 16
    {0x110, 40}, {0x116, 2},              // beta: 42
    {0x118, 7},                           // gap after beta: unknown
    {0x120, 3},  {0x13e, 4},              // gamma (unsized): 7
    {0x140, 30},                          // delta: 30
    {0x144, 1},  {0x080, 1},              // past delta's end, before alpha: unknown
    {0x104, 0},                           // no cycles: ignored
};
constexpr uint64_t kTotal = 16 + 42 + 9 + 7 + 30;

class ProfileReportTest : public ::testing::Test {
 protected:
  ElfImage image_ = ElfImage::load(PROFILE_FIXTURE);
};

TEST_F(ProfileReportTest, SumsCyclesPerFunctionMostFirst) {
  const ProfileReport report(image_, kSamples);
  EXPECT_EQ(report.total_cycles(), kTotal);
  const std::vector<std::pair<std::string, uint64_t>> expected = {
      {"beta", 42}, {"delta", 30}, {"alpha", 16}, {"<unknown>", 9}, {"gamma", 7}};
  ASSERT_EQ(report.functions().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].first);
    EXPECT_EQ(report.functions()[i].function, expected[i].first);
    EXPECT_EQ(report.functions()[i].cycles, expected[i].second);
    EXPECT_DOUBLE_EQ(report.functions()[i].percent, 100.0 * expected[i].second / kTotal);
  }
}

TEST_F(ProfileReportTest, EqualCyclesAreOrderedByName) {
  const ProfileReport report(image_, {{0x140, 5}, {0x100, 5}, {0x110, 5}});
  ASSERT_EQ(report.functions().size(), 3u);
  EXPECT_EQ(report.functions()[0].function, "alpha");
  EXPECT_EQ(report.functions()[1].function, "beta");
  EXPECT_EQ(report.functions()[2].function, "delta");
}

TEST_F(ProfileReportTest, JsonHoldsTheTopFunctions) {
  const ProfileReport report(image_, kSamples);
  const nlohmann::json top = report.to_json(2);
  ASSERT_TRUE(top.is_array());
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0]["function"], "beta");
  EXPECT_EQ(top[0]["cycles"], 42u);
  EXPECT_DOUBLE_EQ(top[0]["percent"].get<double>(), 100.0 * 42 / kTotal);
  EXPECT_EQ(top[1]["function"], "delta");
  EXPECT_EQ(top[1]["cycles"], 30u);
  EXPECT_EQ(report.to_json(100).size(), 5u);
}

TEST_F(ProfileReportTest, TableIsAlignedWithTheRestAndTheTotal) {
  const ProfileReport report(image_, kSamples);
  std::istringstream table(report.format_table(2));
  std::vector<std::string> lines;
  for (std::string line; std::getline(table, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u);  // heading, beta, delta, the other three, total

  auto fields = [](const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string word; in >> word;) words.push_back(word);
    return words;
  };
  EXPECT_EQ(fields(lines[0]), (std::vector<std::string>{"function", "cycles", "percent"}));
  EXPECT_EQ(fields(lines[1]), (std::vector<std::string>{"beta", "42", "40.38%"}));
  EXPECT_EQ(fields(lines[2]), (std::vector<std::string>{"delta", "30", "28.85%"}));
  // alpha 16 + unknown 9 + gamma 7 = 32 of 104.
  EXPECT_EQ(fields(lines[3]),
            (std::vector<std::string>{"(3", "more", "functions)", "32", "30.77%"}));
  EXPECT_EQ(fields(lines[4]), (std::vector<std::string>{"total", "104", "100.00%"}));
  // Right-aligned columns: every line ends at the same column.
  for (const std::string& line : lines) EXPECT_EQ(line.size(), lines[0].size()) << line;
}

TEST_F(ProfileReportTest, EmptyProfile) {
  const ProfileReport report(image_, {});
  EXPECT_EQ(report.total_cycles(), 0u);
  EXPECT_TRUE(report.functions().empty());
  EXPECT_TRUE(report.to_json(10).empty());
  EXPECT_NE(report.format_table(10).find("total"), std::string::npos);
}

TEST(ProfileReportCounters, HalfwordCountersBecomeAddresses) {
  const std::vector<AddressCycles> samples =
      ProfileReport::from_halfword_counters(0x1000, {10, 0, 5, 0, 0, 7});
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].address, 0x1000u);
  EXPECT_EQ(samples[0].cycles, 10u);
  EXPECT_EQ(samples[1].address, 0x1004u);
  EXPECT_EQ(samples[1].cycles, 5u);
  EXPECT_EQ(samples[2].address, 0x100au);
  EXPECT_EQ(samples[2].cycles, 7u);
}

}  // namespace
}  // namespace ssdvp
