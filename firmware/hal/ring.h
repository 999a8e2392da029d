/* Rings the firmware shares with a device (HIC events, NFC completions): when to give consumed
 * entries back. */
#ifndef SSDVP_FIRMWARE_HAL_RING_H
#define SSDVP_FIRMWARE_HAL_RING_H

#include <stdbool.h>
#include <stdint.h>

/* True once an eighth of the ring has been consumed since the head was last written back: one
 * register write per batch instead of per entry. The firmware consumes entries as they come, so
 * the device still finds room unless entries pile up unread. `mask` is entries - 1. */
static inline bool ring_release_due(uint32_t head, uint32_t released, uint32_t mask) {
  return ((head - released) & mask) >= (mask + 1u) / 8u;
}

#endif
