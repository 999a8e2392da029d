// The system controller (interface/sysctrl_regs.h): console output, run exit, simulated time,
// boot-config address, hart count, a scratch register, the firmware's fault report, and the
// power: the reset cause and boot count, the power-fail status (interrupt line IRQ_SRC_POWER_FAIL)
// and the firmware's "ready to lose power".
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/bus/register_bank.h"

namespace ssdvp {

class Sysctrl : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Sysctrl> socket;

  // Console bytes go to `console` (nullable: not echoed), written a line at a time.
  Sysctrl(sc_core::sc_module_name name, uint32_t hart_count, std::ostream* console);
  ~Sysctrl() override;

  // Called when the firmware writes EXIT (with the code as a signed value) or FAULT (with the
  // hart id it wrote). Both happen inside the writing hart's bus access.
  void on_exit(std::function<void(int32_t code)> handler) { exit_handler_ = std::move(handler); }
  void on_fault(std::function<void(uint32_t hart)> handler) { fault_handler_ = std::move(handler); }

  // The power-fail interrupt line (level: SYSCTRL_POWER_STATUS_FAIL) and the firmware's write of
  // SYSCTRL_POWER_READY (inside the writing hart's bus access, with its time).
  void connect_power_fail(std::function<void(bool level)> line) { power_fail_line_ = std::move(line); }
  void on_power_ready(std::function<void(const sc_core::sc_time& at)> handler) {
    power_ready_handler_ = std::move(handler);
  }
  // The supply failed with power-loss protection: raises SYSCTRL_POWER_STATUS_FAIL.
  void power_fail();
  // The power is cut: the power-fail status (and its line) falls with the supply.
  void power_cut() { set_power_status(0); }
  // The power came back: registers at their reset values (the console keeps its text), then
  // this boot's count (1 for the first) and reset cause (SYSCTRL_RESET_CAUSE_*).
  void power_on(uint32_t boot_count, uint32_t reset_cause);

  // What was written to CONSOLE_TX: everything, or at least its last kConsoleKeptBytes bytes.
  const std::string& console_text() const { return console_text_; }
  // Writes out a console line still missing its newline (at the end of a run).
  void flush_console();

  // Bounds host memory for a chatty firmware; tests look at the tail only.
  static constexpr size_t kConsoleKeptBytes = 1 << 20;
  // A line with no newline is written out at this length so it cannot grow without bound.
  static constexpr size_t kConsoleLineBytes = 4096;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  void console_byte(uint8_t byte);
  void set_power_status(uint32_t status);
  uint64_t time_ns(const sc_core::sc_time& delay) const;

  RegisterBank registers_;
  std::ostream* console_;
  std::string console_line_;
  std::string console_text_;
  uint32_t latched_time_hi_ = 0;
  std::function<void(int32_t)> exit_handler_;
  std::function<void(uint32_t)> fault_handler_;
  std::function<void(bool)> power_fail_line_;
  std::function<void(const sc_core::sc_time&)> power_ready_handler_;
  uint32_t power_status_ = 0;
};

}  // namespace ssdvp
