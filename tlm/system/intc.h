// The interrupt controller (interface/intc_regs.h), a reduced PLIC: level-sensitive device lines
// pass a gateway into pending bits, each hart enables the sources it serves, claims the
// lowest-numbered one and completes it. A hart's machine external interrupt (MEIP) is high while
// it has a claimable source (pending and enabled for it).
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/bus/register_bank.h"
#include "tlm/system/interrupt_sink.h"

namespace ssdvp {

class Intc : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Intc> socket;

  Intc(sc_core::sc_module_name name, uint32_t hart_count);

  // Drives the hart's kMeip input. Every hart must be connected before simulation.
  void connect(uint32_t hart, InterruptSink& sink);

  // Power-on reset: nothing enabled, pending or in service; the lines keep the levels their
  // devices drive (a line still high pends again).
  void reset();

  // A device line. Throws std::runtime_error for source 0 or >= IRQ_SRC_COUNT.
  void set_line(unsigned source, bool level);

  uint32_t pending() const { return pending_; }
  uint32_t in_service() const { return in_service_; }
  uint32_t levels() const { return levels_; }
  uint32_t enables(uint32_t hart) const { return harts_.at(hart).enables; }

 private:
  struct HartContext {
    InterruptSink* sink = nullptr;
    uint32_t enables = 0;
    bool meip = false;
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  void end_of_elaboration() override;

  uint32_t claim(uint32_t hart);
  void complete(uint32_t hart, uint32_t source);
  void update_meip();

  uint32_t levels_ = 0;
  uint32_t pending_ = 0;
  uint32_t in_service_ = 0;  // claimed and not yet completed: the gateway holds them back
  std::vector<HartContext> harts_;
  RegisterBank registers_;
};

}  // namespace ssdvp
