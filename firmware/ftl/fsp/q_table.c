#include "ftl/fsp/q_table.h"

#include <string.h>

void q_table_init(q_table_t *table, float alpha, float gamma) {
  memset(table->active, 0, sizeof table->active);
  memset(table->shadow, 0, sizeof table->shadow);
  table->alpha = alpha;
  table->gamma = gamma;
}

uint32_t q_table_best(const q_table_t *table, uint32_t state) {
  const float *values = table->active[state];
  uint32_t best = 0;
  for (uint32_t action = 1; action < Q_TABLE_ACTIONS; ++action) {
    if (values[action] > values[best]) {
      best = action;
    }
  }
  return best;
}

void q_table_update(q_table_t *table, uint32_t state, uint32_t action, float reward,
                    uint32_t next_state, uint32_t next_action) {
  float target = reward + table->gamma * table->shadow[next_state][next_action];
  float *value = &table->shadow[state][action];
  *value = (1.0f - table->alpha) * *value + table->alpha * target;
}

void q_table_renew(q_table_t *table) {
  memcpy(table->active, table->shadow, sizeof table->active);
}
