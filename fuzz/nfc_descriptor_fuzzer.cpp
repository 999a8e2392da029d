// The NAND flash controller (tlm/nfc) driven by a misbehaving firmware: random register values,
// descriptors, io lists and buffers. The NFC sits on a bench of its own (firmware_bench.h) with
// a tiny array: 2 channels x 1 way x 2 dies x 2 planes x 4 blocks x 6 pages (2 TLC wordlines)
// of 256 + 16 bytes, endurance 3, one factory bad block and a few percent of injected ECC,
// program and erase failures. Each input is reset to power-on (Nfc::reset) and is a script of
// steps, each a byte (kind in the low 3 bits, a parameter above) and its operands:
//   0 start the rings (sizes from the parameter; an operand byte may make them invalid),
//   1 submit 1-4 descriptors and ring the doorbell (or write a raw SQ_TAIL),
//   2 collect completions (and give them back with CQ_HEAD, or a raw one),
//   3 wait (1 us to 128 us), 4 write a register, 5 write bytes into the SRAM, 6 read a register,
//   7 write ENABLE.
// A descriptor is 3 bytes (operation and plane count, die/plane/block/page, io entries) and,
// for 6 of 16 kinds, 4 more mutating one field (ppn, io_list, a buffer, an OOB pointer,
// meta_bytes, op and plane_count). Without a mutation it is valid: a program targets the next
// wordline of its block on a shadow of the array (a full block is erased instead).
// After the script the firmware takes completions until every descriptor handed over has
// completed.
//
// Checked: no crash, sanitizer report or hang; every completion has a known status; the run
// ends either with nothing outstanding and no error, or with the NFC stopped and exactly one
// report that names what was wrong, after which no completion becomes visible. Unless the
// script wrote raw registers, SQ_TAIL or CQ_HEAD values, SRAM bytes, or pointed a buffer at the
// registers or at a random address, every completion is of a submitted id, once, within its
// plane count, and without an error every submitted id completes. With SSDVP_FUZZ_VERBOSE set,
// each input prints how it ended.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fuzz/firmware_bench.h"
#include "interface/data_tag.h"
#include "interface/nfc_desc.h"
#include "interface/nfc_regs.h"
#include "tlm/nfc/nfc.h"

// libsystemc refers to sc_main; libFuzzer's main() runs the harness instead.
extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) { return 1; }

namespace {

using ssdvp::fuzz::FirmwareBench;
using ssdvp::fuzz::Reader;
using ssdvp::fuzz::violated;

constexpr uint64_t kUs = 1'000'000;

ssdvp::NandConfig tiny_nand() {
  ssdvp::NandConfig config;
  config.channels = 2;
  config.ways = 1;
  config.dies = 2;
  config.planes = 2;
  config.blocks = 4;
  config.pages = 6;
  config.page_bytes = 256;
  config.oob_bytes = 16;
  config.cell = static_cast<uint32_t>(ssdvp::NandCell::kTlc);
  config.read_lsb_ps = 2 * kUs;
  config.read_clsb_ps = 3 * kUs;
  config.read_cmsb_ps = 4 * kUs;
  config.read_msb_ps = 5 * kUs;
  config.program_ps = 10 * kUs;
  config.erase_ps = 20 * kUs;
  config.bus_rate_mts = 400;
  config.endurance = 3;
  config.bad_blocks = "1:0:0:1:2";
  config.ecc_fail_ppm = 30'000;
  config.program_fail_ppm = 10'000;
  config.erase_fail_ppm = 10'000;
  return config;
}

ssdvp::NfcConfig fuzz_nfc() {
  ssdvp::NfcConfig config;
  config.ecc_decode_ps = kUs / 2;
  config.dma_bandwidth_mbs = 1000;
  config.queue_sample_ps = 0;
  return config;
}

// SRAM layout: rings, io lists, spare buffers, page slots.
constexpr uint32_t kSqArea = FirmwareBench::kSramBase;             // up to 64 x 32 B
constexpr uint32_t kCqArea = FirmwareBench::kSramBase + 0x1000;    // up to 64 x 16 B
constexpr uint32_t kIoArea = FirmwareBench::kSramBase + 0x2000;    // io lists, 0x80 apart
constexpr uint32_t kIoLists = 64;
constexpr uint32_t kOobArea = FirmwareBench::kSramBase + 0x4000;   // 16 B each
constexpr uint32_t kOobs = 64;
constexpr uint32_t kSlotArea = FirmwareBench::kSramBase + 0x8000;  // 256 B each
constexpr uint32_t kSlots = 48;
constexpr uint32_t kSramEnd = FirmwareBench::kSramBase + FirmwareBench::kSramBytes;

constexpr uint32_t kMaxSteps = 64;
constexpr uint64_t kPollPs = 10 * kUs;
constexpr uint64_t kDrainPs = 50'000 * kUs;

// Registers a raw access picks from (index by 4 bits).
constexpr uint32_t kRegisters[16] = {
    NFC_ID,         NFC_PAGES,      NFC_SQ_BASE,    NFC_SQ_ENTRIES, NFC_SQ_TAIL,    NFC_SQ_HEAD,
    NFC_CQ_BASE,    NFC_CQ_ENTRIES, NFC_CQ_HEAD,    NFC_CQ_TAIL,    NFC_IRQ_STATUS, NFC_IRQ_ENABLE,
    NFC_ENABLE,     NFC_SQ_TAIL,    NFC_CQ_HEAD,    NFC_ENABLE};

enum Mutation : uint32_t {
  kRawPpn = 10, kRawIoList, kRawBuffer, kRawOob, kMetaBytes, kRawOpAndPlanes
};

class NfcFuzzBench : public FirmwareBench {
 public:
  ssdvp::Nfc nfc;

  explicit NfcFuzzBench(sc_core::sc_module_name name)
      : FirmwareBench(name), nfc("nfc", tiny_nand(), fuzz_nfc(), 1, nullptr) {
    router.map("nfc", MM_NFC_BASE, MM_PERIPH_WINDOW, nfc.socket);
    nfc.dma_socket.bind(router.target_socket);
    nfc.on_interrupt([this](bool level) {
      if (level) interrupt_.notify(sc_core::SC_ZERO_TIME);
    });
    nfc.on_error([this](const std::string& message) {
      fw_.errors.push_back(message);
      fw_.visible_at_error = visible_completions();
      interrupt_.notify(sc_core::SC_ZERO_TIME);
    });
  }

  void test(const uint8_t* data, size_t size) {
    nfc.reset();
    fw_ = Firmware{};
    fw_.next_page.assign(geometry().block_count(), 0);
    in_ = Reader(data, size);
    run([this] {
      for (uint32_t step = 0; step < kMaxSteps && !in_.empty(); ++step) play(in_.take(1));
      drain();
    });
    check_end();
  }

 private:
  // What the firmware knows and did; new for every input.
  struct Firmware {
    bool enabled = false;
    bool tainted = false;  // raw registers, ring indices, SRAM bytes or wild DMA addresses
    uint32_t sq_base = 0, sq_entries = 0, sq_tail = 0;
    uint32_t cq_base = 0, cq_entries = 0, cq_head = 0;
    uint32_t next_id = 1, next_list = 0, next_oob = 0, next_slot = 0;
    std::vector<uint32_t> next_page;     // per block: the shadow of its next page to program
    std::map<uint32_t, uint32_t> pending;  // submitted ids not completed: their plane count
    std::vector<std::string> errors;     // the NFC's reports
    uint64_t visible_at_error = 0;
    uint32_t completions = 0;  // taken by the firmware
    bool settled = false;
  };

  const ssdvp::nand::Geometry& geometry() const { return nfc.nand().geometry(); }

  // Completions made visible so far (the statistics count each as its tail advances).
  uint64_t visible_completions() const {
    nlohmann::json nand, unused;
    nfc.report(nand, unused, now_ps());
    uint64_t count = 0;
    for (const auto& [kind, figures] : nand["operations"].items()) {
      count += figures["count"].get<uint64_t>();
    }
    return count;
  }

  uint32_t reg(uint32_t offset) { return read_word(MM_NFC_BASE + offset); }
  // Writes a register and follows what the write does to the rings.
  void set_reg(uint32_t offset, uint32_t value) {
    write_word(MM_NFC_BASE + offset, value);
    if (nfc.stopped()) return;
    switch (offset) {
      case NFC_SQ_BASE: fw_.sq_base = value; break;
      case NFC_SQ_ENTRIES: fw_.sq_entries = value; break;
      case NFC_CQ_BASE: fw_.cq_base = value; break;
      case NFC_CQ_ENTRIES: fw_.cq_entries = value; break;
      case NFC_SQ_TAIL: fw_.sq_tail = value; break;
      case NFC_CQ_HEAD: fw_.cq_head = value; break;
      case NFC_ENABLE:
        if ((value & 1) != 0 && !fw_.enabled) fw_.sq_tail = fw_.cq_head = 0;
        fw_.enabled = (value & 1) != 0;
        break;
      default: break;
    }
  }

  void play(uint32_t step) {
    const uint32_t param = step >> 3;
    switch (step & 7) {
      case 0: start(param); break;
      case 1: submit(param); break;
      case 2: collect(param); break;
      case 3: wait_ps(kUs << (param & 7)); break;
      case 4: {
        const uint32_t offset = (param & 16) != 0 ? in_.take(1) : kRegisters[param & 15];
        fw_.tainted = true;
        set_reg(offset, in_.take(4));
        break;
      }
      case 5: {
        fw_.tainted = true;
        scribble(in_, 1 + param);
        break;
      }
      case 6: reg(kRegisters[param & 15]); break;
      default:
        fw_.tainted = true;
        set_reg(NFC_ENABLE, (param & 2) != 0 ? in_.take(4) : param & 1);
        break;
    }
  }

  // Rings of 4, 8, 16 or 64 descriptors and 2, 4, 16 or 64 completions; an operand byte of
  // 200 or more breaks the layout.
  void start(uint32_t param) {
    static constexpr uint32_t kSqSizes[4] = {4, 8, 16, 64};
    static constexpr uint32_t kCqSizes[4] = {2, 4, 16, 64};
    uint32_t sq_base = kSqArea, sq_entries = kSqSizes[param & 3];
    uint32_t cq_base = kCqArea, cq_entries = kCqSizes[(param >> 2) & 3];
    const uint32_t broken = in_.take(1);
    if (broken >= 200) {
      fw_.tainted = true;
      switch (broken % 6) {
        case 0: sq_base += 2; break;
        case 1: cq_base = kSramEnd - 8; break;  // runs past the SRAM
        case 2: sq_entries = broken % 3; break;
        case 3: cq_entries = 48; break;
        case 4: sq_base = 0xFFFFFF00u; break;
        default: cq_entries = 1u << 31; break;
      }
    }
    set_reg(NFC_SQ_BASE, sq_base);
    set_reg(NFC_SQ_ENTRIES, sq_entries);
    set_reg(NFC_CQ_BASE, cq_base);
    set_reg(NFC_CQ_ENTRIES, cq_entries);
    set_reg(NFC_IRQ_ENABLE, (param & 16) != 0 ? 0 : NFC_IRQ_COMPLETION);
    set_reg(NFC_ENABLE, 1);
  }

  bool ring_has_room(uint32_t tail) {
    const uint32_t entries = fw_.sq_entries;
    if (entries == 0 || (entries & (entries - 1)) != 0) return true;
    return ((tail - reg(NFC_SQ_HEAD)) & (entries - 1)) < entries - 1;
  }

  void submit(uint32_t param) {
    const uint32_t count = 1 + (param & 3);
    uint32_t tail = fw_.sq_tail;
    for (uint32_t i = 0; i < count; ++i) {
      if (!ring_has_room(tail)) {
        // Hands over what is written, then waits (a while at most) for a free entry.
        set_reg(NFC_SQ_TAIL, tail);
        for (int tries = 0; tries < 100 && !ring_has_room(tail) && !nfc.stopped(); ++tries) {
          wait_ps(kUs);
        }
      }
      const nfc_desc_t desc = descriptor();
      write_mem(fw_.sq_base + tail * NFC_DESC_BYTES, &desc, sizeof desc);
      fw_.pending[desc.id] = desc.plane_count;
      tail = fw_.sq_entries == 0 ? 0 : (tail + 1) % fw_.sq_entries;
    }
    if (param >> 2 == 7) {
      fw_.tainted = true;
      tail = in_.take(4);
    }
    set_reg(NFC_SQ_TAIL, tail);
  }

  uint32_t ppn(uint32_t die, uint32_t plane, uint32_t block, uint32_t page) const {
    const ssdvp::nand::Geometry& g = geometry();
    const uint32_t per_channel = g.dies_per_channel();
    return g.ppn(nand_address_t{die / per_channel, die % per_channel / g.dies_per_chip(),
                                die % g.dies_per_chip(), plane, block, page});
  }

  // An address a mutated pointer takes: 0, past the end of the SRAM, the NFC's own registers
  // or anywhere. The last two may change what the firmware knows.
  uint32_t wild_address(uint32_t raw) {
    switch (raw & 3) {
      case 0: return 0;
      case 1: return kSramEnd - 4 * (1 + (raw >> 2) % 4);
      case 2: fw_.tainted = true; return MM_NFC_BASE + ((raw >> 2) & 0x7C);
      default: fw_.tainted = true; return raw;
    }
  }

  nfc_desc_t descriptor() {
    const ssdvp::nand::Geometry& g = geometry();
    const uint32_t kind = in_.take(1);
    const uint32_t where = in_.take(1);
    const uint32_t flags = in_.take(1);
    const uint32_t mutation = kind >> 4;
    const uint32_t raw = mutation >= kRawPpn ? in_.take(4) : 0;

    const uint32_t bits = g.bits_per_cell();
    uint8_t op = (kind & 3) == 0 ? NFC_OP_READ : (kind & 3) == 2 ? NFC_OP_ERASE : NFC_OP_PROGRAM;
    const uint32_t planes = ((kind >> 2) & 3) == 3 ? 2 : 1;
    const uint32_t die = where % g.die_count();
    const uint32_t block = (where >> 2) % g.blocks_per_plane();
    const uint32_t plane = planes == 2 ? 0 : (where >> 4) & 1;
    const uint32_t first = ppn(die, plane, block, 0);
    uint32_t page = (where >> 5) % g.pages_per_block();
    if (op == NFC_OP_PROGRAM) {
      const uint32_t next = fw_.next_page[g.block_index(first)];
      if (next >= g.pages_per_block()) op = NFC_OP_ERASE;  // a full block is erased first
      page = op == NFC_OP_PROGRAM ? next : 0;
    }
    nfc_desc_t desc{};
    desc.op = op;
    desc.plane_count = static_cast<uint8_t>(planes);
    desc.id = fw_.next_id++;
    desc.ppn = first + page;

    // Io entries: a data slot (always for a program), an OOB buffer, metadata instead of a tag.
    const uint32_t entries = op == NFC_OP_READ ? planes : op == NFC_OP_PROGRAM ? planes * bits : 0;
    std::vector<nfc_io_t> io(entries);
    const uint32_t meta_bytes = 16u << ((flags >> 3) & 3);
    for (uint32_t i = 0; i < entries; ++i) {
      nfc_io_t& entry = io[i];
      const uint32_t slot = kSlotArea + (fw_.next_slot++ % kSlots) * g.page_bytes();
      const bool meta = (flags & 4) != 0 && (op == NFC_OP_READ || i % 2 == 1);
      if (op == NFC_OP_PROGRAM || (flags & 1) != 0) {
        entry.buffer = slot;
        entry.meta_bytes = meta ? meta_bytes : 0;
      }
      if ((flags & 2) != 0) entry.oob = kOobArea + (fw_.next_oob++ % kOobs) * g.oob_bytes();
      if (op != NFC_OP_PROGRAM) continue;
      if (meta) {
        std::vector<uint8_t> bytes(meta_bytes);
        for (uint32_t b = 0; b < meta_bytes; ++b) bytes[b] = static_cast<uint8_t>(desc.id + b);
        write_mem(slot, bytes.data(), meta_bytes);
      } else {
        const data_tag_t tag{desc.ppn + i, desc.id};
        write_mem(slot, &tag, sizeof tag);
      }
      if (entry.oob != 0) {
        const std::vector<uint8_t> spare(g.oob_bytes(), static_cast<uint8_t>(desc.id));
        write_mem(entry.oob, spare.data(), g.oob_bytes());
      }
    }
    if (entries != 0) desc.io_list = kIoArea + (fw_.next_list++ % kIoLists) * 0x80;
    nfc_io_t* target = entries == 0 ? nullptr : &io[raw % entries];
    switch (mutation) {
      case kRawPpn: desc.ppn = (raw & 1) != 0 ? raw : raw % (2 * g.page_count()); break;
      case kRawIoList:
        desc.io_list = (raw & 4) != 0 ? wild_address(raw) : kIoArea + (raw >> 3) % 0x800;
        break;
      case kRawBuffer:
        if (target == nullptr) break;
        target->buffer = wild_address(raw >> 8);
        if ((raw & 0x400) != 0) target->meta_bytes = 4;  // a register-sized transfer
        break;
      case kRawOob:
        if (target != nullptr) target->oob = wild_address(raw >> 8);
        break;
      case kMetaBytes:
        if (target == nullptr) break;
        target->meta_bytes = g.page_bytes() - 1 + (raw >> 8) % 3;
        if (target->buffer == 0) target->buffer = kSlotArea;
        break;
      case kRawOpAndPlanes:
        desc.op = static_cast<uint8_t>((raw & 1) != 0 ? raw >> 8 : 1 + (raw >> 8) % 3);
        desc.plane_count = static_cast<uint8_t>(raw >> 16);
        break;
      default: break;
    }
    if (entries != 0) write_mem(desc.io_list, io.data(), entries * NFC_IO_BYTES);
    // The shadow follows the operations that keep their target.
    if (mutation != kRawPpn && mutation != kRawOpAndPlanes) {
      for (uint32_t p = 0; p < planes; ++p) {
        uint32_t& next = fw_.next_page[g.block_index(g.ppn_on_plane(first, p))];
        if (op == NFC_OP_PROGRAM) next += bits;
        if (op == NFC_OP_ERASE) next = 0;
      }
    }
    return desc;
  }

  // Takes the completions posted so far and gives them back (CQ_HEAD, or a raw value); false
  // when there were none.
  bool take_completions(bool raw_head) {
    const uint32_t tail = reg(NFC_CQ_TAIL);
    if (!fw_.enabled || tail == fw_.cq_head || tail >= fw_.cq_entries) return false;
    while (fw_.cq_head != tail) {
      nfc_completion_t completion{};
      read_mem(fw_.cq_base + fw_.cq_head * NFC_COMPLETION_BYTES, &completion, sizeof completion);
      check(completion);
      fw_.cq_head = (fw_.cq_head + 1) % fw_.cq_entries;
    }
    if (raw_head) fw_.tainted = true;
    set_reg(NFC_CQ_HEAD, raw_head ? in_.take(4) : fw_.cq_head);
    return true;
  }

  // Up to 1-8 waits for completions; a raw CQ_HEAD ends it.
  void collect(uint32_t param) {
    const bool raw_head = param >> 3 == 3;
    for (uint32_t waits = 0; waits <= (param & 7);) {
      set_reg(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
      if (take_completions(raw_head)) {
        if (raw_head) return;
      } else {
        wait_ps(kPollPs, interrupt_);
        ++waits;
      }
    }
  }

  // Every descriptor handed over is fetched and completed, and every completion taken.
  bool settled() {
    if (nfc.stopped()) return true;
    if (nfc.outstanding() != 0) return false;
    return !fw_.enabled || (reg(NFC_SQ_HEAD) == fw_.sq_tail && reg(NFC_CQ_TAIL) == fw_.cq_head);
  }

  // The firmware takes completions until the NFC has settled.
  void drain() {
    const uint64_t deadline = now_ps() + kDrainPs;
    while (!settled() && now_ps() < deadline) {
      set_reg(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
      if (!take_completions(false)) wait_ps(kPollPs, interrupt_);
    }
    fw_.settled = settled();
  }

  void check(const nfc_completion_t& completion) {
    ++fw_.completions;
    if (completion.status > NFC_STATUS_BAD_BLOCK) {
      violated(fmt::format("nfc: completion of id {} with status {}", completion.id,
                           completion.status));
    }
    if (fw_.tainted) return;
    const auto found = fw_.pending.find(completion.id);
    if (found == fw_.pending.end()) {
      violated(fmt::format("nfc: a completion of id {}, which is not outstanding", completion.id));
    }
    if (found->second < 16 && completion.plane_mask >> found->second != 0) {
      violated(fmt::format("nfc: completion of id {} has plane mask {:#x} for {} plane(s)",
                           completion.id, completion.plane_mask, found->second));
    }
    fw_.pending.erase(found);
  }

  void check_end() {
    const std::vector<std::string>& errors = fw_.errors;
    if (std::getenv("SSDVP_FUZZ_VERBOSE") != nullptr) {
      std::fprintf(stderr, "nfc: %u descriptor(s), %u completion(s) taken%s; %s\n",
                   fw_.next_id - 1, fw_.completions, fw_.tainted ? " (raw writes)" : "",
                   errors.empty() ? "no error" : errors[0].c_str());
    }
    if (errors.size() > 1) {
      violated(fmt::format("nfc: {} error reports; the first: {}", errors.size(), errors[0]));
    }
    if (errors.empty()) {
      if (nfc.stopped()) violated("nfc: stopped without an error report");
      if (!fw_.settled) {
        violated(fmt::format("nfc: hang: not settled after the drain ({} operation(s) "
                             "outstanding)",
                             nfc.outstanding()));
      }
      if (!fw_.tainted && !fw_.pending.empty()) {
        violated(fmt::format("nfc: id {} was submitted and never completed",
                             fw_.pending.begin()->first));
      }
      return;
    }
    const std::string prefix = fmt::format("nfc {}: ", nfc.name());
    const std::string& error = errors[0];
    if (!nfc.stopped()) violated("nfc: an error report, but the NFC runs on: " + error);
    if (error.compare(0, prefix.size(), prefix) != 0 || error.size() <= prefix.size() + 8) {
      violated("nfc: an error report without its source or message: '" + error + "'");
    }
    if (visible_completions() != fw_.visible_at_error) {
      violated("nfc: completions became visible after the error: " + error);
    }
  }

  Reader in_;
  Firmware fw_;
  sc_core::sc_event interrupt_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static NfcFuzzBench* bench = [] {
    ssdvp::fuzz::prepare_systemc();
    return new NfcFuzzBench("bench");
  }();
  bench->test(data, size);
  return 0;
}
