/* NAND flash controller register map (window MM_NFC_BASE). All registers are 32 bits.
 * The firmware places a descriptor ring (nfc_desc_t) and a completion ring (nfc_completion_t)
 * in SRAM or DRAM, programs their bases and sizes, sets ENABLE, then submits by writing the
 * submission tail and consumes completions up to the completion tail, acknowledging with the
 * completion head. Ring sizes are powers of two; indices wrap modulo the size. */
#ifndef SSDVP_INTERFACE_NFC_REGS_H
#define SSDVP_INTERFACE_NFC_REGS_H

#define NFC_ID 0x00u              /* RO: NFC_ID_VALUE */
/* RO geometry (see nand_geometry.h) */
#define NFC_CHANNELS 0x04u
#define NFC_WAYS 0x08u
#define NFC_DIES 0x0Cu
#define NFC_PLANES 0x10u
#define NFC_BLOCKS 0x14u
#define NFC_PAGES 0x18u
#define NFC_PAGE_BYTES 0x1Cu
#define NFC_OOB_BYTES 0x20u
#define NFC_BITS_PER_CELL 0x24u

#define NFC_SQ_BASE 0x40u    /* RW: address of the descriptor ring */
#define NFC_SQ_ENTRIES 0x44u /* RW: ring size in descriptors, a power of two */
#define NFC_SQ_TAIL 0x48u    /* RW: doorbell, index after the last submitted descriptor */
#define NFC_SQ_HEAD 0x4Cu    /* RO: index of the next descriptor the NFC fetches */
#define NFC_CQ_BASE 0x50u    /* RW: address of the completion ring */
#define NFC_CQ_ENTRIES 0x54u /* RW: ring size in completions, a power of two */
#define NFC_CQ_HEAD 0x58u    /* RW: index after the last completion the firmware gave back */
#define NFC_CQ_TAIL 0x5Cu    /* RO: index after the last completion posted */
#define NFC_IRQ_STATUS 0x60u /* R/W1C: NFC_IRQ_COMPLETION */
#define NFC_IRQ_ENABLE 0x64u /* RW */
#define NFC_ENABLE 0x68u     /* RW: bit 0 starts the rings (bases and sizes are then fixed) */

#define NFC_ID_VALUE 0x4E464331u /* "NFC1" */
#define NFC_IRQ_COMPLETION 0x1u

#endif
