/* The platform console (SYSCTRL_CONSOLE_TX). Output of one call is never interleaved with
 * another hart's: each call holds the console lock, with interrupts off on the calling hart. */
#ifndef SSDVP_FIRMWARE_HAL_CONSOLE_H
#define SSDVP_FIRMWARE_HAL_CONSOLE_H

void console_putc(char c);
void console_puts(const char *text);

/* printf to the console through lib/format.h; returns the number of characters written. */
int fw_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
