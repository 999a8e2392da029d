/* Write-buffer grouping policies (full-sequence program): which dirty slots form the next
 * wordline, and in which page-type order. Chosen by the boot config's ftl_fsp_policy (enum
 * boot_fsp_policy); the QLC scheduling issue adds policies beside the baseline. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_GROUPING_H
#define SSDVP_FIRMWARE_FTL_FSP_GROUPING_H

#include <stdint.h>

#include "ftl/write_buffer.h"

typedef struct grouping_policy {
  const char *name;
  /* Writes up to `count` eligible dirty slots (wb_eligible) to slots[], in the page order of the
   * wordline(s) to program (LSB first; plane-major across planes), and answers how many (fewer
   * only when fewer are eligible). Changes nothing in the buffer. */
  uint32_t (*select)(const write_buffer_t *wb, uint32_t count, uint32_t *slots);
} grouping_policy_t;

extern const grouping_policy_t grouping_policy_baseline;

/* The policy a boot_fsp_policy value names (NULL when out of range). */
const grouping_policy_t *grouping_policy_for(uint32_t boot_fsp_policy);

#endif
