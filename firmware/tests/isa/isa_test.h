/* Shared frame of the ISA self-test programs (assembler only).
 *
 * Result convention (riscv-tests): the program stores to the word `tohost` in SRAM: 1 when every
 * check passed, (n << 1) | 1 when check number n failed. Checks are numbered from 2 upwards in
 * each program; number 1 stands for the startup code, before the first check. The platform ends
 * the run at the first non-zero store to tohost.
 *
 * Register use: gp (x3) holds the number of the check in progress; sp points at a small stack;
 * the check macros use x11 and x12 for operands, x14 for the result and x7 for the expected
 * value. Any trap a program does not expect fails the check in progress.
 *
 * A program is:
 *     #include "isa_test.h"
 *     ISA_TEST_BEGIN
 *       CHECK_RR 2, add, 3, 1, 2
 *       ...
 *     ISA_TEST_END
 *     (optional .data for the program)
 */
#ifndef SSDVP_FIRMWARE_TESTS_ISA_TEST_H
#define SSDVP_FIRMWARE_TESTS_ISA_TEST_H

#include "clint_regs.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

#define TESTNUM gp
#define ISA_STACK_BYTES 1024

/* mcause values. */
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT 3
#define CAUSE_MISALIGNED_LOAD 4
#define CAUSE_LOAD_ACCESS 5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_MACHINE_ECALL 11
#define CAUSE_INTERRUPT 0x80000000
#define CAUSE_MACHINE_SOFTWARE_INTERRUPT (CAUSE_INTERRUPT | 3)
#define CAUSE_MACHINE_TIMER_INTERRUPT (CAUSE_INTERRUPT | 7)

/* mstatus / mie bits. */
#define MSTATUS_MIE 0x8
#define MSTATUS_MPIE 0x80
#define MSTATUS_MPP_MACHINE 0x1800
#define MIE_MSIE 0x8
#define MIE_MTIE 0x80

/* Any address no device answers: accesses fault. */
#define UNMAPPED_ADDRESS 0x30000000

/* Entry: hart 0 runs the checks; any other hart parks in WFI. */
.macro ISA_TEST_BEGIN
  .section .text.init, "ax"
  .globl _start
_start:
  csrr t0, mhartid
  bnez t0, isa_park
  la t0, isa_unexpected_trap
  csrw mtvec, t0
  la sp, isa_stack + ISA_STACK_BYTES
  li TESTNUM, 1
  j isa_checks

  .balign 4
isa_unexpected_trap:
  j isa_fail
isa_park:
  wfi
  j isa_park

isa_checks:
.endm

/* Pass/fail reporting, the tohost word and the stack. */
.macro ISA_TEST_END
isa_pass:
  li t0, 1
  j isa_report
isa_fail:
  slli t0, TESTNUM, 1
  ori t0, t0, 1
isa_report:
  la t1, tohost
  sw t0, 0(t1)
isa_done:
  j isa_done

  .section .tohost, "aw"
  .balign 4
  .globl tohost
tohost:
  .word 0

  .section .bss.isa_stack, "aw", @nobits
  .balign 16
isa_stack:
  .space ISA_STACK_BYTES

  .text
.endm

/* Fails the current check unless reg == expected (x7 is clobbered). */
.macro EXPECT reg, expected
  li x7, \expected
  beq \reg, x7, 1f
  j isa_fail
1:
.endm

/* Fails the current check unless reg_a == reg_b. */
.macro EXPECT_SAME reg_a, reg_b
  beq \reg_a, \reg_b, 1f
  j isa_fail
1:
.endm

/* Register-register operation: expected == a <inst> b. */
.macro CHECK_RR num, inst, expected, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x14, x11, x12
  EXPECT x14, \expected
.endm

/* The same with the destination also the first source. */
.macro CHECK_RR_DEST_IS_SRC1 num, inst, expected, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x11, x11, x12
  EXPECT x11, \expected
.endm

/* The same with the destination also the second source. */
.macro CHECK_RR_DEST_IS_SRC2 num, inst, expected, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x12, x11, x12
  EXPECT x12, \expected
.endm

/* Both sources the same register. */
.macro CHECK_RR_SAME_SRC num, inst, expected, a
  li TESTNUM, \num
  li x11, \a
  \inst x14, x11, x11
  EXPECT x14, \expected
.endm

/* x0 as the first source reads as zero. */
.macro CHECK_RR_ZERO_SRC1 num, inst, expected, b
  li TESTNUM, \num
  li x12, \b
  \inst x14, x0, x12
  EXPECT x14, \expected
.endm

/* A write to x0 is dropped. */
.macro CHECK_RR_ZERO_DEST num, inst, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x0, x11, x12
  EXPECT x0, 0
.endm

/* Register-immediate operation: expected == a <inst> imm. */
.macro CHECK_IMM num, inst, expected, a, imm
  li TESTNUM, \num
  li x11, \a
  \inst x14, x11, \imm
  EXPECT x14, \expected
.endm

.macro CHECK_IMM_DEST_IS_SRC num, inst, expected, a, imm
  li TESTNUM, \num
  li x11, \a
  \inst x11, x11, \imm
  EXPECT x11, \expected
.endm

.macro CHECK_IMM_ZERO_DEST num, inst, a, imm
  li TESTNUM, \num
  li x11, \a
  \inst x0, x11, \imm
  EXPECT x0, 0
.endm

/* Load: expected == <load> offset(base_label). */
.macro CHECK_LOAD num, load, expected, offset, base_label
  li TESTNUM, \num
  la x11, \base_label
  \load x14, \offset(x11)
  EXPECT x14, \expected
.endm

/* Store then load back: the loaded value must be `expected`. */
.macro CHECK_STORE num, store, load, value, expected, offset, base_label
  li TESTNUM, \num
  la x11, \base_label
  li x12, \value
  \store x12, \offset(x11)
  \load x14, \offset(x11)
  EXPECT x14, \expected
.endm

/* Branch on a, b must be taken (forwards and backwards). */
.macro CHECK_BRANCH_TAKEN num, inst, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x11, x12, 2f
  j isa_fail
1:
  j 3f
2:
  \inst x11, x12, 1b
  j isa_fail
3:
.endm

/* Branch on a, b must fall through. */
.macro CHECK_BRANCH_NOT_TAKEN num, inst, a, b
  li TESTNUM, \num
  li x11, \a
  li x12, \b
  \inst x11, x12, 1f
  j 2f
1:
  j isa_fail
2:
.endm

/* Copies the words from label `from` up to label `to` to the address in `dst` (x15, x16 and
 * x17 are clobbered; `dst` is kept). For code: follow with fence.i before executing it. */
.macro COPY_WORDS dst, from, to
  la x15, \from
  la x16, \to
  mv x17, \dst
1:
  bgeu x15, x16, 2f
  lw x7, 0(x15)
  sw x7, 0(x17)
  addi x15, x15, 4
  addi x17, x17, 4
  j 1b
2:
.endm

#endif
