/* RQRMI range index: fixed-point inference, the secondary search and model validation.
 * The model image and its arithmetic are the hardware/software contract of
 * interface/rqrmi_model.h; the accelerator computes the same predictions bit for bit.
 * Training lives in rqrmi_train.h. Portable C: runs on the controller core and on the host. */
#ifndef SSDVP_FIRMWARE_ML_RQRMI_H
#define SSDVP_FIRMWARE_ML_RQRMI_H

#include <stddef.h>
#include <stdint.h>

#include "rqrmi_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rqrmi_range {
  uint32_t lo; /* first key */
  uint32_t hi; /* last key (inclusive) */
} rqrmi_range_t;

typedef struct rqrmi_unit {
  int32_t b1;
  int32_t w2;
} rqrmi_unit_t;

/* One submodel record (RQRMI_SUB_* words). */
typedef struct rqrmi_submodel {
  uint32_t in_lo;
  uint32_t config;
  int32_t b2;
  uint32_t error;
  rqrmi_unit_t unit[RQRMI_HIDDEN];
} rqrmi_submodel_t;

/* The model image: header (RQRMI_HEADER_* words) and the records of every stage. */
typedef struct rqrmi_model {
  uint32_t magic;
  uint32_t size_bytes;
  uint32_t range_count;
  uint32_t stage_count;
  uint32_t stage_width[RQRMI_MAX_STAGES];
  rqrmi_submodel_t submodel[];
} rqrmi_model_t;

typedef enum rqrmi_status {
  RQRMI_OK = 0,
  RQRMI_ERR_MODEL_SIZE,      /* image size differs from what its header describes */
  RQRMI_ERR_MODEL_MAGIC,
  RQRMI_ERR_STAGES,          /* stage count or a stage width out of range */
  RQRMI_ERR_RANGE_COUNT,     /* 0, above RQRMI_MAX_RANGES, or not the header's */
  RQRMI_ERR_RANGE_INVERTED,  /* a range with lo > hi */
  RQRMI_ERR_RANGES_UNSORTED, /* a range starts before its predecessor */
  RQRMI_ERR_RANGES_OVERLAP,  /* a range starts inside its predecessor */
  RQRMI_ERR_WEIGHTS,         /* in_shift or b1 beyond the fixed-point format */
  RQRMI_ERR_ERROR_BOUND,     /* an error bound >= n, or non-zero before the last stage */
  RQRMI_ERR_CONFIG,          /* training configuration out of range */
  RQRMI_ERR_WORKSPACE,       /* training workspace or model buffer too small */
  RQRMI_STATUS_COUNT
} rqrmi_status_t;

/* A status's name, e.g. "ranges overlap". */
const char *rqrmi_status_text(rqrmi_status_t status);

/* Bytes of a model image with these stages; 0 when the stage count or a width is out of range
 * (stage 0's width must be 1). */
size_t rqrmi_model_bytes(uint32_t stage_count, const uint32_t *stage_width);
uint32_t rqrmi_submodel_count(const rqrmi_model_t *model);
/* Index of stage `stage`'s first record in model->submodel. */
uint32_t rqrmi_stage_base(const rqrmi_model_t *model, uint32_t stage);

/* Checks a range array: 1 <= n <= RQRMI_MAX_RANGES, lo <= hi, sorted, no overlap. On failure,
 * *where (if not null) receives the offending range's index. */
rqrmi_status_t rqrmi_check_ranges(const rqrmi_range_t *ranges, uint32_t range_count,
                                  uint32_t *where);

/* Checks a model image of `model_bytes` bytes for use with `ranges`: header, size, weights in
 * the fixed-point format, error bounds, and the range array itself. On failure, *where (if not
 * null) receives the offending stage, submodel or range index. Inference and lookups require a
 * model that passed. */
rqrmi_status_t rqrmi_validate(const rqrmi_model_t *model, size_t model_bytes,
                              const rqrmi_range_t *ranges, uint32_t range_count, uint32_t *where);

/* The submodel's input x (UQ0.24) and output y (UQ0.24) for `key`. */
uint32_t rqrmi_submodel_input(const rqrmi_submodel_t *submodel, uint32_t key);
uint32_t rqrmi_submodel_output(const rqrmi_submodel_t *submodel, uint32_t key);

typedef struct rqrmi_prediction {
  uint32_t index; /* predicted range index, < n */
  uint32_t error; /* the last-stage submodel's error bound */
} rqrmi_prediction_t;

rqrmi_prediction_t rqrmi_predict(const rqrmi_model_t *model, uint32_t key);

/* The range of [index - error, index + error] (clipped to the array) that contains `key`, or
 * RQRMI_NONE. A binary search for the last range starting at or before the key; the
 * accelerator's search visits the same ranges in the same order. */
uint32_t rqrmi_search(const rqrmi_range_t *ranges, uint32_t range_count, uint32_t key,
                      rqrmi_prediction_t prediction);

/* Prediction plus secondary search: the index of the range containing `key`, or RQRMI_NONE. */
uint32_t rqrmi_lookup(const rqrmi_model_t *model, const rqrmi_range_t *ranges, uint32_t key);

#ifdef __cplusplus
}
#endif

#endif
