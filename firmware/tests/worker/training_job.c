#include "tests/worker/training_job.h"

#include "tests/rqrmi/range_gen.h"

rqrmi_train_config_t training_job_config(void) {
  rqrmi_train_config_t config = {0};
  config.stage_count = 2;
  config.stage_width[0] = 1;
  config.stage_width[1] = 64;
  config.samples = 4096;
  config.max_rounds = 1;
  return config;
}

void training_job_run(training_job_t *job) {
  job->status = rqrmi_train(&job->config, job->ranges, job->range_count, job->model,
                            job->model_capacity, job->workspace, job->workspace_bytes,
                            &job->report);
  job->checksum =
      job->status == RQRMI_OK ? range_gen_checksum(job->model, job->model->size_bytes) : 0u;
}
