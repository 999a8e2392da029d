#include "tlm/cpu/rv_decode_cache.h"

namespace ssdvp::cpu {

DecodeCache::DecodeCache() : code_pages_((1u << (32 - kPageShift)) / 64, 0) {}

CachedInstruction* DecodeCache::find_or_allocate(uint32_t page) {
  std::unique_ptr<Page>& entry = pages_[page];
  if (!entry) entry = std::make_unique<Page>();
  recent_[page % kRecentPages] = RecentPage{page, entry->slots.data()};
  return entry->slots.data();
}

void DecodeCache::invalidate(uint32_t addr, uint32_t len) {
  const uint32_t first = (addr - 2) & ~1u;
  const uint32_t halfwords = (len + 1) / 2 + 1 + (addr & 1u);
  for (uint32_t i = 0; i < halfwords; ++i) {
    const uint32_t halfword = first + 2 * i;
    const uint32_t page = page_of(halfword);
    if (!holds_code(page)) continue;
    const auto found = pages_.find(page);
    if (found != pages_.end()) found->second->slots[slot_of(halfword)] = CachedInstruction{};
  }
}

void DecodeCache::flush() {
  for (const auto& [page, slots] : pages_) {
    code_pages_[page >> 6] &= ~(1ull << (page & 63));
    // A 32-bit instruction at the end of a page also marked the next page.
    const uint32_t next = (page + 1) & ((1u << (32 - kPageShift)) - 1);
    code_pages_[next >> 6] &= ~(1ull << (next & 63));
  }
  pages_.clear();
  recent_.fill(RecentPage{});
}

}  // namespace ssdvp::cpu
