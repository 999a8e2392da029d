/* In-place ascending sorts that allocate nothing (learned mapping schemes sort GC and flush
 * batches of (LPN, VPN) pairs by LPN). Introsort: quicksort with a median-of-three pivot,
 * heapsort for a range that partitions badly, insertion sort for short ranges. So the worst case
 * is O(n log n) comparisons, there is no recursion, and the pending ranges live in a fixed
 * array of a few hundred bytes on the caller's stack, whatever n is.
 *
 * None of the sorts is stable: elements with equal keys end up in an unspecified order (and
 * sort_pairs_u32 keeps every value with its key, not the values of equal keys in order). */
#ifndef SSDVP_FIRMWARE_LIB_SORT_H
#define SSDVP_FIRMWARE_LIB_SORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sorts keys[0, count). */
void sort_u32(uint32_t *keys, uint32_t count);

/* Sorts keys[0, count) and moves values[i] wherever keys[i] goes. */
void sort_pairs_u32(uint32_t *keys, uint32_t *values, uint32_t count);

/* Sorts `count` records of `size` bytes at `base` by `compare`, which returns <0, 0 or >0 as
 * qsort's does. Records are swapped byte by byte: for bare keys, sort_u32 is faster. */
void sort_records(void *base, uint32_t count, uint32_t size,
                  int (*compare)(const void *, const void *));

#ifdef __cplusplus
}
#endif

#endif
