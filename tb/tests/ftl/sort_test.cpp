#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

extern "C" {
#include "lib/sort.h"
}

namespace {

std::vector<uint32_t> random_keys(uint32_t count, uint32_t range, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys(count);
  for (auto &key : keys) key = range == 0 ? rng() : rng() % range;
  return keys;
}

// Sorts a copy with sort_u32 and with std::sort and expects the same result.
void expect_sorts_like_std(const std::vector<uint32_t> &input) {
  std::vector<uint32_t> actual = input;
  std::vector<uint32_t> expected = input;
  sort_u32(actual.data(), static_cast<uint32_t>(actual.size()));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(actual, expected) << "n=" << input.size();
}

// Sorts the pairs with sort_pairs_u32: keys must come out ascending and every (key, value) pair
// of the input must still be there, once each.
void expect_pairs_sorted(std::vector<uint32_t> keys, std::vector<uint32_t> values) {
  std::vector<std::pair<uint32_t, uint32_t>> expected;
  for (size_t i = 0; i < keys.size(); ++i) expected.emplace_back(keys[i], values[i]);
  sort_pairs_u32(keys.data(), values.data(), static_cast<uint32_t>(keys.size()));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  std::vector<std::pair<uint32_t, uint32_t>> actual;
  for (size_t i = 0; i < keys.size(); ++i) actual.emplace_back(keys[i], values[i]);
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  EXPECT_EQ(actual, expected) << "n=" << keys.size();
}

struct Mapping {
  uint32_t lpn;
  uint32_t vpn;
};

int compare_by_lpn(const void *a, const void *b) {
  uint32_t x = static_cast<const Mapping *>(a)->lpn;
  uint32_t y = static_cast<const Mapping *>(b)->lpn;
  return x < y ? -1 : x > y ? 1 : 0;
}

// Comparisons made through compare_counted (the cost a sort pays under a comparator).
uint64_t comparisons = 0;

int compare_counted(const void *a, const void *b) {
  ++comparisons;
  uint32_t x = *static_cast<const uint32_t *>(a);
  uint32_t y = *static_cast<const uint32_t *>(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

// McIlroy's "killer adversary for quicksort": values are decided only as the sort compares them,
// always so that the element the sort seems to use as a pivot comes out small. It drives any
// quicksort without a fallback to quadratic comparisons.
struct Adversary {
  std::vector<uint32_t> value;
  uint32_t gas;
  uint32_t solid = 0;
  uint32_t candidate = 0;
};
Adversary *adversary = nullptr;

int compare_adversarial(const void *a, const void *b) {
  ++comparisons;
  uint32_t x = *static_cast<const uint32_t *>(a);
  uint32_t y = *static_cast<const uint32_t *>(b);
  Adversary &adv = *adversary;
  if (adv.value[x] == adv.gas && adv.value[y] == adv.gas) {
    adv.value[x == adv.candidate ? x : y] = adv.solid++;
  }
  if (adv.value[x] == adv.gas) {
    adv.candidate = x;
  } else if (adv.value[y] == adv.gas) {
    adv.candidate = y;
  }
  return adv.value[x] < adv.value[y] ? -1 : adv.value[x] > adv.value[y] ? 1 : 0;
}

double n_log2_n(uint32_t n) { return n * std::log2(static_cast<double>(n)); }

TEST(Sort, EmptyAndOneElement) {
  sort_u32(nullptr, 0);
  sort_pairs_u32(nullptr, nullptr, 0);
  sort_records(nullptr, 0, sizeof(Mapping), compare_by_lpn);
  uint32_t key = 42;
  uint32_t value = 7;
  sort_u32(&key, 1);
  EXPECT_EQ(key, 42u);
  sort_pairs_u32(&key, &value, 1);
  EXPECT_EQ(key, 42u);
  EXPECT_EQ(value, 7u);
  Mapping mapping = {3, 9};
  sort_records(&mapping, 1, sizeof mapping, compare_by_lpn);
  EXPECT_EQ(mapping.lpn, 3u);
  EXPECT_EQ(mapping.vpn, 9u);
}

TEST(Sort, TwoAndThreeElements) {
  expect_sorts_like_std({2, 1});
  expect_sorts_like_std({1, 2});
  for (std::vector<uint32_t> keys = {1, 2, 3};;) {
    expect_sorts_like_std(keys);
    if (!std::next_permutation(keys.begin(), keys.end())) break;
  }
}

// Sizes around the insertion-sort cutoff and well past it.
const uint32_t kSizes[] = {2, 5, 15, 16, 17, 18, 31, 33, 100, 257, 1000, 4096};

TEST(Sort, AlreadySortedAndReversed) {
  for (uint32_t n : kSizes) {
    std::vector<uint32_t> ascending(n);
    for (uint32_t i = 0; i < n; ++i) ascending[i] = i * 3u;
    expect_sorts_like_std(ascending);
    std::vector<uint32_t> descending(ascending.rbegin(), ascending.rend());
    expect_sorts_like_std(descending);
  }
}

TEST(Sort, AllEqual) {
  for (uint32_t n : kSizes) {
    expect_sorts_like_std(std::vector<uint32_t>(n, 7u));
    std::vector<uint32_t> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = i;
    expect_pairs_sorted(std::vector<uint32_t>(n, 7u), values);
  }
}

TEST(Sort, ManyDuplicates) {
  for (uint32_t range : {2u, 3u, 10u}) {
    for (uint32_t n : kSizes) expect_sorts_like_std(random_keys(n, range, n + range));
  }
}

TEST(Sort, RandomMatchesStdSort) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    for (uint32_t n : kSizes) expect_sorts_like_std(random_keys(n, 0, seed * 1000u + n));
  }
  // Keys at the ends of the range.
  expect_sorts_like_std({0xFFFFFFFFu, 0, 0x80000000u, 0xFFFFFFFEu, 1, 0, 0xFFFFFFFFu});
}

TEST(Sort, PatternedInputs) {
  const uint32_t n = 1000;
  std::vector<uint32_t> organ_pipe(n), sawtooth(n), nearly_sorted(n);
  for (uint32_t i = 0; i < n; ++i) {
    organ_pipe[i] = i < n / 2 ? i : n - i;
    sawtooth[i] = i % 37u;
    nearly_sorted[i] = i;
  }
  std::swap(nearly_sorted[10], nearly_sorted[900]);
  expect_sorts_like_std(organ_pipe);
  expect_sorts_like_std(sawtooth);
  expect_sorts_like_std(nearly_sorted);
}

TEST(Sort, PairsStayPaired) {
  for (uint32_t n : kSizes) {
    // Keys with duplicates (LPNs written twice in a batch); values unique (VPNs).
    std::vector<uint32_t> keys = random_keys(n, n / 2u + 1u, n);
    std::vector<uint32_t> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = 0x10000u + i;
    expect_pairs_sorted(keys, values);
  }
  // A value that is a function of its key makes a lost pairing visible directly.
  std::vector<uint32_t> keys = random_keys(5000, 0, 77);
  std::vector<uint32_t> values(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) values[i] = keys[i] ^ 0xA5A5A5A5u;
  sort_pairs_u32(keys.data(), values.data(), static_cast<uint32_t>(keys.size()));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(values[i], keys[i] ^ 0xA5A5A5A5u) << i;
}

TEST(Sort, LargeArrays) {
  const uint32_t n = 100000;
  expect_sorts_like_std(random_keys(n, 0, 1));
  expect_sorts_like_std(random_keys(n, 100, 2));
  std::vector<uint32_t> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = i;
  expect_pairs_sorted(random_keys(n, n, 3), values);
}

TEST(Sort, RecordsByCompare) {
  for (uint32_t n : kSizes) {
    std::vector<uint32_t> lpns = random_keys(n, n, n * 7u);
    std::vector<Mapping> mappings(n);
    for (uint32_t i = 0; i < n; ++i) mappings[i] = {lpns[i], lpns[i] + 1000u};
    sort_records(mappings.data(), n, sizeof(Mapping), compare_by_lpn);
    std::sort(lpns.begin(), lpns.end());
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(mappings[i].lpn, lpns[i]) << "n=" << n << " i=" << i;
      ASSERT_EQ(mappings[i].vpn, lpns[i] + 1000u) << "n=" << n << " i=" << i;
    }
  }
}

TEST(Sort, RecordsOfOddSize) {
  // Three-byte records, compared by their first byte: swaps must move whole records.
  const uint32_t n = 500;
  std::mt19937 rng(9);
  std::vector<uint8_t> records(n * 3u);
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t key = static_cast<uint8_t>(rng());
    records[i * 3u] = key;
    records[i * 3u + 1u] = static_cast<uint8_t>(~key);
    records[i * 3u + 2u] = static_cast<uint8_t>(key ^ 0x5Au);
  }
  sort_records(records.data(), n, 3, [](const void *a, const void *b) {
    return static_cast<int>(*static_cast<const uint8_t *>(a)) -
           static_cast<int>(*static_cast<const uint8_t *>(b));
  });
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t key = records[i * 3u];
    if (i > 0) {
      ASSERT_LE(records[(i - 1u) * 3u], key) << i;
    }
    ASSERT_EQ(records[i * 3u + 1u], static_cast<uint8_t>(~key)) << i;
    ASSERT_EQ(records[i * 3u + 2u], static_cast<uint8_t>(key ^ 0x5Au)) << i;
  }
}

// The worst case stays O(n log n): an adversary that makes every pivot bad must hand the work to
// heapsort, and ordinary inputs stay near the n log2 n of a good quicksort.
TEST(Sort, ComparisonsStayNLogN) {
  const uint32_t n = 4096;
  Adversary adv;
  adv.gas = n;
  adv.value.assign(n, n);
  adversary = &adv;
  std::vector<uint32_t> items(n);
  for (uint32_t i = 0; i < n; ++i) items[i] = i;
  comparisons = 0;
  sort_records(items.data(), n, sizeof(uint32_t), compare_adversarial);
  adversary = nullptr;
  // A quicksort that never falls back makes about n^2 / 4 = 4.2M comparisons here.
  EXPECT_LE(comparisons, 6.0 * n_log2_n(n)) << comparisons;
  for (uint32_t i = 1; i < n; ++i) ASSERT_LE(adv.value[items[i - 1]], adv.value[items[i]]) << i;

  // Organ pipe defeats median-of-three too, yet stays within the same bound.
  std::vector<uint32_t> organ_pipe(n);
  for (uint32_t i = 0; i < n; ++i) organ_pipe[i] = i < n / 2 ? i : n - i;
  comparisons = 0;
  sort_records(organ_pipe.data(), n, sizeof(uint32_t), compare_counted);
  EXPECT_TRUE(std::is_sorted(organ_pipe.begin(), organ_pipe.end()));
  EXPECT_LE(comparisons, 6.0 * n_log2_n(n));

  // Random keys, with and without many duplicates: about 1.2 n log2 n.
  for (uint32_t range : {0u, 4u}) {
    std::vector<uint32_t> keys = random_keys(n, range, 4);
    comparisons = 0;
    sort_records(keys.data(), n, sizeof(uint32_t), compare_counted);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    EXPECT_LE(comparisons, 1.5 * n_log2_n(n)) << "range=" << range;
  }
}

}  // namespace
