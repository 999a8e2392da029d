#include "nand_model/timing.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp::nand {

namespace {
constexpr uint64_t kPsPerMicrosecond = 1'000'000;
}

Timing::Timing(const NandConfig& config, const Geometry& geometry)
    : read_ps_{config.read_lsb_ps, config.read_clsb_ps, config.read_cmsb_ps, config.read_msb_ps},
      program_ps_(config.program_ps),
      erase_ps_(config.erase_ps),
      command_ps_(uint64_t{config.cmd_addr_cycles} * config.cmd_cycle_ps),
      bus_rate_mts_(config.bus_rate_mts),
      bus_width_bits_(config.bus_width_bits),
      page_with_spare_bytes_(uint64_t{geometry.page_bytes()} + geometry.oob_bytes()),
      bits_per_cell_(geometry.bits_per_cell()) {
  if (bus_rate_mts_ == 0) throw std::runtime_error("nand.bus_rate = 0: must be at least 1 MT/s");
  if (bus_width_bits_ == 0 || bus_width_bits_ % 8 != 0) {
    throw std::runtime_error(
        fmt::format("nand.bus_width = {}: must be a non-zero multiple of 8 bits", bus_width_bits_));
  }
}

uint64_t Timing::transfer_ps(uint64_t bytes) const {
  const uint64_t transfers = (bytes * 8 + bus_width_bits_ - 1) / bus_width_bits_;
  // One transfer lasts 1 us / bus_rate_mts.
  return (transfers * kPsPerMicrosecond + bus_rate_mts_ - 1) / bus_rate_mts_;
}

uint64_t Timing::program_data_in_ps(uint32_t planes) const {
  return planes * bits_per_cell_ * (command_ps_ + transfer_ps(page_with_spare_bytes_));
}

}  // namespace ssdvp::nand
