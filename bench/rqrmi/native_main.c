/* RQRMI training on the host, for the same range arrays as the controller-core benchmark
 * (rv32_main.c) with the scenario's default training configuration (RQFTL's: two stages of 1
 * and 4 submodels, 16K samples each): prints the median wall time of a few trainings per array
 * and the model's checksum, which must equal the controller core's. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ml/rqrmi_train.h"
#include "tests/rqrmi/range_gen.h"

#define RUNS 5
#define SEED 1u /* the scenario's default seed: rv32_main.c uses boot->seed + size */

static const uint32_t sizes[] = {1024, 16384, 65536};

static double monotonic_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a;
  const double y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void) {
  const rqrmi_train_config_t config = {2, {1, 4, 0, 0}, 16384, 0, 0, 1};
  const size_t capacity = rqrmi_train_model_capacity(&config);
  const size_t workspace_bytes = rqrmi_train_workspace_bytes(&config);
  rqrmi_model_t *model = malloc(capacity);
  void *workspace = malloc(workspace_bytes);
  rqrmi_range_t *ranges = malloc(sizeof(rqrmi_range_t) * 65536);
  if (model == NULL || workspace == NULL || ranges == NULL) return 1;
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
    const uint32_t n = range_gen_clustered(ranges, sizes[s], SEED + sizes[s], 64, 200000);
    double seconds[RUNS];
    rqrmi_train_report_t report;
    for (int run = 0; run < RUNS; ++run) {
      const double start = monotonic_seconds();
      const rqrmi_status_t status =
          rqrmi_train(&config, ranges, n, model, capacity, workspace, workspace_bytes, &report);
      seconds[run] = monotonic_seconds() - start;
      if (status != RQRMI_OK) {
        fprintf(stderr, "rqrmi_native: training failed: %s\n", rqrmi_status_text(status));
        return 1;
      }
    }
    qsort(seconds, RUNS, sizeof(seconds[0]), compare_doubles);
    printf("rqrmi_native ranges=%u train_ms=%.3f max_error=%u model_checksum=0x%08x\n",
           (unsigned)n, seconds[RUNS / 2] * 1e3, (unsigned)report.max_error,
           (unsigned)range_gen_checksum(model, model->size_bytes));
  }
  free(ranges);
  free(workspace);
  free(model);
  return 0;
}
