#include "ml/rqrmi_engine.h"

#include "hal/accel.h"

int rqrmi_engine_start(rqrmi_engine_t *engine, uint32_t kind, const rqrmi_model_t *model,
                       const rqrmi_range_t *ranges) {
  engine->kind = kind;
  engine->model = model;
  engine->ranges = ranges;
  if (kind == BOOT_RQRMI_ENGINE_ACCEL) return accel_load_model(model, ranges);
  return 0;
}

void rqrmi_engine_lookup(const rqrmi_engine_t *engine, const uint32_t *keys, uint32_t count,
                         uint32_t *results) {
  if (engine->kind == BOOT_RQRMI_ENGINE_ACCEL) {
    accel_lookup(keys, count, results);
    return;
  }
  for (uint32_t k = 0; k < count; ++k) {
    results[k] = rqrmi_lookup(engine->model, engine->ranges, keys[k]);
  }
}

rqrmi_train_config_t rqrmi_boot_train_config(const boot_config_t *boot) {
  rqrmi_train_config_t config = {0};
  config.stage_width[0] = 1;
  config.stage_count = 1;
  const uint32_t widths[3] = {boot->rqrmi_stage1_width, boot->rqrmi_stage2_width,
                              boot->rqrmi_stage3_width};
  for (uint32_t s = 0; s < 3 && widths[s] != 0; ++s) {
    config.stage_width[s + 1] = widths[s];
    config.stage_count = s + 2;
  }
  config.samples = boot->rqrmi_samples;
  config.error_target = boot->rqrmi_error_target;
  config.max_model_bytes = boot->rqrmi_max_model_bytes;
  config.max_rounds = boot->rqrmi_max_rounds;
  return config;
}
