/* Interrupts of the hart: global enable, the interrupt controller's sources (claim/complete),
 * the CLINT software interrupt, and the trap dispatcher called by boot/trap.S. */
#ifndef SSDVP_FIRMWARE_HAL_IRQ_H
#define SSDVP_FIRMWARE_HAL_IRQ_H

#include <stdint.h>

/* Runs in the trap handler, interrupts disabled, on the hart that took the interrupt. */
typedef void (*irq_handler_t)(unsigned hart_id, void *context);

/* mstatus.MIE on or off for this hart. */
void irq_enable(void);
void irq_disable(void);
/* Disables interrupts and returns the previous state, for irq_restore. */
uint32_t irq_save_disable(void);
void irq_restore(uint32_t saved);

/* Interrupt-controller sources (IRQ_SRC_* of memory_map.h). The handler is shared by all harts;
 * a source reaches a hart once enabled for it. A source out of range is a firmware fault. */
void irq_register_source(unsigned source, irq_handler_t handler, void *context);
/* Enables the source for the calling hart, and the hart's external interrupt. */
void irq_enable_source(unsigned source);
void irq_disable_source(unsigned source);

/* Software interrupt (CLINT msip): the handler of the calling hart; the pending bit is cleared
 * before the handler runs, so one send gives one call. */
void irq_set_software_handler(irq_handler_t handler, void *context);
void irq_send_software(unsigned hart_id);

/* Timer interrupt of the calling hart: used by hal/timer.c. */
void irq_set_timer_handler(irq_handler_t handler, void *context);

/* Called by boot/trap.S with mcause. Exceptions and interrupts without a handler are faults. */
void trap_dispatch(uint32_t mcause);

/* Runs the handlers of the interrupts pending and enabled for this hart, as the trap would, for
 * a loop that keeps interrupts disabled: WFI still ends on a pending interrupt, and the loop
 * saves the trap's register save and restore. */
void irq_poll(void);

#endif
