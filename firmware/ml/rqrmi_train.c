#include "ml/rqrmi_train.h"

#include <string.h>

#define X_MAX ((1u << RQRMI_X_BITS) - 1u)
#define Y_MAX ((1u << RQRMI_Y_BITS) - 1u)
#define KNOTS (RQRMI_HIDDEN + 1u) /* a piece per hidden unit, bounded by the knots */

typedef struct interval {
  uint32_t lo;
  uint32_t hi;
} interval_t;

/* Keys of one submodel's responsibility routed on to submodel `to` of the next stage. */
typedef struct routed {
  uint32_t to;
  uint32_t lo;
  uint32_t hi;
} routed_t;

/* One stage's responsibilities: submodel m owns interval[offset[m] .. offset[m + 1]), sorted by
 * key and disjoint. */
typedef struct responsibility {
  interval_t *interval;
  uint32_t *offset;
} responsibility_t;

typedef struct workspace {
  responsibility_t stage[2]; /* stage s lives in stage[s % 2] */
  routed_t *routed;
  uint32_t routed_count;
  uint32_t capacity; /* intervals per stage, and routed entries */
} workspace_t;

/* ---- Configuration and sizes ------------------------------------------------------------------ */

static uint32_t widest_last_stage(const rqrmi_train_config_t *config) {
  uint32_t widths[RQRMI_MAX_STAGES];
  memcpy(widths, config->stage_width, sizeof(widths));
  const uint32_t last = config->stage_count - 1;
  while (last > 0 && config->max_model_bytes != 0 && widths[last] * 2 <= RQRMI_MAX_STAGE_WIDTH) {
    widths[last] *= 2;
    if (rqrmi_model_bytes(config->stage_count, widths) > config->max_model_bytes) {
      widths[last] /= 2;
      break;
    }
  }
  return widths[last];
}

static uint32_t widest_stage(const rqrmi_train_config_t *config) {
  uint32_t widest = widest_last_stage(config);
  for (uint32_t s = 0; s < config->stage_count; ++s) {
    if (config->stage_width[s] > widest) widest = config->stage_width[s];
  }
  return widest;
}

static uint32_t interval_capacity(const rqrmi_train_config_t *config) {
  const uint32_t needed = RQRMI_TRAIN_INTERVALS_PER_SUBMODEL * widest_stage(config);
  return needed > RQRMI_TRAIN_INTERVALS_MIN ? needed : RQRMI_TRAIN_INTERVALS_MIN;
}

rqrmi_status_t rqrmi_train_check_config(const rqrmi_train_config_t *config) {
  const size_t bytes = rqrmi_model_bytes(config->stage_count, config->stage_width);
  if (bytes == 0) return RQRMI_ERR_STAGES;
  for (uint32_t s = config->stage_count; s < RQRMI_MAX_STAGES; ++s) {
    if (config->stage_width[s] != 0) return RQRMI_ERR_STAGES;
  }
  if (config->samples < 2 || config->max_rounds == 0) return RQRMI_ERR_CONFIG;
  if (config->max_model_bytes != 0 && config->max_model_bytes < bytes) return RQRMI_ERR_CONFIG;
  return RQRMI_OK;
}

size_t rqrmi_train_model_capacity(const rqrmi_train_config_t *config) {
  if (rqrmi_train_check_config(config) != RQRMI_OK) return 0;
  uint32_t widths[RQRMI_MAX_STAGES];
  memcpy(widths, config->stage_width, sizeof(widths));
  widths[config->stage_count - 1] = widest_last_stage(config);
  return rqrmi_model_bytes(config->stage_count, widths);
}

static size_t align8(size_t bytes) { return (bytes + 7u) & ~(size_t)7u; }

/* Lays the workspace out (when `base` is not null) and returns its size. */
static size_t workspace_layout(const rqrmi_train_config_t *config, uint8_t *base,
                               workspace_t *ws) {
  const uint32_t capacity = interval_capacity(config);
  const uint32_t offsets = widest_stage(config) + 1;
  size_t used = 0;
  for (uint32_t i = 0; i < 2; ++i) {
    if (base != 0) ws->stage[i].interval = (interval_t *)(base + used);
    used += align8(capacity * sizeof(interval_t));
    if (base != 0) ws->stage[i].offset = (uint32_t *)(base + used);
    used += align8(offsets * sizeof(uint32_t));
  }
  if (base != 0) {
    ws->routed = (routed_t *)(base + used);
    ws->capacity = capacity;
    ws->routed_count = 0;
  }
  used += align8(capacity * sizeof(routed_t));
  return used;
}

size_t rqrmi_train_workspace_bytes(const rqrmi_train_config_t *config) {
  if (rqrmi_train_check_config(config) != RQRMI_OK) return 0;
  /* Room to align a caller's buffer to 8 bytes. */
  return workspace_layout(config, 0, 0) + 8u;
}

/* ---- Range array searches --------------------------------------------------------------------- */

/* Index of the first range with hi >= key (range_count if none). Ranges are sorted and disjoint,
 * so their hi are sorted too. */
static uint32_t first_range_ending_from(const rqrmi_range_t *ranges, uint32_t range_count,
                                        uint32_t key) {
  uint32_t low = 0;
  uint32_t high = range_count;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    if (ranges[middle].hi < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/* Number of ranges with lo <= key. */
static uint32_t ranges_starting_until(const rqrmi_range_t *ranges, uint32_t range_count,
                                      uint32_t key) {
  uint32_t low = 0;
  uint32_t high = range_count;
  while (low < high) {
    const uint32_t middle = low + (high - low) / 2;
    if (ranges[middle].lo <= key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/* ---- The quantised submodel as piecewise-linear function of the key --------------------------- */

/* The first key whose input x reaches `level` (1 .. X_MAX); above 0xFFFFFFFF when none does. */
static uint64_t first_key_reaching(const rqrmi_submodel_t *sub, uint32_t level) {
  const uint32_t in_shift = sub->config & RQRMI_CONFIG_IN_SHIFT_MASK;
  const uint64_t scaled = (uint64_t)level << in_shift;
  return (uint64_t)sub->in_lo + ((scaled + X_MAX) >> RQRMI_X_BITS);
}

static uint32_t unit_sign(const rqrmi_submodel_t *sub, uint32_t j) {
  return (sub->config >> (RQRMI_CONFIG_SIGN_SHIFT + j)) & 1u;
}

/* Sorted distinct keys in (lo, hi] where a unit that contributes to the output changes state;
 * returns their number. Between them the output is monotone in the key. */
static uint32_t state_changes(const rqrmi_submodel_t *sub, uint32_t lo, uint32_t hi,
                              uint32_t cut[RQRMI_HIDDEN]) {
  uint32_t count = 0;
  for (uint32_t j = 0; j < RQRMI_HIDDEN; ++j) {
    if (sub->unit[j].w2 == 0) continue;
    /* z = b1 + x is positive from x = 1 - b1 on; z = b1 - x stops being positive at x = b1. */
    const int64_t level = unit_sign(sub, j) ? (int64_t)sub->unit[j].b1 : 1 - (int64_t)sub->unit[j].b1;
    if (level <= 0 || level > (int64_t)X_MAX) continue;
    const uint64_t key = first_key_reaching(sub, (uint32_t)level);
    if (key <= lo || key > hi) continue;
    uint32_t at = 0;
    while (at < count && cut[at] < (uint32_t)key) ++at;
    if (at < count && cut[at] == (uint32_t)key) continue;
    for (uint32_t i = count; i > at; --i) cut[i] = cut[i - 1];
    cut[at] = (uint32_t)key;
    ++count;
  }
  return count;
}

/* The submodel on one piece: acc = slope * x + offset, exactly the sum over its active units. */
typedef struct linear_piece {
  const rqrmi_submodel_t *sub;
  int64_t slope;
  int64_t offset;
} linear_piece_t;

static linear_piece_t piece_at(const rqrmi_submodel_t *sub, uint32_t key) {
  const int32_t x = (int32_t)rqrmi_submodel_input(sub, key);
  linear_piece_t piece = {sub, 0, 0};
  for (uint32_t j = 0; j < RQRMI_HIDDEN; ++j) {
    const int32_t b1 = sub->unit[j].b1;
    const int32_t w2 = sub->unit[j].w2;
    const uint32_t negative = unit_sign(sub, j);
    if ((negative ? b1 - x : b1 + x) <= 0) continue;
    piece.slope += negative ? -(int64_t)w2 : (int64_t)w2;
    piece.offset += (int64_t)w2 * b1;
  }
  return piece;
}

/* rqrmi_submodel_output for a key of the piece. */
static uint32_t piece_output(const linear_piece_t *piece, uint32_t key) {
  const int64_t x = rqrmi_submodel_input(piece->sub, key);
  const int64_t y = ((piece->slope * x + piece->offset) >> RQRMI_W2_FRAC_BITS) + piece->sub->b2;
  if (y < 0) return 0;
  return y > (int64_t)Y_MAX ? Y_MAX : (uint32_t)y;
}

static uint32_t piece_scaled(const linear_piece_t *piece, uint32_t key, uint32_t count) {
  return (uint32_t)(((uint64_t)piece_output(piece, key) * count) >> RQRMI_Y_BITS);
}

/* ---- Training one submodel -------------------------------------------------------------------- */

/* Walks the samples of a responsibility in key order: the ends of every range it covers (clipped
 * to it), `count` of them evenly spread over all `ends`. */
typedef struct sample_walk {
  const interval_t *interval;
  const interval_t *interval_end;
  const rqrmi_range_t *ranges;
  uint32_t range_count;
  uint32_t first_range; /* of the current interval */
  uint32_t end_base;    /* index of the current interval's first end */
  uint32_t ends_here;   /* ends in the current interval */
  uint32_t next_end;    /* index of the next sample's end */
  uint32_t step;        /* ends between samples: step + remainder / count */
  uint32_t remainder;
  uint32_t fraction;
  uint32_t count;
} sample_walk_t;

static uint32_t ends_in(const rqrmi_range_t *ranges, uint32_t range_count, const interval_t *iv,
                        uint32_t *first) {
  *first = first_range_ending_from(ranges, range_count, iv->lo);
  const uint32_t past = ranges_starting_until(ranges, range_count, iv->hi);
  return past > *first ? 2u * (past - *first) : 0;
}

static void walk_start(sample_walk_t *walk, const interval_t *interval, uint32_t interval_count,
                       const rqrmi_range_t *ranges, uint32_t range_count, uint32_t ends,
                       uint32_t count) {
  walk->interval = interval;
  walk->interval_end = interval + interval_count;
  walk->ranges = ranges;
  walk->range_count = range_count;
  walk->end_base = 0;
  walk->ends_here = ends_in(ranges, range_count, interval, &walk->first_range);
  walk->next_end = 0;
  walk->step = ends / count;
  walk->remainder = ends % count;
  walk->fraction = 0;
  walk->count = count;
}

/* The next sample's key and range index. */
static void walk_next(sample_walk_t *walk, uint32_t *key, uint32_t *index) {
  while (walk->next_end >= walk->end_base + walk->ends_here) {
    walk->end_base += walk->ends_here;
    ++walk->interval;
    walk->ends_here = ends_in(walk->ranges, walk->range_count, walk->interval, &walk->first_range);
  }
  const uint32_t offset = walk->next_end - walk->end_base;
  const uint32_t range = walk->first_range + offset / 2;
  const rqrmi_range_t *r = &walk->ranges[range];
  if (offset % 2 == 0) {
    *key = r->lo > walk->interval->lo ? r->lo : walk->interval->lo;
  } else {
    *key = r->hi < walk->interval->hi ? r->hi : walk->interval->hi;
  }
  *index = range;
  walk->next_end += walk->step;
  walk->fraction += walk->remainder;
  if (walk->fraction >= walk->count) {
    walk->fraction -= walk->count;
    ++walk->next_end;
  }
}

static int32_t round_saturated(float value) {
  if (value >= 2147483647.0f) return INT32_MAX;
  if (value <= -2147483648.0f) return INT32_MIN;
  return value >= 0.0f ? (int32_t)(value + 0.5f) : -(int32_t)(0.5f - value);
}

static int32_t saturate32(int64_t value) {
  if (value > INT32_MAX) return INT32_MAX;
  if (value < INT32_MIN) return INT32_MIN;
  return (int32_t)value;
}

static uint32_t bit_length(uint32_t value) {
  uint32_t bits = 0;
  while (value != 0) {
    ++bits;
    value >>= 1;
  }
  return bits;
}

/* Least-squares values v at the knots t of the continuous piecewise-linear fit (hat basis): a
 * symmetric tridiagonal system, solved by elimination. Every knot is a sample, so the diagonal
 * is positive. */
static void fit_knot_values(sample_walk_t *walk, const rqrmi_submodel_t *sub, uint32_t range_count,
                            const float *t, uint32_t knots, float *v) {
  float diagonal[KNOTS] = {0};
  float upper[KNOTS] = {0};
  float rhs[KNOTS] = {0};
  const float index_scale = 1.0f / (float)range_count;
  float inverse_width[KNOTS];
  for (uint32_t k = 0; k + 1 < knots; ++k) inverse_width[k] = 1.0f / (t[k + 1] - t[k]);
  uint32_t piece = 0;
  for (uint32_t n = 0; n < walk->count; ++n) {
    uint32_t key;
    uint32_t index;
    walk_next(walk, &key, &index);
    const float x = (float)rqrmi_submodel_input(sub, key);
    const float y = ((float)index + 0.5f) * index_scale;
    while (piece + 2 < knots && x > t[piece + 1]) ++piece;
    const float right = (x - t[piece]) * inverse_width[piece];
    const float left = 1.0f - right;
    diagonal[piece] += left * left;
    upper[piece] += left * right;
    diagonal[piece + 1] += right * right;
    rhs[piece] += left * y;
    rhs[piece + 1] += right * y;
  }
  float c[KNOTS];
  float d[KNOTS];
  c[0] = upper[0] / diagonal[0];
  d[0] = rhs[0] / diagonal[0];
  for (uint32_t i = 1; i < knots; ++i) {
    const float pivot = diagonal[i] - upper[i - 1] * c[i - 1];
    c[i] = upper[i] / pivot;
    d[i] = (rhs[i] - upper[i - 1] * d[i - 1]) / pivot;
  }
  v[knots - 1] = d[knots - 1];
  for (uint32_t i = knots - 1; i-- > 0;) v[i] = d[i] - c[i] * v[i + 1];
}

static void train_submodel(rqrmi_submodel_t *sub, const interval_t *interval, uint32_t count,
                           const rqrmi_range_t *ranges, uint32_t range_count, uint32_t samples) {
  memset(sub, 0, sizeof(*sub));
  if (count == 0) return;
  sub->in_lo = interval[0].lo;
  sub->config = bit_length(interval[count - 1].hi - interval[0].lo);

  uint32_t ends = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t first;
    ends += ends_in(ranges, range_count, &interval[i], &first);
  }
  if (ends == 0) return; /* only keys no range covers: any prediction is right */
  const uint32_t used = samples < ends ? samples : ends;

  /* Knots at the quantiles of the samples' x, distinct: sample q * (used - 1) / 8 for q = 0..8,
   * sought directly (the walk only moves forward). */
  float t[KNOTS];
  uint32_t knots = 0;
  uint32_t first_index = 0;
  uint32_t last_index = 0;
  sample_walk_t walk;
  walk_start(&walk, interval, count, ranges, range_count, ends, used);
  for (uint32_t q = 0; q < KNOTS; ++q) {
    const uint64_t sample = (uint64_t)q * (used - 1) / (KNOTS - 1);
    walk.next_end = (uint32_t)(sample * ends / used);
    uint32_t key;
    walk_next(&walk, &key, &last_index);
    if (q == 0) first_index = last_index;
    const float x = (float)rqrmi_submodel_input(sub, key);
    if (knots == 0 || x > t[knots - 1]) t[knots++] = x;
  }

  if (knots == 1) {
    /* One input value: the constant halfway between the first and last labels, which bounds
     * the error best. */
    const float middle = ((float)first_index + (float)last_index + 1.0f) * 0.5f;
    sub->b2 = round_saturated(middle / (float)range_count * (float)(1u << RQRMI_Y_BITS));
    return;
  }
  float v[KNOTS];
  walk_start(&walk, interval, count, ranges, range_count, ends, used);
  fit_knot_values(&walk, sub, range_count, t, knots, v);

  /* Unit k is relu(x - t_k) carrying the change of slope at t_k. The quantised slopes are
   * accumulated so that rounding does not drift along the pieces. */
  const float slope_scale = (float)(1ull << (RQRMI_X_BITS + RQRMI_W2_FRAC_BITS));
  int64_t slope_so_far = 0;
  for (uint32_t k = 0; k + 1 < knots; ++k) {
    const float slope = (v[k + 1] - v[k]) / (t[k + 1] - t[k]);
    const int32_t w2 = saturate32((int64_t)round_saturated(slope * slope_scale) - slope_so_far);
    sub->unit[k].b1 = -(int32_t)t[k];
    sub->unit[k].w2 = w2;
    slope_so_far += w2;
  }
  sub->b2 = round_saturated(v[0] * (float)(1u << RQRMI_Y_BITS));
}

/* ---- Responsibilities of the next stage ------------------------------------------------------- */

static int emit(workspace_t *ws, uint32_t to, uint32_t lo, uint32_t hi) {
  if (ws->routed_count > 0) {
    routed_t *last = &ws->routed[ws->routed_count - 1];
    if (last->to == to && last->hi + 1 == lo) {
      last->hi = hi;
      return 1;
    }
  }
  if (ws->routed_count == ws->capacity) return 0;
  ws->routed[ws->routed_count++] = (routed_t){to, lo, hi};
  return 1;
}

/* Routes the keys [lo, hi] of one monotone piece: each run of keys going to the same submodel
 * ends where a binary search finds the next submodel starting. */
static int route_piece(workspace_t *ws, const linear_piece_t *piece, uint32_t lo, uint32_t hi,
                       uint32_t width) {
  const uint32_t last_to = piece_scaled(piece, hi, width);
  uint32_t start = lo;
  uint32_t to = piece_scaled(piece, start, width);
  while (to != last_to) {
    uint32_t same = start; /* routed to `to` */
    uint32_t other = hi;   /* not routed to `to` */
    while (other - same > 1) {
      const uint32_t middle = same + (other - same) / 2;
      if (piece_scaled(piece, middle, width) == to) {
        same = middle;
      } else {
        other = middle;
      }
    }
    if (!emit(ws, to, start, same)) return 0;
    start = other;
    to = piece_scaled(piece, start, width);
  }
  return emit(ws, to, start, hi);
}

/* Calls `visit` for the monotone pieces of each interval of `sub`'s responsibility. */
typedef int (*piece_visitor)(void *context, const linear_piece_t *piece, uint32_t lo, uint32_t hi);

static int for_each_piece(const rqrmi_submodel_t *sub, const interval_t *interval, uint32_t count,
                          piece_visitor visit, void *context) {
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t cut[RQRMI_HIDDEN];
    const uint32_t cuts = state_changes(sub, interval[i].lo, interval[i].hi, cut);
    uint32_t lo = interval[i].lo;
    for (uint32_t c = 0; c <= cuts; ++c) {
      const uint32_t hi = c < cuts ? cut[c] - 1 : interval[i].hi;
      const linear_piece_t piece = piece_at(sub, lo);
      if (!visit(context, &piece, lo, hi)) return 0;
      if (c < cuts) lo = cut[c];
    }
  }
  return 1;
}

typedef struct route_context {
  workspace_t *ws;
  uint32_t width;
} route_context_t;

static int route_visitor(void *context, const linear_piece_t *piece, uint32_t lo, uint32_t hi) {
  const route_context_t *route = (const route_context_t *)context;
  return route_piece(route->ws, piece, lo, hi, route->width);
}

/* Responsibilities of the `to_width` submodels of stage s + 1 from those of stage s. */
static rqrmi_status_t route_stage(workspace_t *ws, const rqrmi_submodel_t *stage_sub,
                                  const responsibility_t *from, uint32_t from_width,
                                  responsibility_t *to, uint32_t to_width) {
  ws->routed_count = 0;
  route_context_t context = {ws, to_width};
  for (uint32_t p = 0; p < from_width; ++p) {
    const uint32_t first = from->offset[p];
    if (!for_each_piece(&stage_sub[p], &from->interval[first], from->offset[p + 1] - first,
                        route_visitor, &context)) {
      return RQRMI_ERR_WORKSPACE;
    }
  }
  /* Counting sort by submodel, then each submodel's intervals by key, merging neighbours. */
  for (uint32_t m = 0; m <= to_width; ++m) to->offset[m] = 0;
  for (uint32_t r = 0; r < ws->routed_count; ++r) ++to->offset[ws->routed[r].to + 1];
  for (uint32_t m = 0; m < to_width; ++m) to->offset[m + 1] += to->offset[m];
  for (uint32_t r = 0; r < ws->routed_count; ++r) {
    const routed_t *routed = &ws->routed[r];
    /* offset[to] counts this submodel's placed intervals until the pass ends. */
    to->interval[to->offset[routed->to]++] = (interval_t){routed->lo, routed->hi};
  }
  for (uint32_t m = to_width; m > 0; --m) to->offset[m] = to->offset[m - 1];
  to->offset[0] = 0;
  uint32_t kept = 0;
  for (uint32_t m = 0; m < to_width; ++m) {
    const uint32_t first = to->offset[m];
    const uint32_t end = to->offset[m + 1];
    interval_t *list = &to->interval[first];
    for (uint32_t i = 1; i < end - first; ++i) {
      const interval_t moving = list[i];
      uint32_t at = i;
      while (at > 0 && list[at - 1].lo > moving.lo) {
        list[at] = list[at - 1];
        --at;
      }
      list[at] = moving;
    }
    to->offset[m] = kept;
    for (uint32_t i = first; i < end; ++i) {
      if (kept > to->offset[m] && to->interval[kept - 1].hi + 1 == to->interval[i].lo) {
        to->interval[kept - 1].hi = to->interval[i].hi;
      } else {
        to->interval[kept++] = to->interval[i];
      }
    }
  }
  to->offset[to_width] = kept;
  return RQRMI_OK;
}

/* ---- Error bounds ----------------------------------------------------------------------------- */

typedef struct bound_context {
  const rqrmi_range_t *ranges;
  uint32_t range_count;
  uint32_t error;
} bound_context_t;

static uint32_t distance(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

static int bound_visitor(void *context, const linear_piece_t *piece, uint32_t lo, uint32_t hi) {
  bound_context_t *bound = (bound_context_t *)context;
  const rqrmi_range_t *ranges = bound->ranges;
  const uint32_t n = bound->range_count;
  for (uint32_t i = first_range_ending_from(ranges, n, lo); i < n && ranges[i].lo <= hi; ++i) {
    const uint32_t first = ranges[i].lo > lo ? ranges[i].lo : lo;
    const uint32_t last = ranges[i].hi < hi ? ranges[i].hi : hi;
    const uint32_t at_first = distance(piece_scaled(piece, first, n), i);
    const uint32_t at_last = distance(piece_scaled(piece, last, n), i);
    if (at_first > bound->error) bound->error = at_first;
    if (at_last > bound->error) bound->error = at_last;
  }
  return 1;
}

static uint32_t error_bound(const rqrmi_submodel_t *sub, const interval_t *interval,
                            uint32_t count, const rqrmi_range_t *ranges, uint32_t range_count) {
  bound_context_t context = {ranges, range_count, 0};
  for_each_piece(sub, interval, count, bound_visitor, &context);
  return context.error;
}

/* ---- The whole model -------------------------------------------------------------------------- */

typedef struct trainer {
  const rqrmi_range_t *ranges;
  uint32_t range_count;
  rqrmi_model_t *model;
  workspace_t ws;
} trainer_t;

static void train_stage(trainer_t *trainer, uint32_t stage, uint32_t samples) {
  rqrmi_model_t *model = trainer->model;
  const responsibility_t *owned = &trainer->ws.stage[stage % 2];
  rqrmi_submodel_t *sub = &model->submodel[rqrmi_stage_base(model, stage)];
  for (uint32_t m = 0; m < model->stage_width[stage]; ++m) {
    const uint32_t first = owned->offset[m];
    train_submodel(&sub[m], &owned->interval[first], owned->offset[m + 1] - first,
                   trainer->ranges, trainer->range_count, samples);
  }
}

static rqrmi_status_t route_to(trainer_t *trainer, uint32_t stage) {
  rqrmi_model_t *model = trainer->model;
  return route_stage(&trainer->ws, &model->submodel[rqrmi_stage_base(model, stage - 1)],
                     &trainer->ws.stage[(stage - 1) % 2], model->stage_width[stage - 1],
                     &trainer->ws.stage[stage % 2], model->stage_width[stage]);
}

/* Bounds of every last-stage submodel; returns the largest. */
static uint32_t bound_last_stage(trainer_t *trainer) {
  rqrmi_model_t *model = trainer->model;
  const uint32_t last = model->stage_count - 1;
  const responsibility_t *owned = &trainer->ws.stage[last % 2];
  rqrmi_submodel_t *sub = &model->submodel[rqrmi_stage_base(model, last)];
  uint32_t worst = 0;
  for (uint32_t m = 0; m < model->stage_width[last]; ++m) {
    const uint32_t first = owned->offset[m];
    sub[m].error = error_bound(&sub[m], &owned->interval[first], owned->offset[m + 1] - first,
                               trainer->ranges, trainer->range_count);
    if (sub[m].error > worst) worst = sub[m].error;
  }
  return worst;
}

/* Retrains the last-stage submodels whose bound exceeds `target` with `samples`. */
static uint32_t retrain_failing(trainer_t *trainer, uint32_t target, uint32_t samples) {
  rqrmi_model_t *model = trainer->model;
  const uint32_t last = model->stage_count - 1;
  const responsibility_t *owned = &trainer->ws.stage[last % 2];
  rqrmi_submodel_t *sub = &model->submodel[rqrmi_stage_base(model, last)];
  uint32_t worst = 0;
  for (uint32_t m = 0; m < model->stage_width[last]; ++m) {
    if (sub[m].error > target) {
      const uint32_t first = owned->offset[m];
      const uint32_t count = owned->offset[m + 1] - first;
      rqrmi_submodel_t candidate;
      train_submodel(&candidate, &owned->interval[first], count, trainer->ranges,
                     trainer->range_count, samples);
      candidate.error = error_bound(&candidate, &owned->interval[first], count, trainer->ranges,
                                    trainer->range_count);
      if (candidate.error < sub[m].error) sub[m] = candidate;
    }
    if (sub[m].error > worst) worst = sub[m].error;
  }
  return worst;
}

rqrmi_status_t rqrmi_train(const rqrmi_train_config_t *config, const rqrmi_range_t *ranges,
                           uint32_t range_count, rqrmi_model_t *model, size_t model_capacity,
                           void *workspace, size_t workspace_bytes, rqrmi_train_report_t *report) {
  rqrmi_status_t status = rqrmi_train_check_config(config);
  if (status != RQRMI_OK) return status;
  status = rqrmi_check_ranges(ranges, range_count, 0);
  if (status != RQRMI_OK) return status;
  if (model_capacity < rqrmi_train_model_capacity(config) ||
      workspace_bytes < rqrmi_train_workspace_bytes(config)) {
    return RQRMI_ERR_WORKSPACE;
  }
  trainer_t trainer;
  memset(&trainer, 0, sizeof(trainer));
  trainer.ranges = ranges;
  trainer.range_count = range_count;
  trainer.model = model;
  uint8_t *base = (uint8_t *)(((uintptr_t)workspace + 7u) & ~(uintptr_t)7u);
  workspace_layout(config, base, &trainer.ws);

  memset(model, 0, RQRMI_HEADER_BYTES);
  model->magic = RQRMI_MODEL_MAGIC;
  model->range_count = range_count;
  model->stage_count = config->stage_count;
  memcpy(model->stage_width, config->stage_width, sizeof(model->stage_width));

  responsibility_t *root = &trainer.ws.stage[0];
  root->interval[0] = (interval_t){ranges[0].lo, ranges[range_count - 1].hi};
  root->offset[0] = 0;
  root->offset[1] = 1;
  const uint32_t last = config->stage_count - 1;
  for (uint32_t s = 0; s <= last; ++s) {
    if (s > 0 && (status = route_to(&trainer, s)) != RQRMI_OK) return status;
    train_stage(&trainer, s, config->samples);
  }
  uint32_t worst = bound_last_stage(&trainer);

  uint32_t rounds = 1;
  uint32_t samples = config->samples;
  const uint32_t target = config->error_target;
  const size_t widened_limit = config->max_model_bytes;
  while (target != 0 && worst > target && rounds < config->max_rounds) {
    ++rounds;
    uint32_t widths[RQRMI_MAX_STAGES];
    memcpy(widths, model->stage_width, sizeof(widths));
    widths[last] *= 2;
    if (last > 0 && widths[last] <= RQRMI_MAX_STAGE_WIDTH &&
        rqrmi_model_bytes(config->stage_count, widths) <= widened_limit) {
      model->stage_width[last] = widths[last];
      if ((status = route_to(&trainer, last)) != RQRMI_OK) return status;
      samples = config->samples;
      train_stage(&trainer, last, samples);
      worst = bound_last_stage(&trainer);
    } else {
      samples = samples <= UINT32_MAX / 2 ? samples * 2 : UINT32_MAX;
      worst = retrain_failing(&trainer, target, samples);
    }
  }

  model->size_bytes = (uint32_t)rqrmi_model_bytes(model->stage_count, model->stage_width);
  if (report != 0) {
    const uint32_t width = model->stage_width[last];
    const rqrmi_submodel_t *sub = &model->submodel[rqrmi_stage_base(model, last)];
    uint64_t sum = 0;
    for (uint32_t m = 0; m < width; ++m) sum += sub[m].error;
    report->rounds = rounds;
    report->last_stage_width = width;
    report->model_bytes = model->size_bytes;
    report->max_error = worst;
    report->mean_error_x100 = (uint32_t)(sum * 100u / width);
    report->target_met = target == 0 || worst <= target;
  }
  return RQRMI_OK;
}
