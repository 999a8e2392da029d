/* RQRMI lookups on the engine the scenario picks (boot config rqrmi_engine): inference and
 * secondary search in firmware on the CPU, or both on the accelerator (hal/accel.h). The answers
 * are the same either way; the cost is what differs. */
#ifndef SSDVP_FIRMWARE_ML_RQRMI_ENGINE_H
#define SSDVP_FIRMWARE_ML_RQRMI_ENGINE_H

#include <stdint.h>

#include "boot_config.h"
#include "ml/rqrmi.h"
#include "ml/rqrmi_boot.h"

typedef struct rqrmi_engine {
  uint32_t kind; /* enum boot_rqrmi_engine */
  const rqrmi_model_t *model;
  const rqrmi_range_t *ranges;
  uint32_t generation; /* of the model loaded, for rqrmi_engine_find */
  uint64_t lookups;    /* keys rqrmi_engine_find looked up */
  uint64_t reloads;    /* models rqrmi_engine_find loaded */
} rqrmi_engine_t;

/* Prepares lookups with a validated model over its range array; on the accelerator this loads
 * the model. Returns 0, or -1 when the accelerator's weight memory cannot hold the model. */
int rqrmi_engine_start(rqrmi_engine_t *engine, uint32_t kind, const rqrmi_model_t *model,
                       const rqrmi_range_t *ranges);

/* Lookups over models that change (RQFTL's fractions): the engine holds one model and loads
 * another (rqrmi_engine_start) whenever the model, its ranges or its generation differ from the
 * last call's; on the accelerator a load copies the weights, and the firmware pays for it.
 * *result: the index of the range containing key, or RQRMI_NONE. -1 when a load fails. The
 * engine starts zeroed, with kind set. */
int rqrmi_engine_find(rqrmi_engine_t *engine, const rqrmi_model_t *model,
                      const rqrmi_range_t *ranges, uint32_t generation, uint32_t key,
                      uint32_t *result);

/* results[i]: the index of the range containing keys[i], or RQRMI_NONE. */
void rqrmi_engine_lookup(const rqrmi_engine_t *engine, const uint32_t *keys, uint32_t count,
                         uint32_t *results);

#endif
