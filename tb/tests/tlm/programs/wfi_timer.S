# Programs the timer 1000 ticks ahead, enables only the timer interrupt in mie (mstatus.MIE stays
# off, so WFI wakes without taking a trap), sleeps, and exits. s0/s1 hold mcycle before and
# after WFI.
#include "constants.inc"
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, MM_CLINT_BASE + CLINT_MTIMECMP0_LO
    sw zero, CLINT_MTIMECMP0_HI - CLINT_MTIMECMP0_LO(t0)
    li t1, 1000
    sw t1, 0(t0)
    li t1, 0x80                     # mie.MTIE
    csrs mie, t1
    csrr s0, mcycle
    wfi
    csrr s1, mcycle
    li t0, MM_SYSCTRL_BASE
    sw zero, SYSCTRL_EXIT(t0)
1:  j 1b
