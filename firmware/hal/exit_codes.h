/* Codes the firmware writes to SYSCTRL_EXIT. Plain macros: crt0.S uses them too. */
#ifndef SSDVP_FIRMWARE_EXIT_CODES_H
#define SSDVP_FIRMWARE_EXIT_CODES_H

#define FW_EXIT_SUCCESS 0
#define FW_EXIT_BAD_BOOT_CONFIG 2     /* wrong magic, version, size or field value */
#define FW_EXIT_STACKS_OVERLAP_DATA 3 /* hart stacks reach into .data/.bss */
#define FW_EXIT_MAIN_RETURNED 4       /* fw_main returned to crt0 */

#endif
