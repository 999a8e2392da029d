#include "tlm/cpu/cpu_tlm.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "tlm/system/log.h"

namespace ssdvp {
namespace {

const char* state_name(Hart::State state) {
  switch (state) {
    case Hart::State::kRunning: return "running";
    case Hart::State::kSleeping: return "sleeping";
    case Hart::State::kInTrap: return "in_trap";
    case Hart::State::kStopped: return "stopped";
    case Hart::State::kOff: return "off";
  }
  return "unknown";
}

// How far the hart's local time runs ahead of the kernel's (zero when it does not).
sc_core::sc_time lead(uint64_t hart_ps, uint64_t now_ps) {
  return from_ps(hart_ps > now_ps ? hart_ps - now_ps : 0);
}

}  // namespace

Hart::Hart(sc_core::sc_module_name name, uint32_t hart_id, const CpuConfig& cpu,
           cpu::Reservations& reservations, WaveWriter* waves, HartObserver* observer)
    : sc_core::sc_module(name),
      socket("socket"),
      clock_(cpu.clock_hz, "cpu.clock_hz"),
      core_(std::make_unique<cpu::Core>(hart_id, *this, reservations, cpu.cost)),
      observer_(observer),
      waves_(waves),
      wake_event_("wake_event") {
  socket.register_invalidate_direct_mem_ptr(this, &Hart::invalidate_direct_mem_ptr);
  core_->set_translation(cpu.translate);
  if (waves_ != nullptr) {
    state_signal_ = waves_->add_state_signal(this->name(), "state", state_name(State::kRunning));
    bus_signal_ = waves_->add_signal(this->name(), "bus_transactions", 64, 0);
  }
  SC_HAS_PROCESS(Hart);
  SC_THREAD(run_thread);
}

Hart::~Hart() = default;

void Hart::reset(uint32_t pc) { core_->reset(pc); }

void Hart::stop() {
  stopped_ = true;
  core_->request_stop();
}

void Hart::power_off_at(uint64_t ps) {
  power_off_ps_ = std::max(ps, current_ps());
  // Told from inside its own batch (a register write), the hart ends the batch, which was planned
  // without the cut, after this instruction.
  if (in_batch_) {
    power_stop_ = true;
    core_->request_stop();
  }
}

void Hart::power_cut() { wake_event_.notify(); }

void Hart::power_on(uint32_t pc) {
  core_->reset(pc);
  power_off_ps_ = UINT64_MAX;
  off_ = false;
  power_on_event_.notify();
}

void Hart::set_interrupt(uint32_t bit, bool level) {
  core_->set_interrupt_pending(bit, level);
  // Immediate notification: a sleeping hart wakes at the very time the interrupt is raised.
  if (level && sc_core::sc_is_running()) wake_event_.notify();
}

uint64_t Hart::current_ps() const {
  return anchor_ps_ + clock_.cycles_to_ps(core_->timed_cycles() - anchor_cycles_);
}

sc_core::sc_time Hart::local_offset() const {
  return lead(current_ps(), to_ps(sc_core::sc_time_stamp()));
}

void Hart::reanchor() {
  anchor_ps_ = to_ps(sc_core::sc_time_stamp());
  anchor_cycles_ = core_->timed_cycles();
}

void Hart::sync() {
  sc_core::wait(local_offset());
  reanchor();
}

uint64_t Hart::catch_up() {
  const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
  if (anchor_ps_ <= now_ps) return now_ps;
  sc_core::wait(from_ps(anchor_ps_ - now_ps));
  return anchor_ps_;  // nothing was due before it, so the kernel stopped there
}

uint64_t Hart::schedule_ps() const {
  return std::max(to_ps(sc_core::sc_time_stamp()), anchor_ps_);
}

// Waiting at the end of a quantum lets the kernel run what is due up to the hart's time. When
// nothing is (no event, no process, no other hart before it), the wait would only move the
// kernel's clock and resume this hart: the hart skips it and lays the next quantum from its own
// time, exactly as after the wait. Before it next deals with another model (catch_up) it makes
// that wait, now that nothing can run in between; so every model sees the times it saw before,
// and a run of quanta with no bus transaction costs no context switch.
void Hart::sync_at_quantum_end() {
  const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
  const uint64_t hart_ps = current_ps();
  const bool due = sc_core::sc_pending_activity_at_current_time() ||
                   (sc_core::sc_pending_activity_at_future_time() &&
                    now_ps + to_ps(sc_core::sc_time_to_pending_activity()) <= hart_ps);
  if (due || hart_ps <= now_ps || hart_ps > skip_syncs_until_ps_) {
    sync();
    return;
  }
  anchor_ps_ = hart_ps;
  anchor_cycles_ = core_->timed_cycles();
}

void Hart::record_state(State state) {
  if (state == state_) return;
  state_ = state;
  if (state_signal_) waves_->set_state(*state_signal_, state_name(state), current_ps());
}

void Hart::run_thread() {
  if (tlm::tlm_global_quantum::instance().get() == sc_core::SC_ZERO_TIME) {
    throw std::runtime_error(fmt::format("hart {}: the global quantum is not set", name()));
  }
  quantum_ps_ = to_ps(tlm::tlm_global_quantum::instance().get());
  reanchor();
  // While mzerotime is set no simulated time passes, so nothing else runs: code that waits in
  // it for another hart or a device would hang the simulation. Such a stretch ends the run.
  constexpr uint64_t kZeroTimeLimit = uint64_t{1} << 32;  // cycles
  uint64_t zero_time_entered = 0;
  bool was_zero_time = false;
  while (!stopped_) {
    if (current_ps() >= power_off_ps_) {
      stay_off();
      continue;
    }
    if (core_->in_zero_time() != was_zero_time) {
      was_zero_time = core_->in_zero_time();
      zero_time_entered = core_->cycles();
    } else if (was_zero_time && core_->cycles() - zero_time_entered > kZeroTimeLimit) {
      log::error(*this, "more than {} cycles in zero time (mzerotime) at pc {:#010x}: code run "
                 "in zero time must not wait for other harts or devices",
                 kZeroTimeLimit, core_->pc());
      stopped_ = true;
      break;
    }
    // The quantum grid is laid from the time the hart last synchronised or skipped a sync.
    const uint64_t scheduled_ps = schedule_ps();
    const uint64_t window_ps = quantum_ps_ - scheduled_ps % quantum_ps_;
    const uint64_t hart_ps = current_ps();
    const uint64_t offset_ps = hart_ps > scheduled_ps ? hart_ps - scheduled_ps : 0;
    if (offset_ps >= window_ps) {
      sync_at_quantum_end();
      continue;
    }
    // A batch ends at the power cut too: the instructions it runs all start before it.
    const uint64_t until_ps = std::min(window_ps - offset_ps, power_off_ps_ - hart_ps);
    const uint64_t budget = std::max<uint64_t>(1, clock_.ps_to_cycles_ceil(until_ps));
    record_state(core_->in_trap() ? State::kInTrap : State::kRunning);
    in_batch_ = true;
    const cpu::StopReason reason = core_->run(budget);
    if (reason == cpu::StopReason::kHalt && !std::exchange(power_stop_, false)) stopped_ = true;
    if (reason == cpu::StopReason::kTrapLoop) {
      log::error(*this, "stuck in a trap loop at pc {:#010x}", core_->pc());
      stopped_ = true;
    }
    if (observer_ != nullptr) observer_->batch_done(*this, reason);
    in_batch_ = false;
    if (stopped_) break;
    if (reason == cpu::StopReason::kWfi) sleep_until_interrupt();
  }
  sync();
  record_state(State::kStopped);
  if (observer_ != nullptr) observer_->hart_stopped(*this);
}

void Hart::sleep_until_interrupt() {
  sync();
  if (core_->wakeup_pending()) return;
  record_state(State::kSleeping);
  const uint64_t asleep_ps = to_ps(sc_core::sc_time_stamp());
  while (!core_->wakeup_pending() && to_ps(sc_core::sc_time_stamp()) < power_off_ps_) {
    sc_core::wait(wake_event_);
  }
  core_->add_sleep_cycles(clock_.ps_to_cycles_floor(to_ps(sc_core::sc_time_stamp()) - asleep_ps));
  reanchor();
  log::debug(*this, "woke up after {} ps", to_ps(sc_core::sc_time_stamp()) - asleep_ps);
}

void Hart::stay_off() {
  sync();
  off_ = true;
  record_state(State::kOff);
  while (off_) sc_core::wait(power_on_event_);
  reanchor();
}

bool Hart::transport(tlm::tlm_command command, uint32_t addr, uint8_t* data, uint32_t len,
                     uint64_t& extra_cycles) {
  payload_.set_command(command);
  payload_.set_address(addr);
  payload_.set_data_ptr(data);
  payload_.set_data_length(len);
  payload_.set_streaming_width(len);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);

  const uint64_t now_ps = catch_up();
  const uint64_t start_ps = current_ps();
  sc_core::sc_time delay = lead(start_ps, now_ps);  // local_offset(), sharing start_ps
  socket->b_transport(payload_, delay);
  // A target may have waited (moving sc_time_stamp) instead of annotating: both count.
  const uint64_t end_ps = to_ps(sc_core::sc_time_stamp() + delay);
  extra_cycles = end_ps > start_ps ? clock_.ps_to_cycles_ceil(end_ps - start_ps) : 0;

  ++bus_transactions_;
  if (bus_signal_) waves_->set(*bus_signal_, bus_transactions_, start_ps);
  if (!payload_.is_response_ok()) {
    log::debug(*this, "bus {} of {} bytes at {:#010x} failed: {}",
               command == tlm::TLM_READ_COMMAND ? "read" : "write", len, addr,
               payload_.get_response_string());
    return false;
  }
  return true;
}

bool Hart::read(uint32_t addr, void* data, uint32_t len, uint64_t& extra_cycles) {
  return transport(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(data), len, extra_cycles);
}

bool Hart::write(uint32_t addr, const void* data, uint32_t len, uint64_t& extra_cycles) {
  // TLM payloads carry a non-const pointer; a write command never modifies the data.
  return transport(tlm::TLM_WRITE_COMMAND, addr,
                   static_cast<uint8_t*>(const_cast<void*>(data)), len, extra_cycles);
}

cpu::DirectRegion Hart::direct_region(uint32_t addr) {
  tlm::tlm_generic_payload request;
  request.set_command(tlm::TLM_READ_COMMAND);
  request.set_address(addr);
  tlm::tlm_dmi dmi;
  const bool granted = socket->get_direct_mem_ptr(request, dmi);
  const uint64_t size = dmi.get_end_address() - dmi.get_start_address() + 1;
  const bool fits = dmi.get_start_address() <= UINT32_MAX && size <= UINT32_MAX;
  if (!granted && !fits) return {};  // a refusal that names no range the core can keep
  if (!fits) {
    throw std::runtime_error(fmt::format(
        "hart {}: DMI region [{:#x}, {:#x}] for address {:#010x} exceeds the 32-bit bus", name(),
        dmi.get_start_address(), dmi.get_end_address(), addr));
  }
  cpu::DirectRegion region;
  region.base = static_cast<uint32_t>(dmi.get_start_address());
  region.size = static_cast<uint32_t>(size);
  if (!granted) return region;  // the refused range: no host pointer
  region.host = dmi.get_dmi_ptr();
  region.read_cycles =
      static_cast<uint32_t>(clock_.ps_to_cycles_ceil(to_ps(dmi.get_read_latency())));
  region.write_cycles =
      static_cast<uint32_t>(clock_.ps_to_cycles_ceil(to_ps(dmi.get_write_latency())));
  region.readable = dmi.is_read_allowed();
  region.writable = dmi.is_write_allowed();
  region.executable = true;  // every memory of the SoC may hold code
  return region;
}

void Hart::invalidate_direct_mem_ptr(sc_dt::uint64 /*start*/, sc_dt::uint64 /*end*/) {
  // The core keeps few regions: dropping them all is simpler than matching ranges.
  core_->invalidate_direct_regions();
}

}  // namespace ssdvp
