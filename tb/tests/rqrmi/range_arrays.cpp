#include "tb/tests/rqrmi/range_arrays.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace ssdvp::test {

std::vector<rqrmi_range_t> uniform_ranges(uint32_t n, uint32_t seed, uint32_t first,
                                          uint32_t max_gap, uint32_t max_length) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> gap(0, max_gap);
  std::uniform_int_distribution<uint32_t> length(1, max_length);
  std::vector<rqrmi_range_t> ranges;
  uint64_t next = first;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t lo = next + (i == 0 ? 0 : gap(random));
    const uint64_t hi = lo + length(random) - 1;
    if (hi > UINT32_MAX) throw std::invalid_argument("uniform_ranges: keys pass 2^32 - 1");
    ranges.push_back({static_cast<uint32_t>(lo), static_cast<uint32_t>(hi)});
    next = hi + 1;
  }
  return ranges;
}

std::vector<rqrmi_range_t> clustered_ranges(uint32_t n, uint32_t seed, uint32_t cluster_max,
                                            uint32_t cluster_gap) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> cluster_size(1, cluster_max);
  std::uniform_int_distribution<uint32_t> between_clusters(17, cluster_gap);
  std::uniform_int_distribution<uint32_t> in_cluster_gap(0, 16);
  std::uniform_int_distribution<uint32_t> length(1, 255);
  std::vector<rqrmi_range_t> ranges;
  uint64_t next = 0;
  uint32_t left_in_cluster = 0;
  while (ranges.size() < n) {
    if (left_in_cluster == 0) {
      left_in_cluster = cluster_size(random);
      next += ranges.empty() ? 0 : between_clusters(random);
    } else {
      next += in_cluster_gap(random);
    }
    const uint64_t hi = next + length(random) - 1;
    if (hi > UINT32_MAX) throw std::invalid_argument("clustered_ranges: keys pass 2^32 - 1");
    ranges.push_back({static_cast<uint32_t>(next), static_cast<uint32_t>(hi)});
    next = hi + 1;
    --left_in_cluster;
  }
  return ranges;
}

rqrmi_train_config_t train_config(std::vector<uint32_t> widths_after_root, uint32_t samples) {
  rqrmi_train_config_t config{};
  config.stage_count = static_cast<uint32_t>(widths_after_root.size() + 1);
  config.stage_width[0] = 1;
  // More stages than the format holds keep their count only: the configuration check refuses it.
  for (size_t s = 0; s < widths_after_root.size() && s + 1 < RQRMI_MAX_STAGES; ++s) {
    config.stage_width[s + 1] = widths_after_root[s];
  }
  config.samples = samples;
  config.max_rounds = 1;
  return config;
}

TrainedModel::TrainedModel(const std::vector<rqrmi_range_t>& ranges,
                           const rqrmi_train_config_t& config) {
  const size_t capacity = rqrmi_train_model_capacity(&config);
  std::vector<uint8_t> workspace(rqrmi_train_workspace_bytes(&config));
  words_.assign((capacity + 3) / 4, 0);
  status_ = rqrmi_train(&config, ranges.data(), static_cast<uint32_t>(ranges.size()), model(),
                        capacity, workspace.data(), workspace.size(), &report_);
  if (status_ != RQRMI_OK) {
    ADD_FAILURE() << "training failed: " << rqrmi_status_text(status_);
    return;
  }
  words_.resize(model()->size_bytes / 4);
}

uint32_t brute_force_lookup(const std::vector<rqrmi_range_t>& ranges, uint32_t key) {
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (ranges[i].lo <= key && key <= ranges[i].hi) return static_cast<uint32_t>(i);
  }
  return RQRMI_NONE;
}

uint32_t last_stage_submodel(const rqrmi_model_t* model, uint32_t key) {
  uint32_t record = 0;
  uint32_t base = 0;
  for (uint32_t s = 1; s < model->stage_count; ++s) {
    const uint64_t y = rqrmi_submodel_output(&model->submodel[record], key);
    base += model->stage_width[s - 1];
    record = base + static_cast<uint32_t>((y * model->stage_width[s]) >> 24);
  }
  return record;
}

}  // namespace ssdvp::test
