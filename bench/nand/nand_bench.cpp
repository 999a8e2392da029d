// nand_bench: how fast the NAND flash controller model simulates, and how much host memory the
// flash array's contents take. A 1 TiB QLC array (the RL-FSP paper's device: 8 channels x 2
// chips x 2 planes x 4096 blocks x 1024 pages of 8 KiB) sits behind the NFC; a driver thread
// plays the firmware through the NFC's rings in a memory:
// 1. programs `--pages` pages (two-plane full-sequence programs of user tags with `--oob-bytes`
//    spare bytes each, every die in turn), at queue depth `--program-depth`;
// 2. reads `--reads` pages chosen at random among them, at queue depth `--read-depth`, and
//    checks every tag read.
// It prints, as "nand_bench <figure> <value>" lines: simulated operations per wall second of
// each phase, the array's storage accounting per programmed page, and the process's resident
// and peak host memory after programming.
#define SC_INCLUDE_DYNAMIC_PROCESSES

#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "interface/data_tag.h"
#include "interface/memory_map.h"
#include "interface/nfc_desc.h"
#include "interface/nfc_regs.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"
#include "tlm/nfc/nfc.h"
#include "tlm/system/sim_time.h"

namespace {

using namespace ssdvp;

struct Options {
  uint64_t pages = 10'000'000;
  uint64_t reads = 2'000'000;
  uint32_t program_depth = 128;
  uint32_t read_depth = 256;
  uint32_t oob_bytes = 16;
  uint64_t seed = 1;
};

constexpr uint32_t kRingEntries = 4096;
constexpr uint64_t kMemoryBytes = 256ull << 20;
constexpr uint32_t kSqBase = MM_SRAM_BASE;
constexpr uint32_t kCqBase = kSqBase + kRingEntries * NFC_DESC_BYTES;
constexpr uint32_t kIoBase = kCqBase + kRingEntries * NFC_COMPLETION_BYTES;
constexpr uint32_t kPlanesPerProgram = 2;

NandConfig paper_device(uint32_t oob_bytes) {
  NandConfig config;  // timing defaults: the paper's
  config.channels = 8;
  config.ways = 2;
  config.dies = 1;
  config.planes = 2;
  config.blocks = 4096;
  config.pages = 1024;
  config.page_bytes = 8192;
  config.oob_bytes = oob_bytes;
  return config;
}

// A "Vm...:" line of /proc/self/status (kB) in bytes: VmRSS resident now, VmHWM its peak.
uint64_t status_bytes(const char* field) {
  std::ifstream status("/proc/self/status");
  const std::string prefix = std::string(field) + ":";
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stoull(line.substr(prefix.size())) * 1024;
  }
  return 0;
}

uint64_t resident_bytes() { return status_bytes("VmRSS"); }
uint64_t peak_resident_bytes() { return status_bytes("VmHWM"); }

void figure(const char* name, double value) { fmt::print("nand_bench {} {:.6g}\n", name, value); }

class Driver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Driver> socket;

  Driver(sc_core::sc_module_name name, Nfc& nfc, const Options& options)
      : sc_core::sc_module(name), socket("socket"), nfc_(nfc), options_(options) {
    nfc_.on_interrupt([this](bool level) {
      if (level) interrupt_.notify();
    });
    nfc_.on_error([](const std::string& message) {
      throw std::runtime_error(message);
    });
    sc_core::sc_spawn([this] { run(); }, "driver");
  }

  bool failed = false;

 private:
  // One outstanding operation's memory: its io list, data slots and spare buffers.
  struct Slot {
    uint32_t io_list;
    uint32_t first_buffer;
  };

  void run() {
    map_memory();
    const nand::Geometry& g = nfc_.nand().geometry();
    write_reg(NFC_SQ_BASE, kSqBase);
    write_reg(NFC_SQ_ENTRIES, kRingEntries);
    write_reg(NFC_CQ_BASE, kCqBase);
    write_reg(NFC_CQ_ENTRIES, kRingEntries);
    write_reg(NFC_IRQ_ENABLE, NFC_IRQ_COMPLETION);
    write_reg(NFC_ENABLE, 1);

    // Programs: wordline w of block pair b of die d is program number (b * W + w) * D + d, so
    // every die works; pages are numbered in program order.
    const uint32_t bits = g.bits_per_cell();
    const uint64_t pages_per_program = uint64_t{kPlanesPerProgram} * bits;
    const uint64_t programs = (options_.pages + pages_per_program - 1) / pages_per_program;
    const uint64_t wordlines = g.wordlines_per_block();
    const uint64_t dies = g.die_count();
    if (programs > dies * wordlines * g.blocks_per_plane()) {
      throw std::runtime_error("--pages exceeds what the array holds");
    }
    programmed_pages_ = programs * pages_per_program;
    const auto program_ppn = [&](uint64_t index) {
      const uint32_t die = static_cast<uint32_t>(index % dies);
      const uint64_t on_die = index / dies;
      const nand_address_t a{die / g.dies_per_channel(),
                             die % g.dies_per_channel() / g.dies_per_chip(), die % g.dies_per_chip(),
                             0,
                             static_cast<uint32_t>(on_die / wordlines),
                             static_cast<uint32_t>(on_die % wordlines * bits)};
      return g.ppn(a);
    };
    page_ppn_.resize(programmed_pages_);
    for (uint64_t index = 0; index < programs; ++index) {
      const uint32_t first = program_ppn(index);
      for (uint32_t plane = 0; plane < kPlanesPerProgram; ++plane) {
        for (uint32_t page = 0; page < bits; ++page) {
          page_ppn_[index * pages_per_program + plane * bits + page] =
              g.ppn_on_plane(first, plane) + page;
        }
      }
    }

    auto start = std::chrono::steady_clock::now();
    double cpu_start = cpu_seconds();
    uint64_t sim_start = to_ps(sc_core::sc_time_stamp());
    run_phase(options_.program_depth, programs, static_cast<uint32_t>(pages_per_program),
              [&](uint64_t index, const Slot& slot) {
                for (uint64_t i = 0; i < pages_per_program; ++i) {
                  const uint64_t page = index * pages_per_program + i;
                  const data_tag_t tag{static_cast<uint32_t>(page), 1};
                  std::memcpy(host(slot.first_buffer) + i * g.page_bytes(), &tag, sizeof(tag));
                  uint8_t* spare = host(spare_of(slot, i));
                  std::memset(spare, 0, g.oob_bytes());
                  std::memcpy(spare, &tag.lpn, std::min<uint32_t>(4, g.oob_bytes()));
                }
                return make(NFC_OP_PROGRAM, index, program_ppn(index), kPlanesPerProgram, slot);
              },
              [&](const nfc_completion_t& done, const Slot&) {
                if (done.status != NFC_STATUS_OK) report_failure("program", done.id, done.status);
              });
    double wall = seconds_since(start);
    double cpu = cpu_seconds() - cpu_start;
    const double sim_seconds = (to_ps(sc_core::sc_time_stamp()) - sim_start) * 1e-12;
    const nand::NandArray& array = nfc_.nand();
    figure("programmed_pages", static_cast<double>(array.programmed_page_count()));
    figure("program_ops", static_cast<double>(programs));
    figure("program_wall_seconds", wall);
    figure("program_simulated_seconds", sim_seconds);
    figure("program_ops_per_wall_second", programs / wall);
    figure("program_ops_per_cpu_second", programs / cpu);
    figure("storage_bytes", static_cast<double>(array.page_storage_bytes()));
    figure("storage_oob_bytes", static_cast<double>(array.oob_bytes_stored()));
    figure("storage_bytes_per_page_without_oob",
           static_cast<double>(array.page_storage_bytes() - array.oob_bytes_stored()) /
               array.programmed_page_count());
    figure("oob_bytes_per_page", static_cast<double>(g.oob_bytes()));
    figure("block_state_bytes", static_cast<double>(array.block_state_bytes()));
    figure("rss_after_program_bytes", static_cast<double>(resident_bytes()));
    figure("peak_rss_after_program_bytes", static_cast<double>(peak_resident_bytes()));

    std::mt19937_64 random(options_.seed);
    std::uniform_int_distribution<uint64_t> any_page(0, programmed_pages_ - 1);
    std::vector<uint64_t> reading(kRingEntries);
    start = std::chrono::steady_clock::now();
    cpu_start = cpu_seconds();
    sim_start = to_ps(sc_core::sc_time_stamp());
    run_phase(options_.read_depth, options_.reads, 1,
              [&](uint64_t index, const Slot& slot) {
                const uint64_t page = any_page(random);
                reading[index % kRingEntries] = page;
                return make(NFC_OP_READ, index, page_ppn_[page], 1, slot);
              },
              [&](const nfc_completion_t& done, const Slot& slot) {
                data_tag_t tag;
                std::memcpy(&tag, host(slot.first_buffer), sizeof(tag));
                const uint64_t page = reading[done.id % kRingEntries];
                if (done.status != NFC_STATUS_OK || tag.lpn != static_cast<uint32_t>(page)) {
                  report_failure("read", done.id, done.status);
                }
              });
    wall = seconds_since(start);
    cpu = cpu_seconds() - cpu_start;
    const double read_sim_seconds = (to_ps(sc_core::sc_time_stamp()) - sim_start) * 1e-12;
    figure("read_ops", static_cast<double>(options_.reads));
    figure("read_wall_seconds", wall);
    figure("read_simulated_seconds", read_sim_seconds);
    figure("read_simulated_iops", options_.reads / read_sim_seconds);
    figure("read_ops_per_wall_second", options_.reads / wall);
    figure("read_ops_per_cpu_second", options_.reads / cpu);
    figure("peak_rss_bytes", static_cast<double>(peak_resident_bytes()));
    sc_core::sc_stop();
  }

  // Keeps `depth` operations outstanding until `total` have completed. Operation `index` uses
  // slot index % depth; `make_op` fills its memory and returns its descriptor.
  template <typename MakeOp, typename Check>
  void run_phase(uint32_t depth, uint64_t total, uint32_t entries_per_slot, MakeOp make_op,
                 Check check) {
    const nand::Geometry& g = nfc_.nand().geometry();
    depth = static_cast<uint32_t>(std::min<uint64_t>({depth, total, kRingEntries - 1}));
    // Slots: io lists after the rings; buffers (page-sized) and spare areas after those.
    std::vector<Slot> slots(depth);
    const uint32_t io_bytes = entries_per_slot * NFC_IO_BYTES;
    const uint32_t buffers = kIoBase + depth * io_bytes;
    spare_base_ = buffers + depth * entries_per_slot * g.page_bytes();
    spare_entries_ = entries_per_slot;
    if (uint64_t{spare_base_} - MM_SRAM_BASE + uint64_t{depth} * entries_per_slot * g.oob_bytes() >
        kMemoryBytes) {
      throw std::runtime_error("queue depth too large for the bench memory");
    }
    for (uint32_t s = 0; s < depth; ++s) {
      slots[s].io_list = kIoBase + s * io_bytes;
      slots[s].first_buffer = buffers + s * entries_per_slot * g.page_bytes();
      for (uint32_t i = 0; i < entries_per_slot; ++i) {
        nfc_io_t io{slots[s].first_buffer + i * g.page_bytes(), 0, 0, 0};
        if (g.oob_bytes() != 0) io.oob = spare_of(slots[s], i);
        std::memcpy(host(slots[s].io_list + i * NFC_IO_BYTES), &io, sizeof(io));
      }
    }
    std::vector<uint32_t> slot_of(kRingEntries);
    uint64_t submitted = 0;
    uint64_t completed = 0;
    const auto submit = [&](uint32_t s) {
      const nfc_desc_t desc = make_op(submitted, slots[s]);
      slot_of[submitted % kRingEntries] = s;
      std::memcpy(host(kSqBase + sq_tail_ * NFC_DESC_BYTES), &desc, sizeof(desc));
      sq_tail_ = (sq_tail_ + 1) % kRingEntries;
      ++submitted;
    };
    for (uint32_t s = 0; s < depth; ++s) submit(s);
    write_reg(NFC_SQ_TAIL, sq_tail_);
    while (completed < total) {
      write_reg(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
      const uint32_t tail = read_reg(NFC_CQ_TAIL);
      if (tail == cq_head_) {
        sc_core::wait(interrupt_);
        continue;
      }
      bool more = false;
      while (cq_head_ != tail) {
        nfc_completion_t done;
        std::memcpy(&done, host(kCqBase + cq_head_ * NFC_COMPLETION_BYTES), sizeof(done));
        cq_head_ = (cq_head_ + 1) % kRingEntries;
        const uint32_t s = slot_of[done.id % kRingEntries];
        check(done, slots[s]);
        ++completed;
        if (submitted < total) {
          submit(s);
          more = true;
        }
      }
      write_reg(NFC_CQ_HEAD, cq_head_);
      if (more) write_reg(NFC_SQ_TAIL, sq_tail_);
    }
  }

  nfc_desc_t make(uint8_t op, uint64_t id, uint32_t ppn, uint32_t planes, const Slot& slot) {
    nfc_desc_t desc{};
    desc.op = op;
    desc.plane_count = static_cast<uint8_t>(planes);
    desc.id = static_cast<uint32_t>(id);
    desc.ppn = ppn;
    desc.io_list = slot.io_list;
    return desc;
  }

  uint32_t spare_of(const Slot& slot, uint64_t entry) const {
    const uint32_t index = (slot.io_list - kIoBase) / (spare_entries_ * NFC_IO_BYTES);
    return spare_base_ + static_cast<uint32_t>((index * spare_entries_ + entry) *
                                               nfc_.nand().geometry().oob_bytes());
  }

  void report_failure(const char* what, uint32_t id, uint16_t status) {
    if (!failed) fmt::print(stderr, "nand_bench: {} {} failed: status {}\n", what, id, status);
    failed = true;
  }

  void map_memory() {
    tlm::tlm_generic_payload trans;
    trans.set_address(MM_SRAM_BASE);
    trans.set_command(tlm::TLM_READ_COMMAND);
    tlm::tlm_dmi dmi;
    if (!socket->get_direct_mem_ptr(trans, dmi) || dmi.get_start_address() != MM_SRAM_BASE) {
      throw std::runtime_error("no direct access to the bench memory");
    }
    memory_ = dmi.get_dmi_ptr();
  }

  uint8_t* host(uint32_t address) { return memory_ + (address - MM_SRAM_BASE); }

  uint32_t read_reg(uint32_t offset) {
    uint32_t value = 0;
    access(tlm::TLM_READ_COMMAND, offset, &value);
    return value;
  }
  void write_reg(uint32_t offset, uint32_t value) {
    access(tlm::TLM_WRITE_COMMAND, offset, &value);
  }
  void access(tlm::tlm_command command, uint32_t offset, uint32_t* value) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(MM_NFC_BASE + offset);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, delay);
    if (!trans.is_response_ok()) throw std::runtime_error("NFC register access failed");
  }

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // CPU time of the process: on a shared machine, the rate per CPU second shows the model's
  // cost when wall time also counts the other processes.
  static double cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9;
  }

  Nfc& nfc_;
  Options options_;
  sc_core::sc_event interrupt_;
  uint8_t* memory_ = nullptr;
  uint32_t sq_tail_ = 0;
  uint32_t cq_head_ = 0;
  uint32_t spare_base_ = 0;
  uint32_t spare_entries_ = 1;
  uint64_t programmed_pages_ = 0;
  std::vector<uint32_t> page_ppn_;
};

Options parse(int argc, char* argv[]) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> uint64_t {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return std::stoull(argv[++i]);
    };
    if (arg == "--pages") {
      options.pages = value();
    } else if (arg == "--reads") {
      options.reads = value();
    } else if (arg == "--program-depth") {
      options.program_depth = static_cast<uint32_t>(value());
    } else if (arg == "--read-depth") {
      options.read_depth = static_cast<uint32_t>(value());
    } else if (arg == "--oob-bytes") {
      options.oob_bytes = static_cast<uint32_t>(value());
    } else if (arg == "--seed") {
      options.seed = value();
    } else {
      throw std::runtime_error("unknown option " + arg +
                               " (--pages, --reads, --program-depth, --read-depth, --oob-bytes, "
                               "--seed)");
    }
  }
  if (options.pages == 0 || options.reads == 0 || options.program_depth == 0 ||
      options.read_depth == 0) {
    throw std::runtime_error("pages, reads and queue depths must be at least 1");
  }
  return options;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  try {
    const Options options = parse(argc, argv);
    use_picosecond_resolution();
    const NandConfig nand = paper_device(options.oob_bytes);
    NfcConfig nfc_config;
    nfc_config.queue_sample_ps = 0;
    Router router("router");
    Memory memory("memory", kMemoryBytes, from_ps(20'000), from_ps(20'000), true);
    Nfc nfc("nfc", nand, nfc_config, options.seed, nullptr);
    router.map("memory", MM_SRAM_BASE, kMemoryBytes, memory.socket);
    router.map("nfc", MM_NFC_BASE, MM_PERIPH_WINDOW, nfc.socket);
    nfc.dma_socket.bind(router.target_socket);
    Driver driver("driver", nfc, options);
    driver.socket.bind(router.target_socket);
    fmt::print("nand_bench device {} GiB, {} dies, {} B pages with {} B spare; {} pages to "
               "program, {} random reads at depth {}\n",
               nfc.nand().geometry().capacity_bytes() >> 30, nfc.nand().geometry().die_count(),
               nand.page_bytes, nand.oob_bytes, options.pages, options.reads, options.read_depth);
    std::fflush(stdout);
    sc_core::sc_start();
    return driver.failed ? 1 : 0;
  } catch (const std::exception& error) {
    std::cerr << "nand_bench: " << error.what() << "\n";
    return 2;
  }
}

int main(int argc, char* argv[]) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
