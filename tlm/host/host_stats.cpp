#include "tlm/host/host_stats.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

#include "tlm/system/csv.h"

namespace ssdvp::host {
namespace {

constexpr double kPsPerSecond = 1e12;
constexpr double kBytesPerMB = 1e6;
constexpr std::array<HostOp, HostStats::kOps> kAllOps = {HostOp::kRead, HostOp::kWrite,
                                                          HostOp::kTrim, HostOp::kFlush};

double per_second(double amount, uint64_t duration_ps) {
  return duration_ps == 0 ? 0.0 : amount * kPsPerSecond / static_cast<double>(duration_ps);
}

std::string csv_value(const nlohmann::json& value) {
  return value.is_string() ? csv_field(value.get<std::string>()) : value.dump();
}

nlohmann::json latency_json(const LatencyHistogram& histogram) {
  nlohmann::json buckets = nlohmann::json::array();
  for (const LatencyHistogram::Bucket& bucket : histogram.buckets()) {
    buckets.push_back({bucket.lower, bucket.upper, bucket.count});
  }
  return {{"mean", histogram.mean()},
          {"min", histogram.min()},
          {"p50", histogram.percentile(50)},
          {"p99", histogram.percentile(99)},
          {"p99.9", histogram.percentile(99.9)},
          {"p99.99", histogram.percentile(99.99)},
          {"max", histogram.max()},
          {"buckets", std::move(buckets)}};
}

}  // namespace

const char* host_op_name(HostOp op) {
  switch (op) {
    case HostOp::kRead: return "read";
    case HostOp::kWrite: return "write";
    case HostOp::kTrim: return "trim";
    case HostOp::kFlush: return "flush";
  }
  return "unknown";
}

HostStats::HostStats(uint64_t interval_ps) : interval_ps_(interval_ps) {}

void HostStats::begin_phase(const std::string& name, uint64_t now_ps) {
  if (in_phase_) throw std::logic_error("host statistics: a phase began inside another");
  Phase phase;
  phase.name = name;
  phase.start_ps = now_ps;
  phase.end_ps = now_ps;
  phase.wall_start = std::chrono::steady_clock::now();
  phases_.push_back(std::move(phase));
  in_phase_ = true;
  last_change_ps_ = now_ps;
}

HostStats::Interval& HostStats::interval_at(uint64_t time_ps) {
  Phase& phase = phases_.back();
  const uint64_t index = (time_ps - phase.start_ps) / interval_ps_;
  while (phase.intervals.size() <= index) {
    Interval interval;
    interval.start_ps = phase.start_ps + phase.intervals.size() * interval_ps_;
    interval.end_ps = interval.start_ps + interval_ps_;
    phase.intervals.push_back(interval);
  }
  return phase.intervals[index];
}

void HostStats::advance(uint64_t now_ps) {
  if (!in_phase_ || now_ps <= last_change_ps_) return;
  Phase& phase = phases_.back();
  phase.outstanding_area += static_cast<unsigned __int128>(outstanding_) * (now_ps - last_change_ps_);
  for (uint64_t time = last_change_ps_; interval_ps_ != 0 && time < now_ps;) {
    Interval& interval = interval_at(time);
    const uint64_t segment_end = std::min(now_ps, interval.end_ps);
    interval.outstanding_area += static_cast<unsigned __int128>(outstanding_) * (segment_end - time);
    time = segment_end;
  }
  last_change_ps_ = now_ps;
}

void HostStats::submitted(uint64_t now_ps) {
  if (!in_phase_) throw std::logic_error("host statistics: a submission outside every phase");
  advance(now_ps);
  ++outstanding_;
  Phase& phase = phases_.back();
  ++phase.submitted;
  phase.max_outstanding = std::max(phase.max_outstanding, outstanding_);
}

void HostStats::completed(HostOp op, uint64_t bytes, uint64_t latency_ps, bool ok,
                          uint64_t now_ps) {
  if (!in_phase_ || outstanding_ == 0) {
    throw std::logic_error("host statistics: a completion with no command outstanding");
  }
  advance(now_ps);
  --outstanding_;
  ++commands_completed_;
  const size_t index = static_cast<size_t>(op);
  OpStats& stats = phases_.back().ops[index];
  ++stats.commands;
  if (ok) {
    stats.bytes += bytes;
  } else {
    ++stats.errors;
  }
  stats.latency_ns.record((latency_ps + 500) / 1000);
  if (interval_ps_ == 0) return;
  Interval& interval = interval_at(now_ps);
  ++interval.commands[index];
  if (ok) interval.bytes[index] += bytes;
  interval.latency_sum_ps[index] += latency_ps;
}

void HostStats::lost_to_power(uint64_t now_ps) {
  if (!in_phase_ || outstanding_ == 0) {
    throw std::logic_error("host statistics: a command lost to power with none outstanding");
  }
  advance(now_ps);
  --outstanding_;
  ++phases_.back().power_loss_failed;
}

void HostStats::end_phase(uint64_t now_ps, bool finished) {
  if (!in_phase_) throw std::logic_error("host statistics: end of a phase that did not begin");
  advance(now_ps);
  Phase& phase = phases_.back();
  phase.end_ps = now_ps;
  phase.finished = finished;
  phase.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - phase.wall_start).count();
  if (now_ps > phase.start_ps && interval_ps_ != 0) {
    Interval& last = interval_at(now_ps - 1);
    last.end_ps = std::min(last.end_ps, now_ps);
  }
  in_phase_ = false;
}

const std::vector<std::string>& HostStats::timeseries_columns() {
  static const std::vector<std::string> columns = {
      "phase",      "start_ns",    "end_ns",      "commands",          "reads",
      "writes",     "trims",       "flushes",     "read_bytes",        "write_bytes",
      "iops",       "read_mb_s",   "write_mb_s",  "read_latency_mean_us", "write_latency_mean_us",
      "queue_occupancy"};
  return columns;
}

std::vector<nlohmann::json> HostStats::interval_row(const Phase& phase,
                                                    const Interval& interval) const {
  const uint64_t duration = interval.end_ps - interval.start_ps;
  uint64_t commands = 0;
  for (const uint64_t count : interval.commands) commands += count;
  const auto mean_us = [&](HostOp op) {
    const size_t index = static_cast<size_t>(op);
    const uint64_t count = interval.commands[index];
    return count == 0 ? 0.0 : static_cast<double>(interval.latency_sum_ps[index]) / count / 1e6;
  };
  const size_t read = static_cast<size_t>(HostOp::kRead);
  const size_t write = static_cast<size_t>(HostOp::kWrite);
  return {phase.name,
          interval.start_ps / 1000,
          interval.end_ps / 1000,
          commands,
          interval.commands[read],
          interval.commands[write],
          interval.commands[static_cast<size_t>(HostOp::kTrim)],
          interval.commands[static_cast<size_t>(HostOp::kFlush)],
          interval.bytes[read],
          interval.bytes[write],
          per_second(static_cast<double>(commands), duration),
          per_second(static_cast<double>(interval.bytes[read]), duration) / kBytesPerMB,
          per_second(static_cast<double>(interval.bytes[write]), duration) / kBytesPerMB,
          mean_us(HostOp::kRead),
          mean_us(HostOp::kWrite),
          duration == 0 ? 0.0
                        : static_cast<double>(interval.outstanding_area) /
                              static_cast<double>(duration)};
}

nlohmann::json HostStats::to_json() const {
  nlohmann::json phases = nlohmann::json::array();
  for (const Phase& phase : phases_) {
    const uint64_t duration = phase.end_ps - phase.start_ps;
    uint64_t commands = 0, bytes = 0, errors = 0;
    nlohmann::json ops = nlohmann::json::object();
    for (const HostOp op : kAllOps) {
      const OpStats& stats = phase.ops[static_cast<size_t>(op)];
      commands += stats.commands;
      bytes += stats.bytes;
      errors += stats.errors;
      ops[host_op_name(op)] = {
          {"commands", stats.commands},
          {"bytes", stats.bytes},
          {"errors", stats.errors},
          {"iops", per_second(static_cast<double>(stats.commands), duration)},
          {"bandwidth_mb_s", per_second(static_cast<double>(stats.bytes), duration) / kBytesPerMB},
          {"latency_ns", latency_json(stats.latency_ns)}};
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const Interval& interval : phase.intervals) {
      std::vector<nlohmann::json> row = interval_row(phase, interval);
      row.erase(row.begin());  // the phase is the enclosing object
      rows.push_back(std::move(row));
    }
    std::vector<std::string> columns(timeseries_columns().begin() + 1, timeseries_columns().end());
    phases.push_back(
        {{"name", phase.name},
         {"start_ps", phase.start_ps},
         {"end_ps", phase.end_ps},
         {"finished", phase.finished},
         {"duration_s", static_cast<double>(duration) / kPsPerSecond},
         {"wall_seconds", phase.wall_seconds},
         {"submitted", phase.submitted},
         {"commands", commands},
         {"errors", errors},
         {"power_loss_failed", phase.power_loss_failed},
         {"bytes", bytes},
         {"iops", per_second(static_cast<double>(commands), duration)},
         {"bandwidth_mb_s", per_second(static_cast<double>(bytes), duration) / kBytesPerMB},
         {"queue_occupancy",
          {{"mean", duration == 0 ? 0.0
                                  : static_cast<double>(phase.outstanding_area) /
                                        static_cast<double>(duration)},
           {"max", phase.max_outstanding}}},
         {"ops", std::move(ops)},
         {"timeseries", {{"columns", std::move(columns)}, {"rows", std::move(rows)}}}});
  }
  return {{"phases", std::move(phases)},
          {"verification",
           {{"pages", verified_pages_}, {"failures", verification_failures_}}}};
}

void HostStats::write_latency_csv(std::ostream& out) const {
  out << "phase,op,lower_ns,upper_ns,count\n";
  for (const Phase& phase : phases_) {
    for (const HostOp op : kAllOps) {
      for (const auto& bucket : phase.ops[static_cast<size_t>(op)].latency_ns.buckets()) {
        out << fmt::format("{},{},{},{},{}\n", csv_field(phase.name), host_op_name(op),
                           bucket.lower, bucket.upper, bucket.count);
      }
    }
  }
}

void HostStats::write_timeseries_csv(std::ostream& out) const {
  out << fmt::format("{}\n", fmt::join(timeseries_columns(), ","));
  for (const Phase& phase : phases_) {
    for (const Interval& interval : phase.intervals) {
      std::string line;
      for (const nlohmann::json& value : interval_row(phase, interval)) {
        if (!line.empty()) line += ',';
        line += csv_value(value);
      }
      out << line << "\n";
    }
  }
}

}  // namespace ssdvp::host
