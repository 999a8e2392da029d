// Typed configuration of the SoC, resolved from the scenario. The initial values here are the
// platform's defaults; tb/scenario/parameters.cpp binds every field to its scenario key with its
// unit, range and description, and `ssdsim --list-params` prints them.
#pragma once

#include <cstdint>
#include <string>

#include "boot_config.h"
#include "tlm/cpu/cpu_if.h"
#include "tlm/host/workload.h"  // workload phases and streams (host model)

namespace ssdvp {

struct CpuConfig {
  uint32_t harts = 1;
  uint64_t clock_hz = 800'000'000;
  uint64_t timebase_hz = 100'000'000;     // CLINT mtime rate
  uint64_t quantum_ps = 1'000'000;        // temporal-decoupling quantum
  uint32_t stack_bytes_per_hart = 8192;
  cpu::InstructionCosts cost;
  bool translate = true;  // the translating back end where the host has one (same results)
};

struct RomConfig {
  uint64_t size_bytes = 256 * 1024;
  uint32_t latency_cycles = 1;
};

struct SramConfig {
  uint64_t size_bytes = 1024 * 1024;
  uint32_t latency_cycles = 1;
};

struct DramConfig {
  uint64_t size_bytes = 0;  // 0 = absent
  uint64_t latency_ps = 60'000;
};

// ---- Firmware: the image, and every key the firmware reads (interface/firmware_params.def) ----
// One field per key, named like its boot-config word, initialised with its default. Times are
// in picoseconds here (field_ps; the boot word field_ns), reals are doubles, text keys strings.
struct FirmwareParams {
#define FW_PARAM_CHOICE(field, key, names, default_value, meaning) uint32_t field = default_value;
#define FW_PARAM_FLAG(field, key, default_value, meaning) bool field = default_value;
#define FW_PARAM_COUNT(field, key, unit, min, max, options, default_value, meaning) \
  uint32_t field = default_value;
#define FW_PARAM_SIZE(field, key, min, max, options, default_value, meaning) \
  uint32_t field = default_value;
#define FW_PARAM_TIME(field, key, min_ns, max_ns, options, default_ns, meaning) \
  uint64_t field##_ps = uint64_t{default_ns} * 1000;
#define FW_PARAM_REAL(field, key, min, max, default_value, meaning) double field = default_value;
#define FW_PARAM_TEXT(field, key, encoder, default_value, meaning) \
  std::string field = default_value;
#include "firmware_params.def"
};

struct FirmwareConfig {
  std::string elf;  // empty: the firmware built with the simulator (the product FTL)
  FirmwareParams params;
};

struct SimConfig {
  uint64_t seed = 1;
  uint64_t max_time_ps = 0;        // 0 = no limit
  uint64_t max_instructions = 0;   // 0 = no limit
};

// ---- NAND flash (nand_model) ------------------------------------------------------------------
// Timing defaults: the RL full-sequence-program QLC paper (shared/papers 002, Table I and Fig. 1)
// gives tR per page type 90/120/150/180 us, one FSP program 1.3 ms, erase 10 ms, erase limit
// 500 and 8 KB pages. It is silent on the bus, command cycles, OOB and ECC: those defaults are
// typical of a modern QLC part (ONFI 4.x / Toggle NV-DDR3 class interface, 8 bits at 1200 MT/s).
// The geometry default is a small QLC device, the one the default scenario runs.
enum class NandCell : uint32_t { kSlc = 0, kMlc = 1, kTlc = 2, kQlc = 3 };  // bits per cell - 1

struct NandConfig {
  uint32_t channels = 2;
  uint32_t ways = 2;            // chips per channel
  uint32_t dies = 1;            // dies per chip
  uint32_t planes = 2;          // planes per die
  uint32_t blocks = 256;        // blocks per plane
  uint32_t pages = 64;          // pages per block (16 QLC wordlines)
  uint32_t page_bytes = 8192;   // paper: 8 KB
  uint32_t oob_bytes = 128;     // LeaFTL paper: OOB "usually 128-256 bytes in modern SSDs"
  uint32_t cell = static_cast<uint32_t>(NandCell::kQlc);
  // Array busy times. tR per page type in wordline order; SLC uses lsb, MLC lsb/clsb, TLC three.
  uint64_t read_lsb_ps = 90'000'000;     // paper
  uint64_t read_clsb_ps = 120'000'000;   // paper
  uint64_t read_cmsb_ps = 150'000'000;   // paper
  uint64_t read_msb_ps = 180'000'000;    // paper
  uint64_t program_ps = 1'300'000'000;   // paper: one full-sequence program of a wordline
  uint64_t erase_ps = 10'000'000'000;    // paper
  // Channel bus (typical): command/address cycles per plane address, and the data rate.
  uint32_t cmd_addr_cycles = 7;          // command, 5 address cycles, confirm
  uint64_t cmd_cycle_ps = 5'000;
  uint32_t bus_rate_mts = 1200;          // mega-transfers per second
  uint32_t bus_width_bits = 8;
  // Reliability.
  uint32_t endurance = 500;              // paper: erase limit (P/E cycles per block)
  uint32_t bad_block_ppm = 0;            // factory bad blocks per million (parts allow ~20000)
  std::string bad_blocks;                // explicit factory bad blocks "ch:way:die:plane:block,..."
  uint32_t ecc_fail_ppm = 0;             // fault injection: uncorrectable page reads per million
  uint32_t program_fail_ppm = 0;         // fault injection: failed programs per million
  uint32_t erase_fail_ppm = 0;           // fault injection: failed erases per million
};

// ---- NAND flash controller (tlm/nfc) ----------------------------------------------------------
struct NfcConfig {
  uint64_t ecc_decode_ps = 2'000'000;    // typical LDPC hard decode of one page, per channel
  uint32_t dma_bandwidth_mbs = 8000;     // typical AXI DMA (128 bits at 500 MHz), MB/s
  uint64_t queue_sample_ps = 1'000'000'000;  // queue-depth series interval (0 = none)
};

// ---- Host interface (tlm/host: the link, the HIC, the host model and its oracle) ------------
enum class HostLinkType : uint32_t { kPcie = 0, kUfs = 1 };

struct HostLinkConfig {
  uint32_t type = static_cast<uint32_t>(HostLinkType::kPcie);
  uint32_t pcie_gen = 4;           // 1..5: 2.5, 5, 8, 16, 32 GT/s per lane
  uint32_t ufs_gear = 4;           // HS-G1..G5 (rate series B)
  uint32_t lanes = 4;              // PCIe 1, 2, 4, 8, 16; UFS 1, 2
  uint64_t latency_ps = 300'000;   // fixed one-way latency each transfer adds
};

// Power losses (tlm/system/power_schedule.h turns these into the run's cuts).
struct PowerLossConfig {
  std::string at;              // cuts at these simulated times: "2ms, 7.5ms" ("" = none)
  std::string after_commands;  // cuts when the host has completed this many commands: "500, 2000"
  uint32_t random = 0;         // cuts at times drawn from the seed in [random_start, random_end)
  uint64_t random_start_ps = 0;
  uint64_t random_end_ps = 0;
  uint64_t off_ps = 1'000'000'000;  // how long the power stays off (1 ms)
};

struct HostConfig {
  // Bytes the host may address; 0: derived from the NAND, floor(physical pages x (1 - ftl.op))
  // pages of host.page_size (Soc resolves it).
  uint64_t capacity_bytes = 0;
  uint32_t sector_bytes = 512;     // host sector (LBA) size
  uint32_t page_bytes = 0;         // logical page: one LPN; 0: the NAND page size
  uint32_t max_commands = 128;     // HIC command slots the firmware may hold at once
  HostLinkConfig link;
  bool oracle = true;              // check every read against the versions written
  // The device has power-loss protection (ftl.plp > 0): the oracle guarantees every completed
  // write at once. Derived by the SoC, not a scenario key.
  bool power_loss_protection = false;
  uint64_t stats_interval_ps = 1'000'000'000;  // timeseries.csv interval
  PowerLossConfig power_loss;
};

// ---- RQRMI accelerator (rtl/, tlm/accel) ------------------------------------------------------
// Sizes are strapped into RTL built for the maxima of interface/accel_regs.h.
struct AccelConfig {
  bool present = false;
  uint64_t clock_hz = 800'000'000;
  uint32_t submodel_capacity = 64;  // weight memory: 80-byte submodel records
  uint32_t key_fifo_depth = 16;
  uint32_t result_fifo_depth = 16;
  std::string rtl_vcd;              // full RTL signal dump ("" = none)
  uint64_t rtl_vcd_start_ps = 0;    // its time window
  uint64_t rtl_vcd_end_ps = 0;      // 0 = until the end of the run
};

// ---- Silicon area (rtl/area_model.yaml, tlm/system/controller_area.h) ------------------------
struct AreaConfig {
  std::string node = "28nm";  // technology node: one of the area model's `nodes`
};

struct SocConfig {
  CpuConfig cpu;
  RomConfig rom;
  SramConfig sram;
  DramConfig dram;
  FirmwareConfig firmware;
  SimConfig sim;
  NandConfig nand;
  NfcConfig nfc;
  host::WorkloadConfig workload;  // what the host model runs; no phases: it issues nothing
  HostConfig host;
  AccelConfig accel;
  AreaConfig area;
};

}  // namespace ssdvp
