#include "lib/mem.h"

#include <stdint.h>

/* Words that may alias any object (the copies serve every type). */
typedef uint32_t __attribute__((may_alias)) mem_word_t;

/* Whether both addresses are as far from a word boundary: words can then be copied. */
static int co_aligned(const void *a, const void *b) {
  return (((uintptr_t)a ^ (uintptr_t)b) & 3u) == 0;
}

static void copy_forward(uint8_t *to, const uint8_t *from, size_t bytes) {
  if (co_aligned(to, from)) {
    for (; bytes != 0 && ((uintptr_t)to & 3u) != 0; --bytes) {
      *to++ = *from++;
    }
    mem_word_t *to_words = (mem_word_t *)to;
    const mem_word_t *from_words = (const mem_word_t *)from;
    for (; bytes >= 16u; bytes -= 16u) {
      to_words[0] = from_words[0];
      to_words[1] = from_words[1];
      to_words[2] = from_words[2];
      to_words[3] = from_words[3];
      to_words += 4;
      from_words += 4;
    }
    for (; bytes >= 4u; bytes -= 4u) {
      *to_words++ = *from_words++;
    }
    to = (uint8_t *)to_words;
    from = (const uint8_t *)from_words;
  }
  for (; bytes != 0; --bytes) {
    *to++ = *from++;
  }
}

/* From the last byte down: a move to a higher address over its own source. */
static void copy_backward(uint8_t *to, const uint8_t *from, size_t bytes) {
  to += bytes;
  from += bytes;
  if (co_aligned(to, from)) {
    for (; bytes != 0 && ((uintptr_t)to & 3u) != 0; --bytes) {
      *--to = *--from;
    }
    mem_word_t *to_words = (mem_word_t *)to;
    const mem_word_t *from_words = (const mem_word_t *)from;
    for (; bytes >= 16u; bytes -= 16u) {
      to_words -= 4;
      from_words -= 4;
      to_words[3] = from_words[3];
      to_words[2] = from_words[2];
      to_words[1] = from_words[1];
      to_words[0] = from_words[0];
    }
    for (; bytes >= 4u; bytes -= 4u) {
      *--to_words = *--from_words;
    }
    to = (uint8_t *)to_words;
    from = (const uint8_t *)from_words;
  }
  for (; bytes != 0; --bytes) {
    *--to = *--from;
  }
}

void *fw_memcpy(void *destination, const void *source, size_t bytes) {
  copy_forward((uint8_t *)destination, (const uint8_t *)source, bytes);
  return destination;
}

void *fw_memmove(void *destination, const void *source, size_t bytes) {
  uint8_t *to = (uint8_t *)destination;
  const uint8_t *from = (const uint8_t *)source;
  if (to <= from || to >= from + bytes) {
    copy_forward(to, from, bytes);
  } else {
    copy_backward(to, from, bytes);
  }
  return destination;
}

void *fw_memset(void *destination, int value, size_t bytes) {
  uint8_t *to = (uint8_t *)destination;
  uint8_t byte = (uint8_t)value;
  for (; bytes != 0 && ((uintptr_t)to & 3u) != 0; --bytes) {
    *to++ = byte;
  }
  uint32_t word = byte * 0x01010101u;
  mem_word_t *to_words = (mem_word_t *)to;
  for (; bytes >= 16u; bytes -= 16u) {
    to_words[0] = word;
    to_words[1] = word;
    to_words[2] = word;
    to_words[3] = word;
    to_words += 4;
  }
  for (; bytes >= 4u; bytes -= 4u) {
    *to_words++ = word;
  }
  to = (uint8_t *)to_words;
  for (; bytes != 0; --bytes) {
    *to++ = byte;
  }
  return destination;
}

#ifdef __riscv
/* The controller core's: the compiler's own calls (structure copies, memset of arrays) land here
 * too. */
void *memcpy(void *destination, const void *source, size_t bytes)
    __attribute__((alias("fw_memcpy")));
void *memmove(void *destination, const void *source, size_t bytes)
    __attribute__((alias("fw_memmove")));
void *memset(void *destination, int value, size_t bytes) __attribute__((alias("fw_memset")));
#endif
