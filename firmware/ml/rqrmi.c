#include "ml/rqrmi.h"

/* The C layout must be the image layout of interface/rqrmi_model.h. */
_Static_assert(sizeof(rqrmi_submodel_t) == RQRMI_SUBMODEL_BYTES, "submodel record size");
_Static_assert(offsetof(rqrmi_submodel_t, in_lo) == 4 * RQRMI_SUB_IN_LO, "in_lo");
_Static_assert(offsetof(rqrmi_submodel_t, config) == 4 * RQRMI_SUB_CONFIG, "config");
_Static_assert(offsetof(rqrmi_submodel_t, b2) == 4 * RQRMI_SUB_B2, "b2");
_Static_assert(offsetof(rqrmi_submodel_t, error) == 4 * RQRMI_SUB_ERROR, "error");
_Static_assert(offsetof(rqrmi_submodel_t, unit[3].b1) == 4 * RQRMI_SUB_B1(3), "b1");
_Static_assert(offsetof(rqrmi_submodel_t, unit[3].w2) == 4 * RQRMI_SUB_W2(3), "w2");
_Static_assert(offsetof(rqrmi_model_t, submodel) == RQRMI_HEADER_BYTES, "header size");
_Static_assert(offsetof(rqrmi_model_t, range_count) == 4 * RQRMI_HEADER_RANGE_COUNT, "n");
_Static_assert(offsetof(rqrmi_model_t, stage_width[2]) == 4 * RQRMI_HEADER_STAGE_WIDTH(2),
               "widths");

#define X_MAX ((1u << RQRMI_X_BITS) - 1u)
#define Y_MAX ((1u << RQRMI_Y_BITS) - 1u)

const char *rqrmi_status_text(rqrmi_status_t status) {
  static const char *const text[RQRMI_STATUS_COUNT] = {
      "ok",
      "model size differs from its header",
      "bad model magic",
      "stage count or width out of range",
      "range count out of range or not the model's",
      "range with lo > hi",
      "ranges not sorted",
      "ranges overlap",
      "weights outside the fixed-point format",
      "error bound out of range",
      "training configuration out of range",
      "workspace or model buffer too small",
  };
  return (unsigned)status < RQRMI_STATUS_COUNT ? text[status] : "unknown status";
}

size_t rqrmi_model_bytes(uint32_t stage_count, const uint32_t *stage_width) {
  if (stage_count == 0 || stage_count > RQRMI_MAX_STAGES || stage_width[0] != 1) return 0;
  size_t submodels = 0;
  for (uint32_t s = 0; s < stage_count; ++s) {
    if (stage_width[s] == 0 || stage_width[s] > RQRMI_MAX_STAGE_WIDTH) return 0;
    submodels += stage_width[s];
  }
  return RQRMI_HEADER_BYTES + submodels * RQRMI_SUBMODEL_BYTES;
}

uint32_t rqrmi_stage_base(const rqrmi_model_t *model, uint32_t stage) {
  uint32_t base = 0;
  for (uint32_t s = 0; s < stage; ++s) base += model->stage_width[s];
  return base;
}

uint32_t rqrmi_submodel_count(const rqrmi_model_t *model) {
  return rqrmi_stage_base(model, model->stage_count);
}

rqrmi_status_t rqrmi_check_ranges(const rqrmi_range_t *ranges, uint32_t range_count,
                                  uint32_t *where) {
  if (range_count == 0 || range_count > RQRMI_MAX_RANGES) return RQRMI_ERR_RANGE_COUNT;
  for (uint32_t i = 0; i < range_count; ++i) {
    rqrmi_status_t status = RQRMI_OK;
    if (ranges[i].lo > ranges[i].hi) {
      status = RQRMI_ERR_RANGE_INVERTED;
    } else if (i > 0 && ranges[i].lo < ranges[i - 1].lo) {
      status = RQRMI_ERR_RANGES_UNSORTED;
    } else if (i > 0 && ranges[i].lo <= ranges[i - 1].hi) {
      status = RQRMI_ERR_RANGES_OVERLAP;
    }
    if (status != RQRMI_OK) {
      if (where != 0) *where = i;
      return status;
    }
  }
  return RQRMI_OK;
}

static rqrmi_status_t check_header(const rqrmi_model_t *model, size_t model_bytes,
                                   uint32_t range_count, uint32_t *where) {
  if (model_bytes < RQRMI_HEADER_BYTES) return RQRMI_ERR_MODEL_SIZE;
  if (model->magic != RQRMI_MODEL_MAGIC) return RQRMI_ERR_MODEL_MAGIC;
  const size_t expected = rqrmi_model_bytes(model->stage_count, model->stage_width);
  if (expected == 0) return RQRMI_ERR_STAGES;
  for (uint32_t s = model->stage_count; s < RQRMI_MAX_STAGES; ++s) {
    if (model->stage_width[s] != 0) {
      if (where != 0) *where = s;
      return RQRMI_ERR_STAGES;
    }
  }
  if (model->size_bytes != expected || model_bytes != expected) return RQRMI_ERR_MODEL_SIZE;
  if (model->range_count != range_count) return RQRMI_ERR_RANGE_COUNT;
  return RQRMI_OK;
}

rqrmi_status_t rqrmi_validate(const rqrmi_model_t *model, size_t model_bytes,
                              const rqrmi_range_t *ranges, uint32_t range_count, uint32_t *where) {
  rqrmi_status_t status = check_header(model, model_bytes, range_count, where);
  if (status != RQRMI_OK) return status;
  const uint32_t last_base = rqrmi_stage_base(model, model->stage_count - 1);
  const uint32_t count = rqrmi_submodel_count(model);
  for (uint32_t m = 0; m < count; ++m) {
    const rqrmi_submodel_t *sub = &model->submodel[m];
    if (where != 0) *where = m;
    if ((sub->config & ~(RQRMI_CONFIG_IN_SHIFT_MASK | RQRMI_CONFIG_SIGN_MASK)) != 0 ||
        (sub->config & RQRMI_CONFIG_IN_SHIFT_MASK) > RQRMI_MAX_IN_SHIFT) {
      return RQRMI_ERR_WEIGHTS;
    }
    for (uint32_t j = 0; j < RQRMI_HIDDEN; ++j) {
      const int32_t b1 = sub->unit[j].b1;
      if (b1 > RQRMI_MAX_ABS_B1 || b1 < -RQRMI_MAX_ABS_B1) return RQRMI_ERR_WEIGHTS;
    }
    if (m < last_base ? sub->error != 0 : sub->error >= range_count) return RQRMI_ERR_ERROR_BOUND;
  }
  return rqrmi_check_ranges(ranges, range_count, where);
}

uint32_t rqrmi_submodel_input(const rqrmi_submodel_t *submodel, uint32_t key) {
  const uint32_t in_shift = submodel->config & RQRMI_CONFIG_IN_SHIFT_MASK;
  const uint32_t distance = key >= submodel->in_lo ? key - submodel->in_lo : 0;
  /* min((distance << 24) >> in_shift, X_MAX) in 32-bit steps (in_shift <= 32 in a valid model):
   * the scaled value reaches 2^24 exactly when distance reaches 2^in_shift. */
  if (in_shift >= RQRMI_X_BITS) {
    const uint32_t x = distance >> (in_shift - RQRMI_X_BITS);
    return x > X_MAX ? X_MAX : x;
  }
  if ((distance >> in_shift) != 0) return X_MAX;
  return distance << (RQRMI_X_BITS - in_shift);
}

uint32_t rqrmi_submodel_output(const rqrmi_submodel_t *submodel, uint32_t key) {
  const uint32_t signs = (submodel->config & RQRMI_CONFIG_SIGN_MASK) >> RQRMI_CONFIG_SIGN_SHIFT;
  const int32_t x = (int32_t)rqrmi_submodel_input(submodel, key);
  int64_t acc = 0;
  for (uint32_t j = 0; j < RQRMI_HIDDEN; ++j) {
    const int32_t z = (signs >> j) & 1u ? submodel->unit[j].b1 - x : submodel->unit[j].b1 + x;
    if (z > 0) acc += (int64_t)submodel->unit[j].w2 * z;
  }
  /* GCC's >> of a negative value is arithmetic: the floor the format specifies. */
  const int64_t y = (acc >> RQRMI_W2_FRAC_BITS) + submodel->b2;
  if (y < 0) return 0;
  return y > (int64_t)Y_MAX ? Y_MAX : (uint32_t)y;
}

/* floor(y * count), y in UQ0.24: < count. */
static uint32_t scale_output(uint32_t y, uint32_t count) {
  return (uint32_t)(((uint64_t)y * count) >> RQRMI_Y_BITS);
}

rqrmi_prediction_t rqrmi_predict(const rqrmi_model_t *model, uint32_t key) {
  const rqrmi_submodel_t *sub = &model->submodel[0];
  uint32_t base = 0;
  for (uint32_t s = 1; s < model->stage_count; ++s) {
    const uint32_t y = rqrmi_submodel_output(sub, key);
    base += model->stage_width[s - 1];
    sub = &model->submodel[base + scale_output(y, model->stage_width[s])];
  }
  const rqrmi_prediction_t prediction = {
      scale_output(rqrmi_submodel_output(sub, key), model->range_count), sub->error};
  return prediction;
}

uint32_t rqrmi_search(const rqrmi_range_t *ranges, uint32_t range_count, uint32_t key,
                      rqrmi_prediction_t prediction) {
  const uint32_t first = prediction.index > prediction.error ? prediction.index - prediction.error
                                                             : 0;
  const uint32_t room = range_count - 1 - prediction.index;
  const uint32_t last = prediction.error < room ? prediction.index + prediction.error
                                                : range_count - 1;
  /* [low, high): the first range of the window that starts after the key lies in it. */
  uint32_t low = first;
  uint32_t high = last + 1;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    if (ranges[middle].lo <= key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == first || key > ranges[low - 1].hi) return RQRMI_NONE;
  return low - 1;
}

uint32_t rqrmi_lookup(const rqrmi_model_t *model, const rqrmi_range_t *ranges, uint32_t key) {
  return rqrmi_search(ranges, model->range_count, key, rqrmi_predict(model, key));
}
