/* User data moves through the controller as tags, not bytes: a page's content is the LPN and the
 * version the host wrote there. A buffer slot is page-sized in the memory map (so SRAM/DRAM
 * budgets are real) but only its first DATA_TAG_BYTES are read or written. The host model
 * checks every tag it reads back against the version it last wrote (the integrity oracle). */
#ifndef SSDVP_INTERFACE_DATA_TAG_H
#define SSDVP_INTERFACE_DATA_TAG_H

#define DATA_TAG_BYTES 8u
/* Version of an LPN never written, or trimmed: it reads as zeroes. */
#define DATA_TAG_VERSION_NONE 0u
/* What a read of an erased flash page leaves in the slot (the erased pattern). */
#define DATA_TAG_ERASED_WORD 0xFFFFFFFFu

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct data_tag {
  uint32_t lpn;
  uint32_t version;
} data_tag_t;
#endif

#endif
