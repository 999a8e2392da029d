#include "tlm/system/intc.h"

#include <stdexcept>

#include <fmt/format.h>

#include "interface/intc_regs.h"
#include "interface/memory_map.h"
#include "tlm/cpu/cpu_if.h"
#include "tlm/system/log.h"

namespace ssdvp {

using Access = RegisterBank::Access;

namespace {
// Source 0 means "no interrupt": its bits are never set.
constexpr uint32_t kValidSources = ~1u;
}  // namespace

Intc::Intc(sc_core::sc_module_name name, uint32_t hart_count)
    : sc_core::sc_module(name), socket("socket"), registers_(this->name()) {
  static_assert(IRQ_SRC_COUNT == 32, "sources are kept in one 32-bit word");
  if (hart_count == 0 || hart_count > MM_MAX_HARTS) {
    throw std::runtime_error(fmt::format("intc {}: {} harts: allowed 1 .. {}", this->name(),
                                         hart_count, MM_MAX_HARTS));
  }
  harts_.resize(hart_count);
  registers_.add(INTC_PENDING, "pending", 0, Access::kReadOnly,
                 [this](sc_core::sc_time&) { return pending_; });
  registers_.add(INTC_LEVEL, "level", 0, Access::kReadOnly,
                 [this](sc_core::sc_time&) { return levels_; });
  for (uint32_t hart = 0; hart < hart_count; ++hart) {
    registers_.add(INTC_ENABLE(hart), fmt::format("enable{}", hart), 0, Access::kReadWrite, {},
                   [this, hart](uint32_t value, sc_core::sc_time&) {
                     harts_[hart].enables = value & kValidSources;
                     registers_.set(INTC_ENABLE(hart), harts_[hart].enables);
                     update_meip();
                   });
    registers_.add(INTC_CLAIM(hart), fmt::format("claim{}", hart), 0, Access::kReadWrite,
                   [this, hart](sc_core::sc_time&) { return claim(hart); },
                   [this, hart](uint32_t value, sc_core::sc_time&) { complete(hart, value); });
  }
  socket.register_b_transport(this, &Intc::b_transport);
  socket.register_transport_dbg(this, &Intc::transport_dbg);
}

void Intc::connect(uint32_t hart, InterruptSink& sink) {
  if (hart >= harts_.size()) {
    throw std::runtime_error(fmt::format("intc {}: hart {} does not exist: allowed 0 .. {}",
                                         name(), hart, harts_.size() - 1));
  }
  harts_[hart].sink = &sink;
  update_meip();
}

void Intc::end_of_elaboration() {
  for (uint32_t hart = 0; hart < harts_.size(); ++hart) {
    if (harts_[hart].sink == nullptr) {
      throw std::runtime_error(fmt::format("intc {}: hart {} is not connected", name(), hart));
    }
  }
}

void Intc::reset() {
  registers_.reset();
  for (HartContext& context : harts_) context.enables = 0;
  in_service_ = 0;
  pending_ = levels_;
  update_meip();
}

void Intc::set_line(unsigned source, bool level) {
  if (source == IRQ_SRC_NONE || source >= IRQ_SRC_COUNT) {
    throw std::runtime_error(fmt::format("intc {}: interrupt source {} does not exist: allowed 1 .. {}",
                                         name(), source, IRQ_SRC_COUNT - 1));
  }
  const uint32_t bit = 1u << source;
  levels_ = level ? (levels_ | bit) : (levels_ & ~bit);
  // The gateway forwards a high line unless the source is being served; a pending request
  // stays pending when the line drops (it is consumed by a claim).
  if (level && (in_service_ & bit) == 0) pending_ |= bit;
  update_meip();
}

uint32_t Intc::claim(uint32_t hart) {
  const uint32_t claimable = pending_ & harts_[hart].enables;
  if (claimable == 0) return IRQ_SRC_NONE;
  const uint32_t source = static_cast<uint32_t>(__builtin_ctz(claimable));
  const uint32_t bit = 1u << source;
  pending_ &= ~bit;
  in_service_ |= bit;
  update_meip();
  return source;
}

void Intc::complete(uint32_t hart, uint32_t source) {
  if (source == IRQ_SRC_NONE || source >= IRQ_SRC_COUNT || (in_service_ & (1u << source)) == 0) {
    log::warn(*this, "hart {} completes source {}, which is not in service: ignored", hart, source);
    return;
  }
  const uint32_t bit = 1u << source;
  in_service_ &= ~bit;
  if (levels_ & bit) pending_ |= bit;
  update_meip();
}

void Intc::update_meip() {
  for (HartContext& context : harts_) {
    const bool level = (pending_ & context.enables) != 0;
    if (context.sink != nullptr && level != context.meip) {
      context.meip = level;
      context.sink->set_interrupt(cpu::kMeip, level);
    }
  }
}

void Intc::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Intc::transport_dbg(tlm::tlm_generic_payload& trans) {
  return registers_.transport_dbg(trans);
}

}  // namespace ssdvp
