/* RQRMI training: builds a model image (rqrmi.h) for a range array, stage by stage, and computes
 * each last-stage submodel's error bound exactly on the quantised model.
 *
 * Responsibilities. The keys routed to each submodel are computed exactly: on every key interval
 * where a submodel's ReLUs keep their state its output is a monotone function of the key
 * (interface/rqrmi_model.h), so the keys routed to each next-stage submodel form intervals whose
 * ends a binary search finds. Stage 0 is responsible for [first range's lo, last range's hi].
 *
 * Training one submodel (float). Samples are the ends of the ranges in its responsibility
 * (clipped to it), evenly spread over them when there are more than `samples`, each labelled
 * with its range's index as y = (i + 0.5) / n. A 1-8-1 ReLU net with w1 = +1 is a continuous
 * piecewise-linear function whose pieces start at the knots -b1_j: the knots go to quantiles of
 * the samples (the same number of samples per piece) and the output layer is the exact
 * least-squares fit, a tridiagonal system in the hat basis of those knots. No gradient descent:
 * the result is deterministic and costs two passes over the samples.
 *
 * Error bounds. For every range in a last-stage submodel's responsibility, split where a ReLU
 * changes state, the prediction is monotone, so its extremes lie at the piece ends: evaluating
 * them gives the exact largest |predicted - true index| over every key of every range.
 *
 * Retraining. While a bound exceeds error_target and rounds remain, the last stage is doubled
 * when the model then still fits max_model_bytes, otherwise the submodels above the target are
 * retrained with twice their samples.
 *
 * Memory: no allocation; the caller provides the model buffer and a workspace. */
#ifndef SSDVP_FIRMWARE_ML_RQRMI_TRAIN_H
#define SSDVP_FIRMWARE_ML_RQRMI_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "ml/rqrmi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Responsibility intervals the workspace holds per submodel of a stage. */
#define RQRMI_TRAIN_INTERVALS_PER_SUBMODEL 8u
#define RQRMI_TRAIN_INTERVALS_MIN 256u

typedef struct rqrmi_train_config {
  uint32_t stage_count;                   /* 1 .. RQRMI_MAX_STAGES */
  uint32_t stage_width[RQRMI_MAX_STAGES]; /* stage 0's is 1 */
  uint32_t samples;                       /* training samples per submodel, >= 2 */
  uint32_t error_target;                  /* 0: train once, whatever the bounds */
  uint32_t max_model_bytes;               /* widening limit; 0: never widen */
  uint32_t max_rounds;                    /* training rounds, >= 1 */
} rqrmi_train_config_t;

typedef struct rqrmi_train_report {
  uint32_t rounds;           /* rounds run */
  uint32_t last_stage_width; /* after widening */
  uint32_t model_bytes;
  uint32_t max_error;        /* largest error bound */
  uint32_t mean_error_x100;  /* mean bound over last-stage submodels, times 100 */
  uint32_t target_met;       /* 1 when every bound <= error_target (or no target) */
} rqrmi_train_report_t;

/* Checks the configuration: widths, samples, rounds, and that max_model_bytes (when set) holds
 * the configured stages. */
rqrmi_status_t rqrmi_train_check_config(const rqrmi_train_config_t *config);

/* Largest model image training may produce (the configured widths, or max_model_bytes). */
size_t rqrmi_train_model_capacity(const rqrmi_train_config_t *config);

/* Workspace bytes training needs; 0 for an invalid configuration. */
size_t rqrmi_train_workspace_bytes(const rqrmi_train_config_t *config);

/* Trains a model for `ranges` (checked with rqrmi_check_ranges) into `model` (of
 * `model_capacity` bytes). RQRMI_ERR_WORKSPACE when a buffer is too small (also when a
 * responsibility needs more intervals than the workspace holds). The report may be null. */
rqrmi_status_t rqrmi_train(const rqrmi_train_config_t *config, const rqrmi_range_t *ranges,
                           uint32_t range_count, rqrmi_model_t *model, size_t model_capacity,
                           void *workspace, size_t workspace_bytes, rqrmi_train_report_t *report);

#ifdef __cplusplus
}
#endif

#endif
