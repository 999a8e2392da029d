#include "hal/nfc.h"

#include "hal/irq.h"
#include "hal/mmio.h"
#include "hal/ring.h"
#include "memory_map.h"
#include "nfc_regs.h"

/* The rings as the driving hart sees them: the descriptor tail and the completion head are the
 * firmware's own, so they live here and are only written to the NFC. */
struct nfc_rings {
  nfc_desc_t *descriptors;
  uint32_t descriptor_mask;
  uint32_t descriptor_tail;
  uint32_t descriptor_head_seen; /* last SQ_HEAD read: saves a register read per descriptor */
  nfc_completion_t *completions;
  uint32_t completion_mask;
  uint32_t completion_head;
  uint32_t completion_head_released; /* last CQ_HEAD written */
  nfc_completion_handler_t handler;
  void *context;
};

static struct nfc_rings rings;

static uint32_t nfc_read(uint32_t offset) {
  return mmio_read32(MM_NFC_BASE + offset);
}

static void nfc_write(uint32_t offset, uint32_t value) {
  mmio_write32(MM_NFC_BASE + offset, value);
}

bool nfc_present(void) {
  return nfc_read(NFC_ID) == NFC_ID_VALUE;
}

nand_geometry_t nfc_geometry(void) {
  nand_geometry_t geometry;
  geometry.channels = nfc_read(NFC_CHANNELS);
  geometry.ways = nfc_read(NFC_WAYS);
  geometry.dies = nfc_read(NFC_DIES);
  geometry.planes = nfc_read(NFC_PLANES);
  geometry.blocks = nfc_read(NFC_BLOCKS);
  geometry.pages = nfc_read(NFC_PAGES);
  geometry.page_bytes = nfc_read(NFC_PAGE_BYTES);
  geometry.oob_bytes = nfc_read(NFC_OOB_BYTES);
  geometry.bits_per_cell = nfc_read(NFC_BITS_PER_CELL);
  return geometry;
}

static uint32_t take_completions(void);

static void on_interrupt(unsigned hart_id, void *context) {
  (void)hart_id;
  (void)context;
  /* Acknowledged before the ring is read: a completion posted meanwhile raises it again.
   * Handlers run with interrupts disabled, so the ring is read without nfc_poll's guard. */
  nfc_write(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
  take_completions();
}

void nfc_start(nfc_desc_t *descriptor_ring, uint32_t descriptor_entries,
               nfc_completion_t *completion_ring, uint32_t completion_entries,
               nfc_completion_handler_t handler, void *context) {
  rings.descriptors = descriptor_ring;
  rings.descriptor_mask = descriptor_entries - 1u;
  rings.descriptor_tail = 0;
  rings.descriptor_head_seen = 0;
  rings.completions = completion_ring;
  rings.completion_mask = completion_entries - 1u;
  rings.completion_head = 0;
  rings.completion_head_released = 0;
  rings.handler = handler;
  rings.context = context;

  nfc_write(NFC_SQ_BASE, (uint32_t)(uintptr_t)descriptor_ring);
  nfc_write(NFC_SQ_ENTRIES, descriptor_entries);
  nfc_write(NFC_CQ_BASE, (uint32_t)(uintptr_t)completion_ring);
  nfc_write(NFC_CQ_ENTRIES, completion_entries);
  irq_register_source(IRQ_SRC_NFC, on_interrupt, 0);
  irq_enable_source(IRQ_SRC_NFC);
  nfc_write(NFC_IRQ_ENABLE, NFC_IRQ_COMPLETION);
  nfc_write(NFC_ENABLE, 1u);
}

void nfc_submit(const nfc_desc_t *descriptor) {
  uint32_t next = (rings.descriptor_tail + 1u) & rings.descriptor_mask;
  /* Full as last seen: the NFC frees entries as it fetches them, without the firmware's help, so
   * only then is its head read again. */
  while (next == rings.descriptor_head_seen) {
    rings.descriptor_head_seen = nfc_read(NFC_SQ_HEAD);
  }
  rings.descriptors[rings.descriptor_tail] = *descriptor;
  rings.descriptor_tail = next;
  mmio_fence();
  nfc_write(NFC_SQ_TAIL, next);
}

/* Hands every completion posted so far to the handler; interrupts must be disabled. */
static uint32_t take_completions(void) {
  uint32_t consumed = 0;
  uint32_t tail = nfc_read(NFC_CQ_TAIL);
  if (rings.completion_head != tail) {
    mmio_fence();
    while (rings.completion_head != tail) {
      nfc_completion_t completion = rings.completions[rings.completion_head];
      rings.completion_head = (rings.completion_head + 1u) & rings.completion_mask;
      ++consumed;
      rings.handler(&completion, rings.context);
    }
    /* A completion posted after the tail was read raises the interrupt again (the handler
     * acknowledged it first), so the tail is not read twice. */
    if (ring_release_due(rings.completion_head, rings.completion_head_released,
                         rings.completion_mask)) {
      rings.completion_head_released = rings.completion_head;
      mmio_fence();
      nfc_write(NFC_CQ_HEAD, rings.completion_head);
    }
  }
  return consumed;
}

uint32_t nfc_poll(void) {
  uint32_t saved = irq_save_disable();
  uint32_t consumed = take_completions();
  irq_restore(saved);
  return consumed;
}

static nfc_desc_t make_descriptor(uint8_t op, uint32_t id, uint32_t ppn, uint32_t planes,
                                  const nfc_io_t *io) {
  nfc_desc_t descriptor = {0};
  descriptor.op = op;
  descriptor.plane_count = (uint8_t)planes;
  descriptor.id = id;
  descriptor.ppn = ppn;
  descriptor.io_list = (uint32_t)(uintptr_t)io;
  return descriptor;
}

nfc_desc_t nfc_read_descriptor(uint32_t id, uint32_t ppn, uint32_t planes, const nfc_io_t *io) {
  return make_descriptor(NFC_OP_READ, id, ppn, planes, io);
}

nfc_desc_t nfc_program_descriptor(uint32_t id, uint32_t ppn, uint32_t planes, const nfc_io_t *io) {
  return make_descriptor(NFC_OP_PROGRAM, id, ppn, planes, io);
}

nfc_desc_t nfc_erase_descriptor(uint32_t id, uint32_t ppn, uint32_t planes) {
  return make_descriptor(NFC_OP_ERASE, id, ppn, planes, 0);
}
