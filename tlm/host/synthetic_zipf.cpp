#include "tlm/host/synthetic_zipf.h"

#include <cmath>

namespace ssdvp::host {

namespace {

// log(1 + x) / x, accurate near 0.
double log1p_over_x(double x) {
  if (std::fabs(x) > 1e-8) return std::log1p(x) / x;
  return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

// (exp(x) - 1) / x, accurate near 0.
double expm1_over_x(double x) {
  if (std::fabs(x) > 1e-8) return std::expm1(x) / x;
  return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(uint64_t n, double alpha) : n_(n), alpha_(alpha) {
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

double ZipfSampler::h(double x) const { return std::exp(-alpha_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - alpha_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1.0 - alpha_);
  // Rounding can push t just below -1, outside the function's domain.
  if (t < -1.0) t = -1.0;
  return std::exp(log1p_over_x(t) * x);
}

uint64_t ZipfSampler::sample(Random& rng) const {
  if (uniform()) return 1 + rng.below(n_);
  while (true) {
    // u is uniform in (h_integral_x1_, h_integral_n_]: the area under the hat function.
    const double u = h_integral_n_ + rng.unit() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double rounded = std::floor(x + 0.5);
    if (rounded < 1.0) rounded = 1.0;
    if (rounded > static_cast<double>(n_)) rounded = static_cast<double>(n_);
    const uint64_t k = static_cast<uint64_t>(rounded);
    // Accept at once where the hat is known to fit (k - x <= s), else test under the curve.
    if (rounded - x <= s_ || u >= h_integral(rounded + 0.5) - h(rounded)) return k;
  }
}

}  // namespace ssdvp::host
