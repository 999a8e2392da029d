// Sparse storage: what a page holds after a program, the erased pattern, and the host bytes the
// array's accounting reports for what was programmed.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "interface/data_tag.h"
#include "tb/tests/nand/array_fixture.h"

namespace ssdvp::nand {
namespace {

using test::ppn_of;
using test::small_config;
using test::Wordline;

// The target of the design: per programmed user page at most this many host bytes, plus the
// spare bytes its program wrote.
constexpr uint64_t kBytesPerUserPage = 16;

TEST(NandStorage, NothingIsHeldBeforeTheFirstProgram) {
  NandConfig config = small_config();
  config.blocks = 4096;
  NandArray array(config, 1);
  EXPECT_EQ(array.page_storage_bytes(), 0u);
  EXPECT_EQ(array.programmed_page_count(), 0u);
  PageView view;
  EXPECT_EQ(array.read(ppn_of(array, 1, 4000, 9), view), Status::kErased);
  EXPECT_EQ(array.page_storage_bytes(), 0u);
}

TEST(NandStorage, UserPagesCostAtMostSixteenBytesAtEveryFillLevel) {
  NandConfig config = small_config();
  config.pages = 256;  // 64 wordlines
  NandArray array(config, 1);
  const Wordline data(array, 0, false);
  for (uint32_t page = 0; page < 256; page += 4) {
    ASSERT_EQ(array.program(ppn_of(array, 0, 0, page), data.pages.data()), Status::kOk);
    const uint64_t pages = page + 4;
    EXPECT_EQ(array.programmed_page_count(), pages);
    EXPECT_LE(array.page_storage_bytes(), kBytesPerUserPage * pages) << pages << " pages";
  }
  // A full block holds exactly its tags and the 32-byte container.
  EXPECT_EQ(array.page_storage_bytes(), 256u * sizeof(data_tag_t) + 32);
  EXPECT_EQ(array.oob_bytes_stored(), 0u);
}

TEST(NandStorage, SpareBytesCostWhatTheProgramsWrote) {
  NandArray array(small_config(), 1);
  const Wordline data(array, 0, true);
  uint64_t pages = 0;
  for (uint32_t block = 0; block < 8; ++block) {
    for (uint32_t page = 0; page < 16; page += 4) {
      ASSERT_EQ(array.program(ppn_of(array, block % 2, block, page), data.pages.data()),
                Status::kOk);
      pages += 4;
    }
  }
  EXPECT_EQ(array.oob_bytes_stored(), pages * 16);
  EXPECT_LE(array.page_storage_bytes(), kBytesPerUserPage * pages + array.oob_bytes_stored());
}

TEST(NandStorage, TagsAndSpareBytesReadBack) {
  NandArray array(small_config(), 1);
  const Wordline first(array, 1000, true);
  const Wordline second(array, 2000, false);
  ASSERT_EQ(array.program(ppn_of(array, 1, 6, 0), first.pages.data()), Status::kOk);
  ASSERT_EQ(array.program(ppn_of(array, 1, 6, 4), second.pages.data()), Status::kOk);
  for (uint32_t page = 0; page < 8; ++page) {
    PageView view;
    ASSERT_EQ(array.read(ppn_of(array, 1, 6, page), view), Status::kOk);
    const uint32_t lpn = page < 4 ? 1000 + page : 2000 + page - 4;
    EXPECT_EQ(view.tag.lpn, lpn);
    EXPECT_EQ(view.tag.version, 7u);
    std::vector<uint8_t> spare(16);
    view.copy_oob(spare.data(), 16);
    if (page < 4) {
      EXPECT_EQ(spare, first.spare[page]) << "page " << page;
    } else {
      EXPECT_EQ(spare, std::vector<uint8_t>(16, 0xFF)) << "no spare written for page " << page;
    }
    // User data beyond the tag is not modelled: it reads as zeroes.
    std::vector<uint8_t> bytes(32);
    view.copy_data(bytes.data(), 32);
    data_tag_t tag;
    std::memcpy(&tag, bytes.data(), sizeof(tag));
    EXPECT_EQ(tag.lpn, lpn);
    EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + 8, bytes.end()), std::vector<uint8_t>(24, 0));
  }
}

TEST(NandStorage, SpareBytesOfSomeWordlinesOnlyReadBackAtTheirPages) {
  NandArray array(small_config(), 1);
  const Wordline with(array, 0, true);
  const Wordline without(array, 0, false);
  // Wordlines 0 and 2 without spare bytes, 1 and 3 with them.
  for (uint32_t page = 0; page < 16; page += 4) {
    const Wordline& data = page % 8 == 0 ? without : with;
    ASSERT_EQ(array.program(ppn_of(array, 0, 5, page), data.pages.data()), Status::kOk);
  }
  EXPECT_EQ(array.oob_bytes_stored(), 8u * 16);
  for (uint32_t page = 0; page < 16; ++page) {
    PageView view;
    ASSERT_EQ(array.read(ppn_of(array, 0, 5, page), view), Status::kOk);
    std::vector<uint8_t> spare(16);
    view.copy_oob(spare.data(), 16);
    const bool written = page % 8 >= 4;
    EXPECT_EQ(spare, written ? with.spare[page % 4] : std::vector<uint8_t>(16, 0xFF))
        << "page " << page;
  }
}

TEST(NandStorage, MetadataPagesKeepTheirBytes) {
  NandArray array(small_config(), 1);
  Wordline data(array, 0, false);
  std::vector<uint8_t> translation(300);
  for (size_t i = 0; i < translation.size(); ++i) translation[i] = static_cast<uint8_t>(i * 7);
  data.pages[2].meta = translation.data();
  data.pages[2].meta_bytes = 300;
  ASSERT_EQ(array.program(ppn_of(array, 0, 2, 0), data.pages.data()), Status::kOk);
  EXPECT_GE(array.page_storage_bytes(), 300u);

  PageView view;
  ASSERT_EQ(array.read(ppn_of(array, 0, 2, 2), view), Status::kOk);
  ASSERT_NE(view.meta, nullptr);
  EXPECT_EQ(view.meta_bytes, 300u);
  std::vector<uint8_t> bytes(400);
  view.copy_data(bytes.data(), 400);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 300), translation);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + 300, bytes.end()),
            std::vector<uint8_t>(100, 0xFF));
  // Read as user data, a metadata page shows its first bytes as the tag.
  data_tag_t first;
  std::memcpy(&first, translation.data(), sizeof(first));
  EXPECT_EQ(view.tag.lpn, first.lpn);
  EXPECT_EQ(view.tag.version, first.version);
  // Its neighbours stay user pages.
  ASSERT_EQ(array.read(ppn_of(array, 0, 2, 3), view), Status::kOk);
  EXPECT_EQ(view.meta, nullptr);
  EXPECT_EQ(view.tag.lpn, 3u);
}

TEST(NandStorage, ErasedPagesReadTheErasedPattern) {
  NandArray array(small_config(), 1);
  const Wordline data(array, 50, true);
  ASSERT_EQ(array.program(ppn_of(array, 0, 4, 0), data.pages.data()), Status::kOk);
  PageView view;
  ASSERT_EQ(array.read(ppn_of(array, 0, 4, 4), view), Status::kErased);
  EXPECT_EQ(view.tag.lpn, DATA_TAG_ERASED_WORD);
  EXPECT_EQ(view.tag.version, DATA_TAG_ERASED_WORD);
  std::vector<uint8_t> bytes(64);
  view.copy_data(bytes.data(), 64);
  EXPECT_EQ(bytes, std::vector<uint8_t>(64, 0xFF));
  std::vector<uint8_t> spare(16);
  view.copy_oob(spare.data(), 16);
  EXPECT_EQ(spare, std::vector<uint8_t>(16, 0xFF));
}

TEST(NandStorage, EraseReleasesTheBlocksStorage) {
  NandArray array(small_config(), 1);
  const Wordline data(array, 0, true);
  ASSERT_EQ(array.program(ppn_of(array, 1, 1, 0), data.pages.data()), Status::kOk);
  ASSERT_GT(array.page_storage_bytes(), 0u);
  ASSERT_EQ(array.erase(ppn_of(array, 1, 1, 9)), Status::kOk);
  EXPECT_EQ(array.page_storage_bytes(), 0u);
  EXPECT_EQ(array.oob_bytes_stored(), 0u);
  EXPECT_EQ(array.programmed_page_count(), 0u);
  PageView view;
  EXPECT_EQ(array.read(ppn_of(array, 1, 1, 0), view), Status::kErased);
}

}  // namespace
}  // namespace ssdvp::nand
