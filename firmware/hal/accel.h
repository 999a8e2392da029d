/* The RQRMI accelerator (interface/accel_regs.h): loads a model image (interface/rqrmi_model.h)
 * and runs batches of keys, with the secondary search in hardware or without it. A batch is cut
 * into jobs of as many keys as both FIFOs hold; each job runs to its end before its results are
 * read, so a job never stalls. Only present when the scenario sets accel.present. */
#ifndef SSDVP_FIRMWARE_HAL_ACCEL_H
#define SSDVP_FIRMWARE_HAL_ACCEL_H

#include <stdint.h>

/* Copies a model image (a validated one: the accelerator does not check the weights) into the
 * weight memory and points the search at the range array (8-byte aligned). Returns 0, or -1 when
 * the image has more submodel records than the weight memory holds. */
int accel_load_model(const void *image, const void *ranges);

/* Predicted index and error bound of each key (the search left to the caller). */
void accel_predict(const uint32_t *keys, uint32_t count, uint32_t *index, uint32_t *error);

/* The index of the range containing each key, or RQRMI_NONE: inference and search in hardware. */
void accel_lookup(const uint32_t *keys, uint32_t count, uint32_t *results);

/* Sticky ACCEL_ERROR_* bits raised since the last call, which clears them. */
uint32_t accel_take_errors(void);

#endif
