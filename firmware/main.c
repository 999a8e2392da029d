/* The product firmware's entry: every hart reports in, hart 0 checks the boot config, prints
 * the banner once all harts are online, opens the job mailbox (lib/worker.h), builds the FTL in
 * the boot-time arenas (SRAM above the image's data and below the hart stacks, DRAM when
 * present) and serves the host; hart 1 waits for jobs, any further hart sleeps. */
#include <stdint.h>

#include "boot/boot.h"
#include "boot_config.h"
#include "ftl/ftl.h"
#include "fw_stats.h"
#include "hal/console.h"
#include "hal/hic.h"
#include "hal/nfc.h"
#include "hal/system.h"
#include "lib/arena.h"
#include "lib/metrics.h"
#include "lib/worker.h"
#include "memory_map.h"

#define FIRMWARE_VERSION "0.1"

#define KIB 1024u
#define MIB (1024u * 1024u)

static uint32_t harts_online;

/* The boot-config layout this image reads: the platform refuses to run an image built against
 * another interface/boot_config.h, naming both versions. Volatile, and read below, so that
 * neither link-time optimisation nor section garbage collection drops it. */
const volatile uint32_t fw_boot_config_version = BOOT_CONFIG_VERSION;

/* The statistics block the platform reads (interface/fw_stats.h). */
fw_stats_t fw_stats;

extern uint8_t __sram_data_end[]; /* link.ld: the end of the image's SRAM data */

static arena_t sram_arena;
static arena_t dram_arena;
static const char *const scheme_names[BOOT_SCHEME_COUNT] = BOOT_SCHEME_NAMES;

/* Stops the run when the platform wrote a boot config this firmware cannot use. */
static void check_boot_config(const boot_config_t *config) {
  const char *problem = 0;
  if (config->version != fw_boot_config_version) {
    fw_printf("boot config: the platform wrote version %u, this image reads version %u\n",
              (unsigned)config->version, (unsigned)fw_boot_config_version);
    system_exit(FW_EXIT_BAD_BOOT_CONFIG);
  }
  if (config->size_bytes < sizeof(boot_config_t)) {
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

static void print_breakdown(const boot_config_t *config) {
  arena_print_breakdown(&sram_arena, "SRAM", fw_printf);
  if (config->dram_size != 0) {
    arena_print_breakdown(&dram_arena, "DRAM", fw_printf);
  }
}

/* Builds the FTL and serves the host; stops the run when the platform cannot be served. */
static void serve(const boot_config_t *config) {
  fw_stats.magic = FW_STATS_MAGIC;
  fw_stats.version = FW_STATS_VERSION;
  metrics_init(&fw_stats);
  if (!nfc_present()) {
    fw_printf("ftl: no NAND flash controller at %#x\n", (unsigned)MM_NFC_BASE);
    system_exit(FW_EXIT_NO_NFC);
  }
  if (!hic_present()) {
    fw_printf("ftl: no host interface controller at %#x\n", (unsigned)MM_HIC_BASE);
    system_exit(FW_EXIT_NO_HIC);
  }
  nand_geometry_t geometry = nfc_geometry();
  hic_geometry_t host = hic_geometry();
  if (host.lpn_count != config->ftl_lpn_count || host.page_bytes != geometry.page_bytes ||
      host.lpn_count == 0) {
    fw_printf("ftl: the host interface exports %u LPNs of %u B; the boot config says %u LPNs "
              "and the NAND has %u B pages (they must agree, and LPNs must be > 0)\n",
              (unsigned)host.lpn_count, (unsigned)host.page_bytes,
              (unsigned)config->ftl_lpn_count, (unsigned)geometry.page_bytes);
    system_exit(FW_EXIT_GEOMETRY_MISMATCH);
  }
  uintptr_t sram_start = (uintptr_t)__sram_data_end;
  uintptr_t sram_end = MM_SRAM_BASE + config->sram_size -
                       (uintptr_t)config->hart_count * config->stack_bytes_per_hart;
  arena_init(&sram_arena, (void *)sram_start, (uint32_t)(sram_end - sram_start),
             FW_STATS_LOCATION_SRAM);
  arena_init(&dram_arena, (void *)MM_DRAM_BASE, config->dram_size, FW_STATS_LOCATION_DRAM);
  const char *problem = "";
  ftl_init_result_t result = ftl_init(config, &geometry, &host, &sram_arena,
                                      config->dram_size != 0 ? &dram_arena : 0, &problem);
  arena_export(&sram_arena, &fw_stats);
  arena_export(&dram_arena, &fw_stats);
  if (result != FTL_INIT_OK) {
    fw_printf("ftl: cannot start: %s\n", problem);
    if (!metrics_fit()) {
      fw_printf("metrics: \"%s\" was refused: %s\n", metrics_refused(), metrics_problem());
    }
    print_breakdown(config);
    system_exit(result == FTL_INIT_NO_MEMORY     ? FW_EXIT_OUT_OF_MEMORY
                : result == FTL_INIT_NO_RECOVERY ? FW_EXIT_NO_RECOVERY
                                                 : FW_EXIT_BAD_FTL_CONFIG);
  }
  fw_printf("ftl: %u LPNs, %u KiB of SRAM used of %u KiB", (unsigned)host.lpn_count,
            (unsigned)(sram_arena.used / 1024u), (unsigned)(sram_arena.capacity / 1024u));
  if (config->dram_size != 0) {
    fw_printf(", %u KiB of DRAM", (unsigned)(dram_arena.used / 1024u));
  }
  fw_printf("\n");
  fw_stats.boot_complete = 1;
  ftl_run();
}

void fw_main(unsigned hart_id) {
  /* Counted after the line is out, so hart 0 cannot print the banner (and exit) before every
   * hart's line. */
  fw_printf("hart %u online\n", hart_id);
  __atomic_fetch_add(&harts_online, 1u, __ATOMIC_ACQ_REL);

  if (hart_id != WORKER_SERVING_HART) {
    worker_run(hart_id);
  }

  const boot_config_t *config = system_boot_config();
  check_boot_config(config);
  while (__atomic_load_n(&harts_online, __ATOMIC_ACQUIRE) < config->hart_count) {
  }
  print_banner(config);
  worker_init(config->hart_count);
  serve(config);
}
