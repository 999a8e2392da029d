// The files around WaveWriter: the FST format (read back with GTKWave's fstapi reader: the
// signals, their scopes and widths, integer and state values, the end time) and the GTKWave
// save file (its name, the signals grouped, analog steps for levels, the zoom that shows the
// whole dump, and never replacing a save file made by hand).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fstapi.h"
#include "tlm/system/fst_format.h"
#include "tlm/system/gtkwave_save_file.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {
namespace {

class WaveFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ssdvp_wave_files_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

struct FstChange {
  uint64_t time;
  std::string signal;
  std::string value;
  bool operator==(const FstChange& other) const {
    return time == other.time && signal == other.signal && value == other.value;
  }
};

std::ostream& operator<<(std::ostream& out, const FstChange& change) {
  return out << "{" << change.time << ", " << change.signal << ", " << change.value << "}";
}

struct FstContents {
  std::map<std::string, unsigned> variables;  // full dotted name -> width (0: a string)
  uint64_t start = 0;
  uint64_t end = 0;
  int timescale = 0;
  std::vector<FstChange> changes;
};

FstContents read_fst(const std::string& file) {
  void* reader = fstReaderOpen(file.c_str());
  if (reader == nullptr) throw std::runtime_error("fstReaderOpen failed on " + file);
  FstContents contents;
  contents.start = fstReaderGetStartTime(reader);
  contents.end = fstReaderGetEndTime(reader);
  contents.timescale = fstReaderGetTimescale(reader);
  std::vector<std::string> scopes;
  std::map<fstHandle, std::string> names;
  while (const fstHier* entry = fstReaderIterateHier(reader)) {
    if (entry->htyp == FST_HT_SCOPE) {
      scopes.push_back(entry->u.scope.name);
    } else if (entry->htyp == FST_HT_UPSCOPE) {
      scopes.pop_back();
    } else if (entry->htyp == FST_HT_VAR) {
      std::string name;
      for (const std::string& scope : scopes) name += scope + ".";
      name += entry->u.var.name;
      contents.variables[name] = entry->u.var.typ == FST_VT_GEN_STRING ? 0 : entry->u.var.length;
      names[entry->u.var.handle] = name;
    }
  }
  struct Context {
    FstContents* contents;
    std::map<fstHandle, std::string>* names;
  } context{&contents, &names};
  fstReaderSetFacProcessMaskAll(reader);
  fstReaderIterBlocks2(
      reader,
      [](void* data, uint64_t time, fstHandle handle, const unsigned char* value) {
        auto* c = static_cast<Context*>(data);
        c->contents->changes.push_back(
            {time, c->names->at(handle), reinterpret_cast<const char*>(value)});
      },
      [](void* data, uint64_t time, fstHandle handle, const unsigned char* value, uint32_t len) {
        auto* c = static_cast<Context*>(data);
        c->contents->changes.push_back(
            {time, c->names->at(handle), std::string(reinterpret_cast<const char*>(value), len)});
      },
      &context, nullptr);
  fstReaderClose(reader);
  return contents;
}

TEST_F(WaveFiles, FstHoldsTheSignalsAndTheirChanges) {
  const std::string file = path("run.fst");
  {
    WaveWriter waves(make_fst_format(file), file);
    const auto depth = waves.add_signal("soc.nfc.ch0.w0d0", "queue_depth", 16, 0);
    const auto state = waves.add_state_signal("soc.nfc.ch0.w0d0", "state", "idle");
    const auto pulse = waves.add_signal("soc.host", "completion", 1, 0);
    waves.set(depth, 3, 2000);
    waves.set_state(state, "read", 1000);  // out of order: the writer sorts
    waves.set(pulse, 1, 2000);
    waves.set(depth, 1, 5000);
    waves.flush_before(9000);
    waves.close();
    EXPECT_EQ(waves.end_ps(), 9000u);
  }
  const FstContents fst = read_fst(file);
  EXPECT_EQ(fst.timescale, -12);
  EXPECT_EQ(fst.start, 0u);
  EXPECT_EQ(fst.end, 9000u);
  EXPECT_EQ(fst.variables, (std::map<std::string, unsigned>{
                               {"soc.nfc.ch0.w0d0.queue_depth", 16},
                               {"soc.nfc.ch0.w0d0.state", 0},
                               {"soc.host.completion", 1}}));
  // fstapi gives the changes of one time in no particular order.
  std::vector<FstChange> changes = fst.changes;
  std::sort(changes.begin(), changes.end(), [](const FstChange& a, const FstChange& b) {
    return a.time != b.time ? a.time < b.time : a.signal < b.signal;
  });
  const std::vector<FstChange> expected = {
      {0, "soc.host.completion", "0"},
      {0, "soc.nfc.ch0.w0d0.queue_depth", "0000000000000000"},
      {0, "soc.nfc.ch0.w0d0.state", "idle"},
      {1000, "soc.nfc.ch0.w0d0.state", "read"},
      {2000, "soc.host.completion", "1"},
      {2000, "soc.nfc.ch0.w0d0.queue_depth", "0000000000000011"},
      {5000, "soc.nfc.ch0.w0d0.queue_depth", "0000000000000001"}};
  EXPECT_EQ(changes, expected);
  EXPECT_TRUE(is_fst_path("waves/run.fst"));
  EXPECT_FALSE(is_fst_path("waves/run.vcd"));
  EXPECT_FALSE(is_fst_path(".fst"));
  EXPECT_THROW(make_fst_format(path("no/such/dir/run.fst")), std::runtime_error);
}

std::vector<std::string> lines_of(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// GTKWave's zoom line: "*ZOOM MARKER NAMED_MARKER...".
std::string zoom_line_of(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    if (!line.empty() && line[0] == '*') return line.substr(1);
  }
  throw std::runtime_error("no zoom line");
}

TEST_F(WaveFiles, SaveFileGroupsTheSignalsAndShowsTheWholeDump) {
  EXPECT_EQ(save_file_path("waves/run.vcd"), "waves/run.gtkw");
  EXPECT_EQ(save_file_path("waves/run.fst"), "waves/run.gtkw");
  EXPECT_EQ(save_file_path("run"), "run.gtkw");

  const std::vector<WaveSignalInfo> signals = {
      {"soc.router", "sram_transactions", 64, false}, {"soc.hart0", "state", 1, true},
      {"soc.host", "outstanding", 32, false},         {"soc.host", "completions", 64, false},
      {"soc.host", "completion", 1, false},           {"soc.nfc.ch0.w0d0", "queue_depth", 16, false},
      {"soc.hic", "event_ring", 32, false}};
  const std::string save = path("run.gtkw");
  const uint64_t end_ps = 650'000'000'000;  // 650 ms
  write_save_file(save, path("run.vcd"), signals, 0, end_ps);
  const std::vector<std::string> lines = lines_of(save);
  std::ostringstream text;
  for (const std::string& line : lines) text << line << "\n";
  // Groups in a fixed order; a level as an analog step (0x8024) three rows tall (0x20000).
  const std::string expected_body =
      "@800200\n-CPU\n@28\n+{hart0:state} soc.hart0.state\n@1000200\n-CPU\n"
      "@800200\n-Host\n@8024\n+{host:outstanding} soc.host.outstanding[31:0]\n@20000\n-\n-\n"
      "@24\n+{host:completions} soc.host.completions[63:0]\n"
      "@28\n+{host:completion} soc.host.completion\n"
      "@8024\n+{hic:event_ring} soc.hic.event_ring[31:0]\n@20000\n-\n-\n@1000200\n-Host\n"
      "@800200\n-NAND\n@8024\n+{nfc:ch0:w0d0:queue_depth} soc.nfc.ch0.w0d0.queue_depth[15:0]\n"
      "@20000\n-\n-\n@1000200\n-NAND\n"
      "@800200\n-Bus\n@24\n+{router:sram_transactions} soc.router.sram_transactions[63:0]\n"
      "@1000200\n-Bus\n";
  EXPECT_NE(text.str().find("[signals_width] 320\n" + expected_body), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("[dumpfile] \"" + path("run.vcd") + "\"\n"), std::string::npos);
  EXPECT_NE(text.str().find("[timestart] 0\n"), std::string::npos);

  // The zoom shows the whole dump in the wave area, and not much more.
  std::istringstream zoom_line(zoom_line_of(lines));
  const std::vector<std::string> fields((std::istream_iterator<std::string>(zoom_line)),
                                        std::istream_iterator<std::string>());
  const double picoseconds_per_pixel =
      std::pow(2.0, -std::stod(fields.at(0))) / kGtkwavePixelsPerFrame;
  EXPECT_GE(picoseconds_per_pixel * kSaveFileWavePixels, 0.999999 * end_ps);
  EXPECT_LE(picoseconds_per_pixel * kSaveFileWavePixels, 1.000001 * end_ps);
  // The primary marker and GTKWave's 26 named markers, all unset.
  EXPECT_EQ(fields.size(), 28u);
  EXPECT_EQ(std::count(fields.begin(), fields.end(), "-1"), 27);

  // A save file ssdsim wrote may be replaced; one made by hand may not.
  EXPECT_NO_THROW(check_save_file_replaceable(save));
  EXPECT_NO_THROW(check_save_file_replaceable(path("none.gtkw")));
  std::ofstream(path("hand.gtkw")) << "[*] my own view\n[timestart] 0\n";
  try {
    check_save_file_replaceable(path("hand.gtkw"));
    ADD_FAILURE() << "a hand-made save file would be replaced";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("hand.gtkw: exists and ssdsim did not write it"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ssdvp
