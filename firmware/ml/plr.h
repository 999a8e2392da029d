/* Greedy piecewise linear regression with an error bound, as LeaFTL learns its index segments
 * (Sun et al., ASPLOS 2023, sections 3.2 and 3.7): points (x, y), x strictly increasing (LPNs
 * sorted, y their VPNs), become segments y = intercept + round(slope x (x - first_x)) that
 * predict every point they cover within gamma.
 *
 * A segment is kept in LeaFTL's 8-byte form: the slope a binary16 whose lowest bit marks an
 * approximate segment, the intercept 4 bytes. Here the intercept is the prediction at the start
 * of the segment's span-aligned group (the paper writes K x LPA + I): with the offset in the
 * group, at most span - 1, a 16-bit slope predicts as exactly on the controller's binary32 as the
 * paper's simulator does in 64-bit floats with absolute LPNs. A segment whose first x moves (LeaFTL
 * trims the LPNs newer segments took) keeps predicting the same y for the x it still covers.
 *
 * Accurate segments (lowest slope bit 0) predict every point exactly and their x values are
 * evenly spaced by the stride the slope implies (plr_stride), so the x values a segment covers
 * follow from its first and last x and its slope alone; any other segment is approximate, its
 * points listed elsewhere (LeaFTL's CRB). With gamma 0 every segment is accurate.
 *
 * The greedy pass opens a segment at a point and takes the following points while one slope
 * still fits them all: each point narrows the interval of slopes that predict it within gamma,
 * in exact integer arithmetic (a "swing filter" pivoting on the segment's first point, so the
 * intercept is that point's y exactly; the paper's greedy PLR [Xie et al.] pivots on the
 * intersection of its first bounds instead). The slope is then the binary16 nearest the middle of
 * the interval, and the segment is checked point by point as the firmware will predict; a point
 * the rounded slope misses ends the segment before it. No segment crosses a multiple of `span`
 * (LeaFTL's 256-LPN groups). */
#ifndef SSDVP_FIRMWARE_ML_PLR_H
#define SSDVP_FIRMWARE_ML_PLR_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLR_APPROXIMATE 1u /* the slope's lowest bit */

typedef struct plr_segment {
  uint32_t first_x;
  uint32_t last_x;
  uint32_t base;      /* first_x rounded down to a multiple of the span */
  uint32_t intercept; /* the prediction at base */
  uint16_t slope;     /* binary16; PLR_APPROXIMATE in its lowest bit */
  uint16_t points;    /* the input points it covers */
} plr_segment_t;

static inline bool plr_accurate(const plr_segment_t *segment) {
  return (segment->slope & PLR_APPROXIMATE) == 0;
}

/* The y a segment predicts for x (base <= x). */
uint32_t plr_predict(const plr_segment_t *segment, uint32_t x);

/* The spacing of an accurate segment's x values: round(1 / slope), at least 1. */
uint32_t plr_stride(uint16_t slope);

/* Learns the segments of `count` points (x strictly increasing), `span` a power of two at most
 * 65536; writes them to `segments` (room for `count`, the most it may take) and answers how many.
 * gamma 0: accurate segments only. */
uint32_t plr_learn(const uint32_t *x, const uint32_t *y, uint32_t count, uint32_t gamma,
                   uint32_t span, plr_segment_t *segments);

#ifdef __cplusplus
}
#endif

#endif
