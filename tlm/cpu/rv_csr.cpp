#include "tlm/cpu/rv_csr.h"

#include <cstddef>
#include <type_traits>

namespace ssdvp::cpu {
namespace {

uint32_t low_word(uint64_t value) { return static_cast<uint32_t>(value); }
uint32_t high_word(uint64_t value) { return static_cast<uint32_t>(value >> 32); }
uint64_t with_low_word(uint64_t value, uint32_t low) { return (value & ~0xFFFFFFFFull) | low; }
uint64_t with_high_word(uint64_t value, uint32_t high) {
  return (value & 0xFFFFFFFFull) | (static_cast<uint64_t>(high) << 32);
}

// CSR addresses with bits [11:10] = 3 are read-only by the privileged spec.
bool read_only(uint32_t address) { return (address >> 10) == 3; }

// CSRs that exist and read as zero: the performance monitor beyond cycle and instret, mstatush
// (no big-endian data) and mconfigptr (no configuration structure). Writes to the writable ones
// are ignored (WARL with the one legal value 0).
bool zero_csr(uint32_t address) {
  const auto within = [address](uint32_t first, uint32_t last) {
    return address >= first && address <= last;
  };
  return address == csr::kMstatush || address == csr::kMconfigptr ||
         within(csr::kMhpmevent3, csr::kMhpmevent31) ||
         within(csr::kMhpmcounter3, csr::kMhpmcounter31) ||
         within(csr::kMhpmcounter3h, csr::kMhpmcounter31h) ||
         within(csr::kHpmcounter3, csr::kHpmcounter31) ||
         within(csr::kHpmcounter3h, csr::kHpmcounter31h);
}

bool floating_point_csr(uint32_t address) {
  return address == csr::kFflags || address == csr::kFrm || address == csr::kFcsr;
}

}  // namespace

const char* csr_name(uint32_t address) {
  switch (address) {
    case csr::kFflags: return "fflags";
    case csr::kFrm: return "frm";
    case csr::kFcsr: return "fcsr";
    case csr::kMstatus: return "mstatus";
    case csr::kMisa: return "misa";
    case csr::kMie: return "mie";
    case csr::kMtvec: return "mtvec";
    case csr::kMscratch: return "mscratch";
    case csr::kMepc: return "mepc";
    case csr::kMcause: return "mcause";
    case csr::kMtval: return "mtval";
    case csr::kMip: return "mip";
    case csr::kMcycle: return "mcycle";
    case csr::kMinstret: return "minstret";
    case csr::kMcycleh: return "mcycleh";
    case csr::kMinstreth: return "minstreth";
    case csr::kCycle: return "cycle";
    case csr::kInstret: return "instret";
    case csr::kCycleh: return "cycleh";
    case csr::kInstreth: return "instreth";
    case csr::kMvendorid: return "mvendorid";
    case csr::kMarchid: return "marchid";
    case csr::kMimpid: return "mimpid";
    case csr::kMhartid: return "mhartid";
  }
  return nullptr;
}

CsrFile::CsrFile(uint32_t hart_id) : hart_id_(hart_id) {}

void CsrFile::reset(uint64_t cycles_now) {
  const uint32_t hart_id = hart_id_;
  const uint32_t mip = mip_;  // pending lines are driven by the platform, not reset by the hart
  // mzerotime and its accounting survive: the hart's timed cycles must never go back or jump.
  const bool zero_time = zero_time_;
  const uint64_t zero_time_since = zero_time_since_, zero_time_cycles = zero_time_cycles_;
  // So do the cycles charged to job kinds; mjobkind itself returns to 0 from now on.
  std::array<uint64_t, JOB_KIND_LIMIT> job_kind_cycles = job_kind_cycles_;
  job_kind_cycles[job_kind_] += cycles_now - job_kind_since_;
  *this = CsrFile(hart_id);
  mip_ = mip;
  zero_time_ = zero_time;
  zero_time_since_ = zero_time_since;
  zero_time_cycles_ = zero_time_cycles;
  job_kind_cycles_ = job_kind_cycles;
  job_kind_since_ = cycles_now;
}

bool CsrFile::read(uint32_t address, const Counters& now, uint32_t& value) const {
  const uint64_t mcycle = now.cycles + cycle_offset_;
  const uint64_t minstret = now.instret + instret_offset_;
  if (floating_point_csr(address) && !fpu_enabled()) return false;
  switch (address) {
    case csr::kFflags: value = fflags_; return true;
    case csr::kFrm: value = frm_; return true;
    case csr::kFcsr: value = (frm_ << 5) | fflags_; return true;
    case csr::kMstatus: {
      const bool dirty = (mstatus_ & csr::kMstatusFs) == csr::kMstatusFsDirty;
      value = mstatus_ | csr::kMstatusMppMachine | (dirty ? csr::kMstatusSd : 0u);
      return true;
    }
    case csr::kMisa: value = csr::kMisaValue; return true;
    case csr::kMie: value = mie_; return true;
    case csr::kMip: value = mip_; return true;
    case csr::kMtvec: value = mtvec_; return true;
    case csr::kMscratch: value = mscratch_; return true;
    case csr::kMepc: value = mepc_; return true;
    case csr::kMcause: value = mcause_; return true;
    case csr::kMtval: value = mtval_; return true;
    case csr::kMcycle: case csr::kCycle: value = low_word(mcycle); return true;
    case csr::kMcycleh: case csr::kCycleh: value = high_word(mcycle); return true;
    case csr::kMinstret: case csr::kInstret: value = low_word(minstret); return true;
    case csr::kMinstreth: case csr::kInstreth: value = high_word(minstret); return true;
    case csr::kMvendorid: case csr::kMarchid: case csr::kMimpid: value = 0; return true;
    case csr::kMhartid: value = hart_id_; return true;
    case csr::kMzerotime: value = zero_time_ ? 1u : 0u; return true;
    case csr::kMjobkind: value = job_kind_; return true;
  }
  if (zero_csr(address)) {
    value = 0;
    return true;
  }
  return false;
}

bool CsrFile::write(uint32_t address, uint32_t value, const Counters& now) {
  if (read_only(address)) return false;
  if (floating_point_csr(address)) {
    if (!fpu_enabled()) return false;
    mstatus_ |= csr::kMstatusFsDirty;
  }
  switch (address) {
    // fcsr bits 31:8 are reserved: they read as zero.
    case csr::kFflags: fflags_ = value & csr::kFflagsMask; return true;
    case csr::kFrm: frm_ = value & csr::kFrmMask; return true;
    case csr::kFcsr:
      fflags_ = value & csr::kFflagsMask;
      frm_ = (value >> 5) & csr::kFrmMask;
      return true;
    case csr::kMstatus:
      mstatus_ = value & (csr::kMstatusMie | csr::kMstatusMpie | csr::kMstatusFs);
      return true;
    case csr::kMisa:  // WARL with one legal value: writes are ignored
    case csr::kMip:   // MSIP/MTIP/MEIP are driven by the platform (CLINT, interrupt controller)
      return true;
    case csr::kMie: mie_ = value & csr::kInterruptBits; return true;
    case csr::kMtvec: {
      const uint32_t mode = value & 3u;
      // Modes 2 and 3 are reserved: the write keeps the current mode (WARL).
      mtvec_ = (value & ~3u) | (mode <= 1 ? mode : (mtvec_ & 3u));
      return true;
    }
    case csr::kMscratch: mscratch_ = value; return true;
    case csr::kMepc: mepc_ = value & ~1u; return true;  // IALIGN = 16
    case csr::kMcause: mcause_ = value; return true;
    case csr::kMtval: mtval_ = value; return true;
    case csr::kMcycle:
      cycle_offset_ = with_low_word(now.cycles + cycle_offset_, value) - now.cycles;
      return true;
    case csr::kMcycleh:
      cycle_offset_ = with_high_word(now.cycles + cycle_offset_, value) - now.cycles;
      return true;
    case csr::kMinstret:
      instret_offset_ = with_low_word(now.instret + instret_offset_, value) - now.instret;
      return true;
    case csr::kMinstreth:
      instret_offset_ = with_high_word(now.instret + instret_offset_, value) - now.instret;
      return true;
    case csr::kMzerotime: {  // WARL: bit 0 only
      const bool on = (value & 1u) != 0;
      if (on && !zero_time_) zero_time_since_ = now.cycles;
      if (!on && zero_time_) zero_time_cycles_ += now.cycles - zero_time_since_;
      zero_time_ = on;
      return true;
    }
    case csr::kMjobkind: {  // WARL: bits 3:0; the cycles so far go to the kind held until now
      job_kind_cycles_[job_kind_] += now.cycles - job_kind_since_;
      job_kind_since_ = now.cycles;
      job_kind_ = value & csr::kJobKindMask;
      return true;
    }
  }
  return zero_csr(address);  // the read-only ones were refused above
}

CsrFile::FieldOffsets CsrFile::field_offsets() {
  static_assert(std::is_standard_layout_v<CsrFile>, "offsetof needs a standard-layout class");
  FieldOffsets offsets;
  offsets.mip = offsetof(CsrFile, mip_);
  offsets.mie = offsetof(CsrFile, mie_);
  offsets.cycle_offset = offsetof(CsrFile, cycle_offset_);
  offsets.instret_offset = offsetof(CsrFile, instret_offset_);
  offsets.job_kind = offsetof(CsrFile, job_kind_);
  offsets.job_kind_since = offsetof(CsrFile, job_kind_since_);
  offsets.job_kind_cycles = offsetof(CsrFile, job_kind_cycles_);
  return offsets;
}

uint32_t CsrFile::enter_trap(uint32_t mcause, uint32_t epc, uint32_t tval) {
  mepc_ = epc & ~1u;
  mcause_ = mcause;
  mtval_ = tval;
  // MPIE = MIE, MIE = 0; FS is unchanged.
  mstatus_ = (mstatus_ & csr::kMstatusFs) |
             ((mstatus_ & csr::kMstatusMie) ? csr::kMstatusMpie : 0u);
  const uint32_t base = mtvec_ & ~3u;
  const bool vectored = (mtvec_ & 3u) == 1;
  if (vectored && (mcause & csr::kInterruptFlag)) return base + 4 * (mcause & ~csr::kInterruptFlag);
  return base;
}

uint32_t CsrFile::return_from_trap() {
  // MIE = MPIE, MPIE = 1 (MPP stays M, FS is unchanged).
  mstatus_ = (mstatus_ & csr::kMstatusFs) | csr::kMstatusMpie |
             ((mstatus_ & csr::kMstatusMpie) ? csr::kMstatusMie : 0u);
  return mepc_;
}

void CsrFile::set_pending(uint32_t bits, bool level) {
  if (level) {
    mip_ |= bits;
  } else {
    mip_ &= ~bits;
  }
}

int CsrFile::interrupt_to_take() const {
  const uint32_t ready = mip_ & mie_;
  if (ready == 0 || (mstatus_ & csr::kMstatusMie) == 0) return -1;
  if (ready & (1u << 11)) return 11;
  if (ready & (1u << 3)) return 3;
  return 7;
}

}  // namespace ssdvp::cpu
