// The pool RQFTL's caches share (firmware/ftl/map/rqftl_pool.c): extents keep their contents
// through compactions, owners hear where theirs went, and a pinned extent never moves while the
// others close up around it.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

extern "C" {
#include "ftl/map/rqftl_pool.h"
}

namespace {

// Extents by owner, each filled with a pattern of its own, checked after every operation.
struct Pool {
  std::vector<uint64_t> cells;
  rqftl_pool_t pool{};
  std::map<uint32_t, uint32_t> where;  // owner -> header
  std::map<uint32_t, uint32_t> sizes;  // owner -> cells
  uint32_t moves = 0;

  explicit Pool(uint32_t count) : cells(count) {
    rqftl_pool_init(&pool, cells.data(), count, &Pool::moved, this);
  }

  static void moved(void* context, uint32_t owner, uint32_t index) {
    Pool* self = static_cast<Pool*>(context);
    ASSERT_TRUE(self->where.count(owner)) << "owner " << owner;
    ASSERT_LT(index, self->where[owner]) << "extents only slide down";
    self->where[owner] = index;
    ++self->moves;
  }

  static uint64_t pattern(uint32_t owner, uint32_t cell) { return owner * 1000003ull + cell; }

  bool alloc(uint32_t owner, uint32_t size) {
    uint32_t index = rqftl_pool_alloc(&pool, owner, size);
    if (index == RQFTL_POOL_NONE) return false;
    where[owner] = index;
    sizes[owner] = size;
    uint64_t* data = static_cast<uint64_t*>(rqftl_pool_data(&pool, index));
    for (uint32_t c = 0; c < size; ++c) data[c] = pattern(owner, c);
    return true;
  }

  void release(uint32_t owner) {
    rqftl_pool_free(&pool, where[owner]);
    where.erase(owner);
    sizes.erase(owner);
  }

  void check() const {
    uint32_t live = 0;
    for (const auto& [owner, index] : where) {
      const uint32_t size = sizes.at(owner);
      ASSERT_EQ(rqftl_pool_size(&pool, index), size);
      const uint64_t* data = static_cast<const uint64_t*>(rqftl_pool_data(&pool, index));
      for (uint32_t c = 0; c < size; ++c) ASSERT_EQ(data[c], pattern(owner, c)) << owner;
      live += size + 1;
    }
    ASSERT_EQ(pool.live, live);
  }
};

TEST(RqftlPool, ACompactionMovesTheExtentsAfterAHoleAndKeepsTheirContents) {
  Pool p(40);
  ASSERT_TRUE(p.alloc(1, 9));
  ASSERT_TRUE(p.alloc(2, 9));
  ASSERT_TRUE(p.alloc(3, 9));
  p.release(2);
  EXPECT_FALSE(p.alloc(4, 20)) << "19 cells free";
  ASSERT_TRUE(p.alloc(4, 18));
  EXPECT_EQ(p.pool.compactions, 1u);
  EXPECT_EQ(p.where[3], 10u);
  EXPECT_EQ(p.moves, 1u);
  p.check();
}

// A hole that fits takes a new extent without a compaction; neighbouring holes join, and holes
// that reach the top give their cells back to it.
TEST(RqftlPool, ANewExtentTakesTheFirstHoleThatFitsBeforeAnyCompaction) {
  Pool p(50);
  ASSERT_TRUE(p.alloc(1, 9));   // 0..9
  ASSERT_TRUE(p.alloc(2, 4));   // 10..14
  ASSERT_TRUE(p.alloc(3, 4));   // 15..19
  ASSERT_TRUE(p.alloc(4, 9));   // 20..29
  ASSERT_TRUE(p.alloc(5, 19));  // 30..49: full
  p.release(2);
  p.release(3);
  ASSERT_TRUE(p.alloc(6, 6));  // 2 + 5 + 5 cells joined: 10..16, a hole of 3 left
  EXPECT_EQ(p.where[6], 10u);
  EXPECT_EQ(p.pool.compactions, 0u);
  EXPECT_EQ(p.moves, 0u);
  ASSERT_TRUE(p.alloc(7, 2));  // the rest of that hole exactly
  EXPECT_EQ(p.where[7], 17u);
  p.release(5);
  ASSERT_TRUE(p.alloc(8, 19)) << "the freed extent at the top is the top again";
  EXPECT_EQ(p.where[8], 30u);
  EXPECT_EQ(p.pool.compactions, 0u);
  p.check();
}

TEST(RqftlPool, APinnedExtentStaysAndLaterOnesFillTheRoomBelowItWhenTheyFit) {
  Pool p(60);
  ASSERT_TRUE(p.alloc(1, 9));   // 0..9
  ASSERT_TRUE(p.alloc(2, 9));   // 10..19, pinned
  ASSERT_TRUE(p.alloc(3, 14));  // 20..34
  ASSERT_TRUE(p.alloc(4, 4));   // 35..39
  ASSERT_TRUE(p.alloc(5, 9));   // 40..49
  p.pool.pinned = p.where[2];
  p.release(1);
  p.release(3);
  ASSERT_TRUE(p.alloc(6, 19));
  EXPECT_EQ(p.where[2], 10u) << "the pinned extent did not move";
  EXPECT_EQ(p.where[4], 0u) << "fits below the pinned extent";
  EXPECT_EQ(p.where[5], 20u) << "does not fit below (5 cells left): right after it";
  p.check();
  // The room left below the pinned extent keeps the headers chained: once it is free, a
  // compaction closes everything up.
  p.release(2);
  ASSERT_TRUE(p.alloc(7, 19));
  EXPECT_EQ(p.where[5], 5u);
  p.check();
}

TEST(RqftlPool, RandomAllocationsFreesAndPinsKeepEveryExtentIntact) {
  Pool p(2000);
  std::mt19937 rng(5);
  uint32_t next_owner = 0;
  uint64_t refused = 0;
  uint32_t pinned_owner = RQFTL_POOL_NONE;
  for (int step = 0; step < 20000; ++step) {
    if (!p.where.empty() && rng() % 3 == 0) {
      auto it = p.where.begin();
      std::advance(it, rng() % p.where.size());
      if (it->first == pinned_owner) pinned_owner = RQFTL_POOL_NONE;
      p.release(it->first);
    } else if (!p.alloc(next_owner++, rng() % 80)) {
      ++refused;
    }
    if (rng() % 50 == 0) {
      p.pool.pinned = RQFTL_POOL_NONE;
      pinned_owner = RQFTL_POOL_NONE;
      if (!p.where.empty() && rng() % 2 == 0) {
        auto it = p.where.begin();
        std::advance(it, rng() % p.where.size());
        pinned_owner = it->first;
        p.pool.pinned = it->second;
      }
    }
    ASSERT_NO_FATAL_FAILURE(p.check());
    if (pinned_owner != RQFTL_POOL_NONE) {
      ASSERT_EQ(p.where[pinned_owner], p.pool.pinned) << "the pinned extent moved";
    } else {
      ASSERT_EQ(p.pool.pinned, RQFTL_POOL_NONE) << "freeing the pinned extent unpins it";
    }
  }
  EXPECT_GT(p.pool.compactions, 100u);
  EXPECT_GT(refused, 0u);
}

}  // namespace
