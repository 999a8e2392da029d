/* Interrupt controller register map (window MM_INTC_BASE), a reduced PLIC.
 * Device lines are level sensitive. A rising line sets its pending bit; a claim returns the
 * lowest-numbered source that is pending and enabled for the hart, clears its pending bit and
 * marks it in service; writing the id back completes it, and a line still high pends again.
 * A hart's machine external interrupt is asserted while it has a claimable source. */
#ifndef SSDVP_INTERFACE_INTC_REGS_H
#define SSDVP_INTERFACE_INTC_REGS_H

#define INTC_PENDING 0x000u           /* RO: bit n = source n pending */
#define INTC_LEVEL 0x004u             /* RO: bit n = raw level of line n */
#define INTC_ENABLE(hart) (0x100u + 0x10u * (hart)) /* RW: bit n enables source n for the hart */
#define INTC_CLAIM(hart) (0x104u + 0x10u * (hart))  /* R: claim (0 = none); W: complete id */

#endif
