/* RV32A: every AMO returns the old word and stores the combined value (signed and unsigned
 * min/max included), with the aq/rl orderings and rd = x0 / rd = rs2; LR/SC succeeds on a
 * valid reservation (rd = 0) and fails (rd != 0, memory untouched) without one, after a
 * completed SC, and for another address. */
#include "isa_test.h"

/* AMO on `amo_word` = initial with rs2 = operand: rd gets initial, memory gets result. */
.macro CHECK_AMO num, inst, initial, operand, result
  li TESTNUM, \num
  la x11, amo_word
  li x13, \initial
  sw x13, 0(x11)
  li x12, \operand
  \inst x14, x12, (x11)
  EXPECT x14, \initial
  lw x15, 0(x11)
  EXPECT x15, \result
.endm

ISA_TEST_BEGIN

  CHECK_AMO 2, amoswap.w, 0x12345678, 0xdeadbeef, 0xdeadbeef
  CHECK_AMO 3, amoadd.w, 0x7fffffff, 1, 0x80000000
  CHECK_AMO 4, amoadd.w, 0xffffffff, 2, 1
  CHECK_AMO 5, amoxor.w, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0
  CHECK_AMO 6, amoand.w, 0xff00ff00, 0x0ff00ff0, 0x0f000f00
  CHECK_AMO 7, amoor.w, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0
  CHECK_AMO 8, amomin.w, 0xffffffff, 1, 0xffffffff
  CHECK_AMO 9, amomin.w, 5, 3, 3
  CHECK_AMO 10, amomin.w, 0x80000000, 0x7fffffff, 0x80000000
  CHECK_AMO 11, amomax.w, 0xffffffff, 1, 1
  CHECK_AMO 12, amomax.w, 0x80000000, 0x7fffffff, 0x7fffffff
  CHECK_AMO 13, amomax.w, 3, 5, 5
  CHECK_AMO 14, amominu.w, 0xffffffff, 1, 1
  CHECK_AMO 15, amominu.w, 0x80000000, 0x7fffffff, 0x7fffffff
  CHECK_AMO 16, amomaxu.w, 0xffffffff, 1, 0xffffffff
  CHECK_AMO 17, amomaxu.w, 0x80000000, 0x7fffffff, 0x80000000
  CHECK_AMO 18, amoadd.w.aq, 100, 23, 123
  CHECK_AMO 19, amoswap.w.rl, 1, 2, 2
  CHECK_AMO 20, amoor.w.aqrl, 0x0f, 0xf0, 0xff
  CHECK_AMO 21, amoand.w.aq, 0xffff, 0xff0, 0xff0

  /* rd = x0: the memory update still happens */
  li TESTNUM, 22
  la x11, amo_word
  li x13, 40
  sw x13, 0(x11)
  li x12, 2
  amoadd.w x0, x12, (x11)
  EXPECT x0, 0
  lw x15, 0(x11)
  EXPECT x15, 42

  /* rd = rs2: the operand is read before rd is written */
  li TESTNUM, 23
  li x12, 7
  amoswap.w x12, x12, (x11)
  EXPECT x12, 42
  lw x15, 0(x11)
  EXPECT x15, 7

  /* LR then SC: success */
  li TESTNUM, 24
  la x11, lr_word
  li x13, 0x5555
  sw x13, 0(x11)
  lr.w x14, (x11)
  EXPECT x14, 0x5555
  li x12, 0xaaaa
  sc.w x15, x12, (x11)
  EXPECT x15, 0
  lw x14, 0(x11)
  EXPECT x14, 0xaaaa

  /* a second SC: the reservation was used up */
  li TESTNUM, 25
  li x12, 0x1111
  sc.w x15, x12, (x11)
  beqz x15, 1f
  lw x14, 0(x11)
  EXPECT x14, 0xaaaa
  j 2f
1:
  j isa_fail
2:

  /* SC to another address than the reserved one fails and writes nothing */
  li TESTNUM, 26
  la x13, sc_far_word
  li x12, 0x2222
  sw x0, 0(x13)
  lr.w x14, (x11)
  sc.w x15, x12, (x13)
  beqz x15, 1f
  lw x14, 0(x13)
  EXPECT x14, 0
  j 2f
1:
  j isa_fail
2:

  /* the acquire/release forms, in an atomic-increment retry loop */
  li TESTNUM, 27
  sw x0, 0(x11)
  li x13, 10
increment:
  lr.w.aq x14, (x11)
  addi x14, x14, 3
  sc.w.rl x15, x14, (x11)
  bnez x15, increment
  addi x13, x13, -1
  bnez x13, increment
  lw x14, 0(x11)
  EXPECT x14, 30

  j isa_pass
ISA_TEST_END

  .data
  .balign 4
amo_word:
  .word 0
lr_word:
  .word 0
  /* Far enough that no reservation granule covers both words. */
  .space 1024
sc_far_word:
  .word 0
