// The RQRMI accelerator on the bus: a TLM target around the Verilated RTL (accel_rtl.h), with a
// DMA initiator for the search's range-array reads and the interrupt line IRQ_SRC_ACCEL.
//
// Time: the RTL runs only inside register accesses. Each access is one accelerator cycle at the
// access time (or when the accelerator is free again); an access after which a job can run
// (ACCEL_START, or a result popped from a full FIFO) steps the clock in a tight loop until the
// job ends or stalls, and the access's annotated delay covers all those cycles. The interrupt
// line changes at the time of the cycle in which the RTL changed it. The DMA reads' delays become
// the search's memory latency, in whole accelerator cycles.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/accel/accel_area.h"
#include "tlm/accel/accel_rtl.h"
#include "tlm/bus/register_bank.h"
#include "tlm/system/sim_time.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {

class Accel : public sc_core::sc_module, private AccelRtl::MemoryPort {
 public:
  tlm_utils::simple_target_socket<Accel> socket;         // registers, at MM_ACCEL_BASE
  tlm_utils::simple_initiator_socket<Accel> dma_socket;  // range-array reads, to the router

  // Throws std::runtime_error naming the accel.* key of a size out of range, an RTL dump that
  // cannot be written or an area report that cannot be read. `area_model` prices the synthesis
  // and the memories. `waves` is nullable.
  Accel(sc_core::sc_module_name name, const AccelConfig& config, const AreaModel& area_model,
        WaveWriter* waves);
  ~Accel() override;

  // The interrupt line; called with each level change, at its simulated time.
  void connect_interrupt(std::function<void(bool level)> line) { line_ = std::move(line); }

  // The power is cut now: the RTL is reset (AccelRtl::reset), its coming interrupt changes are
  // dropped and the line falls. The statistics stay.
  void power_cut();

  // Cycles, jobs, keys, memory reads, configured sizes and the area estimate.
  void report(nlohmann::json& out) const;
  const AccelArea& area() const { return area_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  uint32_t access(uint32_t offset, std::optional<uint32_t> written, sc_core::sc_time& delay);
  bool read_word(uint32_t address, uint32_t& data, uint64_t& cycles) override;
  uint64_t cycle_ps(uint64_t cycle) const;
  void record_cycle(uint64_t cycle, const AccelRtl::Activity& activity);
  void interrupt_method();

  AccelConfig config_;
  Clock clock_;
  AccelArea area_;
  std::unique_ptr<AccelRtl> rtl_;
  RegisterBank registers_;
  WaveWriter* waves_;
  std::optional<WaveWriter::SignalId> state_signal_;
  std::optional<WaveWriter::SignalId> key_level_signal_;
  std::optional<WaveWriter::SignalId> result_level_signal_;
  AccelRtl::Activity shown_;  // last values written to the waveform

  // Cycle `anchor_cycle_` started at `anchor_ps_`; later cycles follow at the accelerator clock.
  uint64_t anchor_ps_ = 0;
  uint64_t anchor_cycle_ = 0;

  std::function<void(bool)> line_;
  bool irq_ = false;
  std::deque<std::pair<uint64_t, bool>> irq_changes_;  // (time in ps, level), in time order
  sc_core::sc_event irq_event_;

  uint64_t jobs_ = 0;
  uint64_t keys_ = 0;
  bool busy_ = false;
  uint64_t busy_cycles_ = 0;
};

}  // namespace ssdvp
