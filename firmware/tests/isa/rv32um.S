/* RV32M: multiply (low and the three high-half forms), divide and remainder, signed and
 * unsigned, including division by zero (quotient all ones, remainder the dividend) and the
 * signed overflow INT_MIN / -1 (quotient INT_MIN, remainder 0). Expected values are the exact
 * mathematical results truncated to 32 bits. */
#include "isa_test.h"

ISA_TEST_BEGIN

  /* mul: low 32 bits of the product */
  CHECK_RR 2, mul, 0x00000000, 0x80000000, 0x80000000
  CHECK_RR 3, mul, 0x00000001, 0xffffffff, 0xffffffff
  CHECK_RR 4, mul, 0x242d2080, 0x12345678, 0x9abcdef0
  CHECK_RR 5, mul, 0x0000ff7f, 0xaaaaaaab, 0x0002fe7d
  CHECK_RR 6, mul, 42, 6, 7
  CHECK_RR_DEST_IS_SRC1 7, mul, 143, 13, 11
  CHECK_RR_DEST_IS_SRC2 8, mul, 154, 14, 11
  CHECK_RR_SAME_SRC 9, mul, 169, 13
  CHECK_RR_ZERO_DEST 10, mul, 3, 5

  /* mulh: signed x signed, high half */
  CHECK_RR 11, mulh, 0x40000000, 0x80000000, 0x80000000
  CHECK_RR 12, mulh, 0x00000000, 0xffffffff, 0xffffffff
  CHECK_RR 13, mulh, 0x3fffffff, 0x7fffffff, 0x7fffffff
  CHECK_RR 14, mulh, 0xffffffff, 0xffffffff, 1
  CHECK_RR 15, mulh, 0xf8cc93d6, 0x12345678, 0x9abcdef0
  CHECK_RR 16, mulh, 0xffff0081, 0xaaaaaaab, 0x0002fe7d

  /* mulhsu: signed rs1 x unsigned rs2, high half */
  CHECK_RR 17, mulhsu, 0xc0000000, 0x80000000, 0x80000000
  CHECK_RR 18, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff
  CHECK_RR 19, mulhsu, 0x80000000, 0x80000000, 0xffffffff
  CHECK_RR 20, mulhsu, 0x0b00ea4e, 0x12345678, 0x9abcdef0
  CHECK_RR 21, mulhsu, 0xffff8000, 0xffff8000, 0xffffffff

  /* mulhu: unsigned x unsigned, high half */
  CHECK_RR 22, mulhu, 0x40000000, 0x80000000, 0x80000000
  CHECK_RR 23, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff
  CHECK_RR 24, mulhu, 0x0b00ea4e, 0x12345678, 0x9abcdef0
  CHECK_RR 25, mulhu, 0x0001fefe, 0xaaaaaaab, 0x0002fe7d
  CHECK_RR 26, mulhu, 0xffff7fff, 0xffff8000, 0xffffffff

  /* div / rem: truncation towards zero, remainder takes the dividend's sign */
  CHECK_RR 27, div, 3, 20, 6
  CHECK_RR 28, div, 0xfffffffd, 0xffffffec, 6
  CHECK_RR 29, div, 0xfffffffd, 20, 0xfffffffa
  CHECK_RR 30, div, 3, 0xffffffec, 0xfffffffa
  CHECK_RR 31, rem, 2, 20, 6
  CHECK_RR 32, rem, 0xfffffffe, 0xffffffec, 6
  CHECK_RR 33, rem, 2, 20, 0xfffffffa
  CHECK_RR 34, rem, 0xfffffffe, 0xffffffec, 0xfffffffa
  CHECK_RR 35, divu, 3, 20, 6
  CHECK_RR 36, divu, 0x2aaaaaa7, 0xffffffec, 6
  CHECK_RR 37, divu, 0, 20, 0xfffffffa
  CHECK_RR 38, remu, 2, 20, 6
  CHECK_RR 39, remu, 2, 0xffffffec, 6
  CHECK_RR 40, remu, 0xffffffec, 0xffffffec, 0xfffffffa

  /* division by zero */
  CHECK_RR 41, div, 0xffffffff, 20, 0
  CHECK_RR 42, div, 0xffffffff, 0x80000000, 0
  CHECK_RR 43, divu, 0xffffffff, 20, 0
  CHECK_RR 44, divu, 0xffffffff, 0, 0
  CHECK_RR 45, rem, 20, 20, 0
  CHECK_RR 46, rem, 0xffffffec, 0xffffffec, 0
  CHECK_RR 47, remu, 20, 20, 0
  CHECK_RR 48, remu, 0xffffffec, 0xffffffec, 0

  /* signed overflow */
  CHECK_RR 49, div, 0x80000000, 0x80000000, 0xffffffff
  CHECK_RR 50, rem, 0, 0x80000000, 0xffffffff
  CHECK_RR 51, divu, 0, 0x80000000, 0xffffffff
  CHECK_RR 52, remu, 0x80000000, 0x80000000, 0xffffffff
  CHECK_RR 53, div, 0x80000000, 0x80000000, 1

  /* register reuse and x0 */
  CHECK_RR_DEST_IS_SRC1 54, div, 3, 20, 6
  CHECK_RR_DEST_IS_SRC2 55, rem, 2, 20, 6
  CHECK_RR_SAME_SRC 56, divu, 1, 0x80000001
  CHECK_RR_ZERO_SRC1 57, div, 0, 5
  CHECK_RR_ZERO_DEST 58, divu, 20, 6

  j isa_pass
ISA_TEST_END
