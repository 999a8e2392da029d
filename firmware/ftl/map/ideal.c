/* ideal: the whole mapping table in memory (lpn_count x 4 bytes). It never misses and never
 * writes a translation page; init fails when the budget cannot hold the table. */
#include "ftl/map/map.h"
#include "ftl/map/scheme_common.h"

static struct {
  uint32_t *table;
  uint32_t lpn_count;
  map_counters_t counters;
} ideal;

static bool ideal_init(const map_env_t *env, arena_t *arena, uint32_t budget_bytes) {
  scheme_budget_t budget = {arena, budget_bytes, 0};
  ideal.counters = (map_counters_t){0};
  ideal.lpn_count = env->lpn_count;
  if (env->lpn_count > UINT32_MAX / sizeof(uint32_t)) {
    return false;
  }
  ideal.table = scheme_alloc(&budget, "map.ideal.table", env->lpn_count * sizeof(uint32_t));
  if (!ideal.table) {
    return false;
  }
  for (uint32_t lpn = 0; lpn < env->lpn_count; lpn++) {
    ideal.table[lpn] = VPN_UNMAPPED;
  }
  ideal.counters.table_bytes = env->lpn_count * (uint32_t)sizeof(uint32_t);
  ideal.counters.translatable_lpns = env->lpn_count;
  return true;
}

static map_answer_t ideal_lookup(uint32_t lpn, const map_request_t *request, uint32_t *value) {
  (void)request;
  ideal.counters.lookups++;
  ideal.counters.hits++;
  *value = ideal.table[lpn];
  return MAP_HIT;
}

static map_answer_t ideal_update(uint32_t lpn, uint32_t vpn, uint32_t *value) {
  ideal.counters.updates++;
  *value = ideal.table[lpn];
  ideal.table[lpn] = vpn;
  return MAP_HIT;
}

/* Never asked for: ideal answers every lookup from memory. */
static void ideal_tp_loaded(uint32_t tp, const uint32_t *entries, const uint32_t *wanted,
                            const map_request_t *const *requests, uint32_t wanted_count) {
  (void)tp;
  (void)entries;
  (void)wanted;
  (void)requests;
  (void)wanted_count;
}

static void ideal_restore(uint32_t first_lpn, uint32_t count, const uint32_t *vpns) {
  for (uint32_t i = 0; i < count; ++i) {
    ideal.table[first_lpn + i] = vpns[i];
  }
}

/* The table is the only copy and is never written to flash. */
static bool ideal_flush(void) { return true; }

static const map_counters_t *ideal_counters(void) { return &ideal.counters; }

const map_scheme_t map_scheme_ideal = {
    .name = "ideal",
    .recovery = MAP_RECOVERY_TABLE,
    .restore = ideal_restore,
    .init = ideal_init,
    .lookup = ideal_lookup,
    .update = ideal_update,
    .tp_loaded = ideal_tp_loaded,
    .mispredicted = 0,
    .flush = ideal_flush,
    .counters = ideal_counters,
};
