/* A LeaFTL index segment in its 8 bytes (Sun et al., ASPLOS 2023, section 3.2): the offset of
 * its first LPN in the 256-LPN group, its length (last offset - first), the binary16 slope whose
 * lowest bit marks an approximate segment, and the intercept, the VPN predicted at the group's
 * first LPN (ml/plr.h), so trimming the segment's start leaves its predictions as they were. An accurate segment covers the offsets from its first on its slope's stride; an
 * approximate one those its run in the group's CRB lists (ftl/map/leaftl_crb.h). */
#ifndef SSDVP_FIRMWARE_FTL_MAP_LEAFTL_SEGMENT_H
#define SSDVP_FIRMWARE_FTL_MAP_LEAFTL_SEGMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/map/leaftl_crb.h"
#include "ml/plr.h"

#define LEAFTL_GROUP_LPNS 256u

typedef struct leaftl_segment {
  uint8_t start;  /* offset of the first LPN in the group */
  uint8_t length; /* last offset - start */
  uint16_t slope; /* binary16; PLR_APPROXIMATE in its lowest bit */
  uint32_t intercept;
} leaftl_segment_t;

/* The segment PLR learned within the group whose first LPN is `base` (as plr_learn makes them). */
static inline leaftl_segment_t leaftl_segment_of(const plr_segment_t *learned, uint32_t base) {
  leaftl_segment_t segment = {(uint8_t)(learned->first_x - base),
                              (uint8_t)(learned->last_x - learned->first_x), learned->slope,
                              learned->intercept};
  return segment;
}

static inline bool leaftl_segment_accurate(const leaftl_segment_t *segment) {
  return (segment->slope & PLR_APPROXIMATE) == 0;
}

/* The VPN it predicts for `offset` (start <= offset). */
uint32_t leaftl_segment_predict(const leaftl_segment_t *segment, uint32_t offset);

/* Whether it indexes `offset`: in its range and on its stride (accurate), or in its run of the
 * group's CRB (approximate). */
bool leaftl_segment_covers(const leaftl_segment_t *segment, uint32_t offset,
                           const leaftl_crb_t *crb);

#endif
