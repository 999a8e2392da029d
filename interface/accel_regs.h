/* RQRMI accelerator register map (window MM_ACCEL_BASE). All registers are 32 bits.
 * The accelerator computes RQRMI predictions (interface/rqrmi_model.h) for the keys queued in
 * its key FIFO and, with ACCEL_CTRL_SEARCH, also the secondary search: it reads the range array
 * from memory through its own bus master port and returns the matching index or RQRMI_NONE.
 *
 * Use: write the model's header fields (range count, stage count and widths), load its
 * submodel records through ACCEL_WMEM_ADDR/ACCEL_WMEM_DATA, set ACCEL_RANGE_BASE; then per
 * batch push up to ACCEL_KEY_DEPTH keys, write ACCEL_START and pop one result per key, in key
 * order. The job ends when every queued key has its result; ACCEL_IRQ_DONE then rises (the
 * interrupt line IRQ_SRC_ACCEL is high while a pending bit is set and enabled). A job whose
 * results fill the result FIFO stalls until results are popped. */
#ifndef SSDVP_INTERFACE_ACCEL_REGS_H
#define SSDVP_INTERFACE_ACCEL_REGS_H

#define ACCEL_ID 0x00u          /* RO: ACCEL_ID_VALUE */
#define ACCEL_CTRL 0x04u        /* RW: ACCEL_CTRL_* */
#define ACCEL_STATUS 0x08u      /* RO: ACCEL_STATUS_* */
#define ACCEL_START 0x0Cu       /* WO: any value starts a job over the queued keys */
#define ACCEL_IRQ 0x10u         /* RW1C: pending interrupt bits, ACCEL_IRQ_* */
#define ACCEL_ERRORS 0x14u      /* RW1C: sticky error bits, ACCEL_ERROR_* */
#define ACCEL_RANGE_COUNT 0x18u /* RW: n, 1 .. RQRMI_MAX_RANGES */
#define ACCEL_STAGE_COUNT 0x1Cu /* RW: 1 .. RQRMI_MAX_STAGES */
#define ACCEL_STAGE_WIDTH0 0x20u /* RW: width of stage s at ACCEL_STAGE_WIDTH(s), s = 0..3 */
#define ACCEL_STAGE_WIDTH(s) (ACCEL_STAGE_WIDTH0 + 4u * (s)) /* stage 0's must be 1 */
/* RW: next weight-memory word written, (submodel << ACCEL_WMEM_SUBMODEL_SHIFT) | word, with
 * word 0 .. RQRMI_SUBMODEL_WORDS-1 of the record; submodels count over all stages in order. */
#define ACCEL_WMEM_ADDR 0x30u
#define ACCEL_WMEM_DATA 0x34u   /* WO: writes the word at ACCEL_WMEM_ADDR and advances it */
#define ACCEL_RANGE_BASE 0x38u  /* RW: bus address of the range array (8-byte aligned) */
#define ACCEL_KEY 0x40u         /* WO: queues a key (ignored, ACCEL_ERROR_KEY_OVERFLOW, if full) */
/* RO: pops the oldest result: the matching index or RQRMI_NONE with ACCEL_CTRL_SEARCH, the
 * predicted index without (RQRMI_NONE and ACCEL_ERROR_RESULT_UNDERFLOW when empty). */
#define ACCEL_RESULT 0x44u
#define ACCEL_RESULT_ERROR 0x48u    /* RO: error bound of the last popped prediction */
#define ACCEL_KEY_LEVEL 0x4Cu       /* RO: keys queued */
#define ACCEL_RESULT_LEVEL 0x50u    /* RO: results waiting */
#define ACCEL_BUSY_CYCLES 0x54u     /* RO: accelerator cycles spent in jobs (wraps) */
#define ACCEL_SUBMODEL_CAPACITY 0x58u /* RO: submodel records the weight memory holds */
#define ACCEL_KEY_DEPTH 0x5Cu       /* RO: key FIFO entries */
#define ACCEL_RESULT_DEPTH 0x60u    /* RO: result FIFO entries */

#define ACCEL_ID_VALUE 0x43415152u /* "RQAC" */

#define ACCEL_CTRL_SEARCH 0x1u     /* the secondary search runs in hardware */
#define ACCEL_CTRL_IRQ_ENABLE 0x2u /* ACCEL_IRQ_DONE drives the interrupt line */

#define ACCEL_STATUS_BUSY 0x1u    /* a job is running */
#define ACCEL_STATUS_STALLED 0x2u /* the job waits for results to be popped */

#define ACCEL_IRQ_DONE 0x1u

#define ACCEL_ERROR_CONFIG 0x1u /* ACCEL_START with a model header the hardware cannot run */
#define ACCEL_ERROR_KEY_OVERFLOW 0x2u
#define ACCEL_ERROR_RESULT_UNDERFLOW 0x4u
#define ACCEL_ERROR_BUS 0x8u /* a range-array read failed; that key's result is RQRMI_NONE */
#define ACCEL_ERROR_WMEM_RANGE 0x10u /* ACCEL_WMEM_DATA outside the configured weight memory */

#define ACCEL_WMEM_SUBMODEL_SHIFT 5u

/* Limits the hardware is built with; the scenario configures sizes up to them. */
#define ACCEL_MAX_SUBMODELS 256u
#define ACCEL_MAX_FIFO_DEPTH 64u

#endif
