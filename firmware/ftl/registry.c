#include "ftl/registry.h"

#include "boot_config.h"

const registry_entry_t ftl_registry[] = {
    {REGISTRY_SCHEME, BOOT_SCHEME_IDEAL, "ideal", {.scheme = &map_scheme_ideal}},
    {REGISTRY_SCHEME, BOOT_SCHEME_DFTL, "dftl", {.scheme = &map_scheme_dftl}},
    {REGISTRY_SCHEME, BOOT_SCHEME_TPFTL, "tpftl", {.scheme = &map_scheme_tpftl}},
    {REGISTRY_SCHEME, BOOT_SCHEME_SFTL, "sftl", {.scheme = &map_scheme_sftl}},
    {REGISTRY_SCHEME, BOOT_SCHEME_LEAFTL, "leaftl", {.scheme = &map_scheme_leaftl}},
    {REGISTRY_SCHEME, BOOT_SCHEME_LEARNEDFTL, "learnedftl", {.scheme = &map_scheme_learnedftl}},
    {REGISTRY_SCHEME, BOOT_SCHEME_RQFTL, "rqftl", {.scheme = &map_scheme_rqftl}},
    {REGISTRY_VICTIM, BOOT_GC_VICTIM_GREEDY, "greedy", {.victim = &victim_policy_greedy}},
    {REGISTRY_VICTIM, BOOT_GC_VICTIM_2R_GREEDY, "2r_greedy", {.victim = &victim_policy_2r_greedy}},
    {REGISTRY_VICTIM, BOOT_GC_VICTIM_2R_FIFO, "2r_fifo", {.victim = &victim_policy_2r_fifo}},
    {REGISTRY_VICTIM, BOOT_GC_VICTIM_COST_BENEFIT, "cost_benefit",
     {.victim = &victim_policy_cost_benefit}},
    {REGISTRY_VICTIM, BOOT_GC_VICTIM_GTD_GROUP, "gtd_group", {.victim = &victim_policy_gtd_group}},
    {REGISTRY_GROUPING, BOOT_FSP_BASELINE, "baseline", {.grouping = &grouping_policy_baseline}},
    {REGISTRY_GROUPING, BOOT_FSP_FREQUENCY, "frequency",
     {.grouping = &grouping_policy_frequency}},
    {REGISTRY_GROUPING, BOOT_FSP_DISTANCE, "distance", {.grouping = &grouping_policy_distance}},
    {REGISTRY_GROUPING, BOOT_FSP_RL, "rl", {.grouping = &grouping_policy_rl}},
    {REGISTRY_GROUPING, BOOT_FSP_SORTED, "sorted", {.grouping = &grouping_policy_sorted}},
    {REGISTRY_GROUPING, BOOT_FSP_GTD_GROUP, "gtd_group",
     {.grouping = &grouping_policy_gtd_group}},
};

const uint32_t ftl_registry_size = sizeof ftl_registry / sizeof ftl_registry[0];

const registry_entry_t *registry_find(registry_kind_t kind, uint32_t boot_id) {
  for (uint32_t i = 0; i < ftl_registry_size; ++i) {
    if (ftl_registry[i].kind == kind && ftl_registry[i].boot_id == boot_id) {
      return &ftl_registry[i];
    }
  }
  return 0;
}
