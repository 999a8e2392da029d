#include "hal/irq.h"

#include "clint_regs.h"
#include "hal/csr.h"
#include "hal/mmio.h"
#include "hal/system.h"
#include "intc_regs.h"
#include "memory_map.h"

struct irq_binding {
  irq_handler_t handler;
  void *context;
};

static struct irq_binding source_bindings[IRQ_SRC_COUNT];
static struct irq_binding software_bindings[MM_MAX_HARTS];
static struct irq_binding timer_bindings[MM_MAX_HARTS];

void irq_enable(void) {
  csr_set(mstatus, MSTATUS_MIE);
}

void irq_disable(void) {
  csr_clear(mstatus, MSTATUS_MIE);
}

uint32_t irq_save_disable(void) {
  return csr_read_clear(mstatus, MSTATUS_MIE) & MSTATUS_MIE;
}

void irq_restore(uint32_t saved) {
  csr_set(mstatus, saved & MSTATUS_MIE);
}

static void check_source(unsigned source) {
  if (source == IRQ_SRC_NONE || source >= IRQ_SRC_COUNT) {
    system_fault();
  }
}

void irq_register_source(unsigned source, irq_handler_t handler, void *context) {
  check_source(source);
  uint32_t saved = irq_save_disable();
  source_bindings[source].handler = handler;
  source_bindings[source].context = context;
  irq_restore(saved);
}

void irq_enable_source(unsigned source) {
  check_source(source);
  uintptr_t enable = MM_INTC_BASE + INTC_ENABLE(system_hart_id());
  uint32_t saved = irq_save_disable();
  mmio_write32(enable, mmio_read32(enable) | (1u << source));
  csr_set(mie, MIE_MEIE);
  irq_restore(saved);
}

void irq_disable_source(unsigned source) {
  check_source(source);
  uintptr_t enable = MM_INTC_BASE + INTC_ENABLE(system_hart_id());
  uint32_t saved = irq_save_disable();
  mmio_write32(enable, mmio_read32(enable) & ~(1u << source));
  irq_restore(saved);
}

void irq_set_software_handler(irq_handler_t handler, void *context) {
  unsigned hart = system_hart_id();
  uint32_t saved = irq_save_disable();
  software_bindings[hart].handler = handler;
  software_bindings[hart].context = context;
  if (handler != 0) {
    csr_set(mie, MIE_MSIE);
  } else {
    csr_clear(mie, MIE_MSIE);
  }
  irq_restore(saved);
}

void irq_send_software(unsigned hart_id) {
  mmio_write32(MM_CLINT_BASE + CLINT_MSIP(hart_id), 1u);
}

void irq_set_timer_handler(irq_handler_t handler, void *context) {
  unsigned hart = system_hart_id();
  uint32_t saved = irq_save_disable();
  timer_bindings[hart].handler = handler;
  timer_bindings[hart].context = context;
  irq_restore(saved);
}

static void call(const struct irq_binding *binding, unsigned hart) {
  if (binding->handler == 0) {
    system_fault();
  }
  binding->handler(hart, binding->context);
}

/* Serves every source the controller lets this hart claim, lowest number first. The
 * controller drops MEIP as it completes the last one, so mip tells whether to claim again: a
 * CSR read, where a claim that finds nothing would be a bus read. */
static void serve_external(unsigned hart) {
  uintptr_t claim = MM_INTC_BASE + INTC_CLAIM(hart);
  do {
    uint32_t source = mmio_read32(claim);
    if (source == IRQ_SRC_NONE) {
      return; /* another hart claimed it */
    }
    if (source >= IRQ_SRC_COUNT) {
      system_fault();
    }
    call(&source_bindings[source], hart);
    mmio_write32(claim, source);
  } while ((csr_read(mip) & MIP_MEIP) != 0);
}

/* Serves the interrupts set in `pending` (mip bits). Out of line: irq_poll's check stays free of
 * the register saves the handler calls need. */
static __attribute__((noinline)) void serve_pending(uint32_t pending) {
  unsigned hart = system_hart_id();
  if ((pending & MIP_MSIP) != 0) {
    mmio_write32(MM_CLINT_BASE + CLINT_MSIP(hart), 0u);
    call(&software_bindings[hart], hart);
  }
  if ((pending & MIP_MTIP) != 0) {
    call(&timer_bindings[hart], hart);
  }
  if ((pending & MIP_MEIP) != 0) {
    serve_external(hart);
  }
}

void irq_poll(void) {
  uint32_t pending = csr_read(mip) & csr_read(mie);
  if (pending != 0) {
    serve_pending(pending);
  }
}

void trap_dispatch(uint32_t mcause) {
  /* Interrupt cause n is bit n of mip. */
  uint32_t cause = mcause & ~MCAUSE_INTERRUPT;
  uint32_t served = MIP_MSIP | MIP_MTIP | MIP_MEIP;
  if ((mcause & MCAUSE_INTERRUPT) == 0 || cause > 31u || ((1u << cause) & served) == 0) {
    system_fault();
  }
  serve_pending(1u << cause);
}
