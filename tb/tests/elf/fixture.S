# ELF loader test fixture: every byte is spelled out so the test knows what the loader must find.
    .section .text, "ax"
    .globl _start
    .type _start, @function
_start:                      # 0x100, 8 bytes
    .4byte 0x00000013
    .4byte 0x0000006f
    .size _start, . - _start

    .type helper, @function
helper:                      # 0x108, 12 bytes, local
    .4byte 0x11111111
    .4byte 0x22222222
    .4byte 0x33333333
    .size helper, . - helper

    .globl unsized
    .type unsized, @function
unsized:                     # 0x114, no .size: function_at falls back to it
    .4byte 0x44444444
    .4byte 0x55555555

    .section .rodata, "a"
    .globl table
    .type table, @object
table:                       # 0x400, 8 bytes
    .4byte 0xcafef00d
    .4byte 0x0badbeef
    .size table, . - table

    .section .note.fixture, "a"
    .4byte 0x66666666

    .section .data, "aw"
    .globl counter
    .type counter, @object
counter:                     # 0x10000400 (loaded at 0x2000), 4 bytes
    .4byte 0x12345678
    .size counter, . - counter
data_marker:                 # 0x10000404, no type
    .4byte 0x9abcdef0

    .section .bss, "aw", @nobits
    .globl buffer
    .type buffer, @object
buffer:                      # 0x10000800, 256 bytes
    .zero 256
    .size buffer, . - buffer
