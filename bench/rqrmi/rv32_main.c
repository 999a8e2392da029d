/* RQRMI on the controller core and on the accelerator, for range arrays of 1K, 16K and 64K
 * LPN-like ranges (firmware/tests/rqrmi/range_gen.h) in SRAM. Trains with the boot config's
 * rqrmi_* settings and prints, per array, one line of key=value figures that scripts/run-benches
 * reads: training cycles, cycles per lookup on the CPU (inference alone and with the search), on
 * the accelerator without the hardware search (its predictions, then the firmware's search) and
 * with it, the model's bytes, error bounds and checksum (native_main.c trains the same model on
 * the host). Needs accel.present; every engine must return the same answers (exit 1 otherwise). */
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

#define KEYS 2048u

static const uint32_t sizes[] = {1024, 16384, 65536};

static uint32_t keys[KEYS];
static uint32_t expected[KEYS];
static uint32_t results[KEYS];
static uint32_t bounds[KEYS];

extern uint8_t __sram_data_end[]; /* link.ld */

static uint64_t cycles_now(void) {
  uint32_t high;
  uint32_t low;
  do {
    high = csr_read(mcycleh);
    low = csr_read(mcycle);
  } while (csr_read(mcycleh) != high);
  return ((uint64_t)high << 32) | low;
}

static uint8_t *align8(uint8_t *address) {
  return (uint8_t *)(((uintptr_t)address + 7u) & ~(uintptr_t)7u);
}

/* "12.34": a count per key with two decimals. */
static void print_per_key(const char *name, uint64_t cycles) {
  const uint64_t hundredths = cycles * 100u / KEYS;
  fw_printf(" %s=%llu.%02u", name, (unsigned long long)(hundredths / 100),
            (unsigned)(hundredths % 100));
}

static void check(const char *engine, uint32_t n) {
  for (uint32_t k = 0; k < KEYS; ++k) {
    if (results[k] != expected[k]) {
      fw_printf("rqrmi_bench: %u ranges: %s gave %u for key %u, expected %u\n", (unsigned)n,
                engine, (unsigned)results[k], (unsigned)keys[k], (unsigned)expected[k]);
      system_exit(1);
    }
  }
}

static void bench(uint32_t size, const boot_config_t *boot, uint8_t *arena,
                  const uint8_t *arena_end) {
  rqrmi_range_t *ranges = (rqrmi_range_t *)arena;
  const uint32_t n = range_gen_clustered(ranges, size, boot->seed + size, 64, 200000);
  const rqrmi_train_config_t config = rqrmi_boot_train_config(boot);
  rqrmi_model_t *model = (rqrmi_model_t *)align8((uint8_t *)(ranges + n));
  const size_t capacity = rqrmi_train_model_capacity(&config);
  uint8_t *workspace = align8((uint8_t *)model + capacity);
  const size_t workspace_bytes = rqrmi_train_workspace_bytes(&config);
  if (n != size || capacity == 0 || workspace + workspace_bytes > arena_end) {
    fw_printf("rqrmi_bench: %u ranges do not fit in SRAM (sram.size)\n", (unsigned)size);
    system_exit(1);
  }

  rqrmi_train_report_t report;
  uint64_t start = cycles_now();
  const rqrmi_status_t status =
      rqrmi_train(&config, ranges, n, model, capacity, workspace, workspace_bytes, &report);
  const uint64_t train_cycles = cycles_now() - start;
  if (status != RQRMI_OK) {
    fw_printf("rqrmi_bench: training failed: %s\n", rqrmi_status_text(status));
    system_exit(1);
  }

  /* Keys inside random ranges: lookups that hit, as in a cache. */
  uint32_t state = boot->seed * 2654435761u + n;
  for (uint32_t k = 0; k < KEYS; ++k) {
    const rqrmi_range_t *range = &ranges[range_gen_random(&state) % n];
    keys[k] = range->lo + range_gen_random(&state) % (range->hi - range->lo + 1);
    expected[k] = range_gen_find(ranges, n, keys[k]);
  }

  start = cycles_now();
  for (uint32_t k = 0; k < KEYS; ++k) {
    const rqrmi_prediction_t prediction = rqrmi_predict(model, keys[k]);
    results[k] = prediction.index;
    bounds[k] = prediction.error;
  }
  const uint64_t cpu_predict = cycles_now() - start;

  start = cycles_now();
  for (uint32_t k = 0; k < KEYS; ++k) results[k] = rqrmi_lookup(model, ranges, keys[k]);
  const uint64_t cpu_lookup = cycles_now() - start;
  check("the CPU", n);

  if (accel_load_model(model, ranges) != 0) {
    fw_printf("rqrmi_bench: the accelerator's weight memory cannot hold the model\n");
    system_exit(1);
  }
  start = cycles_now();
  accel_predict(keys, KEYS, results, bounds);
  const uint64_t accel_predict_only = cycles_now() - start;
  for (uint32_t k = 0; k < KEYS; ++k) {
    const rqrmi_prediction_t prediction = {results[k], bounds[k]};
    results[k] = rqrmi_search(ranges, n, keys[k], prediction);
  }
  const uint64_t accel_then_search = cycles_now() - start;
  check("the accelerator's predictions", n);

  start = cycles_now();
  accel_lookup(keys, KEYS, results);
  const uint64_t accel_search = cycles_now() - start;
  check("the accelerator's search", n);
  if (accel_take_errors() != 0) {
    fw_printf("rqrmi_bench: the accelerator reported errors\n");
    system_exit(1);
  }

  const uint64_t train_us = train_cycles * 1000000u / boot->cpu_clock_hz;
  fw_printf("rqrmi_bench ranges=%u train_cycles=%llu train_ms=%llu.%03u", (unsigned)n,
            (unsigned long long)train_cycles, (unsigned long long)(train_us / 1000),
            (unsigned)(train_us % 1000));
  print_per_key("cpu_predict_cycles", cpu_predict);
  print_per_key("cpu_lookup_cycles", cpu_lookup);
  print_per_key("accel_predict_cycles", accel_predict_only);
  print_per_key("accel_predict_cpu_search_cycles", accel_then_search);
  print_per_key("accel_lookup_cycles", accel_search);
  fw_printf(" model_bytes=%u max_error=%u mean_error=%u.%02u stages=%u model_checksum=0x%08x\n",
            (unsigned)report.model_bytes, (unsigned)report.max_error,
            (unsigned)(report.mean_error_x100 / 100), (unsigned)(report.mean_error_x100 % 100),
            (unsigned)model->stage_count,
            (unsigned)range_gen_checksum(model, model->size_bytes));
}

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) cpu_wait_for_interrupt();
  }
  const boot_config_t *boot = system_boot_config();
  const uint8_t *arena_end = (const uint8_t *)(uintptr_t)(
      MM_SRAM_BASE + boot->sram_size - boot->hart_count * boot->stack_bytes_per_hart);
  for (uint32_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
    bench(sizes[s], boot, align8(__sram_data_end), arena_end);
  }
  system_exit(FW_EXIT_SUCCESS);
}
