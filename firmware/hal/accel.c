#include "hal/accel.h"

#include "accel_regs.h"
#include "hal/mmio.h"
#include "memory_map.h"
#include "rqrmi_model.h"

static uint32_t batch_keys; /* keys per job: the smaller FIFO */

static uint32_t reg_read(uint32_t offset) { return mmio_read32(MM_ACCEL_BASE + offset); }

static void reg_write(uint32_t offset, uint32_t value) {
  mmio_write32(MM_ACCEL_BASE + offset, value);
}

int accel_load_model(const void *image, const void *ranges) {
  const uint32_t *words = (const uint32_t *)image;
  const uint32_t stages = words[RQRMI_HEADER_STAGE_COUNT];
  uint32_t records = 0;
  for (uint32_t s = 0; s < stages; ++s) records += words[RQRMI_HEADER_STAGE_WIDTH(s)];
  if (records > reg_read(ACCEL_SUBMODEL_CAPACITY)) return -1;

  reg_write(ACCEL_RANGE_COUNT, words[RQRMI_HEADER_RANGE_COUNT]);
  reg_write(ACCEL_STAGE_COUNT, stages);
  for (uint32_t s = 0; s < RQRMI_MAX_STAGES; ++s) {
    reg_write(ACCEL_STAGE_WIDTH(s), words[RQRMI_HEADER_STAGE_WIDTH(s)]);
  }
  /* Records are consecutive in the image; the weight memory's address advances over them. */
  reg_write(ACCEL_WMEM_ADDR, 0);
  const uint32_t *record = words + RQRMI_HEADER_WORDS;
  for (uint32_t w = 0; w < records * RQRMI_SUBMODEL_WORDS; ++w) reg_write(ACCEL_WMEM_DATA, record[w]);
  reg_write(ACCEL_RANGE_BASE, (uint32_t)(uintptr_t)ranges);

  const uint32_t key_depth = reg_read(ACCEL_KEY_DEPTH);
  const uint32_t result_depth = reg_read(ACCEL_RESULT_DEPTH);
  batch_keys = key_depth < result_depth ? key_depth : result_depth;
  return 0;
}

/* Runs keys[0 .. count) in jobs; `search` selects the hardware search. */
static void run(const uint32_t *keys, uint32_t count, uint32_t search, uint32_t *results,
                uint32_t *errors) {
  reg_write(ACCEL_CTRL, search ? ACCEL_CTRL_SEARCH : 0);
  for (uint32_t first = 0; first < count; first += batch_keys) {
    const uint32_t end = count - first < batch_keys ? count : first + batch_keys;
    for (uint32_t k = first; k < end; ++k) reg_write(ACCEL_KEY, keys[k]);
    reg_write(ACCEL_START, 1);
    while (reg_read(ACCEL_STATUS) & ACCEL_STATUS_BUSY) {
    }
    for (uint32_t k = first; k < end; ++k) {
      results[k] = reg_read(ACCEL_RESULT);
      if (errors != 0) errors[k] = reg_read(ACCEL_RESULT_ERROR);
    }
    reg_write(ACCEL_IRQ, ACCEL_IRQ_DONE);
  }
}

void accel_predict(const uint32_t *keys, uint32_t count, uint32_t *index, uint32_t *error) {
  run(keys, count, 0, index, error);
}

void accel_lookup(const uint32_t *keys, uint32_t count, uint32_t *results) {
  run(keys, count, 1, results, 0);
}

uint32_t accel_take_errors(void) {
  const uint32_t errors = reg_read(ACCEL_ERRORS);
  reg_write(ACCEL_ERRORS, errors);
  return errors;
}
