# Prints "ok\n" on the console and exits with code 42.
#include "constants.inc"
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, MM_SYSCTRL_BASE
    li t1, 'o'
    sw t1, SYSCTRL_CONSOLE_TX(t0)
    li t1, 'k'
    sw t1, SYSCTRL_CONSOLE_TX(t0)
    li t1, '\n'
    sw t1, SYSCTRL_CONSOLE_TX(t0)
    li t1, 42
    sw t1, SYSCTRL_EXIT(t0)
1:  j 1b
