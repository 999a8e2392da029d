// A small QLC array for the nand_model tests, and helpers to program whole wordlines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nand_model/nand_array.h"

namespace ssdvp::nand::test {

// 1 channel x 1 way x 1 die x 2 planes x 8 blocks x 16 pages (4 QLC wordlines), 4 KiB pages
// with 16 spare bytes.
inline NandConfig small_config() {
  NandConfig config;
  config.channels = 1;
  config.ways = 1;
  config.dies = 1;
  config.planes = 2;
  config.blocks = 8;
  config.pages = 16;
  config.page_bytes = 4096;
  config.oob_bytes = 16;
  config.cell = static_cast<uint32_t>(NandCell::kQlc);
  return config;
}

inline uint32_t ppn_of(const NandArray& array, uint32_t plane, uint32_t block, uint32_t page) {
  return array.geometry().ppn(nand_address_t{0, 0, 0, plane, block, page});
}

// User pages whose tags are (lpn = first_lpn + i, version = 7); with spare bytes when `oob`
// is given (oob_bytes per page, page i starting with byte value i).
struct Wordline {
  std::vector<PageImage> pages;
  std::vector<std::vector<uint8_t>> spare;

  Wordline(const NandArray& array, uint32_t first_lpn, bool with_oob) {
    const uint32_t bits = array.geometry().bits_per_cell();
    spare.resize(bits);
    for (uint32_t i = 0; i < bits; ++i) {
      PageImage image;
      image.tag = data_tag_t{first_lpn + i, 7};
      if (with_oob) {
        spare[i].resize(array.geometry().oob_bytes());
        for (size_t b = 0; b < spare[i].size(); ++b) spare[i][b] = static_cast<uint8_t>(i + b);
        image.oob = spare[i].data();
      }
      pages.push_back(image);
    }
  }
};

// Whether an error message names `part`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace ssdvp::nand::test
