# main executes an illegal instruction at main+0x8; the trap handler reports the fault of its
# hart through the FAULT register. With TRAP_LOOP the handler itself is illegal instead: it
# traps to itself with nothing retired, a trap loop.
#include "constants.inc"
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    call main
1:  j 1b

    .globl main
    .type main, @function
main:
    nop
    nop
    .4byte 0x00000000
    ret
    .size main, . - main

    .align 2
handler:
#ifdef TRAP_LOOP
    .4byte 0x00000000
#endif
    csrr t0, mhartid
    li t1, MM_SYSCTRL_BASE
    sw t0, SYSCTRL_FAULT(t1)
2:  j 2b
