#include "ml/dplr.h"

#include <stdbool.h>

int32_t dplr_predict(const dplr_piece_t *piece, uint32_t x) {
  float value = piece->slope * (float)x + piece->intercept;
  if (value >= 2147483648.0f) {
    return INT32_MAX;
  }
  if (value <= -2147483648.0f) {
    return INT32_MIN;
  }
  /* Adding 0.5f before truncating would round 0.49999997f and 2^23 + 1 upwards (the sum rounds in
   * binary32); the fraction left after truncation is exact. */
  int32_t whole = (int32_t)value;
  float fraction = value - (float)whole;
  if (fraction >= 0.5f) {
    return whole + 1;
  }
  if (fraction <= -0.5f) {
    return whole - 1;
  }
  return whole;
}

uint32_t dplr_find(const dplr_piece_t *pieces, uint32_t count, uint32_t x) {
  uint32_t lo = 0, hi = count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2u;
    if (pieces[mid].last_x < x) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* The least-squares line through points [first, first + points), relative to the first point
 * (see the header for why). */
static void fit_piece(const uint16_t *x, const int32_t *y, uint32_t first, uint32_t points,
                      dplr_piece_t *piece) {
  uint32_t end = first + points;
  uint16_t x0 = x[first];
  int32_t y0 = y[first];
  piece->last_x = x[end - 1u];
  if (points == 1u) {
    piece->slope = 1.0f;
    piece->intercept = (float)((int64_t)y0 - x0);
    return;
  }
  float sum_u = 0.0f, sum_v = 0.0f;
  for (uint32_t i = first; i < end; ++i) {
    sum_u += (float)(x[i] - x0);
    sum_v += (float)((int64_t)y[i] - y0);
  }
  float mean_u = sum_u / (float)points;
  float mean_v = sum_v / (float)points;
  float sxx = 0.0f, sxy = 0.0f;
  for (uint32_t i = first; i < end; ++i) {
    float du = (float)(x[i] - x0) - mean_u;
    float dv = (float)((int64_t)y[i] - y0) - mean_v;
    sxx += du * du;
    sxy += du * dv;
  }
  /* Distinct x: some |du| >= 1/2, so sxx > 0. */
  float slope = sxy / sxx;
  piece->slope = slope;
  piece->intercept = ((float)y0 - slope * (float)x0) + (mean_v - slope * mean_u);
}

static bool continues_run(const uint16_t *x, const int32_t *y, uint32_t i) {
  return x[i] - x[i - 1u] == 1 && (int64_t)y[i] - y[i - 1u] == 1;
}

/* Step 1: records the large segments in `scratch` and answers how many (fewer than max_pieces:
 * each holds more than count / max_pieces points). */
static uint32_t find_large(const uint16_t *x, const int32_t *y, uint32_t count,
                           uint32_t max_pieces, dplr_scratch_t *scratch) {
  uint32_t large = 0;
  uint32_t run_first = 0;
  for (uint32_t i = 1; i <= count; ++i) {
    if (i < count && continues_run(x, y, i)) {
      continue;
    }
    if ((i - run_first) * max_pieces > count) {
      scratch->large_first[large] = run_first;
      scratch->large_count[large] = i - run_first;
      ++large;
    }
    run_first = i;
  }
  return large;
}

/* The non-empty gaps around the `large` large segments, into `scratch`; answers how many. */
static uint32_t find_gaps(uint32_t count, uint32_t large, dplr_scratch_t *scratch) {
  uint32_t gaps = 0;
  uint32_t gap_first = 0;
  for (uint32_t s = 0; s <= large; ++s) {
    uint32_t gap_end = s < large ? scratch->large_first[s] : count;
    if (gap_end > gap_first) {
      scratch->gap_first[gaps] = gap_first;
      scratch->gap_count[gaps] = gap_end - gap_first;
      ++gaps;
    }
    if (s < large) {
      gap_first = scratch->large_first[s] + scratch->large_count[s];
    }
  }
  return gaps;
}

/* Removes the shortest large segment (the first of equals): it joins the gaps. */
static void demote_shortest(uint32_t large, dplr_scratch_t *scratch) {
  uint32_t shortest = 0;
  for (uint32_t s = 1; s < large; ++s) {
    if (scratch->large_count[s] < scratch->large_count[shortest]) {
      shortest = s;
    }
  }
  for (uint32_t s = shortest + 1u; s < large; ++s) {
    scratch->large_first[s - 1u] = scratch->large_first[s];
    scratch->large_count[s - 1u] = scratch->large_count[s];
  }
}

/* Step 2's apportionment: shares `pieces` (at least `gaps`) among the gaps in proportion to their
 * points, each at least one, none more than its points (see the header). */
static void share_pieces(uint32_t gaps, uint32_t pieces, dplr_scratch_t *scratch) {
  uint32_t *share = scratch->gap_pieces;
  uint32_t *remainder = scratch->gap_remainder;
  uint32_t rest = 0;
  for (uint32_t g = 0; g < gaps; ++g) {
    rest += scratch->gap_count[g];
    share[g] = 0; /* 0 while unsettled; 1 once settled below one piece */
  }
  if (pieces > rest) {
    pieces = rest; /* then every share is exactly its gap's point count */
  }
  uint32_t open_pieces, open_points;
  bool settled_more;
  do {
    open_pieces = pieces;
    open_points = rest;
    for (uint32_t g = 0; g < gaps; ++g) {
      if (share[g] != 0u) {
        open_pieces -= 1u;
        open_points -= scratch->gap_count[g];
      }
    }
    settled_more = false;
    for (uint32_t g = 0; g < gaps; ++g) {
      if (share[g] == 0u && open_pieces * scratch->gap_count[g] < open_points) {
        share[g] = 1u;
        settled_more = true;
      }
    }
  } while (settled_more);
  /* Whole parts; the remainders (0 for settled gaps) order the pieces left. Fewer pieces are left
   * than gaps with a nonzero remainder: each such gap holds less than one of them. */
  uint32_t left = open_pieces;
  for (uint32_t g = 0; g < gaps; ++g) {
    remainder[g] = 0;
    if (share[g] == 0u) {
      share[g] = open_pieces * scratch->gap_count[g] / open_points;
      remainder[g] = open_pieces * scratch->gap_count[g] % open_points;
      left -= share[g];
    }
  }
  for (; left > 0u; --left) {
    uint32_t largest = 0;
    for (uint32_t g = 1; g < gaps; ++g) {
      if (remainder[g] > remainder[largest]) {
        largest = g;
      }
    }
    share[largest] += 1u;
    remainder[largest] = 0;
  }
}

uint32_t dplr_fit(const uint16_t *x, const int32_t *y, uint32_t count, uint32_t max_pieces,
                  dplr_scratch_t *scratch, dplr_piece_t *pieces) {
  if (count == 0u || max_pieces == 0u || max_pieces > DPLR_MAX_PIECES) {
    return 0;
  }
  uint32_t large = find_large(x, y, count, max_pieces, scratch);
  uint32_t gaps = find_gaps(count, large, scratch);
  while (gaps > max_pieces - large) {
    demote_shortest(large, scratch);
    --large;
    gaps = find_gaps(count, large, scratch);
  }
  share_pieces(gaps, max_pieces - large, scratch);

  /* Large segments and gaps in x order. */
  uint32_t written = 0;
  uint32_t s = 0, g = 0;
  for (uint32_t first = 0; first < count;) {
    if (s < large && scratch->large_first[s] == first) {
      fit_piece(x, y, first, scratch->large_count[s], &pieces[written++]);
      first += scratch->large_count[s++];
      continue;
    }
    uint32_t gap_pieces = scratch->gap_pieces[g];
    uint32_t small = scratch->gap_count[g] / gap_pieces;
    uint32_t bigger = scratch->gap_count[g] % gap_pieces; /* pieces of small + 1 points */
    for (uint32_t p = 0; p < gap_pieces; ++p) {
      uint32_t points = p < bigger ? small + 1u : small;
      fit_piece(x, y, first, points, &pieces[written++]);
      first += points;
    }
    ++g;
  }
  return written;
}
