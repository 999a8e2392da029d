#include "tlm/system/controller_area.h"

namespace ssdvp {

ControllerArea estimate_controller_area(const AreaModel& model, const SocConfig& config,
                                        double accel_mm2) {
  ControllerArea area;
  area.node = model.node;
  area.sram_bytes = config.sram.size_bytes;
  area.sram_array_efficiency = model.array_efficiency(static_cast<double>(area.sram_bytes));
  area.sram_mm2 = model.sram_mm2(area.sram_bytes * 8);
  area.rom_bytes = config.rom.size_bytes;
  area.rom_array_efficiency = model.array_efficiency(static_cast<double>(area.rom_bytes));
  area.rom_mm2 = model.rom_mm2(area.rom_bytes * 8);
  area.harts = config.cpu.harts;
  area.cpu_core_mm2 = model.logic_mm2(model.cpu_core_gates);
  area.cpu_mm2 = area.harts * area.cpu_core_mm2;
  area.accel_mm2 = accel_mm2;
  area.channels = config.nand.channels;
  area.hic_mm2 = model.logic_mm2(model.hic_gates);
  area.nfc_mm2 = area.channels * model.logic_mm2(model.nfc_channel_gates);
  area.ecc_mm2 = area.channels * model.logic_mm2(model.ecc_channel_gates);
  area.fixed_mm2 = area.hic_mm2 + area.nfc_mm2 + area.ecc_mm2;
  area.total_mm2 = area.sram_mm2 + area.rom_mm2 + area.cpu_mm2 + area.accel_mm2 + area.fixed_mm2;
  return area;
}

nlohmann::json ControllerArea::to_json() const {
  return {{"node", node},
          {"total_mm2", total_mm2},
          {"sram_mm2", sram_mm2},
          {"sram_bytes", sram_bytes},
          {"sram_array_efficiency", sram_array_efficiency},
          {"rom_mm2", rom_mm2},
          {"rom_bytes", rom_bytes},
          {"rom_array_efficiency", rom_array_efficiency},
          {"cpu_mm2", cpu_mm2},
          {"cpu_core_mm2", cpu_core_mm2},
          {"harts", harts},
          {"accel_mm2", accel_mm2},
          {"fixed_mm2", fixed_mm2},
          {"hic_mm2", hic_mm2},
          {"nfc_mm2", nfc_mm2},
          {"ecc_mm2", ecc_mm2},
          {"channels", channels}};
}

}  // namespace ssdvp
