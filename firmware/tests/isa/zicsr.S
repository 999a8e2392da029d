/* Zicsr: the six CSR instructions on mscratch (old value returned, write/set/clear, immediate
 * forms, rd = x0, rs1 = x0 reading without writing), the machine identification CSRs, misa for
 * RV32IMAFC, mtvec/mepc/mcause write-read, and mcycle/minstret counting up. */
#include "isa_test.h"

/* misa: MXL = 1 (32-bit) and the bits of A, C, F, I and M; no U, the hart has machine mode
 * only. = 0x40001125 */
#define MISA_MXL_32 (1 << 30)
#define MISA_EXTENSION(letter) (1 << ((letter) - 'A'))
#define MISA_RV32IMAFC (MISA_MXL_32 | MISA_EXTENSION('A') | MISA_EXTENSION('C') | \
                        MISA_EXTENSION('F') | MISA_EXTENSION('I') | MISA_EXTENSION('M'))

ISA_TEST_BEGIN

  /* csrrw returns the old value and writes the new one */
  li TESTNUM, 2
  li x11, 0x12345678
  csrw mscratch, x11
  li x12, 0x9abcdef0
  csrrw x14, mscratch, x12
  EXPECT x14, 0x12345678
  csrr x14, mscratch
  EXPECT x14, 0x9abcdef0

  /* csrrs sets, csrrc clears */
  li TESTNUM, 3
  li x11, 0x0f0f0000
  csrw mscratch, x11
  li x12, 0x000000ff
  csrrs x14, mscratch, x12
  EXPECT x14, 0x0f0f0000
  csrr x14, mscratch
  EXPECT x14, 0x0f0f00ff
  li TESTNUM, 4
  li x12, 0x0f00000f
  csrrc x14, mscratch, x12
  EXPECT x14, 0x0f0f00ff
  csrr x14, mscratch
  EXPECT x14, 0x000f00f0

  /* immediate forms (5-bit zero-extended) */
  li TESTNUM, 5
  csrrwi x14, mscratch, 31
  EXPECT x14, 0x000f00f0
  csrr x14, mscratch
  EXPECT x14, 31
  li TESTNUM, 6
  csrrci x14, mscratch, 0x15
  EXPECT x14, 31
  csrr x14, mscratch
  EXPECT x14, 0x0a
  li TESTNUM, 7
  csrrsi x14, mscratch, 0x10
  EXPECT x14, 0x0a
  csrr x14, mscratch
  EXPECT x14, 0x1a

  /* rd = x0 still writes; rs1 = x0 / uimm = 0 set/clear read without writing */
  li TESTNUM, 8
  li x11, 0x55aa55aa
  csrrw x0, mscratch, x11
  EXPECT x0, 0
  csrrs x14, mscratch, x0
  EXPECT x14, 0x55aa55aa
  csrrc x14, mscratch, x0
  EXPECT x14, 0x55aa55aa
  csrrsi x14, mscratch, 0
  EXPECT x14, 0x55aa55aa
  csrrci x14, mscratch, 0
  EXPECT x14, 0x55aa55aa
  csrr x14, mscratch
  EXPECT x14, 0x55aa55aa

  /* identification */
  li TESTNUM, 9
  csrr x14, misa
  EXPECT x14, MISA_RV32IMAFC
  li TESTNUM, 10
  csrr x14, mhartid
  EXPECT x14, 0

  /* mtvec, mepc (bit 0 always zero), mcause read back what was written */
  li TESTNUM, 11
  csrr x13, mtvec
  la x11, isa_unexpected_trap
  EXPECT_SAME x13, x11
  la x12, 1f
  csrw mtvec, x12
  csrr x14, mtvec
  EXPECT_SAME x14, x12
  csrw mtvec, x13
  j 2f
  .balign 4
1:
  j isa_fail
2:
  li TESTNUM, 12
  li x11, 0x00001234
  csrw mepc, x11
  csrr x14, mepc
  EXPECT x14, 0x00001234
  li TESTNUM, 13
  li x11, 0x00001237
  csrw mepc, x11
  csrr x14, mepc
  EXPECT x14, 0x00001236
  li TESTNUM, 14
  li x11, 11
  csrw mcause, x11
  csrr x14, mcause
  EXPECT x14, 11

  /* mcycle and minstret count up between two reads, and their high halves are readable */
  li TESTNUM, 15
  csrr x11, mcycle
  nop
  nop
  nop
  csrr x12, mcycle
  bltu x11, x12, 1f
  j isa_fail
1:
  li TESTNUM, 16
  csrr x11, minstret
  nop
  nop
  nop
  csrr x12, minstret
  sub x13, x12, x11
  /* at least the three nops retired in between */
  li x7, 3
  bgeu x13, x7, 1f
  j isa_fail
1:
  li TESTNUM, 17
  csrr x11, mcycleh
  csrr x12, minstreth
  EXPECT x11, 0
  EXPECT x12, 0

  j isa_pass
ISA_TEST_END
