/* The worker test's job (tests/worker/main.c): training an RQRMI model over clustered LPN-like
 * ranges (tests/rqrmi/range_gen.h), a computation of a few million cycles. Portable C: the host
 * test (tb/tests/worker) trains the same model and compares checksums. */
#ifndef SSDVP_FIRMWARE_TESTS_WORKER_TRAINING_JOB_H
#define SSDVP_FIRMWARE_TESTS_WORKER_TRAINING_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "ml/rqrmi.h"
#include "ml/rqrmi_train.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ranges: range_gen_clustered(ranges, TRAINING_JOB_RANGES, TRAINING_JOB_SEED,
 * TRAINING_JOB_CLUSTER_MAX, TRAINING_JOB_CLUSTER_GAP). */
#define TRAINING_JOB_RANGES 16384u
#define TRAINING_JOB_SEED 17u
#define TRAINING_JOB_CLUSTER_MAX 64u
#define TRAINING_JOB_CLUSTER_GAP 100000u

typedef struct training_job {
  /* The snapshot the job reads. */
  const rqrmi_range_t *ranges;
  uint32_t range_count;
  rqrmi_train_config_t config;
  /* The buffers the job writes. */
  rqrmi_model_t *model;
  size_t model_capacity;
  void *workspace;
  size_t workspace_bytes;
  /* The results. */
  rqrmi_status_t status;
  rqrmi_train_report_t report;
  uint32_t checksum; /* range_gen_checksum of the model image, 0 unless status is RQRMI_OK */
} training_job_t;

/* The training configuration of the job: fixed, independent of the boot config. */
rqrmi_train_config_t training_job_config(void);

/* Trains job->model from job->ranges and fills the results. */
void training_job_run(training_job_t *job);

#ifdef __cplusplus
}
#endif

#endif
