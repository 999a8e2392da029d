/* Machine interrupts from the CLINT: mtime advances; the software interrupt (msip) is taken
 * with mcause 0x80000003 when enabled, held off while mstatus.MIE is 0 and taken right after
 * it is set; WFI wakes on a pending enabled interrupt even with MIE = 0, without a trap; the
 * timer interrupt (mtime >= mtimecmp) wakes WFI and is taken with mcause 0x80000007 and mepc
 * after the WFI.
 *
 * The handler sets x20 = 1, keeps mcause, mepc and mtime (low word) in x27..x29, and
 * acknowledges both sources (msip = 0, mtimecmp = never). */
#include "isa_test.h"

#define MSIP0 (MM_CLINT_BASE + CLINT_MSIP(0))
#define MTIMECMP0_LO (MM_CLINT_BASE + CLINT_MTIMECMP_LO(0))
#define MTIMECMP0_HI (MM_CLINT_BASE + CLINT_MTIMECMP_HI(0))
#define MTIME_LO (MM_CLINT_BASE + CLINT_MTIME_LO)
#define MTIME_HI (MM_CLINT_BASE + CLINT_MTIME_HI)
/* Polls for an event the platform delivers asynchronously give up after this many rounds. */
#define POLL_LIMIT 200000
/* 10 us at the default 100 MHz timebase: far more than the few instructions before WFI. */
#define TIMER_DELAY_TICKS 1000

/* Sets mtimecmp of hart 0 to mtime + TIMER_DELAY_TICKS; leaves the deadline's low word in x18.
 * The high word is parked at its maximum while the low word changes, so no earlier compare
 * value exists in between. */
.macro ARM_TIMER
  li x15, MTIME_LO
  lw x18, 0(x15)
  li x15, MTIME_HI
  lw x17, 0(x15)
  li x16, TIMER_DELAY_TICKS
  add x18, x18, x16
  li x15, MTIMECMP0_HI
  li x16, 0xffffffff
  sw x16, 0(x15)
  li x15, MTIMECMP0_LO
  sw x18, 0(x15)
  li x15, MTIMECMP0_HI
  sw x17, 0(x15)
.endm

/* Fails unless mip has `bit` within POLL_LIMIT rounds (x15 is clobbered). */
.macro WAIT_FOR_MIP bit
  li x15, POLL_LIMIT
1:
  csrr x16, mip
  andi x16, x16, \bit
  bnez x16, 2f
  addi x15, x15, -1
  bnez x15, 1b
  j isa_fail
2:
.endm

/* Fails unless mip loses `bit` within POLL_LIMIT rounds. */
.macro WAIT_FOR_MIP_CLEAR bit
  li x15, POLL_LIMIT
1:
  csrr x16, mip
  andi x16, x16, \bit
  beqz x16, 2f
  addi x15, x15, -1
  bnez x15, 1b
  j isa_fail
2:
.endm

/* Fails unless the handler ran (x20 != 0) within POLL_LIMIT rounds. */
.macro WAIT_FOR_HANDLER
  li x15, POLL_LIMIT
1:
  bnez x20, 2f
  addi x15, x15, -1
  bnez x15, 1b
  j isa_fail
2:
.endm

  .option norvc
ISA_TEST_BEGIN
  csrw mie, zero
  csrci mstatus, MSTATUS_MIE
  la t0, interrupt_handler
  csrw mtvec, t0

  /* mtime advances while the hart runs */
  li TESTNUM, 2
  li x15, MTIME_LO
  lw x11, 0(x15)
  li x13, POLL_LIMIT
1:
  lw x12, 0(x15)
  bne x11, x12, 2f
  addi x13, x13, -1
  bnez x13, 1b
  j isa_fail
2:

  /* software interrupt, enabled: taken with mcause 0x80000003 and acknowledged */
  li TESTNUM, 3
  li x20, 0
  li x11, MIE_MSIE
  csrw mie, x11
  csrsi mstatus, MSTATUS_MIE
  li x15, MSIP0
  li x11, 1
  sw x11, 0(x15)
  WAIT_FOR_HANDLER
  EXPECT x27, CAUSE_MACHINE_SOFTWARE_INTERRUPT
  li x15, MSIP0
  lw x14, 0(x15)
  EXPECT x14, 0
  WAIT_FOR_MIP_CLEAR MIE_MSIE

  /* held off while mstatus.MIE = 0, taken right after the instruction that sets it */
  li TESTNUM, 4
  csrci mstatus, MSTATUS_MIE
  li x20, 0
  li x15, MSIP0
  li x11, 1
  sw x11, 0(x15)
  WAIT_FOR_MIP MIE_MSIE
  nop
  nop
  EXPECT x20, 0
  la x12, taken_after
  csrsi mstatus, MSTATUS_MIE
taken_after:
  EXPECT x20, 1
  EXPECT x27, CAUSE_MACHINE_SOFTWARE_INTERRUPT
  EXPECT_SAME x28, x12

  /* WFI with MIE = 0 wakes on the pending software interrupt and takes no trap */
  li TESTNUM, 5
  csrci mstatus, MSTATUS_MIE
  li x20, 0
  li x15, MSIP0
  li x11, 1
  sw x11, 0(x15)
  li x13, POLL_LIMIT
1:
  wfi
  csrr x16, mip
  andi x16, x16, MIE_MSIE
  bnez x16, 2f
  addi x13, x13, -1
  bnez x13, 1b
  j isa_fail
2:
  EXPECT x20, 0
  li x15, MSIP0
  sw zero, 0(x15)
  WAIT_FOR_MIP_CLEAR MIE_MSIE

  /* the timer interrupt wakes WFI: mcause 0x80000007, mepc after the WFI, mtime at the
   * deadline or later */
  li TESTNUM, 6
  li x11, MIE_MTIE
  csrw mie, x11
  li x20, 0
  ARM_TIMER
  la x12, after_wfi
  csrsi mstatus, MSTATUS_MIE
  li x13, POLL_LIMIT
timer_wait:
  wfi
after_wfi:
  bnez x20, 1f
  addi x13, x13, -1
  bnez x13, timer_wait
  j isa_fail
1:
  csrci mstatus, MSTATUS_MIE
  EXPECT x27, CAUSE_MACHINE_TIMER_INTERRUPT
  EXPECT_SAME x28, x12
  bgeu x29, x18, 2f
  j isa_fail
2:
  WAIT_FOR_MIP_CLEAR MIE_MTIE

  /* WFI with MIE = 0 wakes when the timer fires, no trap, and only at the deadline */
  li TESTNUM, 7
  li x20, 0
  ARM_TIMER
  li x13, POLL_LIMIT
1:
  wfi
  csrr x16, mip
  andi x16, x16, MIE_MTIE
  bnez x16, 2f
  addi x13, x13, -1
  bnez x13, 1b
  j isa_fail
2:
  EXPECT x20, 0
  li x15, MTIME_LO
  lw x14, 0(x15)
  bgeu x14, x18, 3f
  j isa_fail
3:
  li x15, MTIMECMP0_HI
  li x16, 0xffffffff
  sw x16, 0(x15)
  WAIT_FOR_MIP_CLEAR MIE_MTIE
  csrw mie, zero

  j isa_pass

  .balign 4
interrupt_handler:
  csrr x27, mcause
  bgez x27, isa_fail /* an exception, not an interrupt */
  csrr x28, mepc
  li x24, MTIME_LO
  lw x29, 0(x24)
  li x24, MSIP0
  sw zero, 0(x24)
  li x24, MTIMECMP0_HI
  li x23, 0xffffffff
  sw x23, 0(x24)
  li x24, MTIMECMP0_LO
  sw x23, 0(x24)
  li x20, 1
  mret
ISA_TEST_END
