/* RV32C: every compressed instruction of RV32C without floating point, each against a result
 * computed with 32-bit instructions. The file assembles without C, so nothing is compressed
 * behind the test's back; RVC emits one compressed instruction on purpose. */
#include "isa_test.h"

/* Emits one compressed instruction. */
.macro RVC instruction:vararg
  .option push
  .option rvc
  \instruction
  .option pop
.endm

  .option norvc
ISA_TEST_BEGIN
  /* sp at the bottom of the test stack, so the sp-relative forms stay inside it. */
  la sp, isa_stack

  /* c.addi4spn: rd' = sp + nzuimm */
  li TESTNUM, 2
  RVC c.addi4spn x8, sp, 8
  addi x7, sp, 8
  EXPECT_SAME x8, x7
  li TESTNUM, 3
  RVC c.addi4spn x15, sp, 1020
  addi x7, sp, 1020
  EXPECT_SAME x15, x7

  /* c.lw / c.sw (registers x8..x15, offsets scaled by 4) */
  li TESTNUM, 4
  la x9, rvc_data
  RVC c.lw x8, 4(x9)
  EXPECT x8, 0x89abcdef
  li TESTNUM, 5
  li x10, 0x13579bdf
  RVC c.sw x10, 124(x9)
  lw x14, 124(x9)
  EXPECT x14, 0x13579bdf
  li TESTNUM, 6
  RVC c.lw x9, 0(x9)
  EXPECT x9, 0x01234567

  /* c.nop, c.addi */
  li TESTNUM, 7
  li x8, 5
  RVC c.nop
  RVC c.addi x8, -1
  EXPECT x8, 4
  li TESTNUM, 8
  li x20, 0
  RVC c.addi x20, -32
  EXPECT x20, 0xffffffe0
  li TESTNUM, 9
  li x20, 0x7fffffe1
  RVC c.addi x20, 31
  EXPECT x20, 0x80000000

  /* c.li, c.lui (sign-extended 6-bit immediates) */
  li TESTNUM, 10
  RVC c.li x8, -32
  EXPECT x8, 0xffffffe0
  li TESTNUM, 11
  RVC c.li x31, 31
  EXPECT x31, 31
  li TESTNUM, 12
  RVC c.lui x8, 0xfffff
  EXPECT x8, 0xfffff000
  li TESTNUM, 13
  RVC c.lui x9, 1
  EXPECT x9, 0x1000
  li TESTNUM, 14
  RVC c.lui x21, 31
  EXPECT x21, 0x1f000
  li TESTNUM, 15
  RVC c.lui x22, 0xfffe0
  EXPECT x22, 0xfffe0000

  /* c.addi16sp */
  li TESTNUM, 16
  mv x12, sp
  RVC c.addi16sp sp, -64
  addi x7, x12, -64
  EXPECT_SAME sp, x7
  RVC c.addi16sp sp, 496
  addi x7, x12, 432
  EXPECT_SAME sp, x7
  mv sp, x12

  /* c.srli, c.srai, c.andi, c.slli */
  li TESTNUM, 17
  li x8, 0x80000010
  RVC c.srli x8, 4
  EXPECT x8, 0x08000001
  li TESTNUM, 18
  li x8, 0x80000010
  RVC c.srai x8, 4
  EXPECT x8, 0xf8000001
  li TESTNUM, 19
  li x8, 0x80000001
  RVC c.srli x8, 31
  EXPECT x8, 1
  li TESTNUM, 20
  li x8, 0x80000001
  RVC c.srai x8, 31
  EXPECT x8, 0xffffffff
  li TESTNUM, 21
  li x9, 0xffffffff
  RVC c.andi x9, -2
  EXPECT x9, 0xfffffffe
  li TESTNUM, 22
  li x9, 0xffffffff
  RVC c.andi x9, 31
  EXPECT x9, 31
  li TESTNUM, 23
  li x25, 3
  RVC c.slli x25, 30
  EXPECT x25, 0xc0000000
  li TESTNUM, 24
  li x25, 0x12345678
  RVC c.slli x25, 1
  EXPECT x25, 0x2468acf0

  /* c.sub, c.xor, c.or, c.and (x8..x15) */
  li TESTNUM, 25
  li x8, 3
  li x9, 7
  RVC c.sub x8, x9
  EXPECT x8, 0xfffffffc
  li TESTNUM, 26
  li x10, 0xff00ff00
  li x11, 0x0ff00ff0
  RVC c.xor x10, x11
  EXPECT x10, 0xf0f0f0f0
  li TESTNUM, 27
  li x10, 0xff00ff00
  RVC c.or x10, x11
  EXPECT x10, 0xfff0fff0
  li TESTNUM, 28
  li x10, 0xff00ff00
  RVC c.and x10, x11
  EXPECT x10, 0x0f000f00

  /* c.mv, c.add */
  li TESTNUM, 29
  li x13, 0xcafe
  RVC c.mv x30, x13
  EXPECT x30, 0xcafe
  li TESTNUM, 30
  li x30, 0x7fffffff
  li x13, 1
  RVC c.add x30, x13
  EXPECT x30, 0x80000000

  /* c.lwsp, c.swsp */
  li TESTNUM, 31
  li x13, 0x600df00d
  RVC c.swsp x13, 8(sp)
  lw x14, 8(sp)
  EXPECT x14, 0x600df00d
  li TESTNUM, 32
  li x14, 0x0badcafe
  sw x14, 252(sp)
  RVC c.lwsp x26, 252(sp)
  EXPECT x26, 0x0badcafe

  /* c.j, c.jal (link = pc + 2), c.jr, c.jalr */
  li TESTNUM, 33
  RVC c.j 1f
  j isa_fail
1:
  li TESTNUM, 34
  la x12, c_jal_return
  RVC c.jal c_jal_target
c_jal_return:
  j isa_fail
c_jal_target:
  EXPECT_SAME x1, x12
  li TESTNUM, 35
  la x13, c_jr_target
  RVC c.jr x13
  j isa_fail
c_jr_target:
  li TESTNUM, 36
  la x13, c_jalr_target
  la x12, c_jalr_return
  RVC c.jalr x13
c_jalr_return:
  j isa_fail
c_jalr_target:
  EXPECT_SAME x1, x12

  /* c.beqz, c.bnez */
  li TESTNUM, 37
  li x8, 0
  RVC c.beqz x8, 1f
  j isa_fail
1:
  li TESTNUM, 38
  li x8, 1
  RVC c.beqz x8, 1f
  j 2f
1:
  j isa_fail
2:
  li TESTNUM, 39
  li x15, 0x80000000
  RVC c.bnez x15, 1f
  j isa_fail
1:
  li TESTNUM, 40
  li x15, 0
  RVC c.bnez x15, 1f
  j 2f
1:
  j isa_fail
2:
  li TESTNUM, 41
  li x8, 0
  j 2f
1:
  j 3f
2:
  RVC c.beqz x8, 1b
  j isa_fail
3:

  /* c.ebreak: breakpoint trap at the compressed instruction */
  li TESTNUM, 42
  la t0, ebreak_handler
  csrw mtvec, t0
  la x12, c_ebreak_at
  li x13, 0
c_ebreak_at:
  RVC c.ebreak
  EXPECT x13, 1
  la t0, isa_unexpected_trap
  csrw mtvec, t0

  j isa_pass

  /* Checks the breakpoint's cause and address, then resumes after the 2-byte instruction.
   * mtvec needs 4-byte alignment; the padding may have to be a compressed nop. */
  RVC .balign 4
ebreak_handler:
  csrr t0, mcause
  li t1, CAUSE_BREAKPOINT
  bne t0, t1, 1f
  csrr t0, mepc
  bne t0, x12, 1f
  addi t0, t0, 2
  csrw mepc, t0
  li x13, 1
  mret
1:
  j isa_fail
ISA_TEST_END

  .data
  .balign 4
rvc_data:
  .word 0x01234567
  .word 0x89abcdef
  .space 124
