#include "ftl/map/leaftl_crb.h"

#include <string.h>

/* A run of the CRB: its bytes [begin, begin + length). */
typedef struct crb_run {
  uint16_t begin;
  uint16_t length;
} crb_run_t;

void leaftl_crb_init(leaftl_crb_t *crb, uint8_t *bytes, uint32_t capacity) {
  crb->bytes = bytes;
  crb->length = 0;
  crb->capacity = capacity;
}

/* Splits the bytes into runs; answers how many. */
static uint32_t split_runs(const leaftl_crb_t *crb, crb_run_t *runs) {
  uint32_t count = 0;
  uint32_t begin = 0;
  for (uint32_t i = 1; i <= crb->length; ++i) {
    if (i == crb->length || crb->bytes[i] == 0) {
      runs[count].begin = (uint16_t)begin;
      runs[count].length = (uint16_t)(i - begin);
      ++count;
      begin = i + 1u;
    }
  }
  return crb->length == 0 ? 0 : count;
}

int32_t leaftl_crb_start_of(const leaftl_crb_t *crb, uint32_t offset) {
  uint32_t start = 0;
  for (uint32_t i = 0; i < crb->length; ++i) {
    uint8_t byte = crb->bytes[i];
    if (i != 0 && byte == 0) {
      start = i + 1u; /* a separator: the next byte starts a run */
      continue;
    }
    if (byte == offset) {
      return crb->bytes[start];
    }
  }
  return -1;
}

uint32_t leaftl_crb_run(const leaftl_crb_t *crb, uint32_t start, uint8_t *offsets) {
  for (uint32_t i = 0; i < crb->length; ++i) {
    bool run_start = i == 0 || (i >= 2u && crb->bytes[i - 1u] == 0u); /* byte 0 may be offset 0 */
    if (!run_start || crb->bytes[i] != start) {
      continue;
    }
    uint32_t count = 0;
    while (i < crb->length && (count == 0 || crb->bytes[i] != 0)) {
      offsets[count++] = crb->bytes[i++];
    }
    return count;
  }
  return 0;
}

/* Rebuilds the CRB without the offsets in `drop` (a 256-bit set) and the run starting at
 * `drop_run` (-1: none), with `count` new offsets as a run of their own; runs in start order.
 * False, with nothing changed, when it does not fit. */
static bool rebuild(leaftl_crb_t *crb, const uint32_t drop[8], int32_t drop_run,
                    const uint8_t *offsets, uint32_t count) {
  /* Static, not on the stack (2 KiB): the FTL runs on one hart and never re-enters here. */
  static crb_run_t runs[LEAFTL_CRB_MAX_BYTES / 2u + 2u];
  static uint8_t kept[LEAFTL_CRB_MAX_BYTES + 1u];
  static uint8_t out[LEAFTL_CRB_MAX_BYTES + 1u];
  uint32_t run_count = split_runs(crb, runs);
  /* The kept offsets of each run, runs renumbered as they stay non-empty. */
  uint32_t kept_length = 0;
  uint32_t kept_runs = 0;
  for (uint32_t r = 0; r < run_count; ++r) {
    const uint8_t *run = &crb->bytes[runs[r].begin];
    if (drop_run >= 0 && run[0] == (uint32_t)drop_run) {
      continue;
    }
    uint32_t begin = kept_length;
    for (uint32_t i = 0; i < runs[r].length; ++i) {
      if ((drop[run[i] >> 5] >> (run[i] & 31u) & 1u) == 0) {
        kept[kept_length++] = run[i];
      }
    }
    if (kept_length != begin) {
      runs[kept_runs].begin = (uint16_t)begin;
      runs[kept_runs].length = (uint16_t)(kept_length - begin);
      ++kept_runs;
    }
  }
  if (count != 0) {
    runs[kept_runs].begin = (uint16_t)kept_length;
    runs[kept_runs].length = (uint16_t)count;
    memcpy(&kept[kept_length], offsets, count);
    kept_length += count;
    ++kept_runs;
  }
  uint32_t length = kept_runs == 0 ? 0 : kept_length + kept_runs - 1u;
  if (length > crb->capacity) {
    return false;
  }
  /* Emitted in start order: the smallest start not yet emitted, each time (few runs). */
  uint32_t written = 0;
  for (uint32_t emitted = 0; emitted < kept_runs; ++emitted) {
    uint32_t best = emitted;
    for (uint32_t r = emitted + 1u; r < kept_runs; ++r) {
      if (kept[runs[r].begin] < kept[runs[best].begin]) {
        best = r;
      }
    }
    crb_run_t chosen = runs[best];
    runs[best] = runs[emitted];
    runs[emitted] = chosen;
    if (emitted != 0) {
      out[written++] = 0;
    }
    memcpy(&out[written], &kept[chosen.begin], chosen.length);
    written += chosen.length;
  }
  memcpy(crb->bytes, out, written);
  crb->length = written;
  return true;
}

bool leaftl_crb_insert(leaftl_crb_t *crb, const uint8_t *offsets, uint32_t count) {
  uint32_t drop[8] = {0};
  for (uint32_t i = 0; i < count; ++i) {
    drop[offsets[i] >> 5] |= 1u << (offsets[i] & 31u);
  }
  return rebuild(crb, drop, -1, offsets, count);
}

void leaftl_crb_erase(leaftl_crb_t *crb, uint32_t offset) {
  uint32_t drop[8] = {0};
  drop[(offset & 255u) >> 5] |= 1u << (offset & 31u);
  rebuild(crb, drop, -1, 0, 0); /* never longer: always fits */
}

void leaftl_crb_remove_run(leaftl_crb_t *crb, uint32_t start) {
  uint32_t drop[8] = {0};
  rebuild(crb, drop, (int32_t)start, 0, 0);
}
