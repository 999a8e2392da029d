// The machine-mode CSR file of one hart: trap state, interrupt enables and pending bits, the
// counters, and the floating-point control and status (fcsr, mstatus.FS). mcycle/minstret are
// kept as offsets over the hart's running totals, so the hart counts cycles and retired
// instructions in plain integers and a software write costs nothing later.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "interface/job_kinds.h"

namespace ssdvp::cpu {

namespace csr {
constexpr uint32_t kFflags = 0x001;
constexpr uint32_t kFrm = 0x002;
constexpr uint32_t kFcsr = 0x003;
constexpr uint32_t kMstatus = 0x300;
constexpr uint32_t kMisa = 0x301;
constexpr uint32_t kMie = 0x304;
constexpr uint32_t kMtvec = 0x305;
constexpr uint32_t kMscratch = 0x340;
constexpr uint32_t kMepc = 0x341;
constexpr uint32_t kMcause = 0x342;
constexpr uint32_t kMtval = 0x343;
constexpr uint32_t kMip = 0x344;
constexpr uint32_t kMcycle = 0xB00;
constexpr uint32_t kMinstret = 0xB02;
constexpr uint32_t kMcycleh = 0xB80;
constexpr uint32_t kMinstreth = 0xB82;
constexpr uint32_t kCycle = 0xC00;
constexpr uint32_t kInstret = 0xC02;
constexpr uint32_t kCycleh = 0xC80;
constexpr uint32_t kInstreth = 0xC82;
constexpr uint32_t kMvendorid = 0xF11;
constexpr uint32_t kMarchid = 0xF12;
constexpr uint32_t kMimpid = 0xF13;
constexpr uint32_t kMhartid = 0xF14;
constexpr uint32_t kMconfigptr = 0xF15;
constexpr uint32_t kMstatush = 0x310;
// ssdvp's own (the custom machine read/write range 0x7C0-0x7FF): bit 0 set, the hart's cycles
// pass no simulated time (mcycle still counts them). A what-if for experiments that ask what a
// piece of firmware would do if it took no time, such as RQFTL's zero-time training.
constexpr uint32_t kMzerotime = 0x7C0;
// mjobkind: the job kind the hart's cycles are charged to (interface/job_kinds.h), bits 3:0 (WARL);
// every cycle the hart spends, asleep too, counts under the kind it holds. Reset value 0.
constexpr uint32_t kMjobkind = JOB_KIND_CSR;
constexpr uint32_t kJobKindMask = JOB_KIND_LIMIT - 1;
// The hardware performance monitor the spec requires to exist, here read-only zero (a legal
// implementation): mhpmevent3..31, mhpmcounter3..31 and their high halves, and the user views
// hpmcounter3..31(h).
constexpr uint32_t kMhpmevent3 = 0x323, kMhpmevent31 = 0x33F;
constexpr uint32_t kMhpmcounter3 = 0xB03, kMhpmcounter31 = 0xB1F;
constexpr uint32_t kMhpmcounter3h = 0xB83, kMhpmcounter31h = 0xB9F;
constexpr uint32_t kHpmcounter3 = 0xC03, kHpmcounter31 = 0xC1F;
constexpr uint32_t kHpmcounter3h = 0xC83, kHpmcounter31h = 0xC9F;

constexpr uint32_t kMstatusMie = 1u << 3;
constexpr uint32_t kMstatusMpie = 1u << 7;
constexpr uint32_t kMstatusMppMachine = 3u << 11;  // MPP is hard-wired to M
// mstatus.FS, the floating-point unit's state: Off makes every F instruction and F CSR access
// illegal; any write to F state makes it Dirty, which SD summarises.
constexpr uint32_t kMstatusFs = 3u << 13;
constexpr uint32_t kMstatusFsInitial = 1u << 13;
constexpr uint32_t kMstatusFsClean = 2u << 13;
constexpr uint32_t kMstatusFsDirty = 3u << 13;
constexpr uint32_t kMstatusSd = 1u << 31;
// RV32 (MXL = 1) with the A, C, F, I and M extensions.
constexpr uint32_t kMisaValue = (1u << 30) | (1u << ('A' - 'A')) | (1u << ('C' - 'A')) |
                                (1u << ('F' - 'A')) | (1u << ('I' - 'A')) | (1u << ('M' - 'A'));
constexpr uint32_t kFflagsMask = 0x1Fu;  // NV DZ OF UF NX
constexpr uint32_t kFrmMask = 0x7u;
constexpr uint32_t kInterruptBits = (1u << 3) | (1u << 7) | (1u << 11);  // MSI, MTI, MEI
constexpr uint32_t kInterruptFlag = 1u << 31;                            // mcause of interrupts
}  // namespace csr

// Name of an implemented CSR as objdump prints it, or nullptr.
const char* csr_name(uint32_t address);

class CsrFile {
 public:
  // The hart's running totals, which mcycle/minstret read through their offsets.
  struct Counters {
    uint64_t cycles = 0;
    uint64_t instret = 0;
  };

  explicit CsrFile(uint32_t hart_id);
  // `cycles_now`: the hart's running cycles, which the job kind in force is charged up to before
  // mjobkind returns to 0.
  void reset(uint64_t cycles_now);

  // CSR instruction access. `now` is the counter state the access sees. read() returns false for
  // an unimplemented CSR; write() returns false for an unimplemented or read-only one.
  bool read(uint32_t address, const Counters& now, uint32_t& value) const;
  bool write(uint32_t address, uint32_t value, const Counters& now);

  // Trap entry: saves pc and cause, disables interrupts; returns the handler address.
  uint32_t enter_trap(uint32_t mcause, uint32_t epc, uint32_t tval);
  // mret: restores MIE from MPIE; returns mepc.
  uint32_t return_from_trap();

  void set_pending(uint32_t bits, bool level);
  // The interrupt to take now (its cause number), or -1 if none is pending, enabled and allowed
  // by mstatus.MIE. Priority: MEI > MSI > MTI.
  int interrupt_to_take() const;
  bool pending_and_enabled() const { return (mip_ & mie_) != 0; }
  // Cycles spent with mzerotime set, up to `cycles_now` (the hart's running total).
  uint64_t zero_time_cycles(uint64_t cycles_now) const {
    return zero_time_cycles_ + (zero_time_ ? cycles_now - zero_time_since_ : 0);
  }
  bool in_zero_time() const { return zero_time_; }
  // Cycles charged to job kind `kind` (< JOB_KIND_LIMIT) up to `cycles_now`.
  uint64_t job_kind_cycles(uint32_t kind, uint64_t cycles_now) const {
    return job_kind_cycles_[kind] + (kind == job_kind_ ? cycles_now - job_kind_since_ : 0);
  }
  uint32_t job_kind() const { return job_kind_; }
  // The CSRs firmware reads on its hot paths whose reads need no counters, no FPU check and
  // change nothing (mip, mie, mhartid, mjobkind), so the executor serves `csrr` of them without
  // leaving its loop. False for any other CSR.
  bool read_plain(uint32_t address, uint32_t& value) const {
    switch (address) {
      case csr::kMip: value = mip_; return true;
      case csr::kMie: value = mie_; return true;
      case csr::kMhartid: value = hart_id_; return true;
      case csr::kMjobkind: value = job_kind_; return true;
      default: return false;
    }
  }

  // Byte offsets, within a CsrFile, of the fields translated code works on in place: its inline
  // CSR instructions (rv_translator.h) do to them what read() and write() do.
  struct FieldOffsets {
    size_t mip = 0;              // uint32_t
    size_t mie = 0;              // uint32_t
    size_t cycle_offset = 0;     // uint64_t: mcycle = the hart's cycles + it
    size_t instret_offset = 0;   // uint64_t: minstret = the hart's retired count + it
    size_t job_kind = 0;         // uint32_t: mjobkind
    size_t job_kind_since = 0;   // uint64_t
    size_t job_kind_cycles = 0;  // uint64_t[JOB_KIND_LIMIT]
  };
  static FieldOffsets field_offsets();

  // Floating-point state for the executor (CSR instructions go through read()/write()).
  bool fpu_enabled() const { return (mstatus_ & csr::kMstatusFs) != 0; }
  uint32_t frm() const { return frm_; }
  // An instruction wrote an f register.
  void mark_fpu_dirty() { mstatus_ |= csr::kMstatusFsDirty; }
  // An instruction raised floating-point exceptions (fflags bits); they accrue.
  void accrue_fflags(uint32_t exceptions) {
    fflags_ |= exceptions;
    mstatus_ |= csr::kMstatusFsDirty;
  }

 private:
  uint32_t hart_id_;
  uint32_t mstatus_ = 0;  // only MIE, MPIE and FS are stored; MPP always reads as M
  uint32_t fflags_ = 0;
  uint32_t frm_ = 0;
  uint32_t mie_ = 0;
  uint32_t mip_ = 0;
  uint32_t mtvec_ = 0;
  uint32_t mscratch_ = 0;
  uint32_t mepc_ = 0;
  uint32_t mcause_ = 0;
  uint32_t mtval_ = 0;
  uint64_t cycle_offset_ = 0;  // mcycle = running cycles + offset (mod 2^64)
  uint64_t instret_offset_ = 0;
  bool zero_time_ = false;         // mzerotime bit 0
  uint64_t zero_time_since_ = 0;   // running cycles when it was set
  uint64_t zero_time_cycles_ = 0;  // cycles of the zero-time spans that ended
  uint32_t job_kind_ = 0;          // mjobkind
  uint64_t job_kind_since_ = 0;    // running cycles when it was written
  std::array<uint64_t, JOB_KIND_LIMIT> job_kind_cycles_{};  // of the kinds' spans that ended
};

}  // namespace ssdvp::cpu
