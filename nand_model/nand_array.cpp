#include "nand_model/nand_array.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp::nand {

NandArray::NandArray(const NandConfig& config, uint64_t seed)
    : config_(config),
      seed_(seed),
      geometry_(config),
      timing_(config, geometry_),
      faults_(config, seed),
      endurance_(config.endurance),
      blocks_(geometry_.block_count()) {
  if (endurance_ == 0) throw std::runtime_error("nand.endurance = 0: must be at least 1");
  for (const uint64_t block : FaultInjector::factory_bad_blocks(config, geometry_, seed)) {
    blocks_[block].bad = BadKind::kFactory;
    ++factory_bad_;
  }
}

void NandArray::reset() { *this = NandArray(config_, seed_); }

Status NandArray::read(uint32_t ppn, PageView& view) {
  check_within_geometry(geometry_, ppn, 1);
  const BlockState& block = blocks_[geometry_.block_index(ppn)];
  view = PageView{};
  if (block.bad == BadKind::kFactory) return Status::kBadBlock;
  if (faults_.read_fails()) return Status::kEccFail;
  const uint32_t page = geometry_.page_in_block(ppn);
  if (page >= block.next_page) return Status::kErased;
  view = block.pages->view(page, geometry_.oob_bytes());
  return Status::kOk;
}

Status NandArray::program(uint32_t ppn, const PageImage* pages) {
  check_within_geometry(geometry_, ppn, 1);
  BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return Status::kBadBlock;
  check_program_target(geometry_, ppn, block.next_page);
  if (faults_.program_fails()) {
    mark_grown_bad(block);
    return Status::kProgramFail;
  }
  if (!block.pages) block.pages = std::make_unique<BlockPages>();
  const uint64_t bytes_before = block.pages->host_bytes();
  const uint64_t oob_before = block.pages->oob_bytes_held();
  const uint32_t bits = geometry_.bits_per_cell();
  block.pages->append_wordline(pages, bits, geometry_.pages_per_block(), geometry_.oob_bytes());
  // The first program of a block also brings its container into existence.
  page_storage_bytes_ += block.pages->host_bytes() - (block.next_page == 0 ? 0 : bytes_before);
  oob_bytes_stored_ += block.pages->oob_bytes_held() - oob_before;
  block.next_page += bits;
  programmed_pages_ += bits;
  return Status::kOk;
}

std::optional<Violation> NandArray::program_violation(uint32_t ppn) const {
  const BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return std::nullopt;
  return nand::program_violation(geometry_, ppn, block.next_page);
}

Status NandArray::erase(uint32_t ppn) {
  check_within_geometry(geometry_, ppn, 1);
  BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return Status::kBadBlock;
  discard_pages(block);
  if (block.erase_count >= endurance_ || faults_.erase_fails()) {
    mark_grown_bad(block);
    return Status::kProgramFail;
  }
  ++block.erase_count;
  return Status::kOk;
}

void NandArray::mark_grown_bad(BlockState& block) {
  block.bad = BadKind::kGrown;
  ++grown_bad_;
}

void NandArray::discard_pages(BlockState& block) {
  if (block.pages) {
    page_storage_bytes_ -= block.pages->host_bytes();
    oob_bytes_stored_ -= block.pages->oob_bytes_held();
    block.pages.reset();
  }
  programmed_pages_ -= block.next_page;
  block.next_page = 0;
}

}  // namespace ssdvp::nand
