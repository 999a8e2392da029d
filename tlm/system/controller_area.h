// Silicon area of the whole controller at the scenario's node (area.node), priced with the area
// model (rtl/area_model.yaml): the SRAM and ROM macros of their configured sizes, the cores, the
// accelerator when present, and the fixed blocks (host interface, and per NAND channel its
// controller and ECC engine). DRAM is off-chip and not in it.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tlm/system/area_model.h"
#include "tlm/system/soc_config.h"

namespace ssdvp {

struct ControllerArea {
  std::string node;
  uint64_t sram_bytes = 0;
  double sram_array_efficiency = 0;
  double sram_mm2 = 0;
  uint64_t rom_bytes = 0;
  double rom_array_efficiency = 0;
  double rom_mm2 = 0;
  uint32_t harts = 0;
  double cpu_core_mm2 = 0;  // one hart
  double cpu_mm2 = 0;       // all harts
  double accel_mm2 = 0;     // 0 without the accelerator
  uint32_t channels = 0;
  double hic_mm2 = 0;
  double nfc_mm2 = 0;       // all channels
  double ecc_mm2 = 0;       // all channels
  double fixed_mm2 = 0;     // hic + nfc + ecc
  double total_mm2 = 0;

  // platform.area of stats.json.
  nlohmann::json to_json() const;
};

// `accel_mm2` is the accelerator's total (AccelArea::total_mm2), 0 when it is absent.
ControllerArea estimate_controller_area(const AreaModel& model, const SocConfig& config,
                                        double accel_mm2);

}  // namespace ssdvp
