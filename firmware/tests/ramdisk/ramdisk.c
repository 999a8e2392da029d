/* The RAM disk of the test firmwares (ramdisk.h). */
#include <stdbool.h>
#include <stdint.h>

#include "data_tag.h"
#include "hal/console.h"
#include "hal/csr.h"
#include "hal/hic.h"
#include "hal/irq.h"
#include "hal/system.h"
#include "memory_map.h"
#include "tests/ramdisk/ramdisk.h"

#define RAMDISK_SLOTS 64u
#define RAMDISK_MAX_COMMANDS 256u
#define EVENT_RING_ENTRIES 256u
#define REQUEST_RING_ENTRIES 256u
#define NONE UINT32_MAX

/* Exit codes of a platform this firmware cannot serve. */
#define RAMDISK_EXIT_NO_HIC 16
#define RAMDISK_EXIT_TOO_MANY_COMMANDS 17
#define RAMDISK_EXIT_NO_MEMORY 18

struct command {
  uint8_t op;
  uint32_t lpn;
  uint32_t pages;
  uint32_t next_page;    /* next page to ask a transfer for */
  uint32_t pages_done;   /* transfers finished */
  uint32_t next_waiting; /* next command waiting for slots, or NONE */
};

static hic_event_t event_ring[EVENT_RING_ENTRIES] __attribute__((aligned(HIC_EVENT_BYTES)));
static hic_request_t request_ring[REQUEST_RING_ENTRIES]
    __attribute__((aligned(HIC_REQUEST_BYTES)));

static struct command commands[RAMDISK_MAX_COMMANDS];
static uint32_t waiting_head = NONE;
static uint32_t waiting_tail = NONE;

static volatile uint32_t *versions; /* the table, indexed by LPN */
static uintptr_t slot_base;
static uint32_t page_bytes;
static uint32_t free_slots[RAMDISK_SLOTS];
static uint32_t free_slot_count;
static hic_geometry_t geometry;

static uintptr_t slot_address(uint32_t slot) {
  return slot_base + (uintptr_t)slot * page_bytes;
}

static void release_slot(uintptr_t buffer) {
  free_slots[free_slot_count++] = (uint32_t)((buffer - slot_base) / page_bytes);
}

static uint32_t stored_version(uint32_t lpn) {
  uint32_t version = versions[lpn];
#ifdef RAMDISK_STALE_LPN
  if (lpn == RAMDISK_STALE_LPN && version != DATA_TAG_VERSION_NONE) {
    version -= 1u;
  }
#endif
  return version;
}

static void wait_for_slots(uint32_t cmd_id) {
  commands[cmd_id].next_waiting = NONE;
  if (waiting_tail == NONE) {
    waiting_head = cmd_id;
  } else {
    commands[waiting_tail].next_waiting = cmd_id;
  }
  waiting_tail = cmd_id;
}

/* Gives free slots to the waiting commands, oldest first, one page each. */
static void start_transfers(void) {
  while (waiting_head != NONE && free_slot_count != 0) {
    uint32_t cmd_id = waiting_head;
    struct command *command = &commands[cmd_id];
    uint32_t page = command->next_page++;
    uintptr_t buffer = slot_address(free_slots[--free_slot_count]);
    if (command->op == HIC_OP_WRITE) {
      hic_data_in(cmd_id, page, buffer);
    } else {
      uint32_t lpn = command->lpn + page;
      uint32_t version = stored_version(lpn);
      volatile data_tag_t *tag = (volatile data_tag_t *)buffer;
      tag->lpn = version == DATA_TAG_VERSION_NONE ? 0u : lpn;
      tag->version = version;
      hic_data_out(cmd_id, page, buffer);
    }
    if (command->next_page == command->pages) {
      waiting_head = command->next_waiting;
      if (waiting_head == NONE) {
        waiting_tail = NONE;
      }
    }
  }
}

static void trim(const hic_event_t *event) {
  uint32_t first = event->lpn;
  uint32_t end = event->lpn + event->pages;
  if ((event->flags & HIC_CMD_PARTIAL_FIRST) != 0) {
    first += 1u;
  }
  if ((event->flags & HIC_CMD_PARTIAL_LAST) != 0 && end > first) {
    end -= 1u;
  }
  for (uint32_t lpn = first; lpn < end; ++lpn) {
    versions[lpn] = DATA_TAG_VERSION_NONE;
  }
}

static void new_command(const hic_event_t *event) {
  uint32_t cmd_id = event->cmd_id;
  bool in_range = event->lpn < geometry.lpn_count &&
                  event->pages <= geometry.lpn_count - event->lpn;
  if (event->op == HIC_OP_FLUSH) {
    hic_complete(cmd_id, HIC_STATUS_OK);
  } else if (!in_range) {
    hic_complete(cmd_id, HIC_STATUS_INVALID);
  } else if (event->op == HIC_OP_TRIM) {
    trim(event);
    hic_complete(cmd_id, HIC_STATUS_OK);
  } else {
    struct command *command = &commands[cmd_id];
    command->op = event->op;
    command->lpn = event->lpn;
    command->pages = event->pages;
    command->next_page = 0;
    command->pages_done = 0;
    wait_for_slots(cmd_id);
  }
}

static void transfer_done(const hic_event_t *event) {
  struct command *command = &commands[event->cmd_id];
  if (command->op == HIC_OP_WRITE) {
    const volatile data_tag_t *tag = (const volatile data_tag_t *)(uintptr_t)event->buffer;
    versions[event->lpn] = tag->version;
  }
  release_slot(event->buffer);
  if (++command->pages_done == command->pages) {
    hic_complete(event->cmd_id, HIC_STATUS_OK);
  }
}

/* Claims DRAM for the table and the slots; stops the run when it is too small. */
static void place_storage(const boot_config_t *config) {
  uint64_t table_bytes = (uint64_t)geometry.lpn_count * sizeof(uint32_t);
  uint64_t slots_offset = (table_bytes + page_bytes - 1u) / page_bytes * page_bytes;
  uint64_t needed = slots_offset + (uint64_t)RAMDISK_SLOTS * page_bytes;
  if (config->dram_size < needed) {
    fw_printf("ramdisk: %u LPNs and %u slots of %u B need %u KiB of DRAM, the platform has %u "
              "KiB (dram.size)\n",
              (unsigned)geometry.lpn_count, RAMDISK_SLOTS, (unsigned)page_bytes,
              (unsigned)((needed + 1023u) / 1024u), (unsigned)(config->dram_size / 1024u));
    system_exit(RAMDISK_EXIT_NO_MEMORY);
  }
  versions = (volatile uint32_t *)MM_DRAM_BASE;
  for (uint32_t lpn = 0; lpn < geometry.lpn_count; ++lpn) {
    versions[lpn] = DATA_TAG_VERSION_NONE;
  }
  slot_base = MM_DRAM_BASE + (uintptr_t)slots_offset;
  for (uint32_t slot = 0; slot < RAMDISK_SLOTS; ++slot) {
    free_slots[slot] = slot;
  }
  free_slot_count = RAMDISK_SLOTS;
}

void ramdisk_start(const boot_config_t *config) {
  if (!hic_present()) {
    fw_printf("ramdisk: no host interface controller at %#x\n", (unsigned)MM_HIC_BASE);
    system_exit(RAMDISK_EXIT_NO_HIC);
  }
  geometry = hic_geometry();
  page_bytes = geometry.page_bytes;
  if (geometry.max_commands > RAMDISK_MAX_COMMANDS) {
    fw_printf("ramdisk: the HIC has %u command slots, this firmware serves up to %u "
              "(host.max_commands)\n",
              (unsigned)geometry.max_commands, RAMDISK_MAX_COMMANDS);
    system_exit(RAMDISK_EXIT_TOO_MANY_COMMANDS);
  }
  place_storage(config);
  fw_printf("ramdisk: %u LPNs of %u B, %u buffer slots\n", (unsigned)geometry.lpn_count,
            (unsigned)page_bytes, RAMDISK_SLOTS);
  hic_start(event_ring, EVENT_RING_ENTRIES, request_ring, REQUEST_RING_ENTRIES);
}

uint32_t ramdisk_serve(void) {
  uint32_t served = 0;
  hic_event_t event;
  while (hic_next_event(&event)) {
    if (event.kind == HIC_EVENT_COMMAND) {
      new_command(&event);
    } else {
      transfer_done(&event);
    }
    start_transfers();
    served += 1u;
  }
  return served;
}

void ramdisk_idle(void) {
  uint32_t saved = irq_save_disable();
  if (!hic_event_waiting()) {
    cpu_wait_for_interrupt();
  }
  irq_restore(saved);
}
