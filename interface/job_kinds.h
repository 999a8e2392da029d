/* Job kinds: what a hart's cycles are charged to. The firmware writes the kind of the work it
 * switches to into ssdvp's own CSR mjobkind (JOB_KIND_CSR, one csrw: firmware/hal/job_kind.h);
 * the ISS charges every cycle the hart spends (instructions, memory latency, WFI sleep) to the
 * kind the CSR holds, so a hart's kinds sum to its cycles, and the platform reports them by
 * name (stats.json harts[].job_cycles, ftl.phases[].firmware.harts[].job_cycles).
 *
 * The kinds, in CSR value order: X(enumerator, name in stats.json). */
#ifndef SSDVP_INTERFACE_JOB_KINDS_H
#define SSDVP_INTERFACE_JOB_KINDS_H

/* Custom machine read/write CSR, beside mzerotime (0x7C0). Reset value 0 (JOB_KIND_OTHER); it
 * holds bits 3:0 (WARL), so the ISS keeps JOB_KIND_LIMIT counters. */
#define JOB_KIND_CSR 0x7c1
#define JOB_KIND_LIMIT 16u

#define JOB_KIND_LIST(X)                                                                    \
  X(JOB_KIND_OTHER, "other")             /* boot, the main loop's own checks, interrupts */ \
  X(JOB_KIND_HOST, "host")               /* HIC events, pipeline dispatch, host requests */ \
  X(JOB_KIND_FLUSH, "flush")             /* write-buffer programming, slot updates */       \
  X(JOB_KIND_TRANSLATION, "translation") /* TP store: delivery, pump, TP flush */           \
  X(JOB_KIND_GC, "gc")                   /* gc_consider, GC tasks and moves */              \
  X(JOB_KIND_JOBS, "jobs")               /* worker jobs (training, fitting), on_done */     \
  X(JOB_KIND_COMPACTION, "compaction")   /* mapping-table compaction (LeaFTL, RQFTL pool) */ \
  X(JOB_KIND_IDLE, "idle")               /* WFI */                                          \
  X(JOB_KIND_RECOVERY, "recovery")       /* the scan and rebuild after a power loss */

/* JOB_KIND_IDLE for assembly (a hart's wait for its release in crt0.S). */
#define JOB_KIND_IDLE_VALUE 7

#ifndef __ASSEMBLER__
#define JOB_KIND_ENUMERATOR_(enumerator, name) enumerator,
enum job_kind { JOB_KIND_LIST(JOB_KIND_ENUMERATOR_) JOB_KIND_COUNT };
#undef JOB_KIND_ENUMERATOR_
#endif

#endif
