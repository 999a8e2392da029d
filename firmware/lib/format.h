/* A freestanding printf engine: no heap, no floating point, output through a callback.
 * Conversions: %d %i %u %x %X %o %c %s %p %%. Flags: - 0 + space #. Width and precision, as
 * numbers or '*'. Length modifiers: hh h l ll z j t. The results match C's snprintf, except
 * %p of a null pointer, which prints "0x0". A conversion it does not know (e.g. %f, %n) is
 * copied to the output as written, so a mistake shows instead of vanishing. */
#ifndef SSDVP_FIRMWARE_LIB_FORMAT_H
#define SSDVP_FIRMWARE_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Receives the output one character at a time. */
typedef void (*format_sink_t)(void *context, char c);

/* Formats into `sink`; returns the number of characters produced. */
int fw_vformat(format_sink_t sink, void *context, const char *format, va_list args);
int fw_format(format_sink_t sink, void *context, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Like C's snprintf: writes at most size - 1 characters and a terminating NUL (nothing when
 * size is 0) and returns the length the full output would have. */
int fw_vsnprintf(char *buffer, size_t size, const char *format, va_list args);
int fw_snprintf(char *buffer, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
