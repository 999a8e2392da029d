/* Entries of the host interface controller rings (see hic_regs.h).
 *
 * A host command arrives as a HIC_EVENT_COMMAND naming its slot (cmd_id), op, first LPN and page
 * count; a sector range that is not page aligned is widened to whole pages and flagged partial
 * at its first and/or last page. The firmware then asks the HIC, page by page:
 * - HIC_REQ_DATA_IN: move page `page_index` of a write from the host into the buffer slot (the
 *   HIC writes its data_tag_t there after the link transfer time);
 * - HIC_REQ_DATA_OUT: move the buffer slot's page to the host (the host checks its tag);
 * each answered by a HIC_EVENT_TRANSFER_DONE; and finally
 * - HIC_REQ_COMPLETE: the command is done with `status`; its slot is free again.
 * A write flagged HIC_CMD_FUA completes only after its pages are programmed (NVMe's FUA); a
 * flush completes after everything completed before it is on the NAND.
 * A trim clears only the pages it covers whole; its HIC_CMD_PARTIAL_* pages keep their data. */
#ifndef SSDVP_INTERFACE_HIC_CMD_H
#define SSDVP_INTERFACE_HIC_CMD_H

#define HIC_OP_READ 1u
#define HIC_OP_WRITE 2u
#define HIC_OP_TRIM 3u
#define HIC_OP_FLUSH 4u

#define HIC_EVENT_COMMAND 1u
#define HIC_EVENT_TRANSFER_DONE 2u

#define HIC_CMD_PARTIAL_FIRST 0x1u /* the first page is written only in part */
#define HIC_CMD_PARTIAL_LAST 0x2u  /* the last page is written only in part */
/* Force unit access (writes): the command completes only once its data is on the NAND, not
 * while it sits in the write buffer; its mapping may still be in controller memory only. */
#define HIC_CMD_FUA 0x4u

#define HIC_REQ_DATA_IN 1u
#define HIC_REQ_DATA_OUT 2u
#define HIC_REQ_COMPLETE 3u

#define HIC_STATUS_OK 0u
#define HIC_STATUS_ERROR 1u        /* e.g. an unrecoverable read */
#define HIC_STATUS_INVALID 2u      /* e.g. an LPN beyond HIC_LPN_COUNT */

#define HIC_EVENT_BYTES 32u
#define HIC_REQUEST_BYTES 16u

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct hic_event {
  uint8_t kind;          /* HIC_EVENT_* */
  uint8_t op;            /* HIC_OP_* (commands) */
  uint16_t flags;        /* HIC_CMD_PARTIAL_*, HIC_CMD_FUA (commands) */
  uint32_t cmd_id;
  uint32_t lpn;          /* first LPN (commands) */
  uint32_t pages;        /* page count (commands) */
  uint16_t first_sector; /* sector offset of the data in the first page (commands) */
  uint16_t end_sector;   /* sector offset after the data in the last page; 0 = page end */
  uint32_t page_index;   /* transfers: which page of the command */
  uint32_t buffer;       /* transfers: the slot address of the request */
  uint32_t reserved;
} hic_event_t;

typedef struct hic_request {
  uint8_t kind;          /* HIC_REQ_* */
  uint8_t status;        /* HIC_STATUS_* (completions) */
  uint16_t reserved0;
  uint32_t cmd_id;
  uint32_t page_index;   /* transfers */
  uint32_t buffer;       /* transfers: page-sized slot holding the data tag */
} hic_request_t;

#ifdef __cplusplus
static_assert(sizeof(hic_event_t) == HIC_EVENT_BYTES, "event layout");
static_assert(sizeof(hic_request_t) == HIC_REQUEST_BYTES, "request layout");
#else
_Static_assert(sizeof(hic_event_t) == HIC_EVENT_BYTES, "event layout");
_Static_assert(sizeof(hic_request_t) == HIC_REQUEST_BYTES, "request layout");
#endif
#endif

#endif
