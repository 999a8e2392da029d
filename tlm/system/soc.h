// The whole controller SoC assembled from a SocConfig: harts, router, ROM, SRAM, optional DRAM,
// system controller, CLINT, interrupt controller and the NAND flash controller with its flash
// array, at the addresses of interface/memory_map.h, plus the host interface controller and the
// host model driving it. It loads the firmware, runs it to its end (or the workload's) and
// reports what happened.
//
// Power losses (host.power_loss.*, power_schedule.h): at each supply failure without
// power-loss protection (ftl.plp = 0) the power is cut at once; with it, the system controller
// raises the power-fail interrupt (SYSCTRL_POWER_STATUS, IRQ_SRC_POWER_FAIL), the firmware runs
// on for ftl.plp and the power is cut then, or when it writes SYSCTRL_POWER_READY. At the cut
// the harts stop (none runs an instruction at or after it), the NFC drops its operations and
// interrupts the program or erase in its array phase (nfc.h), SRAM and DRAM lose their contents
// (memory.h: a pattern from the seed), the HIC loses its rings and commands, and the host sees
// every outstanding command fail; the CLINT and the interrupt controller return to power-on
// state. (A cut scheduled while the power is already failing or off is skipped.) A cut with the
// trigger "commands" comes when the host has seen that many completions, or up to a quantum
// later: at the latest time a hart has reached, since harts run ahead of the kernel.
// host.power_loss.off_time later the power comes back: the ELF's segments are loaded again,
// the boot-config block written again, the system controller tells the boot count and the
// reset cause (power loss), and every hart starts at the entry point. The controller is ready
// when the firmware starts the HIC rings (HIC_ENABLE): the host resumes, and the time from
// power-on to then is the recovery time of the cut. report() gives them under "power_loss".
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "tlm/accel/accel.h"
#include "tlm/bus/router.h"
#include "tlm/cpu/cpu_tlm.h"
#include "tlm/cpu/rv_reservations.h"
#include "tlm/host/hic.h"
#include "tlm/host/host_model.h"
#include "tlm/memory/memory.h"
#include "tlm/nfc/nfc.h"
#include "tlm/system/area_model.h"
#include "tlm/system/clint.h"
#include "tlm/system/controller_area.h"
#include "tlm/system/elf_image.h"
#include "tlm/system/ftl_metrics.h"
#include "tlm/system/intc.h"
#include "tlm/system/power_schedule.h"
#include "tlm/system/soc_config.h"
#include "tlm/system/sysctrl.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {

class Soc : public sc_core::sc_module, private HartObserver {
 public:
  struct RunResult {
    enum class Outcome {
      kExit, kTohostPass, kTohostFail, kFault, kMaxTime, kMaxInstructions, kHang,
      // The host model: its last phase ended; a trace or stream failed during the run; a read
      // failed the integrity check; the firmware misused the HIC.
      kWorkloadDone, kWorkloadError, kIntegrityFailure, kHicError
    };
    Outcome outcome;
    // kExit: the firmware's code; kTohostFail: tohost >> 1; kFault, kHang, kWorkloadError,
    // kIntegrityFailure, kHicError: 1; otherwise 0.
    int exit_code;
    std::string message;
  };

  // Sets the SystemC time resolution to 1 ps and the global quantum. Throws std::runtime_error
  // naming the configuration key and its allowed range for an invalid configuration.
  Soc(sc_core::sc_module_name name, const SocConfig& config, WaveWriter* waves);
  ~Soc() override;

  // Loads the PT_LOAD segments through the router (zero-filling beyond their file bytes), writes
  // the boot-config block and resets every hart to the entry point (with the tohost address when
  // the ELF defines `tohost`). Throws std::runtime_error for a segment outside every memory.
  void load_program(const ElfImage& elf);

  // Simulates until the firmware exits, writes tohost, faults, or a limit or a hang ends the run.
  // May be called once, after load_program.
  RunResult run();
  // Called between run steps (about every thousand quanta of simulated time), e.g. to show
  // progress.
  void on_progress(std::function<void()> callback) { progress_ = std::move(callback); }

  // Per hart counters, simulated time, per-target bus transactions, memory sizes and resident
  // host bytes, and the flash array ("nand") and its controller ("nfc"), as keys of `out`;
  // the host interface under "host" (host_model.h, with the HIC under "host.hic"), the
  // accelerator under "accel" when present, the controller's silicon area under "area"
  // (controller_area.h). When the program has a `fw_stats` symbol: the FTL metrics under "ftl"
  // (ftl_metrics.h), or {"error": why} when the block there is not a valid statistics block.
  void report(nlohmann::json& out) const;
  // The program has a `fw_stats` symbol: there are FTL metrics, and ftl_timeseries.csv.
  bool has_ftl_metrics() const { return ftl_metrics_.has_value(); }
  void write_ftl_timeseries(std::ostream& out) const;
  void print_memory_map(std::ostream& out) const;

  void set_instruction_trace(std::ostream* out);
  // Per-address cycle profile over the program's code (its executable segments, else the ROM).
  void enable_profile();
  // (address, cycles) of every non-zero halfword counter, merged over harts, by address.
  std::vector<std::pair<uint32_t, uint64_t>> profile() const;
  // The same for each workload phase that began, in order: the cycles spent between its start
  // and its end (or the end of the run, `ended` false).
  struct PhaseProfile {
    std::string phase;
    bool ended = false;
    std::vector<std::pair<uint32_t, uint64_t>> cycles;
  };
  const std::vector<PhaseProfile>& phase_profiles() const { return phase_profiles_; }

  const std::string& console_text() const { return sysctrl_.console_text(); }
  // Reads firmware memory by debug access (no simulated time, no side effects).
  FtlMetrics::DebugRead debug_reader() const;

  // Parts, for device models added to the SoC and for tests.
  Router& router() { return router_; }
  Intc& intc() { return intc_; }
  Accel* accel() { return accel_.get(); }  // null without accel.present
  Clint& clint() { return clint_; }
  Sysctrl& sysctrl() { return sysctrl_; }
  Nfc& nfc() { return nfc_; }
  host::Hic& hic() { return hic_; }
  host::HostModel& host_model() { return host_; }
  const host::HostModel& host_model() const { return host_; }
  unsigned hart_count() const { return static_cast<unsigned>(harts_.size()); }
  Hart& hart(unsigned index) { return *harts_.at(index); }
  const Hart& hart(unsigned index) const { return *harts_.at(index); }
  // Latest of the current time and every hart's local time.
  sc_core::sc_time simulated_time() const;

 private:
  void batch_done(Hart& hart, cpu::StopReason reason) override;
  void hart_stopped(Hart& hart) override;

  void write_memory(uint32_t address, const uint8_t* data, size_t size, const std::string& what);
  // The ELF's PT_LOAD segments into memory (zero-filled beyond their file bytes).
  void load_segments(const ElfImage& elf);

  // Power (see the class comment).
  enum class PowerState { kOn, kHoldUp, kOff, kBooting };
  struct PowerCut {
    std::string trigger;           // "time" or "commands"
    uint64_t fail_ps = 0;          // the supply failed
    bool plp = false;              // with a hold-up budget
    bool firmware_ready = false;   // the firmware wrote SYSCTRL_POWER_READY before its end
    uint64_t cut_ps = 0;           // the power went
    uint32_t commands_failed = 0;  // host commands outstanding then
    uint64_t on_ps = 0;            // the power came back (0: the run ended first)
    std::optional<uint64_t> ready_ps;  // the firmware started the HIC rings again
  };
  void power_thread();
  // One supply failure now, up to the power's return; `trigger` as in PowerCut.
  void supply_failure(const std::string& trigger);
  void power_off(PowerCut& cut);
  void power_on();
  void controller_ready();  // SC_METHOD on the HIC's enabled event
  void set_power_state(PowerState state);
  void report_power(nlohmann::json& out) const;
  // Throws when the image says (symbol fw_boot_config_version) it reads another boot-config
  // layout than the one this platform writes.
  void check_boot_config_version(const ElfImage& elf);
  void write_boot_config();
  // FTL statistics (the program's `fw_stats` block): a snapshot now, and the phase boundaries.
  // Reads the statistics block into `snapshot` (the NAND's erase counts too when `with_wear`):
  // what is wrong with the block, or nullopt.
  std::optional<std::string> ftl_snapshot(FtlMetrics::Snapshot& snapshot, bool with_wear) const;
  void ftl_phase_boundary(const std::string& phase, bool ended);
  // The host bytes behind firmware memory in the ROM, the SRAM or the DRAM (all `bytes` in one of
  // them), or nullptr: what the debug reader copies without the router.
  const uint8_t* memory_bytes(uint32_t address, size_t bytes) const;
  void sample_ftl();  // the time-series sampler (SC_METHOD)
  void apply_profile();
  std::vector<uint64_t> merged_profile_counters() const;
  // (address, cycles) of the non-zero halfword counters, by address.
  std::vector<std::pair<uint32_t, uint64_t>> nonzero_profile(
      const std::vector<uint64_t>& counters) const;
  void profile_phase_boundary(const std::string& phase, bool ended);
  void close_profile_phase(bool ended);
  void end_run(RunResult::Outcome outcome, int exit_code, std::string message);
  void stop_simulation();
  std::string describe_trap(const Hart& hart) const;

  SocConfig config_;
  WaveWriter* waves_;
  AreaModel area_model_;  // the figures of config_.area.node
  cpu::Reservations reservations_;
  std::vector<std::unique_ptr<Hart>> harts_;
  Router router_;
  Memory rom_;
  Memory sram_;
  std::unique_ptr<Memory> dram_;
  Sysctrl sysctrl_;
  Clint clint_;
  Intc intc_;
  Nfc nfc_;
  // The host interface: the HIC and the host model that drives it (built after the HIC).
  host::Hic hic_;
  host::HostModel host_;
  std::function<void()> progress_;
  std::unique_ptr<Accel> accel_;  // the RQRMI accelerator, when present

  std::optional<ElfImage> program_;
  std::optional<FtlMetrics> ftl_metrics_;  // when the program has a `fw_stats` symbol
  sc_core::sc_event ftl_sample_event_;
  std::vector<uint64_t> ftl_sample_values_;  // reused by every sample
  bool profile_enabled_ = false;
  uint32_t profile_base_ = 0;
  std::vector<uint64_t> phase_start_counters_;  // the counters when the open phase began
  std::vector<PhaseProfile> phase_profiles_;
  bool profile_phase_open_ = false;
  std::ostream* trace_ = nullptr;
  bool ran_ = false;
  bool simulation_stopped_ = false;
  std::optional<RunResult> result_;

  PowerSchedule power_schedule_;
  PowerState power_state_ = PowerState::kOn;
  uint32_t boot_count_ = 1;
  size_t next_command_cut_ = 0;  // in power_schedule_.command_counts()
  bool command_cut_due_ = false;
  uint64_t skipped_cuts_ = 0;
  sc_core::sc_event command_cut_event_;
  sc_core::sc_event power_ready_event_;
  std::optional<uint64_t> power_ready_ps_;  // SYSCTRL_POWER_READY written during the hold-up
  std::vector<PowerCut> power_cuts_;
  // The FTL's statistics when the power was last cut: what the metrics show until the firmware
  // is up again (it zeroes its block at boot).
  std::optional<FtlMetrics::Snapshot> ftl_at_cut_;
  std::optional<WaveWriter::SignalId> power_signal_;
};

}  // namespace ssdvp
