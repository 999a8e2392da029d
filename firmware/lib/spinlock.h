/* A test-and-set lock for data shared between harts (amoswap.w.aq / sw with release on rv32).
 * Code that may also run in an interrupt handler on the same hart must disable interrupts while
 * holding the lock, or the handler would wait for itself. */
#ifndef SSDVP_FIRMWARE_LIB_SPINLOCK_H
#define SSDVP_FIRMWARE_LIB_SPINLOCK_H

#include <stdint.h>

typedef struct spinlock {
  uint32_t locked;
} spinlock_t;

#define SPINLOCK_INIT {0}

static inline void spinlock_acquire(spinlock_t *lock) {
  while (__atomic_exchange_n(&lock->locked, 1u, __ATOMIC_ACQUIRE) != 0) {
    /* Wait with plain loads so the word is not written while another hart holds it. */
    while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0) {
    }
  }
}

static inline void spinlock_release(spinlock_t *lock) {
  __atomic_store_n(&lock->locked, 0u, __ATOMIC_RELEASE);
}

#endif
