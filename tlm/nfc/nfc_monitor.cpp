#include "tlm/nfc/nfc_monitor.h"

#include <algorithm>

#include <fmt/format.h>

#include "interface/nfc_desc.h"

namespace ssdvp {
namespace {

const std::string kDieStateNames[] = {"idle", "wait",    "cmd",   "transfer_in",
                                      "read", "program", "erase", "transfer_out"};
const std::string kBusStateNames[] = {"idle", "cmd", "data_in", "data_out"};
const char* const kOpNames[] = {"read", "program", "erase"};
const char* const kStatusNames[] = {"ok", "erased", "ecc_fail", "program_fail", "bad_block"};

bool die_busy(size_t state) {
  return state != static_cast<size_t>(DieState::kIdle) &&
         state != static_cast<size_t>(DieState::kWait);
}

bool array_busy(size_t state) {
  return state == static_cast<size_t>(DieState::kRead) ||
         state == static_cast<size_t>(DieState::kProgram) ||
         state == static_cast<size_t>(DieState::kErase);
}

double ratio(long double part, uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part / whole);
}

}  // namespace

void NfcMonitor::Latency::add(uint64_t ps) {
  ++count;
  sum_ps += ps;
  min_ps = std::min(min_ps, ps);
  max_ps = std::max(max_ps, ps);
}

nlohmann::json NfcMonitor::Latency::to_json() const {
  return {{"count", count},
          {"mean_ps", count == 0 ? 0.0 : static_cast<double>(sum_ps) / count},
          {"min_ps", count == 0 ? 0 : min_ps},
          {"max_ps", max_ps}};
}

void NfcMonitor::Level::set(uint64_t new_value, uint64_t now_ps) {
  area += static_cast<long double>(value) * (now_ps - since_ps);
  since_ps = now_ps;
  value = new_value;
  max = std::max(max, value);
}

double NfcMonitor::Level::mean(uint64_t end_ps) const {
  const long double total = area + static_cast<long double>(value) * (end_ps - since_ps);
  return ratio(total, end_ps);
}

NfcMonitor::NfcMonitor(const nand::Geometry& geometry, uint64_t queue_sample_ps,
                       WaveWriter* waves, const std::string& scope)
    : geometry_(geometry),
      waves_(waves),
      dies_(geometry.die_count()),
      channels_(geometry.channels()),
      sample_ps_(queue_sample_ps) {
  if (waves_ == nullptr) return;
  outstanding_signal_ = waves_->add_signal(scope, "outstanding", 32, 0);
  for (uint32_t channel = 0; channel < geometry.channels(); ++channel) {
    const std::string channel_scope = fmt::format("{}.ch{}", scope, channel);
    channels_[channel].signal = waves_->add_state_signal(channel_scope, "bus", kBusStateNames[0]);
    for (uint32_t way = 0; way < geometry.ways(); ++way) {
      for (uint32_t die = 0; die < geometry.dies_per_chip(); ++die) {
        const nand_address_t address{channel, way, die, 0, 0, 0};
        DieRecord& record = dies_[geometry.die_index(address)];
        const std::string die_scope = fmt::format("{}.w{}d{}", channel_scope, way, die);
        record.state_signal = waves_->add_state_signal(die_scope, "state", kDieStateNames[0]);
        record.depth_signal = waves_->add_signal(die_scope, "queue_depth", 16, 0);
      }
    }
  }
}

void NfcMonitor::die_state(uint32_t die, DieState state, uint64_t now_ps) {
  DieRecord& record = dies_[die];
  if (record.state == state) return;
  record.state_ps[static_cast<size_t>(record.state)] += now_ps - record.since_ps;
  record.state = state;
  record.since_ps = now_ps;
  if (waves_ != nullptr) {
    waves_->set_state(record.state_signal, kDieStateNames[static_cast<size_t>(state)], now_ps);
  }
}

void NfcMonitor::die_queue_depth(uint32_t die, uint32_t depth, uint64_t now_ps) {
  DieRecord& record = dies_[die];
  record.depth.set(depth, now_ps);
  if (waves_ != nullptr) {
    waves_->set(record.depth_signal, std::min<uint32_t>(depth, 0xFFFF), now_ps);
  }
}

void NfcMonitor::bus_state(uint32_t channel, BusState state, uint64_t bytes, uint64_t now_ps) {
  ChannelRecord& record = channels_[channel];
  record.bytes += bytes;
  if (record.state == state) return;
  record.state_ps[static_cast<size_t>(record.state)] += now_ps - record.since_ps;
  record.state = state;
  record.since_ps = now_ps;
  if (waves_ != nullptr) {
    waves_->set_state(record.signal, kBusStateNames[static_cast<size_t>(state)], now_ps);
  }
}

void NfcMonitor::extend_samples(uint64_t value, uint64_t cursor_ps, uint64_t now_ps,
                                uint64_t interval_ps, uint64_t& start_ps, long double& area,
                                std::vector<double>& samples) {
  // Intervals ended since the last change held the current value from then on.
  while (now_ps >= start_ps + interval_ps) {
    const uint64_t boundary = start_ps + interval_ps;
    area += static_cast<long double>(value) * (boundary - cursor_ps);
    samples.push_back(static_cast<double>(area / interval_ps));
    area = 0;
    start_ps = boundary;
    cursor_ps = boundary;
  }
  area += static_cast<long double>(value) * (now_ps - cursor_ps);
}

void NfcMonitor::outstanding(uint32_t count, uint64_t now_ps) {
  if (sample_ps_ != 0) {
    extend_samples(outstanding_.value, outstanding_.since_ps, now_ps, sample_ps_, sample_start_ps_,
                   sample_area_, samples_);
  }
  outstanding_.set(count, now_ps);
  if (waves_ != nullptr) waves_->set(outstanding_signal_, count, now_ps);
}

void NfcMonitor::dma_transfer(uint64_t bytes, uint64_t busy_ps) {
  ++dma_transfers_;
  dma_bytes_ += bytes;
  dma_busy_ps_ += busy_ps;
}

void NfcMonitor::completed(NfcOpKind kind, uint32_t planes, uint32_t page_type, uint32_t pages,
                           uint16_t status, uint64_t latency_ps) {
  OpRecord& record = ops_[static_cast<size_t>(kind)];
  record.latency.add(latency_ps);
  record.pages += pages;
  if (planes > 1) ++record.multi_plane;
  if (kind == NfcOpKind::kRead) reads_by_page_type_[page_type].add(latency_ps);
  ++statuses_[std::min<size_t>(status, std::size(statuses_) - 1)];
}

void NfcMonitor::reset(uint64_t now_ps) {
  if (waves_ != nullptr) {
    for (const DieRecord& record : dies_) {
      waves_->set_state(record.state_signal, kDieStateNames[0], now_ps);
      waves_->set(record.depth_signal, 0, now_ps);
    }
    for (const ChannelRecord& record : channels_) {
      waves_->set_state(record.signal, kBusStateNames[0], now_ps);
    }
    waves_->set(outstanding_signal_, 0, now_ps);
  }
  for (DieRecord& record : dies_) {
    DieRecord idle;
    idle.state_signal = record.state_signal;
    idle.depth_signal = record.depth_signal;
    record = idle;
  }
  for (ChannelRecord& record : channels_) {
    ChannelRecord idle;
    idle.signal = record.signal;
    record = idle;
  }
  std::fill(std::begin(ops_), std::end(ops_), OpRecord{});
  std::fill(std::begin(reads_by_page_type_), std::end(reads_by_page_type_), Latency{});
  std::fill(std::begin(statuses_), std::end(statuses_), 0);
  outstanding_ = Level{};
  descriptors_ = dma_transfers_ = dma_bytes_ = dma_busy_ps_ = 0;
  sample_start_ps_ = 0;
  sample_area_ = 0;
  samples_.clear();
}

void NfcMonitor::report(nlohmann::json& nand, nlohmann::json& nfc, uint64_t end_ps) const {
  nlohmann::json dies = nlohmann::json::array();
  for (uint32_t index = 0; index < dies_.size(); ++index) {
    const DieRecord& record = dies_[index];
    const uint32_t channel = geometry_.channel_of_die(index);
    const uint32_t in_channel = index % geometry_.dies_per_channel();
    uint64_t busy = 0;
    uint64_t array = 0;
    nlohmann::json states = nlohmann::json::object();
    for (size_t state = 0; state < std::size(record.state_ps); ++state) {
      uint64_t ps = record.state_ps[state];
      if (state == static_cast<size_t>(record.state) && end_ps > record.since_ps) {
        ps += end_ps - record.since_ps;
      }
      states[kDieStateNames[state]] = ps;
      if (die_busy(state)) busy += ps;
      if (array_busy(state)) array += ps;
    }
    dies.push_back({{"channel", channel},
                    {"way", in_channel / geometry_.dies_per_chip()},
                    {"die", in_channel % geometry_.dies_per_chip()},
                    {"busy_ps", busy},
                    {"utilisation", ratio(busy, end_ps)},
                    {"array_busy_ps", array},
                    {"array_utilisation", ratio(array, end_ps)},
                    {"state_ps", states},
                    {"queue_depth",
                     {{"mean", record.depth.mean(end_ps)}, {"max", record.depth.max}}}});
  }
  nlohmann::json channels = nlohmann::json::array();
  for (uint32_t index = 0; index < channels_.size(); ++index) {
    const ChannelRecord& record = channels_[index];
    uint64_t busy = 0;
    nlohmann::json states = nlohmann::json::object();
    for (size_t state = 0; state < std::size(record.state_ps); ++state) {
      uint64_t ps = record.state_ps[state];
      if (state == static_cast<size_t>(record.state) && end_ps > record.since_ps) {
        ps += end_ps - record.since_ps;
      }
      states[kBusStateNames[state]] = ps;
      if (state != static_cast<size_t>(BusState::kIdle)) busy += ps;
    }
    channels.push_back({{"channel", index},
                        {"busy_ps", busy},
                        {"utilisation", ratio(busy, end_ps)},
                        {"bytes", record.bytes},
                        {"state_ps", states}});
  }
  nlohmann::json operations = nlohmann::json::object();
  for (size_t kind = 0; kind < std::size(ops_); ++kind) {
    operations[kOpNames[kind]] = {{"count", ops_[kind].latency.count},
                                  {"multi_plane", ops_[kind].multi_plane},
                                  {"pages", ops_[kind].pages},
                                  {"latency", ops_[kind].latency.to_json()}};
  }
  nlohmann::json by_page_type = nlohmann::json::object();
  for (uint32_t type = 0; type < geometry_.bits_per_cell(); ++type) {
    by_page_type[nand::Geometry::page_type_name(type)] = reads_by_page_type_[type].to_json();
  }
  nlohmann::json statuses = nlohmann::json::object();
  for (size_t status = 0; status < std::size(statuses_); ++status) {
    statuses[kStatusNames[status]] = statuses_[status];
  }
  nand["dies"] = std::move(dies);
  nand["channels"] = std::move(channels);
  nand["operations"] = std::move(operations);
  nand["reads_by_page_type"] = std::move(by_page_type);
  nand["statuses"] = std::move(statuses);

  nfc["descriptors"] = descriptors_;
  nfc["outstanding"] = {{"mean", outstanding_.mean(end_ps)}, {"max", outstanding_.max}};
  nfc["dma"] = {{"transfers", dma_transfers_},
                {"bytes", dma_bytes_},
                {"busy_ps", dma_busy_ps_},
                {"utilisation", ratio(dma_busy_ps_, end_ps)}};
  if (sample_ps_ != 0) {
    // Complete intervals only: a partial one would understate its mean.
    std::vector<double> samples = samples_;
    uint64_t start_ps = sample_start_ps_;
    long double area = sample_area_;
    if (end_ps > outstanding_.since_ps) {
      extend_samples(outstanding_.value, outstanding_.since_ps, end_ps, sample_ps_, start_ps, area,
                     samples);
    }
    nfc["queue_depth_series"] = {{"interval_ps", sample_ps_}, {"mean_outstanding", samples}};
  }
}

}  // namespace ssdvp
