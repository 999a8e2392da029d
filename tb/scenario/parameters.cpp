#include "tb/scenario/parameters.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "accel_regs.h"
#include "boot_config.h"
#include "memory_map.h"
#include "rqrmi_model.h"
#include "tlm/host/synthetic_profile.h"
#include "tlm/host/workload.h"
#include "tlm/system/area_model.h"

namespace ssdvp {

namespace {

constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;
constexpr uint64_t kKB = 1000;
constexpr uint64_t kMB = 1000 * kKB;
constexpr uint64_t kGB = 1000 * kMB;
constexpr uint64_t kNs = 1000;  // times are in picoseconds
constexpr uint64_t kUs = 1000 * kNs;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint64_t kSecond = 1000 * kMs;
constexpr uint64_t kKHz = 1000;
constexpr uint64_t kMHz = 1000 * kKHz;
constexpr uint64_t kGHz = 1000 * kMHz;

// ---- Value syntax of the unit kinds ------------------------------------------------------------

struct Unit {
  const char* name;
  uint64_t scale;  // in the base unit (byte, ps, Hz)
};

struct UnitSystem {
  const char* what;             // "size", used in messages
  const char* base;             // what a whole number of base units is called in messages
  std::vector<Unit> units;      // largest first: the canonical form uses the first exact one
  const char* zero;             // canonical text of 0
  bool unit_required;
};

const UnitSystem& unit_system(ParamKind kind) {
  static const UnitSystem kSize{"size", "bytes",
                                {{"GiB", kGiB}, {"MiB", kMiB}, {"KiB", kKiB}, {"GB", kGB},
                                 {"MB", kMB}, {"KB", kKB}, {"B", 1}},
                                "0B", false};
  static const UnitSystem kTime{"time", "picoseconds",
                                {{"s", kSecond}, {"ms", kMs}, {"us", kUs}, {"ns", kNs}, {"ps", 1}},
                                "0s", true};
  static const UnitSystem kFrequency{"frequency", "hertz",
                                     {{"GHz", kGHz}, {"MHz", kMHz}, {"kHz", kKHz}, {"Hz", 1}},
                                     "0Hz", true};
  switch (kind) {
    case ParamKind::kSize: return kSize;
    case ParamKind::kTime: return kTime;
    default: return kFrequency;
  }
}

std::string unit_names(const UnitSystem& system) {
  std::vector<std::string> names;
  // Smallest first reads naturally in a list of allowed units.
  for (auto it = system.units.rbegin(); it != system.units.rend(); ++it) names.push_back(it->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string format_with_units(const UnitSystem& system, uint64_t value) {
  if (value == 0) return system.zero;
  for (const Unit& unit : system.units) {
    if (value % unit.scale == 0) return fmt::format("{}{}", value / unit.scale, unit.name);
  }
  return std::to_string(value);  // unreachable: the last unit has scale 1
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Longer fractions are refused as inexact: the units here need at most 12 decimals (ps in a
// second; binary sizes would need more only for sub-KiB fractions of GiB), and the 128-bit
// arithmetic below must not overflow.
constexpr size_t kMaxFractionDigits = 24;
// More integer digits than this exceed uint64 before any unit is applied.
constexpr size_t kMaxIntegerDigits = 20;

// ---- Registry entry builders: each parameter is one line in the table below --------------------

#define SSDVP_FIELD(member) [](Scenario& s) -> FieldRef { return &s.member; }

Parameter text(std::string key, const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p;
  p.key = std::move(key);
  p.kind = ParamKind::kString;
  p.description = description;
  p.field = field;
  return p;
}

Parameter flag(std::string key, const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = ParamKind::kBool;
  return p;
}

Parameter choice(std::string key, std::vector<std::string> names, const char* description,
                 FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = ParamKind::kEnum;
  p.names = std::move(names);
  return p;
}

Parameter numeric(ParamKind kind, std::string key, uint64_t min, uint64_t max,
                  const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = kind;
  p.min = min;
  p.max = max;
  return p;
}

Parameter count(std::string key, const char* unit, uint64_t min, uint64_t max,
                const char* description, FieldRef (*field)(Scenario&)) {
  Parameter p = numeric(ParamKind::kCount, std::move(key), min, max, description, field);
  p.unit = unit;
  return p;
}

Parameter size(std::string key, uint64_t min, uint64_t max, const char* description,
               FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kSize, std::move(key), min, max, description, field);
}

Parameter duration(std::string key, uint64_t min, uint64_t max, const char* description,
               FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kTime, std::move(key), min, max, description, field);
}

Parameter frequency(std::string key, uint64_t min, uint64_t max, const char* description,
                    FieldRef (*field)(Scenario&)) {
  return numeric(ParamKind::kFrequency, std::move(key), min, max, description, field);
}

Parameter or_zero(Parameter p) {
  p.zero_allowed = true;
  return p;
}

// The `options` of a firmware_params.def line.
Parameter with_options(uint32_t options, Parameter p) {
  p.zero_allowed = (options & FW_PARAM_ZERO_OK) != 0;
  return p;
}

Parameter multiple_of(uint64_t multiple, Parameter p) {
  p.multiple_of = multiple;
  return p;
}

// An instruction takes a cycle at least: zero-cycle instructions would never end the core's batch.
Parameter cost(const char* name, const char* description, FieldRef (*field)(Scenario&)) {
  return count(std::string("cpu.cost.") + name, "cycles", 1, 1000, description, field);
}

// ---- Builders of record parameters (workload phases and streams) -------------------------------

struct RealRange {
  double min;
  double max;
  bool min_open = false;
  bool max_open = false;
};

Parameter real(std::string key, RealRange range, const char* description,
               FieldRef (*field)(Scenario&)) {
  Parameter p = text(std::move(key), description, field);
  p.kind = ParamKind::kReal;
  p.real_min = range.min;
  p.real_max = range.max;
  p.real_min_open = range.min_open;
  p.real_max_open = range.max_open;
  return p;
}

Parameter with_kind(ParamKind kind, Parameter p) {
  p.kind = kind;
  return p;
}

// A parameter of a record: `field` finds its field from the record indices.
Parameter in_record(FieldRef (*field)(Scenario&, const RecordIndices&), Parameter p) {
  p.record_field = field;
  return p;
}

// Weights that may be an empty map, {}: none given.
Parameter empty_allowed(Parameter p) {
  p.zero_allowed = true;
  return p;
}

Parameter shorthand_of(const char* full_key, Parameter p) {
  p.shorthand_of = full_key;
  return p;
}

std::vector<Parameter> build_registry() {
  std::vector<Parameter> registry = {
      text("name", "scenario name in stats.json (\"\" = the file name without extension)",
           SSDVP_FIELD(name)),
      count("seed", "", 0, kU32Max, "seed of every random choice, passed to the firmware",
            SSDVP_FIELD(soc.sim.seed)),
      duration("sim.max_time", 0, kUnlimited, "stop at this simulated time (0 = no limit)",
               SSDVP_FIELD(soc.sim.max_time_ps)),
      count("sim.max_instructions", "instructions", 0, kUnlimited,
            "stop after this many instructions over all harts (0 = no limit)",
            SSDVP_FIELD(soc.sim.max_instructions)),

      count("cpu.harts", "harts", 1, MM_MAX_HARTS, "controller cores sharing the bus",
            SSDVP_FIELD(soc.cpu.harts)),
      frequency("cpu.clock", 1 * kMHz, 4 * kGHz, "core clock (the boot config holds it in 32 bits)",
                SSDVP_FIELD(soc.cpu.clock_hz)),
      frequency("cpu.timebase", 1 * kKHz, 1 * kGHz, "CLINT mtime rate",
                SSDVP_FIELD(soc.cpu.timebase_hz)),
      duration("cpu.quantum", 1 * kNs, 10 * kMs, "temporal-decoupling quantum of each hart",
               SSDVP_FIELD(soc.cpu.quantum_ps)),
      multiple_of(16, size("cpu.stack_per_hart", 1 * kKiB, 1 * kMiB, "SRAM stack of each hart",
                           SSDVP_FIELD(soc.cpu.stack_bytes_per_hart))),
      cost("alu", "integer ALU instruction", SSDVP_FIELD(soc.cpu.cost.alu)),
      cost("branch_taken", "taken branch", SSDVP_FIELD(soc.cpu.cost.branch_taken)),
      cost("branch_not_taken", "branch not taken", SSDVP_FIELD(soc.cpu.cost.branch_not_taken)),
      cost("jump", "jal, jalr", SSDVP_FIELD(soc.cpu.cost.jump)),
      cost("load", "load, plus the memory's latency", SSDVP_FIELD(soc.cpu.cost.load)),
      cost("store", "store, plus the memory's latency", SSDVP_FIELD(soc.cpu.cost.store)),
      cost("mul", "multiply", SSDVP_FIELD(soc.cpu.cost.mul)),
      cost("div", "divide, remainder", SSDVP_FIELD(soc.cpu.cost.div)),
      cost("csr", "CSR access", SSDVP_FIELD(soc.cpu.cost.csr)),
      cost("atomic", "LR/SC and AMO", SSDVP_FIELD(soc.cpu.cost.atomic)),
      cost("fence", "fence, fence.i", SSDVP_FIELD(soc.cpu.cost.fence)),
      count("cpu.cost.misaligned", "cycles", 0, 1000, "extra per split misaligned access",
            SSDVP_FIELD(soc.cpu.cost.misaligned)),
      cost("trap", "trap entry and mret", SSDVP_FIELD(soc.cpu.cost.trap)),
      // F extension (defaults: a simple embedded FPU, see tlm/cpu/cpu_if.h)
      cost("fpu", "float add/sub/mul, conversion, compare, sign injection, move (flw/fsw: load/store)",
           SSDVP_FIELD(soc.cpu.cost.fpu)),
      cost("fdiv", "float divide", SSDVP_FIELD(soc.cpu.cost.fdiv)),
      cost("fsqrt", "float square root", SSDVP_FIELD(soc.cpu.cost.fsqrt)),
      cost("fma", "fused multiply-add (fmadd, fmsub, fnmsub, fnmadd)", SSDVP_FIELD(soc.cpu.cost.fma)),
      flag("cpu.translate",
           "run the firmware as translated blocks where the host has a code generator (x86-64); "
           "results are identical to the interpreter's, which runs when this is false",
           SSDVP_FIELD(soc.cpu.translate)),

      size("rom.size", 4 * kKiB, MM_ROM_WINDOW, "firmware ROM capacity",
           SSDVP_FIELD(soc.rom.size_bytes)),
      count("rom.latency_cycles", "cycles", 0, 1000, "ROM access latency",
            SSDVP_FIELD(soc.rom.latency_cycles)),
      size("sram.size", 16 * kKiB, MM_SRAM_WINDOW, "on-chip SRAM capacity",
           SSDVP_FIELD(soc.sram.size_bytes)),
      count("sram.latency_cycles", "cycles", 0, 1000, "SRAM access latency",
            SSDVP_FIELD(soc.sram.latency_cycles)),
      or_zero(size("dram.size", 1 * kMiB, MM_DRAM_WINDOW, "DRAM capacity (0 = no DRAM)",
                   SSDVP_FIELD(soc.dram.size_bytes))),
      duration("dram.latency", 0, 1 * kMs, "DRAM access latency",
               SSDVP_FIELD(soc.dram.latency_ps)),

      text("firmware.elf", "firmware image (\"\" = the one built with the simulator)",
           SSDVP_FIELD(soc.firmware.elf)),
      // ---- Every key the firmware reads: interface/firmware_params.def ----
#define SSDVP_PARAM_FIELD(member) SSDVP_FIELD(soc.firmware.params.member)
#define FW_PARAM_CHOICE(field, key, names, default_value, meaning) \
  choice(key, names, meaning, SSDVP_PARAM_FIELD(field)),
#define FW_PARAM_FLAG(field, key, default_value, meaning) \
  flag(key, meaning, SSDVP_PARAM_FIELD(field)),
#define FW_PARAM_COUNT(field, key, unit, min, max, options, default_value, meaning) \
  with_options(options, count(key, unit, min, max, meaning, SSDVP_PARAM_FIELD(field))),
#define FW_PARAM_SIZE(field, key, min, max, options, default_value, meaning) \
  with_options(options, size(key, min, max, meaning, SSDVP_PARAM_FIELD(field))),
// The boot word holds whole nanoseconds.
#define FW_PARAM_TIME(field, key, min_ns, max_ns, options, default_ns, meaning)          \
  with_options(options, multiple_of(kNs, duration(key, (min_ns) * kNs, (max_ns) * kNs, meaning, \
                                                  SSDVP_PARAM_FIELD(field##_ps)))),
#define FW_PARAM_REAL(field, key, min, max, default_value, meaning) \
  real(key, {min, max}, meaning, SSDVP_PARAM_FIELD(field)),
#define FW_PARAM_TEXT(field, key, encoder, default_value, meaning) \
  text(key, meaning, SSDVP_PARAM_FIELD(field)),
#include "interface/firmware_params.def"
#undef SSDVP_PARAM_FIELD

      // ---- NAND flash array (nand_model) and its controller (tlm/nfc) ----
      count("nand.channels", "channels", 1, 64, "flash channels: buses of the controller",
            SSDVP_FIELD(soc.nand.channels)),
      count("nand.ways", "chips", 1, 16, "chips per channel, sharing its bus",
            SSDVP_FIELD(soc.nand.ways)),
      count("nand.dies", "dies", 1, 8, "dies per chip", SSDVP_FIELD(soc.nand.dies)),
      count("nand.planes", "planes", 1, 8, "planes per die (multi-plane operations span them)",
            SSDVP_FIELD(soc.nand.planes)),
      count("nand.blocks", "blocks", 1, 1 << 20, "blocks per plane", SSDVP_FIELD(soc.nand.blocks)),
      count("nand.pages", "pages", 1, 65536,
            "pages per block, a multiple of the bits per cell (a wordline holds a page per bit)",
            SSDVP_FIELD(soc.nand.pages)),
      multiple_of(512, size("nand.page_size", 512, 64 * kKiB, "data bytes of a page",
                            SSDVP_FIELD(soc.nand.page_bytes))),
      size("nand.oob_size", 0, 16 * kKiB, "spare (OOB) bytes of a page the firmware reads and writes",
           SSDVP_FIELD(soc.nand.oob_bytes)),
      choice("nand.cell", {"slc", "mlc", "tlc", "qlc"},
             "cell type: 1 to 4 bits per cell, page types lsb, clsb, cmsb, msb in wordline order",
             SSDVP_FIELD(soc.nand.cell)),
      duration("nand.t_read.lsb", 1 * kNs, 100 * kMs, "tR of an LSB page",
               SSDVP_FIELD(soc.nand.read_lsb_ps)),
      duration("nand.t_read.clsb", 1 * kNs, 100 * kMs, "tR of a CLSB page (MLC and up)",
               SSDVP_FIELD(soc.nand.read_clsb_ps)),
      duration("nand.t_read.cmsb", 1 * kNs, 100 * kMs, "tR of a CMSB page (TLC and up)",
               SSDVP_FIELD(soc.nand.read_cmsb_ps)),
      duration("nand.t_read.msb", 1 * kNs, 100 * kMs, "tR of an MSB page (QLC)",
               SSDVP_FIELD(soc.nand.read_msb_ps)),
      duration("nand.t_prog", 1 * kNs, 1 * kSecond,
               "tPROG: one full-sequence program of a wordline (all its pages)",
               SSDVP_FIELD(soc.nand.program_ps)),
      duration("nand.t_erase", 1 * kNs, 1 * kSecond, "tBERS: erase of a block",
               SSDVP_FIELD(soc.nand.erase_ps)),
      count("nand.cmd_addr_cycles", "cycles", 0, 64,
            "bus cycles of one command and address sequence (one per plane address)",
            SSDVP_FIELD(soc.nand.cmd_addr_cycles)),
      duration("nand.cmd_cycle", 0, 1 * kUs, "duration of a command or address cycle",
               SSDVP_FIELD(soc.nand.cmd_cycle_ps)),
      count("nand.bus_rate", "MT/s", 1, 100000, "channel data rate",
            SSDVP_FIELD(soc.nand.bus_rate_mts)),
      multiple_of(8, count("nand.bus_width", "bits", 8, 64, "channel data width",
                           SSDVP_FIELD(soc.nand.bus_width_bits))),
      count("nand.endurance", "P/E cycles", 1, 10'000'000,
            "erases a block survives: the next one fails (program fail) and retires it",
            SSDVP_FIELD(soc.nand.endurance)),
      count("nand.bad_block_rate", "per million blocks", 0, 1'000'000,
            "factory bad blocks, drawn from the seed", SSDVP_FIELD(soc.nand.bad_block_ppm)),
      text("nand.bad_blocks",
           "more factory bad blocks: channel:way:die:plane:block entries separated by commas",
           SSDVP_FIELD(soc.nand.bad_blocks)),
      count("nand.fault.ecc_fail_rate", "per million page reads", 0, 1'000'000,
            "fault injection: uncorrectable reads (status ecc fail), drawn from the seed",
            SSDVP_FIELD(soc.nand.ecc_fail_ppm)),
      count("nand.fault.program_fail_rate", "per million programs", 0, 1'000'000,
            "fault injection: failed programs (status program fail, block retired)",
            SSDVP_FIELD(soc.nand.program_fail_ppm)),
      count("nand.fault.erase_fail_rate", "per million erases", 0, 1'000'000,
            "fault injection: failed erases (status program fail, block retired)",
            SSDVP_FIELD(soc.nand.erase_fail_ppm)),
      duration("nfc.ecc_decode", 0, 1 * kMs, "ECC decode of one page read; one decoder per channel",
               SSDVP_FIELD(soc.nfc.ecc_decode_ps)),
      count("nfc.dma_bandwidth", "MB/s", 1, 1'000'000,
            "DMA between page registers and memory; each transfer also pays the memory latency",
            SSDVP_FIELD(soc.nfc.dma_bandwidth_mbs)),
      or_zero(duration("nfc.queue_sample_interval", 1 * kUs, 1000 * kSecond,
                       "interval of the outstanding-operations series in stats.json (0 = none)",
                       SSDVP_FIELD(soc.nfc.queue_sample_ps))),

      // ---- Host interface (tlm/host): device seen by the host, HIC, link, oracle, statistics ----
      or_zero(size("host.capacity", 4 * kKiB, 16 * 1024 * kGiB,
                   "bytes the host may address, a multiple of host.page_size (0 = derived from "
                   "the NAND: floor(physical pages x (1 - ftl.op)) pages; the product FTL "
                   "accepts no other value)",
                   SSDVP_FIELD(soc.host.capacity_bytes))),
      size("host.sector_size", 512, 4 * kKiB, "host sector (LBA) size, a power of two",
           SSDVP_FIELD(soc.host.sector_bytes)),
      or_zero(size("host.page_size", 512, 64 * kKiB,
                   "logical page, one LPN: a power of two, at least host.sector_size (0 = the "
                   "NAND page size; the product FTL accepts no other value)",
                   SSDVP_FIELD(soc.host.page_bytes))),
      count("host.max_commands", "commands", 1, 4096,
            "HIC command slots: commands the firmware holds at once (more wait in the host "
            "queues)",
            SSDVP_FIELD(soc.host.max_commands)),
      choice("host.link.type", {"pcie", "ufs"}, "host link: PCIe (NVMe-like) or UFS",
             SSDVP_FIELD(soc.host.link.type)),
      count("host.link.pcie_gen", "generation", 1, 5,
            "PCIe generation: 2.5, 5, 8, 16, 32 GT/s per lane; 8b/10b to Gen2, 128b/130b from Gen3",
            SSDVP_FIELD(soc.host.link.pcie_gen)),
      count("host.link.ufs_gear", "HS gear", 1, 5,
            "UFS HS gear, M-PHY rate B: 1.4576, 2.9152, 5.8304, 11.6608, 23.3216 Gb/s per lane, "
            "8b/10b",
            SSDVP_FIELD(soc.host.link.ufs_gear)),
      count("host.link.lanes", "lanes", 1, 16, "link width: PCIe 1, 2, 4, 8 or 16; UFS 1 or 2",
            SSDVP_FIELD(soc.host.link.lanes)),
      duration("host.link.latency", 0, 1 * kMs,
               "fixed one-way latency of every transfer (command fetch, data page, completion)",
               SSDVP_FIELD(soc.host.link.latency_ps)),
      flag("host.oracle",
           "check every page read against the version last written (off: faster, unchecked)",
           SSDVP_FIELD(soc.host.oracle)),
      or_zero(duration("host.stats_interval", 1 * kUs, 1000 * kSecond,
                       "interval of the time series: the host's (timeseries.csv) and the FTL's "
                       "metrics (ftl_timeseries.csv, stats.json ftl.phases[].series); 0 = none",
                       SSDVP_FIELD(soc.host.stats_interval_ps))),

      // ---- Power losses (tlm/system/power_schedule.h, soc.h); ftl.plp is the firmware's ----
      text("host.power_loss.at",
           "cut the power at these simulated times: a comma-separated list, \"2ms, 7.5ms\" "
           "(\"\" = none)",
           SSDVP_FIELD(soc.host.power_loss.at)),
      text("host.power_loss.after_commands",
           "cut the power when the host has completed this many commands, counted over the run: "
           "a comma-separated list, \"500, 2000\" (\"\" = none)",
           SSDVP_FIELD(soc.host.power_loss.after_commands)),
      count("host.power_loss.random", "cuts", 0, 1'000'000,
            "cut the power this many times, at times drawn from the seed uniformly in "
            "[random_start, random_end)",
            SSDVP_FIELD(soc.host.power_loss.random)),
      duration("host.power_loss.random_start", 0, kUnlimited,
               "start of the window of the random cuts",
               SSDVP_FIELD(soc.host.power_loss.random_start_ps)),
      duration("host.power_loss.random_end", 0, kUnlimited,
               "end of the window of the random cuts (after random_start when random > 0)",
               SSDVP_FIELD(soc.host.power_loss.random_end_ps)),
      duration("host.power_loss.off_time", 1 * kUs, 1000 * kSecond,
               "how long the power stays off after a cut before it comes back",
               SSDVP_FIELD(soc.host.power_loss.off_ps)),

      // ---- RQRMI accelerator (rtl/, tlm/accel) ----
      flag("accel.present", "the SoC has the RQRMI accelerator", SSDVP_FIELD(soc.accel.present)),
      frequency("accel.clock", 1 * kMHz, 4 * kGHz, "accelerator clock",
                SSDVP_FIELD(soc.accel.clock_hz)),
      count("accel.submodels", "submodels", 1, ACCEL_MAX_SUBMODELS,
            "weight memory capacity in submodel records (80 bytes each)",
            SSDVP_FIELD(soc.accel.submodel_capacity)),
      count("accel.key_fifo_depth", "keys", 1, ACCEL_MAX_FIFO_DEPTH, "key FIFO entries",
            SSDVP_FIELD(soc.accel.key_fifo_depth)),
      count("accel.result_fifo_depth", "results", 1, ACCEL_MAX_FIFO_DEPTH, "result FIFO entries",
            SSDVP_FIELD(soc.accel.result_fifo_depth)),
      text("accel.rtl_vcd", "VCD file of every RTL signal, in simulated time (\"\" = none)",
           SSDVP_FIELD(soc.accel.rtl_vcd)),
      duration("accel.rtl_vcd_start", 0, kUnlimited, "RTL dump window start",
               SSDVP_FIELD(soc.accel.rtl_vcd_start_ps)),
      duration("accel.rtl_vcd_end", 0, kUnlimited, "RTL dump window end (0 = end of the run)",
               SSDVP_FIELD(soc.accel.rtl_vcd_end_ps)),

      // ---- Silicon area: the nodes are those rtl/area_model.yaml has figures for ----
      choice("area.node", area_model_nodes(area_model_path()),
             "technology node of the controller's silicon area (stats.json platform.area)",
             SSDVP_FIELD(soc.area.node)),

      text("output.dir", "directory of stats.json and the other results",
           SSDVP_FIELD(output.dir)),
      text("output.vcd",
           "waveform file, FST when it ends in .fst, else VCD; a GTKWave save file is written "
           "next to it (.gtkw) (\"\" = none)",
           SSDVP_FIELD(output.vcd)),
      duration("output.vcd_start", 0, kUnlimited, "waveform window start",
               SSDVP_FIELD(output.vcd_start_ps)),
      duration("output.vcd_end", 0, kUnlimited, "waveform window end (0 = end of the run)",
               SSDVP_FIELD(output.vcd_end_ps)),
      text("output.trace_insn", "instruction trace file (\"\" = none)",
           SSDVP_FIELD(output.trace_insn)),
      flag("output.profile", "report cycles per firmware function", SSDVP_FIELD(output.profile)),
      count("output.profile_top", "functions", 1, 1000, "functions listed by the profile",
            SSDVP_FIELD(output.profile_top)),
  };
  // A limit beyond the field's width would be truncated when stored: a registry bug.
  Scenario probe;
  for (const Parameter& p : registry) {
    if (std::holds_alternative<uint32_t*>(p.field(probe)) && p.max > kU32Max) {
      throw std::logic_error(fmt::format("parameter {}: maximum {} exceeds its 32-bit field",
                                         p.key, p.max));
    }
  }
  return registry;
}

#define SSDVP_PHASE_FIELD(member) \
  [](Scenario& s, const RecordIndices& i) -> FieldRef { \
    return &s.soc.workload.phases.at(i.at(0)).member; \
  }
#define SSDVP_STREAM_FIELD(member) \
  [](Scenario& s, const RecordIndices& i) -> FieldRef { \
    return &s.soc.workload.phases.at(i.at(0)).streams.at(i.at(1)).member; \
  }

// ---- Workload: phases and their streams (tlm/host/workload.h) ---------------------------------
std::vector<Parameter> build_record_registry() {
  constexpr const char* kPhase = "workload.phases[].";
  constexpr const char* kStream = "workload.phases[].streams[].";
  const auto phase = [&](const char* name) { return std::string(kPhase) + name; };
  const auto stream = [&](const char* name) { return std::string(kStream) + name; };
  constexpr uint64_t kMinRequest = 512;
  constexpr uint64_t kMaxRequest = 1 * kGiB;
  std::vector<Parameter> registry = {
      in_record(SSDVP_PHASE_FIELD(name),
                text(phase("name"), "phase name in the statistics, unique in the workload",
                     nullptr)),
      in_record(SSDVP_PHASE_FIELD(max_requests),
                count(phase("requests"), "requests", 0, kUnlimited,
                      "the phase ends after this many requests of all its streams (0 = no limit)",
                      nullptr)),
      in_record(SSDVP_PHASE_FIELD(max_bytes),
                size(phase("bytes"), 0, kUnlimited,
                     "the phase ends after this many bytes of all its streams (0 = no limit)",
                     nullptr)),
      in_record(SSDVP_PHASE_FIELD(max_time_ps),
                duration(phase("duration"), 0, kUnlimited,
                         "the phase ends after this much simulated time (0 = no limit)", nullptr)),
      in_record(SSDVP_PHASE_FIELD(capacity_multiple),
                real(phase("capacity_multiple"), {0.0, 1e6},
                     "the phase ends after this many times the host capacity in bytes, counted "
                     "like bytes (20: twenty device writes; 0 = no limit)",
                     nullptr)),
      in_record(SSDVP_PHASE_FIELD(fio_job),
                with_kind(ParamKind::kPath,
                          text(phase("fio"),
                               "fio job file, relative to the scenario file, whose jobs become "
                               "the phase's streams and limits (README, \"fio job files\"; keys "
                               "given beside it win; \"\" = none)",
                               nullptr))),

      in_record(SSDVP_STREAM_FIELD(name),
                text(stream("name"), "stream name in the statistics (\"\" = stream<index>)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(queue_depth),
                count(stream("queue_depth"), "commands", 1, 65536,
                      "commands the stream keeps outstanding", nullptr)),
      in_record(SSDVP_STREAM_FIELD(pattern),
                choice(stream("pattern"), host::stream_pattern_names(),
                       "synthetic access pattern: sequential (wraps at the region end), random "
                       "(uniform), zipf (rank k drawn with weight k^-alpha, ranks scattered over "
                       "the region), hotcold (see hot_*_fraction), oltp (a database growing "
                       "from db_initial_size to db_final_size with hot, warm and frozen pages; "
                       "see db_*, insert_fraction, hot_*, frozen_fraction, alpha), profile "
                       "(reads and writes each skewed by a zipf over chunks of the largest "
                       "request, independently placed; see read_hot_share, write_hot_share, "
                       "hot_access_fraction, profile), workset (a random set of chunks of the "
                       "largest request, workset bytes of them, addressed uniformly: RQFTL's "
                       "synthetic stress)",
                       nullptr)),
      in_record(SSDVP_STREAM_FIELD(read_fraction),
                real(stream("read_fraction"), {0.0, 1.0}, "share of reads among reads and writes",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(trim_fraction),
                real(stream("trim_fraction"), {0.0, 1.0}, "share of trims among all requests",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(fua_fraction),
                real(stream("fua_fraction"), {0.0, 1.0},
                     "share of writes flagged FUA (force unit access): each completes only once "
                     "its data is on the NAND, and is guaranteed to survive a power loss from "
                     "then on",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(fsync_writes),
                count(stream("fsync"), "writes", 0, kUnlimited,
                      "a flush after every this many writes of the stream, as fio's fsync; the "
                      "flush is a request of the stream (0 = none)",
                      nullptr)),
      in_record(SSDVP_STREAM_FIELD(sizes),
                with_kind(ParamKind::kSizeWeights,
                          size(stream("sizes"), kMinRequest, kMaxRequest,
                               "request sizes and their weights, relative to the weights' sum",
                               nullptr))),
      in_record(SSDVP_STREAM_FIELD(sizes),
                shorthand_of("sizes", size(stream("size"), kMinRequest, kMaxRequest,
                                           "one request size: sizes: {SIZE: 1}", nullptr))),
      in_record(SSDVP_STREAM_FIELD(read_sizes),
                empty_allowed(with_kind(
                    ParamKind::kSizeWeights,
                    size(stream("read_sizes"), kMinRequest, kMaxRequest,
                         "the reads' sizes and weights, when they differ from sizes (which then "
                         "are the writes' and trims'; {} = sizes)",
                         nullptr)))),
      in_record(SSDVP_STREAM_FIELD(zipf_alpha),
                real(stream("alpha"), {0.0, 10.0},
                     "zipf skew: rank k has weight k^-alpha (0 = uniform: the draws of random); "
                     "oltp: the skew of touches of warm pages",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(hot_space_fraction),
                real(stream("hot_space_fraction"), {0.0, 1.0, true, true},
                     "hotcold: the share of the region that is hot (its start)", nullptr)),
      in_record(SSDVP_STREAM_FIELD(hot_access_fraction),
                real(stream("hot_access_fraction"), {0.0, 1.0, true, true},
                     "hotcold: the share of the requests that go to the hot part; profile: the "
                     "share of the reads (writes) the hottest read_hot_share (write_hot_share) "
                     "of the chunks takes",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(profile),
                choice(stream("profile"), host::trace_profile_names(),
                       "a disk trace of the RL-FSP paper's Table II, of LeaFTL's evaluation "
                       "(leaftl_*) or of LearnedFTL's (learnedftl_*; README, \"Trace "
                       "profiles\"): sets pattern profile, "
                       "read_fraction, sizes, working_set (the trace's footprint times "
                       "footprint_scale), read_hot_share, write_hot_share and write_runs, each "
                       "unless given; none = the keys as given",
                       nullptr)),
      in_record(SSDVP_STREAM_FIELD(footprint_scale),
                real(stream("footprint_scale"), {0.0, 1000.0, true, false},
                     "profile: working_set is the trace's total footprint (Int. footprint / "
                     "Int. ratio, MB as MiB) times this, rounded to 64 KiB",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(read_hot_share),
                real(stream("read_hot_share"), {0.0, 1.0, true, true},
                     "profile: share of the chunks (the footprint) whose hottest take "
                     "hot_access_fraction of the reads, at most hot_access_fraction and at least "
                     "one chunk",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(write_hot_share),
                real(stream("write_hot_share"), {0.0, 1.0, true, true},
                     "profile: the same for writes and trims, over a placement independent of "
                     "the reads'",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(write_runs),
                with_kind(ParamKind::kCountWeights,
                          count(stream("write_runs"), "writes", 1, host::kMaxRunWrites,
                                "writes per sequential run and their weights: a run's first "
                                "write is placed by the pattern, each next one starts where the "
                                "previous write ended; random, zipf, hotcold, profile ({1: 1} = "
                                "every write placed by the pattern)",
                                nullptr))),
      in_record(SSDVP_STREAM_FIELD(db_initial_bytes),
                size(stream("db_initial_size"), 0, kUnlimited,
                     "oltp: database size at the phase start, whole pages of align bytes at the "
                     "region start (0 = a tenth of db_final_size)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(db_final_bytes),
                size(stream("db_final_size"), 0, kUnlimited,
                     "oltp: database size inserts grow it to, after (db_final_size - "
                     "db_initial_size) / insert_fraction bytes written (0 = the region)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(insert_fraction),
                real(stream("insert_fraction"), {0.0, 1.0, true, false},
                     "oltp: share of writes that append a page to the database (at most 1 / (1 "
                     "+ hot_rewrites))",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(hot_window),
                count(stream("hot_window"), "pages", 1, kU32Max,
                      "oltp: pages hot at once, the last ones inserted or touched; a page is hot "
                      "for about hot_window * (1 + hot_rewrites) writes",
                      nullptr)),
      in_record(SSDVP_STREAM_FIELD(hot_rewrites),
                real(stream("hot_rewrites"), {0.0, 1e6},
                     "oltp: mean rewrites of a page while it is hot", nullptr)),
      in_record(SSDVP_STREAM_FIELD(frozen_fraction),
                real(stream("frozen_fraction"), {0.0, 1.0},
                     "oltp: share of inserted pages never written again once they leave the hot "
                     "window (the others join the warm pages)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(offset_bytes),
                size(stream("offset"), 0, kUnlimited,
                     "start of the region the stream addresses (a multiple of align)", nullptr)),
      in_record(SSDVP_STREAM_FIELD(working_set_bytes),
                size(stream("working_set"), 0, kUnlimited,
                     "size of that region (0 = to the device end)", nullptr)),
      in_record(SSDVP_STREAM_FIELD(workset_bytes),
                size(stream("workset"), 0, kUnlimited,
                     "workset: bytes of the region the stream addresses, whole chunks chosen at "
                     "random",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(workset_chunk_bytes),
                size(stream("workset_chunk"), 0, kUnlimited,
                     "workset: bytes of a chunk, a multiple of align of at least the largest "
                     "request (0 = the largest request rounded up to align)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(workset_fill),
                flag(stream("workset_fill"),
                     "workset: write the chunks whole, one after another in the order chosen, "
                     "each from its start (writes only, sizes dividing the chunk)",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(workset_seed),
                count(stream("workset_seed"), "", 0, kU32Max,
                      "workset: the seed of the choice of chunks (not the run's: streams of "
                      "several phases with the same region, largest request, workset and "
                      "workset_seed address the same chunks)",
                      nullptr)),
      in_record(SSDVP_STREAM_FIELD(align_bytes),
                size(stream("align"), kMinRequest, kMaxRequest, "request start alignment",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(trace_path),
                with_kind(ParamKind::kPath,
                          text(stream("trace"),
                               "trace file to replay (\"\" = a synthetic stream), relative to the "
                               "scenario file",
                               nullptr))),
      in_record(SSDVP_STREAM_FIELD(trace_format),
                choice(stream("format"), host::trace_format_names(),
                       "trace format: disksim (MQSim/SSDsim ASCII), msr (MSR Cambridge CSV), spc "
                       "(UMass Financial/WebSearch), blkparse (default text output), fiu",
                       nullptr)),
      in_record(SSDVP_STREAM_FIELD(follow_timestamps),
                flag(stream("follow_timestamps"),
                     "submit at the trace's times (from 0, times time_scale); false: replay at "
                     "the queue depth",
                     nullptr)),
      in_record(SSDVP_STREAM_FIELD(time_scale),
                real(stream("time_scale"), {0.0, 1e6, true, false},
                     "multiplies trace times (0.5: twice as fast)", nullptr)),
      in_record(SSDVP_STREAM_FIELD(devices),
                with_kind(ParamKind::kDeviceList,
                          text(stream("devices"),
                               "trace devices kept, merged in file order ([] = all; blkparse and "
                               "FIU devices as major:minor)",
                               nullptr))),
      in_record(SSDVP_STREAM_FIELD(fold_out_of_range),
                flag(stream("fold"),
                     "fold requests beyond the device capacity into it (start modulo capacity); "
                     "false: they are an error",
                     nullptr)),
  };
  Scenario probe;
  probe.soc.workload.phases.resize(1);
  probe.soc.workload.phases[0].streams.resize(1);
  for (const Parameter& p : registry) {
    if (std::holds_alternative<uint32_t*>(p.record_field(probe, {0, 0})) && p.max > kU32Max) {
      throw std::logic_error(fmt::format("parameter {}: maximum {} exceeds its 32-bit field",
                                         p.key, p.max));
    }
  }
  return registry;
}

std::vector<RecordList> build_record_lists() {
  return {
      {"workload.phases", "workload phases, run in order (e.g. precondition, warm-up, measure)",
       [](const Scenario& s, const RecordIndices&) { return s.soc.workload.phases.size(); },
       [](Scenario& s, const RecordIndices&, size_t count) {
         s.soc.workload.phases.assign(count, host::PhaseConfig{});
       }},
      {"workload.phases[].streams",
       "concurrent streams of the phase (fio's numjobs): each a generator or a trace replay",
       [](const Scenario& s, const RecordIndices& outer) {
         return s.soc.workload.phases.at(outer.at(0)).streams.size();
       },
       [](Scenario& s, const RecordIndices& outer, size_t count) {
         s.soc.workload.phases.at(outer.at(0)).streams.assign(count, host::StreamConfig{});
       }},
  };
}

#undef SSDVP_STREAM_FIELD
#undef SSDVP_PHASE_FIELD
#undef SSDVP_FIELD

std::string quoted(const std::string& text) { return "'" + text + "'"; }

[[noreturn]] void fail_value(const Parameter& p, const std::string& where,
                             const std::string& problem) {
  throw_scenario_error(where, p.key, fmt::format("{}; allowed {}", problem, p.allowed_text()));
}

}  // namespace

void throw_scenario_error(const std::string& where, const std::string& key,
                          const std::string& problem) {
  throw ScenarioError(fmt::format("{}: {}: {}", where, key, problem));
}

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> registry = build_registry();
  return registry;
}

const std::vector<Parameter>& record_parameters() {
  static const std::vector<Parameter> registry = build_record_registry();
  return registry;
}

const std::vector<RecordList>& record_lists() {
  static const std::vector<RecordList> lists = build_record_lists();
  return lists;
}

const Parameter* find_parameter(const std::string& key) {
  for (const auto* registry : {&parameters(), &record_parameters()}) {
    for (const Parameter& p : *registry) {
      if (p.key == key) return &p;
    }
  }
  return nullptr;
}

const RecordList* find_record_list(const std::string& key) {
  for (const RecordList& list : record_lists()) {
    if (list.key == key) return &list;
  }
  return nullptr;
}

namespace {

// Every key of the registry, plain and record parameters and record lists, in registry order.
std::vector<std::string> all_keys() {
  std::vector<std::string> keys;
  for (const Parameter& p : parameters()) keys.push_back(p.key);
  for (const Parameter& p : record_parameters()) keys.push_back(p.key);
  for (const RecordList& list : record_lists()) keys.push_back(list.key);
  return keys;
}

}  // namespace

bool is_section(const std::string& prefix) {
  if (prefix.empty()) return true;
  const std::string start = prefix + ".";
  const std::vector<std::string> keys = all_keys();
  return std::any_of(keys.begin(), keys.end(),
                     [&](const std::string& key) { return key.rfind(start, 0) == 0; });
}

std::vector<std::string> section_keys(const std::string& prefix) {
  const std::string start = prefix.empty() ? "" : prefix + ".";
  std::vector<std::string> keys;
  for (const std::string& key : all_keys()) {
    if (key.rfind(start, 0) != 0) continue;
    const std::string rest = key.substr(start.size());
    std::string child = rest.substr(0, rest.find('.'));
    // "phases[]" of a record parameter is the record list "phases".
    if (child.size() > 2 && child.compare(child.size() - 2, 2, "[]") == 0) child.resize(child.size() - 2);
    if (std::find(keys.begin(), keys.end(), child) == keys.end()) keys.push_back(child);
  }
  return keys;
}

std::string Parameter::kind_text() const {
  switch (kind) {
    case ParamKind::kString: return "string";
    case ParamKind::kBool: return "bool";
    case ParamKind::kCount: return unit.empty() ? "count" : fmt::format("count ({})", unit);
    case ParamKind::kSize: return "size";
    case ParamKind::kTime: return "time";
    case ParamKind::kFrequency: return "frequency";
    case ParamKind::kEnum: return "enum";
    case ParamKind::kReal: return "real";
    case ParamKind::kPath: return "path";
    case ParamKind::kSizeWeights: return "size weights";
    case ParamKind::kCountWeights:
      return unit.empty() ? "count weights" : fmt::format("count weights ({})", unit);
    case ParamKind::kDeviceList: return "device list";
  }
  return "";
}

std::string Parameter::allowed_text() const {
  switch (kind) {
    case ParamKind::kString: return "any text";
    case ParamKind::kBool: return "true, false";
    case ParamKind::kEnum: return fmt::format("{}", fmt::join(names, ", "));
    case ParamKind::kReal:
      return fmt::format("{}{}, {}{}", real_min_open ? "(" : "[", real_min, real_max,
                         real_max_open ? ")" : "]");
    case ParamKind::kPath: return "an existing file, or \"\"";
    case ParamKind::kSizeWeights:
      return fmt::format("SIZE or {{SIZE: weight, ...}}, {}..{}",
                         format_with_units(unit_system(ParamKind::kSize), min),
                         format_with_units(unit_system(ParamKind::kSize), max));
    case ParamKind::kCountWeights:
      return fmt::format("COUNT or {{COUNT: weight, ...}}, {}..{}", min, max);
    case ParamKind::kDeviceList: return "[] or [N, ...] or [major:minor, ...]";
    default: break;
  }
  std::string range = max == kUnlimited ? fmt::format("{} or more", format(min))
                                        : fmt::format("{}..{}", format(min), format(max));
  if (zero_allowed) range = fmt::format("{} or {}", format(uint64_t{0}), range);
  if (multiple_of > 1) range += fmt::format(", a multiple of {}", format(multiple_of));
  return range;
}

ParamValue Parameter::parse(const std::string& text, const std::string& where,
                            const std::string& shown_key) const {
  if (shown_key == key) return parse(text, where);
  Parameter shown = *this;
  shown.key = shown_key;
  return shown.parse(text, where);
}

ParamValue Parameter::parse_entries(const std::vector<ValueEntry>& entries,
                                    const std::string& where, const std::string& shown_key) const {
  if (kind == ParamKind::kDeviceList) {
    DeviceList devices;
    for (const ValueEntry& entry : entries) {
      const uint32_t device = std::get<DeviceList>(parse(entry.value, entry.value_where,
                                                         shown_key)).front();
      if (std::find(devices.begin(), devices.end(), device) != devices.end()) {
        throw_scenario_error(entry.value_where, shown_key,
                             fmt::format("device {} is listed twice", quoted(entry.value)));
      }
      devices.push_back(device);
    }
    std::sort(devices.begin(), devices.end());
    return devices;
  }
  if (kind != ParamKind::kSizeWeights && kind != ParamKind::kCountWeights) {
    throw std::logic_error(fmt::format("parameter {} takes no map or list", key));
  }
  const bool sizes = kind == ParamKind::kSizeWeights;
  if (entries.empty() && zero_allowed) {
    return SizeWeights{};  // none given: another key's value stands (read_sizes: sizes)
  }
  if (entries.empty()) {
    throw_scenario_error(where, shown_key,
                         fmt::format("no {} given; allowed {}", sizes ? "request size" : "count",
                                     allowed_text()));
  }
  Parameter key_parameter = with_kind(sizes ? ParamKind::kSize : ParamKind::kCount, *this);
  key_parameter.key = shown_key;
  SizeWeights weights;
  for (const ValueEntry& entry : entries) {
    const uint64_t key_value =
        std::get<uint64_t>(key_parameter.parse(entry.key, entry.key_where));
    if (std::any_of(weights.begin(), weights.end(),
                    [&](const auto& known) { return known.first == key_value; })) {
      throw_scenario_error(entry.key_where, shown_key,
                           fmt::format("{} {} is given twice", sizes ? "size" : "count",
                                       key_parameter.format(key_value)));
    }
    char* end = nullptr;
    const double weight = std::strtod(entry.value.c_str(), &end);
    if (entry.value.empty() || *end != '\0' || !std::isfinite(weight) || !(weight > 0.0)) {
      throw_scenario_error(entry.value_where, shown_key,
                           fmt::format("the weight {} of {} is not a positive number",
                                       quoted(entry.value), key_parameter.format(key_value)));
    }
    weights.emplace_back(key_value, weight);
  }
  std::sort(weights.begin(), weights.end());
  return weights;
}

ParamValue Parameter::parse(const std::string& value_text, const std::string& where) const {
  const auto fail = [&](const std::string& problem) { fail_value(*this, where, problem); };

  switch (kind) {
    case ParamKind::kString: return value_text;
    case ParamKind::kPath: return value_text;
    case ParamKind::kReal: {
      // strtod alone would also take "inf", "nan" and hexadecimal.
      const bool plain = !value_text.empty() &&
                         value_text.find_first_not_of("0123456789+-.eE") == std::string::npos;
      char* end = nullptr;
      const double value = plain ? std::strtod(value_text.c_str(), &end) : 0.0;
      if (!plain || *end != '\0' || !std::isfinite(value)) {
        fail(fmt::format("{} is not a number", quoted(value_text)));
      }
      const bool below = real_min_open ? value <= real_min : value < real_min;
      const bool above = real_max_open ? value >= real_max : value > real_max;
      if (below || above) fail(fmt::format("{} is out of range", quoted(value_text)));
      return value;
    }
    case ParamKind::kSizeWeights: {
      Parameter size_parameter = with_kind(ParamKind::kSize, *this);
      return SizeWeights{{std::get<uint64_t>(size_parameter.parse(value_text, where)), 1.0}};
    }
    case ParamKind::kCountWeights: {
      Parameter count_parameter = with_kind(ParamKind::kCount, *this);
      return SizeWeights{{std::get<uint64_t>(count_parameter.parse(value_text, where)), 1.0}};
    }
    case ParamKind::kDeviceList: {
      // A number, or major:minor.
      const size_t colon = value_text.find(':');
      const auto number = [&](const std::string& digits, uint64_t max) -> uint64_t {
        if (digits.empty() || digits.size() > 10 ||
            digits.find_first_not_of("0123456789") != std::string::npos) {
          fail(fmt::format("{} is not a device number or major:minor", quoted(value_text)));
        }
        const uint64_t value = std::stoull(digits);
        if (value > max) fail(fmt::format("{} is out of range", quoted(value_text)));
        return value;
      };
      if (colon == std::string::npos) {
        return DeviceList{static_cast<uint32_t>(number(value_text, kU32Max))};
      }
      const uint64_t major = number(value_text.substr(0, colon), host::kDeviceMaxMajor);
      const uint64_t minor = number(value_text.substr(colon + 1), host::kDeviceMaxMinor);
      return DeviceList{host::device_number(static_cast<uint32_t>(major),
                                            static_cast<uint32_t>(minor))};
    }
    case ParamKind::kBool:
      if (value_text == "true") return true;
      if (value_text == "false") return false;
      fail_value(*this, where, fmt::format("{} is not a bool", quoted(value_text)));
    case ParamKind::kEnum: {
      const auto found = std::find(names.begin(), names.end(), value_text);
      if (found == names.end()) fail(fmt::format("{} is not a known name", quoted(value_text)));
      return static_cast<uint64_t>(found - names.begin());
    }
    default: break;
  }

  // Numeric kinds: digits, an optional fraction, optional spaces, then the unit.
  size_t pos = 0;
  while (pos < value_text.size() && is_digit(value_text[pos])) ++pos;
  const std::string integer_digits = value_text.substr(0, pos);
  std::string fraction_digits;
  if (pos < value_text.size() && value_text[pos] == '.' && !integer_digits.empty()) {
    const size_t start = ++pos;
    while (pos < value_text.size() && is_digit(value_text[pos])) ++pos;
    fraction_digits = value_text.substr(start, pos - start);
  }
  if (integer_digits.empty()) {
    fail(fmt::format("{} is not a {}", quoted(value_text),
                     kind == ParamKind::kCount ? "non-negative integer" : unit_system(kind).what));
  }
  while (pos < value_text.size() && value_text[pos] == ' ') ++pos;
  const std::string unit_text = value_text.substr(pos);

  uint64_t scale = 1;
  const char* base_name = "units";
  if (kind == ParamKind::kCount) {
    if (!unit_text.empty() || !fraction_digits.empty()) {
      fail(fmt::format("{} is not a non-negative integer", quoted(value_text)));
    }
  } else {
    const UnitSystem& system = unit_system(kind);
    base_name = system.base;
    const bool zero = integer_digits.find_first_not_of('0') == std::string::npos &&
                      fraction_digits.find_first_not_of('0') == std::string::npos;
    if (unit_text.empty() && system.unit_required && !zero) {
      fail(fmt::format("{} needs a unit ({})", quoted(value_text), unit_names(system)));
    }
    if (!unit_text.empty()) {
      const auto unit = std::find_if(system.units.begin(), system.units.end(),
                                     [&](const Unit& u) { return unit_text == u.name; });
      if (unit == system.units.end()) {
        fail(fmt::format("{} has an unknown unit {} (units: {})", quoted(value_text),
                         quoted(unit_text), unit_names(system)));
      }
      scale = unit->scale;
    }
  }

  // Exact decimal arithmetic: value = (integer + fraction / 10^d) * scale must be whole.
  const std::string significant_integer =
      integer_digits.substr(std::min(integer_digits.find_first_not_of('0'), integer_digits.size()));
  std::string significant_fraction = fraction_digits;
  significant_fraction.erase(significant_fraction.find_last_not_of('0') + 1);
  const std::string shown = quoted(value_text);
  if (significant_integer.size() > kMaxIntegerDigits) {
    fail(fmt::format("{} is out of range", shown));
  }
  if (significant_fraction.size() > kMaxFractionDigits) {
    fail(fmt::format("{} is not a whole number of {}", shown, base_name));
  }
  unsigned __int128 integer = 0;
  for (const char c : significant_integer) integer = integer * 10 + (c - '0');
  unsigned __int128 fraction = 0;
  unsigned __int128 fraction_scale = 1;
  for (const char c : significant_fraction) {
    fraction = fraction * 10 + (c - '0');
    fraction_scale *= 10;
  }
  const unsigned __int128 fraction_value = fraction * scale;
  if (fraction_value % fraction_scale != 0) {
    fail(fmt::format("{} is not a whole number of {}", shown, base_name));
  }
  const unsigned __int128 total = integer * scale + fraction_value / fraction_scale;
  if (total > kUnlimited) fail(fmt::format("{} is out of range", shown));
  const uint64_t value = static_cast<uint64_t>(total);

  if (!(value == 0 && zero_allowed) && (value < min || value > max)) {
    fail(fmt::format("{} is out of range", shown));
  }
  if (value % multiple_of != 0) {
    fail(fmt::format("{} is not a multiple of {}", shown, format(multiple_of)));
  }
  return value;
}

std::string Parameter::format(const ParamValue& value) const {
  switch (kind) {
    case ParamKind::kString: return std::get<std::string>(value);
    case ParamKind::kPath: return std::get<std::string>(value);
    case ParamKind::kReal: return fmt::format("{}", std::get<double>(value));
    case ParamKind::kSizeWeights: {
      std::vector<std::string> entries;
      for (const auto& [size, weight] : std::get<SizeWeights>(value)) {
        entries.push_back(fmt::format("{}: {}", format_with_units(unit_system(ParamKind::kSize),
                                                                  size), weight));
      }
      return fmt::format("{{{}}}", fmt::join(entries, ", "));
    }
    case ParamKind::kCountWeights: {
      std::vector<std::string> entries;
      for (const auto& [count, weight] : std::get<SizeWeights>(value)) {
        entries.push_back(fmt::format("{}: {}", count, weight));
      }
      return fmt::format("{{{}}}", fmt::join(entries, ", "));
    }
    case ParamKind::kDeviceList: {
      std::vector<std::string> devices;
      for (const uint32_t device : std::get<DeviceList>(value)) {
        devices.push_back(device <= host::kDeviceMaxMinor
                              ? std::to_string(device)
                              : fmt::format("{}:{}", device >> host::kDeviceMinorBits,
                                            device & host::kDeviceMaxMinor));
      }
      return fmt::format("[{}]", fmt::join(devices, ", "));
    }
    case ParamKind::kBool: return std::get<bool>(value) ? "true" : "false";
    case ParamKind::kEnum: return names.at(std::get<uint64_t>(value));
    case ParamKind::kCount: return std::to_string(std::get<uint64_t>(value));
    default: return format_with_units(unit_system(kind), std::get<uint64_t>(value));
  }
}

nlohmann::json Parameter::to_json(const ParamValue& value) const {
  switch (kind) {
    case ParamKind::kBool: return std::get<bool>(value);
    case ParamKind::kCount: return std::get<uint64_t>(value);
    case ParamKind::kReal: return std::get<double>(value);
    case ParamKind::kSizeWeights: {
      nlohmann::json weights = nlohmann::json::object();
      for (const auto& [size, weight] : std::get<SizeWeights>(value)) {
        weights[format_with_units(unit_system(ParamKind::kSize), size)] = weight;
      }
      return weights;
    }
    case ParamKind::kCountWeights: {
      nlohmann::json weights = nlohmann::json::object();
      for (const auto& [count, weight] : std::get<SizeWeights>(value)) {
        weights[std::to_string(count)] = weight;
      }
      return weights;
    }
    case ParamKind::kDeviceList: {
      nlohmann::json devices = nlohmann::json::array();
      for (const uint32_t device : std::get<DeviceList>(value)) {
        if (device <= host::kDeviceMaxMinor) {
          devices.push_back(device);
        } else {
          devices.push_back(fmt::format("{}:{}", device >> host::kDeviceMinorBits,
                                        device & host::kDeviceMaxMinor));
        }
      }
      return devices;
    }
    default: return format(value);
  }
}

namespace {

FieldRef field_of(const Parameter& p, Scenario& scenario, const RecordIndices& indices) {
  return p.is_record_parameter() ? p.record_field(scenario, indices) : p.field(scenario);
}

}  // namespace

void Parameter::store(Scenario& scenario, const ParamValue& value,
                      const RecordIndices& indices) const {
  std::visit(
      [&](auto* target) {
        using Target = std::remove_pointer_t<decltype(target)>;
        if constexpr (std::is_same_v<Target, std::string>) {
          // An enum may live in a string field as its name.
          *target = kind == ParamKind::kEnum ? names.at(std::get<uint64_t>(value))
                                             : std::get<std::string>(value);
        } else if constexpr (std::is_same_v<Target, SizeWeights>) {
          // The shorthand `size` writes one size of weight 1.
          *target = kind == ParamKind::kSize ? SizeWeights{{std::get<uint64_t>(value), 1.0}}
                                             : std::get<SizeWeights>(value);
        } else if constexpr (std::is_same_v<Target, bool> || std::is_same_v<Target, double> ||
                             std::is_same_v<Target, DeviceList>) {
          *target = std::get<Target>(value);
        } else {
          // parse() checked the value against max, which the registry checked fits the field.
          *target = static_cast<Target>(std::get<uint64_t>(value));
        }
      },
      field_of(*this, scenario, indices));
}

ParamValue Parameter::read(const Scenario& scenario, const RecordIndices& indices) const {
  // The binding hands out a mutable pointer; here it is only read.
  return std::visit(
      [&](auto* source) -> ParamValue {
        using Source = std::remove_pointer_t<decltype(source)>;
        if constexpr (std::is_same_v<Source, std::string>) {
          if (kind != ParamKind::kEnum) return *source;
          const auto found = std::find(names.begin(), names.end(), *source);
          if (found == names.end()) {
            throw std::logic_error(fmt::format("{} holds '{}', not one of its names", key,
                                               *source));
          }
          return static_cast<uint64_t>(found - names.begin());
        } else if constexpr (std::is_same_v<Source, SizeWeights>) {
          if (kind != ParamKind::kSize) return *source;
          if (source->size() != 1) {
            throw std::logic_error(fmt::format("{} reads a single request size only", key));
          }
          return source->front().first;
        } else if constexpr (std::is_same_v<Source, bool> || std::is_same_v<Source, double> ||
                             std::is_same_v<Source, DeviceList>) {
          return *source;
        } else {
          return static_cast<uint64_t>(*source);
        }
      },
      field_of(*this, const_cast<Scenario&>(scenario), indices));
}

}  // namespace ssdvp
