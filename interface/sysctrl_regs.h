/* System controller register map (window MM_SYSCTRL_BASE). All registers are 32 bits. */
#ifndef SSDVP_INTERFACE_SYSCTRL_REGS_H
#define SSDVP_INTERFACE_SYSCTRL_REGS_H

#define SYSCTRL_ID 0x00u          /* RO: SYSCTRL_ID_VALUE */
#define SYSCTRL_CONSOLE_TX 0x04u  /* WO: low byte goes to the console */
#define SYSCTRL_EXIT 0x08u        /* WO: ends the run with this exit code (0 = success) */
#define SYSCTRL_TIME_LO 0x10u     /* RO: simulated time in ns, low word (latches the high word) */
#define SYSCTRL_TIME_HI 0x14u     /* RO: high word latched by the last TIME_LO read */
#define SYSCTRL_BOOT_CONFIG 0x18u /* RO: address of the boot-config block */
#define SYSCTRL_HART_COUNT 0x1Cu  /* RO: number of harts */
#define SYSCTRL_SCRATCH 0x20u     /* RW: free register for tests */
/* WO: a hart's trap handler met an exception it cannot handle and writes its hart id here; the
 * platform ends the run with that hart's mepc (and its symbol), mcause and mtval. */
#define SYSCTRL_FAULT 0x24u
/* Power: why this boot happened and how many there were, like a reset-cause register. */
#define SYSCTRL_RESET_CAUSE 0x28u  /* RO: SYSCTRL_RESET_CAUSE_* of this boot */
#define SYSCTRL_BOOT_COUNT 0x2Cu   /* RO: boots so far, this one included (1 at the first) */
/* R/W1C: SYSCTRL_POWER_STATUS_FAIL is set when the supply fails with power-loss protection
 * (ftl.plp > 0); its level is the interrupt line IRQ_SRC_POWER_FAIL. The power is cut ftl.plp
 * after it rose, or earlier when the firmware writes SYSCTRL_POWER_READY. */
#define SYSCTRL_POWER_STATUS 0x30u
#define SYSCTRL_POWER_READY 0x34u  /* WO: any value: state saved, cut the power now */

#define SYSCTRL_RESET_CAUSE_POWER_ON 0u   /* the first boot of the run */
#define SYSCTRL_RESET_CAUSE_POWER_LOSS 1u /* a boot after the power was cut */
#define SYSCTRL_POWER_STATUS_FAIL 0x1u

#define SYSCTRL_ID_VALUE 0x53534456u /* "SSDV" */

#endif
