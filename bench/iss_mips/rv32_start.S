/* Entry of the benchmark image. It does not depend on the boot-config block, so it runs as a
 * bare program: hart 0 takes a stack of its own in .bss, zeroes .bss, runs main and exits with
 * its return value through the system controller; any other hart parks in WFI. */
#define STACK_BYTES 8192
#define MSTATUS_FS_INITIAL 0x2000

  .section .text.boot, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  csrr t0, mhartid
  bnez t0, park
  /* The image is built for ilp32f: turn the FPU on, as the product crt0 does, before any C. */
  li t0, MSTATUS_FS_INITIAL
  csrs mstatus, t0
  fscsr zero

  la t0, __bss_start
  la t1, __bss_end
zero_bss:
  bgeu t0, t1, run_main
  sw zero, 0(t0)
  addi t0, t0, 4
  j zero_bss

run_main:
  la sp, bench_stack + STACK_BYTES
  call main
  call system_exit
park:
  wfi
  j park
  .size _start, . - _start

  .section .bss.bench_stack, "aw", @nobits
  .balign 16
bench_stack:
  .space STACK_BYTES
