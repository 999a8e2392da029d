/* The flash layer over hal/nfc: operation records with completion callbacks. Callers address
 * pages by VPN (ftl/block.h); the layer converts to the NAND address at submission, the one
 * place that does. Each record owns an
 * io list and one OOB buffer per page it can move (a whole multi-plane wordline). The NFC
 * interrupt handler only copies completions into a firmware queue; flash_drain, called from the
 * main loop, runs the callbacks. A record returns to the pool when its callback returns.
 *
 * What each page's OOB holds is interface/oob_layout.h's. */
#ifndef SSDVP_FIRMWARE_FTL_FLASH_H
#define SSDVP_FIRMWARE_FTL_FLASH_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/block.h"
#include "lib/arena.h"
#include "nand_geometry.h"
#include "nfc_desc.h"
#include "oob_layout.h"


typedef struct flash_op flash_op_t;
typedef void (*flash_done_fn)(flash_op_t *op, uint32_t status);

struct flash_op {
  flash_done_fn done;
  void *owner;        /* the caller's: request, GC job, TP frame */
  uint32_t vpn;       /* first page */
  uint32_t planes;
  uint32_t user;      /* the caller's */
  uint32_t kind;      /* the job kind in force when it was taken: its completion's too */
  nfc_io_t *io;       /* FLASH_MAX_IO entries */
  uint32_t io_set;    /* io entries set since the record was taken: what the next take clears */
  uint32_t *oob;      /* oob_words per io entry */
  flash_op_t *next_free;
};

typedef struct flash_layer {
  nand_geometry_t geometry;
  const block_manager_t *blocks; /* converts VPNs */
  uint32_t io_per_op;  /* bits_per_cell * planes */
  uint32_t oob_words;  /* oob_bytes / 4 */
  flash_op_t *ops;
  uint32_t op_count;
  /* Records before page_ops hold a whole wordline's io list and OOB buffers (programs take
   * only these); those from page_ops on hold one page's, for reads and erases
   * (ftl.flash_program_ops; by default there are none). */
  const flash_op_t *page_ops;
  flash_op_t *free_ops;   /* free records of a wordline */
  flash_op_t *free_pages; /* free records of one page, which reads and erases take first */
  uint32_t free_count;    /* free records of either kind */
  uint32_t free_page_count;
  nfc_completion_t *queue; /* completions the interrupt handler copied, for flash_drain */
  uint32_t queue_mask;
  volatile uint32_t queue_head; /* written by the handler */
  uint32_t queue_tail;
  /* The sequence number the next program gets (interface/oob_layout.h OOB_WORD_SEQUENCE). */
  uint32_t next_sequence;
} flash_layer_t;

/* Takes op_count records (io lists, OOB buffers) and the NFC rings from the arena and starts the
 * NFC. False when they do not fit. Every record holds a wordline's io list and OOB buffers. */
bool flash_init(flash_layer_t *flash, const nand_geometry_t *geometry,
                const block_manager_t *blocks, uint32_t op_count, arena_t *arena);

/* flash_init where only program_count of the op_count records (at most; 0 = all) hold a
 * wordline's io list and OOB buffers, the others one page's: ftl.flash_program_ops. */
bool flash_init_records(flash_layer_t *flash, const nand_geometry_t *geometry,
                        const block_manager_t *blocks, uint32_t op_count, uint32_t program_count,
                        arena_t *arena);

/* A free record (io list cleared) for a read or an erase, one page's if any is free, else a
 * wordline's; NULL when all are in flight. */
flash_op_t *flash_op_take(flash_layer_t *flash, flash_done_fn done, void *owner);

/* A free record of a wordline (io list cleared) for a program; NULL when none is free. */
flash_op_t *flash_op_take_program(flash_layer_t *flash, flash_done_fn done, void *owner);

/* Free records of a wordline. */
static inline uint32_t flash_free_programs(const flash_layer_t *flash) {
  return flash->free_count - flash->free_page_count;
}

static inline uint32_t *flash_oob(const flash_layer_t *flash, const flash_op_t *op, uint32_t i) {
  return op->oob + i * flash->oob_words;
}

/* Points io entry i at a user-data slot (and its OOB buffer when with_oob). */
void flash_io_user(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *slot,
                   bool with_oob);
/* Points io entry i at its OOB buffer only: a read that moves no data. */
void flash_io_oob(const flash_layer_t *flash, flash_op_t *op, uint32_t i);
/* Points io entry i at a metadata page of page_bytes (and its OOB buffer). */
void flash_io_meta(const flash_layer_t *flash, flash_op_t *op, uint32_t i, void *page);

/* Pads io entries [from, to) of a program: each points at `filler` (a metadata page with
 * `meta`, else a user-data slot) with OOB_FILLER as its owner. The one way host flushes, GC and
 * the TP store complete a wordline they could not fill. Returns the pages padded. */
static inline uint32_t flash_io_pad(const flash_layer_t *flash, flash_op_t *op, uint32_t from,
                                    uint32_t to, void *filler, bool meta) {
  for (uint32_t i = from; i < to; ++i) {
    if (meta) {
      flash_io_meta(flash, op, i, filler);
    } else {
      flash_io_user(flash, op, i, filler, true);
    }
    flash_oob(flash, op, i)[OOB_WORD_OWNER] = OOB_FILLER;
    flash_oob(flash, op, i)[OOB_WORD_COPIES] = 0;
  }
  return to > from ? to - from : 0u;
}

/* A read of `planes` planes, a program of the wordline program that starts at `vpn`, the erase
 * of the group whose first VPN is `vpn`. */
void flash_read(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes);
void flash_erase(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes);
/* flash_program without the OOB stamps: only flash_program calls it. */
void flash_submit_program(flash_layer_t *flash, flash_op_t *op, uint32_t vpn, uint32_t planes);

/* Submits the program after stamping every page's OOB with the program's sequence number, the
 * page's VPN and, for a page written the first time (OOB_WORD_COPIES 0), its version: the
 * caller has set the owner and copies words (and a GC copy its version). */
static inline void flash_program(flash_layer_t *flash, flash_op_t *op, uint32_t vpn,
                                 uint32_t planes) {
  uint32_t sequence = flash->next_sequence++;
  uint32_t pages = planes * flash->geometry.bits_per_cell;
  for (uint32_t i = 0; i < pages; ++i) {
    uint32_t *oob = flash_oob(flash, op, i);
    oob[OOB_WORD_SEQUENCE] = sequence;
    oob[OOB_WORD_VPN] = vpn + i;
    if (oob[OOB_WORD_COPIES] == 0) {
      oob[OOB_WORD_VERSION] = sequence;
    }
  }
  flash_submit_program(flash, op, vpn, planes);
}

/* A read and an erase by NAND address, for recovery after a power loss, which reads blocks
 * before it knows their VPNs (op->vpn is BLOCK_NONE then). */
void flash_read_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes);
void flash_erase_ppn(flash_layer_t *flash, flash_op_t *op, uint32_t ppn, uint32_t planes);

/* Runs the callbacks of every completion queued so far, each under the job kind in force when
 * its operation was taken (hal/job_kind.h); returns how many. From the main loop only: it leaves
 * JOB_KIND_OTHER, the loop's own kind, in force. */
uint32_t flash_drain(flash_layer_t *flash);

/* A completion is queued (for the check before WFI, interrupts disabled). */
bool flash_completion_waiting(const flash_layer_t *flash);

#endif
