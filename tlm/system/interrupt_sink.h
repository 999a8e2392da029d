// What an interrupt source (CLINT, interrupt controller) drives: one hart's machine interrupt
// inputs. Implemented by the hart (cpu_tlm.h) and by test stand-ins.
#pragma once

#include <cstdint>

namespace ssdvp {

class InterruptSink {
 public:
  virtual ~InterruptSink() = default;
  // bit is one of cpu::InterruptBit (kMsip, kMtip, kMeip). May be called from inside any
  // model's b_transport, including the hart's own.
  virtual void set_interrupt(uint32_t bit, bool level) = 0;
};

}  // namespace ssdvp
