// The Verilated accelerator (rtl/, through tlm/accel/accel_rtl.h) against the firmware's software
// inference and search (firmware/ml/rqrmi.c): predictions bit for bit over several trained and
// random models, the hardware search, the pipeline's cycle count, and its error reporting.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "interface/accel_regs.h"
#include "tb/tests/accel/pipeline_schedule.h"
#include "tb/tests/rqrmi/range_arrays.h"
#include "tlm/accel/accel_rtl.h"

namespace ssdvp::test {
namespace {

constexpr uint32_t kRangeBase = 0x10004000;

// The range array as the search reads it: 8-byte records at kRangeBase, a fixed latency.
class RangeMemory : public AccelRtl::MemoryPort {
 public:
  RangeMemory(const std::vector<rqrmi_range_t>& ranges, uint64_t latency)
      : ranges_(ranges), latency_(latency) {}

  bool read_word(uint32_t address, uint32_t& data, uint64_t& cycles) override {
    cycles = latency_;
    const uint64_t offset = uint64_t{address} - kRangeBase;
    if (address < kRangeBase || offset / 8 >= ranges_.size() || offset % 4 != 0) return false;
    const rqrmi_range_t& range = ranges_[offset / 8];
    data = offset % 8 == 0 ? range.lo : range.hi;
    return true;
  }

 private:
  const std::vector<rqrmi_range_t>& ranges_;
  uint64_t latency_;
};

AccelRtl::Sizes sizes(uint32_t depth = 64) { return {256, depth, depth}; }

void load_model(AccelRtl& rtl, const rqrmi_model_t* model) {
  rtl.write(ACCEL_RANGE_COUNT, model->range_count);
  rtl.write(ACCEL_STAGE_COUNT, model->stage_count);
  for (uint32_t s = 0; s < RQRMI_MAX_STAGES; ++s) rtl.write(ACCEL_STAGE_WIDTH(s), model->stage_width[s]);
  rtl.write(ACCEL_WMEM_ADDR, 0);
  const auto* words = reinterpret_cast<const uint32_t*>(model->submodel);
  for (uint32_t w = 0; w < rqrmi_submodel_count(model) * RQRMI_SUBMODEL_WORDS; ++w) {
    rtl.write(ACCEL_WMEM_DATA, words[w]);
  }
  rtl.write(ACCEL_RANGE_BASE, kRangeBase);
}

struct Result {
  uint32_t value;
  uint32_t error;
};

// Runs `keys` through the accelerator in batches of the FIFO depth.
std::vector<Result> run_keys(AccelRtl& rtl, const std::vector<uint32_t>& keys, bool search) {
  rtl.write(ACCEL_CTRL, search ? ACCEL_CTRL_SEARCH : 0);
  const uint32_t depth = rtl.read(ACCEL_KEY_DEPTH);
  std::vector<Result> results;
  for (size_t first = 0; first < keys.size(); first += depth) {
    const size_t end = std::min(keys.size(), first + depth);
    for (size_t k = first; k < end; ++k) rtl.write(ACCEL_KEY, keys[k]);
    rtl.write(ACCEL_START, 1);
    rtl.run(1'000'000);
    EXPECT_EQ(rtl.read(ACCEL_RESULT_LEVEL), end - first);
    for (size_t k = first; k < end; ++k) {
      const uint32_t value = rtl.read(ACCEL_RESULT);
      results.push_back({value, rtl.read(ACCEL_RESULT_ERROR)});
    }
  }
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), 0u);
  return results;
}

std::vector<uint32_t> random_keys(const std::vector<rqrmi_range_t>& ranges, size_t count,
                                  uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> any;
  std::uniform_int_distribution<uint32_t> in_domain(ranges.front().lo, ranges.back().hi);
  std::vector<uint32_t> keys;
  for (size_t k = 0; k < count; ++k) keys.push_back(k % 8 == 0 ? any(random) : in_domain(random));
  return keys;
}

void expect_bit_exact(const rqrmi_model_t* model, const std::vector<rqrmi_range_t>& ranges,
                      size_t key_count, uint32_t seed) {
  RangeMemory memory(ranges, 1);
  AccelRtl rtl(sizes(), memory);
  load_model(rtl, model);
  const std::vector<uint32_t> keys = random_keys(ranges, key_count, seed);
  const std::vector<Result> results = run_keys(rtl, keys, false);
  ASSERT_EQ(results.size(), keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    const rqrmi_prediction_t expected = rqrmi_predict(model, keys[k]);
    ASSERT_EQ(results[k].value, expected.index) << "key " << keys[k];
    ASSERT_EQ(results[k].error, expected.error) << "key " << keys[k];
  }
}

TEST(AccelRtl, PredictionsEqualSoftwareForTrainedModels) {
  const auto uniform = uniform_ranges(20000, 1, 1000, 20000, 3000);
  const auto clustered = clustered_ranges(20000, 2, 64, 100000);
  expect_bit_exact(TrainedModel(uniform, train_config({}, 4096)).model(), uniform, 2000, 1);
  expect_bit_exact(TrainedModel(uniform, train_config({4}, 16384)).model(), uniform, 3000, 2);
  expect_bit_exact(TrainedModel(clustered, train_config({4}, 16384)).model(), clustered, 3000, 3);
  expect_bit_exact(TrainedModel(clustered, train_config({16, 64}, 1024)).model(), clustered, 3000, 4);
  expect_bit_exact(TrainedModel(clustered, train_config({3, 7, 40}, 512)).model(), clustered, 3000, 5);
}

// Random weights over the whole fixed-point format, both signs of w1 included, which training
// never produces.
TEST(AccelRtl, PredictionsEqualSoftwareForRandomWeights) {
  std::mt19937 random(77);
  std::uniform_int_distribution<uint32_t> any;
  std::uniform_int_distribution<int32_t> b1(-(1 << 25), 1 << 25);
  std::uniform_int_distribution<int32_t> any_signed(INT32_MIN, INT32_MAX);
  const auto ranges = uniform_ranges(1 << 16, 3, 0, 60000, 1000);
  for (int trial = 0; trial < 4; ++trial) {
    rqrmi_train_config_t config = train_config({5, 9}, 64);
    TrainedModel trained(ranges, config);
    rqrmi_model_t* model = trained.model();
    const uint32_t last_base = rqrmi_stage_base(model, 2);
    for (uint32_t m = 0; m < rqrmi_submodel_count(model); ++m) {
      rqrmi_submodel_t& sub = model->submodel[m];
      sub.in_lo = any(random) >> (any(random) % 32);
      sub.config = (any(random) % 33) | ((any(random) & 0xFF) << 8);
      sub.b2 = any_signed(random);
      sub.error = m >= last_base ? any(random) % model->range_count : 0;
      for (auto& unit : sub.unit) {
        unit.b1 = b1(random);
        unit.w2 = any_signed(random) >> (any(random) % 12);
      }
    }
    ASSERT_EQ(rqrmi_validate(model, trained.bytes(), ranges.data(), 1 << 16, nullptr), RQRMI_OK);
    expect_bit_exact(model, ranges, 1500, 100 + trial);
  }
}

TEST(AccelRtl, HardwareSearchAgreesWithSoftware) {
  const auto ranges = clustered_ranges(30000, 6, 32, 50000);
  const TrainedModel trained(ranges, train_config({4}, 16384));
  std::vector<uint32_t> keys = random_keys(ranges, 3000, 9);
  for (uint32_t i = 0; i < ranges.size(); i += 97) {
    keys.push_back(ranges[i].lo);
    keys.push_back(ranges[i].hi);
    keys.push_back(ranges[i].hi + 1);  // mostly in a gap
  }
  for (uint64_t latency : {1u, 4u}) {
    RangeMemory memory(ranges, latency);
    AccelRtl rtl(sizes(), memory);
    load_model(rtl, trained.model());
    const std::vector<Result> results = run_keys(rtl, keys, true);
    ASSERT_EQ(results.size(), keys.size());
    uint32_t found = 0;
    for (size_t k = 0; k < keys.size(); ++k) {
      const uint32_t expected = rqrmi_lookup(trained.model(), ranges.data(), keys[k]);
      ASSERT_EQ(results[k].value, expected) << "key " << keys[k] << " latency " << latency;
      ASSERT_EQ(expected, brute_force_lookup(ranges, keys[k]));
      found += expected != RQRMI_NONE;
    }
    EXPECT_GE(found, 2 * (ranges.size() / 97));  // every range end
    EXPECT_GT(rtl.memory_reads(), keys.size());
  }
}

TEST(AccelRtl, JobCyclesFollowThePipelineSchedule) {
  const auto ranges = uniform_ranges(5000, 4, 0, 100, 100);
  const std::vector<std::vector<uint32_t>> shapes = {{}, {4}, {4, 8}, {2, 4, 8}};
  for (const auto& shape : shapes) {
    const TrainedModel trained(ranges, train_config(shape, 256));
    const uint64_t stages = shape.size() + 1;
    for (uint32_t keys : {1u, 2u, 5u, 6u, 11u, 33u, 64u}) {
      RangeMemory memory(ranges, 1);
      AccelRtl rtl(sizes(), memory);
      load_model(rtl, trained.model());
      for (uint32_t k = 0; k < keys; ++k) rtl.write(ACCEL_KEY, ranges[k * 70].lo);
      rtl.write(ACCEL_START, 1);
      const uint64_t cycles = rtl.run(100000);
      EXPECT_EQ(cycles, expected_job_cycles(keys, stages)) << stages << " stages, " << keys << " keys";
      EXPECT_EQ(rtl.read(ACCEL_BUSY_CYCLES), cycles);
      EXPECT_EQ(rtl.read(ACCEL_RESULT_LEVEL), keys);
    }
  }
}

TEST(AccelRtl, AFullResultFifoStallsTheJobUntilResultsArePopped) {
  const auto ranges = uniform_ranges(2000, 5, 0, 100, 100);
  const TrainedModel trained(ranges, train_config({4}, 256));
  RangeMemory memory(ranges, 1);
  AccelRtl rtl({256, 16, 4}, memory);
  load_model(rtl, trained.model());
  std::vector<uint32_t> keys;
  for (uint32_t k = 0; k < 10; ++k) {
    keys.push_back(ranges[k * 150].hi);
    rtl.write(ACCEL_KEY, keys.back());
  }
  rtl.write(ACCEL_START, 1);
  rtl.run(100000);
  EXPECT_EQ(rtl.read(ACCEL_STATUS), ACCEL_STATUS_BUSY | ACCEL_STATUS_STALLED);
  EXPECT_EQ(rtl.read(ACCEL_RESULT_LEVEL), 4u);
  EXPECT_EQ(rtl.read(ACCEL_KEY_LEVEL), 6u);
  EXPECT_EQ(rtl.read(ACCEL_IRQ), 0u);
  for (uint32_t k = 0; k < 10; ++k) {
    ASSERT_GT(rtl.read(ACCEL_RESULT_LEVEL), 0u) << "result " << k;
    EXPECT_EQ(rtl.read(ACCEL_RESULT), rqrmi_predict(trained.model(), keys[k]).index);
    rtl.run(100000);  // a popped result lets the next key in
  }
  EXPECT_EQ(rtl.read(ACCEL_STATUS), 0u);
  EXPECT_EQ(rtl.read(ACCEL_IRQ), ACCEL_IRQ_DONE);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), 0u);
}

TEST(AccelRtl, IdentifiesItselfAndItsSizes) {
  const std::vector<rqrmi_range_t> ranges = {{0, 1}};
  RangeMemory memory(ranges, 1);
  AccelRtl rtl({100, 8, 32}, memory);
  EXPECT_EQ(rtl.read(ACCEL_ID), ACCEL_ID_VALUE);
  EXPECT_EQ(rtl.read(ACCEL_SUBMODEL_CAPACITY), 100u);
  EXPECT_EQ(rtl.read(ACCEL_KEY_DEPTH), 8u);
  EXPECT_EQ(rtl.read(ACCEL_RESULT_DEPTH), 32u);
  EXPECT_EQ(rtl.read(ACCEL_STATUS), 0u);
  EXPECT_THROW(AccelRtl({0, 8, 8}, memory), std::invalid_argument);
  EXPECT_THROW(AccelRtl({257, 8, 8}, memory), std::invalid_argument);
  EXPECT_THROW(AccelRtl({8, 65, 8}, memory), std::invalid_argument);
  EXPECT_THROW(AccelRtl({8, 8, 0}, memory), std::invalid_argument);
}

TEST(AccelRtl, AHeaderTheHardwareCannotRunIsRefusedAtStart) {
  const auto ranges = uniform_ranges(100, 5, 0, 10, 10);
  const TrainedModel trained(ranges, train_config({8}, 256));  // 9 records
  RangeMemory memory(ranges, 1);
  const auto refused = [&](uint32_t capacity, uint32_t offset, uint32_t value) {
    AccelRtl rtl({capacity, 8, 8}, memory);
    load_model(rtl, trained.model());
    rtl.write(ACCEL_ERRORS, ACCEL_ERROR_WMEM_RANGE);  // records beyond a small capacity
    rtl.write(offset, value);
    rtl.write(ACCEL_KEY, 5);
    rtl.write(ACCEL_CTRL, ACCEL_CTRL_IRQ_ENABLE);
    rtl.write(ACCEL_START, 1);
    rtl.run(10000);  // nothing to run when refused
    const bool refused = rtl.read(ACCEL_ERRORS) == ACCEL_ERROR_CONFIG;
    EXPECT_EQ(rtl.read(ACCEL_RESULT_LEVEL), refused ? 0u : 1u);
    EXPECT_EQ(rtl.read(ACCEL_STATUS), 0u);
    EXPECT_EQ(rtl.read(ACCEL_IRQ), ACCEL_IRQ_DONE);
    EXPECT_TRUE(rtl.activity().irq);
    rtl.write(ACCEL_ERRORS, ACCEL_ERROR_CONFIG);
    rtl.write(ACCEL_IRQ, ACCEL_IRQ_DONE);
    EXPECT_EQ(rtl.read(ACCEL_ERRORS), 0u);
    EXPECT_FALSE(rtl.activity().irq);
    return refused;
  };
  EXPECT_TRUE(refused(8, ACCEL_STAGE_COUNT, 2));  // 9 records do not fit 8
  EXPECT_FALSE(refused(9, ACCEL_STAGE_COUNT, 2));
  EXPECT_TRUE(refused(9, ACCEL_STAGE_COUNT, 0));
  EXPECT_TRUE(refused(9, ACCEL_STAGE_COUNT, 5));
  EXPECT_TRUE(refused(9, ACCEL_STAGE_WIDTH(0), 2));
  EXPECT_TRUE(refused(9, ACCEL_STAGE_WIDTH(1), 0));
  EXPECT_TRUE(refused(9, ACCEL_RANGE_COUNT, 0));
  EXPECT_TRUE(refused(9, ACCEL_RANGE_COUNT, RQRMI_MAX_RANGES + 1));
}

TEST(AccelRtl, MisuseIsReportedInTheErrorRegister) {
  const std::vector<rqrmi_range_t> ranges = {{0, 1}};
  RangeMemory memory(ranges, 1);
  AccelRtl rtl({4, 2, 2}, memory);
  rtl.write(ACCEL_KEY, 1);
  rtl.write(ACCEL_KEY, 2);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), 0u);
  rtl.write(ACCEL_KEY, 3);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), ACCEL_ERROR_KEY_OVERFLOW);
  EXPECT_EQ(rtl.read(ACCEL_KEY_LEVEL), 2u);
  EXPECT_EQ(rtl.read(ACCEL_RESULT), RQRMI_NONE);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), ACCEL_ERROR_KEY_OVERFLOW | ACCEL_ERROR_RESULT_UNDERFLOW);
  rtl.write(ACCEL_WMEM_ADDR, (3u << ACCEL_WMEM_SUBMODEL_SHIFT) | 19);
  rtl.write(ACCEL_WMEM_DATA, 7);  // the last word of the last record
  EXPECT_EQ(rtl.read(ACCEL_WMEM_ADDR), 4u << ACCEL_WMEM_SUBMODEL_SHIFT);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS) & ACCEL_ERROR_WMEM_RANGE, 0u);
  rtl.write(ACCEL_WMEM_DATA, 7);  // beyond the capacity
  EXPECT_EQ(rtl.read(ACCEL_ERRORS) & ACCEL_ERROR_WMEM_RANGE, ACCEL_ERROR_WMEM_RANGE);
  rtl.write(ACCEL_ERRORS, 0xFF);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), 0u);
}

TEST(AccelRtl, AFailedRangeReadGivesNoMatchAndTheBusError) {
  const auto ranges = uniform_ranges(1000, 5, 0, 10, 10);
  const TrainedModel trained(ranges, train_config({4}, 256));
  const std::vector<rqrmi_range_t> elsewhere;  // every read fails
  RangeMemory memory(elsewhere, 1);
  AccelRtl rtl(sizes(), memory);
  load_model(rtl, trained.model());
  rtl.write(ACCEL_CTRL, ACCEL_CTRL_SEARCH);
  rtl.write(ACCEL_KEY, ranges[10].lo);
  rtl.write(ACCEL_START, 1);
  rtl.run(10000);
  EXPECT_EQ(rtl.read(ACCEL_RESULT), RQRMI_NONE);
  EXPECT_EQ(rtl.read(ACCEL_ERRORS), ACCEL_ERROR_BUS);
}

}  // namespace
}  // namespace ssdvp::test
