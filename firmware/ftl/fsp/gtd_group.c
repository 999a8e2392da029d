/* Group-based allocation's host side (ftl/gc/gtd_group.h): each wordline takes the buffered
 * pages of one GTD-entry group, to that group's stream: the first group, looking from the oldest
 * page, to have a whole wordline's eligible pages, so that wordlines leave whole where they can,
 * or, when none has, the one with the most (the first to reach that many); a group being
 * collected waits. Its pages go oldest first. The look stops at the first whole wordline: with
 * one page a program, at the oldest page. */
#include "ftl/fsp/grouping.h"
#include "ftl/gc/gtd_group.h"

static bool gtd_group_grouping_init(const policy_env_t *env) { return gtd_group_start(env); }

/* The eligible slot at `node` or after it, towards the most recent, of `group`
 * (gtd_groups.count: of any group not being collected); NULL at the list's end. */
static const list_node_t *next_candidate(const write_buffer_t *wb, const list_node_t *node,
                                         uint32_t group) {
  for (; node != &wb->dirty_lru; node = node->prev) {
    const wb_slot_t *slot = LIST_ENTRY(node, wb_slot_t, link);
    if (!wb_eligible(wb, (uint32_t)(slot - wb->slots))) {
      continue;
    }
    uint32_t of = gtd_group_of_lpn(slot->lpn);
    if (group == gtd_groups.count ? gtd_groups.collecting[of] == 0 : of == group) {
      return node;
    }
  }
  return NULL;
}

static uint32_t gtd_group_select(const write_buffer_t *wb, uint32_t count,
                                 grouping_choice_t *choice) {
  /* Counts per group in the shared scratch (the victim policy's, free between its choices),
   * oldest first, until a group has a whole wordline: the first to reach the most wins. */
  uint32_t *eligible = gtd_groups.invalid;
  uint32_t best = gtd_groups.count;
  uint32_t most = 0;
  const list_node_t *stop = NULL; /* the first candidate not counted */
  for (const list_node_t *node = next_candidate(wb, wb->dirty_lru.prev, gtd_groups.count);
       node != NULL; node = next_candidate(wb, node->prev, gtd_groups.count)) {
    uint32_t group = gtd_group_of_lpn(LIST_ENTRY(node, wb_slot_t, link)->lpn);
    if (++eligible[group] > most) {
      best = group;
      most = eligible[group];
      if (most == count) {
        stop = next_candidate(wb, node->prev, gtd_groups.count);
        break;
      }
    }
  }
  /* The counted candidates again: the counts back to zero, the winner's slots taken. */
  uint32_t picked = 0;
  for (const list_node_t *node = next_candidate(wb, wb->dirty_lru.prev, gtd_groups.count);
       node != stop; node = next_candidate(wb, node->prev, gtd_groups.count)) {
    const wb_slot_t *slot = LIST_ENTRY(node, wb_slot_t, link);
    uint32_t group = gtd_group_of_lpn(slot->lpn);
    eligible[group] = 0;
    if (group == best && picked < count) {
      choice->slots[picked++] = (uint32_t)(slot - wb->slots);
    }
  }
  choice->positions = picked;
  if (best != gtd_groups.count) {
    choice->stream = gtd_groups.first_stream + best;
  }
  return picked;
}

const grouping_policy_t grouping_policy_gtd_group = {"gtd_group", gtd_group_grouping_init, 0,
                                                     gtd_group_select, 0, 0};
