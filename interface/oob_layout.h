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
/* From here to the end of the OOB: the mapping scheme's own area (LeaFTL keeps the reverse
 * mappings of neighbouring pages there). */
#define OOB_SCHEME_FIRST_WORD 3u
/* The OOB the FTL needs at least (nand.oob_size). */
#define OOB_FTL_BYTES (OOB_SCHEME_FIRST_WORD * 4u)

#define OOB_TRANSLATION 0x80000000u
#define OOB_FILLER 0xFFFFFFFEu

#endif
