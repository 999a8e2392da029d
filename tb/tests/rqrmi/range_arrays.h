// Range arrays and trained models for the RQRMI tests (host library and accelerator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "firmware/ml/rqrmi.h"
#include "firmware/ml/rqrmi_train.h"

namespace ssdvp::test {

// n ranges with gaps of 0..max_gap keys between them and lengths of 1..max_length keys,
// starting at `first`. Throws std::invalid_argument if the last range would pass 2^32 - 1.
std::vector<rqrmi_range_t> uniform_ranges(uint32_t n, uint32_t seed, uint32_t first,
                                          uint32_t max_gap, uint32_t max_length);

// LPN-like ranges: clusters of 1..cluster_max short ranges (1..255 keys, gaps of 0..16)
// separated by gaps of up to cluster_gap keys, so the key density varies strongly.
std::vector<rqrmi_range_t> clustered_ranges(uint32_t n, uint32_t seed, uint32_t cluster_max,
                                            uint32_t cluster_gap);

// A training configuration with the given stage widths (stage 0's 1 is implied; widths beyond
// RQRMI_MAX_STAGES stages count but are not stored) and samples; no error target.
rqrmi_train_config_t train_config(std::vector<uint32_t> widths_after_root, uint32_t samples);

// A trained model image.
class TrainedModel {
 public:
  // Trains with `config`; fails the calling test (ADD_FAILURE) unless training returns RQRMI_OK.
  TrainedModel(const std::vector<rqrmi_range_t>& ranges, const rqrmi_train_config_t& config);

  const rqrmi_model_t* model() const { return reinterpret_cast<const rqrmi_model_t*>(words_.data()); }
  rqrmi_model_t* model() { return reinterpret_cast<rqrmi_model_t*>(words_.data()); }
  size_t bytes() const { return model()->size_bytes; }
  const std::vector<uint32_t>& words() const { return words_; }
  const rqrmi_train_report_t& report() const { return report_; }
  rqrmi_status_t status() const { return status_; }

 private:
  std::vector<uint32_t> words_;
  rqrmi_train_report_t report_{};
  rqrmi_status_t status_ = RQRMI_OK;
};

// Index of the range containing key, or RQRMI_NONE: a linear-time reference.
uint32_t brute_force_lookup(const std::vector<rqrmi_range_t>& ranges, uint32_t key);

// The last-stage submodel record a key is routed to (from the model's own inference).
uint32_t last_stage_submodel(const rqrmi_model_t* model, uint32_t key);

}  // namespace ssdvp::test
