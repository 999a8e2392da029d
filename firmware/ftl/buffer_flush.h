/* Write-buffer flushing: the dirty pages of the write buffer leave for flash a whole wordline at
 * a time, in the groups the grouping policy (ftl/fsp/grouping.h) forms, to the host stream's
 * stripe; once a program completes, each page's mapping is updated through the scheme and its
 * slot released. */
#ifndef SSDVP_FIRMWARE_FTL_BUFFER_FLUSH_H
#define SSDVP_FIRMWARE_FTL_BUFFER_FLUSH_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/fsp/grouping.h"
#include "lib/arena.h"

/* Takes the per-slot update records and the filler page from the arena; false when they do not
 * fit. */
bool buffer_flush_init(const grouping_policy_t *grouping, arena_t *arena);

/* The zero page that pads partial wordlines (GC uses it too). */
uint8_t *buffer_flush_filler_page(void);

/* Registers the host programs' counters as metrics (lib/metrics.h). */
void buffer_flush_register_metrics(void);

/* Programs whole wordlines from the write buffer; with `force`, or while a FUA write's page is
 * in the buffer ready (write_buffer_t.fua_ready) and FUA programs are due
 * (host_pipeline_fua_due), a last partial one (padded). */
void buffer_flush_program(bool force);

/* A host read of `lpn` from a page of `page_type` is being issued: whether the grouping policy
 * wants its data rewritten (and ftl.fsp.rewrite allows it). */
bool buffer_flush_rewrite_wanted(uint32_t lpn, uint32_t page_type);

/* The data of `lpn`, just read for the host, goes back into the buffer as a rewrite at the
 * eviction end, and a wordline is formed at once, on the next turn of the main loop, when a
 * whole one is eligible (the paper's rewrite module). Counted in cache.rewrites, or in
 * cache.rewrites_refused when the buffer has no slot or a copy of the LPN. */
void buffer_flush_rewrite(uint32_t lpn, const uint8_t *data);

/* Host data waits for a stripe only GC can free. */
bool buffer_flush_host_blocked(void);

#endif
