#include "tlm/accel/accel_area.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "interface/rqrmi_model.h"

namespace ssdvp {
namespace {

// Bits per entry of the RTL's memories (rtl/rqrmi_accel.v).
constexpr uint64_t kKeyBits = 32;
constexpr uint64_t kResultBits = 64;      // index and error bound
constexpr uint64_t kPredictionBits = 88;  // key, index and error bound

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error(
        fmt::format("cannot read the accelerator's synthesis report {}", path));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

uint64_t accel_memory_bits(const AccelConfig& config) {
  return uint64_t{config.submodel_capacity} * RQRMI_SUBMODEL_BYTES * 8 +
         uint64_t{config.key_fifo_depth} * kKeyBits +
         uint64_t{config.result_fifo_depth} * (kResultBits + kPredictionBits);
}

AccelArea estimate_accel_area(const std::string& cells_json_path, const AreaModel& model,
                              uint64_t memory_bits) {
  AccelArea area;
  area.node = model.node;
  nlohmann::json stat;
  try {
    stat = nlohmann::json::parse(read_file(cells_json_path));
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(fmt::format("{}: {}", cells_json_path, error.what()));
  }
  const nlohmann::json* by_type = nullptr;
  if (stat.contains("modules")) {
    for (const auto& [name, module] : stat["modules"].items()) {
      if (name.find("rqrmi_accel") != std::string::npos && module.contains("num_cells_by_type")) {
        by_type = &module["num_cells_by_type"];
      }
    }
  }
  if (by_type == nullptr) {
    throw std::runtime_error(
        fmt::format("{}: no cell counts of module rqrmi_accel (yosys stat -json)", cells_json_path));
  }
  for (const auto& [type, count] : by_type->items()) {
    // Memories are priced by their configured bits below.
    if (type.rfind("$mem", 0) == 0) continue;
    const auto weight = model.cell_gate_equivalents.find(type);
    if (weight == model.cell_gate_equivalents.end()) {
      throw std::runtime_error(fmt::format("{}: no gate_equivalents entry for the cell type {} of {}",
                                           model.path, type, cells_json_path));
    }
    area.cells[type] = count.get<uint64_t>();
    area.logic_gate_equivalents += weight->second * count.get<double>();
  }
  area.memory_bits = memory_bits;
  area.logic_mm2 = model.logic_mm2(area.logic_gate_equivalents);
  area.memory_mm2 = model.sram_mm2(memory_bits);
  area.total_mm2 = area.logic_mm2 + area.memory_mm2;
  return area;
}

nlohmann::json AccelArea::to_json() const {
  return {{"node", node},
          {"logic_cells", cells},
          {"logic_gate_equivalents", logic_gate_equivalents},
          {"memory_bits", memory_bits},
          {"logic_mm2", logic_mm2},
          {"memory_mm2", memory_mm2},
          {"total_mm2", total_mm2}};
}

}  // namespace ssdvp
