# Hart 1 writes a flag in SRAM and sleeps forever; hart 0 waits for the flag and exits with it.
#include "constants.inc"
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    csrr t0, mhartid
    la t1, flag
    bnez t0, second_hart
1:  lw t2, 0(t1)
    beqz t2, 1b
    li t0, MM_SYSCTRL_BASE
    sw t2, SYSCTRL_EXIT(t0)
2:  j 2b

second_hart:
    li t2, 0x77
    sw t2, 0(t1)
3:  wfi
    j 3b

    .data
flag:
    .word 0
