#include "hal/timer.h"

#include "clint_regs.h"
#include "hal/csr.h"
#include "hal/mmio.h"
#include "hal/system.h"
#include "memory_map.h"

#define NS_PER_SECOND 1000000000ull
#define NO_DEADLINE UINT64_MAX /* mtimecmp value that never fires */

struct oneshot {
  bool armed;
  uint64_t deadline;
  irq_handler_t handler;
  void *context;
};

static struct oneshot oneshots[MM_MAX_HARTS];

uint64_t timer_now(void) {
  /* The high word may carry between the two reads of the low word's pair: read until stable. */
  uint32_t high;
  uint32_t low;
  do {
    high = mmio_read32(MM_CLINT_BASE + CLINT_MTIME_HI);
    low = mmio_read32(MM_CLINT_BASE + CLINT_MTIME_LO);
  } while (high != mmio_read32(MM_CLINT_BASE + CLINT_MTIME_HI));
  return ((uint64_t)high << 32) | low;
}

uint64_t timer_ticks_from_ns(uint64_t ns) {
  uint64_t rate = system_boot_config()->timebase_hz;
  /* Whole seconds and the remainder apart, so ns * rate cannot overflow. */
  return (ns / NS_PER_SECOND) * rate + (ns % NS_PER_SECOND) * rate / NS_PER_SECOND;
}

uint64_t timer_ns_from_ticks(uint64_t ticks) {
  uint64_t rate = system_boot_config()->timebase_hz;
  return (ticks / rate) * NS_PER_SECOND + (ticks % rate) * NS_PER_SECOND / rate;
}

/* Programs mtimecmp without a transient value below both the old and the new compare value:
 * the high word is parked at its maximum while the low word changes. */
static void set_compare(unsigned hart, uint64_t value) {
  mmio_write32(MM_CLINT_BASE + CLINT_MTIMECMP_HI(hart), UINT32_MAX);
  mmio_write32(MM_CLINT_BASE + CLINT_MTIMECMP_LO(hart), (uint32_t)value);
  mmio_write32(MM_CLINT_BASE + CLINT_MTIMECMP_HI(hart), (uint32_t)(value >> 32));
}

/* Points the comparator at the earliest of the one-shot and `wake` (NO_DEADLINE = none) and
 * turns the timer interrupt off when there is neither. */
static void program_comparator(unsigned hart, uint64_t wake) {
  uint64_t next = wake;
  if (oneshots[hart].armed && oneshots[hart].deadline < next) {
    next = oneshots[hart].deadline;
  }
  set_compare(hart, next);
  if (next == NO_DEADLINE) {
    csr_clear(mie, MIE_MTIE);
  } else {
    csr_set(mie, MIE_MTIE);
  }
}

static void on_timer_interrupt(unsigned hart, void *context) {
  (void)context;
  struct oneshot *oneshot = &oneshots[hart];
  if (oneshot->armed && timer_now() >= oneshot->deadline) {
    irq_handler_t handler = oneshot->handler;
    void *handler_context = oneshot->context;
    oneshot->armed = false;
    program_comparator(hart, NO_DEADLINE);
    handler(hart, handler_context);
  } else {
    /* A sleep deadline: timer_sleep_until sees the time itself and re-arms what remains. */
    program_comparator(hart, NO_DEADLINE);
  }
}

void timer_oneshot_at(uint64_t deadline, irq_handler_t handler, void *context) {
  unsigned hart = system_hart_id();
  if (handler == 0 || deadline == NO_DEADLINE) {
    system_fault();
  }
  uint32_t saved = irq_save_disable();
  irq_set_timer_handler(on_timer_interrupt, 0);
  oneshots[hart].armed = true;
  oneshots[hart].deadline = deadline;
  oneshots[hart].handler = handler;
  oneshots[hart].context = context;
  program_comparator(hart, NO_DEADLINE);
  irq_restore(saved);
}

void timer_cancel(void) {
  unsigned hart = system_hart_id();
  uint32_t saved = irq_save_disable();
  oneshots[hart].armed = false;
  program_comparator(hart, NO_DEADLINE);
  irq_restore(saved);
}

bool timer_oneshot_armed(void) {
  return oneshots[system_hart_id()].armed;
}

void timer_sleep_until(uint64_t deadline) {
  unsigned hart = system_hart_id();
  uint32_t saved = irq_save_disable();
  irq_set_timer_handler(on_timer_interrupt, 0);
  while (timer_now() < deadline) {
    program_comparator(hart, deadline);
    /* WFI wakes on the pending timer even with interrupts off; they are let in right after so
     * an armed one-shot's handler runs, and the loop re-checks the time. */
    cpu_wait_for_interrupt();
    irq_restore(saved);
    saved = irq_save_disable();
  }
  program_comparator(hart, NO_DEADLINE);
  irq_restore(saved);
}
