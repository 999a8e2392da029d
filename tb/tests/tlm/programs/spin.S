# Loops forever: only a time or instruction limit ends it.
    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    j _start
