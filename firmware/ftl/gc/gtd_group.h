/* Group-based allocation (LearnedFTL: S. Wang, Z. Lin, S. Wu, H. Jiang, J. Zhang, B. Mao,
 * HPCA 2024, section 3.3.1): consecutive GTD entries (ftl.gtd_group.tps translation pages) form
 * a group, and each group writes to a placement stream of its own, so that no stripe holds two
 * groups' LPNs and GC can rewrite a whole group in LPN order (section 3.3.3).
 *
 * - Host data: the grouping policy gtd_group forms each wordline from the buffered pages of one
 *   group, the first to have a whole wordline's eligible pages (else the most), to its stream. A
 *   group whose collection runs takes no host programs, so the pages GC rewrites stay
 *   contiguous (the authors' code collects synchronously).
 * - GC: the victim policy gtd_group collects a whole group. First a group holding
 *   ftl.gtd_group.spare_stripes stripes beyond its share (the stripes its LPNs fill; the
 *   authors' code: 5 lines for a group of one line); else, when the pools are low, of the groups
 *   holding more than their share, the one whose stripes hold the most invalid pages (the paper;
 *   the authors' code takes the oldest full line of a group with two lines or more). The group's
 *   open stripe is closed (every block of the group is collected, as in the paper's Figure 9),
 *   and its stripes are moved in LPN order to the group's stream: fresh stripes, which the
 *   group's host data then continues. When the pools are low (the group not at its limit), a
 *   stripe of the group may be collected alone, in LPN order too, into the group's open stripe
 *   (ftl.gtd_group.lone_stripe): one the host has wholly rewritten (sequential writes), which
 *   moves nothing; or, as the authors' code does where the paper says whole groups, the emptiest
 *   whenever the open stripe has room for its valid pages (its TPs are then trained on those and
 *   on the mappings their models gave exactly). A stripe of another stream (translation pages, GC's
 *   wear-levelling and rescue relocations) holding more invalid pages than the chosen group is
 *   collected alone, in VPN order.
 *
 * Collecting all of a group's stripes into its stream needs at most as many fresh stripes as
 * its LPNs fill (its share), so a group holding more than its share frees one whatever its
 * pages; one within its share frees none, and is not collected. Once the pools run dry some
 * group holds more than its share as long as the stripes outside the reserve and the other
 * streams outnumber the groups' shares and the TPs' (the boot check, ftl.c), and collecting it
 * fits in the reserve when that exceeds a share (checked there too). The two policies share the
 * groups below; whichever starts first adds the streams. */
#ifndef SSDVP_FIRMWARE_FTL_GC_GTD_GROUP_H
#define SSDVP_FIRMWARE_FTL_GC_GTD_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/policy.h"

typedef struct gtd_groups {
  block_manager_t *blocks;
  uint32_t count;
  uint32_t lpns;         /* per group */
  uint8_t lpn_shift;     /* log2 of lpns, or 0xFF: every buffered page asks its group */
  uint32_t tps;          /* per group */
  uint32_t first_stream; /* group g writes to stream first_stream + g */
  uint32_t share;        /* stripes a group's LPNs fill */
  uint32_t stripe_limit; /* share + ftl.gtd_group.spare_stripes; 0: none */
  bool lone_fits;        /* ftl.gtd_group.lone_stripe fits */
  uint32_t *stripes;     /* [g]: stripes its stream holds (open, full or being collected) */
  uint32_t *collecting;  /* [g]: stripes of its victim set not yet erased */
  uint32_t *invalid;     /* [g]: scratch of the victim choice */
  uint64_t collections;  /* victim sets of whole groups */
  uint64_t stripe_collections; /* victim sets of one stripe into its group's open stripe */
} gtd_groups_t;

extern gtd_groups_t gtd_groups;

/* The groups a device with lpn_count LPNs has (ftl.gtd_group.tps translation pages each). */
uint32_t gtd_group_count(const boot_config_t *boot, uint32_t lpn_count, uint32_t entries_per_tp);

/* Adds the groups' streams and takes their tables, once per boot; false when they do not fit. */
bool gtd_group_start(const policy_env_t *env);

static inline uint32_t gtd_group_of_lpn(uint32_t lpn) {
  return block_divide(lpn, gtd_groups.lpns, gtd_groups.lpn_shift);
}

/* The group whose stream is `stream`, or gtd_groups.count for any other stream. */
static inline uint32_t gtd_group_of_stream(uint32_t stream) {
  uint32_t group = stream - gtd_groups.first_stream;
  return stream >= gtd_groups.first_stream && group < gtd_groups.count ? group
                                                                        : gtd_groups.count;
}

#endif
