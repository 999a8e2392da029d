#include "ftl/task.h"

static struct {
  list_node_t ready;
  list_node_t waiting[TASK_WAIT_COUNT];
  bool flash_freed; /* since the TASK_WAIT_FLASH waiters last ran */
} tasks;

void task_init(void) {
  list_init(&tasks.ready);
  for (uint32_t queue = 0; queue < TASK_WAIT_COUNT; ++queue) {
    list_init(&tasks.waiting[queue]);
  }
  tasks.flash_freed = false;
}

void task_schedule(task_t *task) { list_push_back(&tasks.ready, &task->link); }

void task_wait(task_wait_t queue, task_t *task) {
  list_push_back(&tasks.waiting[queue], &task->link);
}

void task_wake(task_wait_t queue, uint32_t count) {
  while (count-- != 0 && !list_empty(&tasks.waiting[queue])) {
    list_push_back(&tasks.ready, list_pop_front(&tasks.waiting[queue]));
  }
}

void task_flash_freed(void) { tasks.flash_freed = true; }

/* Out of line: task_run_ready's check, made on every turn of the main loop, stays free of the
 * register saves the tasks need. */
static __attribute__((noinline)) bool run_ready(void) {
  bool ran = false;
  for (;;) {
    if (list_empty(&tasks.ready) && tasks.flash_freed) {
      tasks.flash_freed = false;
      task_wake(TASK_WAIT_FLASH, TASK_WAKE_ALL);
    }
    list_node_t *node = list_pop_front(&tasks.ready);
    if (node == 0) {
      return ran;
    }
    task_t *task = LIST_ENTRY(node, task_t, link);
    task->run(task);
    ran = true;
  }
}

bool task_run_ready(void) {
  if (list_empty(&tasks.ready) && !tasks.flash_freed) {
    return false;
  }
  return run_ready();
}

bool task_map_update(const map_scheme_t *scheme, tp_store_t *store, block_manager_t *blocks,
                     uint32_t lpn, uint32_t vpn, task_t *task, tp_waiter_t *waiter) {
  for (;;) {
    if (!tp_store_can_evict(store)) {
      task_wait(TASK_WAIT_FLASH, task);
      return false;
    }
    uint32_t value;
    if (scheme->update(lpn, vpn, &value) == MAP_HIT) {
      if (value != VPN_UNMAPPED) {
        block_page_invalidate(blocks, value);
      }
      return true;
    }
    if (!task_load_tp(store, value, task, waiter)) {
      return false;
    }
  }
}

bool task_load_tp(tp_store_t *store, uint32_t tp, task_t *task, tp_waiter_t *waiter) {
  switch (tp_store_load(store, tp, waiter)) {
  case TP_LOAD_DONE:
    return true;
  case TP_LOAD_WAITING:
    return false;
  default:
    task_wait(TASK_WAIT_FLASH, task);
    return false;
  }
}
