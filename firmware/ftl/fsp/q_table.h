/* The across-episode q-table of the QLC scheduling paper (TCAD 2024, Figure 6 and Algorithm 1):
 * each (state, action) holds an active q-value, which decisions read during an episode, and a
 * shadow q-value, which the delayed rewards update; a new episode copies every shadow value into
 * the active one, so decisions and updates do not disturb each other.
 *
 * The update is the paper's equation (1) on the shadow values (the "real-time value" of the
 * pair): Q(s, a) <- (1 - alpha) Q(s, a) + alpha (r + gamma Q(s', a')), with (s', a') the step
 * that followed (s, a). Algorithm 1's last line says the opposite copy ("active to shadow");
 * Figure 6 and the text say shadow to active, which is the only direction in which the updates
 * ever reach a decision, so that is what is done. */
#ifndef SSDVP_FIRMWARE_FTL_FSP_Q_TABLE_H
#define SSDVP_FIRMWARE_FTL_FSP_Q_TABLE_H

#include <stdint.h>

/* Long-term reads (4) x short-term (2) x small request (2) x partial data (2) x page type of the
 * previous write (4). */
#define Q_TABLE_STATES 128u
/* The page types: LSB, CLSB, CMSB, MSB. */
#define Q_TABLE_ACTIONS 4u

typedef struct q_table {
  float active[Q_TABLE_STATES][Q_TABLE_ACTIONS];
  float shadow[Q_TABLE_STATES][Q_TABLE_ACTIONS];
  float alpha; /* step size */
  float gamma; /* discount */
} q_table_t;

/* All q-values zero. */
void q_table_init(q_table_t *table, float alpha, float gamma);

/* The action of the largest active q-value in `state` (the lowest such action on a tie). */
uint32_t q_table_best(const q_table_t *table, uint32_t state);

/* The delayed reward of (state, action), whose next step was (next_state, next_action). */
void q_table_update(q_table_t *table, uint32_t state, uint32_t action, float reward,
                    uint32_t next_state, uint32_t next_action);

/* A new episode: the active q-values take the shadow ones. */
void q_table_renew(q_table_t *table);

#endif
