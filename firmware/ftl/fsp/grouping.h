/* Write-buffer grouping policies (full-sequence program): which dirty slots form the next
 * wordline, in which page-type order, and to which placement stream it goes. Chosen by the boot
 * config's ftl_fsp_policy through the registry (ftl/registry.h); a policy may keep state and
 * hear events (ftl/policy.h). The QLC scheduling issue adds policies beside the baseline. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_GROUPING_H
#define SSDVP_FIRMWARE_FTL_FSP_GROUPING_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/policy.h"
#include "ftl/write_buffer.h"

/* Pages one program writes (bits per cell x planes) at most. */
#define GROUPING_MAX_PAGES 64u

/* A wordline a policy formed. */
typedef struct grouping_choice {
  /* Positions [0, positions) of the program in page order (LSB first, plane-major across
   * planes): an eligible dirty slot (wb_eligible), or WB_NONE for a filler page there (a policy
   * may keep a page type free of data). Positions past `positions` are padded at a forced
   * flush. */
  uint32_t slots[GROUPING_MAX_PAGES];
  uint32_t positions;
  uint32_t stream; /* block_stream_t; the flush sets BLOCK_STREAM_HOST before asking */
} grouping_choice_t;

typedef struct grouping_policy {
  const char *name;
  /* Takes its memory and options, may add streams; NULL for a stateless policy. False when it
   * does not fit. */
  bool (*init)(const policy_env_t *env);
  const policy_listener_t *listener; /* the events it hears, or NULL */
  /* Forms a wordline of up to `count` positions from the buffer and answers how many slots it
   * holds (filler positions not counted; fewer than `count` only when fewer are eligible or
   * the policy substitutes fillers). Changes nothing in the buffer. */
  uint32_t (*select)(const write_buffer_t *wb, uint32_t count, grouping_choice_t *choice);
  /* The choice `select` made last is being programmed, its slots still in the buffer (NULL:
   * the policy keeps no record of what it wrote). */
  void (*committed)(const write_buffer_t *wb, const grouping_choice_t *choice);
  /* A host read of `lpn` from a page of `page_type` is being issued: whether its data should
   * come back into the buffer as a rewrite (hot data on a slow page; the paper's rewrite
   * module), judged on what the policy knew before this read. The rewrite enters the buffer
   * dirty at the eviction end, and a wordline is formed at once (ftl/buffer_flush.h). NULL:
   * the policy never rewrites. */
  bool (*rewrite_wanted)(uint32_t lpn, uint32_t page_type);
} grouping_policy_t;

extern const grouping_policy_t grouping_policy_baseline;
extern const grouping_policy_t grouping_policy_frequency;
extern const grouping_policy_t grouping_policy_distance;
extern const grouping_policy_t grouping_policy_rl;
extern const grouping_policy_t grouping_policy_sorted;
extern const grouping_policy_t grouping_policy_gtd_group;

#endif
