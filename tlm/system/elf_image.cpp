#include "tlm/system/elf_image.h"

#include <elf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp {

namespace {

// Fields are decoded byte by byte in little-endian order, so the loader does not depend on the
// host's byte order or on struct padding; <elf.h> supplies only the constants and layouts.
class ElfBytes {
 public:
  ElfBytes(const std::string& path, std::vector<uint8_t> bytes)
      : path_(path), bytes_(std::move(bytes)) {}

  size_t size() const { return bytes_.size(); }
  const uint8_t* data() const { return bytes_.data(); }

  // True when [offset, offset + length) lies inside the file, without overflowing.
  bool covers(uint64_t offset, uint64_t length) const {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  uint8_t u8(size_t offset) const { return bytes_.at(offset); }
  uint16_t u16(size_t offset) const {
    return static_cast<uint16_t>(bytes_.at(offset) | bytes_.at(offset + 1) << 8);
  }
  uint32_t u32(size_t offset) const {
    return static_cast<uint32_t>(u16(offset)) | static_cast<uint32_t>(u16(offset + 2)) << 16;
  }

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw std::runtime_error(
        fmt::format("{}: {}", path_, fmt::format(format, std::forward<Args>(args)...)));
  }

 private:
  const std::string& path_;
  std::vector<uint8_t> bytes_;
};

std::vector<uint8_t> read_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw std::runtime_error(fmt::format("{}: is a directory, not an ELF file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) {
    throw std::runtime_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  }
  return bytes;
}

const char* elf_type_name(uint16_t type) {
  switch (type) {
    case ET_NONE: return "none";
    case ET_REL: return "relocatable";
    case ET_EXEC: return "executable";
    case ET_DYN: return "shared object";
    case ET_CORE: return "core dump";
    default: return "unknown";
  }
}

// Identification, class, byte order, machine and type. The machine is checked before the class
// (e_machine sits at the same offset in ELF32 and ELF64) so a host binary is reported as "not
// RISC-V" and a RV64 binary as "64-bit".
void check_header(const ElfBytes& elf) {
  if (elf.size() < EI_NIDENT || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) {
    elf.fail("not an ELF file (bad magic number)");
  }
  const uint8_t data_encoding = elf.u8(EI_DATA);
  if (data_encoding == ELFDATA2MSB) {
    elf.fail("big-endian ELF; the controller core is little-endian RV32");
  }
  if (data_encoding != ELFDATA2LSB) {
    elf.fail("invalid ELF data encoding {} (allowed: {} = little-endian)", data_encoding,
             ELFDATA2LSB);
  }
  if (!elf.covers(0, offsetof(Elf32_Ehdr, e_machine) + sizeof(Elf32_Half))) {
    elf.fail("truncated ELF header ({} bytes)", elf.size());
  }
  const uint16_t machine = elf.u16(offsetof(Elf32_Ehdr, e_machine));
  if (machine != EM_RISCV) {
    elf.fail("machine {} is not RISC-V (EM_RISCV = {})", machine, EM_RISCV);
  }
  const uint8_t elf_class = elf.u8(EI_CLASS);
  if (elf_class == ELFCLASS64) {
    elf.fail("64-bit ELF; the controller core is RV32");
  }
  if (elf_class != ELFCLASS32) {
    elf.fail("invalid ELF class {} (allowed: {} = 32-bit)", elf_class, ELFCLASS32);
  }
  if (!elf.covers(0, sizeof(Elf32_Ehdr))) {
    elf.fail("truncated ELF header ({} bytes, need {})", elf.size(), sizeof(Elf32_Ehdr));
  }
  const uint16_t type = elf.u16(offsetof(Elf32_Ehdr, e_type));
  if (type != ET_EXEC) {
    elf.fail("ELF type {} ({}) is not an executable (ET_EXEC = {})", type, elf_type_name(type),
             ET_EXEC);
  }
}

// The table of `count` entries of `entry_size` bytes at `offset`, checked against the file.
void check_table(const ElfBytes& elf, const char* what, uint32_t offset, uint32_t count,
                 uint32_t entry_size, size_t expected_entry_size) {
  if (count == 0) return;
  if (entry_size != expected_entry_size) {
    elf.fail("{} entry size {} (expected {})", what, entry_size, expected_entry_size);
  }
  if (!elf.covers(offset, static_cast<uint64_t>(count) * entry_size)) {
    elf.fail("{} ({} entries at offset {}) extend beyond the end of the file ({} bytes)", what,
             count, offset, elf.size());
  }
}

std::vector<ElfSegment> read_segments(const ElfBytes& elf) {
  const uint32_t table = elf.u32(offsetof(Elf32_Ehdr, e_phoff));
  const uint16_t count = elf.u16(offsetof(Elf32_Ehdr, e_phnum));
  check_table(elf, "program headers", table, count, elf.u16(offsetof(Elf32_Ehdr, e_phentsize)),
              sizeof(Elf32_Phdr));

  std::vector<ElfSegment> segments;
  for (uint16_t index = 0; index < count; ++index) {
    const size_t header = table + static_cast<size_t>(index) * sizeof(Elf32_Phdr);
    if (elf.u32(header + offsetof(Elf32_Phdr, p_type)) != PT_LOAD) continue;
    const uint32_t memory_size = elf.u32(header + offsetof(Elf32_Phdr, p_memsz));
    if (memory_size == 0) continue;
    const uint32_t address = elf.u32(header + offsetof(Elf32_Phdr, p_paddr));
    const uint32_t file_offset = elf.u32(header + offsetof(Elf32_Phdr, p_offset));
    const uint32_t file_size = elf.u32(header + offsetof(Elf32_Phdr, p_filesz));
    const uint32_t flags = elf.u32(header + offsetof(Elf32_Phdr, p_flags));
    if (file_size > memory_size) {
      elf.fail("segment {} at 0x{:08x}: file size {} exceeds memory size {}", index, address,
               file_size, memory_size);
    }
    if (static_cast<uint64_t>(address) + memory_size > (uint64_t{1} << 32)) {
      elf.fail("segment {} at 0x{:08x} ({} bytes) wraps past the 32-bit address space", index,
               address, memory_size);
    }
    if (!elf.covers(file_offset, file_size)) {
      elf.fail("segment {} at 0x{:08x} ({} bytes at file offset {}) extends beyond the end of "
               "the file ({} bytes)",
               index, address, file_size, file_offset, elf.size());
    }
    ElfSegment segment;
    segment.address = address;
    segment.bytes.assign(elf.data() + file_offset, elf.data() + file_offset + file_size);
    segment.memory_size = memory_size;
    segment.executable = (flags & PF_X) != 0;
    segment.writable = (flags & PF_W) != 0;
    segments.push_back(std::move(segment));
  }
  return segments;
}

std::vector<ElfSymbol> read_symbols(const ElfBytes& elf) {
  const uint32_t table = elf.u32(offsetof(Elf32_Ehdr, e_shoff));
  const uint16_t count = elf.u16(offsetof(Elf32_Ehdr, e_shnum));
  if (table == 0 || count == 0) return {};  // no section headers: a stripped image
  check_table(elf, "section headers", table, count, elf.u16(offsetof(Elf32_Ehdr, e_shentsize)),
              sizeof(Elf32_Shdr));

  auto section_field = [&](uint32_t section, size_t field) {
    return elf.u32(table + static_cast<size_t>(section) * sizeof(Elf32_Shdr) + field);
  };
  std::vector<ElfSymbol> symbols;
  for (uint16_t section = 0; section < count; ++section) {
    if (section_field(section, offsetof(Elf32_Shdr, sh_type)) != SHT_SYMTAB) continue;
    const uint32_t symbols_offset = section_field(section, offsetof(Elf32_Shdr, sh_offset));
    const uint32_t symbols_size = section_field(section, offsetof(Elf32_Shdr, sh_size));
    const uint32_t strings_section = section_field(section, offsetof(Elf32_Shdr, sh_link));
    if (strings_section >= count) {
      elf.fail("symbol table (section {}) links to string table section {}, but there are {} "
               "sections",
               section, strings_section, count);
    }
    const uint32_t strings_offset =
        section_field(strings_section, offsetof(Elf32_Shdr, sh_offset));
    const uint32_t strings_size = section_field(strings_section, offsetof(Elf32_Shdr, sh_size));
    if (!elf.covers(symbols_offset, symbols_size) || !elf.covers(strings_offset, strings_size)) {
      elf.fail("symbol table (section {}) or its string table extends beyond the end of the "
               "file ({} bytes)",
               section, elf.size());
    }

    for (uint32_t entry = 0; entry + sizeof(Elf32_Sym) <= symbols_size;
         entry += sizeof(Elf32_Sym)) {
      const size_t symbol = symbols_offset + entry;
      const uint8_t type = ELF32_ST_TYPE(elf.u8(symbol + offsetof(Elf32_Sym, st_info)));
      const uint16_t section_index = elf.u16(symbol + offsetof(Elf32_Sym, st_shndx));
      if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
      if (section_index == SHN_UNDEF) continue;
      const uint32_t name_offset = elf.u32(symbol + offsetof(Elf32_Sym, st_name));
      if (name_offset >= strings_size) {
        elf.fail("symbol at table offset {} has name offset {} beyond its string table ({} "
                 "bytes)",
                 entry, name_offset, strings_size);
      }
      const char* name = reinterpret_cast<const char*>(elf.data() + strings_offset + name_offset);
      const size_t name_length = strnlen(name, strings_size - name_offset);
      // Mapping symbols ($x, $d) mark code and data ranges; they do not name anything.
      if (name_length == 0 || name[0] == '$') continue;
      ElfSymbol parsed;
      parsed.name.assign(name, name_length);
      parsed.address = elf.u32(symbol + offsetof(Elf32_Sym, st_value));
      parsed.size = elf.u32(symbol + offsetof(Elf32_Sym, st_size));
      parsed.is_function = type == STT_FUNC;
      symbols.push_back(std::move(parsed));
    }
  }
  std::sort(symbols.begin(), symbols.end(), [](const ElfSymbol& a, const ElfSymbol& b) {
    return a.address != b.address ? a.address < b.address : a.name < b.name;
  });
  return symbols;
}

// The hart starts at the entry point; one outside the bytes the file loads would run whatever the
// memory holds there and fault far from the cause.
void check_entry(const ElfBytes& elf, uint32_t entry, const std::vector<ElfSegment>& segments) {
  std::vector<std::string> ranges;
  for (const ElfSegment& segment : segments) {
    if (entry - segment.address < segment.bytes.size()) return;
    if (!segment.bytes.empty()) {
      ranges.push_back(fmt::format("0x{:08x}..0x{:08x}", segment.address,
                                   segment.address + segment.bytes.size() - 1));
    }
  }
  const std::string allowed = ranges.empty() ? std::string("none: the file loads no bytes")
                                             : fmt::format("{}", fmt::join(ranges, ", "));
  elf.fail("entry point 0x{:08x} lies outside the bytes of every loadable segment (allowed: {})",
           entry, allowed);
}

}  // namespace

ElfImage ElfImage::load(const std::string& path) { return parse(path, read_file(path)); }

ElfImage ElfImage::parse(const std::string& path, std::vector<uint8_t> bytes) {
  const ElfBytes elf(path, std::move(bytes));
  check_header(elf);

  ElfImage image;
  image.path_ = path;
  image.entry_ = elf.u32(offsetof(Elf32_Ehdr, e_entry));
  image.segments_ = read_segments(elf);
  image.symbols_ = read_symbols(elf);
  check_entry(elf, image.entry_, image.segments_);
  return image;
}

std::optional<uint32_t> ElfImage::symbol_address(const std::string& name) const {
  for (const ElfSymbol& symbol : symbols_) {
    if (symbol.name == name) return symbol.address;
  }
  return std::nullopt;
}

// The function with the nearest start at or below addr contains it when addr is inside its size,
// or when its size is 0 (hand-written assembly often omits .size). Of several functions starting
// at that address (aliases), a sized one that contains addr wins.
const ElfSymbol* ElfImage::function_at(uint32_t addr) const {
  auto after = std::upper_bound(
      symbols_.begin(), symbols_.end(), addr,
      [](uint32_t value, const ElfSymbol& symbol) { return value < symbol.address; });
  const ElfSymbol* unsized = nullptr;
  std::optional<uint32_t> nearest_start;
  for (auto it = std::make_reverse_iterator(after); it != symbols_.rend(); ++it) {
    if (!it->is_function) continue;
    if (nearest_start && it->address != *nearest_start) break;
    nearest_start = it->address;
    if (it->size == 0) {
      unsized = &*it;
    } else if (addr - it->address < it->size) {
      return &*it;
    }
  }
  return unsized;
}

}  // namespace ssdvp
