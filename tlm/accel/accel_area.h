// Silicon area of the RQRMI accelerator: the gate-level cell counts of its synthesis (yosys
// `stat -json` of rtl/synth.ys, made by the build) priced with the area model of the scenario's
// node (rtl/area_model.yaml), plus its memories (weight memory and FIFOs) of the configured sizes
// as SRAM bits.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tlm/system/area_model.h"
#include "tlm/system/soc_config.h"

namespace ssdvp {

struct AccelArea {
  std::string node;                       // technology node of the area model
  std::map<std::string, uint64_t> cells;  // logic cells by yosys type
  double logic_gate_equivalents = 0;
  uint64_t memory_bits = 0;
  double logic_mm2 = 0;
  double memory_mm2 = 0;
  double total_mm2 = 0;

  nlohmann::json to_json() const;
};

// Bits of the weight memory (80-byte records), the key and result FIFOs and the queue of
// predictions waiting for the search (as deep as the result FIFO).
uint64_t accel_memory_bits(const AccelConfig& config);

// Throws std::runtime_error naming the file and the problem: unreadable, malformed, a cell type
// the model has no weight for.
AccelArea estimate_accel_area(const std::string& cells_json_path, const AreaModel& model,
                              uint64_t memory_bits);

}  // namespace ssdvp
