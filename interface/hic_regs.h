/* Host interface controller register map (window MM_HIC_BASE). All registers are 32 bits.
 * Two rings in SRAM or DRAM connect the HIC and the firmware:
 * - the event ring (hic_event_t, HIC -> firmware): new host commands and finished transfers;
 * - the request ring (hic_request_t, firmware -> HIC): data transfers and command completions.
 * Ring sizes are powers of two; indices wrap modulo the size. */
#ifndef SSDVP_INTERFACE_HIC_REGS_H
#define SSDVP_INTERFACE_HIC_REGS_H

#define HIC_ID 0x00u            /* RO: HIC_ID_VALUE */
#define HIC_LPN_COUNT 0x04u     /* RO: logical pages the host may address */
#define HIC_MAX_COMMANDS 0x08u  /* RO: command slots (cmd_id < this) */
#define HIC_SECTOR_BYTES 0x0Cu  /* RO: host sector size */
#define HIC_PAGE_BYTES 0x10u    /* RO: logical page size (one LPN) */

#define HIC_EVQ_BASE 0x40u      /* RW: address of the event ring */
#define HIC_EVQ_ENTRIES 0x44u   /* RW: ring size, a power of two */
#define HIC_EVQ_HEAD 0x48u      /* RW: index after the last event the firmware gave back */
#define HIC_EVQ_TAIL 0x4Cu      /* RO: index after the last event posted */
#define HIC_RQ_BASE 0x50u       /* RW: address of the request ring */
#define HIC_RQ_ENTRIES 0x54u    /* RW: ring size, a power of two */
#define HIC_RQ_TAIL 0x58u       /* RW: doorbell, index after the last request submitted */
#define HIC_RQ_HEAD 0x5Cu       /* RO: index of the next request the HIC takes */
#define HIC_IRQ_STATUS 0x60u    /* R/W1C: HIC_IRQ_EVENT */
#define HIC_IRQ_ENABLE 0x64u    /* RW */
#define HIC_ENABLE 0x68u        /* RW: bit 0 starts the rings (bases and sizes are then fixed) */

#define HIC_ID_VALUE 0x48494331u /* "HIC1" */
#define HIC_IRQ_EVENT 0x1u

#endif
