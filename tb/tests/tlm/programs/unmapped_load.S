# Loads from an address no target answers; the trap handler exits with mcause as the code and
# leaves mtval in a1.
#include "constants.inc"
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li t1, 0x30000000
    lw t2, 0(t1)
1:  j 1b

    .align 2
handler:
    csrr a0, mcause
    csrr a1, mtval
    li t0, MM_SYSCTRL_BASE
    sw a0, SYSCTRL_EXIT(t0)
2:  j 2b
