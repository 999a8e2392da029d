// ssdsim's waveforms end to end: --vcd writes a GTKWave save file next to the dump that names
// only signals the dump holds, shows them all and zooms to the whole run; an .fst dump of the
// same run holds the same signals and end time in a fraction of the VCD's bytes; a save file
// made by hand is never replaced.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "fstapi.h"
#include "tb/tests/support/ssdsim_runner.h"
#include "tb/tests/support/waveform_files.h"
#include "tlm/system/gtkwave_save_file.h"

namespace {

using namespace ssdvp::test;


// The last timestamp of a VCD: where the dump ends.
uint64_t vcd_end_time(const std::string& path) {
  std::ifstream in(path);
  uint64_t end = 0;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '#') end = std::stoull(line.substr(1));
  }
  return end;
}

// The zoom of a save file: the first number of its "*" line.
double save_file_zoom(const std::string& path) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '*') return std::stod(line.substr(1));
  }
  throw std::runtime_error(path + " has no zoom line");
}

TEST(SsdsimWaves, TheSaveFileNamesTheDumpsSignalsAndShowsTheWholeRun) {
  const std::string out = temp_dir("gtkw");
  const std::string vcd = out + "/run.vcd";
  const SsdsimRun run = run_ssdsim("--vcd " + vcd + " --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string save = out + "/run.gtkw";
  ASSERT_TRUE(std::filesystem::is_regular_file(save)) << run.output;

  const auto variables = vcd_variables(vcd);
  const std::vector<SaveFileTrace> traces = save_file_traces(save);
  for (const SaveFileTrace& trace : traces) {
    ASSERT_EQ(variables.count(trace.name), 1u) << trace.name << " is not in the dump";
    EXPECT_EQ(variables.at(trace.name), trace.width) << trace.name;
  }
  EXPECT_EQ(traces.size(), variables.size()) << "every signal of the dump is shown";

  const uint64_t end = vcd_end_time(vcd);
  ASSERT_GT(end, 1'000'000'000u) << "the default run lasts well over a millisecond";
  const double shown_ps =
      std::pow(2.0, -save_file_zoom(save)) / ssdvp::kGtkwavePixelsPerFrame * ssdvp::kSaveFileWavePixels;
  EXPECT_GE(shown_ps, 0.999999 * static_cast<double>(end));
  EXPECT_LE(shown_ps, 1.000001 * static_cast<double>(end));
  std::ifstream text(save);
  const std::string content((std::istreambuf_iterator<char>(text)),
                            std::istreambuf_iterator<char>());
  EXPECT_NE(content.find("[dumpfile] \"" + std::filesystem::absolute(vcd).string() + "\""),
            std::string::npos);
  EXPECT_NE(content.find("@8024\n+{host:outstanding} soc.host.outstanding[31:0]"),
            std::string::npos)
      << content;

  // A second run replaces the save file it wrote.
  EXPECT_EQ(run_ssdsim("--vcd " + vcd + " --out " + out).exit_code, 0);
}

TEST(SsdsimWaves, AnFstDumpHoldsTheRunInAFractionOfTheVcdsBytes) {
  const std::string out = temp_dir("fst");
  const std::string vcd = out + "/run.vcd";
  const std::string fst = out + "/run_fst.fst";
  const SsdsimRun vcd_run = run_ssdsim("--vcd " + vcd + " --out " + out + "/vcd");
  ASSERT_EQ(vcd_run.exit_code, 0) << vcd_run.output;
  const SsdsimRun fst_run = run_ssdsim("--vcd " + fst + " --out " + out + "/fst");
  ASSERT_EQ(fst_run.exit_code, 0) << fst_run.output;
  EXPECT_TRUE(std::filesystem::is_regular_file(out + "/run_fst.gtkw"));

  // The FST header block (type 0) and what it says, read back with GTKWave's own reader.
  std::ifstream raw(fst, std::ios::binary);
  ASSERT_EQ(raw.get(), FST_BL_HDR);
  void* reader = fstReaderOpen(fst.c_str());
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(fstReaderGetEndTime(reader), vcd_end_time(vcd));
  EXPECT_EQ(fstReaderGetVarCount(reader), vcd_variables(vcd).size());
  EXPECT_GT(fstReaderGetValueChangeSectionCount(reader), 0u);
  fstReaderClose(reader);

  const auto vcd_bytes = std::filesystem::file_size(vcd);
  const auto fst_bytes = std::filesystem::file_size(fst);
  std::cout << "VCD " << vcd_bytes << " bytes, FST " << fst_bytes << " bytes\n";
  EXPECT_LT(fst_bytes * 5, vcd_bytes);
}

TEST(SsdsimWaves, ASaveFileMadeByHandIsNeverReplaced) {
  const std::string out = temp_dir("hand");
  const std::string hand = "[*] my view\n[timestart] 0\n";
  std::ofstream(out + "/mine.gtkw") << hand;
  const SsdsimRun run = run_ssdsim("--vcd " + out + "/mine.vcd --out " + out);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("mine.gtkw: exists and ssdsim did not write it"), std::string::npos)
      << run.output;
  EXPECT_EQ(read_text(out + "/mine.gtkw"), hand);
  EXPECT_FALSE(std::filesystem::exists(out + "/mine.vcd")) << "refused before the run";
}

}  // namespace
