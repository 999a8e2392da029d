#include "tlm/host/synthetic_oltp.h"

#include "tlm/host/synthetic_scatter.h"

namespace ssdvp::host {

OltpDatabase::OltpDatabase(const Shape& shape, uint64_t scatter_seed)
    : shape_(shape),
      phase_start_share_(1.0 / (1.0 + shape.hot_rewrites)),
      size_(shape.initial_pages),
      state_(shape.final_pages, 0),
      zipf_(shape.initial_pages, shape.alpha) {
  const RankScatter scatter(shape.initial_pages, scatter_seed);
  warm_.reserve(shape.final_pages);
  for (uint32_t rank = 0; rank < shape.initial_pages; ++rank) {
    warm_.push_back(static_cast<uint32_t>(scatter.position(rank)));
  }
  window_.reserve(shape.hot_window);
}

uint32_t OltpDatabase::next_write(Random& rng) {
  const double u = rng.unit();
  if (u >= phase_start_share_ && !window_.empty()) {
    return window_[rng.below(window_.size())];
  }
  if (u < shape_.insert_fraction && size_ < shape_.final_pages) {
    const uint32_t page = size_++;
    state_[page] = kInserted;
    make_hot(page, rng);
    return page;
  }
  const uint32_t page = touched_page(rng);
  if ((state_[page] & kHot) == 0) make_hot(page, rng);
  return page;
}

uint32_t OltpDatabase::touched_page(Random& rng) {
  if (zipf_.size() != warm_.size()) zipf_ = ZipfSampler(warm_.size(), shape_.alpha);
  return warm_[zipf_.sample(rng) - 1];
}

void OltpDatabase::make_hot(uint32_t page, Random& rng) {
  state_[page] |= kHot;
  if (window_.size() < shape_.hot_window) {
    window_.push_back(page);
    return;
  }
  const uint32_t leaving = window_[oldest_];
  window_[oldest_] = page;
  oldest_ = oldest_ + 1 == window_.size() ? 0 : oldest_ + 1;
  leave_window(leaving, rng);
}

void OltpDatabase::leave_window(uint32_t page, Random& rng) {
  const bool inserted = (state_[page] & kInserted) != 0;
  state_[page] = 0;
  if (!inserted) return;  // a warm page: it stays in the pool
  if (rng.unit() < shape_.frozen_fraction) {
    ++frozen_;
  } else {
    warm_.push_back(page);
  }
}

}  // namespace ssdvp::host
