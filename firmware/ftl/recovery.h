/* Recovery after a power loss: the boot that follows a cut (boot config power_losses > 0) finds
 * the FTL's state again from the NAND alone, before it serves the host.
 *
 * Every page the FTL programs carries in its OOB (interface/oob_layout.h) its owner, its VPN, the
 * program's sequence number and its data's version. Recovery reads the OOB of every programmed
 * page (OOB-only reads, as many in flight as there are flash records), block by block in
 * program order up to the first erased page:
 * - a block with a readable page belonged to the stripe its VPN names: the stripes come back
 *   with the groups they held, every one closed (FULL), a partially written one never appended
 *   to; a stripe holding translation pages returns to the translation stream;
 * - a block with no readable page but an unreadable one (an erase or its first program was
 *   interrupted) is erased again and is free; a fully erased block is free;
 * - each LPN maps to its page with the highest version (a GC copy keeps its source's version, so
 *   an older copy GC made late never wins over newer host data); pages that lose, and pages of
 *   interrupted programs (ECC failures), are garbage;
 * - the mappings go to the scheme: a table scheme takes them (map_scheme_t restore); for the
 *   translation-page schemes each TP's newest copy on flash (by version) is read and kept when
 *   it agrees, else the TP is programmed again with the recovered mappings, so the GTD and the
 *   TPs on flash are the truth when the host is served; the scheme's cache starts empty;
 * - the sequence counter continues after the highest number found.
 * No checkpoint is written yet, so every boot after a cut scans the whole device; erase counts
 * and bad-block retirements are not kept across it (every group starts at erase count 0).
 * Trims are not logged: a trimmed LPN whose old page is still on flash comes back with that
 * data (it held it). When the scratch memory (the arena's free bytes, DRAM first) cannot hold
 * the mappings of every LPN at once, recovery runs in passes over LPN windows, each reading
 * every OOB again. A cut during recovery loses nothing: the next boot scans again. */
#ifndef SSDVP_FIRMWARE_FTL_RECOVERY_H
#define SSDVP_FIRMWARE_FTL_RECOVERY_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arena.h"

/* Rebuilds the block manager, the GTD, the TPs and the scheme's mappings of ftl_core (built by
 * ftl_init, nothing served yet) from the NAND. Its scratch memory comes from dram (when not
 * NULL) or sram. False with the problem when the scheme cannot recover or the device cannot be
 * brought back. */
bool recovery_run(arena_t *sram, arena_t *dram, const char **problem);

/* recovery.* in the statistics block (zero on a first boot). */
void recovery_register_metrics(void);

#endif
