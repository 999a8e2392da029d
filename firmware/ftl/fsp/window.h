/* The candidate window of the page-type-aware grouping policies (the QLC scheduling paper,
 * section III-A): the eligible dirty slots at the LRU end of the write buffer, oldest first,
 * ftl.fsp.window percent of the buffer's slots (at least one wordline's pages). */
#ifndef SSDVP_FIRMWARE_FTL_FSP_WINDOW_H
#define SSDVP_FIRMWARE_FTL_FSP_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "ftl/fsp/grouping.h"

typedef struct grouping_window {
  uint32_t *slots;  /* the candidates, oldest first */
  uint8_t *taken;   /* [candidate]: already placed in the wordline being formed */
  uint32_t capacity;
  uint32_t bits_per_cell; /* page types per program position (positions are plane-major) */
} grouping_window_t;

/* Sizes the window from ftl.fsp.window and the buffer, and takes its arrays from the arena;
 * false when they do not fit. */
bool grouping_window_init(grouping_window_t *window, const policy_env_t *env);

/* Collects the candidates (*found of them) and starts the choice. With fewer than a wordline's
 * `count` positions the choice is the baseline's, them in order with no filler between them
 * (the flush pads a partial wordline only when forced), and the answer is false: nothing is
 * left to choose. Otherwise every position is WB_NONE for the policy to place candidates in. */
bool grouping_window_start(grouping_window_t *window, const write_buffer_t *wb, uint32_t count,
                           grouping_choice_t *choice, uint32_t *found);

/* The first position among [0, count) of page type `type` (positions p % types) that is still
 * WB_NONE in `slots`, or WB_NONE. */
uint32_t grouping_free_position(const uint32_t *slots, uint32_t count, uint32_t type,
                                uint32_t types);

/* Fills the positions still WB_NONE among [0, count) with the oldest candidates not taken. */
void grouping_window_fill_rest(grouping_window_t *window, uint32_t count,
                               grouping_choice_t *choice);

#endif
