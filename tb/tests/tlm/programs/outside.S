# Has a data segment at an address no memory covers: loading it must fail.
    .section .text.start, "ax"
    .globl _start
_start:
    j _start

    .section .outside, "aw"
    .word 0x12345678
