/* The trap vector keeps the interrupted code's floating-point state: main holds known values in
 * every FP caller-saved register (ft0-ft11, fa0-fa7) and in fcsr while a timer interrupt whose
 * handler overwrites all of them is taken. Ends through tohost: 1 when every register and fcsr
 * came back, (n << 1) | 1 otherwise, n = 1 + the number of registers that changed. */
#include <stdint.h>

#include "boot/boot.h"
#include "hal/console.h"
#include "hal/irq.h"
#include "hal/timer.h"

#define INTERRUPT_DELAY_NS 5000u

volatile uint32_t tohost;
static volatile uint32_t interrupt_taken;

#define FP_CALLER_SAVED "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", \
                        "ft10", "ft11", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7"

/* Sets every FP caller-saved register from `base` + 4 * its position and fcsr to `csr`. */
#define FP_FILL(base_reg, csr_reg)                                                          \
  "fscsr " csr_reg "\n"                                                                     \
  "mv t1, " base_reg "\n"                                                                   \
  "fmv.w.x ft0, t1\n addi t1, t1, 4\n fmv.w.x ft1, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x ft2, t1\n addi t1, t1, 4\n fmv.w.x ft3, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x ft4, t1\n addi t1, t1, 4\n fmv.w.x ft5, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x ft6, t1\n addi t1, t1, 4\n fmv.w.x ft7, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x ft8, t1\n addi t1, t1, 4\n fmv.w.x ft9, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x ft10, t1\n addi t1, t1, 4\n fmv.w.x ft11, t1\n addi t1, t1, 4\n"                 \
  "fmv.w.x fa0, t1\n addi t1, t1, 4\n fmv.w.x fa1, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x fa2, t1\n addi t1, t1, 4\n fmv.w.x fa3, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x fa4, t1\n addi t1, t1, 4\n fmv.w.x fa5, t1\n addi t1, t1, 4\n"                   \
  "fmv.w.x fa6, t1\n addi t1, t1, 4\n fmv.w.x fa7, t1\n"

static void clobber_fp_state(unsigned hart, void *context) {
  (void)hart;
  (void)context;
  const uint32_t garbage = 0x7f800001u; /* a signalling NaN */
  const uint32_t rounding_down_with_flags = (2u << 5) | 0x1fu;
  __asm__ volatile(FP_FILL("%0", "%1") : : "r"(garbage), "r"(rounding_down_with_flags)
                   : "t1", FP_CALLER_SAVED);
  interrupt_taken = 1;
}

/* Counts the FP caller-saved registers (and fcsr) that no longer hold what FP_FILL put there. */
#define FP_COUNT_CHANGED(base_reg, csr_reg, count_reg)                                      \
  "li " count_reg ", 0\n"                                                                   \
  "frcsr t2\n beq t2, " csr_reg ", 1f\n addi " count_reg ", " count_reg ", 1\n1:\n"         \
  "mv t1, " base_reg "\n"                                                                   \
  FP_CHECK("ft0") FP_CHECK("ft1") FP_CHECK("ft2") FP_CHECK("ft3") FP_CHECK("ft4")           \
  FP_CHECK("ft5") FP_CHECK("ft6") FP_CHECK("ft7") FP_CHECK("ft8") FP_CHECK("ft9")           \
  FP_CHECK("ft10") FP_CHECK("ft11") FP_CHECK("fa0") FP_CHECK("fa1") FP_CHECK("fa2")         \
  FP_CHECK("fa3") FP_CHECK("fa4") FP_CHECK("fa5") FP_CHECK("fa6") FP_CHECK("fa7")
#define FP_CHECK(reg)                                                                       \
  "fmv.x.w t2, " reg "\n beq t2, t1, 2f\n addi %0, %0, 1\n2:\n addi t1, t1, 4\n"

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) __asm__ volatile("wfi");
  }
  const uint32_t pattern = 0x3f800000u; /* 1.0f, then the next floats up */
  const uint32_t rounding_up_with_flags = (3u << 5) | 0x05u;
  uint32_t changed = 0;

  irq_enable();
  timer_oneshot_at(timer_now() + timer_ticks_from_ns(INTERRUPT_DELAY_NS), clobber_fp_state, 0);
  /* One asm block from filling to checking, so the compiler cannot move FP values elsewhere. */
  __asm__ volatile(FP_FILL("%1", "%2")
                   "3:\n lw t2, 0(%3)\n beqz t2, 3b\n"
                   FP_COUNT_CHANGED("%1", "%2", "%0")
                   : "=&r"(changed)
                   : "r"(pattern), "r"(rounding_up_with_flags), "r"(&interrupt_taken)
                   : "t1", "t2", "memory", FP_CALLER_SAVED);

  fw_printf("fp_context: %u of 21 FP registers and fcsr changed across the interrupt\n",
            (unsigned)changed);
  tohost = changed == 0 ? 1u : ((changed + 1u) << 1) | 1u;
  for (;;) __asm__ volatile("wfi");
}
