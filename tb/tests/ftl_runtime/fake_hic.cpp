#include "tb/tests/ftl_runtime/fake_hic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ssdvp::test {

namespace {
constexpr uint32_t kNone = 0xFFFFFFFFu;
}

FakeHic *FakeHic::live_ = nullptr;

FakeHic::FakeHic(const hic_geometry_t &geometry)
    : geometry_(geometry), slot_handle_(geometry.max_commands, kNone) {
  if (live_ != nullptr) {
    throw std::logic_error("one FakeHic at a time");
  }
  live_ = this;
}

FakeHic::~FakeHic() { live_ = nullptr; }

uint32_t FakeHic::submit(uint8_t op, uint32_t lpn, uint32_t pages, uint16_t flags) {
  uint32_t cmd_id = 0;
  while (cmd_id < geometry_.max_commands && slot_handle_[cmd_id] != kNone) {
    ++cmd_id;
  }
  if (cmd_id == geometry_.max_commands) {
    throw std::logic_error("every command slot is in use");
  }
  uint32_t handle = (uint32_t)commands_.size();
  Command command{op, cmd_id, lpn, pages, op == HIC_OP_WRITE ? next_version_++ : 0u, false, 0,
                  std::vector<data_tag_t>(pages, data_tag_t{kNone, kNone}),
                  std::vector<bool>(pages, false)};
  commands_.push_back(std::move(command));
  slot_handle_[cmd_id] = handle;
  hic_event_t event{};
  event.kind = HIC_EVENT_COMMAND;
  event.op = op;
  event.flags = flags;
  event.cmd_id = cmd_id;
  event.lpn = lpn;
  event.pages = pages;
  events_.push_back(event);
  return handle;
}

uint32_t FakeHic::handle_of(uint32_t cmd_id) const {
  if (cmd_id >= geometry_.max_commands || slot_handle_[cmd_id] == kNone) {
    throw std::logic_error("the firmware named cmd_id " + std::to_string(cmd_id) +
                           ", which no command holds");
  }
  return slot_handle_[cmd_id];
}

void FakeHic::power_cut() {
  std::fill(slot_handle_.begin(), slot_handle_.end(), kNone);
  events_.clear();
  transfers_.clear();
}

void FakeHic::finish_transfer(size_t index) {
  if (index >= transfers_.size()) {
    throw std::out_of_range("no such transfer waiting");
  }
  Transfer transfer = transfers_[index];
  transfers_.erase(transfers_.begin() + (std::ptrdiff_t)index);
  Command &command = commands_[transfer.command];
  auto *tag = reinterpret_cast<data_tag_t *>((uintptr_t)transfer.buffer);
  if (transfer.to_device) {
    *tag = data_tag_t{command.lpn + transfer.page_index, command.version};
  } else {
    command.received[transfer.page_index] = *tag;
  }
  command.moved[transfer.page_index] = true;
  hic_event_t event{};
  event.kind = HIC_EVENT_TRANSFER_DONE;
  event.cmd_id = transfer.cmd_id;
  event.page_index = transfer.page_index;
  event.buffer = transfer.buffer;
  events_.push_back(event);
}

bool FakeHic::next_event(hic_event_t *event) {
  if (events_.empty()) {
    return false;
  }
  *event = events_.front();
  events_.pop_front();
  return true;
}

void FakeHic::request(uint8_t kind, uint32_t cmd_id, uint32_t page_index, uint32_t buffer) {
  uint32_t handle = handle_of(cmd_id);
  const Command &command = commands_[handle];
  bool to_device = kind == HIC_REQ_DATA_IN;
  if (page_index >= command.pages) {
    ADD_FAILURE() << "transfer of page " << page_index << " of a " << command.pages
                  << "-page command";
    return;
  }
  if (to_device != (command.op == HIC_OP_WRITE)) {
    ADD_FAILURE() << (to_device ? "DATA_IN" : "DATA_OUT") << " for a command of op "
                  << (unsigned)command.op;
    return;
  }
  if (command.moved[page_index]) {
    ADD_FAILURE() << "page " << page_index << " of command " << handle << " moved twice";
  }
  transfers_.push_back(Transfer{handle, cmd_id, page_index, buffer, to_device});
}

void FakeHic::complete(uint32_t cmd_id, uint8_t status) {
  uint32_t handle = handle_of(cmd_id);
  Command &command = commands_[handle];
  for (const Transfer &transfer : transfers_) {
    if (transfer.command == handle) {
      ADD_FAILURE() << "command " << handle << " completed with a transfer still waiting";
    }
  }
  command.completed = true;
  command.status = status;
  completion_order_.push_back(handle);
  slot_handle_[cmd_id] = kNone;
}

}  // namespace ssdvp::test

using ssdvp::test::FakeHic;

namespace {

FakeHic &live_hic() {
  if (FakeHic::live() == nullptr) {
    throw std::logic_error("hic.h called with no FakeHic");
  }
  return *FakeHic::live();
}

// The ring entry holds 32 bits of address.
uint32_t ring_address(uintptr_t buffer) {
  if (buffer > 0xFFFFFFFFu) {
    throw std::logic_error("a transfer buffer above 4 GiB: the ring entry cannot hold it");
  }
  return (uint32_t)buffer;
}

}  // namespace

extern "C" {

bool hic_present(void) { return FakeHic::live() != nullptr; }

hic_geometry_t hic_geometry(void) { return live_hic().geometry(); }

void hic_start(hic_event_t *event_ring, uint32_t event_entries, hic_request_t *request_ring,
               uint32_t request_entries) {
  (void)event_ring;
  (void)event_entries;
  (void)request_ring;
  (void)request_entries;
}

bool hic_next_event(hic_event_t *event) { return live_hic().next_event(event); }

bool hic_event_waiting(void) { return live_hic().event_waiting(); }

void hic_data_in(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer) {
  live_hic().request(HIC_REQ_DATA_IN, cmd_id, page_index, ring_address(buffer));
}

void hic_data_out(uint32_t cmd_id, uint32_t page_index, uintptr_t buffer) {
  live_hic().request(HIC_REQ_DATA_OUT, cmd_id, page_index, ring_address(buffer));
}

void hic_complete(uint32_t cmd_id, uint8_t status) { live_hic().complete(cmd_id, status); }

}  // extern "C"
