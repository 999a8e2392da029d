// The SoC interconnect: masters (harts, later the NFC DMA and the HIC) bind to target_socket,
// targets are mapped at (base, size) on initiator_socket. Addresses are translated to
// target-local offsets; DMI ranges are translated back to global addresses and DMI revocations
// are forwarded to every master.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "tlm/system/wave_writer.h"

namespace ssdvp {

class Router : public sc_core::sc_module {
 public:
  struct Target {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    uint64_t transactions = 0;  // bus (b_transport) accesses, debug accesses excluded
    std::optional<WaveWriter::SignalId> wave_signal;
    // For debug accesses, which the loader makes before elaboration has completed the binding of
    // initiator_socket; the target's own export is usable from its construction.
    sc_core::sc_export<tlm::tlm_fw_transport_if<>>* forward = nullptr;
  };

  tlm_utils::multi_passthrough_target_socket<Router> target_socket;        // masters bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator_socket;  // bound by map()

  explicit Router(sc_core::sc_module_name name);

  // Binds `target` to the next initiator-socket slot and maps it at [base, base + size) of the
  // 32-bit address space. Throws std::runtime_error for a size of 0, a range beyond 4 GiB, or an
  // overlap with an existing mapping (naming both).
  void map(const std::string& target_name, uint64_t base, uint64_t size,
           tlm::tlm_base_target_socket<32>& target);

  // Records each target's transaction count as a waveform signal in `scope`. Call after map().
  void trace_transactions(WaveWriter& waves, const std::string& scope);

  // Debug access (no time, no side effects on counters) at a global address, as a master's
  // transport_dbg would do; returns the bytes transferred (0 when nothing is mapped there).
  // Usable before simulation starts (program loading).
  unsigned debug_transport(tlm::tlm_generic_payload& trans);

  const std::vector<Target>& targets() const { return targets_; }
  // The mapping containing [address, address + length), if one does.
  const Target* target_at(uint64_t address, uint64_t length = 1) const;
  void print_map(std::ostream& out) const;

 private:
  std::optional<size_t> decode(uint64_t address, uint64_t length) const;

  void b_transport(int master, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(int master, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int master, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

  // A mapping as decode() searches it: contiguous, without the target's name and counters.
  struct Window {
    uint64_t base;
    uint64_t size;
    size_t slot;
  };

  std::vector<Target> targets_;      // in initiator-socket slot order
  std::vector<Window> by_base_;      // sorted by base address
  // The window each 64 KiB block of addresses last decoded to, tried before the search: a hart's
  // accesses alternate between a few peripherals (each in a 64 KiB block of its own) and
  // memories, and come in runs to each.
  static constexpr unsigned kRecentBlockShift = 16;
  static constexpr size_t kRecentBlocks = 16;
  mutable std::array<size_t, kRecentBlocks> recent_window_{};
  WaveWriter* waves_ = nullptr;
};

}  // namespace ssdvp
