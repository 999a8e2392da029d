/* The host interface controller (interface/hic_regs.h, hic_cmd.h): its two rings, its interrupt
 * and its requests. The HIC writes events (new commands, finished transfers) into the event ring
 * and raises its interrupt; the firmware answers with requests in the request ring: move a page
 * in (DATA_IN) or out (DATA_OUT) through a page-sized buffer slot, then complete the command.
 * One hart drives the HIC: the calls are not safe from several harts at once. */
#ifndef SSDVP_FIRMWARE_HAL_HIC_H
#define SSDVP_FIRMWARE_HAL_HIC_H

#include <stdbool.h>
#include <stdint.h>

#include "hic_cmd.h"

/* What the HIC tells about the host's device (read-only registers). */
typedef struct hic_geometry {
  uint32_t lpn_count;    /* logical pages the host may address */
  uint32_t max_commands; /* command slots: every cmd_id is below this */
  uint32_t sector_bytes;
  uint32_t page_bytes;   /* one LPN */
} hic_geometry_t;

/* False when no HIC answers at MM_HIC_BASE (wrong ID). */
bool hic_present(void);
hic_geometry_t hic_geometry(void);

/* Starts the rings in the given memory (entries: powers of two, at least 2; the event ring
 * aligned to HIC_EVENT_BYTES, the request ring to HIC_REQUEST_BYTES) and takes the HIC interrupt
 * on the calling hart: its handler only acknowledges it, the events stay in the ring for
 * hic_next_event. Interrupts must then be enabled (irq_enable) for WFI to return into the
 * handler. */
void hic_start(hic_event_t *event_ring, uint32_t event_entries, hic_request_t *request_ring,
               uint32_t request_entries);

/* Takes the oldest event into *event and frees its ring entry; false when the ring is empty. */
bool hic_next_event(hic_event_t *event);
/* True when an event is waiting (for the check before WFI, with interrupts disabled). */
bool hic_event_waiting(void);

/* Requests; each waits while the request ring is full, then rings the doorbell. */
void hic_data_in(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer);
void hic_data_out(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer);
void hic_complete(uint32_t cmd_id, uint8_t status);

#endif
