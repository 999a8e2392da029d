#include "lib/bitmap.h"

void bitmap_clear_range(uint32_t *map, uint32_t first, uint32_t count) {
  uint32_t bit = first;
  uint32_t end = first + count;
  while (bit < end && (bit & 31u) != 0) {
    bitmap_clear(map, bit++);
  }
  while (end - bit >= 32u) {
    map[bit >> 5] = 0;
    bit += 32u;
  }
  while (bit < end) {
    bitmap_clear(map, bit++);
  }
}

uint32_t bitmap_count(const uint32_t *map, uint32_t bits) {
  uint32_t total = 0;
  uint32_t full_words = bits / 32u;
  for (uint32_t w = 0; w < full_words; ++w) {
    total += (uint32_t)__builtin_popcount(map[w]);
  }
  uint32_t tail = bits & 31u;
  if (tail != 0) {
    total += (uint32_t)__builtin_popcount(map[full_words] & ((1u << tail) - 1u));
  }
  return total;
}

uint32_t bitmap_next_set(const uint32_t *map, uint32_t bits, uint32_t from) {
  if (from >= bits) {
    return BITMAP_NONE;
  }
  uint32_t word_index = from >> 5;
  uint32_t word = map[word_index] & (~0u << (from & 31u));
  uint32_t words = bitmap_words(bits);
  for (;;) {
    if (word != 0) {
      uint32_t bit = (word_index << 5) + (uint32_t)__builtin_ctz(word);
      return bit < bits ? bit : BITMAP_NONE;
    }
    if (++word_index == words) {
      return BITMAP_NONE;
    }
    word = map[word_index];
  }
}
