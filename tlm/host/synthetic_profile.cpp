#include "tlm/host/synthetic_profile.h"

#include <algorithm>
#include <cmath>

#include "tlm/host/workload.h"

namespace ssdvp::host {

namespace {

// Ranks summed term by term before Euler-Maclaurin takes over.
constexpr uint64_t kExactRanks = 256;

// (exp(x) - 1) / x, accurate near 0.
double expm1_over_x(double x) {
  if (std::fabs(x) > 1e-8) return std::expm1(x) / x;
  return 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

double rank_weight(double k, double alpha) { return std::exp(-alpha * std::log(k)); }

// sum_{k=1}^{m} k^-alpha.
double zipf_partial_sum(uint64_t m, double alpha) {
  double sum = 0.0;
  const uint64_t exact = std::min(m, kExactRanks);
  // Smallest terms first: less rounding.
  for (uint64_t k = exact; k >= 1; --k) sum += rank_weight(static_cast<double>(k), alpha);
  if (m <= kExactRanks) return sum;
  // sum_{k=K+1}^{m} f(k) = int_K^m f + (f(m) - f(K)) / 2 + (f'(m) - f'(K)) / 12
  //                        - (f'''(m) - f'''(K)) / 720 + ...,  f(x) = x^-alpha.
  const double a = static_cast<double>(kExactRanks);
  const double b = static_cast<double>(m);
  const double log_ratio = std::log(b / a);
  const double integral = rank_weight(a, alpha - 1.0) * log_ratio *
                          expm1_over_x((1.0 - alpha) * log_ratio);
  const auto f = [&](double x) { return rank_weight(x, alpha); };
  const auto f1 = [&](double x) { return -alpha * rank_weight(x, alpha + 1.0); };
  const auto f3 = [&](double x) {
    return -alpha * (alpha + 1.0) * (alpha + 2.0) * rank_weight(x, alpha + 3.0);
  };
  return sum + integral + (f(b) - f(a)) / 2.0 + (f1(b) - f1(a)) / 12.0 -
         (f3(b) - f3(a)) / 720.0;
}

}  // namespace

double zipf_top_weight(uint64_t n, double alpha, double ranks) {
  const double clamped = std::clamp(ranks, 0.0, static_cast<double>(n));
  const uint64_t whole = static_cast<uint64_t>(std::floor(clamped));
  double top = zipf_partial_sum(whole, alpha);
  if (whole < n) {
    top += (clamped - static_cast<double>(whole)) *
           rank_weight(static_cast<double>(whole + 1), alpha);
  }
  return top / zipf_partial_sum(n, alpha);
}

double solve_zipf_alpha(uint64_t n, double share, double access) {
  // alpha 0 gives the top ranks exactly their share; the weight grows with alpha.
  if (share >= access) return 0.0;
  const double ranks = share * static_cast<double>(n);
  double low = 0.0;
  double high = 1.0;
  while (zipf_top_weight(n, high, ranks) < access && high < 1024.0) {
    low = high;
    high *= 2.0;
  }
  for (int i = 0; i < 200 && high - low > 1e-12; ++i) {
    const double middle = 0.5 * (low + high);
    (zipf_top_weight(n, middle, ranks) < access ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

ProfileAccess::ProfileAccess(const Shape& shape, uint64_t read_scatter_seed,
                             uint64_t write_scatter_seed)
    : shape_(shape),
      read_zipf_(shape.chunks,
                 solve_zipf_alpha(shape.chunks, shape.read_hot_share, shape.hot_access_fraction)),
      write_zipf_(shape.chunks, solve_zipf_alpha(shape.chunks, shape.write_hot_share,
                                                 shape.hot_access_fraction)),
      read_scatter_(shape.chunks, read_scatter_seed),
      write_scatter_(shape.chunks, write_scatter_seed) {}

uint64_t ProfileAccess::read_chunk(Random& rng) const {
  return read_scatter_.position(read_zipf_.sample(rng) - 1);
}

uint64_t ProfileAccess::write_chunk(Random& rng) const {
  return write_scatter_.position(write_zipf_.sample(rng) - 1);
}

// ---- The traces ---------------------------------------------------------------------------------

namespace {

constexpr uint64_t kKiB = 1024;

using Weights = std::vector<std::pair<uint64_t, double>>;

// Neither paper gives request sizes. Assumed mixes (README, "Trace profiles"): small for the MSR
// volumes of small random I/O (hm, ts) and the FIU ones, medium for stg0, prn and the Alibaba
// volumes, large for src1_2, whose source-control volume moves larger requests, and usr.
const Weights kSmallMix = {
    {4 * kKiB, 0.70}, {8 * kKiB, 0.15}, {16 * kKiB, 0.10}, {64 * kKiB, 0.05}};  // mean 8.8 KiB
const Weights kMediumMix = {
    {4 * kKiB, 0.55}, {8 * kKiB, 0.20}, {16 * kKiB, 0.15}, {64 * kKiB, 0.10}};  // 12.6 KiB
const Weights kLargeMix = {
    {4 * kKiB, 0.35}, {16 * kKiB, 0.20}, {32 * kKiB, 0.10}, {64 * kKiB, 0.35}};  // 30.2 KiB

// Writes per sequential run, assumed (README, "LeaFTL profiles"): no paper gives them. With the
// size mixes they give runs of 8.6 to 35.3 pages of 4 KiB on average, inside the 7.5 to 37.7
// LPNs per learned segment that LeaFTL's mapping-table reduction over DFTL implies.
const Weights kShortRuns = {{1, 0.50}, {2, 0.20}, {4, 0.15}, {16, 0.15}};  // mean 3.9 writes
const Weights kMediumRuns = {{1, 0.40}, {4, 0.30}, {16, 0.20}, {64, 0.10}};  // 11.2 writes

// The four traces of LearnedFTL's section 4.5, Table 2 (S. Wang, Z. Lin, S. Wu, H. Jiang, J.
// Zhang, B. Mao, "LearnedFTL: A Learning-based Page-level FTL for Improving Random Reads in
// Flash-based SSDs", ../shared/papers/000_*.txt): three SPC WebSearch traces and one Systor '17
// (VDI) trace. README, "LearnedFTL profiles".
//   The paper's figures (Table 2): # of I/O, avg. I/O size, Read ratio:
//     WebSearch1 1,055,235  15.5 KB   100 %       WebSearch3   793,073  15.7 KB   99.96 %
//     WebSearch2 1,200,964  15.3 KB   99.98 %     Systor17   1,253,423  10.25 KB  61.6 %
//   and "the four traces all have strong locality", with no figure for it.
//   ASSUMPTIONS (no figure in the paper; none checked against the traces, which are not here):
//   - sizes: only the mean is given. Mixes of whole 4 KiB pages up to 64 KiB (the chunk of the
//     other mixes), KB taken as KiB as MB is for Table II; each mean is within 0.5 KB of the
//     table's whether KB is 1000 or 1024 bytes:
//       websearch1 {4K: .225, 8K: .325, 16K: .25, 32K: .15, 64K: .05}  mean 15.5 KiB (15.5 KB)
//       websearch2 {4K: .275, 8K: .275, 16K: .25, 32K: .15, 64K: .05}  mean 15.3 KiB (15.3 KB)
//       websearch3 {4K: .175, 8K: .375, 16K: .25, 32K: .15, 64K: .05}  mean 15.7 KiB (15.7 KB)
//       systor17   {4K: .64, 8K: .16, 16K: .10, 32K: .05, 64K: .05}      mean 10.24 KiB (10.25 KB)
//   - read skew ("strong locality"): the hottest 10 % of the footprint takes 80 % of the reads
//     for the WebSearch traces (SPC WebSearch traces are known to be highly skewed), 20 % for
//     Systor17 (a plain 80/20 skew for a mixed VDI trace).
//   - footprint: 4096 MiB for each WebSearch trace (the SPC WebSearch volumes address a few GB),
//     2048 MiB for Systor17; a scenario scales them with footprint_scale (default 1/8).
//   - writes (none in WebSearch1, 0.02 % and 0.04 % in WebSearch2 and 3, 38.4 % in Systor17):
//     the stream's defaults, as for Table II of the RL-FSP paper: an 80/20 write skew
//     (write_hot_share 0.2) and one write a run.
//   - Int. footprint (hot_read_mib): not given, 0.
const Weights kWebSearch1Mix = {{4 * kKiB, 0.225}, {8 * kKiB, 0.325}, {16 * kKiB, 0.25},
                                {32 * kKiB, 0.15},  {64 * kKiB, 0.05}};  // mean 15.5 KiB
const Weights kWebSearch2Mix = {{4 * kKiB, 0.275}, {8 * kKiB, 0.275}, {16 * kKiB, 0.25},
                                {32 * kKiB, 0.15},  {64 * kKiB, 0.05}};  // mean 15.3 KiB
const Weights kWebSearch3Mix = {{4 * kKiB, 0.175}, {8 * kKiB, 0.375}, {16 * kKiB, 0.25},
                                {32 * kKiB, 0.15},  {64 * kKiB, 0.05}};  // mean 15.7 KiB
const Weights kSystor17Mix = {{4 * kKiB, 0.64}, {8 * kKiB, 0.16}, {16 * kKiB, 0.10},
                              {32 * kKiB, 0.05}, {64 * kKiB, 0.05}};  // mean 10.24 KiB

// A trace of Table II. Its footprint is Int. footprint / Int. ratio; the table gives no write
// skew and no run length, so the stream's defaults stay: an 80/20 write skew, one write a run.
TraceProfile table_ii(const char* name, uint64_t requests, double read_fraction,
                      double hot_read_mib, double hot_read_share, const char* size_mix,
                      const Weights& sizes) {
  const StreamConfig defaults;
  return {name, requests, read_fraction, hot_read_mib, hot_read_share,
          hot_read_mib / hot_read_share, defaults.write_hot_share, size_mix, sizes, "none",
          defaults.write_runs};
}

// A trace of LeaFTL's evaluation, given by its total footprint; its request count and Int.
// footprint are not known.
TraceProfile leaftl(const char* name, double read_fraction, double footprint_mib,
                    double read_hot_share, double write_hot_share, const char* size_mix,
                    const Weights& sizes, const char* run_mix, const Weights& write_runs) {
  return {name, 0, read_fraction, 0.0, read_hot_share, footprint_mib, write_hot_share,
          size_mix, sizes, run_mix, write_runs};
}

// A trace of LearnedFTL's Table 2: its request count and read ratio are the table's, the rest
// assumed (above); writes keep the stream's defaults.
TraceProfile learnedftl(const char* name, uint64_t requests, double read_fraction,
                        double footprint_mib, double read_hot_share, const char* size_mix,
                        const Weights& sizes) {
  const StreamConfig defaults;
  return {name, requests, read_fraction, 0.0, read_hot_share, footprint_mib,
          defaults.write_hot_share, size_mix, sizes, "none", defaults.write_runs};
}

}  // namespace

const std::vector<TraceProfile>& trace_profiles() {
  static const std::vector<TraceProfile> profiles = [] {
    std::vector<TraceProfile> all = {
        table_ii("stg0", 2'030'915, 0.152, 4567.8, 0.723, "medium", kMediumMix),
        table_ii("ts0", 1'801'734, 0.176, 52.8, 0.093, "small", kSmallMix),
        table_ii("src1_2", 1'907'773, 0.254, 836.8, 0.513, "large", kLargeMix),
        table_ii("hm0", 3'993'316, 0.355, 650.0, 0.313, "small", kSmallMix),
        table_ii("ali188", 6'198'540, 0.466, 29.0, 0.024, "medium", kMediumMix),
        table_ii("ali112", 3'116'126, 0.630, 61.6, 0.049, "medium", kMediumMix),
        table_ii("ali735", 963'179, 0.701, 8.1, 0.051, "medium", kMediumMix),
        table_ii("ali121", 18'565'868, 0.782, 77.4, 0.045, "medium", kMediumMix),
    };
    // LeaFTL's traces: MSR Cambridge hm_0, prn_0, prxy_0, src2_0, usr_0 and the first day of
    // FIU homes and mail (the traces of the paper's artifact). hm_0 is Table II's hm0, the same
    // volume: its figures, with write runs. Every other figure is an assumption (README,
    // "LeaFTL profiles").
    TraceProfile hm = *std::find_if(all.begin(), all.end(), [](const TraceProfile& profile) {
      return std::string(profile.name) == "hm0";
    });
    hm.name = "leaftl_hm";
    hm.run_mix = "medium";
    hm.write_runs = kMediumRuns;
    all.push_back(hm);
    all.push_back(leaftl("leaftl_prn", 0.108, 4096.0, 0.2, 0.1, "medium", kMediumMix,
                         "medium", kMediumRuns));
    all.push_back(leaftl("leaftl_prxy", 0.031, 512.0, 0.2, 0.05, "small", kSmallMix, "short",
                         kShortRuns));
    all.push_back(leaftl("leaftl_src2", 0.113, 1024.0, 0.2, 0.1, "small", kSmallMix,
                         "medium", kMediumRuns));
    all.push_back(leaftl("leaftl_usr", 0.404, 3072.0, 0.2, 0.2, "large", kLargeMix, "short",
                         kShortRuns));
    all.push_back(leaftl("leaftl_home", 0.04, 1024.0, 0.2, 0.1, "small", kSmallMix, "medium",
                         kMediumRuns));
    all.push_back(leaftl("leaftl_mail", 0.11, 2048.0, 0.2, 0.05, "small", kSmallMix, "short",
                         kShortRuns));
    // LearnedFTL's Table 2 (above): request counts and read ratios are the table's; sizes,
    // footprints and skews are assumptions.
    all.push_back(learnedftl("learnedftl_websearch1", 1'055'235, 1.0, 4096.0, 0.1,
                             "websearch1", kWebSearch1Mix));
    all.push_back(learnedftl("learnedftl_websearch2", 1'200'964, 0.9998, 4096.0, 0.1,
                             "websearch2", kWebSearch2Mix));
    all.push_back(learnedftl("learnedftl_websearch3", 793'073, 0.9996, 4096.0, 0.1,
                             "websearch3", kWebSearch3Mix));
    all.push_back(learnedftl("learnedftl_systor17", 1'253'423, 0.616, 2048.0, 0.2, "systor17",
                             kSystor17Mix));
    return all;
  }();
  return profiles;
}

const std::vector<std::string>& trace_profile_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = {"none"};
    for (const TraceProfile& profile : trace_profiles()) all.emplace_back(profile.name);
    return all;
  }();
  return names;
}

const TraceProfile* find_trace_profile(const std::string& name) {
  for (const TraceProfile& profile : trace_profiles()) {
    if (name == profile.name) return &profile;
  }
  return nullptr;
}

uint64_t scaled_footprint_bytes(const TraceProfile& profile, double footprint_scale) {
  const double bytes = profile.footprint_mib * footprint_scale * 1024.0 * 1024.0;
  const double quanta = std::round(bytes / static_cast<double>(kProfileFootprintQuantum));
  return std::max<uint64_t>(1, static_cast<uint64_t>(quanta)) * kProfileFootprintQuantum;
}

void apply_trace_profile(const TraceProfile& profile, StreamConfig& stream,
                         const std::function<bool(const std::string& key)>& given) {
  if (!given("pattern")) stream.pattern = "profile";
  if (!given("read_fraction")) stream.read_fraction = profile.read_fraction;
  if (!given("sizes")) stream.sizes = profile.sizes;
  if (!given("working_set")) {
    stream.working_set_bytes = scaled_footprint_bytes(profile, stream.footprint_scale);
  }
  if (!given("read_hot_share")) stream.read_hot_share = profile.hot_read_share;
  if (!given("write_hot_share")) stream.write_hot_share = profile.write_hot_share;
  if (!given("write_runs")) stream.write_runs = profile.write_runs;
}

}  // namespace ssdvp::host
