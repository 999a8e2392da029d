// Reading waveform files back in tests: the variables a VCD declares and the traces a GTKWave
// save file shows, so a test can check that a save file names what ssdsim really writes.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ssdvp::test {

// Full dotted name -> width of every variable a VCD declares.
std::map<std::string, unsigned> vcd_variables(const std::string& path);

struct SaveFileTrace {
  std::string name;  // full dotted name, without GTKWave's "[msb:0]"
  unsigned width = 1;
};

// The traces of a GTKWave save file, in order: "name", "name[msb:0]", either one behind an
// alias ("+{alias} name"); comments, settings, flags and group markers are skipped.
std::vector<SaveFileTrace> save_file_traces(const std::string& path);

}  // namespace ssdvp::test
