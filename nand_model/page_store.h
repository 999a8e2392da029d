// Sparse storage of one block's programmed pages. Nothing exists for a block until its first
// program; then each programmed page costs its 8-byte data tag, plus the spare (OOB) bytes when
// the program wrote them, plus the bytes of a metadata page. Pages are appended a wordline at a
// time, in order, so a page's index in the block is its position here.
//
// What a page holds, as the firmware sees its bytes:
// - a user data page: its data tag (LPN, version), then zeroes (user data beyond the tag is not
//   modelled: the host checks tags, not bytes);
// - a metadata page (translation page, checkpoint): the bytes written, then 0xFF;
// - its spare area: the oob_bytes written with it, or 0xFF when the program wrote none.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "interface/data_tag.h"

namespace ssdvp::nand {

// One page as a program writes it. The pointers need only live for the call.
struct PageImage {
  data_tag_t tag{};               // user data, when meta is nullptr
  const uint8_t* meta = nullptr;  // metadata page bytes
  uint32_t meta_bytes = 0;
  const uint8_t* oob = nullptr;   // the spare area (oob_bytes), or nullptr to leave it erased
};

// One page as a read returns it. Pointers refer to the store: valid until the block's next
// program or erase, except that meta_page keeps a metadata page's bytes alive for as long as a
// reader holds it (a page register's copy, without the copy).
struct PageView {
  bool erased = true;
  data_tag_t tag{DATA_TAG_ERASED_WORD, DATA_TAG_ERASED_WORD};
  const uint8_t* meta = nullptr;  // metadata page bytes, nullptr for user data or erased
  uint32_t meta_bytes = 0;
  std::shared_ptr<const std::vector<uint8_t>> meta_page;  // owns the bytes meta points to
  const uint8_t* oob = nullptr;   // nullptr: the spare area is erased

  // The first `bytes` bytes of the page's data area as described above.
  void copy_data(uint8_t* out, uint32_t bytes) const;
  // The spare area (oob_bytes).
  void copy_oob(uint8_t* out, uint32_t oob_bytes) const;
};

class BlockPages {
 public:
  uint32_t programmed_pages() const { return static_cast<uint32_t>(tags_.size()); }
  // Appends one wordline (`count` pages). Capacities grow by doubling up to the block's size:
  // a full block holds exactly its pages, a partial one at most twice what it uses.
  void append_wordline(const PageImage* pages, uint32_t count, uint32_t pages_per_block,
                       uint32_t oob_bytes);
  PageView view(uint32_t page, uint32_t oob_bytes) const;
  // Host bytes held: this object, its containers' capacities and the metadata pages. A block of
  // user pages without spare bytes costs 32 + 8 x capacity: at most 16 bytes per page.
  uint64_t host_bytes() const;
  // Spare bytes held for pages whose program wrote them.
  uint64_t oob_bytes_held() const { return extras_ ? extras_->oob.size() : 0; }

 private:
  struct MetaPage {
    uint32_t page;
    std::shared_ptr<const std::vector<uint8_t>> bytes;  // shared with readers still holding it
  };
  // What only some blocks have, allocated with the first spare bytes or metadata page.
  struct Extras {
    std::vector<uint64_t> has_oob;  // bitmap of the pages with spare bytes
    uint32_t oob_prefix = 0;        // pages 0 .. oob_prefix - 1 all have them: rank = page
    std::vector<uint8_t> oob;       // their spare bytes, in page order
    std::vector<MetaPage> meta;     // metadata pages, in page order
  };

  Extras& extras(uint32_t pages_per_block);
  const MetaPage* find_meta(uint32_t page) const;
  uint64_t oob_rank(uint32_t page) const;  // pages before `page` that have spare bytes

  std::vector<data_tag_t> tags_;  // one per programmed page; a metadata page's first bytes
  std::unique_ptr<Extras> extras_;
};

}  // namespace ssdvp::nand
