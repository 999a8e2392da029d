/* The structures every part of the FTL runtime shares, built once by ftl_init: the flash layer,
 * the block manager, the write buffer, the GTD and the TP store, with the scheme and the sizes
 * they were built for. One instance, at a fixed address: the host pipeline, the write-buffer
 * flush and the main loop reach it without a pointer to chase on every access. */
#ifndef SSDVP_FIRMWARE_FTL_CORE_H
#define SSDVP_FIRMWARE_FTL_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_config.h"
#include "ftl/block.h"
#include "ftl/flash.h"
#include "ftl/map/gtd.h"
#include "ftl/map/map.h"
#include "ftl/map/tp_store.h"
#include "ftl/write_buffer.h"
#include "nand_geometry.h"

/* Flash records host reads and programs leave free, for the TP store's writebacks. */
#define FTL_RECORDS_KEPT (TP_STORE_RESERVE_RECORDS + 1u)
/* Most pages one program writes (bits per cell x planes) this firmware handles. */
#define FTL_MAX_UNIT_PAGES TP_STORE_MAX_UNIT_PAGES

typedef struct ftl_core {
  const boot_config_t *boot;
  const map_scheme_t *scheme;
  nand_geometry_t geometry;
  uint32_t lpn_count;
  uint32_t entries_per_tp;
  uint32_t tp_count;
  uint32_t unit_pages; /* pages one program writes */
  flash_layer_t flash;
  block_manager_t blocks;
  write_buffer_t wb;
  gtd_t gtd;
  tp_store_t tp_store;
} ftl_core_t;

extern ftl_core_t ftl_core;

/* A flash record for host or GC work, leaving the TP store's reserve; NULL when none. */
static inline flash_op_t *ftl_take_record(flash_done_fn done, void *owner) {
  if (ftl_core.flash.free_count <= FTL_RECORDS_KEPT) {
    return 0;
  }
  return flash_op_take(&ftl_core.flash, done, owner);
}

static inline bool ftl_record_available(void) {
  return ftl_core.flash.free_count > FTL_RECORDS_KEPT;
}

/* A record of a wordline for a host or GC program, leaving the TP store's reserve and one
 * wordline record for its programs; NULL when none. */
static inline flash_op_t *ftl_take_program_record(flash_done_fn done, void *owner) {
  if (ftl_core.flash.free_count <= FTL_RECORDS_KEPT || flash_free_programs(&ftl_core.flash) <= 1u) {
    return 0;
  }
  return flash_op_take_program(&ftl_core.flash, done, owner);
}

static inline bool ftl_program_record_available(void) {
  return ftl_core.flash.free_count > FTL_RECORDS_KEPT && flash_free_programs(&ftl_core.flash) > 1u;
}

#endif
