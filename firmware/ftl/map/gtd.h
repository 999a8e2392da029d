/* The global translation directory: where each translation page (TP) lives in flash, in SRAM.
 * VPN_UNMAPPED for a TP never written (all its LPNs unmapped). */
#ifndef SSDVP_FIRMWARE_FTL_MAP_GTD_H
#define SSDVP_FIRMWARE_FTL_MAP_GTD_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"

typedef struct gtd {
  uint32_t *tp_vpn;
  uint32_t tp_count;
} gtd_t;

/* 4 bytes per TP from the arena, under "gtd"; false when they do not fit. */
bool gtd_init(gtd_t *gtd, uint32_t tp_count, arena_t *arena);

static inline uint32_t gtd_get(const gtd_t *gtd, uint32_t tp) { return gtd->tp_vpn[tp]; }

/* Records the TP's new location and answers the old one (VPN_UNMAPPED if none), which the
 * caller invalidates. */
uint32_t gtd_set(gtd_t *gtd, uint32_t tp, uint32_t vpn);

#endif
