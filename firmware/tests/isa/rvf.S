/* RV32F on the full platform: mstatus.FS (Off traps, Initial, Dirty and SD), the five rounding
 * modes on halfway values, static and dynamic (frm), reserved and invalid modes, each exception
 * flag, signed zeros, subnormals with tininess after rounding, the canonical NaN, fmin/fmax,
 * compares, fclass, the fcvt saturation rules, moves and sign injection, loads and stores with
 * their compressed forms, fused multiply-add with one rounding, and fcsr.
 *
 * Operands and results are binary32 bit patterns moved through x registers; expected values are
 * worked out in the comments. Traps the program provokes go to rvf_trap_recorder, which keeps
 * mcause, mepc and mtval in x27, x28 and x29 and resumes at the address in x30. */
#include "isa_test.h"

#define MSTATUS_FS 0x6000
#define MSTATUS_FS_INITIAL 0x2000
#define MSTATUS_FS_DIRTY 0x6000
#define MSTATUS_SD 0x80000000

#define NX 1
#define UF 2
#define OF 4
#define DZ 8
#define NV 16

#define ONE 0x3f800000
#define MINUS_ONE 0xbf800000
#define TWO 0x40000000
#define THREE 0x40400000
#define HALF 0x3f000000
#define MAX 0x7f7fffff
#define MIN_NORMAL 0x00800000
#define MAX_SUBNORMAL 0x007fffff
#define MIN_SUBNORMAL 0x00000001
#define INF 0x7f800000
#define MINUS_INF 0xff800000
#define CANONICAL_NAN 0x7fc00000
#define QNAN_PAYLOAD 0x7fc12345
#define SNAN 0x7f800001
#define MINUS_ZERO 0x80000000
#define TWO_POW_MINUS_24 0x33800000

/* Loads binary32 bit patterns into f11, f12, f13 and clears fflags. */
.macro OPERANDS a, b=0, c=0
  li x11, \a
  fmv.w.x f11, x11
  li x12, \b
  fmv.w.x f12, x12
  li x13, \c
  fmv.w.x f13, x13
  fsflags x0
.endm

/* Fails unless f14 holds `bits` and fflags is `flags`. */
.macro EXPECT_F bits, flags
  fmv.x.w x14, f14
  EXPECT x14, \bits
  frflags x14
  EXPECT x14, \flags
.endm

/* Fails unless x14 is `value` and fflags is `flags`. */
.macro EXPECT_X value, flags
  EXPECT x14, \value
  frflags x14
  EXPECT x14, \flags
.endm

/* f14 = f11 <op> f12 in rounding mode rm. */
.macro CHECK_FRR num, op, rm, expected, flags, a, b
  li TESTNUM, \num
  OPERANDS \a, \b
  \op f14, f11, f12, \rm
  EXPECT_F \expected, \flags
.endm

/* f14 = f11 * f12 + f13 (and the other fused forms) in rounding mode rm. */
.macro CHECK_FR4 num, op, rm, expected, flags, a, b, c
  li TESTNUM, \num
  OPERANDS \a, \b, \c
  \op f14, f11, f12, f13, \rm
  EXPECT_F \expected, \flags
.endm

/* f14 = f11 <op> f12 for the instructions without a rounding mode. */
.macro CHECK_FRR_EXACT num, op, expected, flags, a, b
  li TESTNUM, \num
  OPERANDS \a, \b
  \op f14, f11, f12
  EXPECT_F \expected, \flags
.endm

/* x14 = f11 <compare> f12. */
.macro CHECK_CMP num, op, expected, flags, a, b
  li TESTNUM, \num
  OPERANDS \a, \b
  \op x14, f11, f12
  EXPECT_X \expected, \flags
.endm

/* x14 = fcvt.w[u].s f11 in rounding mode rm. */
.macro CHECK_TO_INT num, op, rm, expected, flags, a
  li TESTNUM, \num
  OPERANDS \a
  \op x14, f11, \rm
  EXPECT_X \expected, \flags
.endm

/* f14 = fcvt.s.w[u] of the integer a in rounding mode rm. */
.macro CHECK_TO_FLOAT num, op, rm, expected, flags, a
  li TESTNUM, \num
  fsflags x0
  li x11, \a
  \op f14, x11, \rm
  EXPECT_F \expected, \flags
.endm

.macro CHECK_CLASS num, expected, a
  li TESTNUM, \num
  OPERANDS \a
  fclass.s x14, f11
  EXPECT_X \expected, 0
.endm

/* Expects the instruction at `at` to have trapped as illegal with mtval = bits. */
.macro EXPECT_ILLEGAL at, bits
  EXPECT x27, CAUSE_ILLEGAL_INSTRUCTION
  EXPECT x29, \bits
  la x7, \at
  EXPECT_SAME x28, x7
.endm

.macro CLEAR_TRAP_RECORD
  li x27, 0xffffffff
  li x28, 0
  li x29, 0
.endm

/* Emits one compressed instruction. */
.macro RVC instruction:vararg
  .option push
  .option rvc
  \instruction
  .option pop
.endm

  .option norvc
ISA_TEST_BEGIN
  la t0, rvf_trap_recorder
  csrw mtvec, t0

  /* ---- mstatus.FS: Off after reset; F instructions and F CSRs are illegal ---- */
  li TESTNUM, 2
  csrr x14, mstatus
  li x7, MSTATUS_FS | MSTATUS_SD
  and x14, x14, x7
  EXPECT x14, 0
  CLEAR_TRAP_RECORD
  la x30, 1f
fs_off_fadd:
  fadd.s f1, f2, f3, rne        /* 0x003100d3 */
  j isa_fail
1:
  EXPECT_ILLEGAL fs_off_fadd, 0x003100d3
  li TESTNUM, 3
  CLEAR_TRAP_RECORD
  la x30, 1f
fs_off_frflags:
  frflags x14                   /* csrrs x14, fflags, x0 = 0x00102773 */
  j isa_fail
1:
  EXPECT_ILLEGAL fs_off_frflags, 0x00102773
  li TESTNUM, 4
  CLEAR_TRAP_RECORD
  la x30, 1f
fs_off_cflw:
  RVC c.flw f8, 0(x8)           /* 0x6000 */
  RVC c.nop
  j isa_fail
1:
  EXPECT_ILLEGAL fs_off_cflw, 0x6000

  /* Initial, then Dirty (with SD) after a write to an f register */
  li TESTNUM, 5
  li x11, MSTATUS_FS_INITIAL
  csrs mstatus, x11
  csrr x14, mstatus
  li x15, MSTATUS_FS | MSTATUS_SD
  and x14, x14, x15
  EXPECT x14, MSTATUS_FS_INITIAL
  fmv.w.x f1, x0
  csrr x14, mstatus
  and x14, x14, x15
  EXPECT x14, MSTATUS_FS_DIRTY | MSTATUS_SD

  /* ---- rounding modes: fadd 1 + 2^-24, halfway between 1 (even) and 1 + 2^-23 ---- */
  CHECK_FRR 6, fadd.s, rne, ONE, NX, ONE, TWO_POW_MINUS_24
  CHECK_FRR 7, fadd.s, rtz, ONE, NX, ONE, TWO_POW_MINUS_24
  CHECK_FRR 8, fadd.s, rdn, ONE, NX, ONE, TWO_POW_MINUS_24
  CHECK_FRR 9, fadd.s, rup, 0x3f800001, NX, ONE, TWO_POW_MINUS_24
  CHECK_FRR 10, fadd.s, rmm, 0x3f800001, NX, ONE, TWO_POW_MINUS_24
  /* 1 + 3 * 2^-24: halfway, the upper neighbour 0x3f800002 is even */
  CHECK_FRR 11, fadd.s, rne, 0x3f800002, NX, 0x3f800001, TWO_POW_MINUS_24
  CHECK_FRR 12, fadd.s, rtz, 0x3f800001, NX, 0x3f800001, TWO_POW_MINUS_24
  /* -1 - 2^-24: RDN and RMM away from zero, RUP towards it */
  CHECK_FRR 13, fadd.s, rdn, 0xbf800001, NX, MINUS_ONE, 0xb3800000
  CHECK_FRR 14, fadd.s, rup, MINUS_ONE, NX, MINUS_ONE, 0xb3800000
  CHECK_FRR 15, fadd.s, rmm, 0xbf800001, NX, MINUS_ONE, 0xb3800000
  /* just above and just below the tie */
  CHECK_FRR 16, fadd.s, rne, 0x3f800001, NX, ONE, 0x33800001
  CHECK_FRR 17, fadd.s, rmm, ONE, NX, ONE, 0x337fffff
  /* fmul (1 + 2^-23) * 1.5 = 1.5 + 2^-23 + 2^-24: halfway, 0x3fc00002 even */
  CHECK_FRR 18, fmul.s, rne, 0x3fc00002, NX, 0x3f800001, 0x3fc00000
  CHECK_FRR 19, fmul.s, rtz, 0x3fc00001, NX, 0x3f800001, 0x3fc00000
  CHECK_FRR 20, fmul.s, rmm, 0x3fc00002, NX, 0x3f800001, 0x3fc00000
  /* fdiv 1/3 = 2^-2 * 1.0101...b */
  CHECK_FRR 21, fdiv.s, rne, 0x3eaaaaab, NX, ONE, THREE
  CHECK_FRR 22, fdiv.s, rdn, 0x3eaaaaaa, NX, ONE, THREE
  CHECK_FRR 23, fsub.s, rup, 0x40000000, 0, THREE, ONE

  /* fsqrt 2 = 1.41421356...: 0x3fb504f3 is the nearer neighbour, 0x3fb504f4 above */
  li TESTNUM, 24
  OPERANDS TWO
  fsqrt.s f14, f11, rne
  EXPECT_F 0x3fb504f3, NX
  li TESTNUM, 25
  OPERANDS TWO
  fsqrt.s f14, f11, rup
  EXPECT_F 0x3fb504f4, NX
  li TESTNUM, 26
  OPERANDS MINUS_ZERO
  fsqrt.s f14, f11
  EXPECT_F MINUS_ZERO, 0
  li TESTNUM, 27
  OPERANDS MINUS_ONE
  fsqrt.s f14, f11
  EXPECT_F CANONICAL_NAN, NV

  /* ---- dynamic rounding through frm ---- */
  li TESTNUM, 28
  fsrmi x0, 3                               /* RUP */
  OPERANDS ONE, TWO_POW_MINUS_24
  fadd.s f14, f11, f12                      /* dyn */
  EXPECT_F 0x3f800001, NX
  li TESTNUM, 29
  fsrmi x0, 1                               /* RTZ */
  OPERANDS ONE, 0x33800001
  fadd.s f14, f11, f12, dyn
  EXPECT_F ONE, NX
  li TESTNUM, 30
  fsrmi x0, 4                               /* RMM */
  OPERANDS 0x3f800001, 0x3fc00000
  fmul.s f14, f11, f12
  EXPECT_F 0x3fc00002, NX
  /* an invalid frm makes dynamic-mode instructions illegal, not static ones */
  li TESTNUM, 31
  fsrmi x0, 5
  CLEAR_TRAP_RECORD
  la x30, 1f
dyn_invalid:
  fadd.s f14, f11, f12                      /* 0x00c5f753 */
  j isa_fail
1:
  EXPECT_ILLEGAL dyn_invalid, 0x00c5f753
  li TESTNUM, 32
  CLEAR_TRAP_RECORD
  fadd.s f14, f11, f12, rne
  EXPECT x27, 0xffffffff
  /* a reserved static mode (rm = 6) is illegal whatever frm holds */
  li TESTNUM, 33
  fsrmi x0, 0
  CLEAR_TRAP_RECORD
  la x30, 1f
static_reserved:
  .insn 4, 0x00c5e753                       /* fadd.s f14, f11, f12 with rm = 6 */
  j isa_fail
1:
  EXPECT_ILLEGAL static_reserved, 0x00c5e753
  /* from here on any trap fails the check in progress */
  la t0, isa_unexpected_trap
  csrw mtvec, t0

  /* ---- exception flags ---- */
  CHECK_FRR 34, fsub.s, rne, CANONICAL_NAN, NV, INF, INF
  CHECK_FRR 35, fdiv.s, rne, INF, DZ, ONE, 0
  CHECK_FRR 36, fdiv.s, rne, CANONICAL_NAN, NV, 0, 0
  CHECK_FRR 37, fadd.s, rne, INF, OF | NX, MAX, MAX
  CHECK_FRR 38, fadd.s, rtz, MAX, OF | NX, MAX, MAX
  /* 2^-149 * 0.5 = 2^-150: halfway between 0 and 2^-149 */
  CHECK_FRR 39, fmul.s, rne, 0, UF | NX, MIN_SUBNORMAL, HALF
  CHECK_FRR 40, fmul.s, rup, MIN_SUBNORMAL, UF | NX, MIN_SUBNORMAL, HALF
  /* tininess after rounding: 2^-126 - 2^-172 reaches 2^-126 at 24 bits in RNE (no UF) ... */
  CHECK_FRR 41, fmul.s, rne, MIN_NORMAL, NX, 0x3f7ffffe, 0x00800001
  /* ... but not in RTZ: tiny, the largest subnormal */
  CHECK_FRR 42, fmul.s, rtz, MAX_SUBNORMAL, UF | NX, 0x3f7ffffe, 0x00800001
  /* exact subnormal results raise nothing */
  CHECK_FRR 43, fmul.s, rne, 0x00400000, 0, MIN_NORMAL, HALF
  CHECK_FRR 44, fadd.s, rne, MIN_NORMAL, 0, MIN_SUBNORMAL, MAX_SUBNORMAL
  /* flags accrue until software clears them */
  li TESTNUM, 45
  OPERANDS ONE, 0
  fdiv.s f14, f11, f12, rne                 /* DZ */
  fadd.s f14, f11, f11, rne                 /* exact */
  li x11, TWO_POW_MINUS_24
  fmv.w.x f12, x11
  fadd.s f14, f11, f12, rne                 /* NX */
  frflags x14
  EXPECT x14, DZ | NX

  /* ---- signed zeros and NaNs ---- */
  CHECK_FRR 46, fsub.s, rne, 0, 0, ONE, ONE
  CHECK_FRR 47, fsub.s, rdn, MINUS_ZERO, 0, ONE, ONE
  CHECK_FRR 48, fadd.s, rne, MINUS_ZERO, 0, MINUS_ZERO, MINUS_ZERO
  CHECK_FRR 49, fadd.s, rne, CANONICAL_NAN, 0, QNAN_PAYLOAD, ONE
  CHECK_FRR 50, fmul.s, rne, CANONICAL_NAN, NV, SNAN, ONE
  CHECK_FRR 51, fmul.s, rne, CANONICAL_NAN, NV, INF, 0

  /* ---- fused multiply-add: one rounding ---- */
  /* (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46, where a rounded product would give 0 */
  CHECK_FR4 52, fmadd.s, rne, 0xa8800000, 0, 0x3f800001, 0x3f7ffffe, MINUS_ONE
  CHECK_FR4 53, fmsub.s, rne, 0xa8800000, 0, 0x3f800001, 0x3f7ffffe, ONE
  CHECK_FR4 54, fnmsub.s, rne, 0x28800000, 0, 0x3f800001, 0x3f7ffffe, ONE
  CHECK_FR4 55, fnmadd.s, rne, 0x28800000, 0, 0x3f800001, 0x3f7ffffe, MINUS_ONE
  /* (1 + 2^-23)^2 + 2^-24 is just above a tie: 0x3f800003 (separately rounded: 0x3f800002) */
  CHECK_FR4 56, fmadd.s, rne, 0x3f800003, NX, 0x3f800001, 0x3f800001, TWO_POW_MINUS_24
  /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is a tie; the addend 2^-80 decides it: up */
  CHECK_FR4 108, fmadd.s, rne, 0x3f801001, NX, 0x3f800800, 0x3f800800, 0x17800000
  /* inf * 0 + qNaN is invalid */
  CHECK_FR4 57, fmadd.s, rne, CANONICAL_NAN, NV, INF, 0, CANONICAL_NAN
  /* max * 2 - max: no intermediate overflow */
  CHECK_FR4 58, fmadd.s, rne, MAX, 0, MAX, TWO, 0xff7fffff

  /* ---- fmin / fmax ---- */
  CHECK_FRR_EXACT 59, fmin.s, MINUS_ZERO, 0, 0, MINUS_ZERO
  CHECK_FRR_EXACT 60, fmax.s, 0, 0, MINUS_ZERO, 0
  CHECK_FRR_EXACT 61, fmin.s, ONE, 0, QNAN_PAYLOAD, ONE
  CHECK_FRR_EXACT 62, fmax.s, ONE, NV, ONE, SNAN
  CHECK_FRR_EXACT 63, fmin.s, CANONICAL_NAN, 0, QNAN_PAYLOAD, QNAN_PAYLOAD
  CHECK_FRR_EXACT 64, fmax.s, THREE, 0, THREE, MINUS_INF

  /* ---- compares: feq quiet, flt and fle signalling ---- */
  CHECK_CMP 65, feq.s, 1, 0, MINUS_ZERO, 0
  CHECK_CMP 66, flt.s, 0, 0, MINUS_ZERO, 0
  CHECK_CMP 67, fle.s, 1, 0, MINUS_ZERO, 0
  CHECK_CMP 68, flt.s, 1, 0, MINUS_ONE, ONE
  CHECK_CMP 69, feq.s, 0, 0, CANONICAL_NAN, ONE
  CHECK_CMP 70, feq.s, 0, NV, SNAN, ONE
  CHECK_CMP 71, flt.s, 0, NV, CANONICAL_NAN, ONE
  CHECK_CMP 72, fle.s, 0, NV, ONE, CANONICAL_NAN

  /* ---- fclass: the ten classes ---- */
  CHECK_CLASS 73, 0x001, MINUS_INF
  CHECK_CLASS 74, 0x002, MINUS_ONE
  CHECK_CLASS 75, 0x004, 0x80000001
  CHECK_CLASS 76, 0x008, MINUS_ZERO
  CHECK_CLASS 77, 0x010, 0
  CHECK_CLASS 78, 0x020, MAX_SUBNORMAL
  CHECK_CLASS 79, 0x040, MIN_NORMAL
  CHECK_CLASS 80, 0x080, INF
  CHECK_CLASS 81, 0x100, SNAN
  CHECK_CLASS 82, 0x200, CANONICAL_NAN

  /* ---- conversions ---- */
  CHECK_TO_INT 83, fcvt.w.s, rne, 2, NX, 0x40200000          /* 2.5 */
  CHECK_TO_INT 84, fcvt.w.s, rmm, 3, NX, 0x40200000
  CHECK_TO_INT 85, fcvt.w.s, rdn, 0xfffffffd, NX, 0xc0200000 /* -2.5 */
  CHECK_TO_INT 86, fcvt.w.s, rtz, 0x7fffffff, NV, 0x4f000000 /* 2^31 */
  CHECK_TO_INT 87, fcvt.w.s, rtz, 0x80000000, 0, 0xcf000000  /* -2^31 */
  CHECK_TO_INT 88, fcvt.w.s, rtz, 0x80000000, NV, MINUS_INF
  CHECK_TO_INT 89, fcvt.w.s, rtz, 0x7fffffff, NV, 0xffc00000 /* NaN, sign ignored */
  CHECK_TO_INT 90, fcvt.wu.s, rtz, 0, NV, MINUS_ONE
  CHECK_TO_INT 91, fcvt.wu.s, rne, 0, NX, 0xbecccccd         /* -0.4 rounds to 0 */
  CHECK_TO_INT 92, fcvt.wu.s, rtz, 0xffffffff, NV, INF
  CHECK_TO_INT 93, fcvt.wu.s, rtz, 0xffffff00, 0, 0x4f7fffff
  CHECK_TO_FLOAT 94, fcvt.s.w, rne, 0x4b800000, NX, 16777217 /* 2^24 + 1: tie */
  CHECK_TO_FLOAT 95, fcvt.s.w, rup, 0x4b800001, NX, 16777217
  CHECK_TO_FLOAT 96, fcvt.s.w, rne, 0xcf000000, 0, 0x80000000
  CHECK_TO_FLOAT 97, fcvt.s.w, rne, 0, 0, 0
  CHECK_TO_FLOAT 98, fcvt.s.wu, rtz, 0x4f7fffff, NX, 0xffffffff
  CHECK_TO_FLOAT 99, fcvt.s.wu, rne, 0x4f800000, NX, 0xffffffff

  /* ---- moves and sign injection: bit for bit, no flags ---- */
  CHECK_FRR_EXACT 100, fsgnj.s, 0xff800001, 0, SNAN, MINUS_ONE
  CHECK_FRR_EXACT 101, fsgnjn.s, MINUS_ONE, 0, ONE, ONE
  CHECK_FRR_EXACT 102, fsgnjx.s, ONE, 0, MINUS_ONE, MINUS_ONE
  li TESTNUM, 103
  OPERANDS SNAN
  fmv.x.w x14, f11
  EXPECT_X SNAN, 0

  /* ---- loads and stores, compressed forms, f0 ---- */
  li TESTNUM, 104
  la x8, rvf_data
  flw f0, 0(x8)
  fsw f0, 8(x8)
  lw x14, 8(x8)
  EXPECT x14, QNAN_PAYLOAD
  li TESTNUM, 105
  RVC c.flw f9, 4(x8)
  RVC c.fsw f9, 12(x8)
  lw x14, 12(x8)
  EXPECT x14, 0x40490fdb
  li TESTNUM, 106
  mv x20, sp
  mv sp, x8
  RVC c.flwsp f31, 4(sp)
  RVC c.fswsp f31, 16(sp)
  mv sp, x20
  lw x14, 16(x8)
  EXPECT x14, 0x40490fdb

  /* ---- fcsr = frm << 5 | fflags; bits 31:8 read as zero ---- */
  li TESTNUM, 107
  li x11, 0xffffffff
  fscsr x11
  frcsr x14
  EXPECT x14, 0xff
  frrm x14
  EXPECT x14, 7
  frflags x14
  EXPECT x14, 0x1f
  fscsr x0

  j isa_pass

  .balign 4
rvf_trap_recorder:
  csrr x27, mcause
  csrr x28, mepc
  csrr x29, mtval
  csrw mepc, x30
  mret

ISA_TEST_END

  .data
  .balign 4
rvf_data:
  .word QNAN_PAYLOAD
  .word 0x40490fdb /* pi */
  .space 16
