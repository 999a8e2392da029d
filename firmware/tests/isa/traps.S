/* Exceptions and trap mechanics: ecall, ebreak, illegal instructions (mtval = the instruction
 * bits), misaligned loads and stores (performed by the platform, no trap), a misaligned AMO
 * (cause 6), accesses and a fetch at an unmapped address (causes 5, 7 and 1, mtval = address),
 * the mstatus MIE/MPIE stack on trap entry and mret, and vectored mtvec (exceptions at BASE, the
 * software interrupt at BASE + 4 * 3).
 *
 * Each trap goes to trap_recorder, which keeps mstatus, mcause, mepc and mtval in x26..x29 and
 * resumes at the address in x30. */
#include "isa_test.h"

/* Expects the last trap to have had this cause, this mepc (a register) and this mtval. */
.macro EXPECT_TRAP cause, epc_reg, tval
  EXPECT x27, \cause
  EXPECT_SAME x28, \epc_reg
  EXPECT x29, \tval
.endm

/* Expects nothing to have trapped since x27 was cleared. */
.macro EXPECT_NO_TRAP
  EXPECT x27, 0xffffffff
.endm

.macro CLEAR_TRAP_RECORD
  li x27, 0xffffffff
  li x28, 0
  li x29, 0
.endm

  .option norvc
ISA_TEST_BEGIN
  la t0, trap_recorder
  csrw mtvec, t0

  /* ecall: cause 11, mepc at the ecall, mtval cleared */
  li TESTNUM, 2
  CLEAR_TRAP_RECORD
  li x11, 0x1234
  csrw mtval, x11
  la x30, 1f
  la x12, ecall_at
ecall_at:
  ecall
  j isa_fail
1:
  EXPECT_TRAP CAUSE_MACHINE_ECALL, x12, 0

  /* ebreak: cause 3, mepc at the ebreak */
  li TESTNUM, 3
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, ebreak_at
ebreak_at:
  ebreak
  j isa_fail
1:
  EXPECT x27, CAUSE_BREAKPOINT
  EXPECT_SAME x28, x12

  /* an unimplemented 32-bit opcode (custom-0) */
  li TESTNUM, 4
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, illegal_custom_at
  .balign 4
illegal_custom_at:
  .word 0x1234500b
  j isa_fail
1:
  EXPECT_TRAP CAUSE_ILLEGAL_INSTRUCTION, x12, 0x1234500b

  /* a reserved compressed encoding (c.addi4spn with a zero immediate): mtval holds 16 bits */
  li TESTNUM, 5
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, illegal_compressed_at
illegal_compressed_at:
  .half 0x0004
  .half 0x0001 /* c.nop: keeps the following code 4-byte aligned; never reached */
  j isa_fail
1:
  EXPECT_TRAP CAUSE_ILLEGAL_INSTRUCTION, x12, 0x0004

  /* a CSR that does not exist; mtval is the instruction as it sits in memory */
  li TESTNUM, 6
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, missing_csr_at
  .balign 4
missing_csr_at:
  csrr x14, 0x8ff
  j isa_fail
1:
  lw x13, 0(x12)
  EXPECT x27, CAUSE_ILLEGAL_INSTRUCTION
  EXPECT_SAME x28, x12
  EXPECT_SAME x29, x13

  /* reading a read-only CSR is fine; writing it is illegal */
  li TESTNUM, 7
  CLEAR_TRAP_RECORD
  csrr x14, mvendorid
  EXPECT_NO_TRAP
  la x30, 1f
  la x12, readonly_write_at
  .balign 4
readonly_write_at:
  csrw mvendorid, x14
  j isa_fail
1:
  lw x13, 0(x12)
  EXPECT x27, CAUSE_ILLEGAL_INSTRUCTION
  EXPECT_SAME x28, x12
  EXPECT_SAME x29, x13

  /* misaligned loads: performed, with sign/zero extension, no trap */
  li TESTNUM, 8
  CLEAR_TRAP_RECORD
  la x11, misaligned_data
  lw x14, 1(x11)
  EXPECT x14, 0x95843322
  lw x14, 3(x11)
  EXPECT x14, 0xb7a69584
  lh x14, 1(x11)
  EXPECT x14, 0x3322
  lh x14, 3(x11)
  EXPECT x14, 0xffff9584
  lhu x14, 3(x11)
  EXPECT x14, 0x9584
  EXPECT_NO_TRAP

  /* misaligned stores: performed, neighbours untouched, no trap */
  li TESTNUM, 9
  la x11, misaligned_scratch
  li x12, 0xdeadbeef
  sw x12, 1(x11)
  lw x14, 0(x11)
  EXPECT x14, 0xadbeef00
  lw x14, 4(x11)
  EXPECT x14, 0x000000de
  li x12, 0x1234
  sh x12, 7(x11)
  lw x14, 4(x11)
  EXPECT x14, 0x340000de
  lw x14, 8(x11)
  EXPECT x14, 0x00000012
  EXPECT_NO_TRAP

  /* misaligned AMO: store/AMO address misaligned, memory unchanged */
  li TESTNUM, 10
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x11, misaligned_scratch + 2
  li x13, 5
  la x12, misaligned_amo_at
misaligned_amo_at:
  amoadd.w x14, x13, (x11)
  j isa_fail
1:
  EXPECT x27, CAUSE_MISALIGNED_STORE
  EXPECT_SAME x28, x12
  EXPECT_SAME x29, x11
  la x11, misaligned_scratch
  lw x14, 0(x11)
  EXPECT x14, 0xadbeef00

  /* load and store at an unmapped address: access faults with mtval = address */
  li TESTNUM, 11
  CLEAR_TRAP_RECORD
  la x30, 1f
  li x11, UNMAPPED_ADDRESS
  la x12, unmapped_load_at
unmapped_load_at:
  lw x14, 0(x11)
  j isa_fail
1:
  EXPECT_TRAP CAUSE_LOAD_ACCESS, x12, UNMAPPED_ADDRESS
  li TESTNUM, 12
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, unmapped_byte_load_at
unmapped_byte_load_at:
  lbu x14, 3(x11)
  j isa_fail
1:
  EXPECT_TRAP CAUSE_LOAD_ACCESS, x12, UNMAPPED_ADDRESS + 3
  li TESTNUM, 13
  CLEAR_TRAP_RECORD
  la x30, 1f
  la x12, unmapped_store_at
unmapped_store_at:
  sw x0, 8(x11)
  j isa_fail
1:
  EXPECT_TRAP CAUSE_STORE_ACCESS, x12, UNMAPPED_ADDRESS + 8

  /* instruction fetch at an unmapped address: mepc and mtval are that address */
  li TESTNUM, 14
  CLEAR_TRAP_RECORD
  la x30, 1f
  li x11, UNMAPPED_ADDRESS
  jalr x0, 0(x11)
  j isa_fail
1:
  EXPECT_TRAP CAUSE_FETCH_ACCESS, x11, UNMAPPED_ADDRESS

  /* trap entry: MPIE <- MIE, MIE <- 0; mret: MIE <- MPIE, MPIE <- 1 (mie is 0: no interrupt) */
  li TESTNUM, 15
  csrw mie, zero
  csrs mstatus, MSTATUS_MIE
  CLEAR_TRAP_RECORD
  la x30, 1f
  ecall
  j isa_fail
1:
  andi x14, x26, MSTATUS_MIE | MSTATUS_MPIE
  EXPECT x14, MSTATUS_MPIE
  csrr x14, mstatus
  andi x14, x14, MSTATUS_MIE | MSTATUS_MPIE
  EXPECT x14, MSTATUS_MIE | MSTATUS_MPIE

  /* mret jumps to mepc and restores MIE from MPIE; MPP = machine keeps the hart in M-mode
   * (it can hold nothing else on a machine-mode-only hart) */
  li TESTNUM, 16
  li x11, MSTATUS_MIE | MSTATUS_MPIE
  csrc mstatus, x11
  li x11, MSTATUS_MPP_MACHINE
  csrs mstatus, x11
  la x11, 1f
  csrw mepc, x11
  mret
  j isa_fail
1:
  csrr x14, mstatus
  andi x14, x14, MSTATUS_MIE | MSTATUS_MPIE
  EXPECT x14, MSTATUS_MPIE
  li TESTNUM, 17
  li x11, MSTATUS_MPIE | MSTATUS_MPP_MACHINE
  csrs mstatus, x11
  la x11, 1f
  csrw mepc, x11
  mret
  j isa_fail
1:
  csrr x14, mstatus
  andi x14, x14, MSTATUS_MIE | MSTATUS_MPIE
  EXPECT x14, MSTATUS_MIE | MSTATUS_MPIE
  csrc mstatus, MSTATUS_MIE

  /* vectored mtvec: an exception goes to BASE */
  li TESTNUM, 18
  la t0, vector_table
  ori t0, t0, 1
  csrw mtvec, t0
  CLEAR_TRAP_RECORD
  li x25, 0xffffffff
  la x30, 1f
  la x12, vectored_ecall_at
vectored_ecall_at:
  ecall
  j isa_fail
1:
  EXPECT x25, 0
  EXPECT_TRAP CAUSE_MACHINE_ECALL, x12, 0

  /* vectored mtvec: the machine software interrupt goes to BASE + 4 * 3, taken right after
   * the instruction that enables it */
  li TESTNUM, 19
  CLEAR_TRAP_RECORD
  li x25, 0xffffffff
  li x11, MM_CLINT_BASE + CLINT_MSIP(0)
  li x12, 1
  sw x12, 0(x11)
  li x13, 100000
1:
  csrr x14, mip
  andi x14, x14, MIE_MSIE
  bnez x14, 2f
  addi x13, x13, -1
  bnez x13, 1b
  j isa_fail
2:
  li x12, MIE_MSIE
  csrw mie, x12
  la x30, 3f
  la x12, vectored_interrupt_after
  csrs mstatus, MSTATUS_MIE
vectored_interrupt_after:
  j isa_fail
3:
  EXPECT x25, 3
  EXPECT x27, CAUSE_MACHINE_SOFTWARE_INTERRUPT
  EXPECT_SAME x28, x12
  csrw mie, zero
  csrc mstatus, MSTATUS_MIE
  la t0, isa_unexpected_trap
  csrw mtvec, t0

  j isa_pass

  /* Keeps the trap state in x26..x29 and resumes at x30. */
  .balign 4
trap_recorder:
  csrr x26, mstatus
  csrr x27, mcause
  csrr x28, mepc
  csrr x29, mtval
  csrw mepc, x30
  mret

  /* One 4-byte jump per cause; only the entries this test expects lead to the recorder. */
  .balign 64
vector_table:
  j vector_exception          /* 0: every exception */
  j isa_fail                  /* 1 */
  j isa_fail                  /* 2 */
  j vector_software_interrupt /* 3: machine software interrupt */
  j isa_fail                  /* 4 */
  j isa_fail                  /* 5 */
  j isa_fail                  /* 6 */
  j isa_fail                  /* 7: machine timer interrupt */
  j isa_fail                  /* 8 */
  j isa_fail                  /* 9 */
  j isa_fail                  /* 10 */
  j isa_fail                  /* 11: machine external interrupt */
vector_exception:
  li x25, 0
  j trap_recorder
vector_software_interrupt:
  li x25, 3
  /* Acknowledge, or mret would take the interrupt again. */
  li x24, MM_CLINT_BASE + CLINT_MSIP(0)
  sw zero, 0(x24)
  j trap_recorder
ISA_TEST_END

  .data
  .balign 4
misaligned_data:
  .byte 0x11, 0x22, 0x33, 0x84, 0x95, 0xa6, 0xb7, 0xc8
misaligned_scratch:
  .space 12
