#include "tlm/host/hic.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "interface/hic_regs.h"
#include "tlm/system/bits.h"
#include "tlm/system/log.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::host {
namespace {

using Access = RegisterBank::Access;
using Direction = HostLink::Direction;

const char* request_name(uint8_t kind) {
  switch (kind) {
    case HIC_REQ_DATA_IN: return "DATA_IN";
    case HIC_REQ_DATA_OUT: return "DATA_OUT";
    case HIC_REQ_COMPLETE: return "COMPLETE";
    default: return "unknown request";
  }
}

const char* op_name(uint8_t op) {
  switch (op) {
    case HIC_OP_READ: return "read";
    case HIC_OP_WRITE: return "write";
    case HIC_OP_TRIM: return "trim";
    case HIC_OP_FLUSH: return "flush";
    default: return "unknown";
  }
}

uint8_t op_code(HostOp op) {
  switch (op) {
    case HostOp::kRead: return HIC_OP_READ;
    case HostOp::kWrite: return HIC_OP_WRITE;
    case HostOp::kTrim: return HIC_OP_TRIM;
    case HostOp::kFlush: return HIC_OP_FLUSH;
  }
  return 0;
}

const HostConfig& validated(const HostConfig& config) {
  const auto fail = [](const std::string& message) { throw std::runtime_error(message); };
  if (!is_power_of_two(config.sector_bytes)) {
    fail(fmt::format("host.sector_size = {} B is not a power of two", config.sector_bytes));
  }
  if (!is_power_of_two(config.page_bytes) || config.page_bytes < config.sector_bytes) {
    fail(fmt::format("host.page_size = {} B must be a power of two and at least host.sector_size "
                     "= {} B",
                     config.page_bytes, config.sector_bytes));
  }
  if (config.capacity_bytes % config.page_bytes != 0) {
    fail(fmt::format("host.capacity = {} B is not a multiple of host.page_size = {} B",
                     config.capacity_bytes, config.page_bytes));
  }
  const uint64_t lpns = config.capacity_bytes / config.page_bytes;
  if (lpns == 0 || lpns > UINT32_MAX) {
    fail(fmt::format("host.capacity = {} B holds {} pages of host.page_size = {} B; allowed 1 .. "
                     "{} pages (LPNs are 32 bits)",
                     config.capacity_bytes, lpns, config.page_bytes, UINT32_MAX));
  }
  if (config.max_commands == 0) fail("host.max_commands = 0 is out of range: allowed 1 or more");
  return config;
}

}  // namespace

Hic::Hic(sc_core::sc_module_name name, const HostConfig& config, WaveWriter* waves)
    : sc_core::sc_module(name),
      socket("socket"),
      dma("dma"),
      config_(validated(config)),
      link_(config_.link),
      lpn_count_(config_.capacity_bytes / config_.page_bytes),
      sectors_per_page_(config_.page_bytes / config_.sector_bytes),
      registers_(this->name()),
      waves_(waves),
      slots_(config_.max_commands) {
  for (uint32_t id = 0; id < config_.max_commands; ++id) free_slots_.insert(id);
  declare_registers();
  socket.register_b_transport(this, &Hic::b_transport);
  socket.register_transport_dbg(this, &Hic::transport_dbg);

  SC_HAS_PROCESS(Hic);
  SC_THREAD(post_events_thread);
  SC_THREAD(requests_thread);
  SC_METHOD(run_due_actions);
  sensitive << action_event_;
  dont_initialize();

  if (waves_ != nullptr) {
    wave_commands_ = waves_->add_signal(this->name(), "commands", 32);
    wave_submissions_ = waves_->add_signal(this->name(), "submission_queues", 32);
    wave_event_ring_ = waves_->add_signal(this->name(), "event_ring", 32);
    wave_request_ring_ = waves_->add_signal(this->name(), "request_ring", 32);
  }
}

void Hic::reset() {
  reset_controller();
  commands_fetched_ = events_posted_ = data_in_requests_ = data_out_requests_ = completions_ = 0;
  max_event_ring_ = max_busy_slots_ = 0;
  event_ring_full_waits_ = 0;
}

void Hic::power_cut() {
  ++power_epoch_;
  // The link's statistics count the whole run; a transfer it was making ends before the
  // controller can be ready again, so its busy time changes nothing.
  const HostLink link = link_;
  reset_controller();
  link_ = link;
}

void Hic::reset_controller() {
  link_ = HostLink(config_.link);
  registers_.reset();
  enabled_ = failed_ = false;
  event_base_ = event_entries_ = event_head_ = event_tail_ = 0;
  request_base_ = request_entries_ = request_head_ = request_tail_ = 0;
  irq_status_ = irq_enable_ = 0;
  update_interrupt();
  for (std::deque<HostCommand>& queue : queues_) queue.clear();
  next_queue_ = 0;
  queued_commands_ = 0;
  std::fill(slots_.begin(), slots_.end(), Slot{});
  free_slots_.clear();
  for (uint32_t id = 0; id < config_.max_commands; ++id) free_slots_.insert(id);
  busy_slots_ = 0;
  pending_events_.clear();
  actions_.clear();
  action_sequence_ = 0;
  for (sc_core::sc_event* event :
       {&action_event_, &enabled_event_, &post_event_, &doorbell_event_}) {
    event->cancel();
  }
  const uint64_t now = now_ps();
  for (const auto& signal : {wave_commands_, wave_submissions_, wave_event_ring_,
                             wave_request_ring_}) {
    record(signal, 0, now);
  }
}

void Hic::declare_registers() {
  registers_.add(HIC_ID, "id", HIC_ID_VALUE, Access::kReadOnly);
  registers_.add(HIC_LPN_COUNT, "lpn_count", static_cast<uint32_t>(lpn_count_), Access::kReadOnly);
  registers_.add(HIC_MAX_COMMANDS, "max_commands", config_.max_commands, Access::kReadOnly);
  registers_.add(HIC_SECTOR_BYTES, "sector_bytes", config_.sector_bytes, Access::kReadOnly);
  registers_.add(HIC_PAGE_BYTES, "page_bytes", config_.page_bytes, Access::kReadOnly);

  const auto layout = [this](uint32_t offset, const char* name, uint32_t* field) {
    registers_.add(offset, name, 0, Access::kReadWrite, {},
                   [this, offset, name, field](uint32_t value, sc_core::sc_time&) {
                     write_ring_layout(name, offset, value, *field);
                     *field = registers_.get(offset);
                   });
  };
  layout(HIC_EVQ_BASE, "evq_base", &event_base_);
  layout(HIC_EVQ_ENTRIES, "evq_entries", &event_entries_);
  layout(HIC_RQ_BASE, "rq_base", &request_base_);
  layout(HIC_RQ_ENTRIES, "rq_entries", &request_entries_);

  registers_.add(HIC_EVQ_HEAD, "evq_head", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time& delay) { write_event_head(value, delay); });
  registers_.add(HIC_EVQ_TAIL, "evq_tail", 0, Access::kReadOnly);
  registers_.add(HIC_RQ_TAIL, "rq_tail", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time& delay) {
                   write_request_tail(value, delay);
                 });
  registers_.add(HIC_RQ_HEAD, "rq_head", 0, Access::kReadOnly);
  registers_.add(HIC_IRQ_STATUS, "irq_status", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time&) {
                   irq_status_ &= ~value;  // write 1 to clear
                   registers_.set(HIC_IRQ_STATUS, irq_status_);
                   update_interrupt();
                 });
  registers_.add(HIC_IRQ_ENABLE, "irq_enable", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time&) {
                   irq_enable_ = value;
                   update_interrupt();
                 });
  registers_.add(HIC_ENABLE, "enable", 0, Access::kReadWrite, {},
                 [this](uint32_t value, sc_core::sc_time& delay) { write_enable(value, delay); });
}

void Hic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  registers_.b_transport(trans, delay);
}

unsigned Hic::transport_dbg(tlm::tlm_generic_payload& trans) {
  return registers_.transport_dbg(trans);
}

// ---- Registers -------------------------------------------------------------------------------

void Hic::write_ring_layout(const char* name, uint32_t offset, uint32_t value, uint32_t old) {
  if (enabled_ && value != old) {
    registers_.set(offset, old);
    fail(fmt::format("HIC_{} written with {:#x} after HIC_ENABLE: ring bases and sizes are fixed "
                     "once the rings run",
                     name, value));
  }
}

void Hic::write_enable(uint32_t value, const sc_core::sc_time& delay) {
  if ((value & ~1u) != 0) {
    fail(fmt::format("HIC_ENABLE written with {:#x}: only bit 0 is defined", value));
    return;
  }
  if (enabled_) {
    if (value == 0) fail("HIC_ENABLE cleared: the rings cannot be stopped once started");
    return;
  }
  if (value == 0) return;
  const auto check_ring = [this](const char* ring, uint32_t base, uint32_t entries,
                                 uint32_t entry_bytes) {
    if (!is_power_of_two(entries) || entries < 2) {
      fail(fmt::format("HIC_ENABLE: the {} ring has {} entries; it needs a power of two, at least "
                       "2",
                       ring, entries));
      return false;
    }
    if (base % entry_bytes != 0 || uint64_t{base} + uint64_t{entries} * entry_bytes > 1ull << 32) {
      fail(fmt::format("HIC_ENABLE: the {} ring at {:#010x} ({} entries of {} bytes) must be "
                       "aligned to its entry size and lie below 4 GiB",
                       ring, base, entries, entry_bytes));
      return false;
    }
    return true;
  };
  if (!check_ring("event", event_base_, event_entries_, HIC_EVENT_BYTES) ||
      !check_ring("request", request_base_, request_entries_, HIC_REQUEST_BYTES)) {
    return;
  }
  enabled_ = true;
  enabled_event_.notify(delay);
  update_interrupt();
  log::debug(*this, "rings started: events at {:#010x} x {}, requests at {:#010x} x {}",
             event_base_, event_entries_, request_base_, request_entries_);
  try_fetch();
}

void Hic::write_event_head(uint32_t value, const sc_core::sc_time& delay) {
  if (!enabled_) {
    fail(fmt::format("HIC_EVQ_HEAD written with {} before HIC_ENABLE", value));
    return;
  }
  const uint32_t advance = (value - event_head_) & (event_entries_ - 1);
  if (value >= event_entries_ || advance > event_ring_count()) {
    fail(fmt::format("HIC_EVQ_HEAD written with {}: the event ring holds entries {} up to {} "
                     "(exclusive) of {}",
                     value, event_head_, event_tail_, event_entries_));
    return;
  }
  event_head_ = value;
  record(wave_event_ring_, event_ring_count(), to_ps(sc_core::sc_time_stamp() + delay));
  // Freed entries matter only to events waiting for room; waking the posting thread without any
  // would cost a context switch for nothing.
  if (!pending_events_.empty()) post_event_.notify(delay);
}

void Hic::write_request_tail(uint32_t value, const sc_core::sc_time& delay) {
  if (!enabled_) {
    fail(fmt::format("HIC_RQ_TAIL written with {} before HIC_ENABLE", value));
    return;
  }
  const uint32_t mask = request_entries_ - 1;
  if (value >= request_entries_ ||
      ((value - request_head_) & mask) < ((request_tail_ - request_head_) & mask)) {
    fail(fmt::format("HIC_RQ_TAIL written with {}: the request ring has {} entries, the HIC takes "
                     "entry {} next and the tail was {}",
                     value, request_entries_, request_head_, request_tail_));
    return;
  }
  request_tail_ = value;
  record(wave_request_ring_, request_ring_count(), to_ps(sc_core::sc_time_stamp() + delay));
  doorbell_event_.notify(delay);
}

void Hic::update_interrupt() {
  const bool level = enabled_ && (irq_status_ & irq_enable_ & HIC_IRQ_EVENT) != 0;
  if (level == interrupt_level_) return;
  interrupt_level_ = level;
  if (interrupt_) interrupt_(level);
}

uint32_t Hic::event_ring_count() const {
  return enabled_ ? (event_tail_ - event_head_) & (event_entries_ - 1) : 0;
}

uint32_t Hic::request_ring_count() const {
  return enabled_ ? (request_tail_ - request_head_) & (request_entries_ - 1) : 0;
}

// ---- Host side -------------------------------------------------------------------------------

unsigned Hic::add_queue() {
  queues_.emplace_back();
  return static_cast<unsigned>(queues_.size() - 1);
}

void Hic::submit(unsigned queue, const HostCommand& command) {
  if (queue >= queues_.size()) {
    throw std::logic_error(fmt::format("{}: submission to queue {} of {}", name(), queue,
                                       queues_.size()));
  }
  const uint64_t sectors = lpn_count_ * sectors_per_page_;
  const bool flush = command.op == HostOp::kFlush;
  if (flush ? command.sector_count != 0
            : command.sector_count == 0 || command.first_sector >= sectors ||
                  command.sector_count > sectors - command.first_sector) {
    throw std::logic_error(fmt::format(
        "{}: command {} covers sectors {} + {}, outside the {} sectors of the device", name(),
        command.host_tag, command.first_sector, command.sector_count, sectors));
  }
  queues_[queue].push_back(command);
  ++queued_commands_;
  record(wave_submissions_, queued_commands_, now_ps());
  try_fetch();
}

void Hic::try_fetch() {
  if (failed_ || !enabled_) return;
  while (queued_commands_ != 0 && !free_slots_.empty()) {
    unsigned queue = next_queue_;
    while (queues_[queue].empty()) queue = (queue + 1) % queues_.size();
    next_queue_ = (queue + 1) % queues_.size();
    const HostCommand command = queues_[queue].front();
    queues_[queue].pop_front();
    --queued_commands_;

    const uint32_t cmd_id = *free_slots_.begin();
    free_slots_.erase(free_slots_.begin());
    Slot& slot = slots_[cmd_id];
    slot.busy = true;
    slot.command = command;
    slot.event = command_event(cmd_id, command);
    slot.transferred.assign(slot.event.pages, false);
    slot.transfers_in_flight = 0;
    ++busy_slots_;
    max_busy_slots_ = std::max(max_busy_slots_, busy_slots_);
    ++commands_fetched_;

    const uint64_t now = now_ps();
    record(wave_submissions_, queued_commands_, now);
    record(wave_commands_, busy_slots_, now);
    const uint64_t arrival = link_.transfer(Direction::kToDevice, kCommandBytes, now);
    at(arrival, [this, cmd_id] { queue_event(slots_[cmd_id].event); });
  }
}

hic_event_t Hic::command_event(uint32_t cmd_id, const HostCommand& command) const {
  hic_event_t event{};
  event.kind = HIC_EVENT_COMMAND;
  event.op = op_code(command.op);
  event.cmd_id = cmd_id;
  if (command.op == HostOp::kFlush) return event;
  const uint64_t end = command.first_sector + command.sector_count;
  const uint64_t first_lpn = command.first_sector / sectors_per_page_;
  const uint64_t last_lpn = (end - 1) / sectors_per_page_;
  const uint32_t first_offset = static_cast<uint32_t>(command.first_sector % sectors_per_page_);
  const uint32_t end_offset = static_cast<uint32_t>(end % sectors_per_page_);
  event.lpn = static_cast<uint32_t>(first_lpn);
  event.pages = static_cast<uint32_t>(last_lpn - first_lpn + 1);
  event.first_sector = static_cast<uint16_t>(first_offset);
  event.end_sector = static_cast<uint16_t>(end_offset);
  // With a single page, first and last are the same page: both flags say whether it is whole.
  const bool single = event.pages == 1;
  if (first_offset != 0 || (single && end_offset != 0)) event.flags |= HIC_CMD_PARTIAL_FIRST;
  if (end_offset != 0 || (single && first_offset != 0)) event.flags |= HIC_CMD_PARTIAL_LAST;
  if (command.fua && command.op == HostOp::kWrite) event.flags |= HIC_CMD_FUA;
  return event;
}

uint64_t Hic::page_transfer_bytes(const hic_event_t& event, uint32_t page_index) const {
  const uint32_t start = page_index == 0 ? event.first_sector : 0;
  const uint32_t end =
      page_index + 1 == event.pages && event.end_sector != 0 ? event.end_sector : sectors_per_page_;
  return uint64_t{end - start} * config_.sector_bytes;
}

// ---- Event ring ------------------------------------------------------------------------------

void Hic::queue_event(const hic_event_t& event) {
  pending_events_.push_back(event);
  post_event_.notify(sc_core::SC_ZERO_TIME);
}

void Hic::post_events_thread() {
  for (;;) {
    bool counted_full = false;
    while (failed_ || !enabled_ || pending_events_.empty() ||
           event_ring_count() == event_entries_ - 1) {
      if (!failed_ && enabled_ && !pending_events_.empty() && !counted_full) {
        ++event_ring_full_waits_;
        counted_full = true;
      }
      wait(post_event_);
    }
    hic_event_t event = pending_events_.front();
    const uint64_t epoch = power_epoch_;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const uint32_t address = event_base_ + event_tail_ * HIC_EVENT_BYTES;
    // A failed access stops the HIC; the thread then waits (reset() may start it again).
    if (!dma_access(tlm::TLM_WRITE_COMMAND, address, &event, HIC_EVENT_BYTES, delay,
                    [this] { return fmt::format("event ring entry {}", event_tail_); })) {
      continue;
    }
    wait(delay);
    if (power_epoch_ != epoch) continue;  // the power went while the entry was being written
    pending_events_.pop_front();
    event_tail_ = (event_tail_ + 1) & (event_entries_ - 1);
    registers_.set(HIC_EVQ_TAIL, event_tail_);
    ++events_posted_;
    max_event_ring_ = std::max(max_event_ring_, event_ring_count());
    record(wave_event_ring_, event_ring_count(), now_ps());
    irq_status_ |= HIC_IRQ_EVENT;
    registers_.set(HIC_IRQ_STATUS, irq_status_);
    update_interrupt();
  }
}

// ---- Request ring ----------------------------------------------------------------------------

void Hic::requests_thread() {
  for (;;) {
    while (failed_ || !enabled_ || request_head_ == request_tail_) wait(doorbell_event_);
    hic_request_t request{};
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const uint32_t entry = request_head_;
    const uint64_t epoch = power_epoch_;
    if (!dma_access(tlm::TLM_READ_COMMAND, request_base_ + entry * HIC_REQUEST_BYTES, &request,
                    HIC_REQUEST_BYTES, delay,
                    [entry] { return fmt::format("request ring entry {}", entry); })) {
      continue;  // stopped, as above
    }
    wait(delay);
    if (power_epoch_ != epoch) continue;  // as above
    request_head_ = (request_head_ + 1) & (request_entries_ - 1);
    registers_.set(HIC_RQ_HEAD, request_head_);
    record(wave_request_ring_, request_ring_count(), now_ps());
    serve_request(request);
  }
}

void Hic::serve_request(const hic_request_t& request) {
  const uint8_t kind = request.kind;
  if (kind != HIC_REQ_DATA_IN && kind != HIC_REQ_DATA_OUT && kind != HIC_REQ_COMPLETE) {
    fail(fmt::format("request ring entry {}: unknown kind {}; allowed {} (DATA_IN), {} "
                     "(DATA_OUT), {} (COMPLETE)",
                     (request_head_ - 1) & (request_entries_ - 1), kind, HIC_REQ_DATA_IN,
                     HIC_REQ_DATA_OUT, HIC_REQ_COMPLETE));
    return;
  }
  const uint32_t cmd_id = request.cmd_id;
  if (cmd_id >= slots_.size() || !slots_[cmd_id].busy) {
    fail(fmt::format("{} for cmd_id {}, which is not outstanding ({} of {} command slots hold "
                     "commands)",
                     request_name(kind), cmd_id, busy_slots_, slots_.size()));
    return;
  }
  if (kind == HIC_REQ_COMPLETE) {
    complete(cmd_id, request);
    return;
  }
  const Slot& slot = slots_[cmd_id];
  const uint8_t needed = kind == HIC_REQ_DATA_IN ? HIC_OP_WRITE : HIC_OP_READ;
  if (slot.event.op != needed) {
    fail(fmt::format("{} for cmd_id {}, a {} command: only {} commands move data {}",
                     request_name(kind), cmd_id, op_name(slot.event.op), op_name(needed),
                     kind == HIC_REQ_DATA_IN ? "in" : "out"));
    return;
  }
  if (request.page_index >= slot.event.pages) {
    fail(fmt::format("{} for cmd_id {}: page_index {} is beyond the command's {} page(s)",
                     request_name(kind), cmd_id, request.page_index, slot.event.pages));
    return;
  }
  if (kind == HIC_REQ_DATA_IN) {
    start_data_in(cmd_id, request);
  } else {
    start_data_out(cmd_id, request);
  }
}

void Hic::start_data_in(uint32_t cmd_id, const hic_request_t& request) {
  ++data_in_requests_;
  Slot& slot = slots_[cmd_id];
  const uint32_t page_index = request.page_index;
  const uint32_t buffer = request.buffer;
  const uint32_t lpn = slot.event.lpn + page_index;
  const uint64_t arrival = link_.transfer(
      Direction::kToDevice, page_transfer_bytes(slot.event, page_index), now_ps());
  ++slot.transfers_in_flight;
  at(arrival, [this, cmd_id, page_index, buffer, lpn] {
    data_tag_t tag = host_->write_data(slots_[cmd_id].command.host_tag, lpn);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (!dma_access(tlm::TLM_WRITE_COMMAND, buffer, &tag, DATA_TAG_BYTES, delay, [=] {
          return fmt::format("DATA_IN of cmd_id {} page {} into the buffer slot", cmd_id,
                             page_index);
        })) {
      return;
    }
    at(now_ps() + to_ps(delay),
       [this, cmd_id, page_index, buffer] { transfer_done(cmd_id, page_index, buffer); });
  });
}

void Hic::start_data_out(uint32_t cmd_id, const hic_request_t& request) {
  ++data_out_requests_;
  const uint32_t page_index = request.page_index;
  const uint32_t buffer = request.buffer;
  data_tag_t tag{};
  const uint64_t epoch = power_epoch_;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (!dma_access(tlm::TLM_READ_COMMAND, buffer, &tag, DATA_TAG_BYTES, delay, [=] {
        return fmt::format("DATA_OUT of cmd_id {} page {} from the buffer slot", cmd_id,
                           page_index);
      })) {
    return;
  }
  wait(delay);
  if (power_epoch_ != epoch) return;  // the power went during the read: the command is lost
  Slot& slot = slots_[cmd_id];
  const uint32_t lpn = slot.event.lpn + page_index;
  const uint64_t arrival =
      link_.transfer(Direction::kToHost, page_transfer_bytes(slot.event, page_index), now_ps());
  ++slot.transfers_in_flight;
  at(arrival, [this, cmd_id, page_index, buffer, lpn, tag] {
    host_->read_data(slots_[cmd_id].command.host_tag, lpn, tag);
    transfer_done(cmd_id, page_index, buffer);
  });
}

void Hic::transfer_done(uint32_t cmd_id, uint32_t page_index, uint32_t buffer) {
  Slot& slot = slots_[cmd_id];
  --slot.transfers_in_flight;
  slot.transferred[page_index] = true;
  hic_event_t event{};
  event.kind = HIC_EVENT_TRANSFER_DONE;
  event.op = slot.event.op;
  event.cmd_id = cmd_id;
  event.lpn = slot.event.lpn + page_index;
  event.page_index = page_index;
  event.buffer = buffer;
  queue_event(event);
}

void Hic::complete(uint32_t cmd_id, const hic_request_t& request) {
  Slot& slot = slots_[cmd_id];
  if (request.status > HIC_STATUS_INVALID) {
    fail(fmt::format("COMPLETE of cmd_id {} with unknown status {}; allowed {} (OK), {} (ERROR), "
                     "{} (INVALID)",
                     cmd_id, request.status, HIC_STATUS_OK, HIC_STATUS_ERROR, HIC_STATUS_INVALID));
    return;
  }
  if (slot.transfers_in_flight != 0) {
    fail(fmt::format("COMPLETE of cmd_id {} while {} of its transfers are in flight: wait for "
                     "their TRANSFER_DONE events",
                     cmd_id, slot.transfers_in_flight));
    return;
  }
  const bool moves_data = slot.event.op == HIC_OP_READ || slot.event.op == HIC_OP_WRITE;
  if (request.status == HIC_STATUS_OK && moves_data) {
    for (uint32_t page = 0; page < slot.transferred.size(); ++page) {
      if (!slot.transferred[page]) {
        fail(fmt::format("COMPLETE of cmd_id {} ({} of LPN {}, {} page(s)) with status OK, but "
                         "page {} was never transferred",
                         cmd_id, op_name(slot.event.op), slot.event.lpn, slot.event.pages, page));
        return;
      }
    }
  }
  ++completions_;
  slot.busy = false;
  free_slots_.insert(cmd_id);
  --busy_slots_;
  const uint64_t now = now_ps();
  record(wave_commands_, busy_slots_, now);
  const uint32_t host_tag = slot.command.host_tag;
  const uint8_t status = request.status;
  const uint64_t arrival = link_.transfer(Direction::kToHost, kCompletionBytes, now);
  at(arrival, [this, host_tag, status] { host_->completed(host_tag, status); });
  try_fetch();
}

// ---- Timed actions, DMA, errors --------------------------------------------------------------

void Hic::at(uint64_t time_ps, std::function<void()> action) {
  const uint64_t now = now_ps();
  const uint64_t when = std::max(time_ps, now);
  actions_.push_back(TimedAction{when, action_sequence_++, std::move(action)});
  std::push_heap(actions_.begin(), actions_.end(), std::greater<>());
  // A pending later notification is replaced by this earlier one; an earlier one stays.
  action_event_.notify(from_ps(when - now));
}

void Hic::run_due_actions() {
  while (!failed_ && !actions_.empty() && actions_.front().time_ps <= now_ps()) {
    // Taken off the heap before it runs: the action may schedule others.
    std::pop_heap(actions_.begin(), actions_.end(), std::greater<>());
    const std::function<void()> run = std::move(actions_.back().run);
    actions_.pop_back();
    run();
  }
  if (!failed_ && !actions_.empty()) {
    action_event_.notify(from_ps(actions_.front().time_ps - now_ps()));
  }
}

template <typename Describe>
bool Hic::dma_access(tlm::tlm_command command, uint32_t address, void* data, unsigned length,
                     sc_core::sc_time& delay, const Describe& what) {
  tlm::tlm_generic_payload& trans = dma_payload_;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  dma->b_transport(trans, delay);
  if (trans.is_response_ok()) return true;
  fail(fmt::format("{}: DMA {} of {} bytes at {:#010x} failed ({})", what(),
                   command == tlm::TLM_READ_COMMAND ? "read" : "write", length, address,
                   trans.get_response_string()));
  return false;
}

void Hic::fail(const std::string& message) {
  if (failed_) return;
  failed_ = true;
  log::error(*this, "{}", message);
  if (error_handler_) error_handler_(fmt::format("{}: {}", name(), message));
}

uint64_t Hic::now_ps() const { return to_ps(sc_core::sc_time_stamp()); }

void Hic::record(std::optional<WaveWriter::SignalId> signal, uint64_t value, uint64_t time_ps) {
  if (signal) waves_->set(*signal, value, time_ps);
}

void Hic::report(nlohmann::json& out) const {
  out["lpn_count"] = lpn_count_;
  out["page_bytes"] = config_.page_bytes;
  out["sector_bytes"] = config_.sector_bytes;
  out["max_commands"] = config_.max_commands;
  out["commands_fetched"] = commands_fetched_;
  out["events_posted"] = events_posted_;
  out["data_in_requests"] = data_in_requests_;
  out["data_out_requests"] = data_out_requests_;
  out["completions"] = completions_;
  out["max_commands_held"] = max_busy_slots_;
  out["max_event_ring_occupancy"] = max_event_ring_;
  out["event_ring_full_waits"] = event_ring_full_waits_;
  nlohmann::json link;
  link_.report(link);
  out["link"] = std::move(link);
}

}  // namespace ssdvp::host
