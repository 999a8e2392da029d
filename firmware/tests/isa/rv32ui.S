/* RV32I base integer instructions, in their 32-bit encodings: arithmetic and logic with edge
 * values, shifts (amounts masked to 5 bits), comparisons, lui/auipc, jumps and their link
 * registers, every branch taken and not taken, loads with sign and zero extension, stores of
 * each width, and writes to x0. */
#include "isa_test.h"

  .option norvc
ISA_TEST_BEGIN

  /* add / sub / addi */
  CHECK_RR 2, add, 0, 0, 0
  CHECK_RR 3, add, 10, 3, 7
  CHECK_RR 4, add, 0x80000000, 0x7fffffff, 1
  CHECK_RR 5, add, 0, 0xffffffff, 1
  CHECK_RR 6, add, 0, 0x80000000, 0x80000000
  CHECK_RR_DEST_IS_SRC1 7, add, 24, 13, 11
  CHECK_RR_DEST_IS_SRC2 8, add, 25, 14, 11
  CHECK_RR_SAME_SRC 9, add, 26, 13
  CHECK_RR_ZERO_SRC1 10, add, 15, 15
  CHECK_RR_ZERO_DEST 11, add, 1, 2
  CHECK_RR 12, sub, 0, 1, 1
  CHECK_RR 13, sub, 0xfffffffc, 3, 7
  CHECK_RR 14, sub, 0x7fffffff, 0x80000000, 1
  CHECK_RR 15, sub, 1, 0, 0xffffffff
  CHECK_RR_ZERO_SRC1 16, sub, 0xfffffff1, 15
  CHECK_RR_ZERO_DEST 17, sub, 5, 2
  CHECK_IMM 18, addi, 0x80000000, 0x7fffffff, 1
  CHECK_IMM 19, addi, 0xfffff800, 0, -2048
  CHECK_IMM 20, addi, 2052, 5, 2047
  CHECK_IMM 21, addi, 0, -1, 1
  CHECK_IMM_DEST_IS_SRC 22, addi, 24, 13, 11
  CHECK_IMM_ZERO_DEST 23, addi, 5, 7

  /* logic */
  CHECK_RR 24, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f
  CHECK_RR 25, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f
  CHECK_RR 26, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f
  CHECK_RR_SAME_SRC 27, xor, 0, 0x12345678
  CHECK_RR_ZERO_DEST 28, or, 0x12, 0x34
  CHECK_IMM 29, andi, 0x0000000f, 0x00ff00ff, 0x70f
  CHECK_IMM 30, andi, 0x00ff00f0, 0x00ff00ff, -16
  CHECK_IMM 31, ori, 0xffffff0f, 0xff00ff00, -241
  CHECK_IMM 32, ori, 0x00ff07ff, 0x00ff00ff, 0x70f
  CHECK_IMM 33, xori, 0xff00f00f, 0x00ff0f00, -241
  CHECK_IMM 34, xori, 0x00ff0ff0, 0x00ff08ff, 0x70f
  CHECK_IMM_ZERO_DEST 35, ori, 0x55, 0xaa

  /* shifts: the amount is the low 5 bits of the register */
  CHECK_RR 36, sll, 1, 1, 0
  CHECK_RR 37, sll, 0x80000000, 1, 31
  CHECK_RR 38, sll, 0xffffff80, 0xffffffff, 7
  CHECK_RR 39, sll, 0x48484000, 0x21212121, 14
  CHECK_RR 40, sll, 2, 1, 33
  CHECK_RR 41, srl, 0x40000000, 0x80000000, 1
  CHECK_RR 42, srl, 1, 0xffffffff, 31
  CHECK_RR 43, srl, 0x00020606, 0x81818181, 14
  CHECK_RR 44, srl, 0x08181818, 0x81818181, 36
  CHECK_RR 45, sra, 0xc0000000, 0x80000000, 1
  CHECK_RR 46, sra, 0, 0x7fffffff, 31
  CHECK_RR 47, sra, 0xffffffff, 0x81818181, 31
  CHECK_RR 48, sra, 0xfffe0606, 0x81818181, 14
  CHECK_RR 49, sra, 0xc0c0c0c0, 0x81818181, 0xffffffe1
  CHECK_IMM 50, slli, 0x67800000, 0x12345678, 20
  CHECK_IMM 51, slli, 0x80000000, 0x21212121, 31
  CHECK_IMM 52, srli, 0x123, 0x12345678, 20
  CHECK_IMM 53, srli, 0x81818181, 0x81818181, 0
  CHECK_IMM 54, srai, 0xfffff876, 0x87654321, 20
  CHECK_IMM 55, srai, 0x00000123, 0x12345678, 20
  CHECK_IMM 56, srai, 0xffffffff, 0x80000000, 31
  CHECK_IMM_ZERO_DEST 57, slli, 1, 3

  /* comparisons */
  CHECK_RR 58, slt, 1, 0xffffffff, 0
  CHECK_RR 59, slt, 0, 0, 0xffffffff
  CHECK_RR 60, slt, 0, 0x7fffffff, 0x80000000
  CHECK_RR 61, slt, 1, 0x80000000, 0x7fffffff
  CHECK_RR 62, slt, 0, 5, 5
  CHECK_RR 63, sltu, 1, 0, 0xffffffff
  CHECK_RR 64, sltu, 0, 0xffffffff, 0
  CHECK_RR 65, sltu, 0, 0x80000000, 0x7fffffff
  CHECK_RR 66, sltu, 1, 0x7fffffff, 0x80000000
  CHECK_RR_SAME_SRC 67, sltu, 0, 9
  CHECK_IMM 68, slti, 1, 0xffffffff, 0
  CHECK_IMM 69, slti, 0, 0x7fffffff, -1
  CHECK_IMM 70, slti, 1, 5, 2047
  CHECK_IMM 71, slti, 1, 0x80000000, -2048
  CHECK_IMM 72, sltiu, 1, 0, -1
  CHECK_IMM 73, sltiu, 0, 1, 1
  CHECK_IMM 74, sltiu, 1, 0, 1
  CHECK_IMM 75, sltiu, 0, 0xffffffff, 2047
  CHECK_RR_ZERO_DEST 76, slt, 0xffffffff, 0

  /* lui / auipc */
  li TESTNUM, 77
  lui x14, 0xfffff
  EXPECT x14, 0xfffff000
  li TESTNUM, 78
  lui x14, 0x80000
  EXPECT x14, 0x80000000
  li TESTNUM, 79
  lui x14, 0x12345
  addi x14, x14, 0x678
  EXPECT x14, 0x12345678
  li TESTNUM, 80
  lui x0, 0x12345
  EXPECT x0, 0
  li TESTNUM, 81
auipc_here:
  auipc x14, 0
  la x12, auipc_here
  EXPECT_SAME x14, x12
  li TESTNUM, 82
auipc_here_plus:
  auipc x14, 0x1
  la x12, auipc_here_plus + 0x1000
  EXPECT_SAME x14, x12

  /* jal: the link is the address after the jump */
  li TESTNUM, 83
  la x12, jal_return
  jal x1, jal_target
jal_return:
  j isa_fail
jal_target:
  EXPECT_SAME x1, x12
  li TESTNUM, 84
  jal x0, jal_no_link
  j isa_fail
jal_no_link:
  EXPECT x0, 0

  /* jalr: target = (rs1 + imm) with bit 0 cleared; rd == rs1 uses the old rs1 */
  li TESTNUM, 85
  la x11, jalr_target
  la x12, jalr_return
  jalr x1, 0(x11)
jalr_return:
  j isa_fail
jalr_target:
  EXPECT_SAME x1, x12
  li TESTNUM, 86
  la x11, jalr_odd_target + 1
  jalr x0, 0(x11)
  j isa_fail
jalr_odd_target:
  li TESTNUM, 87
  la x11, jalr_offset_target - 16
  jalr x0, 16(x11)
  j isa_fail
jalr_offset_target:
  li TESTNUM, 88
  la x11, jalr_same_target
  la x12, jalr_same_return
  jalr x11, 0(x11)
jalr_same_return:
  j isa_fail
jalr_same_target:
  EXPECT_SAME x11, x12

  /* branches */
  CHECK_BRANCH_TAKEN 89, beq, 5, 5
  CHECK_BRANCH_NOT_TAKEN 90, beq, 5, 6
  CHECK_BRANCH_TAKEN 91, bne, 0, 0x80000000
  CHECK_BRANCH_NOT_TAKEN 92, bne, 0xffffffff, 0xffffffff
  CHECK_BRANCH_TAKEN 93, blt, 0xffffffff, 0
  CHECK_BRANCH_NOT_TAKEN 94, blt, 0, 0xffffffff
  CHECK_BRANCH_NOT_TAKEN 95, blt, 0x7fffffff, 0x80000000
  CHECK_BRANCH_NOT_TAKEN 96, blt, 7, 7
  CHECK_BRANCH_TAKEN 97, bge, 7, 7
  CHECK_BRANCH_TAKEN 98, bge, 0x7fffffff, 0x80000000
  CHECK_BRANCH_NOT_TAKEN 99, bge, 0xffffffff, 0
  CHECK_BRANCH_TAKEN 100, bltu, 0, 0xffffffff
  CHECK_BRANCH_TAKEN 101, bltu, 0x7fffffff, 0x80000000
  CHECK_BRANCH_NOT_TAKEN 102, bltu, 0xffffffff, 0
  CHECK_BRANCH_NOT_TAKEN 103, bltu, 3, 3
  CHECK_BRANCH_TAKEN 104, bgeu, 0xffffffff, 0
  CHECK_BRANCH_TAKEN 105, bgeu, 3, 3
  CHECK_BRANCH_NOT_TAKEN 106, bgeu, 0x7fffffff, 0x80000000

  /* loads: sign and zero extension, negative offsets */
  CHECK_LOAD 107, lb, 0xffffffff, 0, load_data
  CHECK_LOAD 108, lb, 0, 1, load_data
  CHECK_LOAD 109, lb, 0xfffffff0, 2, load_data
  CHECK_LOAD 110, lb, 0x0f, 3, load_data
  CHECK_LOAD 111, lbu, 0xff, 0, load_data
  CHECK_LOAD 112, lbu, 0xf0, 2, load_data
  CHECK_LOAD 113, lh, 0xffff8001, 4, load_data
  CHECK_LOAD 114, lh, 0x7ff0, 6, load_data
  CHECK_LOAD 115, lhu, 0x8001, 4, load_data
  CHECK_LOAD 116, lhu, 0x7ff0, 6, load_data
  CHECK_LOAD 117, lw, 0x0ff000ff, 0, load_data
  CHECK_LOAD 118, lw, 0x80000001, 8, load_data
  CHECK_LOAD 119, lw, 0x0ff000ff, -16, load_data_end
  CHECK_LOAD 120, lbu, 0x80, -1, load_data_end
  li TESTNUM, 121
  la x11, load_data
  lw x11, 0(x11)
  EXPECT x11, 0x0ff000ff
  li TESTNUM, 122
  la x11, load_data
  lw x0, 0(x11)
  EXPECT x0, 0

  /* stores of each width, and that narrow stores leave the neighbours alone */
  CHECK_STORE 123, sb, lbu, 0xaa, 0xaa, 0, store_data
  CHECK_STORE 124, sb, lb, 0xaa, 0xffffffaa, 1, store_data
  CHECK_STORE 125, sh, lhu, 0xbeef, 0xbeef, 2, store_data
  CHECK_STORE 126, sh, lh, 0xbeef, 0xffffbeef, 2, store_data
  CHECK_STORE 127, sw, lw, 0x11223344, 0x11223344, 4, store_data
  CHECK_STORE 128, sw, lw, 0xdeadbeef, 0xdeadbeef, -4, store_data_end
  li TESTNUM, 129
  la x11, store_data
  li x12, 0xab
  sb x12, 5(x11)
  lw x14, 4(x11)
  EXPECT x14, 0x1122ab44
  li TESTNUM, 130
  li x12, 0xcdef
  sh x12, 6(x11)
  lw x14, 4(x11)
  EXPECT x14, 0xcdefab44
  li TESTNUM, 131
  lw x14, 0(x11)
  EXPECT x14, 0xbeefaaaa

  /* fences order memory; here they must simply execute */
  li TESTNUM, 132
  fence
  fence rw, rw
  fence w, r
  nop
  EXPECT x0, 0

  j isa_pass
ISA_TEST_END

  .data
  .balign 4
load_data:
  .byte 0xff, 0x00, 0xf0, 0x0f
  .half 0x8001, 0x7ff0
  .word 0x80000001
  .byte 0x00, 0x00, 0x00, 0x80
load_data_end:

store_data:
  .space 12
store_data_end:
