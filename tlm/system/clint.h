// The core-local interruptor (interface/clint_regs.h): a free-running mtime at the scenario's
// timebase, one mtimecmp and one msip per hart. mtime is derived from SystemC time, not ticked:
// the timer interrupt of a hart is raised by an event scheduled at the exact time mtime reaches
// its mtimecmp.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/bus/register_bank.h"
#include "tlm/system/interrupt_sink.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {

class Clint : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Clint> socket;

  Clint(sc_core::sc_module_name name, uint32_t hart_count, uint64_t timebase_hz);

  // Drives the hart's kMtip and kMsip inputs. Every hart must be connected before simulation.
  void connect(uint32_t hart, InterruptSink& sink);

  // Power-on reset: mtime starts again at 0 now, no timer is armed, no software interrupt.
  void reset();

  // mtime at absolute simulated time `at` (at >= the current time).
  uint64_t mtime(const sc_core::sc_time& at) const;
  uint64_t mtimecmp(uint32_t hart) const { return harts_.at(hart).mtimecmp; }

 private:
  struct HartTimer {
    InterruptSink* sink = nullptr;
    uint64_t mtimecmp = UINT64_MAX;  // reset: never fires
    bool mtip = false;
    bool msip = false;
    std::unique_ptr<sc_core::sc_event> deadline;  // mtime reaches mtimecmp
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  void end_of_elaboration() override;
  void deadline_method();

  void write_mtime(uint64_t value, const sc_core::sc_time& at);
  void write_mtimecmp(uint32_t hart, uint64_t value, const sc_core::sc_time& at);
  // Sets the hart's MTIP level for time `at` and schedules the deadline event when it is low.
  void evaluate(uint32_t hart, const sc_core::sc_time& at);

  Clock timebase_;
  uint64_t mtime_offset_ = 0;  // mtime = timebase cycles since time 0 + offset, modulo 2^64
  std::vector<HartTimer> harts_;
  RegisterBank registers_;
};

}  // namespace ssdvp
