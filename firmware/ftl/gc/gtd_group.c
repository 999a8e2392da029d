#include "ftl/gc/gtd_group.h"

#include <stddef.h>
#include <string.h>

#include "ftl/gc/victim.h"
#include "lib/metrics.h"

gtd_groups_t gtd_groups;

/* gtd_groups.invalid of a group a choice has ruled out. */
#define GTD_GROUP_RULED_OUT 0xFFFFFFFFu

/* Groups at their stripe limit and not being collected: GC is due. */
static uint32_t groups_due;

uint32_t gtd_group_count(const boot_config_t *boot, uint32_t lpn_count, uint32_t entries_per_tp) {
  uint64_t lpns = (uint64_t)boot->ftl_gtd_group_tps * entries_per_tp;
  return (uint32_t)((lpn_count + lpns - 1u) / lpns);
}

/* Collecting a group frees stripes only while it holds more than its share. */
static bool over_share(uint32_t group) {
  return gtd_groups.stripes[group] > gtd_groups.share;
}

static bool at_limit(uint32_t group) {
  return gtd_groups.stripe_limit != 0 && gtd_groups.stripes[group] >= gtd_groups.stripe_limit &&
         over_share(group) && gtd_groups.collecting[group] == 0;
}

/* Runs `change` on a group's counts, keeping groups_due in step. */
#define GTD_GROUP_CHANGE(group, change)        \
  do {                                         \
    bool was_due = at_limit(group);            \
    change;                                    \
    groups_due += at_limit(group);             \
    groups_due -= was_due;                     \
  } while (0)

bool gtd_group_start(const policy_env_t *env) {
  if (gtd_groups.blocks == env->blocks && gtd_groups.count != 0 &&
      env->blocks->stream_count >= gtd_groups.first_stream + gtd_groups.count) {
    return true; /* the other gtd_group policy started them in this boot */
  }
  uint32_t entries_per_tp = env->entries_per_tp;
  const boot_config_t *boot = env->boot;
  gtd_groups.blocks = env->blocks;
  gtd_groups.tps = boot->ftl_gtd_group_tps;
  gtd_groups.lpns = boot->ftl_gtd_group_tps * entries_per_tp;
  gtd_groups.lpn_shift = 0xFFu;
  for (uint8_t shift = 0; shift < 32u; ++shift) {
    if ((1u << shift) == gtd_groups.lpns) {
      gtd_groups.lpn_shift = shift;
    }
  }
  gtd_groups.count = gtd_group_count(boot, env->lpn_count, entries_per_tp);
  gtd_groups.share = (gtd_groups.lpns + env->blocks->stripe_pages - 1u) / env->blocks->stripe_pages;
  gtd_groups.stripe_limit = boot->ftl_gtd_group_spare_stripes == 0
                                ? 0
                                : gtd_groups.share + boot->ftl_gtd_group_spare_stripes;
  gtd_groups.collections = 0;
  groups_due = 0;
  uint32_t table = gtd_groups.count * (uint32_t)sizeof(uint32_t);
  gtd_groups.stripes = (uint32_t *)policy_alloc_near(env, "gtd_group_stripes", table);
  gtd_groups.collecting = (uint32_t *)policy_alloc_near(env, "gtd_group_collecting", table);
  gtd_groups.invalid = (uint32_t *)policy_alloc_near(env, "gtd_group_scratch", table);
  if (gtd_groups.stripes == NULL || gtd_groups.collecting == NULL || gtd_groups.invalid == NULL) {
    return false;
  }
  memset(gtd_groups.stripes, 0, table);
  memset(gtd_groups.collecting, 0, table);
  memset(gtd_groups.invalid, 0, table);
  for (uint32_t group = 0; group < gtd_groups.count; ++group) {
    /* Too many for a gauge each: the policy counts them. */
    uint32_t stream = block_stream_add(env->blocks, NULL);
    if (stream == BLOCK_NONE) {
      return false;
    }
    if (group == 0) {
      gtd_groups.first_stream = stream;
    }
  }
  gtd_groups.stripe_collections = 0;
  gtd_groups.lone_fits = boot->ftl_gtd_group_lone_stripe == BOOT_GTD_LONE_FITS;
  metrics_counter("gtd_group.collections", &gtd_groups.collections);
  metrics_counter("gtd_group.stripe_collections", &gtd_groups.stripe_collections);
  return true;
}

static void gtd_group_hear(const policy_event_t *event) {
  uint32_t group = gtd_group_of_stream(event->stream);
  if (group == gtd_groups.count) {
    return;
  }
  if (event->kind == POLICY_STRIPE_OPENED) {
    GTD_GROUP_CHANGE(group, ++gtd_groups.stripes[group]);
  } else {
    GTD_GROUP_CHANGE(group, {
      --gtd_groups.stripes[group];
      gtd_groups.collecting[group] -= gtd_groups.collecting[group] != 0;
    });
  }
}

static const policy_listener_t gtd_group_listener = {
    POLICY_EVENT_BIT(POLICY_STRIPE_OPENED) | POLICY_EVENT_BIT(POLICY_STRIPE_ERASED),
    gtd_group_hear};

static bool gtd_group_victim_init(const policy_env_t *env) {
  return gtd_group_start(env);
}

static bool gtd_group_due(const block_manager_t *blocks) {
  (void)blocks;
  return groups_due != 0;
}

/* The group to collect: one at its stripe limit (the most stripes); else, of the groups holding
 * more stripes than their share, the one whose stripes hold the most invalid pages
 * (gtd_groups.invalid, filled by the caller); the lowest index among equals. A group within its
 * share is never collected: that would move its pages and free nothing (its slack stays its
 * own), as the authors' code collects only groups of two lines or more. gtd_groups.count when
 * no group qualifies. */
static uint32_t pick_group(void) {
  uint32_t best = gtd_groups.count;
  for (uint32_t group = 0; group < gtd_groups.count; ++group) {
    if (at_limit(group) && gtd_groups.invalid[group] != GTD_GROUP_RULED_OUT &&
        (best == gtd_groups.count || gtd_groups.stripes[group] > gtd_groups.stripes[best])) {
      best = group;
    }
  }
  if (best != gtd_groups.count) {
    return best;
  }
  for (uint32_t group = 0; group < gtd_groups.count; ++group) {
    /* Over its share it frees a stripe even with no invalid page (stripes closed early). */
    if (gtd_groups.collecting[group] == 0 && over_share(group) &&
        gtd_groups.invalid[group] != GTD_GROUP_RULED_OUT &&
        (best == gtd_groups.count || gtd_groups.invalid[group] > gtd_groups.invalid[best])) {
      best = group;
    }
  }
  return best;
}

/* The group's collectable stripes, the fewest valid pages first (the first must free a page). */
static uint32_t group_set(const block_manager_t *blocks, uint32_t stream,
                          victim_choice_t *choice) {
  uint32_t count = 0;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (blocks->stripes[stripe].stream != stream || !block_collectable(blocks, stripe)) {
      continue;
    }
    uint32_t valid = blocks->stripes[stripe].valid_pages;
    if (count == VICTIM_MAX_SET) {
      if (valid >= blocks->stripes[choice->stripes[count - 1u]].valid_pages) {
        continue;
      }
      --count; /* the set keeps the emptiest */
    }
    uint32_t at = count++;
    for (; at > 0 && blocks->stripes[choice->stripes[at - 1u]].valid_pages > valid; --at) {
      choice->stripes[at] = choice->stripes[at - 1u];
    }
    choice->stripes[at] = stripe;
  }
  return count;
}

/* The group's emptiest collectable stripe, when it may be collected alone
 * (ftl.gtd_group.lone_stripe): it holds no valid page, or, for "fits" (the authors' single-line
 * GC), the group's open stripe has room for its valid pages (and it frees a page); BLOCK_NONE
 * otherwise. The open stripe's pages still in flight count as room: they are the host's
 * rewrites of pages the victim holds (the authors' code is synchronous: none are in flight). */
static uint32_t lone_stripe(const block_manager_t *blocks, uint32_t stream) {
  uint32_t open = blocks->streams[stream].open_stripe;
  uint32_t room = 0;
  if (open != BLOCK_NONE && gtd_groups.lone_fits) {
    const block_stripe_t *filling = &blocks->stripes[open];
    room = blocks->stripe_pages - filling->programmed_pages + filling->unsettled_pages;
  }
  uint32_t victim = BLOCK_NONE;
  uint32_t victim_kept = blocks->stripe_pages;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    if (blocks->stripes[stripe].stream == stream && block_collectable(blocks, stripe)) {
      uint32_t kept = block_stripe_kept_pages(blocks, stripe);
      if (kept < victim_kept) {
        victim = stripe;
        victim_kept = kept;
      }
    }
  }
  return victim_kept <= room ? victim : BLOCK_NONE;
}

static bool gtd_group_select(const block_manager_t *blocks, victim_choice_t *choice) {
  memset(gtd_groups.invalid, 0, gtd_groups.count * sizeof(uint32_t));
  /* The best stripe of another stream, collected alone in VPN order. */
  uint32_t loner = BLOCK_NONE;
  uint32_t loner_invalid = 0;
  for (uint32_t stripe = 0; stripe < blocks->stripe_count; ++stripe) {
    const block_stripe_t *candidate = &blocks->stripes[stripe];
    if (candidate->state != BLOCK_FULL && candidate->state != BLOCK_OPEN) {
      continue;
    }
    uint32_t group = gtd_group_of_stream(candidate->stream);
    if (group != gtd_groups.count) {
      gtd_groups.invalid[group] += candidate->programmed_pages - candidate->valid_pages;
    } else if (block_collectable(blocks, stripe)) {
      uint32_t kept = block_stripe_kept_pages(blocks, stripe);
      if (kept < blocks->stripe_pages && blocks->stripe_pages - kept > loner_invalid) {
        loner = stripe;
        loner_invalid = blocks->stripe_pages - kept;
      }
    }
  }
  /* A group whose collectable stripes free nothing (its invalid pages are in stripes still
   * settling) is ruled out, and the next one tried. */
  for (uint32_t tries = 0; tries < gtd_groups.count; ++tries) {
    uint32_t group = pick_group();
    if (group == gtd_groups.count ||
        (!at_limit(group) && loner_invalid > gtd_groups.invalid[group])) {
      break;
    }
    uint32_t stream = gtd_groups.first_stream + group;
    uint32_t lone = at_limit(group) ? BLOCK_NONE : lone_stripe(blocks, stream);
    if (lone != BLOCK_NONE) {
      choice->stripes[0] = lone;
      choice->count = 1;
    } else {
      block_stream_close(gtd_groups.blocks, stream);
      choice->count = group_set(blocks, stream, choice);
    }
    if (choice->count != 0 &&
        block_stripe_kept_pages(blocks, choice->stripes[0]) < blocks->stripe_pages) {
      choice->stream = stream;
      choice->first_tp = group * gtd_groups.tps;
      choice->tp_count = gtd_groups.tps;
      GTD_GROUP_CHANGE(group, gtd_groups.collecting[group] = choice->count);
      if (lone != BLOCK_NONE) {
        ++gtd_groups.stripe_collections;
      } else {
        ++gtd_groups.collections;
      }
      return true;
    }
    gtd_groups.invalid[group] = GTD_GROUP_RULED_OUT;
  }
  if (loner == BLOCK_NONE) {
    return false;
  }
  choice->stripes[0] = loner;
  choice->count = 1;
  return true;
}

const victim_policy_t victim_policy_gtd_group = {"gtd_group", gtd_group_victim_init,
                                                 &gtd_group_listener, gtd_group_select,
                                                 gtd_group_due, true};
