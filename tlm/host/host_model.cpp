#include "tlm/host/host_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "interface/hic_cmd.h"
#include "tlm/system/log.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::host {
namespace {

// Width of the completion pulse on the waveform: completions closer than this merge into one
// pulse; the completion counter beside it counts every one.
constexpr uint64_t kPulsePs = 1000;

// The byte limit of a phase: max_bytes, or capacity_multiple times the capacity if that comes
// first (rounded up to a whole byte).
uint64_t phase_byte_limit(const PhaseConfig& phase, uint64_t capacity_bytes,
                          const std::string& where) {
  const double multiple = phase.capacity_multiple;
  if (multiple == 0.0) return phase.max_bytes;
  if (!(multiple > 0.0) || !std::isfinite(multiple)) {
    throw std::runtime_error(
        fmt::format("{}.capacity_multiple: {} is not a number >= 0", where, multiple));
  }
  const double bytes = std::ceil(multiple * static_cast<double>(capacity_bytes));
  if (!(bytes < 0x1.0p64)) {
    throw std::runtime_error(fmt::format(
        "{}.capacity_multiple: {} times the capacity of {} bytes is 2^64 bytes or more", where,
        multiple, capacity_bytes));
  }
  const uint64_t limit = static_cast<uint64_t>(bytes);
  return phase.max_bytes == 0 ? limit : std::min(phase.max_bytes, limit);
}

}  // namespace

HostModel::HostModel(sc_core::sc_module_name name, const HostConfig& config,
                     const WorkloadConfig& workload, uint64_t seed, Hic& hic, WaveWriter* waves,
                     SourceFactory factory)
    : sc_core::sc_module(name),
      config_(config),
      hic_(hic),
      waves_(waves),
      device_sectors_(hic.lpn_count() * hic.sectors_per_page()),
      sectors_per_page_(hic.sectors_per_page()),
      oracle_(config.power_loss_protection),
      stats_(config.stats_interval_ps) {
  size_t max_streams = 0;
  verify_stream_.config.queue_depth = 1;
  phases_.resize(workload.phases.size());
  for (size_t p = 0; p < workload.phases.size(); ++p) {
    const PhaseConfig& phase_config = workload.phases[p];
    Phase& phase = phases_[p];
    phase.config = phase_config;
    const std::string phase_where = fmt::format("workload.phases[{}]", p);
    if (phase_config.streams.empty() && phase_config.max_time_ps == 0) {
      throw std::runtime_error(fmt::format("{} ('{}'): a phase without streams is an idle "
                                           "phase and needs a duration",
                                           phase_where, phase_config.name));
    }
    phase.config.max_bytes =
        phase_byte_limit(phase_config, device_sectors_ * config_.sector_bytes, phase_where);
    const bool limited = phase.config.max_requests != 0 || phase.config.max_bytes != 0 ||
                         phase.config.max_time_ps != 0;
    phase.streams.resize(phase_config.streams.size());
    for (size_t s = 0; s < phase_config.streams.size(); ++s) {
      Stream& stream = phase.streams[s];
      stream.config = phase_config.streams[s];
      stream.where = fmt::format("{}.streams[{}]{}", phase_where, s,
                                 stream.config.name.empty()
                                     ? ""
                                     : fmt::format(" ('{}')", stream.config.name));
      if (stream.config.trace_path.empty() && !limited) {
        throw std::runtime_error(fmt::format(
            "{} ('{}'): synthetic streams never run out, so the phase needs a limit: requests, "
            "bytes, capacity_multiple or duration",
            phase_where, phase_config.name));
      }
      if (stream.config.queue_depth == 0) {
        throw std::runtime_error(
            fmt::format("{}: queue_depth = 0 is out of range: allowed 1 or more", stream.where));
      }
      stream.queue = static_cast<unsigned>(s);
      try {
        stream.source = factory(stream.config, device_sectors_, config_.sector_bytes,
                                stream_seed(seed, p, s));
      } catch (const std::exception& error) {
        throw std::runtime_error(fmt::format("{}: {}", stream.where, error.what()));
      }
    }
    max_streams = std::max(max_streams, phase.streams.size());
    for (const Stream& stream : phase.streams) {
      verify_stream_.config.queue_depth =
          std::max(verify_stream_.config.queue_depth, stream.config.queue_depth);
    }
  }
  // The verification reads through queue 0, so there is one even without streams.
  for (size_t q = 0; q < std::max<size_t>(max_streams, 1); ++q) hic_.add_queue();
  verify_stream_.config.name = "verify";
  verify_stream_.where = "the verification after a power loss";
  hic_.attach_host(*this);

  SC_HAS_PROCESS(HostModel);
  SC_THREAD(run_thread);

  if (waves_ != nullptr) {
    wave_outstanding_ = waves_->add_signal(this->name(), "outstanding", 32);
    wave_completions_ = waves_->add_signal(this->name(), "completions", 64);
    wave_completion_pulse_ = waves_->add_signal(this->name(), "completion", 1);
  }
}

uint64_t HostModel::now_ps() const { return to_ps(sc_core::sc_time_stamp()); }

uint32_t HostModel::stream_outstanding(size_t phase, size_t stream) const {
  return phases_.at(phase).streams.at(stream).outstanding;
}

uint32_t HostModel::stream_max_outstanding(size_t phase, size_t stream) const {
  return phases_.at(phase).streams.at(stream).max_outstanding;
}

uint64_t HostModel::stream_submitted(size_t phase, size_t stream) const {
  return phases_.at(phase).streams.at(stream).submitted;
}

// ---- Phases ----------------------------------------------------------------------------------

void HostModel::run_thread() {
  if (phases_.empty()) return;
  if (!hic_.enabled()) wait(hic_.enabled_event());
  for (size_t index = 0; index < phases_.size(); ++index) {
    run_phase(index);
    if (failed_) return;
  }
  done_ = true;
  const std::string summary =
      fmt::format("workload done: {} commands in {} phase(s){}", stats_.commands_completed(),
                  phases_.size(),
                  config_.oracle ? fmt::format(", {} pages checked", oracle_.pages_checked())
                                 : std::string(", oracle off"));
  log::info(*this, "{}", summary);
  if (done_handler_) done_handler_(summary);
}

void HostModel::run_phase(size_t index) {
  Phase& phase = phases_[index];
  const PhaseConfig& limits = phase.config;
  phase_start_ps_ = now_ps();
  phase_requests_ = 0;
  phase_bytes_ = 0;
  stats_.begin_phase(limits.name, phase_start_ps_);
  if (phase_handler_) phase_handler_(stats_.phases().back().name, false);
  log::info(*this, "phase '{}' begins", limits.name);
  const bool timed = limits.max_time_ps != 0;
  const uint64_t deadline = phase_start_ps_ + limits.max_time_ps;
  bool stopped = false;
  for (;;) {
    if (timed && now_ps() >= deadline) stopped = true;
    // Not before the controller is ready: after a power cut, until the firmware is up again,
    // and then not before the guaranteed data has been read back.
    const bool ready = hic_.enabled();
    if (ready && verify_pending_ && outstanding_ == 0) {
      verify_pending_ = false;
      verify_guaranteed();
      if (failed_) return;
      continue;
    }
    std::optional<uint64_t> next_arrival;
    if (!stopped && ready) next_arrival = submit_ready(phase);
    if (failed_) return;
    stopped = stopped || phase_limit_reached(limits);
    // An idle phase (no streams) lasts its duration.
    const bool exhausted =
        !phase.streams.empty() &&
        std::all_of(phase.streams.begin(), phase.streams.end(),
                    [](const Stream& stream) { return stream.exhausted; });
    if ((stopped || exhausted) && outstanding_ == 0) break;

    std::optional<uint64_t> wake_ps;
    if (!stopped) {
      wake_ps = next_arrival;
      if (timed) wake_ps = std::min(wake_ps.value_or(deadline), deadline);
    }
    const sc_core::sc_event_or_list wake = wake_event_ | hic_.enabled_event();
    if (wake_ps) {
      wait(from_ps(*wake_ps - now_ps()), wake);
    } else {
      wait(wake);
    }
    if (failed_) return;
  }
  stats_.end_phase(now_ps(), true);
  log::info(*this, "phase '{}' ends: {} requests", limits.name, phase_requests_);
  if (phase_handler_) phase_handler_(stats_.phases().back().name, true);
}

bool HostModel::phase_limit_reached(const PhaseConfig& phase) const {
  return (phase.max_requests != 0 && phase_requests_ >= phase.max_requests) ||
         (phase.max_bytes != 0 && phase_bytes_ >= phase.max_bytes);
}

std::optional<uint64_t> HostModel::submit_ready(Phase& phase) {
  std::optional<uint64_t> due_ps;
  // One request per stream per round, so streams share a request or byte limit fairly.
  for (bool progress = true; progress;) {
    progress = false;
    for (Stream& stream : phase.streams) {
      if (phase_limit_reached(phase.config)) return due_ps;
      const HostRequest* request = ready_request(stream, due_ps);
      if (failed_) return due_ps;
      if (request == nullptr) continue;
      submit(stream, *request);
      stream.next.reset();
      progress = true;
    }
  }
  return due_ps;
}

const HostRequest* HostModel::ready_request(Stream& stream, std::optional<uint64_t>& due_ps) {
  if (stream.exhausted || stream.outstanding >= stream.config.queue_depth) return nullptr;
  if (!stream.next) {
    try {
      stream.next = stream.source->next();
    } catch (const std::exception& error) {
      fail(Failure::kWorkload, fmt::format("{}: {}", stream.where, error.what()));
      return nullptr;
    }
    if (!stream.next) {
      stream.exhausted = true;
      return nullptr;
    }
    const HostRequest& request = *stream.next;
    const bool flush = request.op == HostOp::kFlush;
    if (flush ? request.sector_count != 0
              : request.sector_count == 0 || request.first_sector >= device_sectors_ ||
                    request.sector_count > device_sectors_ - request.first_sector) {
      fail(Failure::kWorkload,
           fmt::format("{}: request of sectors {} + {} lies outside the {} sectors of the device",
                       stream.where, request.first_sector, request.sector_count,
                       device_sectors_));
      return nullptr;
    }
  }
  if (stream.config.follow_timestamps) {
    const uint64_t arrival = phase_start_ps_ + stream.next->arrival_ps;
    if (arrival > now_ps()) {
      due_ps = std::min(due_ps.value_or(arrival), arrival);
      return nullptr;
    }
  }
  if (overlaps_write_in_flight(*stream.next)) return nullptr;
  return &*stream.next;
}

bool HostModel::overlaps_write_in_flight(const HostRequest& request) const {
  if ((request.op != HostOp::kWrite && request.op != HostOp::kTrim) ||
      lpns_being_written_.empty()) {
    return false;
  }
  const uint64_t first = request.first_sector / sectors_per_page_;
  const uint64_t last = (request.first_sector + request.sector_count - 1) / sectors_per_page_;
  for (uint64_t lpn = first; lpn <= last; ++lpn) {
    if (lpns_being_written_.count(static_cast<uint32_t>(lpn)) != 0) return true;
  }
  return false;
}

// ---- Commands --------------------------------------------------------------------------------

void HostModel::submit(Stream& stream, const HostRequest& request) {
  uint32_t host_tag;
  if (free_tags_.empty()) {
    host_tag = static_cast<uint32_t>(commands_.size());
    commands_.emplace_back();
  } else {
    host_tag = free_tags_.back();
    free_tags_.pop_back();
  }
  Command& command = commands_[host_tag];
  command.busy = true;
  command.stream = &stream;
  command.op = request.op;
  command.bytes = uint64_t{request.sector_count} * config_.sector_bytes;
  command.submit_ps = now_ps();
  command.fua = request.fua && request.op == HostOp::kWrite;
  command.page_values.clear();
  command.first_lpn = 0;
  command.pages = 0;
  if (request.op != HostOp::kFlush) {
    const uint64_t end = request.first_sector + request.sector_count;
    command.first_lpn = static_cast<uint32_t>(request.first_sector / sectors_per_page_);
    command.pages = static_cast<uint32_t>((end - 1) / sectors_per_page_ + 1 - command.first_lpn);
  }
  switch (request.op) {
    case HostOp::kWrite:
      for (uint32_t page = 0; page < command.pages; ++page) {
        const uint32_t lpn = command.first_lpn + page;
        lpns_being_written_.insert(lpn);
        command.page_values.push_back(config_.oracle ? oracle_.begin_write(lpn) : 1);
      }
      break;
    case HostOp::kTrim: {
      // Only the pages the trim covers whole become zeroes; partial ones keep their data.
      const uint64_t end = request.first_sector + request.sector_count;
      command.trim_first = static_cast<uint32_t>(
          (request.first_sector + sectors_per_page_ - 1) / sectors_per_page_);
      command.trim_end = static_cast<uint32_t>(end / sectors_per_page_);
      for (uint32_t page = 0; page < command.pages; ++page) {
        const uint32_t lpn = command.first_lpn + page;
        lpns_being_written_.insert(lpn);
        if (config_.oracle && lpn >= command.trim_first && lpn < command.trim_end) {
          oracle_.begin_trim(lpn);
        }
      }
      break;
    }
    case HostOp::kRead:
      if (config_.oracle) {
        for (uint32_t page = 0; page < command.pages; ++page) {
          command.page_values.push_back(oracle_.read_snapshot(command.first_lpn + page));
        }
      }
      break;
    case HostOp::kFlush:
      if (config_.oracle) command.flush_id = oracle_.begin_flush();
      break;
  }

  ++stream.outstanding;
  stream.max_outstanding = std::max(stream.max_outstanding, stream.outstanding);
  ++stream.submitted;
  ++outstanding_;
  const uint64_t now = now_ps();
  if (&stream != &verify_stream_) {
    ++phase_requests_;
    phase_bytes_ += command.bytes;
    stats_.submitted(now);
  }
  if (wave_outstanding_) waves_->set(*wave_outstanding_, outstanding_, now);
  hic_.submit(stream.queue, HostCommand{host_tag, request.op, request.first_sector,
                                        request.sector_count, command.fua});
}

HostModel::Command& HostModel::command(uint32_t host_tag, const char* what) {
  if (host_tag >= commands_.size() || !commands_[host_tag].busy) {
    throw std::logic_error(
        fmt::format("{}: {} for host tag {}, which is not outstanding", name(), what, host_tag));
  }
  return commands_[host_tag];
}

data_tag_t HostModel::write_data(uint32_t host_tag, uint32_t lpn) {
  const Command& write = command(host_tag, "write data");
  return data_tag_t{lpn, write.page_values.at(lpn - write.first_lpn)};
}

void HostModel::read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) {
  const Command& read = command(host_tag, "read data");
  if (!config_.oracle || failed_) return;
  const std::optional<std::string> problem =
      oracle_.check(lpn, read.page_values.at(lpn - read.first_lpn), tag);
  if (read.stream == &verify_stream_) {
    stats_.verified(!problem);
    if (problem) {
      log::error(*this, "{}", *problem);
      ++verify_failures_;
      if (!verify_failure_) verify_failure_ = *problem;
    }
  } else if (problem) {
    fail(Failure::kIntegrity,
         fmt::format("{} (a read of {} page(s) from LPN {} by {}, submitted at {} ps)", *problem,
                     read.pages, read.first_lpn, read.stream->where, read.submit_ps));
  }
}

void HostModel::completed(uint32_t host_tag, uint8_t status) {
  Command& done = command(host_tag, "completion");
  const uint64_t now = now_ps();
  const bool ok = status == HIC_STATUS_OK;
  if (!ok) {
    log::warn(*this, "{} of {} page(s) from LPN {} by {} completed with status {}",
              host_op_name(done.op), done.pages, done.first_lpn, done.stream->where, status);
  }
  if (done.op == HostOp::kWrite || done.op == HostOp::kTrim) {
    for (uint32_t page = 0; page < done.pages; ++page) {
      const uint32_t lpn = done.first_lpn + page;
      lpns_being_written_.erase(lpn);
      const bool versioned =
          done.op == HostOp::kWrite || (lpn >= done.trim_first && lpn < done.trim_end);
      if (config_.oracle && versioned) oracle_.complete(lpn, done.fua && ok);
    }
  }
  if (done.op == HostOp::kFlush && config_.oracle && ok) oracle_.complete_flush(done.flush_id);
  if (done.stream != &verify_stream_) {
    stats_.completed(done.op, done.bytes, now - done.submit_ps, ok, now);
  } else if (!ok) {
    // A guaranteed page that cannot be read is lost as well.
    stats_.verified(false);
    ++verify_failures_;
    if (!verify_failure_) {
      verify_failure_ = fmt::format("integrity check failed: LPN {}: the read of its guaranteed "
                                    "version failed with status {}",
                                    done.first_lpn, status);
    }
  }
  --done.stream->outstanding;
  --outstanding_;
  done.busy = false;
  free_tags_.push_back(host_tag);
  if (waves_ != nullptr) {
    waves_->set(*wave_outstanding_, outstanding_, now);
    waves_->add(*wave_completions_, 1, now);
    waves_->set(*wave_completion_pulse_, 1, now);
    waves_->set(*wave_completion_pulse_, 0, now + kPulsePs);
  }
  wake_event_.notify(sc_core::SC_ZERO_TIME);
  if (completion_handler_) completion_handler_(stats_.commands_completed());
}

uint32_t HostModel::power_lost() {
  const uint64_t now = now_ps();
  uint32_t lost = 0;
  for (uint32_t host_tag = 0; host_tag < commands_.size(); ++host_tag) {
    Command& command = commands_[host_tag];
    if (!command.busy) continue;
    if (command.op == HostOp::kWrite || command.op == HostOp::kTrim) {
      for (uint32_t page = 0; page < command.pages; ++page) {
        lpns_being_written_.erase(command.first_lpn + page);
      }
    }
    stats_.lost_to_power(now);
    --command.stream->outstanding;
    --outstanding_;
    command.busy = false;
    free_tags_.push_back(host_tag);
    ++lost;
  }
  if (wave_outstanding_) waves_->set(*wave_outstanding_, outstanding_, now);
  if (lost != 0) log::info(*this, "power cut: {} outstanding command(s) failed", lost);
  ++power_cuts_;
  if (config_.oracle) {
    oracle_.power_lost();
    verify_pending_ = true;
  }
  wake_event_.notify(sc_core::SC_ZERO_TIME);
  return lost;
}

uint64_t HostModel::verify_guaranteed() {
  const std::vector<uint32_t> lpns = oracle_.guaranteed_lpns();
  log::info(*this, "verifying the {} LPN(s) with a guaranteed version", lpns.size());
  verify_failure_.reset();
  verify_failures_ = 0;
  size_t next = 0;
  const uint64_t cuts = power_cuts_;
  while (!failed_ && (next < lpns.size() || verify_stream_.outstanding != 0)) {
    // Cut again: the verification starts over once the controller is ready again.
    if (power_cuts_ != cuts) return verify_failures_;
    while (next < lpns.size() &&
           verify_stream_.outstanding < verify_stream_.config.queue_depth) {
      const uint32_t lpn = lpns[next++];
      submit(verify_stream_,
             HostRequest{HostOp::kRead, uint64_t{lpn} * sectors_per_page_, sectors_per_page_});
    }
    wait(wake_event_);
  }
  log::info(*this, "verification: {} LPN(s) read, {} failure(s)", next, verify_failures_);
  if (verify_failure_) {
    fail(Failure::kIntegrity,
         fmt::format("{} (the verification after a power loss; {} failure(s) in {} LPN(s))",
                     *verify_failure_, verify_failures_, lpns.size()));
  }
  return verify_failures_;
}

void HostModel::fail(Failure failure, const std::string& message) {
  if (failed_) return;
  failed_ = true;
  log::error(*this, "{}", message);
  if (failure_handler_) failure_handler_(failure, message);
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

void HostModel::end_of_run(uint64_t now_ps) {
  if (stats_.in_phase()) stats_.end_phase(now_ps, false);
}

void HostModel::report(nlohmann::json& out) const {
  out = stats_.to_json();
  out["oracle"] = {{"enabled", config_.oracle},
                   {"pages_checked", oracle_.pages_checked()},
                   {"lpns_tracked", oracle_.lpns_tracked()},
                   {"power_loss_protection", config_.power_loss_protection},
                   {"power_losses", oracle_.power_losses()}};
  out["capacity_bytes"] = config_.capacity_bytes;
  out["commands_completed"] = stats_.commands_completed();
  out["workload_done"] = done_;
}

}  // namespace ssdvp::host
