/* RQRMI on the controller core: trains models with the boot config's rqrmi_* settings on
 * generated range arrays, then checks that lookups on the configured engine find every range
 * and nothing in the gaps. With the accelerator as the engine it also checks that its
 * predictions (index and error bound) equal the firmware's inference bit for bit, and that its
 * search agrees with the firmware's. The range arrays, models and workspaces live in the SRAM
 * above the image's data and below the stacks. Exits 0 on success. */
#include <stddef.h>
#include <stdint.h>

#include "boot/boot.h"
#include "hal/accel.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/system.h"
#include "memory_map.h"
#include "ml/rqrmi_engine.h"
#include "tests/rqrmi/range_gen.h"

#define BATCH 256u
#define RANDOM_KEYS 4096u

typedef struct test_case {
  uint32_t ranges;
  uint32_t cluster_max;
  uint32_t cluster_gap;
} test_case_t;

static const test_case_t cases[] = {{1000, 8, 5000}, {8000, 64, 100000}};

static uint32_t keys[BATCH];
static uint32_t results[BATCH];
static uint32_t predicted[BATCH];
static uint32_t bounds[BATCH];
static uint32_t failures;

extern uint8_t __sram_data_end[]; /* link.ld */

static uint8_t *align8(uint8_t *address) {
  return (uint8_t *)(((uintptr_t)address + 7u) & ~(uintptr_t)7u);
}

static void fail(const char *what, uint32_t key, uint32_t found, uint32_t expected) {
  if (failures < 10) {
    fw_printf("rqrmi selftest: %s: key %u gave %u, expected %u\n", what, (unsigned)key,
              (unsigned)found, (unsigned)expected);
  }
  ++failures;
}

/* Lookups of keys[0 .. count) on the engine against the whole-array search; with the
 * accelerator, its predictions against the firmware's too. */
static void check_batch(const rqrmi_engine_t *engine, const rqrmi_range_t *ranges, uint32_t n,
                        uint32_t count) {
  rqrmi_engine_lookup(engine, keys, count, results);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t expected = range_gen_find(ranges, n, keys[k]);
    if (results[k] != expected) fail("lookup", keys[k], results[k], expected);
  }
  if (engine->kind != BOOT_RQRMI_ENGINE_ACCEL) return;
  accel_predict(keys, count, predicted, bounds);
  for (uint32_t k = 0; k < count; ++k) {
    const rqrmi_prediction_t expected = rqrmi_predict(engine->model, keys[k]);
    if (predicted[k] != expected.index) fail("accelerator index", keys[k], predicted[k], expected.index);
    if (bounds[k] != expected.error) fail("accelerator bound", keys[k], bounds[k], expected.error);
  }
  const uint32_t errors = accel_take_errors();
  if (errors != 0) fail("accelerator errors", 0, errors, 0);
}

static void run_case(const test_case_t *test, const boot_config_t *boot, uint8_t *arena,
                     const uint8_t *arena_end) {
  rqrmi_range_t *ranges = (rqrmi_range_t *)arena;
  const uint32_t n = range_gen_clustered(ranges, test->ranges, boot->seed + test->ranges,
                                         test->cluster_max, test->cluster_gap);
  const rqrmi_train_config_t config = rqrmi_boot_train_config(boot);
  rqrmi_model_t *model = (rqrmi_model_t *)align8((uint8_t *)(ranges + n));
  const size_t capacity = rqrmi_train_model_capacity(&config);
  uint8_t *workspace = align8((uint8_t *)model + capacity);
  const size_t workspace_bytes = rqrmi_train_workspace_bytes(&config);
  if (capacity == 0 || workspace + workspace_bytes > arena_end) {
    fw_printf("rqrmi selftest: configuration refused or SRAM too small\n");
    system_exit(1);
  }

  rqrmi_train_report_t report;
  const uint32_t start = csr_read(mcycle);
  rqrmi_status_t status =
      rqrmi_train(&config, ranges, n, model, capacity, workspace, workspace_bytes, &report);
  const uint32_t cycles = csr_read(mcycle) - start;
  uint32_t where = 0;
  if (status == RQRMI_OK) status = rqrmi_validate(model, model->size_bytes, ranges, n, &where);
  if (status != RQRMI_OK) {
    fw_printf("rqrmi selftest: %u ranges: %s (at %u)\n", (unsigned)n, rqrmi_status_text(status),
              (unsigned)where);
    system_exit(1);
  }
  fw_printf("rqrmi selftest: %u ranges, %u-byte model, bounds max %u mean %u.%02u, "
            "trained in %u cycles\n",
            (unsigned)n, (unsigned)report.model_bytes, (unsigned)report.max_error,
            (unsigned)(report.mean_error_x100 / 100), (unsigned)(report.mean_error_x100 % 100),
            (unsigned)cycles);

  rqrmi_engine_t engine;
  if (rqrmi_engine_start(&engine, boot->rqrmi_engine, model, ranges) != 0) {
    fw_printf("rqrmi selftest: the accelerator's weight memory cannot hold the model\n");
    system_exit(1);
  }
  /* Every range's ends and the key after it, then random keys over the whole domain. */
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t ends[3] = {ranges[i].lo, ranges[i].hi, ranges[i].hi + 1};
    for (uint32_t e = 0; e < 3; ++e) {
      keys[count++] = ends[e];
      if (count == BATCH) {
        check_batch(&engine, ranges, n, count);
        count = 0;
      }
    }
  }
  uint32_t state = boot->seed * 2654435761u + n;
  const uint32_t span = ranges[n - 1].hi - ranges[0].lo;
  for (uint32_t k = 0; k < RANDOM_KEYS; ++k) {
    keys[count++] = ranges[0].lo + range_gen_random(&state) % span;
    if (count == BATCH) {
      check_batch(&engine, ranges, n, count);
      count = 0;
    }
  }
  if (count != 0) check_batch(&engine, ranges, n, count);
}

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) cpu_wait_for_interrupt();
  }
  const boot_config_t *boot = system_boot_config();
  const uint8_t *arena_end = (const uint8_t *)(uintptr_t)(
      MM_SRAM_BASE + boot->sram_size - boot->hart_count * boot->stack_bytes_per_hart);
  for (uint32_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    run_case(&cases[c], boot, align8(__sram_data_end), arena_end);
  }
  fw_printf("rqrmi selftest: %s engine, %u failures\n",
            boot->rqrmi_engine == BOOT_RQRMI_ENGINE_ACCEL ? "accelerator" : "cpu",
            (unsigned)failures);
  system_exit(failures == 0 ? FW_EXIT_SUCCESS : 1);
}
