// The host interface controller (tlm/host/hic) driven by a host and a misbehaving firmware:
// random host commands, register values, requests and buffer addresses. The HIC sits on a bench
// of its own (firmware_bench.h) with a 64 KiB device of 2 KiB pages in 512-byte sectors, 4
// command slots and a PCIe Gen3 x1 link. Each input is reset to power-on (Hic::reset) and is a
// script of steps, each a byte (kind in the low 3 bits, a parameter above) and its operands:
//   0 start the rings (sizes from the parameter; an operand byte may make them invalid),
//   1 the host submits a command (op, first sector, sector count: always valid),
//   2 the firmware takes the events posted (and gives them back with EVQ_HEAD, or a raw one),
//   3 the firmware posts a request for a command it holds: the next one a firmware would make
//     (a page's DATA_IN or DATA_OUT, then COMPLETE), a transfer of a chosen page, a COMPLETE
//     with a chosen status, or one with a raw kind, cmd_id, page index or buffer; the doorbell
//     may be a raw RQ_TAIL,
//   4 wait (1 us to 128 us), 5 write a register, 6 write bytes into the SRAM, 7 read a register
//   or write ENABLE.
// After the script the firmware completes every command it holds (OK once every page moved,
// else ERROR) until nothing is left.
//
// Checked: no crash, sanitizer report or hang; the host sees data and completions only for the
// commands it submitted and has not seen completed, within their pages, each completion once,
// and nothing once the HIC reported an error; the run ends either with every command the HIC
// fetched completed and no error, or with exactly one report naming what was wrong. Unless the
// script wrote raw registers, ring indices, SRAM bytes or requests, the events describe the
// submitted commands in order and the transfers requested, a DATA_IN leaves the host's tag in
// its slot, a DATA_OUT hands the host the slot's tag, and each command completes with the
// status the firmware gave. With SSDVP_FUZZ_VERBOSE set, each input prints how it ended.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fuzz/firmware_bench.h"
#include "interface/data_tag.h"
#include "interface/hic_cmd.h"
#include "interface/hic_regs.h"
#include "tlm/host/hic.h"

// libsystemc refers to sc_main; libFuzzer's main() runs the harness instead.
extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) { return 1; }

namespace {

using ssdvp::fuzz::FirmwareBench;
using ssdvp::fuzz::Reader;
using ssdvp::fuzz::violated;
using ssdvp::host::HostCommand;
using ssdvp::host::HostOp;

constexpr uint64_t kUs = 1'000'000;
constexpr uint32_t kPageBytes = 2048;
constexpr uint32_t kSectorBytes = 512;
constexpr uint32_t kSectorsPerPage = kPageBytes / kSectorBytes;
constexpr uint32_t kLpns = 32;
constexpr uint32_t kSectors = kLpns * kSectorsPerPage;
constexpr uint32_t kMaxCommands = 4;

ssdvp::HostConfig small_host() {
  ssdvp::HostConfig config;
  config.capacity_bytes = uint64_t{kLpns} * kPageBytes;
  config.sector_bytes = kSectorBytes;
  config.page_bytes = kPageBytes;
  config.max_commands = kMaxCommands;
  config.link.type = static_cast<uint32_t>(ssdvp::HostLinkType::kPcie);
  config.link.pcie_gen = 3;
  config.link.lanes = 1;
  config.link.latency_ps = 100'000;
  return config;
}

// SRAM layout: the rings, then a 32-byte buffer slot per command slot and page.
constexpr uint32_t kEventArea = FirmwareBench::kSramBase;            // up to 64 x 32 B
constexpr uint32_t kRequestArea = FirmwareBench::kSramBase + 0x1000;  // up to 64 x 16 B
constexpr uint32_t kSlotArea = FirmwareBench::kSramBase + 0x2000;
constexpr uint32_t kSlotBytes = 32;
constexpr uint32_t kSramEnd = FirmwareBench::kSramBase + FirmwareBench::kSramBytes;

constexpr uint32_t kMaxSteps = 64;
constexpr uint64_t kPollPs = 10 * kUs;
constexpr uint64_t kDrainPs = 20'000 * kUs;

constexpr uint32_t kRegisters[16] = {
    HIC_ID,       HIC_LPN_COUNT,  HIC_EVQ_BASE,   HIC_EVQ_ENTRIES, HIC_EVQ_HEAD, HIC_EVQ_TAIL,
    HIC_RQ_BASE,  HIC_RQ_ENTRIES, HIC_RQ_TAIL,    HIC_RQ_HEAD,     HIC_IRQ_STATUS, HIC_IRQ_ENABLE,
    HIC_ENABLE,   HIC_EVQ_HEAD,   HIC_RQ_TAIL,    HIC_MAX_COMMANDS};

uint32_t slot_address(uint32_t cmd_id, uint32_t page) {
  return kSlotArea + ((cmd_id % kMaxCommands) * kLpns + page % kLpns) * kSlotBytes;
}

// The command event a host command becomes: its pages, and the partial flags of its ends.
hic_event_t expected_event(const HostCommand& command) {
  hic_event_t event{};
  event.kind = HIC_EVENT_COMMAND;
  event.op = command.op == HostOp::kRead    ? HIC_OP_READ
             : command.op == HostOp::kWrite ? HIC_OP_WRITE
             : command.op == HostOp::kTrim  ? HIC_OP_TRIM
                                            : HIC_OP_FLUSH;
  if (command.op == HostOp::kFlush) return event;
  const uint64_t end = command.first_sector + command.sector_count;
  event.lpn = static_cast<uint32_t>(command.first_sector / kSectorsPerPage);
  event.pages = static_cast<uint32_t>((end - 1) / kSectorsPerPage + 1 - event.lpn);
  event.first_sector = static_cast<uint16_t>(command.first_sector % kSectorsPerPage);
  event.end_sector = static_cast<uint16_t>(end % kSectorsPerPage);
  // A single page is partial at both ends when it is partial at all.
  const bool partial_first = event.first_sector != 0;
  const bool partial_last = event.end_sector != 0;
  const bool single = event.pages == 1;
  if (partial_first || (single && partial_last)) event.flags |= HIC_CMD_PARTIAL_FIRST;
  if (partial_last || (single && partial_first)) event.flags |= HIC_CMD_PARTIAL_LAST;
  return event;
}

class HicFuzzBench : public FirmwareBench, public ssdvp::host::HicHost {
 public:
  ssdvp::host::Hic hic;

  explicit HicFuzzBench(sc_core::sc_module_name name)
      : FirmwareBench(name), hic("hic", small_host(), nullptr), queue_(hic.add_queue()) {
    router.map("hic", MM_HIC_BASE, MM_PERIPH_WINDOW, hic.socket);
    hic.dma.bind(router.target_socket);
    hic.attach_host(*this);
    hic.connect_interrupt([this](bool level) {
      if (level) interrupt_.notify(sc_core::SC_ZERO_TIME);
    });
    hic.on_error([this](const std::string& message) { fw_.errors.push_back(message); });
  }

  void test(const uint8_t* data, size_t size) {
    hic.reset();
    fw_ = Firmware{};
    in_ = Reader(data, size);
    run([this] {
      for (uint32_t step = 0; step < kMaxSteps && !in_.empty(); ++step) play(in_.take(1));
      drain();
    });
    check_end();
  }

  // ---- The host ------------------------------------------------------------------------------

  data_tag_t write_data(uint32_t host_tag, uint32_t lpn) override {
    host_page(host_tag, lpn, HostOp::kWrite, "DATA_IN");
    return data_tag_t{lpn, 1000 + host_tag};
  }

  void read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) override {
    host_page(host_tag, lpn, HostOp::kRead, "DATA_OUT");
    if (!fw_.tainted && (tag.lpn != lpn || tag.version != 7000 + host_tag)) {
      violated(fmt::format("hic: DATA_OUT of command {} LPN {} brought tag ({}, {}), not the "
                           "slot's",
                           host_tag, lpn, tag.lpn, tag.version));
    }
  }

  void completed(uint32_t host_tag, uint8_t status) override {
    host_waits_for(host_tag, "a completion");
    if (status > HIC_STATUS_INVALID) {
      violated(fmt::format("hic: command {} completed with status {}", host_tag, status));
    }
    Submitted& command = fw_.submitted[host_tag];
    if (!fw_.tainted && status != command.status_given) {
      violated(fmt::format("hic: command {} completed with status {}; the firmware gave {}",
                           host_tag, status, command.status_given));
    }
    command.completed = true;
    ++fw_.completions;
  }

 private:
  struct Submitted {
    HostCommand command;
    bool completed = false;
    int status_given = -1;
  };
  // A command the firmware holds, as its event described it.
  struct Held {
    hic_event_t event{};
    uint32_t host_tag = UINT32_MAX;  // the submitted command it is (in fetch order)
    std::vector<bool> requested;     // per page: a transfer was requested
    std::vector<bool> moved;         // per page: its TRANSFER_DONE came
    uint32_t in_flight = 0;          // transfers requested and not done
  };
  // What the host and the firmware know and did; new for every input.
  struct Firmware {
    bool enabled = false;
    bool tainted = false;  // raw registers, ring indices, SRAM bytes or requests
    uint32_t event_base = 0, event_entries = 0, event_head = 0;
    uint32_t request_base = 0, request_entries = 0, request_tail = 0;
    uint32_t next_tag = 0;
    uint32_t fetched = 0;  // command events taken: the next is submitted[fetched]
    std::vector<Submitted> submitted;  // by host tag
    std::map<uint32_t, Held> held;     // by cmd_id
    // Commands completed by a request the HIC may not have served yet: a TRANSFER_DONE may
    // still come for them, until their slot's next command.
    std::map<uint32_t, Held> closing;
    std::vector<std::string> errors;
    uint32_t completions = 0;
    uint32_t requests = 0;
    bool settled = false;
  };

  // A host callback must concern a command the host submitted and has not seen completed;
  // nothing reaches the host once the HIC has reported an error.
  void host_waits_for(uint32_t host_tag, const char* what) {
    if (!fw_.errors.empty()) {
      violated(fmt::format("hic: {} of command {} after the error: {}", what, host_tag,
                           fw_.errors[0]));
    }
    if (host_tag >= fw_.submitted.size() || fw_.submitted[host_tag].completed) {
      violated(fmt::format("hic: {} of command {}, which the host does not wait for", what,
                           host_tag));
    }
  }

  // ... and data only for a page of that command, of the op that moves it that way.
  void host_page(uint32_t host_tag, uint32_t lpn, HostOp op, const char* what) {
    host_waits_for(host_tag, what);
    const HostCommand& command = fw_.submitted[host_tag].command;
    const hic_event_t event = expected_event(command);
    if (command.op != op || lpn < event.lpn || lpn - event.lpn >= event.pages) {
      violated(fmt::format("hic: {} of LPN {} for command {} (op {}, LPNs {} + {})", what, lpn,
                           host_tag, static_cast<int>(command.op), event.lpn, event.pages));
    }
  }

  uint32_t reg(uint32_t offset) { return read_word(MM_HIC_BASE + offset); }
  // Writes a register and follows what the write does to the rings.
  void set_reg(uint32_t offset, uint32_t value) {
    write_word(MM_HIC_BASE + offset, value);
    if (!fw_.errors.empty()) return;
    switch (offset) {
      case HIC_EVQ_BASE: fw_.event_base = value; break;
      case HIC_EVQ_ENTRIES: fw_.event_entries = value; break;
      case HIC_RQ_BASE: fw_.request_base = value; break;
      case HIC_RQ_ENTRIES: fw_.request_entries = value; break;
      case HIC_EVQ_HEAD: fw_.event_head = value; break;
      case HIC_RQ_TAIL: fw_.request_tail = value; break;
      case HIC_ENABLE: fw_.enabled = fw_.enabled || value == 1; break;
      default: break;
    }
  }

  void play(uint32_t step) {
    const uint32_t param = step >> 3;
    switch (step & 7) {
      case 0: start(param); break;
      case 1: host_submits(); break;
      case 2:
        if ((param & 1) != 0) wait_ps(kPollPs, interrupt_);
        take_events((param >> 1) == 15);
        break;
      case 3: post(param); break;
      case 4: wait_ps(kUs << (param & 7)); break;
      case 5: {
        const uint32_t offset = (param & 16) != 0 ? in_.take(1) : kRegisters[param & 15];
        fw_.tainted = true;
        set_reg(offset, in_.take(4));
        break;
      }
      case 6: {
        fw_.tainted = true;
        scribble(in_, 1 + param);
        break;
      }
      default:
        if ((param & 16) == 0) {
          reg(kRegisters[param & 15]);
        } else {
          fw_.tainted = true;
          set_reg(HIC_ENABLE, (param & 2) != 0 ? in_.take(4) : param & 1);
        }
        break;
    }
  }

  // Rings of 2, 4, 16 or 64 events and requests; an operand byte of 200 or more breaks the
  // layout.
  void start(uint32_t param) {
    static constexpr uint32_t kSizes[4] = {2, 4, 16, 64};
    uint32_t event_base = kEventArea, event_entries = kSizes[param & 3];
    uint32_t request_base = kRequestArea, request_entries = kSizes[(param >> 2) & 3];
    const uint32_t broken = in_.take(1);
    if (broken >= 200) {
      fw_.tainted = true;
      switch (broken % 6) {
        case 0: event_base += 16; break;  // not aligned to an event
        case 1: request_base = kSramEnd - 16; break;
        case 2: event_entries = broken % 2; break;
        case 3: request_entries = 12; break;
        case 4: event_base = 0xFFFFFFE0u; break;
        default: request_entries = 1u << 31; break;
      }
    }
    set_reg(HIC_EVQ_BASE, event_base);
    set_reg(HIC_EVQ_ENTRIES, event_entries);
    set_reg(HIC_RQ_BASE, request_base);
    set_reg(HIC_RQ_ENTRIES, request_entries);
    set_reg(HIC_IRQ_ENABLE, (param & 16) != 0 ? 0 : HIC_IRQ_EVENT);
    set_reg(HIC_ENABLE, 1);
  }

  void host_submits() {
    const uint32_t shape = in_.take(1);
    const uint32_t first = in_.take(1) % kSectors;
    HostCommand command;
    command.host_tag = fw_.next_tag++;
    command.op = static_cast<HostOp>(shape & 3);
    if (command.op != HostOp::kFlush) {
      const uint32_t longest = std::min(kSectorsPerPage * 12, kSectors - first);
      command.first_sector = first;
      command.sector_count = 1 + (shape >> 2) % longest;
    }
    fw_.submitted.push_back(Submitted{command});
    hic.submit(queue_, command);
  }

  // ---- Events --------------------------------------------------------------------------------

  void take_events(bool raw_head) {
    set_reg(HIC_IRQ_STATUS, HIC_IRQ_EVENT);
    const uint32_t tail = reg(HIC_EVQ_TAIL);
    if (!fw_.enabled || tail >= fw_.event_entries || !fw_.errors.empty()) return;
    while (fw_.event_head != tail) {
      hic_event_t event{};
      read_mem(fw_.event_base + fw_.event_head * HIC_EVENT_BYTES, &event, sizeof event);
      take(event);
      fw_.event_head = (fw_.event_head + 1) % fw_.event_entries;
    }
    if (raw_head) fw_.tainted = true;
    set_reg(HIC_EVQ_HEAD, raw_head ? in_.take(4) : fw_.event_head);
  }

  void take(const hic_event_t& event) {
    if (event.kind == HIC_EVENT_COMMAND) {
      Held held;
      held.event = event;
      if (fw_.tainted) {
        // SRAM writes may have changed the event: the firmware ignores what it cannot hold.
        if (event.cmd_id >= kMaxCommands || event.pages > kLpns) return;
      } else {
        if (event.cmd_id >= kMaxCommands) {
          violated(fmt::format("hic: a command event for cmd_id {} of {}", event.cmd_id,
                               kMaxCommands));
        }
        if (fw_.held.count(event.cmd_id) != 0) {
          violated(fmt::format("hic: cmd_id {} is given out twice", event.cmd_id));
        }
        if (fw_.fetched >= fw_.submitted.size()) {
          violated("hic: a command event without a command the host submitted");
        }
        const hic_event_t want = expected_event(fw_.submitted[fw_.fetched].command);
        if (event.op != want.op || event.lpn != want.lpn || event.pages != want.pages ||
            event.first_sector != want.first_sector || event.end_sector != want.end_sector ||
            event.flags != want.flags) {
          violated(fmt::format("hic: command event (op {}, LPN {} + {}, sectors {}..{}, flags "
                               "{}) for host command {} (op {}, LPN {} + {}, sectors {}..{}, "
                               "flags {})",
                               event.op, event.lpn, event.pages, event.first_sector,
                               event.end_sector, event.flags, fw_.fetched, want.op, want.lpn,
                               want.pages, want.first_sector, want.end_sector, want.flags));
        }
        held.host_tag = fw_.fetched;
      }
      held.requested.assign(event.pages, false);
      held.moved.assign(event.pages, false);
      fw_.closing.erase(event.cmd_id);
      ++fw_.fetched;
      fw_.held[event.cmd_id] = held;
      return;
    }
    Held* found = nullptr;
    for (std::map<uint32_t, Held>* commands : {&fw_.held, &fw_.closing}) {
      const auto it = commands->find(event.cmd_id);
      if (found == nullptr && it != commands->end()) found = &it->second;
    }
    if (fw_.tainted) {  // SRAM writes may have changed the event
      if (event.kind != HIC_EVENT_TRANSFER_DONE) return;
      if (found != nullptr && event.page_index < found->moved.size()) {
        found->moved[event.page_index] = true;
        if (found->in_flight != 0) --found->in_flight;
      }
      return;
    }
    if (event.kind != HIC_EVENT_TRANSFER_DONE) {
      violated(fmt::format("hic: an event of kind {}", event.kind));
    }
    if (found == nullptr || event.page_index >= found->event.pages ||
        !found->requested[event.page_index] || found->in_flight == 0) {
      violated(fmt::format("hic: TRANSFER_DONE of cmd_id {} page {}, which was not requested",
                           event.cmd_id, event.page_index));
    }
    Held& held = *found;
    if (event.buffer != slot_address(event.cmd_id, event.page_index) ||
        event.lpn != held.event.lpn + event.page_index) {
      violated(fmt::format("hic: TRANSFER_DONE of cmd_id {} page {} names LPN {} and buffer "
                           "{:#x}",
                           event.cmd_id, event.page_index, event.lpn, event.buffer));
    }
    if (held.event.op == HIC_OP_WRITE) {
      data_tag_t tag{};
      read_mem(event.buffer, &tag, sizeof tag);
      if (tag.lpn != event.lpn || tag.version != 1000 + held.host_tag) {
        violated(fmt::format("hic: DATA_IN of cmd_id {} page {} left ({}, {}) in its slot",
                             event.cmd_id, event.page_index, tag.lpn, tag.version));
      }
    }
    held.moved[event.page_index] = true;
    --held.in_flight;
  }

  // ---- Requests ------------------------------------------------------------------------------

  // Waits (a while at most) until the request ring has room for one more.
  void wait_for_room() {
    const uint32_t entries = fw_.request_entries;
    if (entries < 2 || (entries & (entries - 1)) != 0) return;
    for (int tries = 0; tries < 100 && fw_.errors.empty(); ++tries) {
      if (((fw_.request_tail - reg(HIC_RQ_HEAD)) & (entries - 1)) < entries - 1) return;
      wait_ps(kUs);
    }
  }

  void send(const hic_request_t& request, bool raw_tail) {
    wait_for_room();
    write_mem(fw_.request_base + fw_.request_tail * HIC_REQUEST_BYTES, &request, sizeof request);
    ++fw_.requests;
    uint32_t tail = fw_.request_entries == 0 ? 0 : (fw_.request_tail + 1) % fw_.request_entries;
    if (raw_tail) {
      fw_.tainted = true;
      tail = in_.take(4);
    }
    set_reg(HIC_RQ_TAIL, tail);
  }

  // A transfer of `page` of the command held as `cmd_id`; a DATA_OUT's slot holds its tag.
  hic_request_t transfer(uint32_t cmd_id, Held& held, uint32_t page) {
    hic_request_t request{};
    request.kind = held.event.op == HIC_OP_WRITE ? HIC_REQ_DATA_IN : HIC_REQ_DATA_OUT;
    request.cmd_id = cmd_id;
    request.page_index = page;
    request.buffer = slot_address(cmd_id, page);
    if (held.event.op == HIC_OP_READ) {
      const data_tag_t tag{held.event.lpn + page, 7000 + held.host_tag};
      write_mem(request.buffer, &tag, sizeof tag);
    }
    if (page < held.event.pages) {
      held.requested[page] = true;
      ++held.in_flight;
    }
    return request;
  }

  hic_request_t completion(uint32_t cmd_id, Held& held, uint8_t status) {
    hic_request_t request{};
    request.kind = HIC_REQ_COMPLETE;
    request.cmd_id = cmd_id;
    request.status = status;
    if (held.host_tag < fw_.submitted.size()) fw_.submitted[held.host_tag].status_given = status;
    return request;
  }

  std::map<uint32_t, Held>::iterator close(std::map<uint32_t, Held>::iterator held) {
    fw_.closing[held->first] = held->second;
    return fw_.held.erase(held);
  }

  bool moves_data(const Held& held) const {
    return held.event.op == HIC_OP_READ || held.event.op == HIC_OP_WRITE;
  }

  // The next request a firmware would make for the command: its first page not yet asked
  // for, or, with none in flight, COMPLETE (OK when every page moved, else ERROR).
  std::optional<hic_request_t> next_request(uint32_t cmd_id, Held& held) {
    if (moves_data(held)) {
      for (uint32_t page = 0; page < held.event.pages; ++page) {
        if (!held.requested[page]) return transfer(cmd_id, held, page);
      }
    }
    if (held.in_flight != 0) return std::nullopt;
    bool all_moved = true;
    for (const bool moved : held.moved) all_moved = all_moved && moved;
    return completion(cmd_id, held, !moves_data(held) || all_moved ? HIC_STATUS_OK
                                                                   : HIC_STATUS_ERROR);
  }

  void post(uint32_t param) {
    const uint32_t pick = in_.take(1);
    const uint32_t choice = in_.take(1);
    const bool raw_tail = (param >> 2) == 7;
    if (fw_.held.empty()) {
      // Nothing held: a request for a command slot the firmware knows nothing of (which may
      // hold a command whose event it has not taken).
      fw_.tainted = true;
      hic_request_t request{};
      request.kind = static_cast<uint8_t>(1 + choice % 3);
      request.cmd_id = pick % (2 * kMaxCommands);
      request.buffer = slot_address(request.cmd_id, 0);
      send(request, raw_tail);
      return;
    }
    auto it = fw_.held.begin();
    std::advance(it, pick % fw_.held.size());
    const uint32_t cmd_id = it->first;
    Held& held = it->second;
    std::optional<hic_request_t> request;
    switch (param & 3) {
      case 0:
      case 1: request = next_request(cmd_id, held); break;
      case 2:
        // A page up to one beyond the command, or a status up to one beyond the known ones.
        if ((choice & 1) != 0) {
          request = transfer(cmd_id, held, (choice >> 1) % (held.event.pages + 1));
        } else {
          request = completion(cmd_id, held, static_cast<uint8_t>((choice >> 1) % 4));
        }
        break;
      default: {
        // A transfer of page 0 with one raw field, which the firmware does not count on.
        const uint32_t raw = in_.take(4);
        fw_.tainted = true;
        Held copy = held;
        request = transfer(cmd_id, copy, 0);
        switch (choice & 3) {
          case 0: request->kind = static_cast<uint8_t>(raw); break;
          case 1: request->cmd_id = raw; break;
          case 2: request->page_index = raw; break;
          default:
            request->buffer = (raw & 1) != 0 ? raw : MM_HIC_BASE + ((raw >> 1) & 0x7C);
            break;
        }
        break;
      }
    }
    if (!request) return;
    send(*request, raw_tail);
    if (request->kind == HIC_REQ_COMPLETE && request->cmd_id == cmd_id) close(it);
  }

  // ---- The end -------------------------------------------------------------------------------

  bool settled() {
    if (!fw_.errors.empty() || !hic.enabled()) return true;
    if (!fw_.held.empty()) return false;
    for (const Submitted& command : fw_.submitted) {
      if (!command.completed) return false;
    }
    return reg(HIC_RQ_HEAD) == fw_.request_tail && reg(HIC_EVQ_TAIL) == fw_.event_head;
  }

  // The firmware takes events and completes every command it holds until nothing is left.
  // After raw writes its view may be wrong (a transfer it waits for never started, a cmd_id it
  // never learnt): once nothing moves for kStuckPolls, it completes every command slot with
  // ERROR, which either completes what is held or stops the HIC on a slot without a command.
  void drain() {
    constexpr uint32_t kStuckPolls = 30;
    const uint64_t deadline = now_ps() + kDrainPs;
    uint32_t idle_polls = 0;
    while (!settled() && now_ps() < deadline) {
      take_events(false);
      if (fw_.tainted && idle_polls >= kStuckPolls) {
        for (uint32_t cmd_id = 0; cmd_id < kMaxCommands && fw_.errors.empty(); ++cmd_id) {
          hic_request_t request{};
          request.kind = HIC_REQ_COMPLETE;
          request.cmd_id = cmd_id;
          request.status = HIC_STATUS_ERROR;
          send(request, false);
        }
        fw_.held.clear();
        idle_polls = 0;
      }
      bool sent = false;
      for (auto it = fw_.held.begin(); it != fw_.held.end() && fw_.errors.empty();) {
        const uint32_t cmd_id = it->first;
        const std::optional<hic_request_t> request = next_request(cmd_id, it->second);
        if (!request) {
          ++it;
          continue;
        }
        send(*request, false);
        sent = true;
        it = request->kind == HIC_REQ_COMPLETE ? close(it) : std::next(it);
      }
      if (!sent) {
        wait_ps(kPollPs, interrupt_);
        ++idle_polls;
      } else {
        idle_polls = 0;
      }
    }
    fw_.settled = settled();
  }

  void check_end() {
    const std::vector<std::string>& errors = fw_.errors;
    if (std::getenv("SSDVP_FUZZ_VERBOSE") != nullptr) {
      std::fprintf(stderr, "hic: %zu command(s), %u fetched, %u request(s), %u completion(s)%s; "
                   "%s\n",
                   fw_.submitted.size(), fw_.fetched, fw_.requests, fw_.completions,
                   fw_.tainted ? " (raw writes)" : "",
                   errors.empty() ? "no error" : errors[0].c_str());
    }
    if (errors.size() > 1) {
      violated(fmt::format("hic: {} error reports; the first: {}", errors.size(), errors[0]));
    }
    if (errors.empty()) {
      if (!fw_.settled) {
        violated(fmt::format("hic: hang: not settled after the drain ({} command(s) held)",
                             fw_.held.size()));
      }
      return;
    }
    const std::string prefix = fmt::format("{}: ", hic.name());
    const std::string& error = errors[0];
    if (error.compare(0, prefix.size(), prefix) != 0 || error.size() <= prefix.size() + 8) {
      violated("hic: an error report without its source or message: '" + error + "'");
    }
  }

  Reader in_;
  Firmware fw_;
  unsigned queue_;
  sc_core::sc_event interrupt_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static HicFuzzBench* bench = [] {
    ssdvp::fuzz::prepare_systemc();
    return new HicFuzzBench("bench");
  }();
  bench->test(data, size);
  return 0;
}
