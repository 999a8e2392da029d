#include "tlm/system/soc.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "interface/boot_config.h"
#include "interface/memory_map.h"
#include "interface/oob_layout.h"
#include "interface/rqrmi_model.h"
#include "interface/sysctrl_regs.h"
#include "tlm/system/job_kinds.h"
#include "tlm/system/log.h"
#include "tlm/system/random.h"
#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

// The hart's cycles by job kind, so far.
JobKindCycles job_kind_cycles(const cpu::Core& core) {
  JobKindCycles cycles{};
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) cycles[kind] = core.job_kind_cycles(kind);
  return cycles;
}

// The run loop returns to the host every this many quanta: to let the wave writer drop what
// is final, and to notice a hang without a periodic event that would itself prevent starvation.
constexpr uint64_t kQuantaPerRunStep = 1000;

// Largest code range the per-address profile covers (its counters take 4 bytes per byte).
constexpr uint64_t kMaxProfileSpan = uint64_t{64} << 20;

void check_range(const char* key, uint64_t value, uint64_t min, uint64_t max) {
  if (value < min || value > max) {
    throw std::runtime_error(
        fmt::format("{} = {} is out of range: allowed {} .. {}", key, value, min, max));
  }
}

// The RQRMI settings the firmware cannot check against the platform: the engine needs the
// accelerator, and the stages their order.
void check_rqrmi(const SocConfig& config) {
  const FirmwareParams& rqrmi = config.firmware.params;
  if (rqrmi.rqrmi_engine == BOOT_RQRMI_ENGINE_ACCEL && !config.accel.present) {
    throw std::runtime_error(
        "firmware.rqrmi_engine = accel needs the accelerator: set accel.present = true");
  }
  if (rqrmi.rqrmi_stage3_width != 0 && rqrmi.rqrmi_stage2_width == 0) {
    throw std::runtime_error(fmt::format(
        "firmware.rqrmi_stage3_width = {} needs a stage 2: set firmware.rqrmi_stage2_width",
        rqrmi.rqrmi_stage3_width));
  }
  const uint64_t records = 1 + uint64_t{rqrmi.rqrmi_stage1_width} + rqrmi.rqrmi_stage2_width +
                           rqrmi.rqrmi_stage3_width;
  const uint64_t model_bytes = RQRMI_HEADER_BYTES + records * RQRMI_SUBMODEL_BYTES;
  if (rqrmi.rqrmi_max_model_bytes != 0 && rqrmi.rqrmi_max_model_bytes < model_bytes) {
    throw std::runtime_error(fmt::format(
        "firmware.rqrmi_max_model_bytes = {} is below the {} bytes of the configured stages",
        rqrmi.rqrmi_max_model_bytes, model_bytes));
  }
}

// ---- FTL configuration: cross-key checks, and the host's view of the device ------------------

// ftl.alloc_order as BOOT_ALLOC_ORDER_LEVEL fields: a permutation of C, W, D, P, the first the
// fastest varying.
uint32_t encode_alloc_order(const std::string& order) {
  static const std::string kLevels = "CWDP";  // indexed by BOOT_ALLOC_LEVEL_*
  std::string sorted = order;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != "CDPW") {
    throw std::runtime_error(fmt::format(
        "ftl.alloc_order = '{}' is not allowed: a permutation of the letters C (channel), W (way), "
        "D (die), P (plane), each once, e.g. CWDP",
        order));
  }
  uint32_t encoded = 0;
  for (size_t position = 0; position < order.size(); ++position) {
    encoded |= static_cast<uint32_t>(kLevels.find(order[position])) << (2 * position);
  }
  return encoded;
}

// The words of the firmware's keys (interface/firmware_params.def) in the boot block; throws
// what a text key's encoder finds wrong with its value.
void fill_firmware_params(const FirmwareParams& params, boot_config_t& block) {
#define FW_PARAM_CHOICE(field, ...) block.field = params.field;
#define FW_PARAM_FLAG(field, ...) block.field = params.field ? 1 : 0;
#define FW_PARAM_COUNT(field, ...) block.field = params.field;
#define FW_PARAM_SIZE(field, ...) block.field = params.field;
// The registry accepts only whole nanoseconds within 32 bits.
#define FW_PARAM_TIME(field, ...) block.field##_ns = static_cast<uint32_t>(params.field##_ps / 1000);
#define FW_PARAM_REAL(field, ...) block.field = static_cast<float>(params.field);
#define FW_PARAM_TEXT(field, key, encoder, ...) block.field = encoder(params.field);
#include "interface/firmware_params.def"
}

void check_ftl(const SocConfig& config) {
  const FirmwareParams& ftl = config.firmware.params;
  boot_config_t encoded{};
  fill_firmware_params(ftl, encoded);  // the text keys' encoders check their values
  if (ftl.ftl_write_buffer_location == BOOT_MEMORY_DRAM && config.dram.size_bytes == 0) {
    throw std::runtime_error(
        "ftl.write_buffer.location = dram needs DRAM: set dram.size > 0, or use sram");
  }
  if (ftl.ftl_flash_program_ops > ftl.ftl_flash_ops) {
    throw std::runtime_error(fmt::format(
        "ftl.flash_program_ops = {} exceeds ftl.flash_ops = {}: the records that can program "
        "are some of the flash operation records (0 = all of them)",
        ftl.ftl_flash_program_ops, ftl.ftl_flash_ops));
  }
  if (ftl.ftl_block_tables_location == BOOT_MEMORY_DRAM && config.dram.size_bytes == 0) {
    throw std::runtime_error(
        "ftl.block_tables.location = dram needs DRAM: set dram.size > 0, or use sram");
  }
  if (ftl.ftl_gc_foreground_free >= ftl.ftl_gc_background_free) {
    throw std::runtime_error(fmt::format(
        "ftl.gc.foreground_free = {} must be below ftl.gc.background_free = {}",
        ftl.ftl_gc_foreground_free, ftl.ftl_gc_background_free));
  }
  const bool two_regions = ftl.ftl_gc_victim == BOOT_GC_VICTIM_2R_GREEDY ||
                           ftl.ftl_gc_victim == BOOT_GC_VICTIM_2R_FIFO;
  if (two_regions && ftl.ftl_gc_one_region) {
    throw std::runtime_error(fmt::format(
        "ftl.gc.one_region = true contradicts ftl.gc.victim = {}: 2R keeps two regions (host "
        "data in the normal one, GC's in the cold one); use greedy or cost_benefit with one "
        "region",
        ftl.ftl_gc_victim == BOOT_GC_VICTIM_2R_GREEDY ? "2r_greedy" : "2r_fifo"));
  }
  if (ftl.ftl_fsp_policy == BOOT_FSP_RL &&
      config.nand.cell != static_cast<uint32_t>(NandCell::kQlc)) {
    throw std::runtime_error(
        "ftl.fsp.policy = rl needs nand.cell = qlc: its actions are the four QLC page types");
  }
  if (ftl.ftl_gc_victim == BOOT_GC_VICTIM_GTD_GROUP && ftl.ftl_fsp_policy != BOOT_FSP_GTD_GROUP) {
    throw std::runtime_error(
        "ftl.gc.victim = gtd_group needs ftl.fsp.policy = gtd_group: GC collects whole GTD-entry "
        "groups, so host data must be written to each group's own stream");
  }
  if (ftl.scheme == BOOT_SCHEME_LEARNEDFTL && ftl.ftl_gc_victim != BOOT_GC_VICTIM_GTD_GROUP) {
    throw std::runtime_error(
        "firmware.scheme = learnedftl needs group-based allocation, ftl.gc.victim = gtd_group "
        "and ftl.fsp.policy = gtd_group: its models are trained when GC rewrites a GTD-entry "
        "group in LPN order (LearnedFTL sections 3.3.1 and 3.3.3)");
  }
  if (ftl.scheme == BOOT_SCHEME_LEAFTL) {
    const uint32_t group = ftl.ftl_leaftl_group_lpns;
    if ((group & (group - 1u)) != 0) {
      throw std::runtime_error(fmt::format(
          "ftl.leaftl.group_lpns = {} must be a power of two (16, 32, 64, 128 or 256)", group));
    }
    if (group > config.nand.page_bytes / 4u) {
      throw std::runtime_error(fmt::format(
          "ftl.leaftl.group_lpns = {} exceeds the {} LPNs one translation page maps "
          "(nand.page_size {} B / 4 B): a group leaving the map budget goes to one TP",
          group, config.nand.page_bytes / 4u, config.nand.page_bytes));
    }
    if (ftl.ftl_leaftl_account_sftl && ftl.ftl_leaftl_gamma != 0) {
      throw std::runtime_error(fmt::format(
          "ftl.leaftl.account_sftl needs ftl.leaftl.gamma = 0 (it is {}): through approximate "
          "segments the neighbours' VPNs are predictions that change as batches are learned, "
          "so SFTL's run heads cannot be kept",
          ftl.ftl_leaftl_gamma));
    }
    const uint32_t needed = OOB_FTL_BYTES + (2u * ftl.ftl_leaftl_gamma + 1u) * 4u;
    if (ftl.ftl_leaftl_gamma != 0 && config.nand.oob_bytes < needed) {
      throw std::runtime_error(fmt::format(
          "ftl.leaftl.gamma = {} needs nand.oob_size >= {} B: the FTL's {} B and the LPNs of "
          "the 2 gamma + 1 pages around each page, 4 B each (it is {} B)",
          ftl.ftl_leaftl_gamma, needed, OOB_FTL_BYTES, config.nand.oob_bytes));
    }
  }
  if (ftl.ftl_gc_background_free >= config.nand.blocks) {
    throw std::runtime_error(fmt::format(
        "ftl.gc.background_free = {} must be below nand.blocks = {} (blocks per plane, one "
        "stripe each)",
        ftl.ftl_gc_background_free, config.nand.blocks));
  }
}

// floor(nand_pages x (1 - op)) with op taken as the decimal it was written as (to 9 places):
// in binary floating point 100 x (1 - 0.07) falls just below 93.
uint64_t ftl_lpn_count(uint64_t nand_pages, double op) {
  constexpr uint64_t kBillion = 1'000'000'000;
  const auto op_billionths = static_cast<uint64_t>(std::llround(op * kBillion));
  return static_cast<uint64_t>(static_cast<unsigned __int128>(nand_pages) *
                               (kBillion - op_billionths) / kBillion);
}

// The product FTL exports floor(physical pages x (1 - ftl.op)) NAND pages to the host; the RAM
// disk and bare test programs take host.capacity and host.page_size as given, 0 resolving the
// same way.
HostConfig resolved_host(const SocConfig& config) {
  HostConfig host = config.host;
  host.power_loss_protection = config.firmware.params.ftl_plp_ps != 0;
  const uint64_t nand_pages = uint64_t{config.nand.channels} * config.nand.ways *
                              config.nand.dies * config.nand.planes * config.nand.blocks *
                              config.nand.pages;
  const uint64_t lpns = ftl_lpn_count(nand_pages, config.firmware.params.ftl_op);
  const uint64_t derived_bytes = lpns * config.nand.page_bytes;
  const bool product_ftl = config.firmware.elf.empty();
  if (host.page_bytes == 0) {
    host.page_bytes = config.nand.page_bytes;
  } else if (product_ftl && host.page_bytes != config.nand.page_bytes) {
    throw std::runtime_error(fmt::format(
        "host.page_size = {} contradicts nand.page_size = {}: the product FTL's host page is the "
        "NAND page (set host.page_size = 0)",
        host.page_bytes, config.nand.page_bytes));
  }
  if (host.capacity_bytes == 0) {
    host.capacity_bytes = lpns * host.page_bytes;
  } else if (product_ftl && host.capacity_bytes != derived_bytes) {
    throw std::runtime_error(fmt::format(
        "host.capacity = {} bytes contradicts the NAND: {} physical pages with ftl.op = {} give "
        "{} LPNs of {} bytes = {} bytes (set host.capacity = 0)",
        host.capacity_bytes, nand_pages, config.firmware.params.ftl_op, lpns, config.nand.page_bytes,
        derived_bytes));
  }
  return host;
}

SocConfig validated(const SocConfig& config) {
  check_range("cpu.harts", config.cpu.harts, 1, MM_MAX_HARTS);
  // The boot-config block carries clocks and the seed as 32-bit words.
  check_range("cpu.clock_hz", config.cpu.clock_hz, 1, UINT32_MAX);
  check_range("cpu.timebase_hz", config.cpu.timebase_hz, 1, UINT32_MAX);
  const Clock clock(config.cpu.clock_hz, "cpu.clock_hz");
  check_range("cpu.quantum_ps", config.cpu.quantum_ps, std::max<uint64_t>(1, clock.cycles_to_ps(1)),
              uint64_t{1'000'000'000'000});
  check_range("cpu.stack_bytes_per_hart", config.cpu.stack_bytes_per_hart, 1, config.sram.size_bytes);
  check_range("rom.size_bytes", config.rom.size_bytes, 1, MM_ROM_WINDOW);
  check_range("sram.size_bytes", config.sram.size_bytes, MM_BOOT_CONFIG_RESERVED, MM_SRAM_WINDOW);
  check_range("dram.size_bytes", config.dram.size_bytes, 0, MM_DRAM_WINDOW);
  check_range("firmware.scheme", config.firmware.params.scheme, 0, BOOT_SCHEME_COUNT - 1);
  check_range("sim.seed", config.sim.seed, 0, UINT32_MAX);
  check_rqrmi(config);
  check_ftl(config);
  SocConfig resolved = config;
  resolved.host = resolved_host(config);
  return resolved;
}

sc_core::sc_time cycles_at(const SocConfig& config, uint32_t cycles) {
  return Clock(config.cpu.clock_hz, "cpu.clock_hz").cycles_to_time(cycles);
}

const char* cause_name(uint32_t mcause) {
  if (mcause & 0x80000000u) {
    switch (mcause & 0x7FFFFFFFu) {
      case 3: return "machine software interrupt";
      case 7: return "machine timer interrupt";
      case 11: return "machine external interrupt";
      default: return "unknown interrupt";
    }
  }
  switch (mcause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store/AMO address misaligned";
    case 7: return "store/AMO access fault";
    case 8: return "environment call from U-mode";
    case 11: return "environment call from M-mode";
    default: return "unknown exception";
  }
}

const char* outcome_name(Soc::RunResult::Outcome outcome) {
  using Outcome = Soc::RunResult::Outcome;
  switch (outcome) {
    case Outcome::kExit: return "exit";
    case Outcome::kTohostPass: return "tohost pass";
    case Outcome::kTohostFail: return "tohost fail";
    case Outcome::kFault: return "fault";
    case Outcome::kMaxTime: return "time limit";
    case Outcome::kMaxInstructions: return "instruction limit";
    case Outcome::kHang: return "hang";
    case Outcome::kWorkloadDone: return "workload done";
    case Outcome::kWorkloadError: return "workload error";
    case Outcome::kIntegrityFailure: return "integrity failure";
    case Outcome::kHicError: return "HIC error";
  }
  return "unknown";
}

}  // namespace

Soc::Soc(sc_core::sc_module_name name, const SocConfig& config, WaveWriter* waves)
    // The resolution must be fixed before the first sc_time exists, members included.
    : sc_core::sc_module((use_picosecond_resolution(), name)),
      config_(validated(config)),
      waves_(waves),
      area_model_(load_area_model(area_model_path(), config_.area.node)),
      router_("router"),
      rom_("rom", config_.rom.size_bytes, cycles_at(config_, config_.rom.latency_cycles),
           cycles_at(config_, config_.rom.latency_cycles), /*bus_writable=*/false),
      sram_("sram", config_.sram.size_bytes, cycles_at(config_, config_.sram.latency_cycles),
            cycles_at(config_, config_.sram.latency_cycles), /*bus_writable=*/true),
      sysctrl_("sysctrl", config_.cpu.harts, &std::cout),
      clint_("clint", config_.cpu.harts, config_.cpu.timebase_hz),
      intc_("intc", config_.cpu.harts),
      nfc_("nfc", config_.nand, config_.nfc, config_.sim.seed, waves_),
      hic_("hic", config_.host, waves_),
      host_("host", config_.host, config_.workload, config_.sim.seed, hic_, waves_),
      power_schedule_(config_.host.power_loss, config_.sim.seed) {
  tlm::tlm_global_quantum::instance().set(from_ps(config_.cpu.quantum_ps));

  router_.map("rom", MM_ROM_BASE, config_.rom.size_bytes, rom_.socket);
  router_.map("sram", MM_SRAM_BASE, config_.sram.size_bytes, sram_.socket);
  if (config_.dram.size_bytes != 0) {
    const sc_core::sc_time latency = from_ps(config_.dram.latency_ps);
    dram_ = std::make_unique<Memory>("dram", config_.dram.size_bytes, latency, latency, true);
    router_.map("dram", MM_DRAM_BASE, config_.dram.size_bytes, dram_->socket);
  }
  router_.map("sysctrl", MM_SYSCTRL_BASE, MM_PERIPH_WINDOW, sysctrl_.socket);
  router_.map("clint", MM_CLINT_BASE, MM_PERIPH_WINDOW, clint_.socket);
  router_.map("intc", MM_INTC_BASE, MM_PERIPH_WINDOW, intc_.socket);
  router_.map("nfc", MM_NFC_BASE, MM_PERIPH_WINDOW, nfc_.socket);
  nfc_.dma_socket.bind(router_.target_socket);
  nfc_.on_interrupt([this](bool level) { intc_.set_line(IRQ_SRC_NFC, level); });
  nfc_.on_error([this](const std::string& message) {
    end_run(RunResult::Outcome::kFault, 1, message);
  });
  router_.map("hic", MM_HIC_BASE, MM_PERIPH_WINDOW, hic_.socket);
  hic_.dma.bind(router_.target_socket);
  hic_.connect_interrupt([this](bool level) { intc_.set_line(IRQ_SRC_HIC, level); });
  hic_.on_error([this](const std::string& message) {
    end_run(RunResult::Outcome::kHicError, 1, message);
  });
  host_.on_done([this](const std::string& summary) {
    end_run(RunResult::Outcome::kWorkloadDone, 0, summary);
  });
  host_.on_phase([this](const std::string& phase, bool ended) {
    profile_phase_boundary(phase, ended);
    ftl_phase_boundary(phase, ended);
  });
  host_.on_failure([this](host::HostModel::Failure failure, const std::string& message) {
    end_run(failure == host::HostModel::Failure::kIntegrity ? RunResult::Outcome::kIntegrityFailure
                                                            : RunResult::Outcome::kWorkloadError,
            1, message);
  });

  // The FTL's time series: a sample every host.stats_interval of a workload phase.
  SC_HAS_PROCESS(Soc);
  SC_METHOD(sample_ftl);
  sensitive << ftl_sample_event_;
  dont_initialize();

  // The RQRMI accelerator: registers, its DMA master for the range array, its interrupt line.
  if (config_.accel.present) {
    accel_ = std::make_unique<Accel>("accel", config_.accel, area_model_, waves_);
    router_.map("accel", MM_ACCEL_BASE, MM_PERIPH_WINDOW, accel_->socket);
    accel_->dma_socket.bind(router_.target_socket);
    accel_->connect_interrupt([this](bool level) { intc_.set_line(IRQ_SRC_ACCEL, level); });
  }

  for (uint32_t id = 0; id < config_.cpu.harts; ++id) {
    harts_.push_back(std::make_unique<Hart>(fmt::format("hart{}", id).c_str(), id, config_.cpu,
                                            reservations_, waves_,
                                            static_cast<HartObserver*>(this)));
    harts_.back()->socket.bind(router_.target_socket);
    clint_.connect(id, *harts_.back());
    intc_.connect(id, *harts_.back());
  }
  if (waves_ != nullptr) router_.trace_transactions(*waves_, router_.name());

  sysctrl_.connect_power_fail([this](bool level) { intc_.set_line(IRQ_SRC_POWER_FAIL, level); });
  sysctrl_.on_power_ready([this](const sc_core::sc_time& at) {
    if (power_state_ != PowerState::kHoldUp || power_ready_ps_) return;  // no power failing
    // No hart has run past the latest hart time: the power goes there.
    const uint64_t cut_ps = std::max(to_ps(at), to_ps(simulated_time()));
    power_ready_ps_ = cut_ps;
    for (auto& hart : harts_) hart->power_off_at(cut_ps);
    power_ready_event_.notify(from_ps(cut_ps - to_ps(sc_core::sc_time_stamp())));
  });
  if (!power_schedule_.empty()) {
    SC_THREAD(power_thread);
    SC_METHOD(controller_ready);
    sensitive << hic_.enabled_event();
    dont_initialize();
    host_.on_completion([this](uint64_t completed) {
      const std::vector<uint64_t>& counts = power_schedule_.command_counts();
      for (; next_command_cut_ < counts.size() && completed >= counts[next_command_cut_];
           ++next_command_cut_) {
        if (power_state_ == PowerState::kOn && !command_cut_due_) {
          command_cut_due_ = true;
          command_cut_event_.notify(sc_core::SC_ZERO_TIME);
        } else {
          ++skipped_cuts_;
        }
      }
    });
    if (waves_ != nullptr) {
      power_signal_ = waves_->add_state_signal(std::string(this->name()) + ".power", "state", "on");
    }
  }

  sysctrl_.on_exit([this](int32_t code) {
    end_run(RunResult::Outcome::kExit, code, fmt::format("firmware exited with code {}", code));
  });
  sysctrl_.on_fault([this](uint32_t hart_id) {
    if (hart_id >= harts_.size()) {
      end_run(RunResult::Outcome::kFault, 1,
              fmt::format("firmware reported a fault for hart {}, but the SoC has {} hart(s)",
                          hart_id, harts_.size()));
      return;
    }
    end_run(RunResult::Outcome::kFault, 1,
            fmt::format("hart {} reported a fault: {}", hart_id, describe_trap(*harts_[hart_id])));
  });
}

Soc::~Soc() = default;

void Soc::write_memory(uint32_t address, const uint8_t* data, size_t size,
                       const std::string& what) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(const_cast<uint8_t*>(data));  // a write never modifies its data
  trans.set_data_length(static_cast<unsigned>(size));
  if (router_.debug_transport(trans) != size) {
    throw std::runtime_error(fmt::format("{}: writing {} bytes at {:#010x} failed", what, size, address));
  }
}

void Soc::load_program(const ElfImage& elf) {
  load_segments(elf);
  check_boot_config_version(elf);
  program_ = elf;
  ftl_metrics_.reset();
  if (const std::optional<uint32_t> stats = elf.symbol_address("fw_stats")) {
    ftl_metrics_.emplace(*stats);
  }
  write_boot_config();
  const std::optional<uint32_t> tohost = elf.symbol_address("tohost");
  for (auto& hart : harts_) {
    hart->reset(elf.entry());
    hart->core().flush_decode_cache();
    if (tohost) hart->core().set_tohost_address(*tohost);
    hart->core().set_instruction_trace(trace_);
  }
  if (profile_enabled_) apply_profile();
}

void Soc::load_segments(const ElfImage& elf) {
  for (const ElfSegment& segment : elf.segments()) {
    if (segment.memory_size == 0) continue;
    const Router::Target* target = router_.target_at(segment.address, segment.memory_size);
    const bool in_memory = target != nullptr && (target->name == "rom" || target->name == "sram" ||
                                                 target->name == "dram");
    if (!in_memory) {
      std::ostringstream map;
      router_.print_map(map);
      throw std::runtime_error(fmt::format(
          "{}: segment at {:#010x} of {:#x} bytes lies outside every memory of the SoC\n{}",
          elf.path(), segment.address, segment.memory_size, map.str()));
    }
    const std::string what = fmt::format("{}: segment at {:#010x}", elf.path(), segment.address);
    write_memory(segment.address, segment.bytes.data(), segment.bytes.size(), what);
    const std::vector<uint8_t> zeros(segment.memory_size - segment.bytes.size(), 0);
    if (!zeros.empty()) {
      write_memory(static_cast<uint32_t>(segment.address + segment.bytes.size()), zeros.data(),
                   zeros.size(), what);
    }
    log::debug(*this, "loaded {:#x} bytes at {:#010x} from {}", segment.memory_size,
               segment.address, elf.path());
  }
}

void Soc::check_boot_config_version(const ElfImage& elf) {
  const std::optional<uint32_t> symbol = elf.symbol_address("fw_boot_config_version");
  if (!symbol) return;  // test programs that read no boot config
  uint32_t version = 0;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(*symbol);
  trans.set_data_ptr(reinterpret_cast<uint8_t*>(&version));
  trans.set_data_length(sizeof(version));
  if (router_.debug_transport(trans) != sizeof(version) || version != BOOT_CONFIG_VERSION) {
    throw std::runtime_error(fmt::format(
        "{}: the firmware image reads boot-config version {}, this platform writes version {} "
        "(interface/boot_config.h differs between them: rebuild the firmware or the platform)",
        elf.path(), version, BOOT_CONFIG_VERSION));
  }
}

void Soc::write_boot_config() {
  boot_config_t block{};
  block.magic = BOOT_CONFIG_MAGIC;
  block.version = BOOT_CONFIG_VERSION;
  block.size_bytes = sizeof(boot_config_t);
  block.hart_count = config_.cpu.harts;
  block.cpu_clock_hz = static_cast<uint32_t>(config_.cpu.clock_hz);
  block.timebase_hz = static_cast<uint32_t>(config_.cpu.timebase_hz);
  block.rom_size = static_cast<uint32_t>(config_.rom.size_bytes);
  block.sram_size = static_cast<uint32_t>(config_.sram.size_bytes);
  block.dram_size = static_cast<uint32_t>(config_.dram.size_bytes);
  block.stack_bytes_per_hart = config_.cpu.stack_bytes_per_hart;
  block.seed = static_cast<uint32_t>(config_.sim.seed);
  fill_firmware_params(config_.firmware.params, block);
  block.ftl_lpn_count =
      static_cast<uint32_t>(config_.host.capacity_bytes / config_.host.page_bytes);
  // Every boot after the first follows a power cut (SYSCTRL_BOOT_COUNT - 1); the FTL reads it
  // here, with the rest of its configuration, so its host tests can set it alike.
  block.power_losses = boot_count_ - 1;
  write_memory(MM_BOOT_CONFIG_ADDR, reinterpret_cast<const uint8_t*>(&block), sizeof(block),
               "boot-config block");
}

const uint8_t* Soc::memory_bytes(uint32_t address, size_t bytes) const {
  const Memory* memories[] = {&sram_, dram_.get(), &rom_};
  const uint32_t bases[] = {MM_SRAM_BASE, MM_DRAM_BASE, MM_ROM_BASE};
  for (size_t i = 0; i < std::size(memories); ++i) {
    if (memories[i] == nullptr || address < bases[i]) continue;
    if (const uint8_t* host = memories[i]->host_bytes(address - bases[i], bytes)) return host;
  }
  return nullptr;
}

FtlMetrics::DebugRead Soc::debug_reader() const {
  return [this](uint32_t address, void* data, size_t bytes) {
    // From the memories' bytes directly: a snapshot reads every metric, and a payload (which
    // allocates its extension array) and the router per value cost many times the copy.
    if (const uint8_t* host = memory_bytes(address, bytes)) {
      std::memcpy(data, host, bytes);
      return true;
    }
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(static_cast<uint8_t*>(data));
    trans.set_data_length(static_cast<unsigned>(bytes));
    // Debug access changes nothing; the router's interface is not const only for its caches.
    return const_cast<Router&>(router_).debug_transport(trans) == bytes;
  };
}

std::optional<std::string> Soc::ftl_snapshot(FtlMetrics::Snapshot& snapshot,
                                             bool with_wear) const {
  const bool firmware_down = power_state_ == PowerState::kOff ||
                             power_state_ == PowerState::kBooting;
  if (firmware_down && ftl_at_cut_) {
    snapshot.block = ftl_at_cut_->block;
    snapshot.regions = ftl_at_cut_->regions;
    snapshot.metrics = ftl_at_cut_->metrics;
  } else if (std::optional<std::string> problem =
                 ftl_metrics_->read(debug_reader(), snapshot)) {
    return problem;
  }
  snapshot.time_ps = to_ps(sc_core::sc_time_stamp());
  for (const auto& hart : harts_) {
    snapshot.instructions += hart->core().instret();
    snapshot.cycles += hart->core().cycles();
    snapshot.sleep_cycles += hart->core().sleep_cycles();
    snapshot.harts.push_back({hart->core().cycles(), hart->core().sleep_cycles(),
                              job_kind_cycles(hart->core())});
  }
  snapshot.host_commands = host_.commands_completed();
  if (!with_wear) return std::nullopt;
  // Wear of the good blocks: factory bad blocks are never erased and would pin the minimum at 0.
  const nand::NandArray& nand = nfc_.nand();
  uint64_t good = 0;
  uint64_t erases = 0;
  bool first = true;
  for (uint64_t block = 0; block < nand.geometry().block_count(); ++block) {
    if (nand.is_bad(block)) continue;
    const uint32_t count = nand.erase_count(block);
    snapshot.erase_counts.min = first ? count : std::min(snapshot.erase_counts.min, count);
    snapshot.erase_counts.max = first ? count : std::max(snapshot.erase_counts.max, count);
    first = false;
    erases += count;
    ++good;
  }
  snapshot.erase_counts.mean = good == 0 ? 0.0 : static_cast<double>(erases) / good;
  return std::nullopt;
}

void Soc::ftl_phase_boundary(const std::string& phase, bool ended) {
  if (!ftl_metrics_) return;
  FtlMetrics::Snapshot snapshot;
  if (const std::optional<std::string> problem = ftl_snapshot(snapshot, true)) {
    end_run(RunResult::Outcome::kFault, 1, *problem);
    return;
  }
  if (ended) {
    ftl_metrics_->phase_end(snapshot, true);
    ftl_sample_event_.cancel();
  } else {
    ftl_metrics_->phase_begin(phase, snapshot, [this](uint32_t address, size_t bytes) {
      return memory_bytes(address, bytes);
    });
    if (config_.host.stats_interval_ps != 0) {
      ftl_sample_event_.cancel();
      ftl_sample_event_.notify(from_ps(config_.host.stats_interval_ps));
    }
  }
}

void Soc::sample_ftl() {
  if (!ftl_metrics_ || !ftl_metrics_->in_phase() || result_) return;
  // While the firmware is down its block holds nothing yet: the series skips those samples.
  const bool firmware_down = power_state_ == PowerState::kOff ||
                             power_state_ == PowerState::kBooting;
  if (firmware_down) {
    if (sc_core::sc_pending_activity()) {
      ftl_sample_event_.notify(from_ps(config_.host.stats_interval_ps));
    }
    return;
  }
  if (const std::optional<std::string> problem =
          ftl_metrics_->read_sample(debug_reader(), ftl_sample_values_)) {
    end_run(RunResult::Outcome::kFault, 1, *problem);
    return;
  }
  ftl_metrics_->sample(to_ps(sc_core::sc_time_stamp()), ftl_sample_values_);
  // Only while something else is due: a hung SoC must not be kept alive by its sampler.
  if (sc_core::sc_pending_activity()) {
    ftl_sample_event_.notify(from_ps(config_.host.stats_interval_ps));
  }
}

void Soc::write_ftl_timeseries(std::ostream& out) const {
  ftl_metrics_->write_timeseries_csv(out);
}

void Soc::set_instruction_trace(std::ostream* out) {
  trace_ = out;
  for (auto& hart : harts_) hart->core().set_instruction_trace(out);
}

void Soc::enable_profile() {
  profile_enabled_ = true;
  if (program_) apply_profile();
}

void Soc::apply_profile() {
  uint64_t low = MM_ROM_BASE;
  uint64_t high = MM_ROM_BASE + config_.rom.size_bytes;
  bool any_code = false;
  for (const ElfSegment& segment : program_->segments()) {
    if (!segment.executable || segment.memory_size == 0) continue;
    const uint64_t end = uint64_t{segment.address} + segment.memory_size;
    low = any_code ? std::min<uint64_t>(low, segment.address) : segment.address;
    high = any_code ? std::max(high, end) : end;
    any_code = true;
  }
  // One counter per halfword: code spread over distant memories (ROM and DRAM) would need
  // gigabytes of counters for the gap between them.
  if (high - low > kMaxProfileSpan) {
    throw std::runtime_error(fmt::format(
        "{}: executable segments span [{:#010x}, {:#010x}), more than the {} MiB a profile covers",
        program_->path(), low, high, kMaxProfileSpan >> 20));
  }
  profile_base_ = static_cast<uint32_t>(low);
  for (auto& hart : harts_) {
    hart->core().enable_profile(profile_base_, static_cast<uint32_t>(high - low));
  }
}

std::vector<uint64_t> Soc::merged_profile_counters() const {
  std::vector<uint64_t> merged;
  for (const auto& hart : harts_) {
    const std::vector<uint64_t>& counters = hart->core().profile_cycles();
    if (merged.size() < counters.size()) merged.resize(counters.size(), 0);
    for (size_t i = 0; i < counters.size(); ++i) merged[i] += counters[i];
  }
  return merged;
}

std::vector<std::pair<uint32_t, uint64_t>> Soc::nonzero_profile(
    const std::vector<uint64_t>& counters) const {
  std::vector<std::pair<uint32_t, uint64_t>> result;
  for (size_t i = 0; i < counters.size(); ++i) {
    if (counters[i] != 0) {
      result.emplace_back(profile_base_ + static_cast<uint32_t>(2 * i), counters[i]);
    }
  }
  return result;
}

std::vector<std::pair<uint32_t, uint64_t>> Soc::profile() const {
  return nonzero_profile(merged_profile_counters());
}

void Soc::profile_phase_boundary(const std::string& phase, bool ended) {
  if (!profile_enabled_) return;
  if (ended) {
    close_profile_phase(true);
    return;
  }
  phase_start_counters_ = merged_profile_counters();
  phase_profiles_.push_back(PhaseProfile{phase, false, {}});
  profile_phase_open_ = true;
}

void Soc::close_profile_phase(bool ended) {
  if (!profile_phase_open_) return;
  profile_phase_open_ = false;
  // The counters only grow, over a size fixed before the run: the phase spent the difference.
  std::vector<uint64_t> spent = merged_profile_counters();
  for (size_t i = 0; i < phase_start_counters_.size(); ++i) spent[i] -= phase_start_counters_[i];
  phase_start_counters_.clear();
  PhaseProfile& phase = phase_profiles_.back();
  phase.ended = ended;
  phase.cycles = nonzero_profile(spent);
}

Soc::RunResult Soc::run() {
  if (!program_) throw std::runtime_error(fmt::format("{}: run() before load_program()", name()));
  if (ran_) throw std::runtime_error(fmt::format("{}: run() may be called only once", name()));
  ran_ = true;

  const sc_core::sc_time step = from_ps(config_.cpu.quantum_ps * kQuantaPerRunStep);
  const uint64_t max_ps = config_.sim.max_time_ps;
  while (!result_) {
    sc_core::sc_time this_step = step;
    // Starving, a step stops at its last event instead of its end: when the next event lies
    // beyond the step (harts asleep until a flash erase ends), the step reaches to it.
    if (sc_core::sc_pending_activity()) {
      this_step = std::max(this_step, sc_core::sc_time_to_pending_activity());
    }
    sc_core::sc_starvation_policy policy = sc_core::SC_EXIT_ON_STARVATION;
    if (max_ps != 0) {
      const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
      if (now_ps >= max_ps) {
        end_run(RunResult::Outcome::kMaxTime, 0,
                fmt::format("time limit of {} ps reached", max_ps));
        break;
      }
      if (this_step > from_ps(max_ps - now_ps)) {
        this_step = from_ps(max_ps - now_ps);
        policy = sc_core::SC_RUN_TO_TIME;  // the limit is reached even with no event before it
      }
    }
    const uint64_t step_end_ps = to_ps(sc_core::sc_time_stamp() + this_step);
    for (const auto& hart : harts_) hart->skip_syncs_until(step_end_ps);
    // Harts resuming at the same quantum end run in the order the kernel's timed-event heap
    // gives them, a layout every notification (and query) shapes, and harts sharing memory see
    // each other's stores in that order: with two or more, the NFC keeps a wake-up per action
    // (running ahead changed the 2-hart RQFTL runs by a few cycles; one hart, nothing).
    nfc_.run_ahead_until(harts_.size() == 1 ? step_end_ps : 0);
    sc_core::sc_start(this_step, policy);
    if (waves_ != nullptr) waves_->flush_before(to_ps(sc_core::sc_time_stamp()));
    if (progress_) progress_();
    if (!result_ && !sc_core::sc_pending_activity()) {
      std::string where;
      for (const auto& hart : harts_) {
        where += fmt::format(", hart {} at pc {:#010x}", hart->core().hart_id(), hart->core().pc());
      }
      end_run(RunResult::Outcome::kHang, 1,
              fmt::format("every hart is asleep and no event is pending{}", where));
    }
  }
  stop_simulation();
  host_.end_of_run(to_ps(simulated_time()));
  close_profile_phase(false);
  if (ftl_metrics_ && ftl_metrics_->in_phase()) {
    FtlMetrics::Snapshot snapshot;
    if (!ftl_snapshot(snapshot, true)) ftl_metrics_->phase_end(snapshot, false);
  }
  sysctrl_.flush_console();
  log::info(*this, "run ended ({}): {}", outcome_name(result_->outcome), result_->message);
  return *result_;
}

void Soc::end_run(RunResult::Outcome outcome, int exit_code, std::string message) {
  if (result_) return;  // the first reason to stop wins
  result_ = RunResult{outcome, exit_code, std::move(message)};
  bool hart_in_batch = false;
  for (auto& hart : harts_) {
    hart->stop();
    hart_in_batch = hart_in_batch || hart->in_batch();
  }
  // A hart in its batch stops the simulation once it has synchronised (hart_stopped), so the
  // final time includes its last instructions.
  if (!hart_in_batch) stop_simulation();
}

void Soc::stop_simulation() {
  if (simulation_stopped_) return;
  simulation_stopped_ = true;
  // The run's end is reported by RunResult; SystemC's own notice would only add noise.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  if (sc_core::sc_get_status() != sc_core::SC_STOPPED) sc_core::sc_stop();
}

void Soc::batch_done(Hart& hart, cpu::StopReason reason) {
  cpu::Core& core = hart.core();
  if (reason == cpu::StopReason::kTrapLoop) {
    end_run(RunResult::Outcome::kFault, 1,
            fmt::format("hart {} stuck in a trap loop (the same exception again at the same pc, "
                        "nothing retired in between): {}",
                        core.hart_id(), describe_trap(hart)));
  } else if (reason == cpu::StopReason::kHalt && core.tohost_written()) {
    const uint32_t value = core.tohost_value();
    if (value == 1) {
      end_run(RunResult::Outcome::kTohostPass, 0,
              fmt::format("hart {} wrote tohost = 1 (pass)", core.hart_id()));
    } else {
      const int code = static_cast<int>(value >> 1);
      end_run(RunResult::Outcome::kTohostFail, code,
              fmt::format("hart {} wrote tohost = {:#x} (fail, code {})", core.hart_id(), value,
                          code));
    }
  }
  const uint64_t limit = config_.sim.max_instructions;
  if (limit != 0) {
    uint64_t retired = 0;
    for (const auto& each : harts_) retired += each->core().instret();
    if (retired >= limit) {
      end_run(RunResult::Outcome::kMaxInstructions, 0,
              fmt::format("instruction limit of {} reached ({} retired)", limit, retired));
    }
  }
}

void Soc::hart_stopped(Hart& /*hart*/) {
  if (result_) stop_simulation();
}

std::string Soc::describe_trap(const Hart& hart) const {
  const cpu::TrapRecord& trap = hart.core().last_trap();
  std::string where;
  if (program_) {
    if (const ElfSymbol* function = program_->function_at(trap.mepc)) {
      where = fmt::format(" ({}+{:#x})", function->name, trap.mepc - function->address);
    }
  }
  return fmt::format("pc {:#010x}{}, mcause {:#010x} ({}), mtval {:#010x}", trap.mepc, where,
                     trap.mcause, cause_name(trap.mcause), trap.mtval);
}

sc_core::sc_time Soc::simulated_time() const {
  sc_core::sc_time latest = sc_core::sc_time_stamp();
  for (const auto& hart : harts_) latest = std::max(latest, hart->local_time());
  return latest;
}

void Soc::report(nlohmann::json& out) const {
  const uint64_t time_ps = to_ps(simulated_time());
  out["simulated_time_ps"] = time_ps;
  out["simulated_time_s"] = static_cast<double>(time_ps) * 1e-12;
  nlohmann::json harts = nlohmann::json::array();
  for (const auto& hart : harts_) {
    const cpu::Core& core = hart->core();
    harts.push_back({{"hart", core.hart_id()},
                     {"instret", core.instret()},
                     {"cycles", core.cycles()},
                     {"sleep_cycles", core.sleep_cycles()},
                     {"zero_time_cycles", core.cycles() - core.timed_cycles()},
                     {"job_cycles", job_cycles_json(job_kind_cycles(core))},
                     {"loads", core.loads()},
                     {"stores", core.stores()},
                     {"bus_transactions", hart->bus_transactions()}});
  }
  out["harts"] = std::move(harts);
  out["cpu_backend"] = harts_.front()->core().translating() ? "translator" : "interpreter";
  nlohmann::json bus = nlohmann::json::object();
  for (const Router::Target& target : router_.targets()) {
    bus[target.name] = {{"base", target.base}, {"size_bytes", target.size},
                        {"transactions", target.transactions}};
  }
  out["bus"] = std::move(bus);
  nlohmann::json memories = nlohmann::json::object();
  const auto describe = [&memories](const char* key, const Memory& memory) {
    memories[key] = {{"size_bytes", memory.size()}, {"resident_bytes", memory.resident_bytes()}};
  };
  describe("rom", rom_);
  describe("sram", sram_);
  if (dram_) describe("dram", *dram_);
  out["memories"] = std::move(memories);
  nlohmann::json nand;
  nlohmann::json nfc;
  nfc_.report(nand, nfc, time_ps);
  out["nand"] = std::move(nand);
  out["nfc"] = std::move(nfc);
  nlohmann::json host;
  host_.report(host);
  hic_.report(host["hic"]);
  out["host"] = std::move(host);
  if (accel_) accel_->report(out["accel"]);
  out["area"] =
      estimate_controller_area(area_model_, config_, accel_ ? accel_->area().total_mm2 : 0.0)
          .to_json();
  if (ftl_metrics_) {
    FtlMetrics::Snapshot snapshot;
    const std::optional<std::string> problem = ftl_snapshot(snapshot, true);
    out["ftl"] = problem ? nlohmann::json{{"error", *problem}} : ftl_metrics_->to_json(snapshot);
  }
  if (!power_schedule_.empty()) report_power(out["power_loss"]);
}

// ---- Power ---------------------------------------------------------------------------------

void Soc::power_thread() {
  const std::vector<uint64_t>& times = power_schedule_.times_ps();
  size_t next_time = 0;
  for (;;) {
    const uint64_t now = to_ps(sc_core::sc_time_stamp());
    // Failures due while the power was already failing or off.
    for (; next_time < times.size() && times[next_time] < now; ++next_time) ++skipped_cuts_;
    if (!command_cut_due_) {
      if (next_time < times.size()) {
        // Cut at once, the harts must not run past the failure.
        if (config_.firmware.params.ftl_plp_ps == 0) {
          for (auto& hart : harts_) hart->power_off_at(times[next_time]);
        }
        wait(from_ps(times[next_time] - now), command_cut_event_);
      } else {
        wait(command_cut_event_);
      }
    }
    if (command_cut_due_) {
      command_cut_due_ = false;
      supply_failure("commands");
    } else {
      ++next_time;
      supply_failure("time");
    }
  }
}

void Soc::supply_failure(const std::string& trigger) {
  PowerCut cut;
  cut.trigger = trigger;
  cut.fail_ps = to_ps(sc_core::sc_time_stamp());
  const uint64_t plp_ps = config_.firmware.params.ftl_plp_ps;
  cut.plp = plp_ps != 0;
  if (cut.plp) {
    set_power_state(PowerState::kHoldUp);
    power_ready_ps_.reset();
    sysctrl_.power_fail();
    const uint64_t deadline = cut.fail_ps + plp_ps;
    for (auto& hart : harts_) hart->power_off_at(deadline);
    wait(from_ps(deadline - cut.fail_ps), power_ready_event_);
    cut.firmware_ready = power_ready_ps_.has_value();
  }
  // The harts were kept from passing a scheduled cut (a failure's time, the hold-up's end or the
  // firmware's ready): it is now. A failure at a completion finds them up to a quantum ahead of
  // the kernel: the cut comes at the latest of their times, which none has passed.
  const uint64_t now = to_ps(sc_core::sc_time_stamp());
  const uint64_t cut_ps = cut.plp || trigger != "commands" ? now
                                                           : std::max(now, to_ps(simulated_time()));
  for (auto& hart : harts_) hart->power_off_at(cut_ps);
  if (cut_ps > now) wait(from_ps(cut_ps - now));
  power_off(cut);
  power_cuts_.push_back(cut);
  wait(from_ps(config_.host.power_loss.off_ps));
  power_on();
}

void Soc::power_off(PowerCut& cut) {
  cut.cut_ps = to_ps(sc_core::sc_time_stamp());
  // The FTL's statistics as the power goes, before the RAM holding them is lost.
  if (ftl_metrics_) {
    FtlMetrics::Snapshot snapshot;
    if (!ftl_snapshot(snapshot, false)) {
      ftl_metrics_->carry_over(snapshot);
      ftl_at_cut_ = std::move(snapshot);
    }
  }
  set_power_state(PowerState::kOff);
  for (auto& hart : harts_) hart->power_cut();
  nfc_.power_cut();
  hic_.power_cut();
  cut.commands_failed = host_.power_lost();
  sysctrl_.power_cut();
  if (accel_) accel_->power_cut();
  clint_.reset();
  intc_.reset();
  // Each memory's pattern differs by cut and by memory, from the run's seed.
  uint64_t state = config_.sim.seed ^ (uint64_t{power_cuts_.size() + 1} << 32);
  sram_.lose_contents(splitmix64(state));
  if (dram_) dram_->lose_contents(splitmix64(state));
  log::info(*this, "power cut ({}): {} host command(s) failed", cut.trigger,
            cut.commands_failed);
}

void Soc::power_on() {
  ++boot_count_;
  sysctrl_.power_on(boot_count_, SYSCTRL_RESET_CAUSE_POWER_LOSS);
  load_segments(*program_);
  write_boot_config();
  for (auto& hart : harts_) hart->power_on(program_->entry());
  power_cuts_.back().on_ps = to_ps(sc_core::sc_time_stamp());
  set_power_state(PowerState::kBooting);
  log::info(*this, "power on: boot {}", boot_count_);
}

void Soc::controller_ready() {
  if (power_state_ != PowerState::kBooting) return;
  power_cuts_.back().ready_ps = to_ps(sc_core::sc_time_stamp());
  set_power_state(PowerState::kOn);
}

void Soc::set_power_state(PowerState state) {
  power_state_ = state;
  if (!power_signal_) return;
  static const char* const kNames[] = {"on", "hold_up", "off", "booting"};
  waves_->set_state(*power_signal_, kNames[static_cast<size_t>(state)],
                    to_ps(sc_core::sc_time_stamp()));
}

void Soc::report_power(nlohmann::json& out) const {
  nlohmann::json cuts = nlohmann::json::array();
  uint64_t commands_failed = 0;
  uint64_t with_plp = 0;
  uint64_t recovered = 0;
  uint64_t recovery_sum_ps = 0;
  uint64_t recovery_max_ps = 0;
  for (const PowerCut& cut : power_cuts_) {
    commands_failed += cut.commands_failed;
    with_plp += cut.plp;
    nlohmann::json recovery = nullptr;
    if (cut.ready_ps) {
      const uint64_t ps = *cut.ready_ps - cut.on_ps;
      recovery = ps;
      ++recovered;
      recovery_sum_ps += ps;
      recovery_max_ps = std::max(recovery_max_ps, ps);
    }
    cuts.push_back({{"trigger", cut.trigger},
                    {"fail_ps", cut.fail_ps},
                    {"plp", cut.plp},
                    {"firmware_ready", cut.firmware_ready},
                    {"cut_ps", cut.cut_ps},
                    {"commands_failed", cut.commands_failed},
                    {"power_on_ps", cut.on_ps == 0 ? nlohmann::json(nullptr)
                                                   : nlohmann::json(cut.on_ps)},
                    {"ready_ps", cut.ready_ps ? nlohmann::json(*cut.ready_ps) : nullptr},
                    {"recovery_ps", recovery}});
  }
  out = {{"cuts", std::move(cuts)},
         {"count", power_cuts_.size()},
         {"skipped", skipped_cuts_},
         {"with_plp", with_plp},
         {"boots", boot_count_},
         {"commands_failed", commands_failed},
         {"recovered", recovered},
         {"recovery_ps",
          {{"mean", recovered == 0 ? nlohmann::json(nullptr)
                                   : nlohmann::json(static_cast<double>(recovery_sum_ps) /
                                                    static_cast<double>(recovered))},
           {"max", recovered == 0 ? nlohmann::json(nullptr) : nlohmann::json(recovery_max_ps)}}}};
}

void Soc::print_memory_map(std::ostream& out) const { router_.print_map(out); }

}  // namespace ssdvp
