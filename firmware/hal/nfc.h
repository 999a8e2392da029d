/* The NAND flash controller (interface/nfc_regs.h, nfc_desc.h): its geometry registers, its two
 * rings and its interrupt. The firmware fills descriptors (one flash operation on one die each,
 * with an io list in memory for reads and programs) and submits them; the NFC runs them and
 * posts a completion per descriptor, raising IRQ_SRC_NFC. The interrupt handler acknowledges
 * the interrupt and hands every new completion to the completion handler given to nfc_start.
 * One hart drives the NFC: the calls are not safe from several harts at once. */
#ifndef SSDVP_FIRMWARE_HAL_NFC_H
#define SSDVP_FIRMWARE_HAL_NFC_H

#include <stdbool.h>
#include <stdint.h>

#include "nand_geometry.h"
#include "nfc_desc.h"

/* Called for each completion, oldest first, with interrupts disabled on the driving hart. */
typedef void (*nfc_completion_handler_t)(const nfc_completion_t *completion, void *context);

/* False when no NFC answers at MM_NFC_BASE (wrong ID). */
bool nfc_present(void);
/* The array behind the NFC, from its read-only geometry registers. */
nand_geometry_t nfc_geometry(void);

/* Starts the rings in the given memory (entries: powers of two, at least 2) and takes the NFC
 * interrupt on the calling hart. Interrupts must then be enabled (irq_enable) for completions to
 * reach `handler` as they arrive. */
void nfc_start(nfc_desc_t *descriptor_ring, uint32_t descriptor_entries,
               nfc_completion_t *completion_ring, uint32_t completion_entries,
               nfc_completion_handler_t handler, void *context);

/* Copies the descriptor into the ring (waiting while the ring is full) and rings the doorbell.
 * Its io list and buffers must stay untouched until its completion. */
void nfc_submit(const nfc_desc_t *descriptor);

/* Hands every completion posted so far to the handler; returns how many. For polling with the
 * NFC interrupt masked; the interrupt handler calls it too. */
uint32_t nfc_poll(void);

/* Descriptors. `io` holds one entry per plane for a read, bits_per_cell entries per plane
 * (plane-major, in page-type order) for a program; an erase has none. */
nfc_desc_t nfc_read_descriptor(uint32_t id, uint32_t ppn, uint32_t planes, const nfc_io_t *io);
nfc_desc_t nfc_program_descriptor(uint32_t id, uint32_t ppn, uint32_t planes, const nfc_io_t *io);
nfc_desc_t nfc_erase_descriptor(uint32_t id, uint32_t ppn, uint32_t planes);

#endif
