#include "tlm/nfc/nfc.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "interface/data_tag.h"
#include "interface/nfc_regs.h"
#include "tlm/system/bits.h"
#include "tlm/system/log.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {

static_assert(static_cast<int>(nand::Status::kOk) == NFC_STATUS_OK);
static_assert(static_cast<int>(nand::Status::kErased) == NFC_STATUS_ERASED);
static_assert(static_cast<int>(nand::Status::kEccFail) == NFC_STATUS_ECC_FAIL);
static_assert(static_cast<int>(nand::Status::kProgramFail) == NFC_STATUS_PROGRAM_FAIL);
static_assert(static_cast<int>(nand::Status::kBadBlock) == NFC_STATUS_BAD_BLOCK);

namespace {

using Access = RegisterBank::Access;

constexpr uint32_t kNoOp = UINT32_MAX;
constexpr uint64_t kPsPerMicrosecond = 1'000'000;

const char* op_name(uint8_t op) {
  switch (op) {
    case NFC_OP_READ: return "read";
    case NFC_OP_PROGRAM: return "program";
    case NFC_OP_ERASE: return "erase";
    default: return "unknown operation";
  }
}

}  // namespace

// One descriptor from its fetch to its completion.
struct Nfc::Op {
  uint32_t desc_address = 0;
  nfc_desc_t desc{};
  std::vector<nfc_io_t> io;
  Stage stage = Stage::kQueued;
  uint32_t die = 0;
  uint32_t channel = 0;
  uint32_t page_type = 0;
  uint64_t submit_ps = 0;     // the doorbell that made it visible
  uint64_t bus_start_ps = 0;  // start of its current bus phase
  uint64_t latency_ps = 0;
  uint16_t status = NFC_STATUS_OK;
  uint16_t plane_mask = 0;
  // Bytes moving between memory and the page registers: per io entry, its data (a tag or
  // metadata bytes) at data_offset[i] and its spare bytes at oob_offset[i].
  std::vector<uint8_t> buffer;
  std::vector<uint32_t> data_offset;
  std::vector<uint32_t> oob_offset;
  std::vector<nand::PageImage> images;  // programs
  std::vector<uint64_t> bus_bytes;      // reads: bytes each plane moves out
  std::vector<nand::Status> plane_status;  // reads: each plane's own status
  // Reads: a metadata page the store holds in full is delivered from the store's bytes, which
  // this keeps alive, instead of through buffer: translation pages are 16 KiB copies.
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> meta_pages;
};

struct Nfc::Die {
  std::deque<uint32_t> queue;  // operations waiting for the die, in submission order
  uint32_t active = kNoOp;
};

struct Nfc::Channel {
  // Dies asking for the bus, each kind first come first served; commands go first.
  std::deque<uint32_t> commands;
  std::deque<uint32_t> transfers;
  bool busy = false;
  uint32_t owner = 0;
  uint64_t ecc_free_ps = 0;
};

Nfc::Nfc(sc_core::sc_module_name name, const NandConfig& nand, const NfcConfig& nfc,
         uint64_t seed, WaveWriter* waves)
    : sc_core::sc_module(name),
      socket("socket"),
      dma_socket("dma_socket"),
      nand_(nand, seed),
      config_(nfc),
      monitor_(nand_.geometry(), nfc.queue_sample_ps, waves, this->name()),
      registers_(this->name()),
      dies_(nand_.geometry().die_count()),
      channels_(nand_.geometry().channels()) {
  if (config_.dma_bandwidth_mbs == 0) {
    throw std::runtime_error("nfc.dma_bandwidth = 0: must be at least 1 MB/s");
  }
  declare_registers();
  socket.register_b_transport(this, &Nfc::b_transport);
  socket.register_transport_dbg(this, &Nfc::transport_dbg);
  dma_socket.register_invalidate_direct_mem_ptr(this, &Nfc::invalidate_direct_mem_ptr);
  SC_METHOD(run_actions);
  sensitive << wake_;
  dont_initialize();
}

Nfc::~Nfc() = default;

// ---- Registers ---------------------------------------------------------------------------------

void Nfc::declare_registers() {
  const nand_geometry_t& g = nand_.geometry().raw();
  registers_.add(NFC_ID, "id", NFC_ID_VALUE, Access::kReadOnly);
  registers_.add(NFC_CHANNELS, "channels", g.channels, Access::kReadOnly);
  registers_.add(NFC_WAYS, "ways", g.ways, Access::kReadOnly);
  registers_.add(NFC_DIES, "dies", g.dies, Access::kReadOnly);
  registers_.add(NFC_PLANES, "planes", g.planes, Access::kReadOnly);
  registers_.add(NFC_BLOCKS, "blocks", g.blocks, Access::kReadOnly);
  registers_.add(NFC_PAGES, "pages", g.pages, Access::kReadOnly);
  registers_.add(NFC_PAGE_BYTES, "page_bytes", g.page_bytes, Access::kReadOnly);
  registers_.add(NFC_OOB_BYTES, "oob_bytes", g.oob_bytes, Access::kReadOnly);
  registers_.add(NFC_BITS_PER_CELL, "bits_per_cell", g.bits_per_cell, Access::kReadOnly);

  const auto ring = [this](uint32_t offset, const char* name) {
    registers_.add(offset, name, 0, Access::kReadWrite, {},
                   [this, offset, name](uint32_t value, sc_core::sc_time&) {
                     write_ring_register(offset, name, value);
                   });
  };
  ring(NFC_SQ_BASE, "sq_base");
  ring(NFC_SQ_ENTRIES, "sq_entries");
  ring(NFC_CQ_BASE, "cq_base");
  ring(NFC_CQ_ENTRIES, "cq_entries");
  registers_.add(NFC_SQ_TAIL, "sq_tail", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time& delay) {
                   if (!enabled_) {
                     fail(fmt::format("SQ_TAIL written ({}) while the NFC is disabled", value));
                   } else if (value >= sq_entries_) {
                     fail(fmt::format("SQ_TAIL = {} is outside the {}-entry descriptor ring",
                                      value, sq_entries_));
                   } else {
                     schedule(to_ps(sc_core::sc_time_stamp() + delay), ActionKind::kFetch, value);
                   }
                 });
  registers_.add(NFC_SQ_HEAD, "sq_head", 0, Access::kReadOnly,
                 [this](sc_core::sc_time&) { return sq_head_; });
  registers_.add(NFC_CQ_HEAD, "cq_head", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time& delay) {
                   if (!enabled_) {
                     fail(fmt::format("CQ_HEAD written ({}) while the NFC is disabled", value));
                   } else if (value >= cq_entries_) {
                     fail(fmt::format("CQ_HEAD = {} is outside the {}-entry completion ring",
                                      value, cq_entries_));
                   } else {
                     schedule(to_ps(sc_core::sc_time_stamp() + delay), ActionKind::kCqHead, value);
                   }
                 });
  registers_.add(NFC_CQ_TAIL, "cq_tail", 0, Access::kReadOnly,
                 [this](sc_core::sc_time&) { return cq_tail_; });
  registers_.add(NFC_IRQ_STATUS, "irq_status", 0, Access::kReadWrite,
                 [this](sc_core::sc_time&) { return irq_status_; },
                 [this](uint32_t value, sc_core::sc_time&) {
                   irq_status_ &= ~value;  // write 1 to clear
                   registers_.set(NFC_IRQ_STATUS, irq_status_);
                   update_interrupt();
                 });
  registers_.add(NFC_IRQ_ENABLE, "irq_enable", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time&) {
                   irq_enable_ = value & NFC_IRQ_COMPLETION;
                   registers_.set(NFC_IRQ_ENABLE, irq_enable_);
                   update_interrupt();
                 });
  registers_.add(NFC_ENABLE, "enable", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time&) { write_enable(value); });
}

void Nfc::write_ring_register(uint32_t offset, const char* name, uint32_t value) {
  if (enabled_) {
    fail(fmt::format("{} written ({:#x}) while the rings are enabled: bases and sizes are fixed "
                     "until ENABLE is cleared",
                     name, value));
    return;
  }
  switch (offset) {
    case NFC_SQ_BASE: sq_base_ = value; break;
    case NFC_SQ_ENTRIES: sq_entries_ = value; break;
    case NFC_CQ_BASE: cq_base_ = value; break;
    default: cq_entries_ = value; break;
  }
}

void Nfc::write_enable(uint32_t value) {
  const bool enable = (value & 1u) != 0;
  registers_.set(NFC_ENABLE, enable ? 1u : 0u);
  if (enable == enabled_) return;
  if (!enable) {
    // Descriptors a doorbell handed over are outstanding work too, fetched or not yet.
    const uint32_t unfetched = (registers_.get(NFC_SQ_TAIL) - sq_fetch_) & (sq_entries_ - 1);
    if (outstanding_ != 0 || unfetched != 0) {
      fail(fmt::format("ENABLE cleared with {} operation(s) outstanding and {} descriptor(s) "
                       "submitted but not yet fetched",
                       outstanding_, unfetched));
      return;
    }
    enabled_ = false;
    return;
  }
  const auto check_ring = [this](const char* what, uint32_t base, uint32_t entries,
                                 uint32_t entry_bytes) {
    if (entries < 2 || !is_power_of_two(entries)) {
      fail(fmt::format("ENABLE set with a {} ring of {} entries: allowed a power of two, at "
                       "least 2",
                       what, entries));
      return false;
    }
    if (base % 4 != 0 || uint64_t{base} + uint64_t{entries} * entry_bytes > (uint64_t{1} << 32)) {
      fail(fmt::format("ENABLE set with the {} ring at {:#010x}: it must be 4-byte aligned and "
                       "end within the 32-bit address space",
                       what, base));
      return false;
    }
    return true;
  };
  if (!check_ring("descriptor", sq_base_, sq_entries_, NFC_DESC_BYTES) ||
      !check_ring("completion", cq_base_, cq_entries_, NFC_COMPLETION_BYTES)) {
    return;
  }
  sq_head_ = sq_fetch_ = 0;
  cq_head_ = cq_tail_ = cq_reserved_ = 0;
  registers_.set(NFC_SQ_TAIL, 0);
  registers_.set(NFC_CQ_HEAD, 0);
  enabled_ = true;
}

void Nfc::reset() {
  nand_.reset();
  reset_controller();
  monitor_.reset(action_ps_);
}

void Nfc::power_cut() {
  const nand::Geometry& geometry = nand_.geometry();
  for (uint32_t die_index = 0; die_index < dies_.size(); ++die_index) {
    const uint32_t op_index = dies_[die_index].active;
    if (op_index == kNoOp) continue;
    const Op& op = ops_[op_index];
    if (op.stage != Stage::kArray || op.desc.op == NFC_OP_READ) continue;
    for (uint32_t plane = 0; plane < op.desc.plane_count; ++plane) {
      const uint32_t ppn = geometry.ppn_on_plane(op.desc.ppn, plane);
      if (op.desc.op == NFC_OP_PROGRAM) {
        nand_.interrupt_program(ppn);
      } else {
        nand_.interrupt_erase(ppn);
      }
    }
  }
  reset_controller();
  // The monitor keeps the run's statistics; its dies, buses and queue fall idle now.
  const uint64_t now = action_ps_;
  for (uint32_t die_index = 0; die_index < dies_.size(); ++die_index) {
    set_die_state(die_index, DieState::kIdle);
    monitor_.die_queue_depth(die_index, 0, now);
  }
  for (uint32_t channel = 0; channel < channels_.size(); ++channel) {
    monitor_.bus_state(channel, BusState::kIdle, 0, now);
  }
  set_outstanding(0);
}

void Nfc::reset_controller() {
  registers_.reset();
  actions_ = {};
  action_sequence_ = 0;
  wake_ps_ = UINT64_MAX;
  wake_.cancel();
  ops_.clear();
  free_ops_.clear();
  std::fill(dies_.begin(), dies_.end(), Die{});
  std::fill(channels_.begin(), channels_.end(), Channel{});
  held_completions_.clear();
  enabled_ = false;
  sq_base_ = sq_entries_ = sq_head_ = sq_fetch_ = 0;
  cq_base_ = cq_entries_ = cq_head_ = cq_tail_ = cq_reserved_ = 0;
  irq_status_ = irq_enable_ = 0;
  update_interrupt();
  outstanding_ = 0;
  dma_free_ps_ = 0;
  direct_.clear();
  stopped_ = false;
  action_ps_ = kernel_ps();
  deferred_failure_.clear();
}

void Nfc::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Nfc::transport_dbg(tlm::tlm_generic_payload& trans) {
  return registers_.transport_dbg(trans);
}

// ---- Action queue ------------------------------------------------------------------------------

uint64_t Nfc::kernel_ps() { return to_ps(sc_core::sc_time_stamp()); }

void Nfc::schedule(uint64_t time_ps, ActionKind kind, uint32_t arg) {
  if (stopped_) return;
  actions_.push(Action{time_ps, action_sequence_++, kind, arg});
  if (time_ps < wake_ps_) {
    wake_ps_ = time_ps;
    wake_.notify(from_ps(time_ps - kernel_ps()));
  }
}

// An action due later than now runs now, with its own time, when nothing can tell the
// difference: no other process runs before it (nothing is due at or before its time, so every
// other model sees the NFC's state only after it), the kernel run in progress reaches past it,
// and it raises no interrupt. Its effects reach other models only through memory (DMA, whose
// latency does not depend on time; the router's waveform count takes the annotated time), the
// monitor and the waveforms (both take its time), and its registers and counters, which nobody
// reads before the kernel passes its time. A wake-up then covers every internal action up to
// the next event of another model, in the same (time, sequence) order as one wake-up each.
void Nfc::run_actions() {
  if (!deferred_failure_.empty()) {
    report_failure(std::exchange(deferred_failure_, std::string()));
    return;
  }
  const uint64_t now = kernel_ps();
  // Actions scheduled while this runs are due no earlier than now: the loop takes them, and
  // notifying for them would only wake the method once more.
  wake_ps_ = 0;
  std::optional<uint64_t> run_ahead_before;
  while (!actions_.empty() && !stopped_) {
    const Action& next = actions_.top();
    if (next.time_ps > now) {
      if (next.kind == ActionKind::kVisible) break;
      // Found once the actions due now, which may raise the interrupt, have run: internal
      // actions notify no event, so the next activity elsewhere stays put while they run.
      if (!run_ahead_before) run_ahead_before = next_activity_ps(now);
      if (next.time_ps >= *run_ahead_before) break;
    }
    const Action action = next;
    actions_.pop();
    action_ps_ = action.time_ps;
    dispatch(action);
  }
  wake_ps_ = UINT64_MAX;
  if (!actions_.empty() && !stopped_) {
    wake_ps_ = actions_.top().time_ps;
    wake_.notify(from_ps(wake_ps_ - now));
  }
}

uint64_t Nfc::next_activity_ps(uint64_t now) const {
  // The kernel's queries drop cancelled notifications from its event heap, which may reorder
  // processes due at the same time: they are made only when running ahead is allowed.
  if (run_ahead_until_ps_ <= now || sc_core::sc_pending_activity_at_current_time() ||
      !sc_core::sc_pending_activity_at_future_time()) {
    return now;
  }
  const uint64_t next = now + to_ps(sc_core::sc_time_to_pending_activity());
  return next <= run_ahead_until_ps_ ? next : now;
}

void Nfc::dispatch(const Action& action) {
  switch (action.kind) {
    case ActionKind::kFetch: fetch(action.arg); break;
    case ActionKind::kFetched: fetched(action.arg); break;
    case ActionKind::kProgramDataIn: program_data_in(action.arg); break;
    case ActionKind::kBusEnd: bus_end(action.arg); break;
    case ActionKind::kArrayEnd: array_end(action.arg); break;
    case ActionKind::kDelivered: deliver(action.arg); break;
    case ActionKind::kVisible: completion_visible(action.arg); break;
    case ActionKind::kCqHead: cq_head_written(action.arg); break;
  }
}

// ---- Operation flow ----------------------------------------------------------------------------

void Nfc::fetch(uint32_t sq_tail) {
  const nand::Geometry& geometry = nand_.geometry();
  while (sq_fetch_ != sq_tail && !stopped_) {
    const uint32_t index = allocate_op();
    Op& op = ops_[index];
    op.desc_address = sq_base_ + sq_fetch_ * NFC_DESC_BYTES;
    op.submit_ps = now_ps();
    sq_fetch_ = (sq_fetch_ + 1) % sq_entries_;
    uint64_t time = dma_start();
    time += dma(tlm::TLM_READ_COMMAND, op.desc_address, &op.desc, NFC_DESC_BYTES, NFC_DESC_BYTES,
                "descriptor ring", nullptr);
    if (stopped_) return;
    const nfc_desc_t& desc = op.desc;
    if (desc.op != NFC_OP_READ && desc.op != NFC_OP_PROGRAM && desc.op != NFC_OP_ERASE) {
      fail(fmt::format("{}: op {} is not an operation (allowed {} read, {} program, {} erase)",
                       describe(op), desc.op, NFC_OP_READ, NFC_OP_PROGRAM, NFC_OP_ERASE));
      return;
    }
    // Queries, not throwing checks: an exception unwinding a SystemC process would confuse
    // AddressSanitizer's view of the coroutine stacks.
    if (const auto violation = nand::geometry_violation(geometry, desc.ppn, desc.plane_count)) {
      fail(fmt::format("{}: {}", describe(op), violation->message()));
      return;
    }
    const uint32_t bits = geometry.bits_per_cell();
    const uint32_t io_count = desc.op == NFC_OP_READ      ? desc.plane_count
                              : desc.op == NFC_OP_PROGRAM ? desc.plane_count * bits
                                                          : 0;
    op.io.resize(io_count);
    if (io_count != 0) {
      if (desc.io_list == 0) {
        fail(fmt::format("{}: io_list is 0; a {} needs {} io entries", describe(op),
                         op_name(desc.op), io_count));
        return;
      }
      time += dma(tlm::TLM_READ_COMMAND, desc.io_list, op.io.data(), io_count * NFC_IO_BYTES,
                  io_count * NFC_IO_BYTES, "io list", &op);
      if (stopped_) return;
    }
    // Where each entry's bytes sit in the operation's buffer.
    op.data_offset.resize(io_count);
    op.oob_offset.resize(io_count);
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < io_count; ++i) {
      const nfc_io_t& io = op.io[i];
      if (io.meta_bytes > geometry.page_bytes()) {
        fail(fmt::format("{}: io entry {} moves {} metadata bytes, more than the {}-byte page",
                         describe(op), i, io.meta_bytes, geometry.page_bytes()));
        return;
      }
      if (desc.op == NFC_OP_PROGRAM && io.buffer == 0) {
        const nand::Violation violation{
            nand::Rule::kFullSequence, geometry.describe(desc.ppn),
            fmt::format("io entry {} (plane {}, {} page) has no data buffer", i,
                        geometry.address(desc.ppn).plane + i / bits,
                        nand::Geometry::page_type_name(i % bits))};
        fail(fmt::format("{}: {}", describe(op), violation.message()));
        return;
      }
      op.data_offset[i] = bytes;
      if (io.buffer != 0) bytes += io.meta_bytes != 0 ? io.meta_bytes : DATA_TAG_BYTES;
      op.oob_offset[i] = bytes;
      if (io.oob != 0) bytes += geometry.oob_bytes();
    }
    // Every byte an operation uses is written (by DMA or from the array) before it is read, so
    // a pooled record only grows: shrinking would zero-fill a metadata page again at its next use.
    if (op.buffer.size() < bytes) op.buffer.resize(bytes);
    dma_free_ps_ = time;
    monitor_.descriptor_fetched();
    set_outstanding(outstanding_ + 1);
    schedule(time, ActionKind::kFetched, index);
  }
}

void Nfc::fetched(uint32_t op_index) {
  sq_head_ = (sq_head_ + 1) % sq_entries_;
  Op& op = ops_[op_index];
  const nand::Geometry& geometry = nand_.geometry();
  const nand_address_t address = geometry.address(op.desc.ppn);
  op.die = geometry.die_index(address);
  op.channel = address.channel;
  op.page_type = geometry.page_type(address.page);
  op.stage = Stage::kQueued;
  Die& die = dies_[op.die];
  die.queue.push_back(op_index);
  monitor_.die_queue_depth(op.die, static_cast<uint32_t>(die.queue.size()) + (die.active != kNoOp),
                           now_ps());
  try_start(op.die);
}

void Nfc::try_start(uint32_t die_index) {
  Die& die = dies_[die_index];
  if (die.active != kNoOp || die.queue.empty()) return;
  const uint32_t op_index = die.queue.front();
  die.queue.pop_front();
  die.active = op_index;
  Op& op = ops_[op_index];
  if (op.desc.op != NFC_OP_PROGRAM) {
    op.stage = Stage::kCommand;
    request_bus(die_index);
    return;
  }
  // The write data comes from memory before the die can take it.
  op.stage = Stage::kProgramData;
  set_die_state(die_index, DieState::kWait);
  const uint32_t page_bytes = nand_.geometry().page_bytes();
  const uint32_t oob_bytes = nand_.geometry().oob_bytes();
  uint64_t time = dma_start();
  op.images.resize(op.io.size());
  for (size_t i = 0; i < op.io.size() && !stopped_; ++i) {
    const nfc_io_t& io = op.io[i];
    uint8_t* data = op.buffer.data() + op.data_offset[i];
    nand::PageImage& image = op.images[i];
    image = nand::PageImage{};
    if (io.meta_bytes != 0) {
      time += dma(tlm::TLM_READ_COMMAND, io.buffer, data, io.meta_bytes, io.meta_bytes,
                  "program metadata", &op);
      image.meta = data;
      image.meta_bytes = io.meta_bytes;
    } else {
      time += dma(tlm::TLM_READ_COMMAND, io.buffer, data, DATA_TAG_BYTES, page_bytes,
                  "program data slot", &op);
      std::memcpy(&image.tag, data, DATA_TAG_BYTES);
    }
    if (io.oob != 0) {
      uint8_t* oob = op.buffer.data() + op.oob_offset[i];
      time += dma(tlm::TLM_READ_COMMAND, io.oob, oob, oob_bytes, oob_bytes, "program OOB", &op);
      image.oob = oob;
    }
  }
  dma_free_ps_ = time;
  schedule(time, ActionKind::kProgramDataIn, op_index);
}

void Nfc::program_data_in(uint32_t op_index) {
  Op& op = ops_[op_index];
  op.stage = Stage::kDataIn;
  request_bus(op.die);
}

void Nfc::request_bus(uint32_t die_index) {
  set_die_state(die_index, DieState::kWait);
  Channel& channel = channels_[nand_.geometry().channel_of_die(die_index)];
  const Op& op = ops_[dies_[die_index].active];
  (op.stage == Stage::kCommand ? channel.commands : channel.transfers).push_back(die_index);
  if (!channel.busy) grant_bus(nand_.geometry().channel_of_die(die_index));
}

void Nfc::grant_bus(uint32_t channel_index) {
  Channel& channel = channels_[channel_index];
  std::deque<uint32_t>& waiting = channel.commands.empty() ? channel.transfers : channel.commands;
  const uint32_t die_index = waiting.front();
  waiting.pop_front();
  Op& op = ops_[dies_[die_index].active];
  const nand::Timing& timing = nand_.timing();
  const uint32_t planes = op.desc.plane_count;
  uint64_t duration = 0;
  uint64_t bytes = 0;
  DieState die_state = DieState::kCommand;
  BusState bus_state = BusState::kCommand;
  switch (op.stage) {
    case Stage::kCommand:
      duration = op.desc.op == NFC_OP_READ ? timing.read_command_phase_ps(planes)
                                           : timing.erase_command_phase_ps(planes);
      break;
    case Stage::kDataOut:
      for (const uint64_t plane_bytes : op.bus_bytes) {
        if (plane_bytes != 0) duration += timing.read_data_out_ps(plane_bytes);
        bytes += plane_bytes;
      }
      die_state = DieState::kTransferOut;
      bus_state = BusState::kDataOut;
      break;
    default:  // Stage::kDataIn
      duration = timing.program_data_in_ps(planes);
      bytes = uint64_t{planes} * nand_.geometry().bits_per_cell() * timing.page_with_spare_bytes();
      die_state = DieState::kTransferIn;
      bus_state = BusState::kDataIn;
      break;
  }
  const uint64_t now = now_ps();
  channel.busy = true;
  channel.owner = die_index;
  op.bus_start_ps = now;
  set_die_state(die_index, die_state);
  monitor_.bus_state(channel_index, bus_state, bytes, now);
  schedule(now + duration, ActionKind::kBusEnd, channel_index);
}

void Nfc::bus_end(uint32_t channel_index) {
  Channel& channel = channels_[channel_index];
  const uint32_t die_index = channel.owner;
  const uint32_t op_index = dies_[die_index].active;
  Op& op = ops_[op_index];
  const nand::Timing& timing = nand_.timing();
  const uint64_t now = now_ps();
  switch (op.stage) {
    case Stage::kCommand:
      op.stage = Stage::kArray;
      if (op.desc.op == NFC_OP_READ) {
        set_die_state(die_index, DieState::kRead);
        schedule(now + timing.read_ps(op.page_type), ActionKind::kArrayEnd, die_index);
      } else {
        erase_blocks(op);
        set_die_state(die_index, DieState::kErase);
        schedule(now + timing.erase_ps(), ActionKind::kArrayEnd, die_index);
      }
      break;
    case Stage::kDataIn:
      op.stage = Stage::kArray;
      program_pages(op);
      set_die_state(die_index, DieState::kProgram);
      schedule(now + timing.program_ps(), ActionKind::kArrayEnd, die_index);
      break;
    default:  // Stage::kDataOut
      decode_read(op_index);
      release_die(die_index);
      break;
  }
  channel.busy = false;
  monitor_.bus_state(channel_index, BusState::kIdle, 0, now);
  if ((!channel.commands.empty() || !channel.transfers.empty()) && !stopped_) {
    grant_bus(channel_index);
  }
}

void Nfc::array_end(uint32_t die_index) {
  const uint32_t op_index = dies_[die_index].active;
  Op& op = ops_[op_index];
  if (op.desc.op != NFC_OP_READ) {
    // The completion is posted before the next operation of the die takes the DMA engine.
    op.stage = Stage::kDelivery;
    post_completion(op_index);
    release_die(die_index);
    return;
  }
  read_pages(op);
  const bool moves_data = std::any_of(op.bus_bytes.begin(), op.bus_bytes.end(),
                                      [](uint64_t bytes) { return bytes != 0; });
  if (moves_data) {
    op.stage = Stage::kDataOut;
    request_bus(die_index);
    return;
  }
  op.stage = Stage::kDelivery;
  post_completion(op_index);
  release_die(die_index);
}

void Nfc::release_die(uint32_t die_index) {
  Die& die = dies_[die_index];
  die.active = kNoOp;
  set_die_state(die_index, DieState::kIdle);
  monitor_.die_queue_depth(die_index, static_cast<uint32_t>(die.queue.size()), now_ps());
  try_start(die_index);
}

void Nfc::decode_read(uint32_t op_index) {
  Op& op = ops_[op_index];
  Channel& channel = channels_[op.channel];
  const nand::Timing& timing = nand_.timing();
  // Each plane's page decodes once its transfer has ended and the decoder is free.
  uint64_t transfer_end = op.bus_start_ps;
  uint64_t decoded = now_ps();
  for (const uint64_t bytes : op.bus_bytes) {
    if (bytes == 0) continue;
    transfer_end += timing.read_data_out_ps(bytes);
    channel.ecc_free_ps = std::max(transfer_end, channel.ecc_free_ps) + config_.ecc_decode_ps;
    decoded = channel.ecc_free_ps;
  }
  op.stage = Stage::kDelivery;
  schedule(decoded, ActionKind::kDelivered, op_index);
}

void Nfc::deliver(uint32_t op_index) {
  Op& op = ops_[op_index];
  const nand::Geometry& geometry = nand_.geometry();
  uint64_t time = dma_start();
  for (uint32_t plane = 0; plane < op.io.size() && !stopped_; ++plane) {
    // An erased page delivers its pattern; a failed read delivers nothing.
    const nand::Status status = op.plane_status[plane];
    if (status != nand::Status::kOk && status != nand::Status::kErased) continue;
    const nfc_io_t& io = op.io[plane];
    if (io.buffer != 0) {
      const uint32_t length = io.meta_bytes != 0 ? io.meta_bytes : DATA_TAG_BYTES;
      const uint64_t charged = io.meta_bytes != 0 ? io.meta_bytes : geometry.page_bytes();
      // A DMA write only reads its source.
      uint8_t* source = op.meta_pages[plane]
                            ? const_cast<uint8_t*>(op.meta_pages[plane]->data())
                            : op.buffer.data() + op.data_offset[plane];
      time += dma(tlm::TLM_WRITE_COMMAND, io.buffer, source, length, charged, "read data slot",
                  &op);
    }
    if (io.oob != 0) {
      time += dma(tlm::TLM_WRITE_COMMAND, io.oob, op.buffer.data() + op.oob_offset[plane],
                  geometry.oob_bytes(), geometry.oob_bytes(), "read OOB", &op);
    }
  }
  dma_free_ps_ = time;
  op.meta_pages.clear();  // the store may drop the pages now
  post_completion(op_index);
}

void Nfc::post_completion(uint32_t op_index) {
  if (stopped_) return;
  if ((cq_reserved_ + 1) % cq_entries_ == cq_head_) {
    held_completions_.push_back(op_index);
    return;
  }
  Op& op = ops_[op_index];
  const uint32_t slot = cq_reserved_;
  cq_reserved_ = (cq_reserved_ + 1) % cq_entries_;
  const uint64_t start = dma_start();
  op.latency_ps = start - op.submit_ps;
  nfc_completion_t completion{};
  completion.id = op.desc.id;
  completion.status = op.status;
  completion.plane_mask = op.plane_mask;
  completion.latency_ns =
      static_cast<uint32_t>(std::min<uint64_t>(op.latency_ps / 1000, UINT32_MAX));
  const uint64_t end = start + dma(tlm::TLM_WRITE_COMMAND, cq_base_ + slot * NFC_COMPLETION_BYTES,
                                   &completion, NFC_COMPLETION_BYTES, NFC_COMPLETION_BYTES,
                                   "completion ring", &op);
  dma_free_ps_ = end;
  schedule(end, ActionKind::kVisible, op_index);
}

void Nfc::completion_visible(uint32_t op_index) {
  cq_tail_ = (cq_tail_ + 1) % cq_entries_;
  const Op& op = ops_[op_index];
  const uint32_t planes = op.desc.plane_count;
  const NfcOpKind kind = op.desc.op == NFC_OP_READ      ? NfcOpKind::kRead
                         : op.desc.op == NFC_OP_PROGRAM ? NfcOpKind::kProgram
                                                        : NfcOpKind::kErase;
  const uint32_t pages = kind == NfcOpKind::kProgram ? planes * nand_.geometry().bits_per_cell()
                                                     : planes;
  monitor_.completed(kind, planes, op.page_type, pages, op.status, op.latency_ps);
  irq_status_ |= NFC_IRQ_COMPLETION;
  registers_.set(NFC_IRQ_STATUS, irq_status_);
  update_interrupt();
  set_outstanding(outstanding_ - 1);
  free_op(op_index);
}

void Nfc::cq_head_written(uint32_t head) {
  const uint32_t consumed = (head - cq_head_ + cq_entries_) % cq_entries_;
  const uint32_t posted = (cq_tail_ - cq_head_ + cq_entries_) % cq_entries_;
  if (consumed > posted) {
    fail(fmt::format("CQ_HEAD = {} passes the completion tail {} (head was {})", head, cq_tail_,
                     cq_head_));
    return;
  }
  cq_head_ = head;
  while (!held_completions_.empty() && (cq_reserved_ + 1) % cq_entries_ != cq_head_) {
    const uint32_t op_index = held_completions_.front();
    held_completions_.pop_front();
    post_completion(op_index);
  }
}

// ---- The array ---------------------------------------------------------------------------------

void Nfc::set_plane_status(Op& op, uint32_t plane, nand::Status status) {
  const uint16_t code = static_cast<uint16_t>(status);
  op.status = std::max(op.status, code);
  if (status != nand::Status::kOk) op.plane_mask |= static_cast<uint16_t>(1u << plane);
}

void Nfc::read_pages(Op& op) {
  const nand::Geometry& geometry = nand_.geometry();
  const uint32_t oob_bytes = geometry.oob_bytes();
  op.status = NFC_STATUS_OK;
  op.plane_mask = 0;
  op.bus_bytes.assign(op.io.size(), 0);
  op.plane_status.resize(op.io.size());
  op.meta_pages.assign(op.io.size(), nullptr);
  for (uint32_t plane = 0; plane < op.io.size(); ++plane) {
    const nfc_io_t& io = op.io[plane];
    nand::PageView view;
    const nand::Status status = nand_.read(geometry.ppn_on_plane(op.desc.ppn, plane), view);
    set_plane_status(op, plane, status);
    op.plane_status[plane] = status;
    if (io.buffer != 0) {
      const uint32_t length = io.meta_bytes != 0 ? io.meta_bytes : DATA_TAG_BYTES;
      if (io.meta_bytes != 0 && view.meta_page && view.meta_bytes >= length) {
        op.meta_pages[plane] = std::move(view.meta_page);
      } else {
        view.copy_data(op.buffer.data() + op.data_offset[plane], length);
      }
      op.bus_bytes[plane] = nand_.timing().page_with_spare_bytes();
    }
    if (io.oob != 0) {
      view.copy_oob(op.buffer.data() + op.oob_offset[plane], oob_bytes);
      if (io.buffer == 0) op.bus_bytes[plane] = oob_bytes;
    }
  }
}

void Nfc::program_pages(Op& op) {
  const nand::Geometry& geometry = nand_.geometry();
  const uint32_t bits = geometry.bits_per_cell();
  op.status = NFC_STATUS_OK;
  op.plane_mask = 0;
  for (uint32_t plane = 0; plane < op.desc.plane_count; ++plane) {
    const uint32_t ppn = geometry.ppn_on_plane(op.desc.ppn, plane);
    if (const auto violation = nand_.program_violation(ppn)) {
      fail(fmt::format("{}: {}", describe(op), violation->message()));
      return;
    }
    set_plane_status(op, plane, nand_.program(ppn, &op.images[plane * bits]));
  }
}

void Nfc::erase_blocks(Op& op) {
  const nand::Geometry& geometry = nand_.geometry();
  op.status = NFC_STATUS_OK;
  op.plane_mask = 0;
  for (uint32_t plane = 0; plane < op.desc.plane_count; ++plane) {
    set_plane_status(op, plane, nand_.erase(geometry.ppn_on_plane(op.desc.ppn, plane)));
  }
}

// ---- Helpers -----------------------------------------------------------------------------------

uint64_t Nfc::dma_start() const { return std::max(now_ps(), dma_free_ps_); }

std::optional<uint64_t> Nfc::dma_direct(tlm::tlm_command command, uint32_t address, void* data,
                                        uint32_t length) {
  const uint64_t last = uint64_t{address} + length - 1;
  for (const DirectRegion& region : direct_) {
    if (address < region.start || last > region.end) continue;
    uint8_t* host = region.host + (address - region.start);
    if (command == tlm::TLM_READ_COMMAND) {
      std::memcpy(data, host, length);
      return region.read_ps;
    }
    if (!region.writable) return std::nullopt;
    std::memcpy(host, data, length);
    return region.write_ps;
  }
  return std::nullopt;
}

void Nfc::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  direct_.erase(std::remove_if(direct_.begin(), direct_.end(),
                               [&](const DirectRegion& region) {
                                 return region.start <= end && start <= region.end;
                               }),
                direct_.end());
}

uint64_t Nfc::dma(tlm::tlm_command command, uint32_t address, void* data, uint32_t length,
                  uint64_t charged_bytes, const char* what, const Op* op) {
  std::optional<uint64_t> latency_ps = dma_direct(command, address, data, length);
  if (!latency_ps) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(static_cast<unsigned char*>(data));
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    // Annotated with the action's lead over the kernel's clock: the transfer happens then.
    const uint64_t lead_ps = now_ps() - kernel_ps();
    sc_core::sc_time delay = from_ps(lead_ps);
    dma_socket->b_transport(trans, delay);
    if (!trans.is_response_ok()) {
      fail(fmt::format("DMA {} of {} bytes at {:#010x} ({}){} failed: {}",
                       command == tlm::TLM_READ_COMMAND ? "read" : "write", length, address, what,
                       op != nullptr ? " for " + describe(*op) : std::string(),
                       trans.get_response_string()));
      return 0;
    }
    latency_ps = to_ps(delay) - lead_ps;
    if (trans.is_dmi_allowed()) {
      tlm::tlm_dmi dmi;
      if (dma_socket->get_direct_mem_ptr(trans, dmi) &&
          dmi.is_read_allowed()) {
        direct_.push_back(DirectRegion{dmi.get_start_address(), dmi.get_end_address(),
                                       dmi.get_dmi_ptr(), to_ps(dmi.get_read_latency()),
                                       to_ps(dmi.get_write_latency()), dmi.is_write_allowed()});
      }
    }
  }
  const uint64_t bandwidth = config_.dma_bandwidth_mbs;  // bytes per microsecond
  const uint64_t transfer_ps = (charged_bytes * kPsPerMicrosecond + bandwidth - 1) / bandwidth;
  const uint64_t duration = *latency_ps + transfer_ps;
  monitor_.dma_transfer(length, duration);
  return duration;
}

uint32_t Nfc::allocate_op() {
  if (free_ops_.empty()) {
    ops_.emplace_back();
    return static_cast<uint32_t>(ops_.size() - 1);
  }
  const uint32_t index = free_ops_.back();
  free_ops_.pop_back();
  return index;
}

void Nfc::free_op(uint32_t op_index) { free_ops_.push_back(op_index); }

void Nfc::set_die_state(uint32_t die_index, DieState state) {
  monitor_.die_state(die_index, state, now_ps());
}

void Nfc::set_outstanding(uint32_t count) {
  outstanding_ = count;
  monitor_.outstanding(count, now_ps());
}

void Nfc::update_interrupt() {
  const bool level = (irq_status_ & irq_enable_) != 0;
  if (level == irq_level_) return;
  irq_level_ = level;
  if (irq_handler_) irq_handler_(level);
}

std::string Nfc::describe(const Op& op) const {
  const nfc_desc_t& desc = op.desc;
  std::string target = nand_.geometry().contains(desc.ppn)
                           ? nand_.geometry().describe(desc.ppn)
                           : fmt::format("ppn {:#x}", desc.ppn);
  return fmt::format("descriptor at {:#010x} (id {}, {} of {} plane(s) at {})", op.desc_address,
                     desc.id, op_name(desc.op), desc.plane_count, target);
}

void Nfc::fail(const std::string& message) {
  if (stopped_) return;
  stopped_ = true;
  actions_ = {};
  const uint64_t kernel = kernel_ps();
  if (action_ps_ > kernel) {
    // Running ahead: the handler ends the run at the kernel's time, so it must see the action's.
    deferred_failure_ = message;
    wake_.notify(from_ps(action_ps_ - kernel));
    return;
  }
  report_failure(message);
}

void Nfc::report_failure(const std::string& message) {
  const std::string text = fmt::format("nfc {}: {}", name(), message);
  log::error(*this, "{}", message);
  if (error_handler_) {
    error_handler_(text);
  } else {
    throw std::runtime_error(text);
  }
}

// ---- Report ------------------------------------------------------------------------------------

void Nfc::report(nlohmann::json& nand, nlohmann::json& nfc, uint64_t end_ps) const {
  const nand::Geometry& g = nand_.geometry();
  nand["geometry"] = {{"channels", g.channels()},
                      {"ways", g.ways()},
                      {"dies", g.dies_per_chip()},
                      {"planes", g.planes()},
                      {"blocks", g.blocks_per_plane()},
                      {"pages", g.pages_per_block()},
                      {"page_bytes", g.page_bytes()},
                      {"oob_bytes", g.oob_bytes()},
                      {"cell", nand::Geometry::cell_name(g.bits_per_cell())},
                      {"capacity_bytes", g.capacity_bytes()}};
  const uint64_t programmed = nand_.programmed_page_count();
  const uint64_t without_oob = nand_.page_storage_bytes() - nand_.oob_bytes_stored();
  nand["storage"] = {
      {"programmed_pages", programmed},
      {"page_storage_bytes", nand_.page_storage_bytes()},
      {"oob_bytes", nand_.oob_bytes_stored()},
      {"bytes_per_programmed_page_without_oob",
       programmed == 0 ? 0.0 : static_cast<double>(without_oob) / programmed},
      {"block_state_bytes", nand_.block_state_bytes()}};
  uint32_t min_erases = UINT32_MAX;
  uint32_t max_erases = 0;
  uint64_t sum_erases = 0;
  for (uint64_t block = 0; block < g.block_count(); ++block) {
    const uint32_t erases = nand_.erase_count(block);
    min_erases = std::min(min_erases, erases);
    max_erases = std::max(max_erases, erases);
    sum_erases += erases;
  }
  nand["wear"] = {{"endurance", nand_.endurance()},
                  {"erase_count_min", min_erases},
                  {"erase_count_max", max_erases},
                  {"erase_count_mean", static_cast<double>(sum_erases) / g.block_count()},
                  {"factory_bad_blocks", nand_.factory_bad_blocks()},
                  {"grown_bad_blocks", nand_.grown_bad_blocks()}};
  monitor_.report(nand, nfc, end_ps);
  nfc["completion_ring_held"] = held_completions_.size();
  nfc["stopped"] = stopped_;
}

}  // namespace ssdvp
