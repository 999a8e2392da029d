/* Fixed-size bitmaps over 32-bit words (page-validity tables, free-slot maps). */
#ifndef SSDVP_FIRMWARE_LIB_BITMAP_H
#define SSDVP_FIRMWARE_LIB_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BITMAP_NONE 0xFFFFFFFFu

/* Words a bitmap of `bits` bits needs. */
static inline uint32_t bitmap_words(uint32_t bits) { return (bits + 31u) / 32u; }

static inline bool bitmap_test(const uint32_t *map, uint32_t bit) {
  return (map[bit >> 5] >> (bit & 31u)) & 1u;
}

static inline void bitmap_set(uint32_t *map, uint32_t bit) { map[bit >> 5] |= 1u << (bit & 31u); }

static inline void bitmap_clear(uint32_t *map, uint32_t bit) {
  map[bit >> 5] &= ~(1u << (bit & 31u));
}

/* Clears bits [first, first + count). */
void bitmap_clear_range(uint32_t *map, uint32_t first, uint32_t count);

/* Set bits among [0, bits). */
uint32_t bitmap_count(const uint32_t *map, uint32_t bits);

/* The lowest set bit at or after `from` and below `bits`, or BITMAP_NONE. */
uint32_t bitmap_next_set(const uint32_t *map, uint32_t bits, uint32_t from);

#ifdef __cplusplus
}
#endif

#endif
