/* Codes the firmware writes to SYSCTRL_EXIT. Plain macros: crt0.S uses them too. */
#ifndef SSDVP_FIRMWARE_EXIT_CODES_H
#define SSDVP_FIRMWARE_EXIT_CODES_H

#define FW_EXIT_SUCCESS 0
#define FW_EXIT_BAD_BOOT_CONFIG 2     /* wrong magic, version, size or field value */
#define FW_EXIT_STACKS_OVERLAP_DATA 3 /* hart stacks reach into .data/.bss */
#define FW_EXIT_MAIN_RETURNED 4       /* fw_main returned to crt0 */
/* The product FTL (main.c) refuses the platform: */
#define FW_EXIT_NO_NFC 5              /* no NAND flash controller answers */
#define FW_EXIT_NO_HIC 6              /* no host interface controller answers */
#define FW_EXIT_GEOMETRY_MISMATCH 7   /* HIC LPN count or page size disagrees with the boot
                                         config or the NAND */
#define FW_EXIT_OUT_OF_MEMORY 8       /* the FTL's structures do not fit SRAM/DRAM (the
                                         breakdown is printed) */
#define FW_EXIT_BAD_FTL_CONFIG 9      /* an FTL policy or order the firmware does not know */
#define FW_EXIT_NO_RECOVERY 10        /* booted after a power loss with a mapping scheme that
                                         cannot recover its mappings yet, or a device recovery
                                         cannot bring back (the reason is printed) */

#endif
