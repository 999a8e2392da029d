/* The RQRMI model image and its fixed-point arithmetic: the contract between the firmware's
 * software inference (firmware/ml/rqrmi.c) and the accelerator (rtl/rqrmi_*.v), which compute
 * every prediction bit for bit alike.
 *
 * Data. A range array is n sorted, non-overlapping ranges {lo, hi} (inclusive, lo <= hi) of
 * 32-bit keys, 8 bytes each: lo at byte 0, hi at byte 4 (little endian).
 *
 * Model. Stages 0 .. S-1 of widths 1, W1, .., W(S-1). Every submodel is a 1-8-1 ReLU MLP
 *   y = b2 + sum_j w2_j * relu(w1_j * x + b1_j),   j = 0..7,
 * in the normalised form w1_j = +1 or -1 (ReLU is positively homogeneous: any |w1_j| moves into
 * w2_j). Stage s picks submodel floor(y * W(s+1)) of stage s+1; the last stage predicts the
 * index floor(y * n) and carries an error bound e: a key inside range i routed to that
 * submodel is predicted within [i - e, i + e].
 *
 * Fixed point, per submodel (all shifts of signed values are arithmetic, i.e. floor):
 *   key  k: uint32.
 *   d    = k - in_lo if k >= in_lo, else 0                       (uint32)
 *   x    = min((d << 24) >> in_shift, 2^24 - 1)                  (UQ0.24; in_shift 0..32)
 *   z_j  = b1_j + x, or b1_j - x when bit j of the sign mask is set   (b1: int32, 2^-24 units,
 *                                                                      |b1| <= 2^25)
 *   h_j  = max(z_j, 0)                                            (< 2^26)
 *   acc  = sum_j w2_j * h_j                                       (w2: int32, 2^-20 units;
 *                                                                  exact in int64: |acc| < 2^60)
 *   y    = clamp((acc >> 20) + b2, 0, 2^24 - 1)                   (b2: int32, 2^-24 units;
 *                                                                  y is UQ0.24, i.e. in [0,1))
 *   next = (y * W(s+1)) >> 24  or, in the last stage, index = (y * n) >> 24.
 * Nothing is rounded between x and acc, so on every key interval where the eight ReLUs keep
 * their state the prediction is a monotone function of the key: the training computes the keys
 * routed to each submodel and the error bounds exactly from the quantised model.
 *
 * Image layout (little-endian 32-bit words): a header, then the submodel records stage by stage
 * (stage 0's one record, stage 1's W1 records, ...). The image is RQRMI_HEADER_BYTES +
 * RQRMI_SUBMODEL_BYTES * (1 + W1 + .. + W(S-1)) bytes. */
#ifndef SSDVP_INTERFACE_RQRMI_MODEL_H
#define SSDVP_INTERFACE_RQRMI_MODEL_H

#define RQRMI_MODEL_MAGIC 0x494D5251u /* "RQMI" */

#define RQRMI_HIDDEN 8u              /* hidden units per submodel */
#define RQRMI_MAX_STAGES 4u
#define RQRMI_MAX_STAGE_WIDTH 65536u /* widths of stages 1.. */
#define RQRMI_MAX_RANGES (1u << 24)  /* the index is (y * n) >> 24 */

#define RQRMI_X_BITS 24u          /* x and y are UQ0.24 */
#define RQRMI_Y_BITS 24u
#define RQRMI_W2_FRAC_BITS 20u    /* w2 in units of 2^-20; b1, b2 in units of 2^-24 */
#define RQRMI_MAX_IN_SHIFT 32u
#define RQRMI_MAX_ABS_B1 (1 << 25)

/* Header words. */
#define RQRMI_HEADER_MAGIC 0u
#define RQRMI_HEADER_SIZE_BYTES 1u  /* the whole image */
#define RQRMI_HEADER_RANGE_COUNT 2u /* n */
#define RQRMI_HEADER_STAGE_COUNT 3u
#define RQRMI_HEADER_STAGE_WIDTH(s) (4u + (s)) /* stage 0's is 1; unused stages 0 */
#define RQRMI_HEADER_WORDS 8u
#define RQRMI_HEADER_BYTES (4u * RQRMI_HEADER_WORDS)

/* Submodel record words. */
#define RQRMI_SUB_IN_LO 0u
#define RQRMI_SUB_CONFIG 1u /* in_shift in bits 5:0, the sign mask of w1 in bits 15:8 */
#define RQRMI_SUB_B2 2u
#define RQRMI_SUB_ERROR 3u  /* error bound e (last stage; 0 elsewhere) */
#define RQRMI_SUB_UNIT0 4u  /* unit j: b1 at word RQRMI_SUB_UNIT0 + 2j, w2 at the next word */
#define RQRMI_SUB_B1(j) (RQRMI_SUB_UNIT0 + 2u * (j))
#define RQRMI_SUB_W2(j) (RQRMI_SUB_UNIT0 + 1u + 2u * (j))
#define RQRMI_SUBMODEL_WORDS 20u
#define RQRMI_SUBMODEL_BYTES (4u * RQRMI_SUBMODEL_WORDS)

#define RQRMI_CONFIG_IN_SHIFT_MASK 0x3Fu
#define RQRMI_CONFIG_SIGN_SHIFT 8u
#define RQRMI_CONFIG_SIGN_MASK 0xFF00u

/* What a lookup returns for a key that no range covers. */
#define RQRMI_NONE 0xFFFFFFFFu

#endif
