#include "tlm/system/area_model.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace ssdvp {
namespace {

constexpr double kUm2PerMm2 = 1e6;

YAML::Node load_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read the area model {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return YAML::Load(text.str());
  } catch (const YAML::Exception& error) {
    throw std::runtime_error(fmt::format("{}: {}", path, error.what()));
  }
}

YAML::Node section(const YAML::Node& model, const char* key, const std::string& path) {
  const YAML::Node node = model[key];
  if (!node || !node.IsMap() || node.size() == 0) {
    throw std::runtime_error(fmt::format("{}: needs a non-empty map {}", path, key));
  }
  return node;
}

double number(const YAML::Node& node, const std::string& what, const std::string& path) {
  try {
    if (node && node.IsScalar()) return node.as<double>();
  } catch (const YAML::Exception&) {
  }
  throw std::runtime_error(fmt::format("{}: {} must be a number", path, what));
}

double positive(const YAML::Node& node, const std::string& what, const std::string& path) {
  const double value = number(node, what, path);
  if (!(value > 0)) {
    throw std::runtime_error(fmt::format("{}: {} must be a number above 0", path, what));
  }
  return value;
}

std::vector<AreaModel::EfficiencyPoint> efficiency_points(const YAML::Node& model,
                                                          const std::string& path) {
  const YAML::Node list = model["macro_array_efficiency"];
  if (!list || !list.IsSequence() || list.size() == 0) {
    throw std::runtime_error(
        fmt::format("{}: needs a non-empty list macro_array_efficiency of {{bytes, efficiency}}",
                    path));
  }
  std::vector<AreaModel::EfficiencyPoint> points;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = fmt::format("macro_array_efficiency[{}]", i);
    const double bytes = positive(list[i]["bytes"], where + ".bytes", path);
    const double efficiency = positive(list[i]["efficiency"], where + ".efficiency", path);
    if (efficiency > 1) {
      throw std::runtime_error(
          fmt::format("{}: {}.efficiency must be at most 1 (a share of the macro)", path, where));
    }
    if (!points.empty() && bytes <= points.back().bytes) {
      throw std::runtime_error(
          fmt::format("{}: {}.bytes must be above the previous point's", path, where));
    }
    points.push_back({bytes, efficiency});
  }
  return points;
}

}  // namespace

double AreaModel::logic_mm2(double gate_equivalents) const {
  return gate_equivalents * nand2_um2 / kUm2PerMm2;
}

double AreaModel::array_efficiency(double bytes) const {
  if (bytes <= macro_efficiency.front().bytes) return macro_efficiency.front().efficiency;
  for (size_t i = 1; i < macro_efficiency.size(); ++i) {
    const EfficiencyPoint& low = macro_efficiency[i - 1];
    const EfficiencyPoint& high = macro_efficiency[i];
    if (bytes <= high.bytes) {
      const double t = std::log2(bytes / low.bytes) / std::log2(high.bytes / low.bytes);
      return low.efficiency + t * (high.efficiency - low.efficiency);
    }
  }
  return macro_efficiency.back().efficiency;
}

double AreaModel::sram_mm2(uint64_t bits) const {
  const double cells = static_cast<double>(bits);
  return cells * sram_bit_um2 / array_efficiency(cells / 8) / kUm2PerMm2;
}

double AreaModel::rom_mm2(uint64_t bits) const {
  const double cells = static_cast<double>(bits);
  return cells * rom_bit_um2 / array_efficiency(cells / 8) / kUm2PerMm2;
}

const std::string& area_model_path() {
  static const std::string path = SSDVP_AREA_MODEL;
  return path;
}

std::vector<std::string> area_model_nodes(const std::string& path) {
  std::vector<std::string> nodes;
  for (const auto& entry : section(load_file(path), "nodes", path)) {
    nodes.push_back(entry.first.as<std::string>());
  }
  return nodes;
}

AreaModel load_area_model(const std::string& path, const std::string& node) {
  const YAML::Node model = load_file(path);
  const YAML::Node figures = section(model, "nodes", path)[node];
  if (!figures) {
    throw std::runtime_error(fmt::format("area.node: {} has no figures in {}; allowed {}", node,
                                         path, fmt::join(area_model_nodes(path), ", ")));
  }
  AreaModel area;
  area.path = path;
  area.node = node;
  const std::string prefix = "nodes." + node + ".";
  area.nand2_um2 = positive(figures["nand2_um2"], prefix + "nand2_um2", path);
  area.sram_bit_um2 = positive(figures["sram_bit_um2"], prefix + "sram_bit_um2", path);
  area.rom_bit_um2 = positive(figures["rom_bit_um2"], prefix + "rom_bit_um2", path);
  for (const auto& entry : section(model, "gate_equivalents", path)) {
    const std::string type = entry.first.as<std::string>();
    area.cell_gate_equivalents[type] = positive(entry.second, "gate_equivalents." + type, path);
  }
  area.macro_efficiency = efficiency_points(model, path);
  const YAML::Node logic = section(model, "logic_gate_equivalents", path);
  const auto gates = [&](const char* block) {
    return positive(logic[block], fmt::format("logic_gate_equivalents.{}", block), path);
  };
  area.cpu_core_gates = gates("cpu_core");
  area.hic_gates = gates("hic");
  area.nfc_channel_gates = gates("nfc_channel");
  area.ecc_channel_gates = gates("ecc_channel");
  return area;
}

}  // namespace ssdvp
