#include "ftl/task.h"

#include "ftl/core.h"
#include "hal/job_kind.h"

uint64_t task_update_oob_reads;

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
  task_update_oob_reads = 0;
}

void task_schedule(task_t *task) { list_push_back(&tasks.ready, &task->link); }

void task_wait(task_wait_t queue, task_t *task) {
  list_push_back(&tasks.waiting[queue], &task->link);
}

void task_wait_ordered(task_wait_t queue, task_t *task,
                       bool (*before)(const task_t *first, const task_t *second)) {
  list_node_t *head = &tasks.waiting[queue];
  list_node_t *at = head->prev;
  while (at != head && !before(LIST_ENTRY(at, task_t, link), task)) {
    at = at->prev;
  }
  list_insert_between(&task->link, at, at->next);
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
      job_kind_set(JOB_KIND_OTHER); /* the main loop's */
      return ran;
    }
    task_t *task = LIST_ENTRY(node, task_t, link);
    job_kind_set(task->kind);
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

void task_map_update_start(map_update_t *update, task_t *task, uint32_t lpn, uint32_t old_vpn) {
  update->waiter.lpn = lpn;
  update->waiter.request = 0;
  update->waiter.host_read = false;
  update->waiter.copy = 0;
  update->task = task;
  update->old_vpn = old_vpn;
  update->probe_vpn = MAP_OLD_UNKNOWN;
  update->probing = false;
}

static void probe_done(flash_op_t *op, uint32_t status) {
  map_update_t *update = (map_update_t *)op->owner;
  const uint32_t *oob = status == NFC_STATUS_OK ? flash_oob(&ftl_core.flash, op, 0) : 0;
  uint32_t value;
  map_answer_t answer =
      ftl_core.scheme->mispredicted(update->waiter.lpn, op->vpn, oob, true, &value);
  if (answer == MAP_HIT) {
    update->old_vpn = value;
  } else if (answer == MAP_PREDICT) {
    update->probe_vpn = value;
  }
  update->probing = false;
  task_schedule(update->task);
}

/* Reads the OOB of update->probe_vpn (no data); false when no flash record is free. */
static bool start_probe(map_update_t *update) {
  flash_op_t *op = flash_op_take(&ftl_core.flash, probe_done, update);
  if (op == 0) {
    return false;
  }
  flash_io_oob(&ftl_core.flash, op, 0);
  update->probing = true;
  ++task_update_oob_reads;
  flash_read(&ftl_core.flash, op, update->probe_vpn, 1);
  update->probe_vpn = MAP_OLD_UNKNOWN;
  return true;
}

bool task_map_update(const map_scheme_t *scheme, tp_store_t *store, block_manager_t *blocks,
                     uint32_t vpn, map_update_t *update) {
  for (;;) {
    if (update->probing) {
      return false; /* the OOB read's completion schedules the task */
    }
    if (update->probe_vpn != MAP_OLD_UNKNOWN) {
      if (!start_probe(update)) {
        task_wait(TASK_WAIT_FLASH, update->task);
      }
      return false;
    }
    if (!tp_store_can_evict(store)) {
      task_wait(TASK_WAIT_FLASH, update->task);
      return false;
    }
    /* A page resolved through its OOB may have been replaced while the task waited its turn. */
    if (update->old_vpn != MAP_OLD_UNKNOWN && update->old_vpn != VPN_UNMAPPED &&
        !block_page_valid(blocks, update->old_vpn)) {
      update->old_vpn = MAP_OLD_UNKNOWN;
    }
    uint32_t value = update->old_vpn;
    map_answer_t answer = scheme->update(update->waiter.lpn, vpn, &value);
    if (answer == MAP_HIT) {
      if (value != VPN_UNMAPPED) {
        block_page_invalidate(blocks, value);
      }
      update->old_vpn = MAP_OLD_UNKNOWN;
      return true;
    }
    if (answer == MAP_PREDICT) {
      update->probe_vpn = value;
      continue;
    }
    if (answer == MAP_NO_ROOM) {
      task_wait(TASK_WAIT_FLASH, update->task); /* the call spent the reserve: frames come free */
      return false;
    }
    if (!task_load_tp(store, value, update->task, &update->waiter)) {
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
