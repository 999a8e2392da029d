#include "lib/worker.h"

#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/job_kind.h"
#include "hal/system.h"

/* A ring of job pointers and three counts that only grow: jobs submitted (written by hart 0),
 * finished (by the worker, or by hart 0 when it runs them inline) and delivered (hart 0 only).
 * Slots [delivered, submitted) are out; the worker runs slot `finished` while it trails
 * `submitted`. Each count has one writer, so the ring needs no lock: a release store of a count
 * publishes the slot, or the job's results, written before it. */
static struct {
  worker_job_t *slots[WORKER_SLOTS];
  uint32_t submitted;
  uint32_t finished;
  uint32_t delivered;
  bool worker_present; /* false until worker_init sees a second hart: jobs run inline */
} mailbox;

_Static_assert((WORKER_SLOTS & (WORKER_SLOTS - 1u)) == 0, "WORKER_SLOTS is a power of two");

/* The software interrupt only wakes its hart from WFI: the mailbox's counts say what happened. */
static void acknowledge(unsigned hart_id, void *context) {
  (void)hart_id;
  (void)context;
}

/* Runs the oldest job not yet finished and publishes its end. */
static void run_next(void) {
  uint32_t index = __atomic_load_n(&mailbox.finished, __ATOMIC_RELAXED);
  worker_job_t *job = mailbox.slots[index % WORKER_SLOTS];
  __atomic_store_n(&job->state, WORKER_JOB_RUNNING, __ATOMIC_RELAXED);
  job->run(job->argument);
  __atomic_store_n(&mailbox.finished, index + 1u, __ATOMIC_RELEASE);
}

void worker_init(uint32_t hart_count) {
  if (system_hart_id() != WORKER_SERVING_HART) {
    system_fault();
  }
  mailbox.worker_present = hart_count > WORKER_HART;
  if (mailbox.worker_present) {
    irq_set_software_handler(acknowledge, 0);
  }
}

bool worker_submit(worker_job_t *job) {
  worker_job_state_t state = worker_job_state(job);
  if (job->run == 0 || (state != WORKER_JOB_IDLE && state != WORKER_JOB_DONE)) {
    system_fault();
  }
  uint32_t index = mailbox.submitted;
  if (index - mailbox.delivered == WORKER_SLOTS) {
    return false;
  }
  mailbox.slots[index % WORKER_SLOTS] = job;
  __atomic_store_n(&job->state, WORKER_JOB_QUEUED, __ATOMIC_RELAXED);
  __atomic_store_n(&mailbox.submitted, index + 1u, __ATOMIC_RELEASE);
  if (mailbox.worker_present) {
    irq_send_software(WORKER_HART);
  } else {
    uint32_t outer = job_kind_enter(JOB_KIND_JOBS);
    run_next();
    job_kind_set(outer);
  }
  return true;
}

uint32_t worker_poll(void) {
  uint32_t finished = __atomic_load_n(&mailbox.finished, __ATOMIC_ACQUIRE);
  if (mailbox.delivered == finished) {
    return 0;
  }
  uint32_t outer = job_kind_enter(JOB_KIND_JOBS);
  uint32_t count = 0;
  while (mailbox.delivered != finished) {
    worker_job_t *job = mailbox.slots[mailbox.delivered % WORKER_SLOTS];
    mailbox.delivered += 1u;
    __atomic_store_n(&job->state, WORKER_JOB_DONE, __ATOMIC_RELEASE);
    if (job->on_done != 0) {
      job->on_done(job);
    }
    count += 1u;
  }
  job_kind_set(outer);
  return count;
}

uint32_t worker_jobs_out(void) {
  return mailbox.submitted - mailbox.delivered;
}

bool worker_done_waiting(void) {
  return __atomic_load_n(&mailbox.finished, __ATOMIC_ACQUIRE) != mailbox.delivered;
}

void worker_run(unsigned hart_id) {
  if (hart_id != WORKER_HART) {
    for (;;) {
      cpu_wait_for_interrupt();
    }
  }
  irq_disable();
  irq_set_software_handler(acknowledge, 0);
  /* Everything the worker does awake is the jobs' (cpu_wait_for_interrupt charges its sleep to
   * JOB_KIND_IDLE). */
  job_kind_set(JOB_KIND_JOBS);
  for (;;) {
    while (__atomic_load_n(&mailbox.finished, __ATOMIC_RELAXED) !=
           __atomic_load_n(&mailbox.submitted, __ATOMIC_ACQUIRE)) {
      run_next();
      irq_send_software(WORKER_SERVING_HART);
    }
    /* A submit after the check left msip set, which ends the WFI at once; irq_poll acknowledges
     * it before the next check. */
    cpu_wait_for_interrupt();
    irq_poll();
  }
}
