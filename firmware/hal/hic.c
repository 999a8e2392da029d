#include "hal/hic.h"

#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/mmio.h"
#include "hal/ring.h"
#include "hic_regs.h"
#include "memory_map.h"

/* The rings as this hart sees them: the event head and request tail are the firmware's own, so
 * they live here and are only written to the HIC. */
struct hic_rings {
  hic_event_t *events;
  uint32_t event_mask;
  uint32_t event_head;
  uint32_t event_head_released; /* last EVQ_HEAD written */
  uint32_t event_tail_seen; /* last EVQ_TAIL read: saves a register read per event */
  hic_request_t *requests;
  uint32_t request_mask;
  uint32_t request_tail;
  uint32_t request_head_seen; /* last RQ_HEAD read: saves a register read per request */
};

static struct hic_rings rings;

/* The HIC raises its interrupt with every event it posts: set by the handler, cleared when
 * EVQ_TAIL is read, so the ring's tail is read only when it may have moved. */
static volatile bool event_signalled;

static uint32_t hic_read(uint32_t offset) {
  return mmio_read32(MM_HIC_BASE + offset);
}

static void hic_write(uint32_t offset, uint32_t value) {
  mmio_write32(MM_HIC_BASE + offset, value);
}

bool hic_present(void) {
  return hic_read(HIC_ID) == HIC_ID_VALUE;
}

hic_geometry_t hic_geometry(void) {
  hic_geometry_t geometry;
  geometry.lpn_count = hic_read(HIC_LPN_COUNT);
  geometry.max_commands = hic_read(HIC_MAX_COMMANDS);
  geometry.sector_bytes = hic_read(HIC_SECTOR_BYTES);
  geometry.page_bytes = hic_read(HIC_PAGE_BYTES);
  return geometry;
}

static void acknowledge_interrupt(unsigned hart_id, void *context) {
  (void)hart_id;
  (void)context;
  event_signalled = true;
  hic_write(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
}

void hic_start(hic_event_t *event_ring, uint32_t event_entries, hic_request_t *request_ring,
               uint32_t request_entries) {
  rings.events = event_ring;
  rings.event_mask = event_entries - 1u;
  rings.event_head = 0;
  rings.event_head_released = 0;
  rings.event_tail_seen = 0;
  event_signalled = false;
  rings.requests = request_ring;
  rings.request_mask = request_entries - 1u;
  rings.request_tail = 0;
  rings.request_head_seen = 0;

  hic_write(HIC_EVQ_BASE, (uint32_t)(uintptr_t)event_ring);
  hic_write(HIC_EVQ_ENTRIES, event_entries);
  hic_write(HIC_RQ_BASE, (uint32_t)(uintptr_t)request_ring);
  hic_write(HIC_RQ_ENTRIES, request_entries);
  irq_register_source(IRQ_SRC_HIC, acknowledge_interrupt, 0);
  irq_enable_source(IRQ_SRC_HIC);
  hic_write(HIC_IRQ_ENABLE, HIC_IRQ_EVENT);
  hic_write(HIC_ENABLE, 1u);
}

/* With interrupts disabled the handler cannot run: a pending external interrupt counts too. */
static bool event_tail_may_have_moved(void) {
  return event_signalled || (csr_read(mip) & MIP_MEIP) != 0;
}

bool hic_event_waiting(void) {
  if (rings.event_head == rings.event_tail_seen && event_tail_may_have_moved()) {
    event_signalled = false;
    rings.event_tail_seen = hic_read(HIC_EVQ_TAIL);
  }
  return rings.event_head != rings.event_tail_seen;
}

bool hic_next_event(hic_event_t *event) {
  if (!hic_event_waiting()) {
    return false;
  }
  mmio_fence();
  *event = rings.events[rings.event_head];
  rings.event_head = (rings.event_head + 1u) & rings.event_mask;
  if (ring_release_due(rings.event_head, rings.event_head_released, rings.event_mask)) {
    rings.event_head_released = rings.event_head;
    mmio_fence();
    hic_write(HIC_EVQ_HEAD, rings.event_head);
  }
  return true;
}

static void submit(const hic_request_t *request) {
  uint32_t next = (rings.request_tail + 1u) & rings.request_mask;
  /* Full as last seen: the HIC frees entries as it reads them, without the firmware's help, so
   * only then is its head read again. */
  while (next == rings.request_head_seen) {
    rings.request_head_seen = hic_read(HIC_RQ_HEAD);
  }
  rings.requests[rings.request_tail] = *request;
  rings.request_tail = next;
  mmio_fence();
  hic_write(HIC_RQ_TAIL, next);
}

void hic_data_in(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer) {
  hic_request_t request = {0};
  request.kind = HIC_REQ_DATA_IN;
  request.cmd_id = cmd_id;
  request.page_index = page_index;
  request.buffer = (uint32_t)buffer;
  submit(&request);
}

void hic_data_out(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer) {
  hic_request_t request = {0};
  request.kind = HIC_REQ_DATA_OUT;
  request.cmd_id = cmd_id;
  request.page_index = page_index;
  request.buffer = (uint32_t)buffer;
  submit(&request);
}

void hic_complete(uint32_t cmd_id, uint8_t status) {
  hic_request_t request = {0};
  request.kind = HIC_REQ_COMPLETE;
  request.status = status;
  request.cmd_id = cmd_id;
  submit(&request);
}
