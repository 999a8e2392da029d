#include "tlm/accel/accel.h"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "interface/accel_regs.h"
#include "interface/rqrmi_model.h"
#include "tlm/system/log.h"

namespace ssdvp {
namespace {

using Access = RegisterBank::Access;

// A job that runs longer than this is an RTL bug, not a workload: a key takes a few dozen
// cycles plus a handful of memory reads.
constexpr uint64_t kJobCycleLimit = uint64_t{1} << 32;

struct RegisterSpec {
  uint32_t offset;
  const char* name;
  Access access;
};

constexpr RegisterSpec kRegisters[] = {
    {ACCEL_ID, "id", Access::kReadOnly},
    {ACCEL_CTRL, "ctrl", Access::kReadWrite},
    {ACCEL_STATUS, "status", Access::kReadOnly},
    {ACCEL_START, "start", Access::kWriteOnly},
    {ACCEL_IRQ, "irq", Access::kReadWrite},
    {ACCEL_ERRORS, "errors", Access::kReadWrite},
    {ACCEL_RANGE_COUNT, "range_count", Access::kReadWrite},
    {ACCEL_STAGE_COUNT, "stage_count", Access::kReadWrite},
    {ACCEL_STAGE_WIDTH(0), "stage_width0", Access::kReadWrite},
    {ACCEL_STAGE_WIDTH(1), "stage_width1", Access::kReadWrite},
    {ACCEL_STAGE_WIDTH(2), "stage_width2", Access::kReadWrite},
    {ACCEL_STAGE_WIDTH(3), "stage_width3", Access::kReadWrite},
    {ACCEL_WMEM_ADDR, "wmem_addr", Access::kReadWrite},
    {ACCEL_WMEM_DATA, "wmem_data", Access::kWriteOnly},
    {ACCEL_RANGE_BASE, "range_base", Access::kReadWrite},
    {ACCEL_KEY, "key", Access::kWriteOnly},
    {ACCEL_RESULT, "result", Access::kReadOnly},
    {ACCEL_RESULT_ERROR, "result_error", Access::kReadOnly},
    {ACCEL_KEY_LEVEL, "key_level", Access::kReadOnly},
    {ACCEL_RESULT_LEVEL, "result_level", Access::kReadOnly},
    {ACCEL_BUSY_CYCLES, "busy_cycles", Access::kReadOnly},
    {ACCEL_SUBMODEL_CAPACITY, "submodel_capacity", Access::kReadOnly},
    {ACCEL_KEY_DEPTH, "key_depth", Access::kReadOnly},
    {ACCEL_RESULT_DEPTH, "result_depth", Access::kReadOnly},
};

AccelRtl::Sizes rtl_sizes(const AccelConfig& config) {
  const auto check = [](const char* key, uint32_t value, uint32_t max) {
    if (value < 1 || value > max) {
      throw std::runtime_error(
          fmt::format("{} = {} is out of range: allowed 1 .. {}", key, value, max));
    }
  };
  check("accel.submodels", config.submodel_capacity, ACCEL_MAX_SUBMODELS);
  check("accel.key_fifo_depth", config.key_fifo_depth, ACCEL_MAX_FIFO_DEPTH);
  check("accel.result_fifo_depth", config.result_fifo_depth, ACCEL_MAX_FIFO_DEPTH);
  return {config.submodel_capacity, config.key_fifo_depth, config.result_fifo_depth};
}

const char* state_name(const AccelRtl::Activity& activity) {
  if (!activity.busy) return "idle";
  return activity.stalled ? "stalled" : "busy";
}

}  // namespace

Accel::Accel(sc_core::sc_module_name name, const AccelConfig& config, const AreaModel& area_model,
             WaveWriter* waves)
    : sc_core::sc_module(name),
      socket("socket"),
      dma_socket("dma_socket"),
      config_(config),
      clock_(config.clock_hz, "accel.clock_hz"),
      area_(estimate_accel_area(SSDVP_RQRMI_CELLS, area_model, accel_memory_bits(config))),
      rtl_(std::make_unique<AccelRtl>(rtl_sizes(config), static_cast<AccelRtl::MemoryPort&>(*this))),
      registers_(this->name()),
      waves_(waves) {
  for (const RegisterSpec& spec : kRegisters) {
    const uint32_t offset = spec.offset;
    RegisterBank::ReadCallback on_read;
    RegisterBank::WriteCallback on_write;
    if (spec.access != Access::kWriteOnly) {
      on_read = [this, offset](sc_core::sc_time& delay) {
        return access(offset, std::nullopt, delay);
      };
    }
    if (spec.access != Access::kReadOnly) {
      on_write = [this, offset](uint32_t value, sc_core::sc_time& delay) {
        access(offset, value, delay);
      };
    }
    registers_.add(offset, spec.name, 0, spec.access, std::move(on_read), std::move(on_write));
  }
  socket.register_b_transport(this, &Accel::b_transport);
  socket.register_transport_dbg(this, &Accel::transport_dbg);

  if (waves_ != nullptr) {
    state_signal_ = waves_->add_state_signal(this->name(), "state", "idle");
    key_level_signal_ = waves_->add_signal(this->name(), "key_level", 8);
    result_level_signal_ = waves_->add_signal(this->name(), "result_level", 8);
  }
  rtl_->on_cycle([this](uint64_t cycle, const AccelRtl::Activity& activity) {
    record_cycle(cycle, activity);
  });
  if (!config_.rtl_vcd.empty()) {
    rtl_->trace(config_.rtl_vcd, [this](uint64_t cycle) { return cycle_ps(cycle); },
                config_.rtl_vcd_start_ps, config_.rtl_vcd_end_ps);
  }

  SC_HAS_PROCESS(Accel);
  SC_METHOD(interrupt_method);
  sensitive << irq_event_;
  dont_initialize();
}

Accel::~Accel() = default;

uint64_t Accel::cycle_ps(uint64_t cycle) const {
  return anchor_ps_ + clock_.cycles_to_ps(cycle - anchor_cycle_);
}

void Accel::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Accel::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Reads only, without a clock edge: a debugger must not pop results or start jobs.
  const uint64_t offset = trans.get_address();
  if (trans.get_command() != tlm::TLM_READ_COMMAND || trans.get_data_length() != 4 ||
      offset % 4 != 0 || offset > ACCEL_RESULT_DEPTH) {
    return 0;
  }
  const uint32_t value = rtl_->peek(static_cast<uint32_t>(offset));
  std::memcpy(trans.get_data_ptr(), &value, sizeof(value));
  return 4;
}

uint32_t Accel::access(uint32_t offset, std::optional<uint32_t> written, sc_core::sc_time& delay) {
  const uint64_t at_ps = to_ps(sc_core::sc_time_stamp() + delay);
  if (at_ps > cycle_ps(rtl_->cycles())) {
    // Idle until now: the RTL's state does not change without accesses, so no cycle is stepped.
    anchor_ps_ = at_ps;
    anchor_cycle_ = rtl_->cycles();
  }
  uint32_t value = 0;
  if (written) {
    rtl_->write(offset, *written);
    if (offset == ACCEL_START) ++jobs_;
    if (offset == ACCEL_KEY) ++keys_;
  } else {
    value = rtl_->read(offset);
  }
  if (rtl_->running()) rtl_->run(kJobCycleLimit);
  delay += from_ps(cycle_ps(rtl_->cycles()) - at_ps);
  return value;
}

void Accel::power_cut() {
  const uint64_t now = to_ps(sc_core::sc_time_stamp());
  // The reset's cycles take no time of the run: the accelerator is idle from now on.
  anchor_ps_ = now;
  anchor_cycle_ = rtl_->cycles();
  rtl_->reset();
  anchor_cycle_ = rtl_->cycles();
  irq_changes_.clear();
  irq_event_.cancel();
  irq_ = false;
  if (line_) line_(false);
}

bool Accel::read_word(uint32_t address, uint32_t& data, uint64_t& cycles) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  dma_socket->b_transport(trans, latency);
  cycles = std::max<uint64_t>(1, clock_.ps_to_cycles_ceil(to_ps(latency)));
  if (!trans.is_response_ok()) {
    log::warn(*this, "range-array read at {:#010x} failed: {}", address,
              trans.get_response_string());
    return false;
  }
  return true;
}

void Accel::record_cycle(uint64_t cycle, const AccelRtl::Activity& activity) {
  // `cycle` cycles have elapsed: the outputs hold from the start of the next one.
  const uint64_t time = cycle_ps(cycle);
  if (busy_) ++busy_cycles_;  // as ACCEL_BUSY_CYCLES counts, without wrapping
  busy_ = activity.busy;
  if (activity.irq != irq_) {
    irq_ = activity.irq;
    irq_changes_.emplace_back(time, irq_);
    irq_event_.notify(from_ps(time) - sc_core::sc_time_stamp());
  }
  if (waves_ == nullptr) return;
  if (activity.busy != shown_.busy || activity.stalled != shown_.stalled) {
    waves_->set_state(*state_signal_, state_name(activity), time);
  }
  if (activity.key_level != shown_.key_level) {
    waves_->set(*key_level_signal_, activity.key_level, time);
  }
  if (activity.result_level != shown_.result_level) {
    waves_->set(*result_level_signal_, activity.result_level, time);
  }
  shown_ = activity;
}

void Accel::interrupt_method() {
  const uint64_t now = to_ps(sc_core::sc_time_stamp());
  while (!irq_changes_.empty() && irq_changes_.front().first <= now) {
    if (line_) line_(irq_changes_.front().second);
    irq_changes_.pop_front();
  }
  if (!irq_changes_.empty()) irq_event_.notify(from_ps(irq_changes_.front().first - now));
}

void Accel::report(nlohmann::json& out) const {
  out = {{"clock_hz", config_.clock_hz},
         {"submodel_capacity", config_.submodel_capacity},
         {"weight_memory_bytes", uint64_t{config_.submodel_capacity} * RQRMI_SUBMODEL_BYTES},
         {"key_fifo_depth", config_.key_fifo_depth},
         {"result_fifo_depth", config_.result_fifo_depth},
         {"jobs", jobs_},
         {"keys", keys_},
         {"cycles", rtl_->cycles()},
         {"busy_cycles", busy_cycles_},
         {"memory_reads", rtl_->memory_reads()},
         {"area", area_.to_json()}};
}

}  // namespace ssdvp
