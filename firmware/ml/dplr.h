/* Dynamic piecewise linear regression (DPLR), the model LearnedFTL keeps per translation page
 * (Wang et al., "LearnedFTL", HPCA 2024, sections 3.2 and 3.4): at most N linear pieces fitted to
 * the page's valid (LPN offset x, VPN offset y) pairs, sorted by x. The mapping scheme then sets a
 * bitmap bit only where a piece predicts its point's y exactly.
 *
 * The paper's three steps, with M points and at most N pieces:
 *  1. A maximal run of points contiguous in both coordinates (x and y each one more than the
 *     point before) longer than the average piece, M / N points (run * N > M, in integers), is a
 *     large segment: a piece of its own. There are T < N of them (each holds more than M / N).
 *  2. The rest are combined into N - T pieces "as close as possible". The paper says no more; the
 *     rule here: pieces are contiguous ranges of points that never overlap a large segment, so
 *     the rest falls into gaps, the maximal ranges of other points around the large segments.
 *     While the non-empty gaps outnumber N - T, the shortest large segment (the first of equals)
 *     joins the rest, merging with the gaps either side of it. The N - T pieces (at most the
 *     rest's point count) are then shared among the non-empty gaps in proportion to their point
 *     counts: a gap whose share is below one piece gets exactly one, and the pieces left are
 *     shared again among the other gaps (repeated until no share is below one), each getting the
 *     whole part of its share and the pieces still left going one each to the largest remainders
 *     (the first gap of equals). A gap of c points in a pieces: the first c mod a pieces hold
 *     ceil(c / a) points, the others floor(c / a).
 *  3. Each piece is the least-squares line through its points (below).
 * The authors' FEMU code does otherwise: it cuts the points into N pieces of equal counts, with
 * no large segments, and fits each by closed-form least squares in float without its last point.
 *
 * Least squares in binary32 only, the same operations in the same order on the host and the
 * controller core (built without contraction into fused multiply-adds): with u = x - x0 and
 * v = y - y0 relative to the piece's first point (exact in binary32 while below 2^24), the means
 * first, then Sxx = sum (u - mean u)^2 and Sxy = sum (u - mean u)(v - mean v), slope = Sxy / Sxx
 * and intercept = (y0 - slope x0) + (mean v - slope mean u). On a contiguous run v equals u, so
 * Sxy and Sxx are the same float and the slope is exactly 1, the relative intercept exactly 0 and
 * the intercept y0 - x0: a large segment predicts every point exactly while |y| <= 2^24 - 2^16
 * (so that y and y - x are binary32 integers), which absolute sums (x up to 2^16, summed) would
 * not. A piece of a single point gets slope 1 and intercept y - x: exact at its point, and the
 * guess of a run through it at its neighbours.
 *
 * A piece holds only its last x: it covers every x after the previous piece's last x (from 0 for
 * the first), so the pieces cover [0, last point's x] without gaps or overlap. */
#ifndef SSDVP_FIRMWARE_ML_DPLR_H
#define SSDVP_FIRMWARE_ML_DPLR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DPLR_MAX_PIECES 32u

typedef struct dplr_piece {
  uint16_t last_x; /* covers x from the previous piece's last_x + 1 (0 for the first) */
  float slope;
  float intercept;
} dplr_piece_t;

/* dplr_fit's workspace, the caller's memory but dplr_fit's contents: large segments and gaps,
 * never more than DPLR_MAX_PIECES of each. Its size (768 bytes) depends on neither the point
 * count nor max_pieces. */
typedef struct dplr_scratch {
  uint32_t large_first[DPLR_MAX_PIECES]; /* large segments in x order: first point, points */
  uint32_t large_count[DPLR_MAX_PIECES];
  uint32_t gap_first[DPLR_MAX_PIECES]; /* non-empty gaps in x order: first point, points */
  uint32_t gap_count[DPLR_MAX_PIECES];
  uint32_t gap_pieces[DPLR_MAX_PIECES];    /* the pieces each gap is cut into */
  uint32_t gap_remainder[DPLR_MAX_PIECES]; /* sharing them: the remainders of the shares */
} dplr_scratch_t;

/* Fits at most max_pieces (1..DPLR_MAX_PIECES) pieces to `count` points (x strictly increasing,
 * so count <= 65536) and writes them in x order to `pieces` (room for max_pieces). Answers how
 * many: at most min(count, max_pieces), 0 when count is 0 or max_pieces out of range. */
uint32_t dplr_fit(const uint16_t *x, const int32_t *y, uint32_t count, uint32_t max_pieces,
                  dplr_scratch_t *scratch, dplr_piece_t *pieces);

/* The index of the piece covering x (the first whose last_x >= x), or `count` when x lies beyond
 * the last piece. */
uint32_t dplr_find(const dplr_piece_t *pieces, uint32_t count, uint32_t x);

/* round(slope x + intercept), halves away from zero, saturated to the int32 range. */
int32_t dplr_predict(const dplr_piece_t *piece, uint32_t x);

#ifdef __cplusplus
}
#endif

#endif
