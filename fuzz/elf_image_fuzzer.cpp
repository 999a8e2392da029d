// The ELF loader (tlm/system/elf_image): any bytes either load or end in a std::runtime_error
// naming the file; a loaded image's segments lie in the 32-bit address space and hold at most
// their memory size, and symbol look-ups work on it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/system/elf_image.h"

namespace {

constexpr const char* kPath = "fuzz.elf";

[[noreturn]] void violated(const std::string& rule) {
  std::fprintf(stderr, "elf image: %s\n", rule.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const ssdvp::ElfImage image =
        ssdvp::ElfImage::parse(kPath, std::vector<uint8_t>(data, data + size));
    for (const ssdvp::ElfSegment& segment : image.segments()) {
      if (segment.bytes.size() > segment.memory_size) violated("a segment beyond its memory size");
      if (uint64_t{segment.address} + segment.memory_size > (uint64_t{1} << 32)) {
        violated("a segment beyond the 32-bit address space");
      }
    }
    for (const ssdvp::ElfSymbol& symbol : image.symbols()) {
      image.function_at(symbol.address);
      image.function_at(symbol.address + symbol.size);
      image.symbol_address(symbol.name);
    }
    image.function_at(image.entry());
  } catch (const std::runtime_error& error) {
    if (std::string(error.what()).rfind(kPath, 0) != 0) {
      violated(std::string("an error that does not name the file: ") + error.what());
    }
  }
  return 0;
}
