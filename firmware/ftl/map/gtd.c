#include "ftl/map/gtd.h"

#include "ftl/map/map.h"

bool gtd_init(gtd_t *gtd, uint32_t tp_count, arena_t *arena) {
  gtd->tp_count = tp_count;
  gtd->tp_vpn = (uint32_t *)arena_alloc(arena, "gtd", tp_count * (uint32_t)sizeof(uint32_t));
  if (gtd->tp_vpn == 0) {
    return false;
  }
  for (uint32_t tp = 0; tp < tp_count; ++tp) {
    gtd->tp_vpn[tp] = VPN_UNMAPPED;
  }
  return true;
}

uint32_t gtd_set(gtd_t *gtd, uint32_t tp, uint32_t vpn) {
  uint32_t old = gtd->tp_vpn[tp];
  gtd->tp_vpn[tp] = vpn;
  return old;
}
