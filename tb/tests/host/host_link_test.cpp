// The host link: transfer times from lanes, rate and encoding, queueing per direction, the fixed
// latency, and the widths each link type allows. Expected times are worked out by hand in ps.
#include <gtest/gtest.h>

#include <string>

#include "tlm/host/host_link.h"

namespace ssdvp::host {
namespace {

HostLinkConfig pcie(uint32_t gen, uint32_t lanes, uint64_t latency_ps = 0) {
  HostLinkConfig config;
  config.type = static_cast<uint32_t>(HostLinkType::kPcie);
  config.pcie_gen = gen;
  config.lanes = lanes;
  config.latency_ps = latency_ps;
  return config;
}

HostLinkConfig ufs(uint32_t gear, uint32_t lanes) {
  HostLinkConfig config;
  config.type = static_cast<uint32_t>(HostLinkType::kUfs);
  config.ufs_gear = gear;
  config.lanes = lanes;
  config.latency_ps = 0;
  return config;
}

TEST(HostLink, PcieGen3x4MovesAPageIn1040Ns) {
  // 4096 B = 32768 payload bits = 33280 line bits (128b/130b), over 4 lanes of 8 Gb/s.
  const HostLink link(pcie(3, 4));
  EXPECT_EQ(link.wire_ps(4096), 1'040'000u);
  EXPECT_EQ(link.description(), "PCIe Gen3 x4 (8 GT/s per lane, 128b/130b)");
}

TEST(HostLink, PcieGen1UsesEightBTenBEncoding) {
  // 512 B = 4096 payload bits = 5120 line bits at 2.5 Gb/s on one lane: 2.048 us.
  const HostLink link(pcie(1, 1));
  EXPECT_EQ(link.wire_ps(512), 2'048'000u);
  // Gen2 doubles the rate, x16 divides by 16: 64 ns.
  EXPECT_EQ(HostLink(pcie(2, 16)).wire_ps(512), 64'000u);
}

TEST(HostLink, PcieGen4x4BandwidthPerDirection) {
  // 16 GT/s x 4 lanes x 128/130 / 8 bits.
  EXPECT_DOUBLE_EQ(HostLink(pcie(4, 4)).bandwidth_bytes_per_s(), 64e9 * 128 / 130 / 8);
  EXPECT_DOUBLE_EQ(HostLink(pcie(5, 8)).bandwidth_bytes_per_s(), 256e9 * 128 / 130 / 8);
}

TEST(HostLink, UfsGearsFollowMphyRateSeriesB) {
  // HS-G4 x2: 2 x 11.6608 Gb/s, 8b/10b. 4096 B = 40960 line bits: 1756.3117... ns, rounded up.
  const HostLink g4(ufs(4, 2));
  EXPECT_EQ(g4.wire_ps(4096), 1'756'312u);
  EXPECT_EQ(g4.description(), "UFS HS-G4 x2 (11660.8 Mb/s per lane, 8b/10b)");
  // HS-G1 x1: 1.4576 Gb/s; 8 B = 80 line bits: 54.884... ns.
  EXPECT_EQ(HostLink(ufs(1, 1)).wire_ps(8), 54'885u);
  EXPECT_DOUBLE_EQ(HostLink(ufs(5, 2)).bandwidth_bytes_per_s(), 2 * 23321.6e6 * 8 / 10 / 8);
}

TEST(HostLink, TransfersQueuePerDirectionAndAddTheLatency) {
  HostLink link(pcie(3, 1, 100'000));  // 64 B: 65 ns on the wire
  using D = HostLink::Direction;
  EXPECT_EQ(link.transfer(D::kToDevice, 64, 0), 165'000u);
  // Ready at 10 ns, but the wire is busy until 65 ns.
  EXPECT_EQ(link.transfer(D::kToDevice, 64, 10'000), 230'000u);
  // The other direction is free.
  EXPECT_EQ(link.transfer(D::kToHost, 64, 10'000), 175'000u);
  // Ready after the wire freed: starts when ready.
  EXPECT_EQ(link.transfer(D::kToDevice, 64, 1'000'000), 1'165'000u);
  EXPECT_EQ(link.bytes(D::kToDevice), 192u);
  EXPECT_EQ(link.transfers(D::kToDevice), 3u);
  EXPECT_EQ(link.busy_ps(D::kToDevice), 195'000u);
  EXPECT_EQ(link.busy_ps(D::kToHost), 65'000u);
}

void expect_rejected(const HostLinkConfig& config, const std::string& key,
                     const std::string& allowed) {
  try {
    HostLink link(config);
    ADD_FAILURE() << "accepted " << key;
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(key), std::string::npos) << message;
    EXPECT_NE(message.find(allowed), std::string::npos) << message;
  }
}

TEST(HostLink, WidthsAndGenerationsOutsideTheStandardAreErrors) {
  expect_rejected(pcie(3, 3), "host.link.lanes = 3", "1, 2, 4, 8, 16 for PCIe");
  expect_rejected(ufs(3, 4), "host.link.lanes = 4", "1, 2 for UFS");
  expect_rejected(pcie(6, 4), "host.link.pcie_gen = 6", "1..5");
  expect_rejected(ufs(0, 1), "host.link.ufs_gear = 0", "1..5");
}

}  // namespace
}  // namespace ssdvp::host
