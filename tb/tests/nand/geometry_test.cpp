// Geometry: PPN packing, die numbering, page types and the checks on the scenario's values.
#include "nand_model/geometry.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ssdvp::nand {
namespace {

NandConfig small_qlc() {
  NandConfig config;
  config.channels = 2;
  config.ways = 3;
  config.dies = 2;
  config.planes = 2;
  config.blocks = 5;
  config.pages = 8;
  config.cell = static_cast<uint32_t>(NandCell::kQlc);
  return config;
}

std::string error_of(const NandConfig& config) {
  try {
    Geometry geometry(config);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "";
}

TEST(NandGeometry, EveryPpnRoundTripsThroughItsAddress) {
  const Geometry g(small_qlc());
  ASSERT_EQ(g.page_count(), 2u * 3 * 2 * 2 * 5 * 8);
  for (uint32_t ppn = 0; ppn < g.page_count(); ++ppn) {
    const nand_address_t a = g.address(ppn);
    EXPECT_EQ(g.ppn(a), ppn);
    EXPECT_LT(a.channel, 2u);
    EXPECT_LT(a.way, 3u);
    EXPECT_LT(a.page, 8u);
  }
}

TEST(NandGeometry, PpnPacksChannelWayDiePlaneBlockPageMostSignificantFirst) {
  const Geometry g(small_qlc());
  const nand_address_t a{1, 2, 1, 1, 4, 7};
  // ((((1 * 3 + 2) * 2 + 1) * 2 + 1) * 5 + 4) * 8 + 7
  EXPECT_EQ(g.ppn(a), ((((1u * 3 + 2) * 2 + 1) * 2 + 1) * 5 + 4) * 8 + 7);
}

TEST(NandGeometry, DiesAreNumberedChannelMajor) {
  const Geometry g(small_qlc());
  EXPECT_EQ(g.die_count(), 12u);
  EXPECT_EQ(g.dies_per_channel(), 6u);
  const nand_address_t a{1, 2, 1, 0, 0, 0};
  EXPECT_EQ(g.die_index(a), 11u);
  EXPECT_EQ(g.channel_of_die(5), 0u);
  EXPECT_EQ(g.channel_of_die(6), 1u);
}

TEST(NandGeometry, OtherPlaneOfTheSameBlockAndPage) {
  const Geometry g(small_qlc());
  const uint32_t ppn = g.ppn(nand_address_t{0, 1, 0, 0, 3, 4});
  const nand_address_t next = g.address(g.ppn_on_plane(ppn, 1));
  EXPECT_EQ(next.plane, 1u);
  EXPECT_EQ(next.block, 3u);
  EXPECT_EQ(next.page, 4u);
  EXPECT_EQ(next.way, 1u);
}

TEST(NandGeometry, QlcWordlinesHoldLsbClsbCmsbMsbInOrder) {
  const Geometry g(small_qlc());
  EXPECT_EQ(g.bits_per_cell(), 4u);
  EXPECT_EQ(g.wordlines_per_block(), 2u);
  for (uint32_t page = 0; page < 8; ++page) {
    EXPECT_EQ(g.page_type(page), page % 4);
    EXPECT_EQ(g.wordline(page), page / 4);
  }
  EXPECT_STREQ(Geometry::page_type_name(g.page_type(0)), "lsb");
  EXPECT_STREQ(Geometry::page_type_name(g.page_type(1)), "clsb");
  EXPECT_STREQ(Geometry::page_type_name(g.page_type(2)), "cmsb");
  EXPECT_STREQ(Geometry::page_type_name(g.page_type(7)), "msb");
}

TEST(NandGeometry, TlcHasThreePagesPerWordline) {
  NandConfig config = small_qlc();
  config.cell = static_cast<uint32_t>(NandCell::kTlc);
  config.pages = 9;
  const Geometry g(config);
  EXPECT_EQ(g.bits_per_cell(), 3u);
  EXPECT_EQ(g.page_type(5), 2u);
  EXPECT_EQ(g.wordline(5), 1u);
}

TEST(NandGeometry, PaperDeviceIsOneTebibyte) {
  // RL-FSP paper, Table I: 8 channels, 2 chips, 2 planes, 4096 blocks, 1024 pages of 8 KB.
  NandConfig config;
  config.channels = 8;
  config.ways = 2;
  config.dies = 1;
  config.planes = 2;
  config.blocks = 4096;
  config.pages = 1024;
  config.page_bytes = 8192;
  const Geometry g(config);
  EXPECT_EQ(g.capacity_bytes(), uint64_t{1} << 40);
}

TEST(NandGeometry, PagesMustBeWholeWordlines) {
  NandConfig config = small_qlc();
  config.pages = 6;
  const std::string error = error_of(config);
  EXPECT_NE(error.find("nand.pages = 6"), std::string::npos) << error;
  EXPECT_NE(error.find("multiple of 4"), std::string::npos) << error;
}

TEST(NandGeometry, PpnsMustFitThirtyTwoBits) {
  NandConfig config = small_qlc();
  config.blocks = 1u << 20;
  config.pages = 4096;
  const std::string error = error_of(config);
  EXPECT_NE(error.find("2^32"), std::string::npos) << error;
}

TEST(NandGeometry, ZeroCountsAreRejectedByKey) {
  NandConfig config = small_qlc();
  config.planes = 0;
  EXPECT_NE(error_of(config).find("nand.planes"), std::string::npos);
}

}  // namespace
}  // namespace ssdvp::nand
