#include "tb/scenario/fio_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "tb/scenario/parameters.h"
#include "tb/scenario/scenario.h"

namespace ssdvp {

namespace {

constexpr const char* kRwModes = "read, write, randread, randwrite, rw, readwrite, randrw";
constexpr const char* kSizeSyntax =
    "bytes, or with k, m, g or t: powers of 1024 as fio reads them (4k = 4096)";
constexpr const char* kTimeSyntax = "seconds, or with us, ms, s, m, h or d (0 = no limit)";
constexpr const char* kDistributions =
    "random, zipf[:THETA], pareto[:H], zoned:ACCESS/SIZE:ACCESS/SIZE";
constexpr uint64_t kFioDefaultBlock = 4096;  // fio's bs when none is given
constexpr uint64_t kFioDefaultReadPercent = 50;
constexpr double kFioDefaultZipfTheta = 1.1;
constexpr double kFioDefaultParetoH = 0.2;
// fio's own limit on jobs (REAL_MAX_JOBS): a job file asking for more does not run in fio.
constexpr uint64_t kMaxNumjobs = 4096;
constexpr uint64_t kPsPerSecond = 1'000'000'000'000;

// The options translated, in the order errors list them; `readwrite` is fio's alias of `rw`.
const std::vector<std::string>& supported_options() {
  static const std::vector<std::string> names = {
      "rw",         "readwrite", "bs",     "bssplit",   "iodepth",
      "numjobs",    "size",      "offset", "number_ios", "runtime",
      "time_based", "rwmixread", "random_distribution", "ioengine", "direct",
      "fsync",      "fdatasync"};
  return names;
}

// One option as the file wrote it: the name (before aliasing), the value and its line.
struct Setting {
  std::string option;
  std::string value;
  size_t line = 0;
  bool bare = false;  // written without '=' (a flag such as time_based)
};

// A job section with [global]'s options at the point it starts, its own on top (later wins, as
// in fio).
struct Job {
  std::string name;
  size_t line = 0;
  std::map<std::string, Setting> options;  // by canonical name (readwrite as rw)

  const Setting* find(const std::string& option) const {
    const auto it = options.find(option);
    return it == options.end() ? nullptr : &it->second;
  }
};

std::string trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

class JobFile {
 public:
  JobFile(const std::string& text, const std::string& source) : source_(source) { parse(text); }

  const std::vector<Job>& jobs() const { return jobs_; }

  [[noreturn]] void fail(size_t line, const std::string& option, const std::string& problem) const {
    throw ScenarioError(fmt::format("{}:{}: {}: {}", source_, line, option, problem));
  }
  [[noreturn]] void fail(const Setting& setting, const std::string& problem,
                         const std::string& allowed) const {
    fail(setting.line, setting.option,
         fmt::format("'{}' {}; allowed {}", setting.value, problem, allowed));
  }

  // fio's sizes: k, m, g, t are powers of 1024 (its default kb_base=1024).
  uint64_t size(const Setting& setting, const std::string& text) const {
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
      ++digits;
    }
    if (digits == 0) fail(setting, "is not a size", kSizeSyntax);
    const std::string suffix = lower(text.substr(digits));
    static const std::map<std::string, uint64_t> kUnits = {
        {"", 1},          {"k", 1ull << 10}, {"kb", 1ull << 10}, {"m", 1ull << 20},
        {"mb", 1ull << 20}, {"g", 1ull << 30}, {"gb", 1ull << 30}, {"t", 1ull << 40},
        {"tb", 1ull << 40}};
    if (suffix == "kib" || suffix == "mib" || suffix == "gib" || suffix == "tib") {
      fail(setting,
           fmt::format("is a power of 1000 to fio (its default kb_base=1024 reads IEC prefixes "
                       "that way), which is rarely what was meant; write {}{} for powers of 1024",
                       text.substr(0, digits), suffix.substr(0, 1)),
           kSizeSyntax);
    }
    if (suffix == "%") fail(setting, "is a share of the device, not supported", kSizeSyntax);
    const auto unit = kUnits.find(suffix);
    if (unit == kUnits.end()) fail(setting, "is not a size", kSizeSyntax);
    errno = 0;
    const unsigned long long number = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
    if (errno == ERANGE || number > std::numeric_limits<uint64_t>::max() / unit->second) {
      fail(setting, "does not fit in 64 bits", kSizeSyntax);
    }
    return number * unit->second;
  }

  uint64_t count(const Setting& setting, uint64_t min, uint64_t max) const {
    const std::string allowed = fmt::format("{}..{}", min, max);
    if (setting.value.empty() ||
        setting.value.find_first_not_of("0123456789") != std::string::npos) {
      fail(setting, "is not a whole number", allowed);
    }
    errno = 0;
    const unsigned long long value = std::strtoull(setting.value.c_str(), nullptr, 10);
    if (errno == ERANGE || value < min || value > max) fail(setting, "is out of range", allowed);
    return value;
  }

  // fio's times: plain numbers are seconds.
  uint64_t time_ps(const Setting& setting) const {
    size_t digits = 0;
    while (digits < setting.value.size() &&
           std::isdigit(static_cast<unsigned char>(setting.value[digits]))) {
      ++digits;
    }
    static const std::map<std::string, uint64_t> kUnits = {
        {"", kPsPerSecond},        {"s", kPsPerSecond},         {"ms", kPsPerSecond / 1000},
        {"us", kPsPerSecond / 1'000'000}, {"m", 60 * kPsPerSecond}, {"h", 3600 * kPsPerSecond},
        {"d", 86400 * kPsPerSecond}};
    const auto unit = kUnits.find(lower(setting.value.substr(digits)));
    if (digits == 0 || unit == kUnits.end()) fail(setting, "is not a time", kTimeSyntax);
    errno = 0;
    const unsigned long long number =
        std::strtoull(setting.value.substr(0, digits).c_str(), nullptr, 10);
    if (errno == ERANGE || number > std::numeric_limits<uint64_t>::max() / unit->second) {
      fail(setting, "does not fit in 64 bits of picoseconds", kTimeSyntax);
    }
    return number * unit->second;
  }

  bool flag(const Setting& setting) const {
    if (setting.bare || setting.value == "1") return true;
    if (setting.value == "0") return false;
    fail(setting, "is not a flag", "1, 0, or the name alone");
  }

  double number(const Setting& setting, const std::string& text, const std::string& allowed) const {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) {
      fail(setting, fmt::format("has '{}', not a number", text), allowed);
    }
    return value;
  }

 private:
  void parse(const std::string& text) {
    std::map<std::string, Setting> global;
    constexpr size_t kNoJob = std::numeric_limits<size_t>::max();
    size_t job = kNoJob;  // index into jobs_; none in [global] or before the first section
    bool in_global = false;
    std::istringstream in(text);
    size_t line_number = 0;
    for (std::string raw; std::getline(in, raw);) {
      ++line_number;
      const std::string line = trim(raw);
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      if (line[0] == '[') {
        const std::string name = line.back() == ']' ? trim(line.substr(1, line.size() - 2)) : "";
        if (name.empty()) {
          fail(line_number, "section", fmt::format("'{}' is not [global] or [JOBNAME]", line));
        }
        in_global = name == "global";
        job = kNoJob;
        if (in_global) continue;
        for (const Job& other : jobs_) {
          if (other.name == name) {
            fail(line_number, "section",
                 fmt::format("job '{}' is defined twice (first on line {}); job names are "
                             "unique, they name the phase's streams",
                             name, other.line));
          }
        }
        jobs_.push_back({name, line_number, global});
        job = jobs_.size() - 1;
        continue;
      }
      const size_t equals = line.find('=');
      Setting setting{trim(line.substr(0, equals)),
                      equals == std::string::npos ? "" : trim(line.substr(equals + 1)),
                      line_number, equals == std::string::npos};
      const std::vector<std::string>& supported = supported_options();
      if (std::find(supported.begin(), supported.end(), setting.option) == supported.end()) {
        fail(line_number, setting.option,
             fmt::format("not a supported fio option; supported: {}",
                         fmt::join(supported, ", ")));
      }
      if (!in_global && job == kNoJob) {
        fail(line_number, setting.option, "comes before any section; options go below [global] "
                                          "or [JOBNAME]");
      }
      if (setting.bare && setting.option != "time_based") {
        fail(line_number, setting.option,
             fmt::format("has no value; write {}=VALUE", setting.option));
      }
      const std::string canonical = setting.option == "readwrite" ? "rw" : setting.option;
      (in_global ? global : jobs_[job].options)[canonical] = setting;
    }
    if (jobs_.empty()) {
      fail(line_number, "section",
           "the file has no job section: [global] alone runs nothing; add [JOBNAME]");
    }
  }

  std::string source_;
  std::vector<Job> jobs_;
};

// Request sizes of one direction and their weights (percent).
using Sizes = std::vector<std::pair<uint64_t, double>>;

const Parameter& stream_parameter(const char* name) {
  return *find_parameter(std::string("workload.phases[].streams[].") + name);
}

// The sizes of bs (one size, or READ,WRITE) or bssplit (SIZE/PERCENT:... , or READS,WRITES) for
// reads and writes.
std::pair<Sizes, Sizes> block_sizes(const JobFile& file, const Job& job) {
  const Parameter& limits = stream_parameter("sizes");
  const auto check = [&](const Setting& setting, uint64_t bytes, const char* allowed) {
    if (bytes < limits.min || bytes > limits.max) {
      file.fail(setting, fmt::format("is {} bytes, outside the request sizes {}..{} bytes",
                                     bytes, limits.min, limits.max),
                allowed);
    }
    return bytes;
  };
  const auto directions = [&](const Setting& setting, const char* allowed) {
    // An empty part (bs=,8k or bs=8k,) keeps fio's default for that direction.
    std::vector<std::string> parts;
    for (size_t begin = 0;;) {
      const size_t comma = setting.value.find(',', begin);
      parts.push_back(trim(setting.value.substr(begin, comma - begin)));
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
    if (parts.size() > 2) {
      file.fail(setting, "is not one value or READ,WRITE (trims, the third, never occur here)",
                allowed);
    }
    if (parts.size() == 1) parts.push_back(parts[0]);
    return parts;
  };
  if (const Setting* split = job.find("bssplit")) {
    constexpr const char* kAllowed =
        "SIZE/PERCENT:SIZE/PERCENT:... adding to 100 (a size without a percentage shares what the "
        "others leave), or READS,WRITES";
    std::pair<Sizes, Sizes> result;
    const std::vector<std::string> parts = directions(*split, kAllowed);
    for (size_t direction = 0; direction < 2; ++direction) {
      Sizes& sizes = direction == 0 ? result.first : result.second;
      if (parts[direction].empty()) {
        sizes = {{kFioDefaultBlock, 100.0}};
        continue;
      }
      std::stringstream in(parts[direction]);
      double given = 0.0;
      size_t missing = 0;
      for (std::string entry; std::getline(in, entry, ':');) {
        const size_t slash = entry.find('/');
        const uint64_t bytes =
            check(*split, file.size(*split, trim(entry.substr(0, slash))), kAllowed);
        for (const auto& [other, weight] : sizes) {
          if (other == bytes) file.fail(*split, fmt::format("lists {} bytes twice", bytes), kAllowed);
        }
        double percent = -1.0;  // shares the rest
        if (slash != std::string::npos) {
          percent = file.number(*split, trim(entry.substr(slash + 1)), kAllowed);
          if (!(percent > 0.0 && percent <= 100.0)) {
            file.fail(*split, fmt::format("gives {} {}%, not in (0, 100]", bytes, percent),
                      kAllowed);
          }
          given += percent;
        } else {
          ++missing;
        }
        sizes.emplace_back(bytes, percent);
      }
      const double rest = 100.0 - given;
      if (rest < -1e-9 || (missing == 0 && std::fabs(rest) > 1e-9) ||
          (missing > 0 && rest <= 1e-9)) {
        file.fail(*split,
                  fmt::format("has percentages adding to {}{}", given,
                              missing > 0 ? ", leaving nothing for the sizes without one" : ""),
                  kAllowed);
      }
      for (auto& entry : sizes) {
        if (entry.second < 0.0) entry.second = rest / static_cast<double>(missing);
      }
    }
    return result;
  }
  Sizes read = {{kFioDefaultBlock, 100.0}};
  Sizes write = read;
  if (const Setting* bs = job.find("bs")) {
    constexpr const char* kAllowed = "SIZE or READ,WRITE (an empty one is fio's 4k)";
    const std::vector<std::string> parts = directions(*bs, kAllowed);
    if (!parts[0].empty()) read = {{check(*bs, file.size(*bs, parts[0]), kAllowed), 100.0}};
    if (!parts[1].empty()) write = {{check(*bs, file.size(*bs, parts[1]), kAllowed), 100.0}};
  }
  return {read, write};
}

// The access pattern of a random job: fio's random_distribution as a pattern of the host model.
void random_distribution(const JobFile& file, const Job& job, host::StreamConfig& stream) {
  stream.pattern = "random";
  const Setting* setting = job.find("random_distribution");
  if (!setting || setting->value == "random") return;
  const size_t colon = setting->value.find(':');
  const std::string kind = setting->value.substr(0, colon);
  const std::optional<std::string> argument =
      colon == std::string::npos ? std::nullopt
                                 : std::optional<std::string>(setting->value.substr(colon + 1));
  if (kind == "zipf") {
    const Parameter& alpha = stream_parameter("alpha");
    const double theta =
        argument ? file.number(*setting, *argument, kDistributions) : kFioDefaultZipfTheta;
    if (!(theta > 0.0 && theta <= alpha.real_max)) {
      file.fail(*setting, fmt::format("has theta {}", theta),
                fmt::format("zipf:THETA with THETA in (0, {}]", alpha.real_max));
    }
    stream.pattern = "zipf";
    stream.zipf_alpha = theta;
  } else if (kind == "pareto") {
    const double h =
        argument ? file.number(*setting, *argument, kDistributions) : kFioDefaultParetoH;
    // fio draws rank (N-1) * u^p with p = ln h / ln(1 - h): the hottest share x of the ranks
    // takes x^(1/p) of the accesses, the power law zipf's alpha = 1 - 1/p gives. Above 0.5 the
    // law piles up at the far end of the ranks, which no zipf expresses.
    if (!(h > 0.0 && h <= 0.5)) {
      file.fail(*setting, fmt::format("has H {}", h),
                "pareto:H with H in (0, 0.5] (fio's 0.5..1 mirror the ranks in a way the host "
                "model's zipf has no equivalent for)");
    }
    stream.pattern = "zipf";
    stream.zipf_alpha = 1.0 - std::log(1.0 - h) / std::log(h);
  } else if (kind == "zoned") {
    constexpr const char* kAllowed =
        "zoned:ACCESS/SIZE:ACCESS/SIZE, two zones from the region start, percentages each adding "
        "to 100 (the host model's hotcold)";
    std::vector<std::pair<double, double>> zones;
    std::stringstream in(argument.value_or(""));
    for (std::string zone; std::getline(in, zone, ':');) {
      const size_t slash = zone.find('/');
      if (slash == std::string::npos) file.fail(*setting, "has a zone without ACCESS/SIZE", kAllowed);
      zones.emplace_back(file.number(*setting, trim(zone.substr(0, slash)), kAllowed),
                         file.number(*setting, trim(zone.substr(slash + 1)), kAllowed));
    }
    if (zones.size() != 2) {
      file.fail(*setting, fmt::format("has {} zones", zones.size()), kAllowed);
    }
    const auto inside = [](double percent) { return percent > 0.0 && percent < 100.0; };
    if (!inside(zones[0].first) || !inside(zones[0].second) ||
        std::fabs(zones[0].first + zones[1].first - 100.0) > 1e-9 ||
        std::fabs(zones[0].second + zones[1].second - 100.0) > 1e-9) {
      file.fail(*setting, "has zones that are empty or do not each add to 100", kAllowed);
    }
    stream.pattern = "hotcold";
    stream.hot_access_fraction = zones[0].first / 100.0;
    stream.hot_space_fraction = zones[0].second / 100.0;
  } else {
    file.fail(*setting, "is not a supported distribution", kDistributions);
  }
}

uint64_t smallest(const Sizes& sizes) {
  uint64_t least = std::numeric_limits<uint64_t>::max();
  for (const auto& entry : sizes) least = std::min(least, entry.first);
  return least;
}

uint64_t largest(const Sizes& sizes) {
  uint64_t most = 0;
  for (const auto& entry : sizes) most = std::max(most, entry.first);
  return most;
}

// How a job ends: fio stops it at the first of these.
struct JobEnd {
  bool time_based = false;
  uint64_t runtime_ps = 0;          // 0 = none
  std::optional<uint64_t> bytes;    // size, per clone (not with time_based)
  std::optional<uint64_t> ios;      // number_ios, per clone
  uint64_t clones = 1;              // numjobs
};

// One job as its streams (a clone each) and how it ends.
JobEnd translate_job(const JobFile& file, const Job& job, std::vector<host::StreamConfig>& out) {
  host::StreamConfig stream;
  stream.name = job.name;
  const Setting* rw = job.find("rw");
  const std::string mode = rw ? rw->value : "read";  // fio's default
  const bool mixed = mode == "rw" || mode == "readwrite" || mode == "randrw";
  if (mode == "read" || mode == "randread") {
    stream.read_fraction = 1.0;
  } else if (mode == "write" || mode == "randwrite") {
    stream.read_fraction = 0.0;
  } else if (mixed) {
    // rwmixread means something to fio only for mixed jobs; it ignores it otherwise.
    const Setting* mix = job.find("rwmixread");
    stream.read_fraction =
        static_cast<double>(mix ? file.count(*mix, 0, 100) : kFioDefaultReadPercent) / 100.0;
  } else {
    file.fail(*rw, "is not a supported rw mode", kRwModes);
  }
  if (mode.rfind("rand", 0) == 0) {
    random_distribution(file, job, stream);
  } else {
    stream.pattern = "sequential";  // fio ignores random_distribution for sequential jobs
  }

  const auto [read_sizes, write_sizes] = block_sizes(file, job);
  const bool reads = stream.read_fraction > 0.0;
  const bool writes = stream.read_fraction < 1.0;
  stream.sizes = writes ? write_sizes : read_sizes;
  if (reads && writes && read_sizes != write_sizes) stream.read_sizes = read_sizes;
  // fio aligns random offsets to the smallest block of each direction (blockalign); the host
  // model has one alignment per stream: the smallest block of the directions it issues.
  // Both within the request sizes, so the alignment fits its 32-bit field.
  const uint64_t align =
      stream.read_sizes.empty() ? smallest(stream.sizes)
                                : std::min(smallest(stream.sizes), smallest(stream.read_sizes));
  stream.align_bytes = static_cast<uint32_t>(align);
  const uint64_t biggest = std::max(largest(stream.sizes), largest(stream.read_sizes));

  const Parameter& queue_depth = stream_parameter("queue_depth");
  if (const Setting* iodepth = job.find("iodepth")) {
    stream.queue_depth = static_cast<uint32_t>(file.count(*iodepth, queue_depth.min, queue_depth.max));
  } else {
    stream.queue_depth = 1;  // fio's default
  }
  if (const Setting* offset = job.find("offset")) {
    stream.offset_bytes = file.size(*offset, offset->value);
    if (stream.offset_bytes % stream.align_bytes != 0) {
      file.fail(*offset,
                fmt::format("is not a multiple of the job's smallest block, {} bytes, where its "
                            "requests are aligned",
                            stream.align_bytes),
                fmt::format("a multiple of {} bytes", stream.align_bytes));
    }
  }

  // The host model keeps iodepth commands queued without a page cache: asynchronous direct I/O.
  const Setting* engine = job.find("ioengine");
  if (engine && engine->value != "libaio" && engine->value != "io_uring") {
    file.fail(*engine,
              "has no equivalent here: the host model queues iodepth commands as an asynchronous "
              "engine does",
              "libaio, io_uring");
  }
  const Setting* direct = job.find("direct");
  if (direct && direct->value != "1") {
    file.fail(*direct, "has no equivalent here: the host model has no page cache", "1");
  }

  // A flush after every N writes; the device's flush makes no difference between data and
  // metadata, so fdatasync is fsync here.
  const Parameter& fsync = stream_parameter("fsync");
  for (const char* option : {"fsync", "fdatasync"}) {
    if (const Setting* setting = job.find(option)) {
      if (stream.fsync_writes != 0) {
        file.fail(*setting, "repeats the flush interval fsync already gives", "one of fsync, fdatasync");
      }
      stream.fsync_writes = file.count(*setting, fsync.min, fsync.max);
    }
  }

  JobEnd end;
  if (const Setting* time_based = job.find("time_based")) end.time_based = file.flag(*time_based);
  if (const Setting* runtime = job.find("runtime")) end.runtime_ps = file.time_ps(*runtime);
  if (const Setting* size = job.find("size")) {
    stream.working_set_bytes = file.size(*size, size->value);
    if (stream.working_set_bytes < biggest) {
      file.fail(*size, fmt::format("cannot hold the job's largest block of {} bytes", biggest),
                fmt::format("{} bytes or more", biggest));
    }
    if (!end.time_based) end.bytes = stream.working_set_bytes;
  }
  if (const Setting* ios = job.find("number_ios")) {
    end.ios = file.count(*ios, 1, std::numeric_limits<uint64_t>::max());
  }
  if (end.time_based && end.runtime_ps == 0) {
    file.fail(job.line, "time_based",
              fmt::format("job '{}' is time_based without a runtime: it would never end",
                          job.name));
  }

  if (const Setting* numjobs = job.find("numjobs")) {
    end.clones = file.count(*numjobs, 1, kMaxNumjobs);
  }
  for (uint64_t clone = 0; clone < end.clones; ++clone) {
    out.push_back(stream);
    if (end.clones > 1) out.back().name = fmt::format("{}.{}", job.name, clone);
  }
  return end;
}

// Sum of a per-clone amount over all clones of all jobs; overflow is an error.
uint64_t add_clones(const JobFile& file, const Job& job, const char* option, uint64_t total,
                    uint64_t amount, uint64_t clones) {
  if (amount > (std::numeric_limits<uint64_t>::max() - total) / clones) {
    file.fail(job.line, option, "the jobs' total does not fit in 64 bits");
  }
  return total + amount * clones;
}

}  // namespace

void apply_fio_jobs(const std::string& text, const std::string& source, host::PhaseConfig& phase) {
  const JobFile file(text, source);
  std::vector<host::StreamConfig> streams;
  std::vector<JobEnd> ends;
  for (const Job& job : file.jobs()) ends.push_back(translate_job(file, job, streams));

  // The host model ends a phase, not a stream: the jobs share the phase's limits, which must
  // then mean the same for each of them.
  const Job& first = file.jobs().front();
  uint64_t bytes = 0;
  uint64_t ios = 0;
  for (size_t i = 0; i < ends.size(); ++i) {
    const Job& job = file.jobs()[i];
    const JobEnd& end = ends[i];
    const auto differ = [&](const char* option) {
      file.fail(job.line, option,
                fmt::format("job '{}' ends otherwise than job '{}' (line {}); the jobs of one "
                            "file share their phase's limits, so each must have the same "
                            "time_based and runtime, and give size and number_ios alike",
                            job.name, first.name, first.line));
    };
    if (end.time_based != ends[0].time_based) differ("time_based");
    if (end.runtime_ps != ends[0].runtime_ps) differ("runtime");
    if (end.bytes.has_value() != ends[0].bytes.has_value()) differ("size");
    if (end.ios.has_value() != ends[0].ios.has_value()) differ("number_ios");
    if (end.bytes) bytes = add_clones(file, job, "size", bytes, *end.bytes, end.clones);
    if (end.ios) ios = add_clones(file, job, "number_ios", ios, *end.ios, end.clones);
  }
  if (!ends[0].bytes && !ends[0].ios && ends[0].runtime_ps == 0) {
    file.fail(first.line, "size",
              "the jobs never end: give size (the bytes each job moves), number_ios or runtime");
  }
  phase.streams = std::move(streams);
  phase.max_bytes = bytes;
  phase.max_requests = ios;
  phase.max_time_ps = ends[0].runtime_ps;
  phase.capacity_multiple = 0.0;
}

void apply_fio_job_file(const std::string& path, host::PhaseConfig& phase) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioError(fmt::format("cannot read fio job file '{}': {}", path,
                                    std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  apply_fio_jobs(text.str(), path, phase);
}

}  // namespace ssdvp
