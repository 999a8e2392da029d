#include "nand_model/geometry.h"

#include <stdexcept>

#include <fmt/format.h>

#include "interface/data_tag.h"

namespace ssdvp::nand {
namespace {

void require_positive(const char* key, uint32_t value) {
  if (value == 0) throw std::runtime_error(fmt::format("{} = 0: must be at least 1", key));
}

}  // namespace

Geometry::Geometry(const NandConfig& config) {
  require_positive("nand.channels", config.channels);
  require_positive("nand.ways", config.ways);
  require_positive("nand.dies", config.dies);
  require_positive("nand.planes", config.planes);
  require_positive("nand.blocks", config.blocks);
  require_positive("nand.pages", config.pages);
  if (config.cell > static_cast<uint32_t>(NandCell::kQlc)) {
    throw std::runtime_error(
        fmt::format("nand.cell = {}: allowed slc, mlc, tlc, qlc", config.cell));
  }
  raw_.channels = config.channels;
  raw_.ways = config.ways;
  raw_.dies = config.dies;
  raw_.planes = config.planes;
  raw_.blocks = config.blocks;
  raw_.pages = config.pages;
  raw_.page_bytes = config.page_bytes;
  raw_.oob_bytes = config.oob_bytes;
  raw_.bits_per_cell = config.cell + 1;
  if (config.pages % raw_.bits_per_cell != 0) {
    throw std::runtime_error(fmt::format(
        "nand.pages = {} is not a multiple of {}, the pages of one {} wordline", config.pages,
        raw_.bits_per_cell, cell_name(raw_.bits_per_cell)));
  }
  if (config.page_bytes < DATA_TAG_BYTES) {
    throw std::runtime_error(fmt::format("nand.page_size = {} B: a page must hold a {} B data tag",
                                         config.page_bytes, DATA_TAG_BYTES));
  }
  // Multiplying in 64 bits: every factor is 32-bit, their product may not be.
  const uint64_t pages = uint64_t{config.channels} * config.ways * config.dies * config.planes *
                         config.blocks * config.pages;
  if (pages > (uint64_t{1} << 32)) {
    throw std::runtime_error(fmt::format(
        "nand geometry has {} pages (nand.channels x ways x dies x planes x blocks x pages), more "
        "than the 2^32 a 32-bit PPN addresses",
        pages));
  }
}

std::string Geometry::describe(uint32_t ppn) const {
  const nand_address_t a = address(ppn);
  return fmt::format("channel {} way {} die {} plane {} block {} page {} (ppn {:#x})", a.channel,
                     a.way, a.die, a.plane, a.block, a.page, ppn);
}

const char* Geometry::page_type_name(uint32_t page_type) {
  static const char* const kNames[NAND_MAX_BITS_PER_CELL] = {"lsb", "clsb", "cmsb", "msb"};
  return page_type < NAND_MAX_BITS_PER_CELL ? kNames[page_type] : "unknown";
}

const char* Geometry::cell_name(uint32_t bits_per_cell) {
  static const char* const kNames[NAND_MAX_BITS_PER_CELL] = {"slc", "mlc", "tlc", "qlc"};
  return bits_per_cell >= 1 && bits_per_cell <= NAND_MAX_BITS_PER_CELL ? kNames[bits_per_cell - 1]
                                                                       : "unknown";
}

}  // namespace ssdvp::nand
