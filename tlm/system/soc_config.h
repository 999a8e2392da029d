// Typed configuration of the SoC, resolved from the scenario. The initial values here are the
// platform's defaults; tb/scenario/parameters.cpp binds every field to its scenario key with its
// unit, range and description, and `ssdsim --list-params` prints them.
#pragma once

#include <cstdint>
#include <string>

#include "boot_config.h"
#include "tlm/cpu/cpu_if.h"

namespace ssdvp {

struct CpuConfig {
  uint32_t harts = 1;
  uint64_t clock_hz = 800'000'000;
  uint64_t timebase_hz = 100'000'000;     // CLINT mtime rate
  uint64_t quantum_ps = 1'000'000;        // temporal-decoupling quantum
  uint32_t stack_bytes_per_hart = 8192;
  cpu::InstructionCosts cost;
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

struct FirmwareConfig {
  std::string elf;  // empty: the firmware built with the simulator
  uint32_t scheme = BOOT_SCHEME_DFTL;
};

struct SimConfig {
  uint64_t seed = 1;
  uint64_t max_time_ps = 0;        // 0 = no limit
  uint64_t max_instructions = 0;   // 0 = no limit
};

struct SocConfig {
  CpuConfig cpu;
  RomConfig rom;
  SramConfig sram;
  DramConfig dram;
  FirmwareConfig firmware;
  SimConfig sim;
};

}  // namespace ssdvp
