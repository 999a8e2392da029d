#include "ftl/flash.h"

#include "hal/job_kind.h"
#include "hal/nfc.h"

static uint32_t pow2_at_least(uint32_t value) {
  uint32_t power = 2u;
  while (power < value) {
    power <<= 1;
  }
  return power;
}

/* Runs in the NFC interrupt: only queues. The queue holds one entry per record, so it cannot
 * overflow. */
static void queue_completion(const nfc_completion_t *completion, void *context) {
  flash_layer_t *flash = (flash_layer_t *)context;
  uint32_t head = flash->queue_head;
  flash->queue[head & flash->queue_mask] = *completion;
  flash->queue_head = head + 1u;
}

bool flash_init(flash_layer_t *flash, const nand_geometry_t *geometry,
                const block_manager_t *blocks, uint32_t op_count, arena_t *arena) {
  return flash_init_records(flash, geometry, blocks, op_count, op_count, arena);
}

bool flash_init_records(flash_layer_t *flash, const nand_geometry_t *geometry,
                        const block_manager_t *blocks, uint32_t op_count, uint32_t program_count,
                        arena_t *arena) {
  flash->geometry = *geometry;
  flash->blocks = blocks;
  flash->io_per_op = geometry->bits_per_cell * geometry->planes;
  flash->oob_words = (geometry->oob_bytes + 3u) / 4u;
  flash->op_count = op_count;
  if (program_count == 0 || program_count > op_count) {
    program_count = op_count;
  }
  /* io entries (and OOB buffers) of every record: a wordline's each, one each beyond them. */
  const uint32_t io_entries = program_count * flash->io_per_op + (op_count - program_count);
  uint32_t ring_entries = pow2_at_least(op_count);
  flash->queue_mask = ring_entries - 1u;
  flash->queue_head = 0;
  flash->queue_tail = 0;
  flash->ops = (flash_op_t *)arena_alloc(arena, "flash_ops", op_count * sizeof(flash_op_t));
  nfc_io_t *io = (nfc_io_t *)arena_alloc(arena, "flash_io_lists", io_entries * sizeof(nfc_io_t));
  uint32_t *oob = (uint32_t *)arena_alloc(arena, "flash_oob",
                                          io_entries * flash->oob_words * sizeof(uint32_t));
  flash->queue = (nfc_completion_t *)arena_alloc(arena, "flash_completion_queue",
                                                 ring_entries * sizeof(nfc_completion_t));
  nfc_desc_t *descriptor_ring = (nfc_desc_t *)arena_alloc_aligned(
      arena, "nfc_descriptor_ring", ring_entries * sizeof(nfc_desc_t), NFC_DESC_BYTES);
  nfc_completion_t *completion_ring = (nfc_completion_t *)arena_alloc_aligned(
      arena, "nfc_completion_ring", ring_entries * sizeof(nfc_completion_t),
      NFC_COMPLETION_BYTES);
  if (flash->ops == 0 || io == 0 || oob == 0 || flash->queue == 0 || descriptor_ring == 0 ||
      completion_ring == 0) {
    return false;
  }
  flash->free_ops = 0;
  flash->free_pages = 0;
  flash->page_ops = flash->ops + program_count;
  for (uint32_t i = op_count; i-- > 0;) {
    flash_op_t *op = &flash->ops[i];
    const bool program = i < program_count;
    const uint32_t first = program ? i * flash->io_per_op
                                   : program_count * flash->io_per_op + (i - program_count);
    op->io = io + first;
    op->io_set = program ? flash->io_per_op : 1u; /* the arena's memory is not cleared */
    op->oob = oob + first * flash->oob_words;
    if (program) {
      op->next_free = flash->free_ops;
      flash->free_ops = op;
    } else {
      op->next_free = flash->free_pages;
      flash->free_pages = op;
    }
  }
  flash->free_count = op_count;
  flash->free_page_count = op_count - program_count;
  nfc_start(descriptor_ring, ring_entries, completion_ring, ring_entries, queue_completion, flash);
  return true;
}

/* Hands out `op`, taken off its free list: its io list cleared. */
static inline flash_op_t *take(flash_layer_t *flash, flash_op_t *op, flash_done_fn done,
                               void *owner) {
  --flash->free_count;
  op->done = done;
  op->owner = owner;
  op->user = 0;
  op->kind = job_kind_current();
  /* Entries beyond io_set are still clear: a host read sets one of its io_per_op. */
  for (uint32_t i = 0; i < op->io_set; ++i) {
    op->io[i].buffer = 0;
    op->io[i].oob = 0;
    op->io[i].meta_bytes = 0;
    op->io[i].reserved = 0;
  }
  op->io_set = 0;
  return op;
}

flash_op_t *flash_op_take(flash_layer_t *flash, flash_done_fn done, void *owner) {
  flash_op_t *op = flash->free_pages;
  if (op != 0) {
    flash->free_pages = op->next_free;
    --flash->free_page_count;
    return take(flash, op, done, owner);
  }
  return flash_op_take_program(flash, done, owner);
}

flash_op_t *flash_op_take_program(flash_layer_t *flash, flash_done_fn done, void *owner) {
  flash_op_t *op = flash->free_ops;
  if (op == 0) {
    return 0;
  }
  flash->free_ops = op->next_free;
  return take(flash, op, done, owner);
}

static void note_io_set(flash_op_t *op, uint32_t i) {
  if (i >= op->io_set) {
    op->io_set = i + 1u;
  }
}

void flash_io_user(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *slot,
                   bool with_oob) {
  op->io[i].buffer = (uint32_t)(uintptr_t)slot;
  op->io[i].oob = with_oob ? (uint32_t)(uintptr_t)flash_oob(flash, op, i) : 0u;
  op->io[i].meta_bytes = 0;
  note_io_set(op, i);
}

void flash_io_oob(const flash_layer_t *flash, flash_op_t *op, uint32_t i) {
  op->io[i].buffer = 0;
  op->io[i].oob = (uint32_t)(uintptr_t)flash_oob(flash, op, i);
  op->io[i].meta_bytes = 0;
  note_io_set(op, i);
}

void flash_io_meta(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *page) {
  op->io[i].buffer = (uint32_t)(uintptr_t)page;
  op->io[i].oob = (uint32_t)(uintptr_t)flash_oob(flash, op, i);
  op->io[i].meta_bytes = flash->geometry.page_bytes;
  note_io_set(op, i);
}

static void submit(flash_op_t *op, nfc_desc_t descriptor, uint32_t vpn, uint32_t planes) {
  op->vpn = vpn;
  op->planes = planes;
  nfc_submit(&descriptor);
}

void flash_read(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  uint32_t ppn = block_vpn_to_ppn(flash->blocks, vpn);
  submit(op, nfc_read_descriptor((uint32_t)(op - flash->ops), ppn, planes, op->io), vpn, planes);
}

void flash_submit_program(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  uint32_t ppn = block_vpn_to_ppn(flash->blocks, vpn);
  submit(op, nfc_program_descriptor((uint32_t)(op - flash->ops), ppn, planes, op->io), vpn,
         planes);
}

void flash_erase(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes) {
  uint32_t ppn = block_vpn_to_ppn(flash->blocks, vpn);
  submit(op, nfc_erase_descriptor((uint32_t)(op - flash->ops), ppn, planes), vpn, planes);
}

void flash_read_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes) {
  submit(op, nfc_read_descriptor((uint32_t)(op - flash->ops), ppn, planes, op->io), BLOCK_NONE,
         planes);
}

void flash_erase_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes) {
  submit(op, nfc_erase_descriptor((uint32_t)(op - flash->ops), ppn, planes), BLOCK_NONE, planes);
}

/* Charged to the job kind that issued the operation: the caller restores its own. */
static void complete(flash_layer_t *flash, const nfc_completion_t *completion) {
  flash_op_t *op = &flash->ops[completion->id];
  job_kind_set(op->kind);
  op->done(op, completion->status);
  if (op < flash->page_ops) {
    op->next_free = flash->free_ops;
    flash->free_ops = op;
  } else {
    op->next_free = flash->free_pages;
    flash->free_pages = op;
    ++flash->free_page_count;
  }
  ++flash->free_count;
}

/* Out of line: flash_drain's check, made on every turn of the main loop, stays free of the
 * register saves the callbacks need. */
static __attribute__((noinline)) uint32_t drain(flash_layer_t *flash) {
  uint32_t drained = 0;
  while (flash->queue_tail != flash->queue_head) {
    nfc_completion_t completion = flash->queue[flash->queue_tail & flash->queue_mask];
    ++flash->queue_tail;
    complete(flash, &completion);
    ++drained;
  }
  job_kind_set(JOB_KIND_OTHER); /* the main loop's */
  return drained;
}

uint32_t flash_drain(flash_layer_t *flash) {
  return flash_completion_waiting(flash) ? drain(flash) : 0;
}

bool flash_completion_waiting(const flash_layer_t *flash) {
  return flash->queue_tail != flash->queue_head;
}
