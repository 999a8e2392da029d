/* The product firmware's entry: every hart reports in, hart 0 checks the boot config and
 * prints the banner once all harts are online. */
#include <stdint.h>

#include "boot/boot.h"
#include "boot_config.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/system.h"
#include "memory_map.h"

#define FIRMWARE_VERSION "0.1"

#define KIB 1024u
#define MIB (1024u * 1024u)

static uint32_t harts_online;
static const char *const scheme_names[BOOT_SCHEME_COUNT] = BOOT_SCHEME_NAMES;

/* Stops the run when the platform wrote a boot config this firmware cannot use. */
static void check_boot_config(const boot_config_t *config) {
  const char *problem = 0;
  if (config->version != BOOT_CONFIG_VERSION) {
    problem = "version";
  } else if (config->size_bytes < sizeof(boot_config_t)) {
    problem = "size_bytes";
  } else if (config->hart_count == 0 || config->hart_count > MM_MAX_HARTS) {
    problem = "hart_count";
  } else if (config->cpu_clock_hz == 0) {
    problem = "cpu_clock_hz";
  } else if (config->scheme >= BOOT_SCHEME_COUNT) {
    problem = "scheme";
  }
  if (problem != 0) {
    fw_printf(
        "boot config: bad %s (version %u, expected %u; size %u bytes, expected at least %u; "
        "hart_count %u, allowed 1..%u; cpu_clock_hz %u, must be > 0; scheme %u, allowed "
        "0..%u)\n",
        problem, (unsigned)config->version, BOOT_CONFIG_VERSION, (unsigned)config->size_bytes,
        (unsigned)sizeof(boot_config_t), (unsigned)config->hart_count, MM_MAX_HARTS,
        (unsigned)config->cpu_clock_hz, (unsigned)config->scheme, BOOT_SCHEME_COUNT - 1u);
    system_exit(FW_EXIT_BAD_BOOT_CONFIG);
  }
}

/* "800 MHz", or the exact value in a finer unit when it is not a whole number of MHz. */
static void print_clock(uint32_t hz) {
  if (hz % 1000000u == 0) {
    fw_printf("%u MHz", (unsigned)(hz / 1000000u));
  } else if (hz % 1000u == 0) {
    fw_printf("%u kHz", (unsigned)(hz / 1000u));
  } else {
    fw_printf("%u Hz", (unsigned)hz);
  }
}

/* The largest unit in which a non-zero size is a whole number. */
static void print_size(uint32_t bytes) {
  if (bytes % MIB == 0) {
    fw_printf("%u MiB", (unsigned)(bytes / MIB));
  } else if (bytes % KIB == 0) {
    fw_printf("%u KiB", (unsigned)(bytes / KIB));
  } else {
    fw_printf("%u B", (unsigned)bytes);
  }
}

static void print_banner(const boot_config_t *config) {
  fw_printf("ssdvp firmware " FIRMWARE_VERSION ": %u hart%s @ ", (unsigned)config->hart_count,
            config->hart_count == 1 ? "" : "s");
  print_clock(config->cpu_clock_hz);
  /* SRAM in KiB even when a whole number of MiB: SRAM budgets are read in KiB. */
  if (config->sram_size % KIB == 0) {
    fw_printf(", SRAM %u KiB", (unsigned)(config->sram_size / KIB));
  } else {
    fw_printf(", SRAM %u B", (unsigned)config->sram_size);
  }
  fw_printf(", DRAM ");
  if (config->dram_size == 0) {
    fw_printf("none");
  } else {
    print_size(config->dram_size);
  }
  fw_printf(", scheme %s\n", scheme_names[config->scheme]);
}

void fw_main(unsigned hart_id) {
  /* Counted after the line is out, so hart 0 cannot print the banner (and exit) before every
   * hart's line. */
  fw_printf("hart %u online\n", hart_id);
  __atomic_fetch_add(&harts_online, 1u, __ATOMIC_ACQ_REL);

  if (hart_id != 0) {
    for (;;) {
      cpu_wait_for_interrupt();
    }
  }

  const boot_config_t *config = system_boot_config();
  check_boot_config(config);
  while (__atomic_load_n(&harts_online, __ATOMIC_ACQUIRE) < config->hart_count) {
  }
  print_banner(config);
  system_exit(FW_EXIT_SUCCESS);
}
