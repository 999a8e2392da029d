/* The FTL's tasks: units of work that run to completion on the main loop and can wait.
 *
 * A task waits on a resource in that resource's queue and is retried when it comes free (a
 * freed read slot or write-buffer slot retries one waiter, so a completion does not rerun every
 * stalled request), on a TP load (the TP store resumes it), or on a flash or host transfer (its
 * completion schedules it). Flash records and TP frames share one queue, retried together once
 * any came free. */
#ifndef SSDVP_FIRMWARE_FTL_TASK_H
#define SSDVP_FIRMWARE_FTL_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/map/tp_store.h"
#include "lib/list.h"

typedef struct task task_t;
struct task {
  list_node_t link;
  void (*run)(task_t *task);
  uint32_t kind; /* the job kind its runs are charged to (hal/job_kind.h), set by its owner */
};

typedef enum task_wait {
  TASK_WAIT_READ_SLOT, /* a buffer for a host read */
  TASK_WAIT_BUFFER,    /* a write-buffer slot, or the end of a flush */
  TASK_WAIT_FLASH,     /* flash records or TP frames (a flush's writebacks too) */
  TASK_WAIT_COUNT
} task_wait_t;

#define TASK_WAKE_ALL 0xFFFFFFFFu

void task_init(void);

/* Runs `task` on the next task_run_ready. */
void task_schedule(task_t *task);

void task_wait(task_wait_t queue, task_t *task);
/* Waits in `queue` after the last waiter `before` says goes ahead of `task` (searched from the
 * back, so a newest waiter costs one comparison). */
void task_wait_ordered(task_wait_t queue, task_t *task,
                       bool (*before)(const task_t *first, const task_t *second));

/* Makes up to `count` waiters of `queue` ready, oldest first. */
void task_wake(task_wait_t queue, uint32_t count);

/* Flash records or TP frames came free: the TASK_WAIT_FLASH waiters run again once the ready
 * tasks are done. */
void task_flash_freed(void);

/* Runs ready tasks until none is left, each under its job kind; true when any ran. From the main
 * loop only: it leaves JOB_KIND_OTHER, the loop's own kind, in force. */
bool task_run_ready(void);

/* Asks the TP store for `tp` on behalf of `task` (a TP store without room puts the task in the
 * TASK_WAIT_FLASH queue). True when the TP was in memory and the caller should ask the scheme
 * again at once. */
bool task_load_tp(tp_store_t *store, uint32_t tp, task_t *task, tp_waiter_t *waiter);

/* One mapping update while it waits: for a TP (the waiter; its resume runs the task again) or
 * for the OOB read that tells a scheme which page the update replaces (MAP_PREDICT). */
typedef struct map_update {
  tp_waiter_t waiter;
  task_t *task;       /* scheduled when the OOB read completes */
  uint32_t old_vpn;   /* the page it replaces when known (GC's source page, or resolved from an
                         OOB), else MAP_OLD_UNKNOWN */
  uint32_t probe_vpn; /* the page whose OOB is to be read next, or MAP_OLD_UNKNOWN */
  bool probing;       /* an OOB read is in flight */
} map_update_t;

/* Starts `update` for `lpn` on behalf of `task`: old_vpn the page it replaces when the caller
 * knows it, else MAP_OLD_UNKNOWN. */
void task_map_update_start(map_update_t *update, task_t *task, uint32_t lpn, uint32_t old_vpn);

/* Records lpn -> vpn (VPN_UNMAPPED: a trim) through `scheme`, once the TP store has room for
 * what the update may evict and the scheme holds the mapping (its TP loaded first when it does
 * not; the page replaced resolved through its OOB first when the scheme knows it only
 * approximately). True when done: the page it replaced, if any, is invalid in `blocks`. False
 * when the task waits (for room, the TP or the OOB read, which resume it) and must call again.
 * The one place the pipeline, trims and GC update mappings. */
bool task_map_update(const map_scheme_t *scheme, tp_store_t *store, block_manager_t *blocks,
                     uint32_t vpn, map_update_t *update);

/* The OOB reads updates took to resolve the page they replace (ftl.map.update_oob_reads). */
extern uint64_t task_update_oob_reads;

#endif
