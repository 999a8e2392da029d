// The Verilated RQRMI accelerator (rtl/rqrmi_accel.v) and its clock, without SystemC: register
// accesses of one cycle each, jobs stepped in a tight loop, the search's memory requests served
// through a MemoryPort, and an optional full signal dump. The TLM target (accel.h) and the RTL
// tests drive it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

class Vrqrmi_accel;
class VerilatedContext;
class VerilatedVcdC;

namespace ssdvp {

class AccelRtl {
 public:
  // The straps: configured sizes, up to the hardware's maxima (interface/accel_regs.h).
  struct Sizes {
    uint32_t submodel_capacity = 0;
    uint32_t key_depth = 0;
    uint32_t result_depth = 0;
  };

  // Where the search reads the range array.
  class MemoryPort {
   public:
    virtual ~MemoryPort() = default;
    // Reads the 32-bit word at `address`; false for a bus error. `cycles` is the read's latency
    // in accelerator cycles (at least 1: the data is there on the cycle after the request).
    virtual bool read_word(uint32_t address, uint32_t& data, uint64_t& cycles) = 0;
  };

  // The outputs a waveform shows, after a cycle.
  struct Activity {
    bool busy = false;
    bool stalled = false;
    bool irq = false;
    uint32_t key_level = 0;
    uint32_t result_level = 0;
  };

  // Resets the model. Throws std::invalid_argument naming the size out of range.
  AccelRtl(const Sizes& sizes, MemoryPort& memory);
  ~AccelRtl();
  AccelRtl(const AccelRtl&) = delete;
  AccelRtl& operator=(const AccelRtl&) = delete;

  // A power-on reset: rst held for two cycles, as at construction, and no memory read pending.
  // The cycle count goes on. The weight memory has no reset: it keeps whatever it held.
  void reset();

  // One register access: one clock cycle.
  uint32_t read(uint32_t offset);
  void write(uint32_t offset, uint32_t value);
  // The register's value without a clock edge, so without side effects (a debugger's read).
  uint32_t peek(uint32_t offset);

  // Steps the clock while a job runs and is not stalled; returns the cycles stepped. Throws
  // std::runtime_error if a job does not end within `cycle_limit` cycles.
  uint64_t run(uint64_t cycle_limit);

  bool running() const;  // a job runs and can make progress
  Activity activity() const;
  uint64_t cycles() const { return cycles_; }  // clock cycles since reset
  uint64_t memory_reads() const { return memory_reads_; }

  // Called after every cycle with the cycle count and the outputs (waveforms, interrupts).
  void on_cycle(std::function<void(uint64_t cycle, const Activity&)> callback);
  // Writes every RTL signal to a VCD file, for the cycles starting in [start_ps, end_ps) (end 0:
  // no end); `time_ps(cycle)` is the time at which a cycle starts. Throws std::runtime_error if
  // the file cannot be opened.
  void trace(const std::string& path, std::function<uint64_t(uint64_t cycle)> time_ps,
             uint64_t start_ps, uint64_t end_ps);

 private:
  void step();
  bool in_trace_window() const;

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vrqrmi_accel> top_;
  std::unique_ptr<VerilatedVcdC> trace_;
  std::function<uint64_t(uint64_t)> trace_time_;
  uint64_t trace_start_ps_ = 0;
  uint64_t trace_end_ps_ = 0;
  std::function<void(uint64_t, const Activity&)> on_cycle_;
  MemoryPort& memory_;
  uint64_t cycles_ = 0;
  uint64_t memory_reads_ = 0;
  bool response_pending_ = false;
  uint64_t response_cycle_ = 0;  // the cycle count after the step that delivers the data
  uint32_t response_data_ = 0;
  bool response_error_ = false;
  uint32_t bus_rdata_ = 0;
};

}  // namespace ssdvp
