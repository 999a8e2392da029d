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

int rqrmi_engine_find(rqrmi_engine_t *engine, const rqrmi_model_t *model,
                      const rqrmi_range_t *ranges, uint32_t generation, uint32_t key,
                      uint32_t *result) {
  if (engine->model != model || engine->ranges != ranges || engine->generation != generation) {
    ++engine->reloads;
    engine->generation = generation;
    if (rqrmi_engine_start(engine, engine->kind, model, ranges) != 0) {
      engine->model = 0;
      return -1;
    }
  }
  ++engine->lookups;
  rqrmi_engine_lookup(engine, &key, 1, result);
  return 0;
}
