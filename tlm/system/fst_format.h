// FST, GTKWave's compressed waveform format, as a WaveFormat: for long runs, whose VCD grows to
// gigabytes. Written with GTKWave's fstapi as Verilator ships it.
#pragma once

#include <memory>
#include <string>

#include "tlm/system/wave_writer.h"

namespace ssdvp {

// A waveform path naming an FST file (it ends in ".fst"); any other is written as VCD.
bool is_fst_path(const std::string& path);

// Opens `path` for an FST dump; throws naming the path when it cannot be created.
std::unique_ptr<WaveFormat> make_fst_format(const std::string& path);

}  // namespace ssdvp
