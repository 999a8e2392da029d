#include "tlm/host/host_link.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp::host {
namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000;

struct LaneRate {
  uint64_t bps;
  uint32_t payload_bits;
  uint32_t line_bits;
};

// PCIe Gen1..Gen5 per lane: 8b/10b up to Gen2, 128b/130b from Gen3.
constexpr std::array<LaneRate, 5> kPcieRates = {{{2'500'000'000, 8, 10},
                                                 {5'000'000'000, 8, 10},
                                                 {8'000'000'000, 128, 130},
                                                 {16'000'000'000, 128, 130},
                                                 {32'000'000'000, 128, 130}}};
// UFS over M-PHY HS-G1..G5, rate series B (what UFS devices run), all 8b/10b.
constexpr std::array<LaneRate, 5> kUfsRates = {{{1'457'600'000, 8, 10},
                                                {2'915'200'000, 8, 10},
                                                {5'830'400'000, 8, 10},
                                                {11'660'800'000, 8, 10},
                                                {23'321'600'000, 8, 10}}};


}  // namespace

HostLink::HostLink(const HostLinkConfig& config) : latency_ps_(config.latency_ps) {
  const auto fail = [](const char* key, uint32_t value, const char* allowed) {
    throw std::runtime_error(
        fmt::format("{} = {} is out of range: allowed {}", key, value, allowed));
  };
  LaneRate rate{};
  if (config.type == static_cast<uint32_t>(HostLinkType::kPcie)) {
    if (config.pcie_gen < 1 || config.pcie_gen > kPcieRates.size()) {
      fail("host.link.pcie_gen", config.pcie_gen, "1..5");
    }
    const uint32_t lanes = config.lanes;
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) {
      fail("host.link.lanes", lanes, "1, 2, 4, 8, 16 for PCIe");
    }
    rate = kPcieRates[config.pcie_gen - 1];
    description_ = fmt::format("PCIe Gen{} x{} ({} GT/s per lane", config.pcie_gen, config.lanes,
                               static_cast<double>(rate.bps) / 1e9);
  } else if (config.type == static_cast<uint32_t>(HostLinkType::kUfs)) {
    if (config.ufs_gear < 1 || config.ufs_gear > kUfsRates.size()) {
      fail("host.link.ufs_gear", config.ufs_gear, "1..5");
    }
    if (config.lanes != 1 && config.lanes != 2) fail("host.link.lanes", config.lanes, "1, 2 for UFS");
    rate = kUfsRates[config.ufs_gear - 1];
    description_ = fmt::format("UFS HS-G{} x{} ({} Mb/s per lane", config.ufs_gear, config.lanes,
                               static_cast<double>(rate.bps) / 1e6);
  } else {
    fail("host.link.type", config.type, "pcie (0), ufs (1)");
  }
  lane_rate_bps_ = rate.bps;
  payload_bits_ = rate.payload_bits;
  line_bits_ = rate.line_bits;
  lanes_ = config.lanes;
  description_ += fmt::format(", {}b/{}b)", payload_bits_, line_bits_);
}

double HostLink::bandwidth_bytes_per_s() const {
  return static_cast<double>(lane_rate_bps_) * lanes_ * payload_bits_ / line_bits_ / 8.0;
}

uint64_t HostLink::wire_ps(uint64_t bytes) const {
  // bytes * 8 payload bits take 8 * bytes * line / payload line bits, spread over the lanes.
  const unsigned __int128 numerator =
      static_cast<unsigned __int128>(bytes) * 8 * line_bits_ * kPsPerSecond;
  const unsigned __int128 denominator =
      static_cast<unsigned __int128>(lane_rate_bps_) * lanes_ * payload_bits_;
  return static_cast<uint64_t>((numerator + denominator - 1) / denominator);
}

uint64_t HostLink::transfer(Direction direction, uint64_t bytes, uint64_t ready_ps) {
  DirectionState& state = directions_[static_cast<size_t>(direction)];
  const uint64_t start = std::max(ready_ps, state.free_at_ps);
  const uint64_t wire = wire_ps(bytes);
  state.free_at_ps = start + wire;
  state.bytes += bytes;
  state.transfers += 1;
  state.busy_ps += wire;
  return state.free_at_ps + latency_ps_;
}

void HostLink::report(nlohmann::json& out) const {
  out["description"] = description_;
  out["bandwidth_bytes_per_s"] = bandwidth_bytes_per_s();
  out["latency_ps"] = latency_ps_;
  const auto direction = [this](Direction d) {
    return nlohmann::json{{"bytes", bytes(d)}, {"transfers", transfers(d)}, {"busy_ps", busy_ps(d)}};
  };
  out["to_device"] = direction(Direction::kToDevice);
  out["to_host"] = direction(Direction::kToHost);
}

}  // namespace ssdvp::host
