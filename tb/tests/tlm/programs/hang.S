# Sleeps with no interrupt enabled: nothing can ever wake the hart.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    wfi
    j _start
