/* The one table of the FTL's mapping schemes and policies: for each, its kind, the boot-config
 * value that chooses it (enum boot_scheme, boot_gc_victim, boot_fsp_policy), its name (the
 * scenario's value, the same as interface/boot_config.h's *_NAMES list) and its functions.
 * ftl_init finds what the boot config names here; the host tests check the table against the
 * platform's names. A new scheme or policy is one row here (README "Adding a scheme or a policy"). */
#ifndef SSDVP_FIRMWARE_FTL_REGISTRY_H
#define SSDVP_FIRMWARE_FTL_REGISTRY_H

#include <stdint.h>

#include "ftl/fsp/grouping.h"
#include "ftl/gc/victim.h"
#include "ftl/map/map.h"

typedef enum registry_kind {
  REGISTRY_SCHEME = 0,
  REGISTRY_VICTIM = 1,
  REGISTRY_GROUPING = 2,
} registry_kind_t;

typedef struct registry_entry {
  uint32_t kind; /* registry_kind_t */
  uint32_t boot_id;
  const char *name;
  union {
    const map_scheme_t *scheme;
    const victim_policy_t *victim;
    const grouping_policy_t *grouping;
  } of;
} registry_entry_t;

extern const registry_entry_t ftl_registry[];
extern const uint32_t ftl_registry_size;

/* The entry of `kind` the boot config's value `boot_id` chooses, or NULL when this firmware has
 * none. */
const registry_entry_t *registry_find(registry_kind_t kind, uint32_t boot_id);

#endif
