// The cross-built images (firmware-rv32/) against the memory map: every allocated section lies in
// the ROM or SRAM window, code in ROM, writable data in SRAM after the boot-config block, the
// entry at the start of ROM; the ISA programs have a tohost word in SRAM. The ELF is read here
// directly so the check does not depend on the simulator's loader.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "memory_map.h"

namespace {

constexpr uint32_t kSectionAllocated = 0x2;    // SHF_ALLOC
constexpr uint32_t kSectionWritable = 0x1;     // SHF_WRITE
constexpr uint32_t kSectionExecutable = 0x4;   // SHF_EXECINSTR
constexpr uint32_t kSectionSymbolTable = 2;    // SHT_SYMTAB
constexpr uint16_t kMachineRiscv = 243;        // EM_RISCV
constexpr uint32_t kSramDataStart = MM_BOOT_CONFIG_ADDR + MM_BOOT_CONFIG_RESERVED;

struct Section {
  std::string name;
  uint32_t type = 0;
  uint32_t flags = 0;
  uint32_t address = 0;
  uint32_t size = 0;
};

struct Image {
  uint16_t machine = 0;
  uint32_t entry = 0;
  std::vector<Section> sections;
  std::vector<std::pair<std::string, uint32_t>> symbols;

  const Section* section(const std::string& name) const {
    for (const Section& s : sections) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
  std::optional<uint32_t> symbol(const std::string& name) const {
    for (const auto& [symbol_name, value] : symbols) {
      if (symbol_name == name) return value;
    }
    return std::nullopt;
  }
};

template <typename T>
T ReadAt(const std::vector<uint8_t>& bytes, size_t offset, const std::string& path) {
  if (offset + sizeof(T) > bytes.size()) {
    throw std::runtime_error(path + ": truncated at offset " + std::to_string(offset));
  }
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));  // ELF32 little endian, as the host
  return value;
}

std::string ReadString(const std::vector<uint8_t>& bytes, size_t offset, const std::string& path) {
  if (offset >= bytes.size()) {
    throw std::runtime_error(path + ": string offset " + std::to_string(offset) + " out of file");
  }
  const char* start = reinterpret_cast<const char*>(bytes.data() + offset);
  return std::string(start, strnlen(start, bytes.size() - offset));
}

Image LoadImage(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path + " (is firmware_rv32 built?)");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  if (bytes.size() < 52 || std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0 || bytes[4] != 1 ||
      bytes[5] != 1) {
    throw std::runtime_error(path + " is not a 32-bit little-endian ELF file");
  }
  Image image;
  image.machine = ReadAt<uint16_t>(bytes, 18, path);
  image.entry = ReadAt<uint32_t>(bytes, 24, path);
  uint32_t section_offset = ReadAt<uint32_t>(bytes, 32, path);
  uint16_t section_entry_size = ReadAt<uint16_t>(bytes, 46, path);
  uint16_t section_count = ReadAt<uint16_t>(bytes, 48, path);
  uint16_t names_index = ReadAt<uint16_t>(bytes, 50, path);

  struct RawSection {
    uint32_t name, type, flags, address, offset, size, link, entry_size;
  };
  std::vector<RawSection> raw;
  for (uint16_t i = 0; i < section_count; i++) {
    size_t base = section_offset + size_t{i} * section_entry_size;
    auto word = [&](size_t field) { return ReadAt<uint32_t>(bytes, base + field, path); };
    raw.push_back({word(0), word(4), word(8), word(12), word(16), word(20), word(24), word(36)});
  }
  if (names_index >= raw.size()) throw std::runtime_error(path + ": no section name table");
  for (const RawSection& s : raw) {
    std::string name = ReadString(bytes, raw[names_index].offset + s.name, path);
    image.sections.push_back({name, s.type, s.flags, s.address, s.size});
    if (s.type == kSectionSymbolTable && s.entry_size == 16 && s.link < raw.size()) {
      for (uint32_t offset = 0; offset + 16 <= s.size; offset += 16) {
        uint32_t name = ReadAt<uint32_t>(bytes, s.offset + offset, path);
        uint32_t value = ReadAt<uint32_t>(bytes, s.offset + offset + 4, path);
        image.symbols.emplace_back(ReadString(bytes, raw[s.link].offset + name, path), value);
      }
    }
  }
  return image;
}

bool InWindow(const Section& s, uint64_t base, uint64_t end) {
  return s.address >= base && uint64_t{s.address} + s.size <= end;
}

// The rules every image the platform loads must follow.
void ExpectLoadableLayout(const Image& image, const std::string& path) {
  EXPECT_EQ(image.machine, kMachineRiscv) << path;
  EXPECT_EQ(image.entry, MM_ROM_BASE) << path << ": harts start at the start of ROM";
  int allocated = 0;
  for (const Section& s : image.sections) {
    if (!(s.flags & kSectionAllocated) || s.size == 0) continue;
    allocated++;
    bool in_rom = InWindow(s, MM_ROM_BASE, uint64_t{MM_ROM_BASE} + MM_ROM_WINDOW);
    bool in_sram = InWindow(s, kSramDataStart, uint64_t{MM_SRAM_BASE} + MM_SRAM_WINDOW);
    EXPECT_TRUE(in_rom || in_sram) << path << ": section " << s.name << " at 0x" << std::hex
                                   << s.address << " size 0x" << s.size
                                   << " is outside ROM and SRAM (after the boot-config block)";
    if (s.flags & kSectionExecutable) {
      EXPECT_TRUE(in_rom) << path << ": code section " << s.name << " is not in ROM";
    }
    if (s.flags & kSectionWritable) {
      EXPECT_TRUE(in_sram) << path << ": writable section " << s.name
                           << " is not in SRAM at or after 0x" << std::hex << kSramDataStart;
    }
  }
  EXPECT_GT(allocated, 0) << path << " has no allocated section";
}

const std::string kFirmwareDir = SSDVP_FIRMWARE_DIR;

TEST(ProductImage, SectionsLieInTheMemoryWindows) {
  const std::string path = kFirmwareDir + "/firmware.elf";
  Image image = LoadImage(path);
  ExpectLoadableLayout(image, path);

  const Section* text = image.section(".text");
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->address, MM_ROM_BASE);

  const Section* data = image.section(".data");
  ASSERT_NE(data, nullptr) << "crt0's release flag lives in .data";
  EXPECT_GE(data->address, kSramDataStart) << ".data overlaps the boot-config block";
  const Section* bss = image.section(".bss");
  ASSERT_NE(bss, nullptr);
  EXPECT_GE(bss->address, data->address + data->size);

  // The arena starts at __sram_data_end: after everything the image places in SRAM.
  std::optional<uint32_t> sram_data_end = image.symbol("__sram_data_end");
  ASSERT_TRUE(sram_data_end.has_value());
  for (const Section& s : image.sections) {
    if ((s.flags & kSectionAllocated) && s.address >= MM_SRAM_BASE) {
      EXPECT_GE(*sram_data_end, s.address + s.size) << "section " << s.name;
    }
  }
  EXPECT_TRUE(image.symbol("fw_main").has_value());
  EXPECT_TRUE(image.symbol("trap_vector").has_value());
}

TEST(BenchImage, IssMipsLiesInTheMemoryWindows) {
  const std::string path = kFirmwareDir + "/bench/iss_mips.elf";
  ExpectLoadableLayout(LoadImage(path), path);
}

// One program per tests/isa/<group>.S, each with a word-aligned tohost in SRAM.
TEST(IsaImages, EveryGroupIsBuiltWithTohostInSram) {
  const std::filesystem::path sources =
      std::filesystem::path(SSDVP_SOURCE_DIR) / "firmware" / "tests" / "isa";
  int groups = 0;
  for (const auto& entry : std::filesystem::directory_iterator(sources)) {
    if (entry.path().extension() != ".S") continue;
    groups++;
    const std::string path = kFirmwareDir + "/isa/" + entry.path().stem().string() + ".elf";
    Image image = LoadImage(path);
    ExpectLoadableLayout(image, path);
    std::optional<uint32_t> tohost = image.symbol("tohost");
    ASSERT_TRUE(tohost.has_value()) << path;
    EXPECT_EQ(*tohost % 4, 0u) << path;
    EXPECT_GE(*tohost, kSramDataStart) << path;
    EXPECT_LT(*tohost, uint64_t{MM_SRAM_BASE} + MM_SRAM_WINDOW) << path;
  }
  EXPECT_GE(groups, 9) << "expected the nine instruction groups in " << sources;
}

}  // namespace
