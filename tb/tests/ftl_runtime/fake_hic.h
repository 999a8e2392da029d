// A fake of the host interface controller's driver (firmware/hal/hic.h) for host tests of the FTL
// runtime: the hic.h functions with C linkage over a host model in memory. The test submits
// commands (each a HIC_EVENT_COMMAND the firmware takes with hic_next_event); the firmware's
// DATA_IN and DATA_OUT requests wait until the test (or the harness's WFI) finishes them, which
// moves the data tag as the HIC would (a write's page gets {LPN, the command's version}; a read's
// page is recorded as the host received it) and posts the HIC_EVENT_TRANSFER_DONE; completions are
// recorded in the order the firmware posts them.
//
// Buffer addresses travel as the 32 bits the ring entries hold (interface/hic_cmd.h): the
// firmware's buffers must lie below 4 GiB (the harness maps its arenas there).
#ifndef SSDVP_TB_TESTS_FTL_RUNTIME_FAKE_HIC_H
#define SSDVP_TB_TESTS_FTL_RUNTIME_FAKE_HIC_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

extern "C" {
#include "data_tag.h"
#include "hal/hic.h"
}

namespace ssdvp::test {

class FakeHic {
 public:
  // One fake at a time: the hic.h functions drive the live one.
  explicit FakeHic(const hic_geometry_t &geometry);
  ~FakeHic();
  FakeHic(const FakeHic &) = delete;
  FakeHic &operator=(const FakeHic &) = delete;

  static FakeHic *live() { return live_; }
  const hic_geometry_t &geometry() const { return geometry_; }

  // A DATA_IN or DATA_OUT request not yet carried out.
  struct Transfer {
    uint32_t command;  // the handle submit returned
    uint32_t cmd_id;
    uint32_t page_index;
    uint32_t buffer;
    bool to_device;  // DATA_IN
  };
  struct Command {
    uint8_t op;
    uint32_t cmd_id;
    uint32_t lpn;
    uint32_t pages;
    uint32_t version;  // writes: the version every page carries
    bool completed;
    uint8_t status;
    std::vector<data_tag_t> received;  // reads: the tag each page brought (pages entries)
    std::vector<bool> moved;           // a transfer of the page was carried out
  };

  // Queues a command for the firmware; returns its handle (0, 1, ... in submission order).
  // Writes take the next version (1, 2, ...). Throws when every cmd_id is in use.
  uint32_t submit(uint8_t op, uint32_t lpn, uint32_t pages, uint16_t flags = 0);
  const Command &command(uint32_t handle) const { return commands_.at(handle); }
  bool completed(uint32_t handle) const { return commands_.at(handle).completed; }
  // Handles in the order the firmware completed them.
  const std::vector<uint32_t> &completion_order() const { return completion_order_; }

  const std::deque<Transfer> &transfers() const { return transfers_; }
  // Carries out transfers()[index] and posts its TRANSFER_DONE event.
  void finish_transfer(size_t index = 0);

  // The power is cut: every command not completed stays so (the host sees it fail), the events,
  // transfers and command slots are gone. The commands and their versions are kept: writes
  // after the next boot take versions beyond every earlier one.
  void power_cut();

  // The hic.h entry points (fake_hic.cpp forwards the C functions here).
  bool next_event(hic_event_t *event);
  bool event_waiting() const { return !events_.empty(); }
  void request(uint8_t kind, uint32_t cmd_id, uint32_t page_index, uint32_t buffer);
  void complete(uint32_t cmd_id, uint8_t status);

 private:
  uint32_t handle_of(uint32_t cmd_id) const;

  static FakeHic *live_;
  hic_geometry_t geometry_;
  std::vector<Command> commands_;
  std::vector<uint32_t> slot_handle_;  // [cmd_id]: the command in that slot, or NONE
  std::deque<hic_event_t> events_;
  std::deque<Transfer> transfers_;
  std::vector<uint32_t> completion_order_;
  uint32_t next_version_ = 1;
};

}  // namespace ssdvp::test

#endif
