#include "lib/sort.h"

#include <stdbool.h>
#include <stddef.h>

/* Ranges this short are insertion-sorted: fewer comparisons and swaps than partitioning. */
#define SORT_SHORT_RANGE 16u

/* Pending ranges: the larger side of each partition waits here while the smaller one is sorted
 * first, so the range in hand at least halves with every entry pushed. With k entries pending it
 * holds at most count / 2^k elements, and only one of more than SORT_SHORT_RANGE elements pushes:
 * at most log2(2^32 / 16) = 28 entries. */
#define SORT_STACK_DEPTH 32u

/* One algorithm for the three entry points: either uint32_t keys (with values moved alongside
 * when `values` is set) or records under `compare`. The branches on the kind are the same at
 * every call, so they cost little next to duplicating the algorithm per element type. */
typedef struct sort_view {
  uint32_t *keys;
  uint32_t *values;
  uint8_t *records;
  uint32_t size;
  int (*compare)(const void *, const void *);
} sort_view_t;

typedef struct sort_range {
  uint32_t lo; /* [lo, hi) */
  uint32_t hi;
  uint32_t depth; /* partitions left before the range falls back to heapsort */
} sort_range_t;

static inline bool less(const sort_view_t *view, uint32_t i, uint32_t j) {
  if (view->compare == NULL) {
    return view->keys[i] < view->keys[j];
  }
  return view->compare(view->records + (size_t)i * view->size,
                       view->records + (size_t)j * view->size) < 0;
}

static inline void swap(const sort_view_t *view, uint32_t i, uint32_t j) {
  if (view->compare == NULL) {
    uint32_t key = view->keys[i];
    view->keys[i] = view->keys[j];
    view->keys[j] = key;
    if (view->values != NULL) {
      uint32_t value = view->values[i];
      view->values[i] = view->values[j];
      view->values[j] = value;
    }
    return;
  }
  uint8_t *a = view->records + (size_t)i * view->size;
  uint8_t *b = view->records + (size_t)j * view->size;
  for (uint32_t k = 0; k < view->size; ++k) {
    uint8_t byte = a[k];
    a[k] = b[k];
    b[k] = byte;
  }
}

static void insertion_sort(const sort_view_t *view, uint32_t lo, uint32_t hi) {
  for (uint32_t i = lo + 1u; i < hi; ++i) {
    for (uint32_t j = i; j > lo && less(view, j, j - 1u); --j) {
      swap(view, j, j - 1u);
    }
  }
}

/* Moves the element at lo + root down the max-heap of `count` elements based at lo. */
static void sift_down(const sort_view_t *view, uint32_t lo, uint32_t root, uint32_t count) {
  /* root < count / 2 is exactly "root has a child", and keeps 2 * root + 1 from overflowing. */
  while (root < count / 2u) {
    uint32_t child = 2u * root + 1u;
    if (child + 1u < count && less(view, lo + child, lo + child + 1u)) {
      ++child;
    }
    if (!less(view, lo + root, lo + child)) {
      return;
    }
    swap(view, lo + root, lo + child);
    root = child;
  }
}

static void heap_sort(const sort_view_t *view, uint32_t lo, uint32_t hi) {
  uint32_t count = hi - lo;
  for (uint32_t root = count / 2u; root-- > 0;) {
    sift_down(view, lo, root, count);
  }
  for (uint32_t end = count - 1u; end > 0; --end) {
    swap(view, lo, lo + end);
    sift_down(view, lo, 0, end);
  }
}

/* Partitions [lo, hi) (more than SORT_SHORT_RANGE elements) around the median of its first,
 * middle and last elements, and returns the pivot's final index p: [lo, p) <= pivot <= (p, hi).
 * Both scans stop on elements equal to the pivot, so runs of equal keys split evenly instead of
 * degrading to quadratic time. The pivot stays at lo during the scans, so records need no
 * temporary copy of it. */
static uint32_t partition(const sort_view_t *view, uint32_t lo, uint32_t hi) {
  uint32_t mid = lo + (hi - lo) / 2u;
  uint32_t last = hi - 1u;
  if (less(view, mid, lo)) {
    swap(view, mid, lo);
  }
  if (less(view, last, mid)) {
    swap(view, last, mid);
    if (less(view, mid, lo)) {
      swap(view, mid, lo);
    }
  }
  /* Now [lo] <= [mid] <= [last]: the median goes to lo, and what ends at mid (<= pivot) and last
   * (>= pivot) stop the scans before they leave the range. */
  swap(view, lo, mid);
  uint32_t i = lo + 1u;
  uint32_t j = last;
  for (;;) {
    while (less(view, i, lo)) {
      ++i;
    }
    while (less(view, lo, j)) {
      --j;
    }
    if (i >= j) {
      break;
    }
    swap(view, i, j);
    ++i;
    --j;
  }
  swap(view, lo, j);
  return j;
}

static void intro_sort(const sort_view_t *view, uint32_t count) {
  if (count < 2u) {
    return;
  }
  /* 2 * floor(log2(count)) partitions deep, as in Musser's introsort: beyond that the pivots
   * are bad enough that heapsort is the cheaper way to finish. */
  uint32_t depth = 0;
  for (uint32_t n = count; n > 1u; n >>= 1) {
    depth += 2u;
  }
  sort_range_t pending[SORT_STACK_DEPTH];
  uint32_t pending_count = 0;
  sort_range_t range = {0, count, depth};
  for (;;) {
    uint32_t length = range.hi - range.lo;
    if (length > SORT_SHORT_RANGE && range.depth == 0) {
      heap_sort(view, range.lo, range.hi);
    } else if (length > SORT_SHORT_RANGE) {
      uint32_t p = partition(view, range.lo, range.hi);
      sort_range_t left = {range.lo, p, range.depth - 1u};
      sort_range_t right = {p + 1u, range.hi, range.depth - 1u};
      bool left_smaller = p - range.lo < range.hi - (p + 1u);
      pending[pending_count++] = left_smaller ? right : left;
      range = left_smaller ? left : right;
      continue;
    } else {
      insertion_sort(view, range.lo, range.hi);
    }
    if (pending_count == 0) {
      return;
    }
    range = pending[--pending_count];
  }
}

void sort_u32(uint32_t *keys, uint32_t count) {
  sort_view_t view = {keys, NULL, NULL, 0, NULL};
  intro_sort(&view, count);
}

void sort_pairs_u32(uint32_t *keys, uint32_t *values, uint32_t count) {
  sort_view_t view = {keys, values, NULL, 0, NULL};
  intro_sort(&view, count);
}

void sort_records(void *base, uint32_t count, uint32_t size,
                  int (*compare)(const void *, const void *)) {
  if (size == 0) {
    return;
  }
  sort_view_t view = {NULL, NULL, (uint8_t *)base, size, compare};
  intro_sort(&view, count);
}
