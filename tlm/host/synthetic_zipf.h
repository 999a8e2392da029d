// Zipf-distributed ranks 1..n, P(k) proportional to k^-alpha, in O(1) time and memory per sample
// for any n and any alpha > 0: rejection-inversion sampling (W. Hormann and G. Derflinger,
// "Rejection-inversion to generate variates from monotone discrete distributions", ACM TOMACS
// 6(3), 1996), the method Apache Commons uses. No table of n probabilities is built, so a
// working set of a billion pages costs nothing. alpha = 0 is the uniform distribution, drawn as
// 1 + Random::below(n): the very draw of the `random` pattern, one random number per sample.
#pragma once

#include <cstdint>

#include "tlm/system/random.h"

namespace ssdvp::host {

class ZipfSampler {
 public:
  // n >= 1, alpha >= 0 and finite (both checked by the caller).
  ZipfSampler(uint64_t n, double alpha);

  // A rank in 1..n; rank 1 is the most frequent (alpha > 0).
  uint64_t sample(Random& rng) const;

  uint64_t size() const { return n_; }
  bool uniform() const { return alpha_ == 0.0; }
  double alpha() const { return alpha_; }

 private:
  // h(x) = x^-alpha, its integral H and the inverse of H; the helpers keep H accurate for alpha
  // near 1, where the closed form divides by (1 - alpha).
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  uint64_t n_;
  double alpha_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

}  // namespace ssdvp::host
