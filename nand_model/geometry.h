// The shape of the flash array: channels x ways x dies x planes x blocks x pages, the cell type
// and its page types, and the conversions between PPNs (interface/nand_geometry.h), addresses,
// die and block indices. Checked once against the scenario keys that set it.
#pragma once

#include <cstdint>
#include <string>

#include "interface/nand_geometry.h"
#include "tlm/system/soc_config.h"

namespace ssdvp::nand {

class Geometry {
 public:
  // Throws std::runtime_error naming the nand.* key of a value the array cannot have (pages not
  // a multiple of the bits per cell, more pages than a 32-bit PPN addresses, ...).
  explicit Geometry(const NandConfig& config);

  const nand_geometry_t& raw() const { return raw_; }
  uint32_t channels() const { return raw_.channels; }
  uint32_t ways() const { return raw_.ways; }
  uint32_t dies_per_chip() const { return raw_.dies; }
  uint32_t planes() const { return raw_.planes; }
  uint32_t blocks_per_plane() const { return raw_.blocks; }
  uint32_t pages_per_block() const { return raw_.pages; }
  uint32_t page_bytes() const { return raw_.page_bytes; }
  uint32_t oob_bytes() const { return raw_.oob_bytes; }
  uint32_t bits_per_cell() const { return raw_.bits_per_cell; }
  uint32_t wordlines_per_block() const { return raw_.pages / raw_.bits_per_cell; }

  // Dies of the whole array, numbered channel-major: die_index = (channel * ways + way) * dies
  // + die. Dies of one channel are consecutive.
  uint32_t die_count() const { return raw_.channels * raw_.ways * raw_.dies; }
  uint32_t dies_per_channel() const { return raw_.ways * raw_.dies; }
  uint64_t block_count() const { return uint64_t{die_count()} * raw_.planes * raw_.blocks; }
  uint64_t page_count() const { return nand_total_pages(&raw_); }
  uint64_t capacity_bytes() const { return page_count() * raw_.page_bytes; }

  bool contains(uint64_t ppn) const { return ppn < page_count(); }
  nand_address_t address(uint32_t ppn) const { return nand_address_of(&raw_, ppn); }
  uint32_t ppn(const nand_address_t& address) const { return nand_ppn(&raw_, &address); }
  uint32_t die_index(const nand_address_t& a) const {
    return (a.channel * raw_.ways + a.way) * raw_.dies + a.die;
  }
  uint32_t channel_of_die(uint32_t die_index) const { return die_index / dies_per_channel(); }
  // Blocks numbered like PPNs without the page: ppn / pages_per_block.
  uint64_t block_index(uint32_t ppn) const { return ppn / raw_.pages; }
  uint32_t page_in_block(uint32_t ppn) const { return ppn % raw_.pages; }
  // The same block and page on the plane `planes_further` planes up (multi-plane operations).
  uint32_t ppn_on_plane(uint32_t ppn, uint32_t planes_further) const {
    return ppn + planes_further * raw_.blocks * raw_.pages;
  }
  uint32_t page_type(uint32_t page_in_block) const { return page_in_block % raw_.bits_per_cell; }
  uint32_t wordline(uint32_t page_in_block) const { return page_in_block / raw_.bits_per_cell; }

  // "channel 1 way 0 die 0 plane 1 block 17 page 5 (ppn 0x...)".
  std::string describe(uint32_t ppn) const;
  // "lsb", "clsb", "cmsb", "msb".
  static const char* page_type_name(uint32_t page_type);
  // "slc", "mlc", "tlc", "qlc".
  static const char* cell_name(uint32_t bits_per_cell);

 private:
  nand_geometry_t raw_;
};

}  // namespace ssdvp::nand
