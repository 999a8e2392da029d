// The silicon area model (rtl/area_model.yaml): the figures of one technology node, and the
// pricing of logic (gate equivalents) and memory macros (bits) with them. The accelerator
// (tlm/accel/accel_area.h) and the whole controller (controller_area.h) are priced with it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ssdvp {

struct AreaModel {
  struct EfficiencyPoint {
    double bytes;
    double efficiency;
  };

  std::string path;  // the file the figures came from
  std::string node;
  double nand2_um2 = 0;     // one gate equivalent
  double sram_bit_um2 = 0;  // bit cells
  double rom_bit_um2 = 0;
  std::map<std::string, double> cell_gate_equivalents;  // by yosys cell type
  std::vector<EfficiencyPoint> macro_efficiency;         // by capacity, ascending
  // Logic blocks, in gate equivalents.
  double cpu_core_gates = 0;
  double hic_gates = 0;
  double nfc_channel_gates = 0;
  double ecc_channel_gates = 0;

  double logic_mm2(double gate_equivalents) const;
  // Share of a macro of `bytes` that is bit cells: linear in log2(bytes) between the points,
  // the first or last value outside them.
  double array_efficiency(double bytes) const;
  double sram_mm2(uint64_t bits) const;
  double rom_mm2(uint64_t bits) const;
};

// The area model of the source tree (the build writes its path in).
const std::string& area_model_path();

// The nodes the file has figures for, in file order. Throws std::runtime_error naming the file
// when it cannot be read or has no nodes.
std::vector<std::string> area_model_nodes(const std::string& path);

// The figures of `node`. Throws std::runtime_error naming the file and the problem (unreadable,
// malformed, a figure missing or out of range), or naming the key area.node and the allowed
// values for a node the file does not have.
AreaModel load_area_model(const std::string& path, const std::string& node);

}  // namespace ssdvp
