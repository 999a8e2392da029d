// The link between the host and the controller: PCIe (a generation times lanes) or UFS (an HS
// gear times lanes), full duplex. Each direction is one serial resource: a transfer holds it for
// its bytes at the payload rate (the line rate after 8b/10b or 128b/130b encoding; packet headers
// are not modelled), later transfers in the same direction queue behind it, and every transfer
// arrives a fixed latency after it left the wire. Plain C++: the HIC asks it when a transfer ends.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tlm/system/soc_config.h"

namespace ssdvp::host {

class HostLink {
 public:
  enum class Direction { kToDevice = 0, kToHost = 1 };

  // Throws std::runtime_error naming the scenario key for a generation, gear or lane count the
  // link type does not have.
  explicit HostLink(const HostLinkConfig& config);

  // Line rate of one lane in bits per second, and the encoding: payload bits per line bits.
  uint64_t lane_rate_bps() const { return lane_rate_bps_; }
  uint32_t encoding_payload_bits() const { return payload_bits_; }
  uint32_t encoding_line_bits() const { return line_bits_; }
  uint32_t lanes() const { return lanes_; }
  uint64_t latency_ps() const { return latency_ps_; }
  // Payload bytes per second in one direction.
  double bandwidth_bytes_per_s() const;
  // "PCIe Gen4 x4 (16 GT/s, 128b/130b)".
  const std::string& description() const { return description_; }

  // Time `bytes` hold one direction of the wire, rounded up to the picosecond.
  uint64_t wire_ps(uint64_t bytes) const;
  // Sends `bytes`, ready at `ready_ps`: they start when the direction is free and arrive
  // wire_ps(bytes) + latency later. Returns the arrival time.
  uint64_t transfer(Direction direction, uint64_t bytes, uint64_t ready_ps);

  uint64_t bytes(Direction direction) const { return direction_state(direction).bytes; }
  uint64_t transfers(Direction direction) const { return direction_state(direction).transfers; }
  uint64_t busy_ps(Direction direction) const { return direction_state(direction).busy_ps; }

  // Description, bandwidth, and bytes, transfers and busy time per direction.
  void report(nlohmann::json& out) const;

 private:
  struct DirectionState {
    uint64_t free_at_ps = 0;
    uint64_t bytes = 0;
    uint64_t transfers = 0;
    uint64_t busy_ps = 0;
  };
  const DirectionState& direction_state(Direction direction) const {
    return directions_[static_cast<size_t>(direction)];
  }

  uint64_t lane_rate_bps_ = 0;
  uint32_t payload_bits_ = 0;
  uint32_t line_bits_ = 0;
  uint32_t lanes_ = 0;
  uint64_t latency_ps_ = 0;
  std::string description_;
  std::array<DirectionState, 2> directions_{};
};

}  // namespace ssdvp::host
