// The GTKWave save file ssdsim writes next to each waveform (waves/run.vcd -> waves/run.gtkw):
// the dump's signals grouped by the part of the SoC they belong to, queue depths and
// occupancies drawn as analog steps, and the whole dumped time in view when it opens.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlm/system/wave_writer.h"

namespace ssdvp {

// The wave area the zoom fits the dump into, in pixels: the [size] width the file asks for less
// the hierarchy pane, the signal pane ([signals_width]) and GTKWave's borders (about 780 pixels
// in GTKWave 3.3), rounded down so the end stays in view.
constexpr unsigned kSaveFileWavePixels = 760;
// GTKWave's zoom z makes a frame of this many pixels show 2^-z time units (its zoombase is 2 and
// its pixelsperframe 200), so a pixel shows 2^-z / 200.
constexpr double kGtkwavePixelsPerFrame = 200;

// The save file of `dump_path`: its extension (.vcd, .fst) replaced by .gtkw.
std::string save_file_path(const std::string& dump_path);

// Throws when `save_path` exists and ssdsim did not write it (a save file made by hand, such as
// waves/ssdvp.gtkw): a run must not overwrite it.
void check_save_file_replaceable(const std::string& save_path);

// Writes the save file for the dump at `dump_path` of `signals` from `start_ps` to `end_ps`.
void write_save_file(const std::string& save_path, const std::string& dump_path,
                     const std::vector<WaveSignalInfo>& signals, uint64_t start_ps,
                     uint64_t end_ps);

}  // namespace ssdvp
