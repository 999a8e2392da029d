#include "hal/system.h"

#include "hal/irq.h"
#include "hal/mmio.h"
#include "lib/spinlock.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

/* TIME_HI is latched by the last TIME_LO read of any hart: the two reads form one unit. */
static spinlock_t time_lock = SPINLOCK_INIT;

void system_exit(uint32_t code) {
  mmio_write32(MM_SYSCTRL_BASE + SYSCTRL_EXIT, code);
  for (;;) {
    cpu_wait_for_interrupt();
  }
}

void system_fault(void) {
  mmio_write32(MM_SYSCTRL_BASE + SYSCTRL_FAULT, system_hart_id());
  for (;;) {
    cpu_wait_for_interrupt();
  }
}

uint64_t system_time_ns(void) {
  uint32_t saved = irq_save_disable();
  spinlock_acquire(&time_lock);
  uint32_t low = mmio_read32(MM_SYSCTRL_BASE + SYSCTRL_TIME_LO);
  uint32_t high = mmio_read32(MM_SYSCTRL_BASE + SYSCTRL_TIME_HI);
  spinlock_release(&time_lock);
  irq_restore(saved);
  return ((uint64_t)high << 32) | low;
}

const boot_config_t *system_boot_config(void) {
  return (const boot_config_t *)MM_BOOT_CONFIG_ADDR;
}
