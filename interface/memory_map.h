/* SoC memory map: the one place where a base address or window size is written.
 * Included by the TLM models (C++), the firmware (C, rv32 and host) and the tests. */
#ifndef SSDVP_INTERFACE_MEMORY_MAP_H
#define SSDVP_INTERFACE_MEMORY_MAP_H

/* Firmware code and read-only data. The scenario sets the populated size. */
#define MM_ROM_BASE 0x00000000u
#define MM_ROM_WINDOW 0x10000000u

/* On-chip SRAM: boot-config block, firmware data, arena, per-hart stacks. */
#define MM_SRAM_BASE 0x10000000u
#define MM_SRAM_WINDOW 0x10000000u

/* Peripherals: one 64 KiB register window each. */
#define MM_PERIPH_BASE 0x20000000u
#define MM_PERIPH_WINDOW 0x00010000u
#define MM_SYSCTRL_BASE 0x20000000u
#define MM_CLINT_BASE 0x20010000u
#define MM_INTC_BASE 0x20020000u
#define MM_HIC_BASE 0x20030000u
#define MM_NFC_BASE 0x20040000u
#define MM_ACCEL_BASE 0x20050000u

/* Optional DRAM (size 0 = absent); executable. */
#define MM_DRAM_BASE 0x80000000u
#define MM_DRAM_WINDOW 0x80000000u

/* The boot-config block sits at the start of SRAM; firmware data starts after it. */
#define MM_BOOT_CONFIG_ADDR MM_SRAM_BASE
#define MM_BOOT_CONFIG_RESERVED 0x400u

/* Interrupt-controller source numbers (0 means "no interrupt"). */
#define IRQ_SRC_NONE 0u
#define IRQ_SRC_HIC 1u
#define IRQ_SRC_NFC 2u
#define IRQ_SRC_ACCEL 3u
#define IRQ_SRC_POWER_FAIL 4u /* system controller: SYSCTRL_POWER_STATUS_FAIL */
#define IRQ_SRC_COUNT 32u

/* Harts the SoC can hold: bounded by the CLINT and interrupt-controller layouts. */
#define MM_MAX_HARTS 8u

#endif
