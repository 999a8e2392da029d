#include "tlm/system/sysctrl.h"

#include <ostream>

#include "interface/memory_map.h"
#include "interface/sysctrl_regs.h"
#include "tlm/system/log.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {

using Access = RegisterBank::Access;

Sysctrl::Sysctrl(sc_core::sc_module_name name, uint32_t hart_count, std::ostream* console)
    : sc_core::sc_module(name), socket("socket"), registers_(this->name()), console_(console) {
  registers_.add(SYSCTRL_ID, "id", SYSCTRL_ID_VALUE, Access::kReadOnly);
  registers_.add(SYSCTRL_CONSOLE_TX, "console_tx", 0, Access::kWriteOnly, {},
                 [this](uint32_t value, sc_core::sc_time&) { console_byte(value & 0xFFu); });
  registers_.add(SYSCTRL_EXIT, "exit", 0, Access::kWriteOnly, {},
                 [this](uint32_t value, sc_core::sc_time&) {
                   const auto code = static_cast<int32_t>(value);
                   log::info(*this, "firmware exit with code {}", code);
                   if (exit_handler_) exit_handler_(code);
                 });
  registers_.add(SYSCTRL_TIME_LO, "time_lo", 0, Access::kReadOnly,
                 [this](sc_core::sc_time& delay) {
                   const uint64_t ns = time_ns(delay);
                   latched_time_hi_ = static_cast<uint32_t>(ns >> 32);
                   return static_cast<uint32_t>(ns);
                 });
  registers_.add(SYSCTRL_TIME_HI, "time_hi", 0, Access::kReadOnly,
                 [this](sc_core::sc_time&) { return latched_time_hi_; });
  registers_.add(SYSCTRL_BOOT_CONFIG, "boot_config", MM_BOOT_CONFIG_ADDR, Access::kReadOnly);
  registers_.add(SYSCTRL_HART_COUNT, "hart_count", hart_count, Access::kReadOnly);
  registers_.add(SYSCTRL_SCRATCH, "scratch", 0, Access::kReadWrite);
  registers_.add(SYSCTRL_FAULT, "fault", 0, Access::kWriteOnly, {},
                 [this](uint32_t hart, sc_core::sc_time&) {
                   log::error(*this, "firmware reports a fault on hart {}", hart);
                   if (fault_handler_) fault_handler_(hart);
                 });
  registers_.add(SYSCTRL_RESET_CAUSE, "reset_cause", SYSCTRL_RESET_CAUSE_POWER_ON,
                 Access::kReadOnly);
  registers_.add(SYSCTRL_BOOT_COUNT, "boot_count", 1, Access::kReadOnly);
  registers_.add(SYSCTRL_POWER_STATUS, "power_status", 0, Access::kReadWrite,
                 [this](sc_core::sc_time&) { return power_status_; },
                 [this](uint32_t value, sc_core::sc_time&) {
                   set_power_status(power_status_ & ~value);  // write 1 to clear
                 });
  registers_.add(SYSCTRL_POWER_READY, "power_ready", 0, Access::kWriteOnly, {},
                 [this](uint32_t, sc_core::sc_time& delay) {
                   if (power_ready_handler_) power_ready_handler_(sc_core::sc_time_stamp() + delay);
                 });
  socket.register_b_transport(this, &Sysctrl::b_transport);
  socket.register_transport_dbg(this, &Sysctrl::transport_dbg);
}

Sysctrl::~Sysctrl() { flush_console(); }

void Sysctrl::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Sysctrl::transport_dbg(tlm::tlm_generic_payload& trans) {
  return registers_.transport_dbg(trans);
}

void Sysctrl::power_fail() { set_power_status(power_status_ | SYSCTRL_POWER_STATUS_FAIL); }

void Sysctrl::power_on(uint32_t boot_count, uint32_t reset_cause) {
  registers_.reset();
  latched_time_hi_ = 0;
  set_power_status(0);
  registers_.set(SYSCTRL_BOOT_COUNT, boot_count);
  registers_.set(SYSCTRL_RESET_CAUSE, reset_cause);
}

void Sysctrl::set_power_status(uint32_t status) {
  const bool was = (power_status_ & SYSCTRL_POWER_STATUS_FAIL) != 0;
  power_status_ = status & SYSCTRL_POWER_STATUS_FAIL;
  const bool level = (power_status_ & SYSCTRL_POWER_STATUS_FAIL) != 0;
  if (level != was && power_fail_line_) power_fail_line_(level);
}

uint64_t Sysctrl::time_ns(const sc_core::sc_time& delay) const {
  return to_ps(sc_core::sc_time_stamp() + delay) / 1000;
}

void Sysctrl::console_byte(uint8_t byte) {
  const char c = static_cast<char>(byte);
  // Trimmed in halves so that keeping the tail costs O(1) per byte.
  if (console_text_.size() >= 2 * kConsoleKeptBytes) {
    console_text_.erase(0, console_text_.size() - kConsoleKeptBytes);
  }
  console_text_.push_back(c);
  console_line_.push_back(c);
  if (c == '\n' || console_line_.size() >= kConsoleLineBytes) flush_console();
}

void Sysctrl::flush_console() {
  if (console_ != nullptr && !console_line_.empty()) {
    *console_ << console_line_;
    console_->flush();
  }
  console_line_.clear();
}

}  // namespace ssdvp
