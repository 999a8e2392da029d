/* RQRMI lookups on the engine the scenario picks (boot config rqrmi_engine): inference and
 * secondary search in firmware on the CPU, or both on the accelerator (hal/accel.h). The answers
 * are the same either way; the cost is what differs. Also the training configuration the boot
 * config carries. */
#ifndef SSDVP_FIRMWARE_ML_RQRMI_ENGINE_H
#define SSDVP_FIRMWARE_ML_RQRMI_ENGINE_H

#include <stdint.h>

#include "boot_config.h"
#include "ml/rqrmi.h"
#include "ml/rqrmi_train.h"

typedef struct rqrmi_engine {
  uint32_t kind; /* enum boot_rqrmi_engine */
  const rqrmi_model_t *model;
  const rqrmi_range_t *ranges;
} rqrmi_engine_t;

/* Prepares lookups with a validated model over its range array; on the accelerator this loads
 * the model. Returns 0, or -1 when the accelerator's weight memory cannot hold the model. */
int rqrmi_engine_start(rqrmi_engine_t *engine, uint32_t kind, const rqrmi_model_t *model,
                       const rqrmi_range_t *ranges);

/* results[i]: the index of the range containing keys[i], or RQRMI_NONE. */
void rqrmi_engine_lookup(const rqrmi_engine_t *engine, const uint32_t *keys, uint32_t count,
                         uint32_t *results);

/* The training configuration of the boot config's rqrmi_* fields. */
rqrmi_train_config_t rqrmi_boot_train_config(const boot_config_t *boot);

#endif
