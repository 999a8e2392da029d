// One RV32IMAFC + Zicsr hart, machine mode only, with no SystemC in it.
//
// Speed: each instruction is decoded once into a decode cache keyed by its address (invalidated
// when the hart stores into a page holding decoded code, and by fence.i); memory in a direct
// region (DMI) is accessed through its host pointer; run() executes a batch of cycles with no
// synchronisation per instruction. On x86-64 hosts straight-line code runs as translated blocks
// (rv_translator.h), with the interpreter for the rest.
// Timing: every instruction costs its class cost (InstructionCosts) plus, for memory accesses,
// the target's latency in cycles.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "tlm/cpu/cpu_if.h"

namespace ssdvp::cpu {

class Reservations;  // LR/SC reservation set shared by the harts of one SoC (rv_reservations.h)

// The last trap taken, for fault reports.
struct TrapRecord {
  uint32_t mcause = 0;
  uint32_t mepc = 0;
  uint32_t mtval = 0;
};

class Core {
 public:
  Core(uint32_t hart_id, BusInterface& bus, Reservations& reservations,
       const InstructionCosts& costs);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  // Architectural reset: pc = reset_pc, registers and CSRs to their reset values.
  void reset(uint32_t reset_pc);

  // Executes instructions until `cycle_budget` more cycles have been spent, or an event ends the
  // batch early (WFI with nothing pending, request_stop(), a trap loop).
  StopReason run(uint64_t cycle_budget);

  // Ends the current run() after the instruction in progress; safe to call from bus callbacks.
  void request_stop();

  // Drives a machine interrupt-pending bit (kMsip, kMtip, kMeip). Safe to call from bus
  // callbacks during run(); an enabled interrupt is taken at the next instruction boundary.
  void set_interrupt_pending(uint32_t bit, bool level);
  // True when an interrupt is pending and enabled in mie (what wakes WFI, whatever mstatus.MIE).
  bool wakeup_pending() const;

  // Accounts cycles spent asleep in WFI: mcycle advances, no instruction retires.
  void add_sleep_cycles(uint64_t cycles);

  // A store of a non-zero word to this address ends the run (riscv-tests tohost convention).
  void set_tohost_address(uint32_t addr);
  bool tohost_written() const;
  uint32_t tohost_value() const;

  // Drops every decoded instruction (after code is loaded or changed from outside the hart).
  void flush_decode_cache();
  // Forgets the cached direct regions (the bus revoked its DMI grants); they are asked again.
  void invalidate_direct_regions();

  // Observation.
  uint32_t hart_id() const;
  uint32_t pc() const;
  uint32_t reg(unsigned index) const;
  void set_reg(unsigned index, uint32_t value);
  uint32_t freg(unsigned index) const;  // f registers as binary32 bit patterns
  void set_freg(unsigned index, uint32_t bits);
  uint64_t cycles() const;        // mcycle, including sleep
  uint64_t instret() const;       // minstret
  uint64_t sleep_cycles() const;  // cycles spent in WFI
  // Cycles that pass simulated time: all of them but those spent with mzerotime set.
  uint64_t timed_cycles() const;
  bool in_zero_time() const;
  // Cycles charged to job kind `kind` (< JOB_KIND_LIMIT, interface/job_kinds.h): those spent,
  // asleep too, while mjobkind held it. They sum to cycles().
  uint64_t job_kind_cycles(uint32_t kind) const;
  uint64_t loads() const;
  uint64_t stores() const;
  bool in_trap() const;           // between trap entry and mret
  const TrapRecord& last_trap() const;
  // Reads a CSR as the hart would (for tests and reports); returns false if unimplemented.
  bool read_csr(uint32_t csr, uint32_t& value) const;

  // Back end: the translator (rv_translator.h) where the host has one, on by default, else the
  // interpreter. Both give identical results; the interpreter is the reference.
  void set_translation(bool enabled);
  bool translating() const;

  // Slow-mode hooks; while both are off run() takes the fast path.
  // Instruction trace: one line per retired instruction (hart, cycle, pc, encoding, disassembly).
  void set_instruction_trace(std::ostream* out);
  // Profile: cycles spent per instruction address in [base, base + size).
  void enable_profile(uint32_t base, uint32_t size);
  const std::vector<uint64_t>& profile_cycles() const;  // one counter per halfword

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ssdvp::cpu
