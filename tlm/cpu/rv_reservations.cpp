#include "tlm/cpu/rv_reservations.h"

#include <fmt/format.h>

#include <stdexcept>

namespace ssdvp::cpu {
namespace {

uint32_t granule_of(uint32_t addr) { return addr & ~(Reservations::kGranuleBytes - 1); }

}  // namespace

void Reservations::check_hart(uint32_t hart_id) const {
  if (hart_id >= kMaxHarts) {
    throw std::runtime_error(fmt::format("LR/SC reservations: hart id {} out of range 0..{}",
                                         hart_id, kMaxHarts - 1));
  }
}

void Reservations::reserve(uint32_t hart_id, uint32_t addr) {
  check_hart(hart_id);
  granule_[hart_id] = granule_of(addr);
  active_harts_ |= 1u << hart_id;
}

bool Reservations::take(uint32_t hart_id, uint32_t addr) {
  const bool held = holds(hart_id, addr);
  clear(hart_id);
  return held;
}

void Reservations::clear(uint32_t hart_id) {
  check_hart(hart_id);
  active_harts_ &= ~(1u << hart_id);
}

bool Reservations::holds(uint32_t hart_id, uint32_t addr) const {
  check_hart(hart_id);
  return (active_harts_ & (1u << hart_id)) != 0 && granule_[hart_id] == granule_of(addr);
}

void Reservations::cancel_overlapping(uint32_t writer_hart, uint32_t addr, uint32_t len) {
  const uint32_t first = granule_of(addr);
  const uint32_t last = granule_of(addr + len - 1);
  for (uint32_t hart = 0; hart < kMaxHarts; ++hart) {
    if (hart == writer_hart || (active_harts_ & (1u << hart)) == 0) continue;
    const uint32_t granule = granule_[hart];
    // A store that wraps around the top of the address space has last < first.
    const bool touched = first <= last ? (granule >= first && granule <= last)
                                       : (granule >= first || granule <= last);
    if (touched) active_harts_ &= ~(1u << hart);
  }
}

}  // namespace ssdvp::cpu
