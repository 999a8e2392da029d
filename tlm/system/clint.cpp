#include "tlm/system/clint.h"

#include <stdexcept>

#include <fmt/format.h>

#include "interface/clint_regs.h"
#include "interface/memory_map.h"
#include "tlm/cpu/cpu_if.h"
#include "tlm/system/log.h"

namespace ssdvp {

using Access = RegisterBank::Access;

Clint::Clint(sc_core::sc_module_name name, uint32_t hart_count, uint64_t timebase_hz)
    : sc_core::sc_module(name),
      socket("socket"),
      timebase_(timebase_hz, "cpu.timebase_hz"),
      registers_(this->name()) {
  if (hart_count == 0 || hart_count > MM_MAX_HARTS) {
    throw std::runtime_error(fmt::format("clint {}: {} harts: allowed 1 .. {}", this->name(),
                                         hart_count, MM_MAX_HARTS));
  }
  harts_.resize(hart_count);
  for (uint32_t hart = 0; hart < hart_count; ++hart) {
    harts_[hart].deadline = std::make_unique<sc_core::sc_event>(
        sc_core::sc_gen_unique_name(fmt::format("mtimecmp_reached_{}", hart).c_str()));
    registers_.add(CLINT_MSIP(hart), fmt::format("msip{}", hart), 0, Access::kReadWrite, {},
                   [this, hart](uint32_t value, sc_core::sc_time&) {
                     HartTimer& timer = harts_[hart];
                     registers_.set(CLINT_MSIP(hart), value & 1u);
                     const bool level = (value & 1u) != 0;
                     if (level != timer.msip) {
                       timer.msip = level;
                       timer.sink->set_interrupt(cpu::kMsip, level);
                     }
                   });
    registers_.add(CLINT_MTIMECMP_LO(hart), fmt::format("mtimecmp{}_lo", hart), 0xFFFFFFFFu,
                   Access::kReadWrite,
                   [this, hart](sc_core::sc_time&) {
                     return static_cast<uint32_t>(harts_[hart].mtimecmp);
                   },
                   [this, hart](uint32_t value, sc_core::sc_time& delay) {
                     const uint64_t high = harts_[hart].mtimecmp & 0xFFFFFFFF00000000u;
                     write_mtimecmp(hart, high | value, sc_core::sc_time_stamp() + delay);
                   });
    registers_.add(CLINT_MTIMECMP_HI(hart), fmt::format("mtimecmp{}_hi", hart), 0xFFFFFFFFu,
                   Access::kReadWrite,
                   [this, hart](sc_core::sc_time&) {
                     return static_cast<uint32_t>(harts_[hart].mtimecmp >> 32);
                   },
                   [this, hart](uint32_t value, sc_core::sc_time& delay) {
                     const uint64_t low = harts_[hart].mtimecmp & 0xFFFFFFFFu;
                     write_mtimecmp(hart, (uint64_t{value} << 32) | low,
                                    sc_core::sc_time_stamp() + delay);
                   });
  }
  registers_.add(CLINT_MTIME_LO, "mtime_lo", 0, Access::kReadWrite,
                 [this](sc_core::sc_time& delay) {
                   return static_cast<uint32_t>(mtime(sc_core::sc_time_stamp() + delay));
                 },
                 [this](uint32_t value, sc_core::sc_time& delay) {
                   const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
                   write_mtime((mtime(at) & 0xFFFFFFFF00000000u) | value, at);
                 });
  registers_.add(CLINT_MTIME_HI, "mtime_hi", 0, Access::kReadWrite,
                 [this](sc_core::sc_time& delay) {
                   return static_cast<uint32_t>(mtime(sc_core::sc_time_stamp() + delay) >> 32);
                 },
                 [this](uint32_t value, sc_core::sc_time& delay) {
                   const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
                   write_mtime((uint64_t{value} << 32) | (mtime(at) & 0xFFFFFFFFu), at);
                 });

  socket.register_b_transport(this, &Clint::b_transport);
  socket.register_transport_dbg(this, &Clint::transport_dbg);

  SC_HAS_PROCESS(Clint);
  SC_METHOD(deadline_method);
  for (HartTimer& timer : harts_) sensitive << *timer.deadline;
  dont_initialize();
}

void Clint::connect(uint32_t hart, InterruptSink& sink) {
  if (hart >= harts_.size()) {
    throw std::runtime_error(fmt::format("clint {}: hart {} does not exist: allowed 0 .. {}",
                                         name(), hart, harts_.size() - 1));
  }
  harts_[hart].sink = &sink;
}

void Clint::end_of_elaboration() {
  for (uint32_t hart = 0; hart < harts_.size(); ++hart) {
    if (harts_[hart].sink == nullptr) {
      throw std::runtime_error(fmt::format("clint {}: hart {} is not connected", name(), hart));
    }
  }
}

void Clint::reset() {
  registers_.reset();
  for (HartTimer& timer : harts_) {
    timer.mtimecmp = UINT64_MAX;
    if (timer.msip) timer.sink->set_interrupt(cpu::kMsip, false);
    timer.msip = false;
  }
  write_mtime(0, sc_core::sc_time_stamp());
}

uint64_t Clint::mtime(const sc_core::sc_time& at) const {
  return timebase_.ps_to_cycles_floor(to_ps(at)) + mtime_offset_;
}

void Clint::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Clint::transport_dbg(tlm::tlm_generic_payload& trans) {
  return registers_.transport_dbg(trans);
}

void Clint::write_mtime(uint64_t value, const sc_core::sc_time& at) {
  mtime_offset_ = value - timebase_.ps_to_cycles_floor(to_ps(at));
  log::debug(*this, "mtime set to {}", value);
  for (uint32_t hart = 0; hart < harts_.size(); ++hart) evaluate(hart, at);
}

void Clint::write_mtimecmp(uint32_t hart, uint64_t value, const sc_core::sc_time& at) {
  harts_[hart].mtimecmp = value;
  log::debug(*this, "hart {} mtimecmp set to {} (mtime {})", hart, value, mtime(at));
  evaluate(hart, at);
}

void Clint::deadline_method() {
  for (uint32_t hart = 0; hart < harts_.size(); ++hart) evaluate(hart, sc_core::sc_time_stamp());
}

void Clint::evaluate(uint32_t hart, const sc_core::sc_time& at) {
  HartTimer& timer = harts_[hart];
  const bool level = mtime(at) >= timer.mtimecmp;
  if (level != timer.mtip) {
    timer.mtip = level;
    timer.sink->set_interrupt(cpu::kMtip, level);
  }
  timer.deadline->cancel();
  if (level) return;
  // mtime reaches mtimecmp when the raw timebase count reaches mtimecmp - offset. If that count
  // is behind us, mtime wrapped past 2^64 on its way: it never gets there.
  const uint64_t target_count = timer.mtimecmp - mtime_offset_;
  if (target_count <= timebase_.ps_to_cycles_floor(to_ps(at))) return;
  const std::optional<uint64_t> deadline_ps = timebase_.first_ps_with_cycles(target_count);
  const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
  const uint64_t max_ps = to_ps(sc_core::sc_max_time());
  if (!deadline_ps || *deadline_ps > max_ps) return;
  timer.deadline->notify(from_ps(*deadline_ps - now_ps));
}

}  // namespace ssdvp
