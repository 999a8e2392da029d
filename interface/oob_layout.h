/* The OOB (spare area) of every page the product FTL programs, in 32-bit words: declared once,
 * for the firmware that writes it and for whoever reads the NAND after it (GC, recovery after a
 * power loss, the platform's tests). */
#ifndef SSDVP_INTERFACE_OOB_LAYOUT_H
#define SSDVP_INTERFACE_OOB_LAYOUT_H

/* What the page holds: a user page its LPN, a translation page its TP number with
 * OOB_TRANSLATION set, a padding page OOB_FILLER. */
#define OOB_WORD_OWNER 0u
/* The firmware's bookkeeping of the program: the write-buffer slot or TP frame the page came
 * from, so the completion finds it. Meaningless once programmed. */
#define OOB_WORD_SOURCE 1u
/* How many times GC has moved the page's data (0 as the host or the TP store wrote it): GC
 * reads it with the page and writes it plus one with the copy. */
#define OOB_WORD_COPIES 2u
/* The program's sequence number: one global counter, stepped by every program the FTL issues
 * (host data, GC copies, translation pages, padding), in issue order; 0 is never used. Recovery
 * after a power loss orders what it finds by it. */
#define OOB_WORD_SEQUENCE 3u
/* The sequence number of the program that first wrote the page's data: its own for a page
 * written the first time (OOB_WORD_COPIES 0), the source's for a GC copy. Of two pages of one
 * LPN the one with the higher version holds the newer data, even when GC copied an older
 * version after the host had issued a newer one. */
#define OOB_WORD_VERSION 4u
/* The page's VPN (ftl/block.h) when programmed: recovery finds the stripe a block belonged to. */
#define OOB_WORD_VPN 5u
/* From here to the end of the OOB: the mapping scheme's own area (LeaFTL keeps the reverse
 * mappings of neighbouring pages there). */
#define OOB_SCHEME_FIRST_WORD 6u
/* The OOB the FTL needs at least (nand.oob_size). */
#define OOB_FTL_BYTES (OOB_SCHEME_FIRST_WORD * 4u)

#define OOB_TRANSLATION 0x80000000u
#define OOB_FILLER 0xFFFFFFFEu

#endif
