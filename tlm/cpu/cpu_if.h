// Boundaries of the RISC-V core: what it needs from the outside world (a bus, direct memory
// regions) and how it is timed. The core itself (rv_core.h) uses no SystemC, so unit tests drive
// it with a plain C++ bus; the SystemC wrapper (cpu_tlm.h) implements the same interface over TLM.
#pragma once

#include <cstdint>

namespace ssdvp::cpu {

// A memory the core may access directly (DMI): host pointer plus latency in core cycles.
struct DirectRegion {
  uint32_t base = 0;
  uint32_t size = 0;  // 0 = no region
  uint8_t* host = nullptr;
  uint32_t read_cycles = 0;
  uint32_t write_cycles = 0;
  bool readable = false;
  bool writable = false;
  bool executable = false;

  bool contains(uint32_t addr, uint32_t len) const {
    return size != 0 && addr - base < size && size - (addr - base) >= len;
  }
};

// What the core sees of the bus.
class BusInterface {
 public:
  virtual ~BusInterface() = default;
  // Slow path for addresses not covered by a direct region. len is 1, 2 or 4 and the access is
  // aligned. Returns false on an address error (the core raises an access fault). extra_cycles
  // receives the access latency in core cycles.
  virtual bool read(uint32_t addr, void* data, uint32_t len, uint64_t& extra_cycles) = 0;
  virtual bool write(uint32_t addr, const void* data, uint32_t len, uint64_t& extra_cycles) = 0;
  // The direct region containing addr; when direct access is refused, the refused range with a
  // null host pointer (the core then takes the slow path for it without asking again until
  // invalidate_direct_regions), or a region with size 0 when the bus says nothing.
  virtual DirectRegion direct_region(uint32_t addr) = 0;
};

// Cycle cost of each instruction class for a simple in-order core (scenario: cpu.cost.*).
// Loads and stores add the target memory's latency on top of their class cost (flw and fsw
// included). The floating-point defaults are those of a simple embedded single-precision FPU,
// the Cortex-M4F's: add/sub/mul/convert/compare/move 1 cycle, fused multiply-add 3, divide and
// square root 14 (iterative). Every cost but `misaligned` is at least 1 (Core checks it).
struct InstructionCosts {
  uint32_t alu = 1;
  uint32_t branch_taken = 3;
  uint32_t branch_not_taken = 1;
  uint32_t jump = 2;
  uint32_t load = 1;
  uint32_t store = 1;
  uint32_t mul = 3;
  uint32_t div = 34;
  uint32_t csr = 2;
  uint32_t atomic = 4;
  uint32_t fence = 1;
  uint32_t misaligned = 2;  // extra per split access
  uint32_t trap = 4;        // trap entry and mret
  uint32_t fpu = 1;         // float add, sub, mul, conversions, compares, sign injection, moves
  uint32_t fdiv = 14;
  uint32_t fsqrt = 14;
  uint32_t fma = 3;         // fmadd, fmsub, fnmsub, fnmadd
};

// Machine interrupt pending bits (mip) the platform drives.
enum InterruptBit : uint32_t {
  kMsip = 1u << 3,
  kMtip = 1u << 7,
  kMeip = 1u << 11,
};

// Why Core::run returned.
enum class StopReason {
  kBudget,     // the cycle budget is used up
  kWfi,        // executed WFI with no enabled interrupt pending: sleep until one arrives
  kHalt,       // request_stop() was called (e.g. an exit register or tohost was written)
  kTrapLoop,   // the same exception again at the same pc with no instruction retired in
               // between (a handler that faults at once, a trap vector that cannot be fetched):
               // the hart can never go on, a firmware fault
};

}  // namespace ssdvp::cpu
