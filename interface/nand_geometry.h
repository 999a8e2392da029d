/* NAND geometry and the physical page number (PPN) the firmware and the flash controller share.
 * A PPN packs, from most to least significant: channel, way (chip on the channel), die, plane,
 * block, page. A wordline holds bits_per_cell pages, in page-type order LSB, CLSB, CMSB, MSB for
 * QLC; page p of a block lies on wordline p / bits_per_cell with page type p % bits_per_cell. */
#ifndef SSDVP_INTERFACE_NAND_GEOMETRY_H
#define SSDVP_INTERFACE_NAND_GEOMETRY_H

#define NAND_MAX_BITS_PER_CELL 4u

/* Page types in wordline order (QLC names; SLC has only LSB, MLC LSB/MSB-ish as LSB/CLSB). */
#define NAND_PAGE_LSB 0u
#define NAND_PAGE_CLSB 1u
#define NAND_PAGE_CMSB 2u
#define NAND_PAGE_MSB 3u

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct nand_geometry {
  uint32_t channels;
  uint32_t ways;          /* chips per channel */
  uint32_t dies;          /* dies per chip */
  uint32_t planes;        /* planes per die */
  uint32_t blocks;        /* blocks per plane */
  uint32_t pages;         /* pages per block (a multiple of bits_per_cell) */
  uint32_t page_bytes;
  uint32_t oob_bytes;
  uint32_t bits_per_cell; /* 1 SLC, 2 MLC, 3 TLC, 4 QLC */
} nand_geometry_t;

typedef struct nand_address {
  uint32_t channel, way, die, plane, block, page;
} nand_address_t;

static inline uint32_t nand_ppn(const nand_geometry_t *g, const nand_address_t *a) {
  uint32_t ppn = a->channel;
  ppn = ppn * g->ways + a->way;
  ppn = ppn * g->dies + a->die;
  ppn = ppn * g->planes + a->plane;
  ppn = ppn * g->blocks + a->block;
  return ppn * g->pages + a->page;
}

static inline nand_address_t nand_address_of(const nand_geometry_t *g, uint32_t ppn) {
  nand_address_t a;
  a.page = ppn % g->pages;
  ppn /= g->pages;
  a.block = ppn % g->blocks;
  ppn /= g->blocks;
  a.plane = ppn % g->planes;
  ppn /= g->planes;
  a.die = ppn % g->dies;
  ppn /= g->dies;
  a.way = ppn % g->ways;
  a.channel = ppn / g->ways;
  return a;
}

static inline uint64_t nand_total_pages(const nand_geometry_t *g) {
  return (uint64_t)g->channels * g->ways * g->dies * g->planes * g->blocks * g->pages;
}
#endif

#endif
