#include "nand_model/nand_array.h"

#include <algorithm>
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
  // Drawn for every read, so a power loss does not move where injected faults fall.
  if (faults_.read_fails()) return Status::kEccFail;
  if (unreadable(block, ppn)) return Status::kEccFail;
  const uint32_t page = geometry_.page_in_block(ppn);
  if (page >= block.next_page) return Status::kErased;
  view = block.pages->view(page, geometry_.oob_bytes());
  return Status::kOk;
}

Status NandArray::program(uint32_t ppn, const PageImage* pages) {
  check_within_geometry(geometry_, ppn, 1);
  BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return Status::kBadBlock;
  check_program_target(geometry_, ppn, block.next_page,
                       block.interrupted == Interrupted::kErase);
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
  return nand::program_violation(geometry_, ppn, block.next_page,
                                 block.interrupted == Interrupted::kErase);
}

Status NandArray::erase(uint32_t ppn) {
  check_within_geometry(geometry_, ppn, 1);
  const uint64_t index = geometry_.block_index(ppn);
  BlockState& block = blocks_[index];
  if (block.bad != BadKind::kGood) return Status::kBadBlock;
  discard_pages(index);
  if (block.erase_count >= endurance_ || faults_.erase_fails()) {
    mark_grown_bad(block);
    return Status::kProgramFail;
  }
  ++block.erase_count;
  return Status::kOk;
}

void NandArray::interrupt_program(uint32_t ppn, PreviousWordline previous) {
  check_within_geometry(geometry_, ppn, 1);
  BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return;
  const uint32_t bits = geometry_.bits_per_cell();
  const uint32_t wordline = geometry_.wordline(geometry_.page_in_block(ppn));
  if (block.next_page != (wordline + 1) * bits) {
    throw std::invalid_argument(fmt::format(
        "interrupt_program at {}: wordline {} is not the last programmed wordline of its block "
        "({} of its {} wordlines programmed), so no program of it is in progress",
        geometry_.describe(ppn), wordline, block.next_page / bits,
        geometry_.wordlines_per_block()));
  }
  const uint32_t wordline_ppn = wordline_lsb_ppn(ppn);
  mark_unreadable(wordline_ppn);
  if (previous == PreviousWordline::kLost && wordline > 0) mark_unreadable(wordline_ppn - bits);
  block.interrupted = Interrupted::kProgram;
}

void NandArray::interrupt_erase(uint32_t ppn) {
  check_within_geometry(geometry_, ppn, 1);
  BlockState& block = blocks_[geometry_.block_index(ppn)];
  if (block.bad != BadKind::kGood) return;
  if (block.next_page != 0) {
    throw std::invalid_argument(fmt::format(
        "interrupt_erase at {}: the block holds {} programmed pages, so no erase of it is in "
        "progress (an erase leaves none)",
        geometry_.describe(ppn), block.next_page));
  }
  block.interrupted = Interrupted::kErase;
}

uint32_t NandArray::wordline_lsb_ppn(uint32_t ppn) const {
  return ppn - geometry_.page_type(geometry_.page_in_block(ppn));
}

bool NandArray::unreadable(const BlockState& block, uint32_t ppn) const {
  switch (block.interrupted) {
    case Interrupted::kNothing: return false;
    case Interrupted::kErase: return true;
    case Interrupted::kProgram: break;
  }
  const uint32_t wordline_ppn = wordline_lsb_ppn(ppn);
  return std::binary_search(unreadable_wordlines_.begin(), unreadable_wordlines_.end(),
                            wordline_ppn);
}

void NandArray::mark_unreadable(uint32_t wordline_ppn) {
  const auto at = std::lower_bound(unreadable_wordlines_.begin(), unreadable_wordlines_.end(),
                                   wordline_ppn);
  if (at != unreadable_wordlines_.end() && *at == wordline_ppn) return;
  const uint64_t capacity_before = unreadable_wordlines_.capacity();
  unreadable_wordlines_.insert(at, wordline_ppn);
  page_storage_bytes_ += (unreadable_wordlines_.capacity() - capacity_before) * sizeof(uint32_t);
}

void NandArray::mark_grown_bad(BlockState& block) {
  block.bad = BadKind::kGrown;
  ++grown_bad_;
}

void NandArray::discard_pages(uint64_t block_index) {
  BlockState& block = blocks_[block_index];
  if (block.interrupted == Interrupted::kProgram) {
    const uint32_t first = static_cast<uint32_t>(block_index * geometry_.pages_per_block());
    const auto begin = std::lower_bound(unreadable_wordlines_.begin(),
                                        unreadable_wordlines_.end(), first);
    const auto end = std::lower_bound(begin, unreadable_wordlines_.end(),
                                      uint64_t{first} + geometry_.pages_per_block());
    const uint64_t capacity_before = unreadable_wordlines_.capacity();
    unreadable_wordlines_.erase(begin, end);
    // Emptied, the list gives its memory back: an array erased clean holds nothing.
    if (unreadable_wordlines_.empty()) unreadable_wordlines_.shrink_to_fit();
    page_storage_bytes_ -= (capacity_before - unreadable_wordlines_.capacity()) * sizeof(uint32_t);
  }
  block.interrupted = Interrupted::kNothing;
  if (block.pages) {
    page_storage_bytes_ -= block.pages->host_bytes();
    oob_bytes_stored_ -= block.pages->oob_bytes_held();
    block.pages.reset();
  }
  programmed_pages_ -= block.next_page;
  block.next_page = 0;
}

}  // namespace ssdvp::nand
