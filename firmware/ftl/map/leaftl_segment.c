#include "ftl/map/leaftl_segment.h"

_Static_assert(sizeof(leaftl_segment_t) == 8, "a segment is 8 bytes, as the paper's");

uint32_t leaftl_segment_predict(const leaftl_segment_t *segment, uint32_t offset) {
  plr_segment_t learned = {.first_x = segment->start,
                           .last_x = offset,
                           .base = 0,
                           .intercept = segment->intercept,
                           .slope = segment->slope};
  return plr_predict(&learned, offset);
}

bool leaftl_segment_covers(const leaftl_segment_t *segment, uint32_t offset,
                           const leaftl_crb_t *crb) {
  if (offset < segment->start || offset > (uint32_t)segment->start + segment->length) {
    return false;
  }
  if (leaftl_segment_accurate(segment)) {
    return (offset - segment->start) % plr_stride(segment->slope) == 0;
  }
  return leaftl_crb_start_of(crb, offset) == (int32_t)segment->start;
}
