/* Test firmware of the job mailbox (lib/worker.h): hart 0 serves the RAM disk (tests/ramdisk)
 * while hart 1 trains an RQRMI model (training_job.h) handed over through the mailbox; with one
 * hart the job runs inline, before the first host command is served.
 *
 * Hart 0 takes the ranges (the job's snapshot, generated before the submit), the model and the
 * workspace from the SRAM above the image's data, starts the HIC, submits the job and serves.
 * When worker_poll delivers the job, hart 0 validates the model and prints
 *   worker: job done on hart H: N ranges, B-byte model, max error E, checksum 0xC,
 *           ran from S ns to F ns, delivered at D ns, K host events served meanwhile
 * (one line; K counts the HIC events hart 0 served between the submit and the delivery), then
 * keeps serving until the workload ends. A training or validation failure ends the run with
 * WORKER_EXIT_TRAINING_FAILED. */
#include <stdint.h>

#include "boot/boot.h"
#include "hal/console.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "lib/arena.h"
#include "lib/worker.h"
#include "memory_map.h"
#include "tests/ramdisk/ramdisk.h"
#include "tests/rqrmi/range_gen.h"
#include "tests/worker/training_job.h"

#define WORKER_EXIT_NO_MEMORY 20
#define WORKER_EXIT_TRAINING_FAILED 21

/* The job's argument: the training and what the worker measured of it. */
typedef struct timed_training {
  training_job_t training;
  uint32_t hart;
  uint64_t started_ns;
  uint64_t finished_ns;
} timed_training_t;

extern uint8_t __sram_data_end[]; /* link.ld */

static timed_training_t timed;
static worker_job_t job;
static uint32_t events_served; /* since the submit */

/* On the worker (or inline): reads the ranges, writes the model, the workspace and `timed`. */
static void train(void *argument) {
  timed_training_t *run = argument;
  run->hart = system_hart_id();
  run->started_ns = system_time_ns();
  training_job_run(&run->training);
  run->finished_ns = system_time_ns();
}

/* On hart 0, from worker_poll: the job's buffers are hart 0's again. */
static void training_done(worker_job_t *done) {
  const uint64_t delivered_ns = system_time_ns();
  const timed_training_t *run = done->argument;
  const training_job_t *training = &run->training;
  rqrmi_status_t status = training->status;
  uint32_t where = 0;
  if (status == RQRMI_OK) {
    status = rqrmi_validate(training->model, training->model->size_bytes, training->ranges,
                            training->range_count, &where);
  }
  if (status != RQRMI_OK) {
    fw_printf("worker: training failed: %s (at %u)\n", rqrmi_status_text(status),
              (unsigned)where);
    system_exit(WORKER_EXIT_TRAINING_FAILED);
  }
  fw_printf("worker: job done on hart %u: %u ranges, %u-byte model, max error %u, checksum "
            "0x%08x, ran from %llu ns to %llu ns, delivered at %llu ns, %u host events served "
            "meanwhile\n",
            (unsigned)run->hart, (unsigned)training->range_count,
            (unsigned)training->report.model_bytes, (unsigned)training->report.max_error,
            (unsigned)training->checksum, (unsigned long long)run->started_ns,
            (unsigned long long)run->finished_ns, (unsigned long long)delivered_ns,
            (unsigned)events_served);
}

/* Takes the job's memory from the SRAM above the image's data and generates the ranges. */
static void prepare(const boot_config_t *boot) {
  static arena_t sram;
  uintptr_t start = (uintptr_t)__sram_data_end;
  uintptr_t end = MM_SRAM_BASE + boot->sram_size - boot->hart_count * boot->stack_bytes_per_hart;
  arena_init(&sram, (void *)start, (uint32_t)(end - start), FW_STATS_LOCATION_SRAM);
  training_job_t *training = &timed.training;
  training->config = training_job_config();
  training->model_capacity = rqrmi_train_model_capacity(&training->config);
  training->workspace_bytes = rqrmi_train_workspace_bytes(&training->config);
  rqrmi_range_t *ranges =
      arena_alloc(&sram, "ranges", TRAINING_JOB_RANGES * (uint32_t)sizeof(rqrmi_range_t));
  training->model = arena_alloc(&sram, "model", (uint32_t)training->model_capacity);
  training->workspace = arena_alloc(&sram, "workspace", (uint32_t)training->workspace_bytes);
  if (!arena_fits(&sram)) {
    arena_print_breakdown(&sram, "SRAM", fw_printf);
    system_exit(WORKER_EXIT_NO_MEMORY);
  }
  training->ranges = ranges;
  training->range_count = range_gen_clustered(ranges, TRAINING_JOB_RANGES, TRAINING_JOB_SEED,
                                              TRAINING_JOB_CLUSTER_MAX, TRAINING_JOB_CLUSTER_GAP);
  job.run = train;
  job.argument = &timed;
  job.on_done = training_done;
}

void fw_main(unsigned hart_id) {
  if (hart_id != WORKER_SERVING_HART) {
    worker_run(hart_id);
  }
  const boot_config_t *boot = system_boot_config();
  worker_init(boot->hart_count);
  prepare(boot);
  ramdisk_start(boot);
  fw_printf("worker: submitting the training job at %llu ns\n",
            (unsigned long long)system_time_ns());
  if (!worker_submit(&job)) {
    system_fault(); /* the mailbox is empty: it has room */
  }
  irq_enable();
  for (;;) {
    worker_poll();
    events_served += ramdisk_serve();
    ramdisk_idle();
  }
}
