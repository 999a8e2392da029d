/* The job mailbox's rules (lib/worker.h), with one hart (jobs inline) or more (jobs on hart 1):
 * a full mailbox refuses a job, jobs are delivered in submission order with their results, a
 * job's state goes QUEUED/RUNNING then DONE at delivery, a delivered job may be submitted
 * again, and the ring keeps its order over many rounds. Hart 0 waits for deliveries as a
 * serving loop does: interrupts disabled, WFI, irq_poll. Ends through tohost: 1 when every
 * check held, (n << 1) | 1 for the first check n that failed. */
#include <stdint.h>

#include "boot/boot.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "lib/worker.h"

#define ROUNDS 5u
#define TERMS 20000u /* a job's terms: long enough for hart 0 to see it out */

volatile uint32_t tohost;

typedef struct sum_job {
  uint32_t first; /* input */
  uint32_t sum;   /* output: a hash of first .. first + TERMS - 1 */
  uint32_t hart;  /* output: where it ran */
} sum_job_t;

static sum_job_t sums[WORKER_SLOTS];
static worker_job_t jobs[WORKER_SLOTS];
static uint32_t delivery_order[WORKER_SLOTS];
static uint32_t deliveries;

static void sum(void *argument) {
  sum_job_t *job = argument;
  uint32_t total = 0;
  for (uint32_t term = 0; term < TERMS; ++term) {
    total = total * 33u + (job->first ^ term);
  }
  job->sum = total;
  job->hart = system_hart_id();
}

static void delivered(worker_job_t *job) {
  delivery_order[deliveries % WORKER_SLOTS] = (uint32_t)(job - jobs);
  deliveries += 1u;
}

static void check(uint32_t number, int holds) {
  if (!holds && tohost == 0) {
    fw_printf("worker_mailbox: check %u failed\n", (unsigned)number);
    tohost = (number << 1) | 1u;
  }
}

/* Polls and sleeps until `count` more jobs are delivered. */
static void wait_for_deliveries(uint32_t count) {
  uint32_t target = deliveries + count;
  for (;;) {
    worker_poll();
    if (deliveries >= target) {
      return;
    }
    cpu_wait_for_interrupt();
    irq_poll();
  }
}

void fw_main(unsigned hart_id) {
  if (hart_id != WORKER_SERVING_HART) {
    worker_run(hart_id);
  }
  const uint32_t hart_count = system_boot_config()->hart_count;
  const uint32_t expected_hart = hart_count > 1 ? WORKER_HART : WORKER_SERVING_HART;
  worker_init(hart_count);
  irq_disable();
  check(1, worker_job_state(&jobs[0]) == WORKER_JOB_IDLE);
  for (uint32_t round = 0; round < ROUNDS; ++round) {
    for (uint32_t i = 0; i < WORKER_SLOTS; ++i) {
      sums[i].first = round * 1000u + i;
      jobs[i].run = sum;
      jobs[i].argument = &sums[i];
      jobs[i].on_done = delivered;
      check(2, worker_submit(&jobs[i]));
      worker_job_state_t state = worker_job_state(&jobs[i]);
      check(3, state == WORKER_JOB_QUEUED || state == WORKER_JOB_RUNNING);
    }
    check(4, worker_jobs_out() == WORKER_SLOTS);
    worker_job_t extra = {sum, &sums[0], 0, WORKER_JOB_IDLE};
    check(5, !worker_submit(&extra));
    check(6, worker_job_state(&extra) == WORKER_JOB_IDLE);
    wait_for_deliveries(WORKER_SLOTS);
    check(7, worker_jobs_out() == 0);
    for (uint32_t i = 0; i < WORKER_SLOTS; ++i) {
      sum_job_t reference = {sums[i].first, 0, 0};
      sum(&reference);
      check(8, delivery_order[i] == i);
      check(9, worker_job_state(&jobs[i]) == WORKER_JOB_DONE);
      check(10, sums[i].sum == reference.sum);
      check(11, sums[i].hart == expected_hart);
    }
  }
  check(12, worker_poll() == 0);
  fw_printf("worker_mailbox: %u jobs delivered, %u hart(s)\n", (unsigned)deliveries,
            (unsigned)hart_count);
  if (tohost == 0) {
    tohost = 1;
  }
  for (;;) {
    cpu_wait_for_interrupt();
  }
}
