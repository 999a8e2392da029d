/* Machine-mode trap vector (mtvec direct mode). Saves the registers a C function may clobber,
 * hands mcause to trap_dispatch (hal/irq.c) and returns with mret. Handlers run with interrupts
 * disabled (the hart cleared mstatus.MIE on entry), so traps do not nest. Exceptions never come
 * back here: trap_dispatch reports them as a fault.
 * The interrupted code may hold live floating-point values (RQRMI training runs in float) and the
 * handlers are compiled for ilp32f, so the FP caller-saved registers and fcsr are saved too, but
 * only when mstatus.FS is Dirty: in any other state no FP register holds a value in use. */
#define INT_BYTES 64                 /* 16 integer registers */
#define FP_FLAG_OFFSET INT_BYTES     /* 1 if the FP block below was saved */
#define FCSR_OFFSET (INT_BYTES + 4)
#define FP_OFFSET (INT_BYTES + 8)    /* ft0-ft11, fa0-fa7: 20 registers */
#define SAVED_BYTES 160              /* 64 + 8 + 80, rounded up to keep sp 16-byte aligned */
#define MSTATUS_FS_DIRTY 0x6000

  .section .text.trap, "ax"
  .globl trap_vector
  .type trap_vector, @function
  .balign 4
trap_vector:
  addi sp, sp, -SAVED_BYTES
  sw ra, 0(sp)
  sw t0, 4(sp)
  sw t1, 8(sp)
  sw t2, 12(sp)
  sw a0, 16(sp)
  sw a1, 20(sp)
  sw a2, 24(sp)
  sw a3, 28(sp)
  sw a4, 32(sp)
  sw a5, 36(sp)
  sw a6, 40(sp)
  sw a7, 44(sp)
  sw t3, 48(sp)
  sw t4, 52(sp)
  sw t5, 56(sp)
  sw t6, 60(sp)

  csrr t0, mstatus
  li t1, MSTATUS_FS_DIRTY
  and t0, t0, t1
  sw zero, FP_FLAG_OFFSET(sp)
  bne t0, t1, fp_saved
  li t0, 1
  sw t0, FP_FLAG_OFFSET(sp)
  frcsr t0
  sw t0, FCSR_OFFSET(sp)
  fsw ft0, FP_OFFSET + 0(sp)
  fsw ft1, FP_OFFSET + 4(sp)
  fsw ft2, FP_OFFSET + 8(sp)
  fsw ft3, FP_OFFSET + 12(sp)
  fsw ft4, FP_OFFSET + 16(sp)
  fsw ft5, FP_OFFSET + 20(sp)
  fsw ft6, FP_OFFSET + 24(sp)
  fsw ft7, FP_OFFSET + 28(sp)
  fsw ft8, FP_OFFSET + 32(sp)
  fsw ft9, FP_OFFSET + 36(sp)
  fsw ft10, FP_OFFSET + 40(sp)
  fsw ft11, FP_OFFSET + 44(sp)
  fsw fa0, FP_OFFSET + 48(sp)
  fsw fa1, FP_OFFSET + 52(sp)
  fsw fa2, FP_OFFSET + 56(sp)
  fsw fa3, FP_OFFSET + 60(sp)
  fsw fa4, FP_OFFSET + 64(sp)
  fsw fa5, FP_OFFSET + 68(sp)
  fsw fa6, FP_OFFSET + 72(sp)
  fsw fa7, FP_OFFSET + 76(sp)
fp_saved:

  csrr a0, mcause
  call trap_dispatch

  lw t0, FP_FLAG_OFFSET(sp)
  beqz t0, fp_restored
  lw t0, FCSR_OFFSET(sp)
  fscsr t0
  flw ft0, FP_OFFSET + 0(sp)
  flw ft1, FP_OFFSET + 4(sp)
  flw ft2, FP_OFFSET + 8(sp)
  flw ft3, FP_OFFSET + 12(sp)
  flw ft4, FP_OFFSET + 16(sp)
  flw ft5, FP_OFFSET + 20(sp)
  flw ft6, FP_OFFSET + 24(sp)
  flw ft7, FP_OFFSET + 28(sp)
  flw ft8, FP_OFFSET + 32(sp)
  flw ft9, FP_OFFSET + 36(sp)
  flw ft10, FP_OFFSET + 40(sp)
  flw ft11, FP_OFFSET + 44(sp)
  flw fa0, FP_OFFSET + 48(sp)
  flw fa1, FP_OFFSET + 52(sp)
  flw fa2, FP_OFFSET + 56(sp)
  flw fa3, FP_OFFSET + 60(sp)
  flw fa4, FP_OFFSET + 64(sp)
  flw fa5, FP_OFFSET + 68(sp)
  flw fa6, FP_OFFSET + 72(sp)
  flw fa7, FP_OFFSET + 76(sp)
fp_restored:

  lw ra, 0(sp)
  lw t0, 4(sp)
  lw t1, 8(sp)
  lw t2, 12(sp)
  lw a0, 16(sp)
  lw a1, 20(sp)
  lw a2, 24(sp)
  lw a3, 28(sp)
  lw a4, 32(sp)
  lw a5, 36(sp)
  lw a6, 40(sp)
  lw a7, 44(sp)
  lw t3, 48(sp)
  lw t4, 52(sp)
  lw t5, 56(sp)
  lw t6, 60(sp)
  addi sp, sp, SAVED_BYTES
  mret
  .size trap_vector, . - trap_vector
