/* Device register access. Every access is volatile and of the exact width asked for, so the
 * compiler neither merges, splits nor drops it. Addresses come from interface/ macros only. */
#ifndef SSDVP_FIRMWARE_HAL_MMIO_H
#define SSDVP_FIRMWARE_HAL_MMIO_H

#include <stdint.h>

static inline uint8_t mmio_read8(uintptr_t address) {
  return *(volatile const uint8_t *)address;
}

static inline uint16_t mmio_read16(uintptr_t address) {
  return *(volatile const uint16_t *)address;
}

static inline uint32_t mmio_read32(uintptr_t address) {
  return *(volatile const uint32_t *)address;
}

static inline void mmio_write8(uintptr_t address, uint8_t value) {
  *(volatile uint8_t *)address = value;
}

static inline void mmio_write16(uintptr_t address, uint16_t value) {
  *(volatile uint16_t *)address = value;
}

static inline void mmio_write32(uintptr_t address, uint32_t value) {
  *(volatile uint32_t *)address = value;
}

/* Orders memory and device accesses: ring memory must not move across the register accesses
 * that publish it to a device or take it back. */
static inline void mmio_fence(void) {
  __asm__ volatile("fence iorw, iorw" ::: "memory");
}

#endif
