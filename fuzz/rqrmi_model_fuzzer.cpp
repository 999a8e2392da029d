// The RQRMI model loader and trainer (firmware/ml/rqrmi*.c), as the firmware and the accelerator
// meet them. The first byte picks one of two checks:
// - even: the rest is a model image (its length in the next two bytes) and a range array. Any
//   image is either refused by rqrmi_validate or safe to use: every prediction lies in the array,
//   and a lookup answers RQRMI_NONE or a range that holds the key.
// - odd: the rest describes a range array (gap and length per range) and a training
//   configuration. Training either refuses it or yields a model that validates and, its error
//   bounds being exact, finds every range at both ends and no range in the gaps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ml/rqrmi.h"
#include "ml/rqrmi_train.h"

namespace {

[[noreturn]] void violated(const char* rule, uint32_t key) {
  std::fprintf(stderr, "rqrmi: %s (key %u)\n", rule, key);
  std::abort();
}

// Reads the input front to back; zeros once it is used up.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint32_t take(size_t bytes) {
    uint32_t value = 0;
    for (size_t i = 0; i < bytes; ++i) {
      value |= uint32_t{at_ < size_ ? data_[at_] : 0u} << (8 * i);
      ++at_;
    }
    return value;
  }
  size_t left() const { return at_ < size_ ? size_ - at_ : 0; }
  const uint8_t* here() const { return data_ + (at_ < size_ ? at_ : size_); }
  void skip(size_t bytes) { at_ += bytes; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// A lookup's answer must be a range holding the key, or none.
void check_lookup(const rqrmi_model_t* model, const rqrmi_range_t* ranges, uint32_t count,
                  uint32_t key) {
  const rqrmi_prediction_t prediction = rqrmi_predict(model, key);
  if (prediction.index >= count) violated("a prediction beyond the range array", key);
  const uint32_t found = rqrmi_lookup(model, ranges, key);
  if (found != RQRMI_NONE && (found >= count || key < ranges[found].lo || key > ranges[found].hi)) {
    violated("a lookup answered a range that does not hold the key", key);
  }
}

void check_image(Reader& in) {
  const size_t image_bytes = in.take(2);
  // Words, as the firmware and the accelerator hold the image.
  std::vector<uint32_t> image((image_bytes + 3) / 4 + 1, 0);
  const size_t taken = image_bytes < in.left() ? image_bytes : in.left();
  if (taken != 0) std::memcpy(image.data(), in.here(), taken);
  in.skip(taken);
  std::vector<rqrmi_range_t> ranges(in.left() / sizeof(rqrmi_range_t));
  // memcpy may not be given the null data() of an empty vector.
  if (!ranges.empty()) std::memcpy(ranges.data(), in.here(), ranges.size() * sizeof(rqrmi_range_t));
  const auto* model = reinterpret_cast<const rqrmi_model_t*>(image.data());
  const auto count = static_cast<uint32_t>(ranges.size());
  if (rqrmi_validate(model, image_bytes, ranges.data(), count, nullptr) != RQRMI_OK) return;
  for (const rqrmi_range_t& range : ranges) {
    for (uint32_t key : {range.lo, range.hi, range.lo - 1, range.hi + 1}) {
      check_lookup(model, ranges.data(), count, key);
    }
  }
  for (uint32_t key : {0u, 0xFFFFFFFFu, 0x80000000u}) check_lookup(model, ranges.data(), count, key);
}

void check_training(Reader& in) {
  rqrmi_train_config_t config{};
  config.stage_count = 1 + in.take(1) % RQRMI_MAX_STAGES;
  config.stage_width[0] = 1;
  for (uint32_t s = 1; s < config.stage_count; ++s) config.stage_width[s] = 1 + in.take(1) % 16;
  config.samples = in.take(2) % 1024;
  config.error_target = in.take(1) % 8;
  config.max_model_bytes = in.take(1) % 2 ? in.take(2) * 4 : 0;
  config.max_rounds = in.take(1) % 4;
  // The ranges: a gap and a length each, so the array is sorted and disjoint by construction;
  // at most 1024 of them keeps an input to milliseconds.
  std::vector<rqrmi_range_t> ranges;
  uint64_t next = in.take(4);
  while (in.left() >= 3 && ranges.size() < 1024) {
    const uint32_t gap = in.take(2);
    const uint32_t length = 1 + in.take(1);
    const uint64_t lo = next + gap;
    if (lo + length - 1 > 0xFFFFFFFFu) break;
    ranges.push_back({static_cast<uint32_t>(lo), static_cast<uint32_t>(lo + length - 1)});
    next = lo + length;
  }
  if (ranges.empty() || rqrmi_train_check_config(&config) != RQRMI_OK) return;
  const auto count = static_cast<uint32_t>(ranges.size());
  std::vector<uint32_t> model_words(rqrmi_train_model_capacity(&config) / 4 + 1);
  std::vector<uint64_t> workspace(rqrmi_train_workspace_bytes(&config) / 8 + 1);
  auto* model = reinterpret_cast<rqrmi_model_t*>(model_words.data());
  rqrmi_train_report_t report{};
  const rqrmi_status_t trained =
      rqrmi_train(&config, ranges.data(), count, model, model_words.size() * 4, workspace.data(),
                  workspace.size() * 8, &report);
  if (trained == RQRMI_ERR_WORKSPACE) return;  // a responsibility too fragmented: a refusal
  if (trained != RQRMI_OK) violated("training refused a checked configuration and ranges", 0);
  if (rqrmi_validate(model, report.model_bytes, ranges.data(), count, nullptr) != RQRMI_OK) {
    violated("a trained model does not validate", 0);
  }
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t key : {ranges[i].lo, ranges[i].hi}) {
      if (rqrmi_lookup(model, ranges.data(), key) != i) violated("a trained model misses a range", key);
    }
    const uint32_t after = ranges[i].hi + 1;
    if ((i + 1 == count || after < ranges[i + 1].lo) && after != 0 &&
        rqrmi_lookup(model, ranges.data(), after) != RQRMI_NONE) {
      violated("a trained model finds a range in a gap", after);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  Reader in(data + 1, size - 1);
  if (data[0] % 2 == 0) {
    check_image(in);
  } else {
    check_training(in);
  }
  return 0;
}
