// Time of each NAND operation and of each piece of channel-bus work, from the scenario's
// nand.* timing keys. Pure arithmetic in picoseconds; the flash controller (tlm/nfc) decides
// when each piece happens.
//
// What occupies what:
// - the channel bus: one command/address sequence (cmd_addr_cycles x cmd_cycle) per plane
//   address, and data transfers of ceil(bytes x 8 / bus_width) transfers at bus_rate;
// - the die's array: tR by page type for a read, one tPROG for a full-sequence program of a
//   wordline (every page of it transferred first), tBERS for an erase. A multi-plane operation
//   costs the array time once for all its planes and the bus work once per plane.
#pragma once

#include <cstdint>

#include "nand_model/geometry.h"
#include "tlm/system/soc_config.h"

namespace ssdvp::nand {

class Timing {
 public:
  // Throws std::runtime_error naming the key of a zero bus rate or width.
  Timing(const NandConfig& config, const Geometry& geometry);

  // Array busy times.
  uint64_t read_ps(uint32_t page_type) const { return read_ps_[page_type]; }
  uint64_t program_ps() const { return program_ps_; }
  uint64_t erase_ps() const { return erase_ps_; }

  // One command/address sequence on the bus.
  uint64_t command_ps() const { return command_ps_; }
  // Moving `bytes` over the bus, rounded up to whole picoseconds.
  uint64_t transfer_ps(uint64_t bytes) const;

  // Bus work of each operation phase.
  // Read: the addresses of every plane, then tR, then per plane a column-select command and the
  // data out (`bytes` of that plane: page and spare, or the spare alone).
  uint64_t read_command_phase_ps(uint32_t planes) const { return planes * command_ps_; }
  uint64_t read_data_out_ps(uint64_t bytes) const { return command_ps_ + transfer_ps(bytes); }
  // Program: every page of the wordline on every plane, each with its command and address and
  // its page and spare bytes, then one tPROG.
  uint64_t program_data_in_ps(uint32_t planes) const;
  // Erase: the addresses of every plane, then tBERS.
  uint64_t erase_command_phase_ps(uint32_t planes) const { return planes * command_ps_; }

  // Bytes a page moves over the bus with its spare area.
  uint64_t page_with_spare_bytes() const { return page_with_spare_bytes_; }

 private:
  uint64_t read_ps_[NAND_MAX_BITS_PER_CELL];
  uint64_t program_ps_;
  uint64_t erase_ps_;
  uint64_t command_ps_;
  uint64_t bus_rate_mts_;
  uint64_t bus_width_bits_;
  uint64_t page_with_spare_bytes_;
  uint64_t bits_per_cell_;
};

}  // namespace ssdvp::nand
