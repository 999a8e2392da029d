#include "nand_model/page_store.h"

#include <algorithm>
#include <cstring>

namespace ssdvp::nand {
namespace {

constexpr uint32_t kBitsPerWord = 64;

// Doubling growth, capped at the block's size, at least `needed`.
template <typename T>
void grow(std::vector<T>& vector, size_t needed, size_t block_limit) {
  if (vector.capacity() >= needed) return;
  vector.reserve(std::min(block_limit, std::max(needed, vector.capacity() * 2)));
}

}  // namespace

void PageView::copy_data(uint8_t* out, uint32_t bytes) const {
  if (erased) {
    std::memset(out, 0xFF, bytes);
    return;
  }
  if (meta != nullptr) {
    const uint32_t held = std::min(bytes, meta_bytes);
    std::memcpy(out, meta, held);
    std::memset(out + held, 0xFF, bytes - held);
    return;
  }
  const uint32_t from_tag = std::min<uint32_t>(bytes, sizeof(tag));
  std::memcpy(out, &tag, from_tag);
  std::memset(out + from_tag, 0, bytes - from_tag);
}

void PageView::copy_oob(uint8_t* out, uint32_t oob_bytes) const {
  if (oob == nullptr) {
    std::memset(out, 0xFF, oob_bytes);
  } else {
    std::memcpy(out, oob, oob_bytes);
  }
}

BlockPages::Extras& BlockPages::extras(uint32_t pages_per_block) {
  if (!extras_) {
    extras_ = std::make_unique<Extras>();
    extras_->has_oob.assign((pages_per_block + kBitsPerWord - 1) / kBitsPerWord, 0);
  }
  return *extras_;
}

void BlockPages::append_wordline(const PageImage* pages, uint32_t count, uint32_t pages_per_block,
                                 uint32_t oob_bytes) {
  const uint32_t first = programmed_pages();
  grow(tags_, first + count, pages_per_block);
  for (uint32_t i = 0; i < count; ++i) {
    const PageImage& image = pages[i];
    const uint32_t page = first + i;
    data_tag_t tag = image.tag;
    if (image.meta != nullptr) {
      std::vector<MetaPage>& meta = extras(pages_per_block).meta;
      meta.push_back(MetaPage{page, std::make_shared<const std::vector<uint8_t>>(
                                        image.meta, image.meta + image.meta_bytes)});
      PageView view;
      view.erased = false;
      view.meta = meta.back().bytes->data();
      view.meta_bytes = image.meta_bytes;
      view.copy_data(reinterpret_cast<uint8_t*>(&tag), sizeof(tag));
    }
    tags_.push_back(tag);
    if (image.oob != nullptr && oob_bytes != 0) {
      Extras& more = extras(pages_per_block);
      more.has_oob[page / kBitsPerWord] |= uint64_t{1} << (page % kBitsPerWord);
      if (more.oob_prefix == page) ++more.oob_prefix;
      grow(more.oob, more.oob.size() + oob_bytes, size_t{pages_per_block} * oob_bytes);
      more.oob.insert(more.oob.end(), image.oob, image.oob + oob_bytes);
    }
  }
}

const BlockPages::MetaPage* BlockPages::find_meta(uint32_t page) const {
  const std::vector<MetaPage>& meta = extras_->meta;
  const auto found = std::lower_bound(meta.begin(), meta.end(), page,
                                      [](const MetaPage& m, uint32_t p) { return m.page < p; });
  return found != meta.end() && found->page == page ? &*found : nullptr;
}

uint64_t BlockPages::oob_rank(uint32_t page) const {
  if (page < extras_->oob_prefix) return page;  // the common case: spare bytes on every page
  const std::vector<uint64_t>& has_oob = extras_->has_oob;
  uint64_t rank = 0;
  for (uint32_t word = 0; word < page / kBitsPerWord; ++word) {
    rank += static_cast<uint64_t>(__builtin_popcountll(has_oob[word]));
  }
  const uint32_t bit = page % kBitsPerWord;
  if (bit != 0) {
    const uint64_t below = has_oob[page / kBitsPerWord] & ((uint64_t{1} << bit) - 1);
    rank += static_cast<uint64_t>(__builtin_popcountll(below));
  }
  return rank;
}

PageView BlockPages::view(uint32_t page, uint32_t oob_bytes) const {
  PageView view;
  if (page >= programmed_pages()) return view;
  view.erased = false;
  view.tag = tags_[page];
  if (!extras_) return view;
  if (const MetaPage* meta = find_meta(page)) {
    view.meta = meta->bytes->data();
    view.meta_bytes = static_cast<uint32_t>(meta->bytes->size());
    view.meta_page = meta->bytes;
  }
  if ((extras_->has_oob[page / kBitsPerWord] >> (page % kBitsPerWord) & 1) != 0) {
    view.oob = extras_->oob.data() + oob_rank(page) * oob_bytes;
  }
  return view;
}

uint64_t BlockPages::host_bytes() const {
  uint64_t bytes = sizeof(*this) + tags_.capacity() * sizeof(data_tag_t);
  if (!extras_) return bytes;
  bytes += sizeof(Extras) + extras_->has_oob.capacity() * sizeof(uint64_t) +
           extras_->oob.capacity() + extras_->meta.capacity() * sizeof(MetaPage);
  for (const MetaPage& meta : extras_->meta) bytes += meta.bytes->capacity();
  return bytes;
}

}  // namespace ssdvp::nand
