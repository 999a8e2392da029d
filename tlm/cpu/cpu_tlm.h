// The TLM wrapper of one hart: runs a cpu::Core in batches of cycles under temporal decoupling
// and gives it the bus (b_transport for the slow path, DMI for memories) and its interrupt
// inputs.
//
// Time: the core counts cycles; the hart's local time is the time of its last synchronisation
// plus the cycles run since, times the clock period. A batch lasts until the end of the current
// global quantum, then the hart synchronises. WFI synchronises and sleeps on an event until an
// interrupt arrives; the time slept is credited to the core as sleep cycles.
//
// Power: told the time of a power cut in advance (power_off_at), the hart ends its batches
// there, so it runs no instruction that starts at or after the cut; asleep, it is woken by
// power_cut(). Then it stays off (no instruction, no sleep cycles) until power_on(pc).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/cpu/cpu_if.h"
#include "tlm/cpu/rv_core.h"
#include "tlm/system/interrupt_sink.h"
#include "tlm/system/sim_time.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp::cpu {
class Reservations;
}

namespace ssdvp {

class Hart;

// What the SoC hears from a hart's run loop.
class HartObserver {
 public:
  virtual ~HartObserver() = default;
  // After every batch, with the reason the core returned (instruction limit, tohost, faults).
  virtual void batch_done(Hart& hart, cpu::StopReason reason) = 0;
  // The hart left its run loop (stopped, halted or stuck in a trap loop) and synchronised its time.
  virtual void hart_stopped(Hart& hart) = 0;
};

class Hart : public sc_core::sc_module, public cpu::BusInterface, public InterruptSink {
 public:
  enum class State { kRunning, kSleeping, kInTrap, kStopped, kOff };

  tlm_utils::simple_initiator_socket<Hart> socket;

  // The global quantum (tlm_global_quantum) must be set before simulation starts; throws
  // std::runtime_error if cpu.clock_hz is out of range. waves and observer are nullable.
  Hart(sc_core::sc_module_name name, uint32_t hart_id, const CpuConfig& cpu,
       cpu::Reservations& reservations, WaveWriter* waves, HartObserver* observer);
  ~Hart() override;

  // Architectural reset of the core; the run loop starts at this pc.
  void reset(uint32_t pc);
  // Ends the run loop: the core stops after its current instruction, the hart synchronises and
  // tells the observer. A sleeping hart stays asleep (the simulation is ending).
  void stop();
  bool stopped() const { return stopped_; }

  // The power goes at simulated time `ps` (not before the hart's own time): the hart runs no
  // instruction from then on. The SoC calls power_cut() at that time.
  void power_off_at(uint64_t ps);
  // The cut's time has come: a sleeping hart wakes to power off; a running one is off already
  // or stops at its next batch boundary, which is at the cut.
  void power_cut();
  // The power is back: architectural reset to `pc`, and the run loop goes on from there.
  void power_on(uint32_t pc);
  bool powered() const { return !off_; }
  // True while the core runs a batch or the observer handles its end.
  bool in_batch() const { return in_batch_; }

  // The hart's own notion of now: the last synchronisation plus the cycles run since.
  sc_core::sc_time local_time() const { return from_ps(current_ps()); }
  State state() const { return state_; }
  const Clock& clock() const { return clock_; }

  cpu::Core& core() { return *core_; }
  const cpu::Core& core() const { return *core_; }
  uint64_t bus_transactions() const { return bus_transactions_; }

  // The hart may go on past the end of a quantum without waiting for the kernel, when nothing
  // else is due, up to this time: the end of the kernel run in progress (sc_start), so that the
  // run still returns to its caller when it should. 0 (the default) never skips a wait.
  void skip_syncs_until(uint64_t ps) { skip_syncs_until_ps_ = ps; }

  // InterruptSink: forwards to the core and wakes the hart from WFI.
  void set_interrupt(uint32_t bit, bool level) override;

  // cpu::BusInterface, called by the core from inside run().
  bool read(uint32_t addr, void* data, uint32_t len, uint64_t& extra_cycles) override;
  bool write(uint32_t addr, const void* data, uint32_t len, uint64_t& extra_cycles) override;
  cpu::DirectRegion direct_region(uint32_t addr) override;

 private:
  void run_thread();
  void sync();
  // At a quantum's end: synchronise, or go on without waiting when nothing else is due.
  void sync_at_quantum_end();
  // Moves the kernel's time to the last quantum end the hart went past without waiting;
  // answers the kernel's time then.
  uint64_t catch_up();
  // The time the current quantum is counted from: the kernel's, or the hart's own time when it
  // went on without waiting.
  uint64_t schedule_ps() const;
  void sleep_until_interrupt();
  void stay_off();
  void reanchor();
  uint64_t current_ps() const;
  sc_core::sc_time local_offset() const;
  bool transport(tlm::tlm_command command, uint32_t addr, uint8_t* data, uint32_t len,
                 uint64_t& extra_cycles);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void record_state(State state);

  Clock clock_;
  std::unique_ptr<cpu::Core> core_;
  HartObserver* observer_;
  WaveWriter* waves_;
  std::optional<WaveWriter::SignalId> state_signal_;
  std::optional<WaveWriter::SignalId> bus_signal_;

  uint64_t quantum_ps_ = 0;  // the global quantum, read when the run loop starts
  uint64_t skip_syncs_until_ps_ = 0;
  tlm::tlm_generic_payload payload_;  // reused by the slow path
  sc_core::sc_event wake_event_;
  sc_core::sc_event power_on_event_;
  uint64_t power_off_ps_ = UINT64_MAX;  // the coming or present cut; UINT64_MAX: powered
  bool power_stop_ = false;
  bool off_ = false;  // between the cut and power_on  // the batch under way was stopped to plan it again with the cut
  // Synchronisation point: the simulated time and the core's cycle count at the last sync (or
  // skipped sync: the time may then lie ahead of the kernel's).
  uint64_t anchor_ps_ = 0;
  uint64_t anchor_cycles_ = 0;

  State state_ = State::kRunning;
  bool stopped_ = false;
  bool in_batch_ = false;
  uint64_t bus_transactions_ = 0;
};

}  // namespace ssdvp
