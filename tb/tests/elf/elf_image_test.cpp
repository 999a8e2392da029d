// ElfImage against fixtures built by the cross toolchain (fixture.S placed by fixture.ld), against
// readelf's view of the same file, and against broken files made here.
#include "tlm/system/elf_image.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp {
namespace {

const std::string kFixtureDir = ELF_FIXTURE_DIR;
const std::string kRv32 = kFixtureDir + "/fixture_rv32.elf";

std::vector<uint8_t> little_endian_words(std::initializer_list<uint32_t> words) {
  std::vector<uint8_t> bytes;
  for (uint32_t word : words) {
    for (int shift = 0; shift < 32; shift += 8) {
      bytes.push_back(static_cast<uint8_t>(word >> shift));
    }
  }
  return bytes;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file in a directory of its own that disappears with the test.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name)
      : dir_(std::filesystem::temp_directory_path() /
             ("ssdvp_elf_test_" + std::to_string(getpid()))),
        path_((dir_ / name).string()) {
    std::filesystem::create_directories(dir_);
  }
  ~ScratchFile() { std::filesystem::remove_all(dir_); }
  void write(const std::vector<uint8_t>& bytes) const {
    std::ofstream out(path_, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

// Loads `path` expecting an error whose message starts with the path and contains `expected`.
void expect_load_error(const std::string& path, const std::string& expected) {
  try {
    ElfImage::load(path);
    FAIL() << "loading " << path << " did not throw";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(ElfImage, LoadsEntryAndLoadableSegmentsAtTheirPhysicalAddresses) {
  const ElfImage image = ElfImage::load(kRv32);
  EXPECT_EQ(image.path(), kRv32);
  EXPECT_EQ(image.entry(), 0x100u);

  // fixture.ld: the PT_NOTE header and the empty PT_LOAD are not loaded.
  const auto& segments = image.segments();
  ASSERT_EQ(segments.size(), 4u);

  EXPECT_EQ(segments[0].address, 0x100u);
  EXPECT_EQ(segments[0].bytes, little_endian_words({0x00000013, 0x0000006f, 0x11111111, 0x22222222,
                                                    0x33333333, 0x44444444, 0x55555555}));
  EXPECT_EQ(segments[0].memory_size, 28u);
  EXPECT_TRUE(segments[0].executable);
  EXPECT_FALSE(segments[0].writable);

  EXPECT_EQ(segments[1].address, 0x400u);
  EXPECT_EQ(segments[1].bytes, little_endian_words({0xcafef00d, 0x0badbeef, 0x66666666}));
  EXPECT_EQ(segments[1].memory_size, 12u);
  EXPECT_FALSE(segments[1].executable);
  EXPECT_FALSE(segments[1].writable);

  // .data runs at 0x10000400 but is loaded into ROM at 0x2000: the loader uses p_paddr.
  EXPECT_EQ(segments[2].address, 0x2000u);
  EXPECT_EQ(segments[2].bytes, little_endian_words({0x12345678, 0x9abcdef0}));
  EXPECT_EQ(segments[2].memory_size, 8u);
  EXPECT_FALSE(segments[2].executable);
  EXPECT_TRUE(segments[2].writable);

  EXPECT_EQ(segments[3].address, 0x10000800u);
  EXPECT_TRUE(segments[3].bytes.empty());
  EXPECT_EQ(segments[3].memory_size, 256u);
  EXPECT_TRUE(segments[3].writable);
}

TEST(ElfImage, ReadsNamedSymbolsSortedByAddress) {
  const ElfImage image = ElfImage::load(kRv32);
  struct Expected {
    const char* name;
    uint32_t address;
    uint32_t size;
    bool is_function;
  };
  // Section, file and mapping ($d) symbols are left out.
  const std::vector<Expected> expected = {
      {"_start", 0x100, 8, true},         {"helper", 0x108, 12, true},
      {"unsized", 0x114, 0, true},        {"table", 0x400, 8, false},
      {"counter", 0x10000400, 4, false},  {"data_marker", 0x10000404, 0, false},
      {"buffer", 0x10000800, 256, false},
  };
  const auto& symbols = image.symbols();
  ASSERT_EQ(symbols.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(symbols[i].name, expected[i].name);
    EXPECT_EQ(symbols[i].address, expected[i].address);
    EXPECT_EQ(symbols[i].size, expected[i].size);
    EXPECT_EQ(symbols[i].is_function, expected[i].is_function);
  }
  EXPECT_EQ(image.symbol_address("counter"), 0x10000400u);
  EXPECT_EQ(image.symbol_address("helper"), 0x108u);
  EXPECT_FALSE(image.symbol_address("no_such_symbol").has_value());
}

TEST(ElfImage, FunctionAtUsesSizesAndFallsBackToTheNearestUnsizedFunction) {
  const ElfImage image = ElfImage::load(kRv32);
  auto name_at = [&](uint32_t addr) -> std::string {
    const ElfSymbol* symbol = image.function_at(addr);
    return symbol ? symbol->name : "(none)";
  };
  EXPECT_EQ(name_at(0x0ff), "(none)");
  EXPECT_EQ(name_at(0x100), "_start");
  EXPECT_EQ(name_at(0x106), "_start");
  EXPECT_EQ(name_at(0x108), "helper");
  EXPECT_EQ(name_at(0x112), "helper");
  EXPECT_EQ(name_at(0x114), "unsized");
  EXPECT_EQ(name_at(0x118), "unsized");
  // Objects are not functions: the nearest function below 0x10000400 is still `unsized`.
  EXPECT_EQ(name_at(0x10000400), "unsized");
}

// readelf's program headers and symbol table for the same file, parsed from its text output.
TEST(ElfImage, AgreesWithReadelf) {
  const ElfImage image = ElfImage::load(kRv32);
  std::ifstream report(kFixtureDir + "/fixture_rv32.readelf.txt");
  ASSERT_TRUE(report) << "readelf output missing";

  std::vector<ElfSegment> loads;
  std::vector<ElfSymbol> symbols;
  std::string line;
  while (std::getline(report, line)) {
    std::istringstream fields(line);
    std::string first;
    fields >> first;
    if (first == "LOAD") {
      // Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg... Align
      std::string offset, virt, phys, file_size, memory_size, flag;
      fields >> offset >> virt >> phys >> file_size >> memory_size;
      ElfSegment segment;
      segment.address = static_cast<uint32_t>(std::stoul(phys, nullptr, 16));
      segment.bytes.resize(std::stoul(file_size, nullptr, 16));
      segment.memory_size = static_cast<uint32_t>(std::stoul(memory_size, nullptr, 16));
      while (fields >> flag && flag.rfind("0x", 0) != 0) {
        if (flag.find('E') != std::string::npos) segment.executable = true;
        if (flag.find('W') != std::string::npos) segment.writable = true;
      }
      if (segment.memory_size != 0) loads.push_back(segment);
    } else if (!first.empty() && first.back() == ':' && line.find("Num:") == std::string::npos) {
      // Num: Value Size Type Bind Vis Ndx Name
      std::string value, size, type, bind, visibility, section, name;
      fields >> value >> size >> type >> bind >> visibility >> section >> name;
      const bool named = !name.empty() && name[0] != '$';
      if ((type == "FUNC" || type == "OBJECT" || type == "NOTYPE") && section != "UND" && named) {
        ElfSymbol symbol;
        symbol.name = name;
        symbol.address = static_cast<uint32_t>(std::stoul(value, nullptr, 16));
        symbol.size = static_cast<uint32_t>(std::stoul(size, nullptr, 0));
        symbol.is_function = type == "FUNC";
        symbols.push_back(symbol);
      }
    }
  }

  ASSERT_EQ(image.segments().size(), loads.size());
  for (size_t i = 0; i < loads.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(image.segments()[i].address, loads[i].address);
    EXPECT_EQ(image.segments()[i].bytes.size(), loads[i].bytes.size());
    EXPECT_EQ(image.segments()[i].memory_size, loads[i].memory_size);
    EXPECT_EQ(image.segments()[i].executable, loads[i].executable);
    EXPECT_EQ(image.segments()[i].writable, loads[i].writable);
  }
  ASSERT_EQ(image.symbols().size(), symbols.size());
  for (const ElfSymbol& expected : symbols) {
    SCOPED_TRACE(expected.name);
    ASSERT_EQ(image.symbol_address(expected.name), expected.address);
    bool found = false;
    for (const ElfSymbol& symbol : image.symbols()) {
      if (symbol.name != expected.name) continue;
      found = true;
      EXPECT_EQ(symbol.size, expected.size);
      EXPECT_EQ(symbol.is_function, expected.is_function);
    }
    EXPECT_TRUE(found);
  }
}

TEST(ElfImage, StrippedImageHasSegmentsButNoSymbols) {
  const ElfImage image = ElfImage::load(kFixtureDir + "/fixture_rv32_stripped.elf");
  EXPECT_EQ(image.entry(), 0x100u);
  EXPECT_EQ(image.segments().size(), 4u);
  EXPECT_TRUE(image.symbols().empty());
  EXPECT_EQ(image.function_at(0x100), nullptr);
}

TEST(ElfImageErrors, MissingFile) {
  expect_load_error(kFixtureDir + "/no_such_file.elf", "cannot open");
}

TEST(ElfImageErrors, Directory) {
  expect_load_error(kFixtureDir, "is a directory, not an ELF file");
}

TEST(ElfImageErrors, NotAnElf) {
  ScratchFile file("text.elf");
  const std::string text = "this is not an ELF file\n";
  file.write({text.begin(), text.end()});
  expect_load_error(file.path(), "not an ELF file");
}

TEST(ElfImageErrors, SixtyFourBit) {
  expect_load_error(kFixtureDir + "/fixture_rv64.elf", "64-bit ELF; the controller core is RV32");
}

TEST(ElfImageErrors, BigEndian) {
  std::vector<uint8_t> bytes = read_bytes(kRv32);
  ASSERT_GT(bytes.size(), 6u);
  bytes[5] = 2;  // EI_DATA = ELFDATA2MSB
  ScratchFile file("big_endian.elf");
  file.write(bytes);
  expect_load_error(file.path(), "big-endian");
}

TEST(ElfImageErrors, HostExecutableIsNotRiscV) {
  const std::string host_binary = "/bin/true";
  const std::vector<uint8_t> bytes = read_bytes(host_binary);
  ASSERT_GT(bytes.size(), 20u);
  // e_machine, read the way the header declares its byte order.
  const unsigned machine = bytes[5] == 1 ? bytes[18] | bytes[19] << 8 : bytes[18] << 8 | bytes[19];
  ASSERT_NE(machine, 243u) << "this host is RISC-V; the test needs a foreign binary";
  expect_load_error(host_binary, "machine " + std::to_string(machine) + " is not RISC-V");
}

TEST(ElfImageErrors, ObjectFileIsNotAnExecutable) {
  expect_load_error(kFixtureDir + "/fixture_rv32.o", "not an executable");
}

TEST(ElfImageErrors, TruncatedHeader) {
  const std::vector<uint8_t> bytes = read_bytes(kRv32);
  ScratchFile file("truncated_header.elf");
  file.write({bytes.begin(), bytes.begin() + 40});  // the ELF32 header is 52 bytes
  expect_load_error(file.path(), "truncated ELF header");
}

TEST(ElfImageErrors, ProgramHeadersBeyondTheFile) {
  const std::vector<uint8_t> bytes = read_bytes(kRv32);
  ScratchFile file("truncated_headers.elf");
  file.write({bytes.begin(), bytes.begin() + 100});  // six headers at offset 52 need 244 bytes
  expect_load_error(file.path(), "program headers");
}

TEST(ElfImageErrors, SegmentBeyondTheFile) {
  const std::vector<uint8_t> bytes = read_bytes(kRv32);
  ScratchFile file("truncated_segment.elf");
  // Keeps the .text bytes (0x100..0x11c) but cuts .rodata at file offset 0x400.
  file.write({bytes.begin(), bytes.begin() + 0x200});
  expect_load_error(file.path(), "segment 1 at 0x00000400");
}

// The hart would start on bytes the file does not load: zeros of .bss, or no memory at all.
TEST(ElfImageErrors, EntryOutsideTheLoadedBytes) {
  for (const uint32_t entry : {0x30000000u, 0x10000800u}) {
    std::vector<uint8_t> bytes = read_bytes(kRv32);
    const std::vector<uint8_t> field = little_endian_words({entry});
    std::copy(field.begin(), field.end(), bytes.begin() + 24);  // e_entry
    ScratchFile file("entry.elf");
    file.write(bytes);
    expect_load_error(file.path(), fmt::format("entry point 0x{:08x} lies outside the bytes of "
                                               "every loadable segment (allowed: 0x00000100..",
                                               entry));
  }
}

}  // namespace
}  // namespace ssdvp
