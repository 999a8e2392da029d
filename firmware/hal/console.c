#include "hal/console.h"

#include <stdarg.h>

#include "hal/irq.h"
#include "hal/mmio.h"
#include "lib/format.h"
#include "lib/spinlock.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

static spinlock_t console_lock = SPINLOCK_INIT;

static void transmit(char c) {
  mmio_write32(MM_SYSCTRL_BASE + SYSCTRL_CONSOLE_TX, (uint8_t)c);
}

static void transmit_sink(void *context, char c) {
  (void)context;
  transmit(c);
}

static uint32_t lock_console(void) {
  uint32_t saved = irq_save_disable();
  spinlock_acquire(&console_lock);
  return saved;
}

static void unlock_console(uint32_t saved) {
  spinlock_release(&console_lock);
  irq_restore(saved);
}

void console_putc(char c) {
  uint32_t saved = lock_console();
  transmit(c);
  unlock_console(saved);
}

void console_puts(const char *text) {
  uint32_t saved = lock_console();
  while (*text != 0) {
    transmit(*text++);
  }
  unlock_console(saved);
}

int fw_printf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  uint32_t saved = lock_console();
  int count = fw_vformat(transmit_sink, 0, format, args);
  unlock_console(saved);
  va_end(args);
  return count;
}
