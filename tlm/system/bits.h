// Bit arithmetic the device models share: their register checks accept ring sizes, sector and
// page sizes only as powers of two, which the hardware indexes with masks.
#pragma once

#include <cstdint>

namespace ssdvp {

constexpr bool is_power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

}  // namespace ssdvp
