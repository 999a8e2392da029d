/* Descriptors and completions of the NAND flash controller rings (see nfc_regs.h).
 *
 * One descriptor is one flash operation on one die:
 * - NFC_OP_READ: reads page `ppn` (and, with plane_count > 1, the same block and page of the
 *   next planes). io_list holds one nfc_io_t per plane.
 * - NFC_OP_PROGRAM: full-sequence program of the wordline whose first (LSB) page is `ppn`:
 *   io_list holds bits_per_cell entries per plane, plane-major, in page-type order.
 * - NFC_OP_ERASE: erases the block holding `ppn` (and the same block of the next planes).
 * An nfc_io_t moves a page's data and/or OOB between the page register and memory. User data is
 * a data_tag_t at the start of its page-sized buffer slot (data_tag.h); a metadata page
 * (translation page, checkpoint) moves meta_bytes real bytes. Breaking a NAND rule (programming
 * a page that is not erased, wordlines out of order, an address beyond the geometry) is a
 * firmware bug: the platform stops the run naming the address and the rule. */
#ifndef SSDVP_INTERFACE_NFC_DESC_H
#define SSDVP_INTERFACE_NFC_DESC_H

#define NFC_OP_READ 1u
#define NFC_OP_PROGRAM 2u
#define NFC_OP_ERASE 3u

/* Completion status, worst over the planes of the operation. */
#define NFC_STATUS_OK 0u
#define NFC_STATUS_ERASED 1u       /* read of an erased page: the slot holds the erased pattern */
#define NFC_STATUS_ECC_FAIL 2u     /* uncorrectable read (fault injection) */
#define NFC_STATUS_PROGRAM_FAIL 3u /* program or erase failed (fault injection, endurance) */
#define NFC_STATUS_BAD_BLOCK 4u    /* the block is a factory or grown bad block */

#define NFC_DESC_BYTES 32u
#define NFC_IO_BYTES 16u
#define NFC_COMPLETION_BYTES 16u

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct nfc_desc {
  uint8_t op;          /* NFC_OP_* */
  uint8_t plane_count; /* 1 = single plane; n = planes plane(ppn) .. plane(ppn)+n-1 */
  uint16_t reserved0;
  uint32_t id;         /* the firmware's; returned in the completion */
  uint32_t ppn;
  uint32_t io_list;    /* address of the nfc_io_t array (0 for erase) */
  uint32_t reserved[4];
} nfc_desc_t;

typedef struct nfc_io {
  uint32_t buffer;     /* data slot or metadata buffer; 0 = move no data */
  uint32_t oob;        /* OOB buffer (oob_bytes long); 0 = move no OOB */
  uint32_t meta_bytes; /* 0 = user data (a data_tag_t); else bytes of metadata, <= page size */
  uint32_t reserved;
} nfc_io_t;

typedef struct nfc_completion {
  uint32_t id;
  uint16_t status;      /* NFC_STATUS_* */
  uint16_t plane_mask;  /* planes whose status is not OK */
  uint32_t latency_ns;  /* submission-to-completion time, for the firmware's statistics */
  uint32_t reserved;
} nfc_completion_t;

#ifdef __cplusplus
static_assert(sizeof(nfc_desc_t) == NFC_DESC_BYTES, "descriptor layout");
static_assert(sizeof(nfc_io_t) == NFC_IO_BYTES, "io layout");
static_assert(sizeof(nfc_completion_t) == NFC_COMPLETION_BYTES, "completion layout");
#else
_Static_assert(sizeof(nfc_desc_t) == NFC_DESC_BYTES, "descriptor layout");
_Static_assert(sizeof(nfc_io_t) == NFC_IO_BYTES, "io layout");
_Static_assert(sizeof(nfc_completion_t) == NFC_COMPLETION_BYTES, "completion layout");
#endif
#endif

#endif
