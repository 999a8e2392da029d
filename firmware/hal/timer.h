/* The CLINT timer of the calling hart: mtime counts at the boot config's timebase_hz.
 * One one-shot deadline per hart; timer_sleep_until shares the comparator with it. */
#ifndef SSDVP_FIRMWARE_HAL_TIMER_H
#define SSDVP_FIRMWARE_HAL_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "hal/irq.h"

/* Current mtime. */
uint64_t timer_now(void);

/* Timer ticks in `ns` nanoseconds, rounded down, at the boot config's timebase. */
uint64_t timer_ticks_from_ns(uint64_t ns);

/* Nanoseconds in `ticks` timer ticks, rounded down. */
uint64_t timer_ns_from_ticks(uint64_t ticks);

/* Calls `handler` from the timer interrupt once mtime >= deadline (interrupts must be enabled
 * for it to run). Replaces a one-shot already armed on this hart. */
void timer_oneshot_at(uint64_t deadline, irq_handler_t handler, void *context);
void timer_cancel(void);
bool timer_oneshot_armed(void);

/* Waits in WFI until mtime >= deadline. An armed one-shot still fires on time (when interrupts
 * are enabled) and stays armed if its deadline is later. */
void timer_sleep_until(uint64_t deadline);

#endif
