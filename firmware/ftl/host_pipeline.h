/* The host pipeline: host commands become page requests that move through stages: ordering
 * behind earlier requests to the same LPN, translate (the scheme's lookup; a miss loads the
 * translation page through the TP store, a prediction is read with its OOB and checked), the
 * data operation, and the transfer to or from the host. Writes land in the write buffer and
 * their command completes once every page is buffered (ftl/buffer_flush.h programs them), a
 * FUA write's (HIC_CMD_FUA) once every page is programmed (the buffer forces their programs);
 * a flush command completes once everything buffered and every dirty TP is on flash. */
#ifndef SSDVP_FIRMWARE_FTL_HOST_PIPELINE_H
#define SSDVP_FIRMWARE_FTL_HOST_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "hal/hic.h"
#include "lib/arena.h"

/* Takes commands, page requests (ftl.page_requests) and read slots (ftl.read_slots) from the
 * arena; false when they do not fit. */
bool host_pipeline_init(const hic_geometry_t *host, arena_t *arena);

/* Registers the pipeline's counters as metrics (lib/metrics.h). */
void host_pipeline_register_metrics(void);

/* A HIC event: a new command, or a finished transfer. */
void host_pipeline_event(const hic_event_t *event);

/* Turns queued commands into page requests, oldest first, while requests are free. */
void host_pipeline_dispatch(void);

/* Commands wait for page requests that are free. */
bool host_pipeline_can_dispatch(void);

/* Moves flush commands on; completes them once everything is on flash. While the scheme's
 * flush waits for room in the TP store, the flush is a task in the task queue instead. */
void host_pipeline_advance_flush(void);

/* The page of a FUA write in write-buffer `slot` is programmed: its request finishes. */
void host_pipeline_fua_programmed(uint32_t slot);

/* The buffered pages of FUA writes are to be programmed now: a FUA write has all its pages in
 * the buffer (or cannot get the rest in). Until then its pages wait, so that a write of several
 * pages, arriving one by one, takes one forced program, not one each. */
bool host_pipeline_fua_due(void);

/* Host commands completed since boot. */
uint64_t host_pipeline_commands_completed(void);

/* No host command waits or runs. */
bool host_pipeline_idle(void);

#endif
