/* Reset entry of every hart. The platform has loaded .text/.rodata into ROM and .data into SRAM
 * and filled the boot-config block; all harts start here at once.
 * Hart 0 checks the boot config, zeroes .bss and then releases the others, which wait in WFI
 * with only the software interrupt enabled (mstatus.MIE stays 0, so the wake-up takes no trap).
 * Each hart gets stack_bytes_per_hart at the top of SRAM, hart 0 the topmost slot. */
#include "boot_config.h"
#include "clint_regs.h"
#include "hal/exit_codes.h"
#include "job_kinds.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

#define MIE_MSIE 0x8
#define MSTATUS_FS_INITIAL 0x2000

  .section .text.boot, "ax"
  .globl _start
  .type _start, @function
_start:
  /* gp must be set before the linker may relax accesses relative to it. */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la t0, trap_vector
  csrw mtvec, t0
  csrw mie, zero
  /* The FPU comes out of reset Off (mstatus.FS = 0), where every F instruction traps as illegal;
   * the C code is built for rv32imafc/ilp32f and may use the f registers anywhere, so each hart
   * turns it on (FS = Initial) before any C runs. fcsr has no architectural reset value: round
   * to nearest even, no flags. */
  li t0, MSTATUS_FS_INITIAL
  csrs mstatus, t0
  csrw fcsr, zero

  li s0, MM_BOOT_CONFIG_ADDR
  lw t0, BOOT_CONFIG_OFFSET_MAGIC(s0)
  li t1, BOOT_CONFIG_MAGIC
  bne t0, t1, bad_boot_config

  /* sp = SRAM top - hart_id * stack_bytes_per_hart */
  csrr s1, mhartid
  lw s2, BOOT_CONFIG_OFFSET_SRAM_SIZE(s0)
  lw s3, BOOT_CONFIG_OFFSET_STACK_BYTES_PER_HART(s0)
  li sp, MM_SRAM_BASE
  add sp, sp, s2
  mul t0, s1, s3
  sub sp, sp, t0
  bnez s1, wait_for_release

  /* Hart 0: all stacks together must fit in SRAM above the firmware's data. */
  lw s4, BOOT_CONFIG_OFFSET_HART_COUNT(s0)
  mul t0, s4, s3
  bgtu t0, s2, stacks_overlap_data
  li t1, MM_SRAM_BASE
  add t1, t1, s2
  sub t1, t1, t0
  la t2, __sram_data_end
  bltu t1, t2, stacks_overlap_data

  la t0, __bss_start
  la t1, __bss_end
zero_bss:
  bgeu t0, t1, release_harts
  sw zero, 0(t0)
  addi t0, t0, 4
  j zero_bss

release_harts:
  /* The zeroed .bss must be visible before the flag that lets the other harts use it. */
  fence w, w
  li t0, 1
  la t1, boot_release_flag
  sw t0, 0(t1)
  fence rw, rw
  /* Wake harts 1 .. hart_count-1 from WFI. */
  li t1, MM_CLINT_BASE + CLINT_MSIP(1)
  li t2, 1
wake_next_hart:
  bgeu t2, s4, enter_main
  sw t0, 0(t1)
  addi t1, t1, 4
  addi t2, t2, 1
  j wake_next_hart

wait_for_release:
  li t0, MIE_MSIE
  csrs mie, t0
  /* The wait is idle time (interface/job_kinds.h); what follows, boot, is other's. */
  csrwi JOB_KIND_CSR, JOB_KIND_IDLE_VALUE
  la t1, boot_release_flag
release_poll:
  lw t2, 0(t1)
  bnez t2, released
  wfi
  j release_poll
released:
  csrwi JOB_KIND_CSR, 0
  fence r, rw
  csrc mie, t0
  /* Acknowledge the wake-up so the software interrupt is free for the firmware. */
  li t1, MM_CLINT_BASE
  slli t2, s1, 2
  add t1, t1, t2
  sw zero, 0(t1)

enter_main:
  mv a0, s1
  call fw_main
  li a0, FW_EXIT_MAIN_RETURNED
  j exit_with_code

bad_boot_config:
  li a0, FW_EXIT_BAD_BOOT_CONFIG
  j exit_with_code
stacks_overlap_data:
  li a0, FW_EXIT_STACKS_OVERLAP_DATA
exit_with_code:
  li t0, MM_SYSCTRL_BASE
  sw a0, SYSCTRL_EXIT(t0)
park:
  wfi
  j park
  .size _start, . - _start

  /* In .data, not .bss: hart 0 zeroes .bss while the others are already polling this word. */
  .section .data.boot_release_flag, "aw"
  .balign 4
boot_release_flag:
  .word 0
