/* Test firmware: the RAM disk (ramdisk.h) served by hart 0, sleeping in WFI until the HIC
 * interrupt; the other harts sleep for good. Built twice: ramdisk.elf, and ramdisk_stale.elf
 * with RAMDISK_STALE_LPN defined. */
#include "boot/boot.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "tests/ramdisk/ramdisk.h"

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) {
      cpu_wait_for_interrupt();
    }
  }
  ramdisk_start(system_boot_config());
  irq_enable();
  for (;;) {
    ramdisk_serve();
    ramdisk_idle();
  }
}
