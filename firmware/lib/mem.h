/* memcpy, memmove and memset of the controller firmware. picolibc as Debian builds it for the
 * core is optimised for size: its are byte loops of about 8 cycles a byte, so a 4 KiB TP frame
 * copy cost about 35,000 cycles, where controller firmware copies words (or has a DMA engine do
 * it). These copy and fill aligned words, 16 bytes a turn, and bytes only at unaligned ends; on
 * the controller core they are memcpy, memmove and memset (the C library's are not linked). The
 * fw_ names are what the host tests call. */
#ifndef SSDVP_FIRMWARE_LIB_MEM_H
#define SSDVP_FIRMWARE_LIB_MEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *fw_memcpy(void *destination, const void *source, size_t bytes);
void *fw_memmove(void *destination, const void *source, size_t bytes);
void *fw_memset(void *destination, int value, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
