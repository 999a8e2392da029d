/* Bare-metal test of the NAND flash controller through hal/nfc, on whatever device the scenario
 * configures (it reads the geometry from the NFC's registers): erase, the erased pattern, a
 * full-sequence program of a wordline with user tags, a metadata page and spare bytes, a read of
 * each page type (slower page types take longer), a spare-only read, and multi-plane erase,
 * program and read. Every completion and byte is checked. Ends through tohost: 1 when every
 * check passed, (n << 1) | 1 when check n failed. */
#include <stdbool.h>
#include <stdint.h>

#include "boot/boot.h"
#include "data_tag.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/irq.h"
#include "hal/nfc.h"

#define RING_ENTRIES 16u
#define MAX_COMPLETIONS 64u
#define META_BYTES 512u
#define MAX_PLANES_USED 2u
#define MAX_IO (MAX_PLANES_USED * NAND_MAX_BITS_PER_CELL)
#define BUFFER_ARENA_BYTES (160u * 1024u)
#define FIRST_BLOCK 1u
#define BLOCKS_TRIED 16u

volatile uint32_t tohost;

static nfc_desc_t descriptor_ring[RING_ENTRIES] __attribute__((aligned(32)));
static nfc_completion_t completion_ring[RING_ENTRIES] __attribute__((aligned(16)));
static nfc_completion_t completions[MAX_COMPLETIONS];
static volatile uint32_t completion_count;
static nfc_io_t io_list[MAX_IO];
static uint8_t buffer_arena[BUFFER_ARENA_BYTES] __attribute__((aligned(16)));

static nand_geometry_t geometry;
static uint32_t check_number = 1;
static uint32_t next_id = 1;

static void fail(const char *what, uint32_t found, uint32_t expected) {
  fw_printf("nfc_driver: check %u failed: %s: found %#x, expected %#x\n", (unsigned)check_number,
            what, (unsigned)found, (unsigned)expected);
  tohost = (check_number << 1) | 1u;
  for (;;) {
    cpu_wait_for_interrupt();
  }
}

static void expect(uint32_t found, uint32_t expected, const char *what) {
  if (found != expected) {
    fail(what, found, expected);
  }
}

static void on_completion(const nfc_completion_t *completion, void *context) {
  (void)context;
  if (completion_count < MAX_COMPLETIONS) {
    completions[completion_count] = *completion;
  }
  completion_count = completion_count + 1u;
}

/* Page-sized data slots and spare buffers carved from the arena. */
static uint8_t *slot(uint32_t index) {
  return buffer_arena + index * geometry.page_bytes;
}

static uint8_t *spare(uint32_t index) {
  return buffer_arena + BUFFER_ARENA_BYTES - (index + 1u) * geometry.oob_bytes;
}

static void fill(uint8_t *bytes, uint32_t length, uint8_t seed) {
  for (uint32_t i = 0; i < length; ++i) {
    bytes[i] = (uint8_t)(seed + i * 7u);
  }
}

static void expect_filled(const uint8_t *bytes, uint32_t length, uint8_t seed, const char *what) {
  for (uint32_t i = 0; i < length; ++i) {
    expect(bytes[i], (uint8_t)(seed + i * 7u), what);
  }
}

static void expect_all(const uint8_t *bytes, uint32_t length, uint8_t value, const char *what) {
  for (uint32_t i = 0; i < length; ++i) {
    expect(bytes[i], value, what);
  }
}

static uint32_t ppn(uint32_t plane, uint32_t block, uint32_t page) {
  nand_address_t address = {0, 0, 0, plane, block, page};
  return nand_ppn(&geometry, &address);
}

/* Submits one descriptor, sleeps until its completion arrives and returns it. */
static nfc_completion_t run(nfc_desc_t descriptor) {
  uint32_t expected = completion_count + 1u;
  nfc_submit(&descriptor);
  for (;;) {
    uint32_t saved = irq_save_disable();
    if (completion_count >= expected) {
      irq_restore(saved);
      break;
    }
    cpu_wait_for_interrupt();
    irq_restore(saved);
  }
  expect(completion_count, expected, "completions received");
  nfc_completion_t completion = completions[expected - 1u];
  expect(completion.id, descriptor.id, "completion id");
  return completion;
}

static nfc_completion_t erase(uint32_t block, uint32_t planes) {
  return run(nfc_erase_descriptor(next_id++, ppn(0, block, 0), planes));
}

/* A user tag for page `page` of plane `plane`. */
static data_tag_t tag_of(uint32_t plane, uint32_t page) {
  data_tag_t tag = {1000u + plane * 100u + page, 5u + plane};
  return tag;
}

/* Program io entries for wordline 0 of `planes` planes: user tags, each with spare bytes; with
 * `metadata`, the CMSB page of plane 0 (when the cell has one) is a metadata page. */
static void prepare_program(uint32_t planes, bool metadata) {
  uint32_t bits = geometry.bits_per_cell;
  for (uint32_t plane = 0; plane < planes; ++plane) {
    for (uint32_t page = 0; page < bits; ++page) {
      uint32_t entry = plane * bits + page;
      nfc_io_t *io = &io_list[entry];
      io->buffer = (uint32_t)(uintptr_t)slot(entry);
      io->oob = (uint32_t)(uintptr_t)spare(entry);
      io->meta_bytes = 0;
      io->reserved = 0;
      fill(spare(entry), geometry.oob_bytes, (uint8_t)(entry * 31u));
      if (metadata && plane == 0 && page == NAND_PAGE_CMSB) {
        fill(slot(entry), META_BYTES, 0x5Au);
        io->meta_bytes = META_BYTES;
      } else {
        data_tag_t tag = tag_of(plane, page);
        *(data_tag_t *)slot(entry) = tag;
      }
    }
  }
}

/* A block of die 0 whose erase on `planes` planes succeeds. */
static uint32_t erase_good_block(uint32_t first, uint32_t planes) {
  for (uint32_t block = first; block < first + BLOCKS_TRIED && block < geometry.blocks; ++block) {
    nfc_completion_t done = erase(block, planes);
    if (done.status == NFC_STATUS_OK) {
      return block;
    }
    expect(done.status, NFC_STATUS_BAD_BLOCK, "erase status");
  }
  fail("no good block to test on", 0, 1);
  return 0;
}

void fw_main(unsigned hart_id) {
  if (hart_id != 0) {
    for (;;) {
      cpu_wait_for_interrupt();
    }
  }
  expect(nfc_present(), 1, "NFC ID");
  check_number++;
  geometry = nfc_geometry();
  uint32_t bits = geometry.bits_per_cell;
  if (bits == 0 || bits > NAND_MAX_BITS_PER_CELL || geometry.pages % bits != 0 ||
      geometry.page_bytes < META_BYTES || geometry.oob_bytes > 1024u ||
      (MAX_IO + 3u) * geometry.page_bytes + (MAX_IO + 1u) * geometry.oob_bytes >
          BUFFER_ARENA_BYTES) {
    fail("geometry this test can use (bits per cell, page size)", geometry.page_bytes, 0);
  }
  nfc_start(descriptor_ring, RING_ENTRIES, completion_ring, RING_ENTRIES, on_completion, 0);
  irq_enable();

  /* An erased block reads the erased pattern. */
  check_number++;
  uint32_t block = erase_good_block(FIRST_BLOCK, 1);
  uint32_t probe = MAX_IO;
  data_tag_t zero = {0, 0};
  *(data_tag_t *)slot(probe) = zero;
  fill(spare(probe), geometry.oob_bytes, 0);
  io_list[0].buffer = (uint32_t)(uintptr_t)slot(probe);
  io_list[0].oob = (uint32_t)(uintptr_t)spare(probe);
  io_list[0].meta_bytes = 0;
  nfc_completion_t done = run(nfc_read_descriptor(next_id++, ppn(0, block, 0), 1, io_list));
  expect(done.status, NFC_STATUS_ERASED, "erased read status");
  expect(done.plane_mask, 1, "erased read plane mask");
  expect(((data_tag_t *)slot(probe))->lpn, DATA_TAG_ERASED_WORD, "erased tag lpn");
  expect(((data_tag_t *)slot(probe))->version, DATA_TAG_ERASED_WORD, "erased tag version");
  expect_all(spare(probe), geometry.oob_bytes, 0xFF, "erased spare byte");

  /* A full-sequence program of wordline 0. */
  check_number++;
  prepare_program(1, true);
  done = run(nfc_program_descriptor(next_id++, ppn(0, block, 0), 1, io_list));
  expect(done.status, NFC_STATUS_OK, "program status");

  /* Each page type reads back, the slower types taking longer. */
  uint32_t previous_latency = 0;
  for (uint32_t page = 0; page < bits; ++page) {
    check_number++;
    uint32_t meta = page == NAND_PAGE_CMSB ? META_BYTES : 0;
    fill(slot(probe), 16, 0);
    fill(spare(probe), geometry.oob_bytes, 0);
    io_list[0].buffer = (uint32_t)(uintptr_t)slot(probe);
    io_list[0].oob = (uint32_t)(uintptr_t)spare(probe);
    io_list[0].meta_bytes = meta;
    done = run(nfc_read_descriptor(next_id++, ppn(0, block, page), 1, io_list));
    expect(done.status, NFC_STATUS_OK, "read status");
    if (meta != 0) {
      expect_filled(slot(probe), META_BYTES, 0x5Au, "metadata byte");
    } else {
      expect(((data_tag_t *)slot(probe))->lpn, tag_of(0, page).lpn, "tag lpn");
      expect(((data_tag_t *)slot(probe))->version, tag_of(0, page).version, "tag version");
    }
    expect_filled(spare(probe), geometry.oob_bytes, (uint8_t)(page * 31u), "spare byte");
    if (done.latency_ns <= previous_latency) {
      fail("read latency not above the previous page type's", done.latency_ns, previous_latency);
    }
    previous_latency = done.latency_ns;
  }

  /* The spare area alone: the data slot stays as it was. */
  check_number++;
  data_tag_t sentinel = {0xABCDu, 0x1234u};
  *(data_tag_t *)slot(probe) = sentinel;
  io_list[0].buffer = 0;
  io_list[0].oob = (uint32_t)(uintptr_t)spare(probe);
  io_list[0].meta_bytes = 0;
  done = run(nfc_read_descriptor(next_id++, ppn(0, block, bits - 1u), 1, io_list));
  expect(done.status, NFC_STATUS_OK, "spare-only read status");
  expect_filled(spare(probe), geometry.oob_bytes, (uint8_t)((bits - 1u) * 31u), "spare-only byte");
  expect(((data_tag_t *)slot(probe))->lpn, sentinel.lpn, "slot untouched by a spare-only read");

  /* The next wordline is still erased. */
  check_number++;
  io_list[0].buffer = (uint32_t)(uintptr_t)slot(probe);
  done = run(nfc_read_descriptor(next_id++, ppn(0, block, bits), 1, io_list));
  expect(done.status, NFC_STATUS_ERASED, "read of the next wordline");

  /* Multi-plane erase, program and read on planes 0 and 1. */
  if (geometry.planes >= MAX_PLANES_USED) {
    check_number++;
    uint32_t pair = erase_good_block(block + 1u, MAX_PLANES_USED);
    prepare_program(MAX_PLANES_USED, false);
    done = run(nfc_program_descriptor(next_id++, ppn(0, pair, 0), MAX_PLANES_USED, io_list));
    expect(done.status, NFC_STATUS_OK, "multi-plane program status");
    check_number++;
    uint32_t page = bits - 1u;
    for (uint32_t plane = 0; plane < MAX_PLANES_USED; ++plane) {
      *(data_tag_t *)slot(probe + 1u + plane) = zero;
      io_list[plane].buffer = (uint32_t)(uintptr_t)slot(probe + 1u + plane);
      io_list[plane].oob = 0;
      io_list[plane].meta_bytes = 0;
    }
    done = run(nfc_read_descriptor(next_id++, ppn(0, pair, page), MAX_PLANES_USED, io_list));
    expect(done.status, NFC_STATUS_OK, "multi-plane read status");
    expect(done.plane_mask, 0, "multi-plane read plane mask");
    for (uint32_t plane = 0; plane < MAX_PLANES_USED; ++plane) {
      expect(((data_tag_t *)slot(probe + 1u + plane))->lpn, tag_of(plane, page).lpn,
             "multi-plane tag lpn");
    }
  }

  fw_printf("nfc_driver: %u checks passed on a %u-channel %s device\n", (unsigned)check_number,
            (unsigned)geometry.channels,
            bits == 4u ? "QLC" : bits == 3u ? "TLC" : bits == 2u ? "MLC" : "SLC");
  tohost = 1;
  for (;;) {
    cpu_wait_for_interrupt();
  }
}
