// The RQRMI library (firmware/ml) on the host: the fixed-point inference against the contract's
// arithmetic, model validation, exhaustive and randomised lookups, exact error bounds, training
// configuration and retraining.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "tb/tests/rqrmi/range_arrays.h"

namespace ssdvp::test {
namespace {

constexpr int64_t kXMax = (int64_t{1} << 24) - 1;

// interface/rqrmi_model.h's arithmetic written out in 128-bit integers, with the floor of the
// accumulator's scaling computed by division.
uint32_t contract_output(const rqrmi_submodel_t& sub, uint32_t key) {
  const __int128 distance = key >= sub.in_lo ? key - sub.in_lo : 0;
  const unsigned shift = sub.config & 0x3F;
  __int128 x = (distance * (__int128{1} << 24)) / (__int128{1} << shift);
  x = std::min<__int128>(x, kXMax);
  __int128 acc = 0;
  for (unsigned j = 0; j < 8; ++j) {
    const bool negative = (sub.config >> (8 + j)) & 1;
    const __int128 z = negative ? sub.unit[j].b1 - x : sub.unit[j].b1 + x;
    if (z > 0) acc += z * sub.unit[j].w2;
  }
  const __int128 unit = __int128{1} << 20;
  const __int128 floor_acc = acc >= 0 ? acc / unit : -((-acc + unit - 1) / unit);
  const __int128 y = floor_acc + sub.b2;
  return static_cast<uint32_t>(std::clamp<__int128>(y, 0, kXMax));
}

rqrmi_submodel_t random_submodel(std::mt19937& random) {
  rqrmi_submodel_t sub{};
  std::uniform_int_distribution<uint32_t> any;
  std::uniform_int_distribution<int32_t> b1(-(1 << 25), 1 << 25);
  std::uniform_int_distribution<int32_t> any_signed(INT32_MIN, INT32_MAX);
  sub.in_lo = any(random) >> (any(random) % 32);
  sub.config = (any(random) % 33) | ((any(random) & 0xFF) << 8);
  sub.b2 = any_signed(random);
  for (auto& unit : sub.unit) {
    unit.b1 = b1(random);
    unit.w2 = any_signed(random) >> (any(random) % 16);
  }
  return sub;
}

TEST(RqrmiInference, SubmodelOutputFollowsTheFixedPointContract) {
  std::mt19937 random(11);
  std::uniform_int_distribution<uint32_t> any;
  for (int model = 0; model < 300; ++model) {
    const rqrmi_submodel_t sub = random_submodel(random);
    for (int k = 0; k < 300; ++k) {
      // Keys near in_lo exercise the unsaturated inputs, others the saturated ones.
      const uint32_t key = k % 2 ? any(random) : sub.in_lo + (any(random) >> (any(random) % 32));
      ASSERT_EQ(rqrmi_submodel_output(&sub, key), contract_output(sub, key))
          << "model " << model << " key " << key;
    }
  }
}

TEST(RqrmiInference, ModelBytesCountHeaderAndRecords) {
  const uint32_t two_stages[] = {1, 4, 0, 0};
  EXPECT_EQ(rqrmi_model_bytes(2, two_stages), 32u + 5u * 80u);
  const uint32_t three_stages[] = {1, 16, 256, 0};
  EXPECT_EQ(rqrmi_model_bytes(3, three_stages), 32u + 273u * 80u);
  const uint32_t bad_root[] = {2, 4, 0, 0};
  EXPECT_EQ(rqrmi_model_bytes(2, bad_root), 0u);
  const uint32_t empty_stage[] = {1, 0, 0, 0};
  EXPECT_EQ(rqrmi_model_bytes(2, empty_stage), 0u);
  EXPECT_EQ(rqrmi_model_bytes(5, two_stages), 0u);
}

// ---- Validation ---------------------------------------------------------------------------------

class RqrmiValidation : public ::testing::Test {
 protected:
  RqrmiValidation()
      : ranges_(uniform_ranges(200, 3, 1000, 50, 30)), trained_(ranges_, train_config({4}, 256)) {}

  rqrmi_status_t validate(const std::vector<uint32_t>& words, size_t bytes,
                          const std::vector<rqrmi_range_t>& ranges, uint32_t* where = nullptr) {
    return rqrmi_validate(reinterpret_cast<const rqrmi_model_t*>(words.data()), bytes,
                          ranges.data(), static_cast<uint32_t>(ranges.size()), where);
  }
  std::vector<uint32_t> words() const { return trained_.words(); }

  std::vector<rqrmi_range_t> ranges_;
  TrainedModel trained_;
};

TEST_F(RqrmiValidation, TrainedModelPasses) {
  EXPECT_EQ(validate(words(), trained_.bytes(), ranges_), RQRMI_OK);
}

TEST_F(RqrmiValidation, WrongSizeIsRefused) {
  std::vector<uint32_t> model = words();
  EXPECT_EQ(validate(model, trained_.bytes() - 4, ranges_), RQRMI_ERR_MODEL_SIZE);
  model.push_back(0);
  EXPECT_EQ(validate(model, trained_.bytes() + 4, ranges_), RQRMI_ERR_MODEL_SIZE);
  model = words();
  model[RQRMI_HEADER_SIZE_BYTES] += 80;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_MODEL_SIZE);
  EXPECT_EQ(validate(model, 16, ranges_), RQRMI_ERR_MODEL_SIZE);
}

TEST_F(RqrmiValidation, BadHeaderIsRefused) {
  std::vector<uint32_t> model = words();
  model[RQRMI_HEADER_MAGIC] ^= 1;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_MODEL_MAGIC);
  model = words();
  model[RQRMI_HEADER_STAGE_COUNT] = 0;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_STAGES);
  model = words();
  model[RQRMI_HEADER_STAGE_WIDTH(3)] = 1;
  uint32_t where = 0;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_, &where), RQRMI_ERR_STAGES);
  EXPECT_EQ(where, 3u);
  model = words();
  std::vector<rqrmi_range_t> fewer(ranges_.begin(), ranges_.end() - 1);
  EXPECT_EQ(validate(model, trained_.bytes(), fewer), RQRMI_ERR_RANGE_COUNT);
}

TEST_F(RqrmiValidation, UnsortedOverlappingOrInvertedRangesAreRefused) {
  uint32_t where = 0;
  std::vector<rqrmi_range_t> unsorted = ranges_;
  std::swap(unsorted[40], unsorted[41]);
  EXPECT_EQ(validate(words(), trained_.bytes(), unsorted, &where), RQRMI_ERR_RANGES_UNSORTED);
  EXPECT_EQ(where, 41u);

  std::vector<rqrmi_range_t> overlapping = ranges_;
  overlapping[77].lo = overlapping[76].hi;
  EXPECT_EQ(validate(words(), trained_.bytes(), overlapping, &where), RQRMI_ERR_RANGES_OVERLAP);
  EXPECT_EQ(where, 77u);

  std::vector<rqrmi_range_t> inverted = ranges_;
  inverted[5].hi = inverted[5].lo - 1;
  EXPECT_EQ(validate(words(), trained_.bytes(), inverted, &where), RQRMI_ERR_RANGE_INVERTED);
  EXPECT_EQ(where, 5u);

  EXPECT_EQ(rqrmi_check_ranges(ranges_.data(), 0, nullptr), RQRMI_ERR_RANGE_COUNT);
}

TEST_F(RqrmiValidation, WeightsOutsideTheFormatAreRefused) {
  const size_t second = RQRMI_HEADER_WORDS + RQRMI_SUBMODEL_WORDS;
  uint32_t where = 0;
  std::vector<uint32_t> model = words();
  model[second + RQRMI_SUB_CONFIG] = 33;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_, &where), RQRMI_ERR_WEIGHTS);
  EXPECT_EQ(where, 1u);
  model = words();
  model[second + RQRMI_SUB_CONFIG] |= 0x10000;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_WEIGHTS);
  model = words();
  model[second + RQRMI_SUB_B1(2)] = static_cast<uint32_t>(-(1 << 25) - 1);
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_WEIGHTS);
}

TEST_F(RqrmiValidation, ErrorBoundsOutOfRangeAreRefused) {
  std::vector<uint32_t> model = words();
  model[RQRMI_HEADER_WORDS + RQRMI_SUB_ERROR] = 1;  // stage 0 carries no bound
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_ERROR_BOUND);
  model = words();
  model[RQRMI_HEADER_WORDS + 4 * RQRMI_SUBMODEL_WORDS + RQRMI_SUB_ERROR] = 200;
  EXPECT_EQ(validate(model, trained_.bytes(), ranges_), RQRMI_ERR_ERROR_BOUND);
}

// ---- Lookups and bounds -------------------------------------------------------------------------

// Every key of [0, last hi + 64]: the lookup equals the brute-force answer, every covered key is
// predicted within its submodel's bound, and each bound is reached by some key (it is exact).
void check_exhaustively(const std::vector<rqrmi_range_t>& ranges,
                        const rqrmi_train_config_t& config) {
  const TrainedModel trained(ranges, config);
  ASSERT_EQ(trained.status(), RQRMI_OK);
  const rqrmi_model_t* model = trained.model();
  ASSERT_EQ(rqrmi_validate(model, trained.bytes(), ranges.data(),
                           static_cast<uint32_t>(ranges.size()), nullptr),
            RQRMI_OK);
  std::map<uint32_t, uint32_t> worst;  // last-stage record -> largest error seen
  size_t range = 0;
  for (uint32_t key = 0; key <= ranges.back().hi + 64; ++key) {
    while (range < ranges.size() && ranges[range].hi < key) ++range;
    const bool covered = range < ranges.size() && ranges[range].lo <= key;
    const uint32_t expected = covered ? static_cast<uint32_t>(range) : RQRMI_NONE;
    ASSERT_EQ(rqrmi_lookup(model, ranges.data(), key), expected) << "key " << key;
    if (!covered) continue;
    const rqrmi_prediction_t prediction = rqrmi_predict(model, key);
    const uint32_t error = prediction.index > range ? prediction.index - range
                                                    : static_cast<uint32_t>(range) - prediction.index;
    const uint32_t record = last_stage_submodel(model, key);
    ASSERT_EQ(prediction.error, model->submodel[record].error);
    ASSERT_LE(error, prediction.error) << "key " << key << " in range " << range;
    worst[record] = std::max(worst[record], error);
  }
  const uint32_t last_base = rqrmi_stage_base(model, model->stage_count - 1);
  for (uint32_t record = last_base; record < rqrmi_submodel_count(model); ++record) {
    EXPECT_EQ(model->submodel[record].error, worst[record]) << "submodel " << record;
  }
}

TEST(RqrmiLookup, ExhaustiveOnSmallUniformArrays) {
  for (uint32_t n : {1u, 2u, 3u, 17u, 100u, 700u}) {
    SCOPED_TRACE(n);
    const auto ranges = uniform_ranges(n, n, 5, 40, 20);
    check_exhaustively(ranges, train_config({}, 64));
    check_exhaustively(ranges, train_config({4}, 256));
    check_exhaustively(ranges, train_config({2, 8}, 128));
  }
}

TEST(RqrmiLookup, ExhaustiveOnClusteredArrays) {
  check_exhaustively(clustered_ranges(500, 9, 40, 3000), train_config({4}, 1024));
  check_exhaustively(clustered_ranges(300, 10, 8, 20000), train_config({8, 16}, 64));
  check_exhaustively(clustered_ranges(2000, 12, 64, 1000), train_config({3, 5, 7}, 200));
}

TEST(RqrmiLookup, ExhaustiveOnContiguousRanges) {
  // No gaps: every key between the first and the last is covered.
  check_exhaustively(uniform_ranges(1000, 4, 0, 0, 9), train_config({4}, 16384));
}

// Random keys over 64K ranges: each range's ends, random covered keys and keys in the gaps.
void check_randomly(const std::vector<rqrmi_range_t>& ranges, const rqrmi_train_config_t& config,
                    uint32_t seed) {
  const TrainedModel trained(ranges, config);
  ASSERT_EQ(trained.status(), RQRMI_OK);
  const rqrmi_model_t* model = trained.model();
  const auto check = [&](uint32_t key, uint32_t expected) {
    ASSERT_EQ(rqrmi_lookup(model, ranges.data(), key), expected) << "key " << key;
    if (expected == RQRMI_NONE) return;
    const rqrmi_prediction_t prediction = rqrmi_predict(model, key);
    const uint32_t error = prediction.index > expected ? prediction.index - expected
                                                       : expected - prediction.index;
    ASSERT_LE(error, prediction.error) << "key " << key;
  };
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> pick(0, static_cast<uint32_t>(ranges.size() - 1));
  for (uint32_t i = 0; i < ranges.size(); ++i) {
    check(ranges[i].lo, i);
    check(ranges[i].hi, i);
  }
  for (int k = 0; k < 200000; ++k) {
    const uint32_t i = pick(random);
    const rqrmi_range_t& r = ranges[i];
    check(std::uniform_int_distribution<uint32_t>(r.lo, r.hi)(random), i);
    if (i + 1 < ranges.size() && r.hi + 1 < ranges[i + 1].lo) {
      check(std::uniform_int_distribution<uint32_t>(r.hi + 1, ranges[i + 1].lo - 1)(random),
            RQRMI_NONE);
    }
  }
  if (ranges.front().lo > 0) check(ranges.front().lo - 1, RQRMI_NONE);
  if (ranges.back().hi < UINT32_MAX) check(UINT32_MAX, RQRMI_NONE);
}

TEST(RqrmiLookup, RandomisedOn64KUniformRanges) {
  check_randomly(uniform_ranges(65536, 21, 100, 60000, 5000), train_config({4}, 16384), 1);
}

TEST(RqrmiLookup, RandomisedOn64KClusteredRanges) {
  check_randomly(clustered_ranges(65536, 22, 64, 200000), train_config({4}, 16384), 2);
  check_randomly(clustered_ranges(65536, 23, 16, 1000000), train_config({16, 64}, 4096), 3);
}

// ---- Training -----------------------------------------------------------------------------------

TEST(RqrmiTraining, IsDeterministic) {
  const auto ranges = clustered_ranges(5000, 5, 32, 5000);
  const TrainedModel first(ranges, train_config({4}, 16384));
  const TrainedModel second(ranges, train_config({4}, 16384));
  EXPECT_EQ(first.words(), second.words());
}

TEST(RqrmiTraining, BadConfigurationsAreRefused) {
  rqrmi_train_config_t config = train_config({4}, 1024);
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_OK);
  config.samples = 1;
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_ERR_CONFIG);
  config = train_config({4}, 1024);
  config.max_rounds = 0;
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_ERR_CONFIG);
  config = train_config({4}, 1024);
  config.max_model_bytes = 100;  // less than the configured stages need
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_ERR_CONFIG);
  config = train_config({0}, 1024);
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_ERR_STAGES);
  config = train_config({4, 4, 4, 4}, 1024);
  EXPECT_EQ(rqrmi_train_check_config(&config), RQRMI_ERR_STAGES);
  EXPECT_EQ(rqrmi_train_workspace_bytes(&config), 0u);
}

TEST(RqrmiTraining, SmallBuffersAreRefused) {
  const auto ranges = uniform_ranges(100, 1, 0, 10, 10);
  const rqrmi_train_config_t config = train_config({4}, 256);
  const size_t capacity = rqrmi_train_model_capacity(&config);
  ASSERT_EQ(capacity, 32u + 5u * 80u);
  std::vector<uint32_t> model(capacity / 4);
  std::vector<uint8_t> workspace(rqrmi_train_workspace_bytes(&config));
  auto* image = reinterpret_cast<rqrmi_model_t*>(model.data());
  EXPECT_EQ(rqrmi_train(&config, ranges.data(), 100, image, capacity - 4, workspace.data(),
                        workspace.size(), nullptr),
            RQRMI_ERR_WORKSPACE);
  EXPECT_EQ(rqrmi_train(&config, ranges.data(), 100, image, capacity, workspace.data(),
                        workspace.size() - 1, nullptr),
            RQRMI_ERR_WORKSPACE);
  EXPECT_EQ(rqrmi_train(&config, ranges.data(), 100, image, capacity, workspace.data(),
                        workspace.size(), nullptr),
            RQRMI_OK);
}

TEST(RqrmiTraining, RefusesBadRangeArrays) {
  auto ranges = uniform_ranges(100, 1, 0, 10, 10);
  ranges[50].lo = ranges[49].hi;
  const rqrmi_train_config_t config = train_config({4}, 256);
  std::vector<uint32_t> model(rqrmi_train_model_capacity(&config) / 4);
  std::vector<uint8_t> workspace(rqrmi_train_workspace_bytes(&config));
  EXPECT_EQ(rqrmi_train(&config, ranges.data(), 100, reinterpret_cast<rqrmi_model_t*>(model.data()),
                        model.size() * 4, workspace.data(), workspace.size(), nullptr),
            RQRMI_ERR_RANGES_OVERLAP);
}

TEST(RqrmiTraining, WidensTheLastStageWithinTheByteBudgetUntilTheTargetHolds) {
  const auto ranges = clustered_ranges(20000, 8, 64, 100000);
  rqrmi_train_config_t config = train_config({2}, 4096);
  const TrainedModel once(ranges, config);
  ASSERT_GT(once.report().max_error, 8u) << "the data must need retraining for this test";

  config.error_target = 8;
  config.max_rounds = 12;
  config.max_model_bytes = 32 + 80 * (1 + 1024);
  const TrainedModel widened(ranges, config);
  const rqrmi_train_report_t& report = widened.report();
  EXPECT_EQ(report.target_met, 1u);
  EXPECT_LE(report.max_error, 8u);
  EXPECT_GT(report.last_stage_width, 2u);
  // Widening doubles: the width is 2 << (rounds - 1), within the budget.
  EXPECT_EQ(report.last_stage_width, 2u << (report.rounds - 1));
  EXPECT_LE(report.model_bytes, config.max_model_bytes);
  EXPECT_EQ(report.model_bytes, 32u + 80u * (1 + report.last_stage_width));
  EXPECT_EQ(rqrmi_validate(widened.model(), widened.bytes(), ranges.data(), 20000, nullptr),
            RQRMI_OK);
  for (uint32_t i = 0; i < ranges.size(); i += 7) {
    ASSERT_EQ(rqrmi_lookup(widened.model(), ranges.data(), ranges[i].hi), i);
  }
}

TEST(RqrmiTraining, RetrainsWithMoreSamplesWithoutABudget) {
  const auto ranges = clustered_ranges(20000, 8, 64, 100000);
  rqrmi_train_config_t config = train_config({4}, 64);
  const TrainedModel once(ranges, config);
  config.error_target = 1;  // out of reach: every round runs
  config.max_rounds = 4;
  const TrainedModel retrained(ranges, config);
  EXPECT_EQ(retrained.report().rounds, 4u);
  EXPECT_EQ(retrained.report().target_met, 0u);
  EXPECT_EQ(retrained.report().last_stage_width, 4u);
  // A retrained submodel replaces the old one only when its bound is smaller.
  EXPECT_LE(retrained.report().max_error, once.report().max_error);
  const uint32_t base = rqrmi_stage_base(retrained.model(), 1);
  for (uint32_t m = 0; m < 4; ++m) {
    EXPECT_LE(retrained.model()->submodel[base + m].error, once.model()->submodel[base + m].error);
  }
}

TEST(RqrmiTraining, ReportsMeanAndLargestBound) {
  const auto ranges = clustered_ranges(10000, 30, 32, 50000);
  const TrainedModel trained(ranges, train_config({4}, 16384));
  const rqrmi_train_report_t& report = trained.report();
  const uint32_t base = rqrmi_stage_base(trained.model(), 1);
  uint32_t largest = 0;
  uint32_t sum = 0;
  for (uint32_t m = 0; m < 4; ++m) {
    largest = std::max(largest, trained.model()->submodel[base + m].error);
    sum += trained.model()->submodel[base + m].error;
  }
  EXPECT_EQ(report.max_error, largest);
  EXPECT_EQ(report.mean_error_x100, sum * 100 / 4);
  EXPECT_EQ(report.rounds, 1u);
  EXPECT_EQ(report.model_bytes, 432u);
}

}  // namespace
}  // namespace ssdvp::test
