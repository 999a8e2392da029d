// An ELF executable for the controller core: its loadable segments, entry point and symbols.
// Only 32-bit little-endian RISC-V executables are accepted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdvp {

struct ElfSegment {
  uint32_t address = 0;           // physical (load) address
  std::vector<uint8_t> bytes;     // file contents; memory size beyond them is zero-filled
  uint32_t memory_size = 0;
  bool executable = false;
  bool writable = false;
};

struct ElfSymbol {
  std::string name;
  uint32_t address = 0;
  uint32_t size = 0;
  bool is_function = false;
};

class ElfImage {
 public:
  // Throws std::runtime_error naming the file for: a missing or unreadable file, not an ELF,
  // a 64-bit or big-endian ELF, a machine other than RISC-V, not an executable, truncated headers.
  static ElfImage load(const std::string& path);
  // The same checks on the contents of a file already read; `path` names it in errors.
  static ElfImage parse(const std::string& path, std::vector<uint8_t> bytes);

  const std::string& path() const { return path_; }
  uint32_t entry() const { return entry_; }
  const std::vector<ElfSegment>& segments() const { return segments_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }  // sorted by address

  std::optional<uint32_t> symbol_address(const std::string& name) const;
  // The function symbol containing addr, if any.
  const ElfSymbol* function_at(uint32_t addr) const;

 private:
  std::string path_;
  uint32_t entry_ = 0;
  std::vector<ElfSegment> segments_;
  std::vector<ElfSymbol> symbols_;
};

}  // namespace ssdvp
