#include "tlm/accel/accel_rtl.h"

#include <stdexcept>

#include <fmt/format.h>

// Verilator's headers are not held to the project's warning flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vrqrmi_accel.h"
#pragma GCC diagnostic pop
#include "interface/accel_regs.h"

namespace ssdvp {
namespace {

void check_size(const char* what, uint32_t value, uint32_t max) {
  if (value < 1 || value > max) {
    throw std::invalid_argument(
        fmt::format("accelerator {} = {} is out of range: allowed 1 .. {}", what, value, max));
  }
}

// Signal levels the trace records per cycle.
constexpr int kTraceDepth = 99;

}  // namespace

AccelRtl::AccelRtl(const Sizes& sizes, MemoryPort& memory)
    : context_(std::make_unique<VerilatedContext>()), memory_(memory) {
  check_size("submodel capacity", sizes.submodel_capacity, ACCEL_MAX_SUBMODELS);
  check_size("key FIFO depth", sizes.key_depth, ACCEL_MAX_FIFO_DEPTH);
  check_size("result FIFO depth", sizes.result_depth, ACCEL_MAX_FIFO_DEPTH);
  context_->traceEverOn(true);
  top_ = std::make_unique<Vrqrmi_accel>(context_.get(), "rqrmi_accel");
  top_->submodel_capacity = sizes.submodel_capacity;
  top_->key_depth = sizes.key_depth;
  top_->result_depth = sizes.result_depth;
  top_->mem_resp = 0;
  reset();
  cycles_ = 0;
}

void AccelRtl::reset() {
  response_pending_ = false;
  top_->bus_read = 0;
  top_->bus_write = 0;
  top_->rst = 1;
  step();
  step();
  top_->rst = 0;
}

AccelRtl::~AccelRtl() {
  if (trace_) trace_->close();
  top_->final();
}

void AccelRtl::step() {
  const bool respond = response_pending_ && cycles_ + 1 == response_cycle_;
  top_->mem_resp = respond;
  top_->mem_rdata = respond ? response_data_ : 0;
  top_->mem_error = respond && response_error_;
  if (respond) response_pending_ = false;

  const bool traced = trace_ && in_trace_window();
  top_->clk = 0;
  top_->eval();
  bus_rdata_ = top_->bus_rdata;  // combinational: valid before the edge
  if (traced) trace_->dump(trace_time_(cycles_));
  top_->clk = 1;
  top_->eval();
  if (traced) trace_->dump((trace_time_(cycles_) + trace_time_(cycles_ + 1)) / 2);
  ++cycles_;

  // The search holds one read in flight: a request appears only when none is pending.
  if (top_->mem_req) {
    uint64_t latency = 1;
    uint32_t data = 0;
    response_error_ = !memory_.read_word(top_->mem_addr, data, latency);
    response_data_ = data;
    response_cycle_ = cycles_ + (latency < 1 ? 1 : latency);
    response_pending_ = true;
    ++memory_reads_;
  }
  if (on_cycle_) on_cycle_(cycles_, activity());
}

uint32_t AccelRtl::read(uint32_t offset) {
  top_->bus_addr = offset;
  top_->bus_read = 1;
  step();
  top_->bus_read = 0;
  return bus_rdata_;
}

void AccelRtl::write(uint32_t offset, uint32_t value) {
  top_->bus_addr = offset;
  top_->bus_wdata = value;
  top_->bus_write = 1;
  step();
  top_->bus_write = 0;
}

uint32_t AccelRtl::peek(uint32_t offset) {
  top_->bus_addr = offset;
  top_->eval();
  return top_->bus_rdata;
}

bool AccelRtl::running() const { return top_->busy && !top_->stalled; }

uint64_t AccelRtl::run(uint64_t cycle_limit) {
  const uint64_t start = cycles_;
  while (running()) {
    if (cycles_ - start >= cycle_limit) {
      throw std::runtime_error(fmt::format(
          "the accelerator's job did not end within {} cycles (key FIFO {} keys, result FIFO {})",
          cycle_limit, top_->key_level, top_->result_level));
    }
    step();
  }
  return cycles_ - start;
}

AccelRtl::Activity AccelRtl::activity() const {
  Activity activity;
  activity.busy = top_->busy;
  activity.stalled = top_->stalled;
  activity.irq = top_->irq;
  activity.key_level = top_->key_level;
  activity.result_level = top_->result_level;
  return activity;
}

void AccelRtl::on_cycle(std::function<void(uint64_t, const Activity&)> callback) {
  on_cycle_ = std::move(callback);
}

bool AccelRtl::in_trace_window() const {
  const uint64_t start = trace_time_(cycles_);
  return start >= trace_start_ps_ && (trace_end_ps_ == 0 || start < trace_end_ps_);
}

void AccelRtl::trace(const std::string& path, std::function<uint64_t(uint64_t)> time_ps,
                     uint64_t start_ps, uint64_t end_ps) {
  trace_time_ = std::move(time_ps);
  trace_start_ps_ = start_ps;
  trace_end_ps_ = end_ps;
  trace_ = std::make_unique<VerilatedVcdC>();
  top_->trace(trace_.get(), kTraceDepth);
  trace_->set_time_unit("1ps");
  trace_->set_time_resolution("1ps");
  trace_->open(path.c_str());
  if (!trace_->isOpen()) {
    trace_.reset();
    throw std::runtime_error(fmt::format("cannot write the accelerator's RTL dump {}", path));
  }
}

}  // namespace ssdvp
