#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

extern "C" {
#include "lib/arena.h"
#include "lib/bitmap.h"
#include "lib/hash.h"
#include "lib/list.h"
}

namespace {

struct Item {
  int value;
  list_node_t link;
};

std::vector<int> values_of(const list_node_t *head) {
  std::vector<int> out;
  for (const list_node_t *n = head->next; n != head; n = n->next) {
    out.push_back(LIST_ENTRY(n, const Item, link)->value);
  }
  return out;
}

TEST(List, PushMoveRemoveKeepOrder) {
  list_node_t head;
  list_init(&head);
  EXPECT_TRUE(list_empty(&head));
  EXPECT_EQ(list_front(&head), nullptr);
  Item items[4] = {{0, {}}, {1, {}}, {2, {}}, {3, {}}};
  for (auto &item : items) list_push_back(&head, &item.link);
  EXPECT_EQ(values_of(&head), (std::vector<int>{0, 1, 2, 3}));
  list_move_front(&head, &items[2].link);
  EXPECT_EQ(values_of(&head), (std::vector<int>{2, 0, 1, 3}));
  list_remove(&items[0].link);
  EXPECT_FALSE(list_linked(&items[0].link));
  EXPECT_TRUE(list_linked(&items[1].link));
  EXPECT_EQ(values_of(&head), (std::vector<int>{2, 1, 3}));
  EXPECT_EQ(LIST_ENTRY(list_back(&head), Item, link)->value, 3);
  EXPECT_EQ(LIST_ENTRY(list_pop_front(&head), Item, link)->value, 2);
  list_push_front(&head, &items[0].link);
  EXPECT_EQ(values_of(&head), (std::vector<int>{0, 1, 3}));
}

TEST(Bitmap, SetClearCountAndScan) {
  const uint32_t bits = 100;
  std::vector<uint32_t> map(bitmap_words(bits), 0);
  EXPECT_EQ(map.size(), 4u);
  std::set<uint32_t> reference;
  std::mt19937 rng(5);
  for (int i = 0; i < 300; ++i) {
    uint32_t bit = rng() % bits;
    if (rng() % 3 == 0) {
      bitmap_clear(map.data(), bit);
      reference.erase(bit);
    } else {
      bitmap_set(map.data(), bit);
      reference.insert(bit);
    }
  }
  EXPECT_EQ(bitmap_count(map.data(), bits), reference.size());
  std::vector<uint32_t> scanned;
  for (uint32_t b = bitmap_next_set(map.data(), bits, 0); b != BITMAP_NONE;
       b = bitmap_next_set(map.data(), bits, b + 1)) {
    scanned.push_back(b);
  }
  EXPECT_EQ(scanned, std::vector<uint32_t>(reference.begin(), reference.end()));
  for (uint32_t b = 0; b < bits; ++b) EXPECT_EQ(bitmap_test(map.data(), b), reference.count(b) == 1);
}

TEST(Bitmap, ClearRangeAndTailBits) {
  std::vector<uint32_t> map(4, 0xFFFFFFFFu);
  bitmap_clear_range(map.data(), 5, 70);  // 5..74
  for (uint32_t b = 0; b < 128; ++b) EXPECT_EQ(bitmap_test(map.data(), b), b < 5 || b >= 75) << b;
  // Bits past `bits` in the last word are ignored by count and scan.
  EXPECT_EQ(bitmap_count(map.data(), 80), 5u + 5u);
  EXPECT_EQ(bitmap_next_set(map.data(), 80, 5), 75u);
  EXPECT_EQ(bitmap_next_set(map.data(), 75, 5), BITMAP_NONE);
  EXPECT_EQ(bitmap_next_set(map.data(), 80, 80), BITMAP_NONE);
}

TEST(Hash, SizesChargeTheIndexOverhead) {
  EXPECT_EQ(hash_slots_for(3), 4u);
  EXPECT_EQ(hash_slots_for(12), 16u);
  EXPECT_EQ(hash_slots_for(13), 32u);
  EXPECT_EQ(hash_bytes_for(12), 16u * 8u);
  alignas(8) static uint8_t memory[64];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
  hash_table_t table;
  EXPECT_FALSE(hash_init(&table, &arena, "too_big", 12));
}

// A long randomised sequence against std::unordered_map, with keys clustered so probe chains
// collide and wrap around the end of the table.
TEST(Hash, MatchesAReferenceMapUnderChurn) {
  const uint32_t keys = 300;
  alignas(8) static uint8_t memory[8192];
  arena_t arena;
  arena_init(&arena, memory, sizeof memory, FW_STATS_LOCATION_SRAM);
  hash_table_t table;
  ASSERT_TRUE(hash_init(&table, &arena, "cmt_index", keys));
  std::unordered_map<uint32_t, uint32_t> reference;
  std::mt19937 rng(42);
  for (int step = 0; step < 200000; ++step) {
    uint32_t key = rng() % 1000;
    uint32_t op = rng() % 3;
    if (op == 0) {
      uint32_t value = rng();
      bool accepted = hash_put(&table, key, value);
      bool should = reference.count(key) == 1 || reference.size() < keys;
      ASSERT_EQ(accepted, should) << step;
      if (accepted) reference[key] = value;
    } else if (op == 1) {
      ASSERT_EQ(hash_remove(&table, key), reference.erase(key) == 1) << step;
    } else {
      uint32_t value = 0;
      bool found = hash_find(&table, key, &value);
      auto it = reference.find(key);
      ASSERT_EQ(found, it != reference.end()) << step;
      if (found) {
        ASSERT_EQ(value, it->second) << step;
      }
    }
    ASSERT_EQ(table.count, reference.size());
  }
  for (auto [key, value] : reference) {
    uint32_t found = 0;
    ASSERT_TRUE(hash_find(&table, key, &found));
    EXPECT_EQ(found, value);
  }
  EXPECT_FALSE(hash_put(&table, HASH_KEY_EMPTY, 1));
  hash_clear(&table);
  EXPECT_EQ(table.count, 0u);
  uint32_t unused;
  EXPECT_FALSE(hash_find(&table, reference.begin()->first, &unused));
}

}  // namespace
