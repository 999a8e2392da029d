// LR/SC reservation set shared by all harts of one SoC. A hart's LR.W reserves a granule; a store
// by any other hart that touches that granule cancels the reservation; SC.W succeeds only while the
// same hart still holds a reservation on the same granule, and always ends it.
#pragma once

#include <array>
#include <cstdint>

#include "memory_map.h"

namespace ssdvp::cpu {

class Reservations {
 public:
  static constexpr uint32_t kGranuleBytes = 4;  // one aligned word, the size of LR.W
  static constexpr uint32_t kMaxHarts = MM_MAX_HARTS;
  static constexpr uint32_t kNoHart = ~0u;  // a store by a bus master that is no hart

  // Throws std::runtime_error when hart_id is not below kMaxHarts.
  void reserve(uint32_t hart_id, uint32_t addr);
  // SC.W: true if the hart held a reservation on addr's granule. The reservation ends either way.
  bool take(uint32_t hart_id, uint32_t addr);
  // A store of `len` bytes at addr by `writer_hart` (or kNoHart) cancels every other hart's
  // reservation on the granules it touches.
  void on_store(uint32_t writer_hart, uint32_t addr, uint32_t len) {
    if (active_harts_ != 0) cancel_overlapping(writer_hart, addr, len);
  }
  // Drops the hart's reservation (reset).
  void clear(uint32_t hart_id);
  bool holds(uint32_t hart_id, uint32_t addr) const;
  // Non-zero while any hart holds a reservation (translated stores test it in place).
  const uint32_t& active_harts() const { return active_harts_; }

 private:
  void check_hart(uint32_t hart_id) const;
  void cancel_overlapping(uint32_t writer_hart, uint32_t addr, uint32_t len);

  std::array<uint32_t, kMaxHarts> granule_{};  // reserved granule address, valid if bit is set
  uint32_t active_harts_ = 0;                  // bit n: hart n holds a reservation
};

}  // namespace ssdvp::cpu
