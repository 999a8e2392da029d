/* CLINT register map (window MM_CLINT_BASE), the SiFive layout.
 * mtime counts at the scenario's timebase (cpu.timebase). */
#ifndef SSDVP_INTERFACE_CLINT_REGS_H
#define SSDVP_INTERFACE_CLINT_REGS_H

#define CLINT_MSIP(hart) (0x0000u + 4u * (hart))          /* RW: bit 0 = software interrupt */
#define CLINT_MTIMECMP_LO(hart) (0x4000u + 8u * (hart))   /* RW */
#define CLINT_MTIMECMP_HI(hart) (0x4004u + 8u * (hart))   /* RW */
#define CLINT_MTIME_LO 0xBFF8u                            /* RW */
#define CLINT_MTIME_HI 0xBFFCu                            /* RW */

#endif
