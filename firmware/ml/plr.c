#include "ml/plr.h"

#include "lib/half.h"

uint32_t plr_predict(const plr_segment_t *segment, uint32_t x) {
  float offset = half_to_float(segment->slope) * (float)(x - segment->base);
  int32_t rounded = (int32_t)(offset >= 0.0f ? offset + 0.5f : offset - 0.5f);
  return segment->intercept + (uint32_t)rounded;
}

uint32_t plr_stride(uint16_t slope) {
  float value = half_to_float((uint16_t)(slope & ~PLR_APPROXIMATE));
  if (!(value > 0.0f) || value >= 1.0f) {
    return 1u;
  }
  return (uint32_t)(1.0f / value + 0.5f);
}

/* A slope bound num / den (den > 0). */
typedef struct bound {
  int64_t num;
  int64_t den;
} bound_t;

static bool below(bound_t a, bound_t b) { return a.num * b.den < b.num * a.den; }

/* The slopes that predict every point of [first, end) within gamma: lo..hi. Answers how many
 * points, from first, one slope still fits (at least one). */
static uint32_t fit_interval(const uint32_t *x, const uint32_t *y, uint32_t first, uint32_t end,
                             uint32_t gamma, bool regular_only, bound_t *lo, bound_t *hi) {
  /* round(s dx) = dy + e with |e| <= gamma: s dx in [dy - gamma - 1/2, dy + gamma + 1/2]. */
  uint32_t i = first + 1u;
  for (; i < end; ++i) {
    if (regular_only && i >= first + 2u && x[i] - x[i - 1u] != x[first + 1u] - x[first]) {
      break;
    }
    int64_t dx2 = 2 * (int64_t)(x[i] - x[first]);
    int64_t dy2 = 2 * ((int64_t)y[i] - (int64_t)y[first]);
    bound_t low = {dy2 - 2 * (int64_t)gamma - 1, dx2};
    bound_t high = {dy2 + 2 * (int64_t)gamma + 1, dx2};
    bound_t new_lo = (i == first + 1u || below(*lo, low)) ? low : *lo;
    bound_t new_hi = (i == first + 1u || below(high, *hi)) ? high : *hi;
    if (below(new_hi, new_lo)) {
      break;
    }
    *lo = new_lo;
    *hi = new_hi;
  }
  return i - first;
}

/* The first point of [first, first + points) a segment predicts beyond `gamma`, or one past
 * them. */
static uint32_t first_miss(const plr_segment_t *segment, const uint32_t *x, const uint32_t *y,
                           uint32_t first, uint32_t points, uint32_t gamma) {
  for (uint32_t i = first; i < first + points; ++i) {
    uint32_t error = plr_predict(segment, x[i]) - y[i];
    if (error > gamma && -error > gamma) {
      return i;
    }
  }
  return first + points;
}

/* Evenly spaced by the stride the slope implies. */
static bool spaced_by_slope(const plr_segment_t *segment, const uint32_t *x, uint32_t first,
                            uint32_t points) {
  uint32_t stride = plr_stride(segment->slope);
  for (uint32_t i = first + 1u; i < first + points; ++i) {
    if (x[i] - x[i - 1u] != stride) {
      return false;
    }
  }
  return true;
}

/* Sets the intercept so that the segment predicts its first point exactly. */
static void anchor_at_first(plr_segment_t *segment, uint32_t first_y) {
  segment->intercept = 0;
  segment->intercept = first_y - plr_predict(segment, segment->first_x);
}

/* Fits a segment from `first`, at most `points` of them (they fit the slope interval): answers
 * how many it covers. */
static uint32_t fit_segment(const uint32_t *x, const uint32_t *y, uint32_t first, uint32_t points,
                            uint32_t gamma, uint32_t span, plr_segment_t *segment) {
  for (;;) {
    bound_t lo = {0, 1}, hi = {0, 1};
    points = fit_interval(x, y, first, first + points, gamma, gamma == 0, &lo, &hi);
    segment->first_x = x[first];
    segment->last_x = x[first + points - 1u];
    segment->base = x[first] & ~(span - 1u);
    segment->intercept = y[first];
    segment->points = (uint16_t)points;
    segment->slope = 0;
    if (points == 1u) {
      return 1u; /* a single point: predicted exactly by its intercept */
    }
    float middle = ((float)lo.num / (float)lo.den + (float)hi.num / (float)hi.den) * 0.5f;
    segment->slope = (uint16_t)(half_from_float(middle) & ~PLR_APPROXIMATE);
    anchor_at_first(segment, y[first]);
    uint32_t miss = first_miss(segment, x, y, first, points, 0);
    if (miss == first + points && spaced_by_slope(segment, x, first, points)) {
      return points;
    }
    if (gamma != 0) {
      segment->slope |= PLR_APPROXIMATE;
      anchor_at_first(segment, y[first]);
      miss = first_miss(segment, x, y, first, points, gamma);
      if (miss == first + points) {
        return points;
      }
    }
    /* The rounded slope misses a point: the segment ends before it. Exact but spaced unlike its
     * slope's stride (gamma 0): one point fewer. */
    points = miss < first + points ? miss - first : points - 1u;
  }
}

uint32_t plr_learn(const uint32_t *x, const uint32_t *y, uint32_t count, uint32_t gamma,
                   uint32_t span, plr_segment_t *segments) {
  uint32_t learned = 0;
  for (uint32_t first = 0; first < count;) {
    uint32_t boundary_group = x[first] / span;
    uint32_t end = first + 1u;
    while (end < count && x[end] / span == boundary_group) {
      ++end;
    }
    first += fit_segment(x, y, first, end - first, gamma, span, &segments[learned++]);
  }
  return learned;
}
