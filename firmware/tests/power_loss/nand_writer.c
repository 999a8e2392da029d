/* Power-loss test firmware (run by tb/tests/power_loss): counts its boots and programs the
 * wordlines of one block of die 0 in a loop, erasing the block when it is full, so that a cut
 * finds a program or an erase under way. It serves no host command. Every line it prints starts
 * with "nand_writer:", with the simulated time in ns:
 *   boot <count> cause <SYSCTRL_RESET_CAUSE_*> at <ns>     first, at every boot
 *   found wordline <w> status <NFC_STATUS_*> lpn <tag>      at a boot after the first: each
 *                                                            wordline of the block up to the
 *                                                            first erased one (every wordline
 *                                                            when none is)
 *   program <w> from <ns> to <ns> status <s>                each program (submission, completion)
 *   erase from <ns> to <ns> status <s>                      each erase
 *   power failing at <ns>: ready                            with power-loss protection: the
 *                                                            operation under way has completed
 * The page tags are lpn = 1000 x boot + wordline, so a reboot tells which boot wrote what. A
 * program's data and OOB come from .bss, which crt0 zeroes: they must read zero at every boot,
 * like .data its initial value (the loader writes it again), or the program exits with code 3. */
#include <stdbool.h>
#include <stdint.h>

#include "boot/boot.h"
#include "data_tag.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/mmio.h"
#include "hal/nfc.h"
#include "hal/system.h"
#include "memory_map.h"
#include "sysctrl_regs.h"

#define RING_ENTRIES 4u
#define BLOCK 1u
#define DATA_VALUE 0x600DDA7Au

static nfc_desc_t descriptor_ring[RING_ENTRIES] __attribute__((aligned(32)));
static nfc_completion_t completion_ring[RING_ENTRIES] __attribute__((aligned(16)));
static nfc_io_t io_list[NAND_MAX_BITS_PER_CELL];
static data_tag_t slots[NAND_MAX_BITS_PER_CELL];
static volatile uint32_t completions;
static volatile nfc_completion_t last_completion;
static volatile bool power_failing;
static uint32_t initialised_word = DATA_VALUE; /* .data */
static uint32_t zeroed_word;                   /* .bss */
static nand_geometry_t geometry;
static uint32_t next_id = 1;

static unsigned long long now_ns(void) {
  return (unsigned long long)system_time_ns();
}

static void on_completion(const nfc_completion_t *completion, void *context) {
  (void)context;
  last_completion = *completion;
  completions = completions + 1u;
}

static void on_power_fail(unsigned hart_id, void *context) {
  (void)hart_id;
  (void)context;
  mmio_write32(MM_SYSCTRL_BASE + SYSCTRL_POWER_STATUS, SYSCTRL_POWER_STATUS_FAIL);
  power_failing = true;
}

static uint32_t ppn(uint32_t wordline) {
  nand_address_t address = {0, 0, 0, 0, BLOCK, wordline * geometry.bits_per_cell};
  return nand_ppn(&geometry, &address);
}

/* Submits one descriptor and sleeps until its completion: its status. */
static uint32_t run(nfc_desc_t descriptor) {
  uint32_t expected = completions + 1u;
  nfc_submit(&descriptor);
  for (;;) {
    uint32_t saved = irq_save_disable();
    if (completions >= expected) {
      irq_restore(saved);
      return last_completion.status;
    }
    cpu_wait_for_interrupt();
    irq_restore(saved);
  }
}

static void erase_block(void) {
  unsigned long long start = now_ns();
  uint32_t status = run(nfc_erase_descriptor(next_id++, ppn(0), 1));
  fw_printf("nand_writer: erase from %llu to %llu status %u\n", start, now_ns(),
            (unsigned)status);
}

static void program_wordline(uint32_t boot, uint32_t wordline) {
  for (uint32_t page = 0; page < geometry.bits_per_cell; ++page) {
    slots[page].lpn = 1000u * boot + wordline;
    slots[page].version = 1u;
    io_list[page].buffer = (uint32_t)(uintptr_t)&slots[page];
    io_list[page].oob = 0;
    io_list[page].meta_bytes = 0;
    io_list[page].reserved = 0;
  }
  unsigned long long start = now_ns();
  uint32_t status = run(nfc_program_descriptor(next_id++, ppn(wordline), 1, io_list));
  fw_printf("nand_writer: program %u from %llu to %llu status %u\n", (unsigned)wordline, start,
            now_ns(), (unsigned)status);
}

/* The first erased wordline of the block, after printing those before it; the wordline count
 * when none is erased. */
static uint32_t scan_block(void) {
  uint32_t wordlines = geometry.pages / geometry.bits_per_cell;
  io_list[0].buffer = (uint32_t)(uintptr_t)&slots[0];
  io_list[0].oob = 0;
  io_list[0].meta_bytes = 0;
  io_list[0].reserved = 0;
  for (uint32_t wordline = 0; wordline < wordlines; ++wordline) {
    slots[0].lpn = 0;
    uint32_t status = run(nfc_read_descriptor(next_id++, ppn(wordline), 1, io_list));
    if (status == NFC_STATUS_ERASED) {
      return wordline;
    }
    fw_printf("nand_writer: found wordline %u status %u lpn %u\n", (unsigned)wordline,
              (unsigned)status, (unsigned)slots[0].lpn);
  }
  return wordlines;
}

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) {
      cpu_wait_for_interrupt();
    }
  }
  uint32_t boot = mmio_read32(MM_SYSCTRL_BASE + SYSCTRL_BOOT_COUNT);
  uint32_t cause = mmio_read32(MM_SYSCTRL_BASE + SYSCTRL_RESET_CAUSE);
  fw_printf("nand_writer: boot %u cause %u at %llu\n", (unsigned)boot, (unsigned)cause,
            now_ns());
  if (initialised_word != DATA_VALUE || zeroed_word != 0) {
    fw_printf("nand_writer: .data %#x or .bss %#x not initialised\n", (unsigned)initialised_word,
              (unsigned)zeroed_word);
    system_exit(3);
  }
  geometry = nfc_geometry();
  nfc_start(descriptor_ring, RING_ENTRIES, completion_ring, RING_ENTRIES, on_completion, 0);
  irq_register_source(IRQ_SRC_POWER_FAIL, on_power_fail, 0);
  irq_enable_source(IRQ_SRC_POWER_FAIL);
  irq_enable();

  uint32_t wordlines = geometry.pages / geometry.bits_per_cell;
  uint32_t wordline = 0;
  if (boot == 1) {
    erase_block();
  } else {
    wordline = scan_block();
  }
  for (;;) {
    if (wordline == wordlines) {
      erase_block();
      wordline = 0;
    } else {
      program_wordline(boot, wordline);
      ++wordline;
    }
    if (power_failing) {
      fw_printf("nand_writer: power failing at %llu: ready\n", now_ns());
      mmio_write32(MM_SYSCTRL_BASE + SYSCTRL_POWER_READY, 1);
      for (;;) {
        cpu_wait_for_interrupt();
      }
    }
  }
}
