#include "nand_model/fault_injector.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace ssdvp::nand {
namespace {

// Distinct streams derived from the one scenario seed.
constexpr uint64_t kFactoryStream = 0x6261645F626C6B73ull;  // "bad_blks"
constexpr uint64_t kEccStream = 0x6563635F6661696Cull;      // "ecc_fail"
constexpr uint64_t kProgramStream = 0x70726F675F66616Cull;  // "prog_fal"
constexpr uint64_t kEraseStream = 0x65726173655F666Cull;    // "erase_fl"

[[noreturn]] void bad_entry(const std::string& entry, const Geometry& g, const std::string& why) {
  throw std::runtime_error(fmt::format(
      "nand.bad_blocks: entry '{}' {}; expected channel:way:die:plane:block with channel 0..{}, "
      "way 0..{}, die 0..{}, plane 0..{}, block 0..{}",
      entry, why, g.channels() - 1, g.ways() - 1, g.dies_per_chip() - 1, g.planes() - 1,
      g.blocks_per_plane() - 1));
}

uint64_t parse_block(const std::string& entry, const Geometry& g) {
  uint32_t fields[5];
  size_t pos = 0;
  for (int i = 0; i < 5; ++i) {
    if (i > 0) {
      if (pos >= entry.size() || entry[pos] != ':') bad_entry(entry, g, "is malformed");
      ++pos;
    }
    const size_t start = pos;
    uint64_t value = 0;
    while (pos < entry.size() && entry[pos] >= '0' && entry[pos] <= '9' && pos - start < 10) {
      value = value * 10 + static_cast<uint64_t>(entry[pos] - '0');
      ++pos;
    }
    if (pos == start || value > UINT32_MAX) bad_entry(entry, g, "is malformed");
    fields[i] = static_cast<uint32_t>(value);
  }
  if (pos != entry.size()) bad_entry(entry, g, "is malformed");
  const uint32_t limits[5] = {g.channels(), g.ways(), g.dies_per_chip(), g.planes(),
                              g.blocks_per_plane()};
  for (int i = 0; i < 5; ++i) {
    if (fields[i] >= limits[i]) bad_entry(entry, g, "lies outside the geometry");
  }
  nand_address_t address{fields[0], fields[1], fields[2], fields[3], fields[4], 0};
  return g.block_index(g.ppn(address));
}

}  // namespace

FaultInjector::FaultInjector(const NandConfig& config, uint64_t seed)
    : ecc_fail_ppm_(config.ecc_fail_ppm),
      program_fail_ppm_(config.program_fail_ppm),
      erase_fail_ppm_(config.erase_fail_ppm),
      ecc_(seed ^ kEccStream),
      program_(seed ^ kProgramStream),
      erase_(seed ^ kEraseStream) {
  const std::pair<const char*, uint32_t> rates[] = {
      {"nand.bad_block_rate", config.bad_block_ppm},
      {"nand.fault.ecc_fail_rate", config.ecc_fail_ppm},
      {"nand.fault.program_fail_rate", config.program_fail_ppm},
      {"nand.fault.erase_fail_rate", config.erase_fail_ppm}};
  for (const auto& [key, ppm] : rates) {
    if (ppm > 1'000'000) {
      throw std::runtime_error(
          fmt::format("{} = {} per million: allowed 0 .. 1000000", key, ppm));
    }
  }
}

std::vector<uint64_t> FaultInjector::factory_bad_blocks(const NandConfig& config,
                                                        const Geometry& geometry, uint64_t seed) {
  std::vector<uint64_t> bad;
  if (config.bad_block_ppm != 0) {
    Random random(seed ^ kFactoryStream);
    for (uint64_t block = 0; block < geometry.block_count(); ++block) {
      if (random.chance_ppm(config.bad_block_ppm)) bad.push_back(block);
    }
  }
  const std::string& list = config.bad_blocks;
  size_t pos = 0;
  while (pos < list.size()) {
    const size_t start = list.find_first_not_of(", \t", pos);
    if (start == std::string::npos) break;
    const size_t end = std::min(list.find_first_of(", \t", start), list.size());
    bad.push_back(parse_block(list.substr(start, end - start), geometry));
    pos = end;
  }
  std::sort(bad.begin(), bad.end());
  bad.erase(std::unique(bad.begin(), bad.end()), bad.end());
  return bad;
}

}  // namespace ssdvp::nand
