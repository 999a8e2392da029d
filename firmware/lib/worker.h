/* The job mailbox between the serving hart (hart 0, which serves the host) and the worker hart
 * (hart 1): hart 0 hands over a long computation (training an RQRMI model, fitting a learned
 * mapping) and keeps serving; it hears of the job's end from its main loop, through worker_poll.
 * With one hart there is no worker: worker_submit runs the job inline, at once, and worker_poll
 * delivers it the same way, so the serving code is the same for one hart and two.
 *
 * Ownership rule.
 * - The serving hart owns every live structure: mapping tables, caches, queues, the block
 *   manager, the drivers and their rings, the statistics.
 * - A job reads only the inputs it was handed, as a snapshot that nobody changes while the job
 *   is out, and writes only its own buffers (outputs, workspace, result fields). Of the HAL it
 *   calls only what any hart may (system_time_ns, fw_printf, system_exit, system_fault).
 * - From worker_submit until worker_poll has delivered the job (its state is WORKER_JOB_DONE,
 *   its on_done has run), the serving hart touches neither the job, nor its snapshot, nor its
 *   buffers. After that they are the serving hart's again, and the job may be submitted again.
 *
 * Waking. The worker hart sleeps in WFI with only its CLINT software interrupt enabled (msip,
 * mstatus.MIE off, so a wake-up takes no trap). worker_submit posts the job and writes the
 * worker's msip; the worker acknowledges it, runs the posted jobs in submission order and, after
 * each, writes hart 0's msip, which ends a WFI of the serving hart (worker_init installs a
 * software-interrupt handler on hart 0 that only acknowledges). A loop that checks for work and
 * then sleeps loses no wake-up: msip is a level, pending until acknowledged.
 *
 * Determinism: the mailbox is a ring of job pointers with one writer per index, no lock and no
 * timing of its own; a scenario run twice hands over and delivers the same jobs at the same
 * simulated times. Not for interrupt handlers: submit and poll run in the serving hart's main
 * loop. */
#ifndef SSDVP_FIRMWARE_LIB_WORKER_H
#define SSDVP_FIRMWARE_LIB_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#define WORKER_SERVING_HART 0u
#define WORKER_HART 1u
#define WORKER_SLOTS 4u /* jobs submitted and not yet delivered, at most (a power of two) */

typedef enum worker_job_state {
  WORKER_JOB_IDLE = 0, /* never submitted */
  WORKER_JOB_QUEUED,   /* posted, waiting for the worker */
  WORKER_JOB_RUNNING,  /* taken by the worker (or run inline), until delivered */
  WORKER_JOB_DONE,     /* delivered by worker_poll: the serving hart owns it again */
} worker_job_state_t;

typedef struct worker_job worker_job_t;

struct worker_job {
  /* On the worker hart (inline with one hart): the computation. */
  void (*run)(void *argument);
  /* The job's snapshot and buffers, as `run` sees them. */
  void *argument;
  /* On the serving hart, from worker_poll, once the job is done; may be null. */
  void (*on_done)(worker_job_t *job);
  /* worker_job_state_t, written by both harts: read it with worker_job_state. */
  uint32_t state;
};

/* Once, on hart 0, before the first submit: hart_count from the boot config. */
void worker_init(uint32_t hart_count);

/* Hands `job` (state IDLE or DONE, run set) to the worker; with one hart runs it before
 * returning. False, and nothing done, when WORKER_SLOTS jobs are out. A job already out is a
 * firmware fault. Hart 0 only. */
bool worker_submit(worker_job_t *job);

/* Delivers the jobs the worker has finished, in submission order: marks each DONE and runs its
 * on_done. Returns how many. Hart 0, from its main loop. */
uint32_t worker_poll(void);

/* Jobs submitted and not yet delivered. */
uint32_t worker_jobs_out(void);

/* Whether a finished job waits for worker_poll (a main loop checks before it sleeps: a job run
 * inline raises no interrupt). */
bool worker_done_waiting(void);

static inline worker_job_state_t worker_job_state(const worker_job_t *job) {
  return (worker_job_state_t)__atomic_load_n(&job->state, __ATOMIC_ACQUIRE);
}

/* The loop of every hart but hart 0, from fw_main; never returns. Hart WORKER_HART runs the
 * jobs; any further hart sleeps for good. */
void worker_run(unsigned hart_id) __attribute__((noreturn));

#endif
