/* Intrusive circular doubly-linked lists: a list_node_t sits inside each element and the list
 * head is a node of its own, so insert and remove are O(1) and cost two pointers per element
 * (what an LRU of cached mappings or a pool of blocks charges to its budget). */
#ifndef SSDVP_FIRMWARE_LIB_LIST_H
#define SSDVP_FIRMWARE_LIB_LIST_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct list_node {
  struct list_node *prev;
  struct list_node *next;
} list_node_t;

/* The element that contains `node` as its member `member`. */
#define LIST_ENTRY(node, type, member) ((type *)((char *)(node)-offsetof(type, member)))

static inline void list_init(list_node_t *head) { head->prev = head->next = head; }

static inline bool list_empty(const list_node_t *head) { return head->next == head; }

/* Whether `node` is linked in some list (list_remove leaves it unlinked). */
static inline bool list_linked(const list_node_t *node) { return node->next != NULL && node->next != node; }

static inline void list_insert_between(list_node_t *node, list_node_t *prev, list_node_t *next) {
  node->prev = prev;
  node->next = next;
  prev->next = node;
  next->prev = node;
}

/* At the front (most recent end of an LRU). */
static inline void list_push_front(list_node_t *head, list_node_t *node) {
  list_insert_between(node, head, head->next);
}

static inline void list_push_back(list_node_t *head, list_node_t *node) {
  list_insert_between(node, head->prev, head);
}

static inline void list_remove(list_node_t *node) {
  node->prev->next = node->next;
  node->next->prev = node->prev;
  node->prev = node->next = node;
}

static inline void list_move_front(list_node_t *head, list_node_t *node) {
  list_remove(node);
  list_push_front(head, node);
}

/* NULL when empty. */
static inline list_node_t *list_front(const list_node_t *head) {
  return list_empty(head) ? NULL : head->next;
}

static inline list_node_t *list_back(const list_node_t *head) {
  return list_empty(head) ? NULL : head->prev;
}

static inline list_node_t *list_pop_front(list_node_t *head) {
  list_node_t *node = list_front(head);
  if (node != NULL) {
    list_remove(node);
  }
  return node;
}

#ifdef __cplusplus
}
#endif

#endif
