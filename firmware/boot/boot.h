/* What crt0.S hands over to C. */
#ifndef SSDVP_FIRMWARE_BOOT_H
#define SSDVP_FIRMWARE_BOOT_H

/* Called on every hart once hart 0 has zeroed .bss, with the hart's stack set up. */
void fw_main(unsigned hart_id);

#endif
