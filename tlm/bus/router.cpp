#include "tlm/bus/router.h"

#include <algorithm>
#include <iterator>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

#include "tlm/system/sim_time.h"

namespace ssdvp {
namespace {

constexpr uint64_t kAddressSpace = uint64_t{1} << 32;

std::string describe_range(const Router::Target& target) {
  return fmt::format("'{}' [{:#010x}, {:#010x}]", target.name, target.base,
                     target.base + target.size - 1);
}

std::string human_size(uint64_t bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return fmt::format("{} {}", bytes, kUnits[unit]);
}

}  // namespace

Router::Router(sc_core::sc_module_name name)
    : sc_core::sc_module(name), target_socket("target_socket"), initiator_socket("initiator_socket") {
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::map(const std::string& target_name, uint64_t base, uint64_t size,
                 tlm::tlm_base_target_socket<32>& target) {
  Target added{target_name, base, size, 0, std::nullopt, &target.get_base_export()};
  if (size == 0) {
    throw std::runtime_error(
        fmt::format("router {}: target '{}' has size 0: allowed 1 .. 4 GiB", name(), target_name));
  }
  if (base >= kAddressSpace || kAddressSpace - base < size) {
    throw std::runtime_error(fmt::format(
        "router {}: target '{}' at {:#x} with size {:#x} ends beyond the 32-bit address space",
        name(), target_name, base, size));
  }
  for (const Target& existing : targets_) {
    if (base < existing.base + existing.size && existing.base < base + size) {
      throw std::runtime_error(fmt::format("router {}: target {} overlaps target {}", name(),
                                           describe_range(added), describe_range(existing)));
    }
  }
  initiator_socket.bind(target);
  targets_.push_back(std::move(added));
  by_base_.push_back(Window{base, size, targets_.size() - 1});
  std::sort(by_base_.begin(), by_base_.end(),
            [](const Window& a, const Window& b) { return a.base < b.base; });
  recent_window_.fill(0);
}

void Router::trace_transactions(WaveWriter& waves, const std::string& scope) {
  waves_ = &waves;
  for (Target& target : targets_) {
    target.wave_signal = waves.add_signal(scope, target.name + "_transactions", 64, 0);
  }
}

std::optional<size_t> Router::decode(uint64_t address, uint64_t length) const {
  if (by_base_.empty()) return std::nullopt;
  size_t& recent = recent_window_[(address >> kRecentBlockShift) % kRecentBlocks];
  const Window* window = &by_base_[recent];
  if (address < window->base || address - window->base >= window->size) {
    auto after = std::upper_bound(by_base_.begin(), by_base_.end(), address,
                                  [](uint64_t value, const Window& w) { return value < w.base; });
    if (after == by_base_.begin()) return std::nullopt;
    window = &*std::prev(after);
    recent = static_cast<size_t>(window - by_base_.data());
  }
  const uint64_t offset = address - window->base;
  if (offset >= window->size || window->size - offset < length) return std::nullopt;
  return window->slot;
}

const Router::Target* Router::target_at(uint64_t address, uint64_t length) const {
  const std::optional<size_t> slot = decode(address, length);
  return slot ? &targets_[*slot] : nullptr;
}

void Router::b_transport(int /*master*/, tlm::tlm_generic_payload& trans,
                         sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  const std::optional<size_t> slot = decode(address, trans.get_data_length());
  if (!slot) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  Target& target = targets_[*slot];
  trans.set_address(address - target.base);
  initiator_socket[static_cast<int>(*slot)]->b_transport(trans, delay);
  trans.set_address(address);
  ++target.transactions;
  if (target.wave_signal) {
    waves_->add(*target.wave_signal, 1, to_ps(sc_core::sc_time_stamp() + delay));
  }
}

unsigned Router::transport_dbg(int /*master*/, tlm::tlm_generic_payload& trans) {
  return debug_transport(trans);
}

unsigned Router::debug_transport(tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  const std::optional<size_t> slot = decode(address, 1);
  if (!slot) return 0;
  const Target& target = targets_[*slot];
  // A debug access may run past the end of its target: it transfers what lies inside.
  const unsigned length = trans.get_data_length();
  const uint64_t inside = target.base + target.size - address;
  trans.set_data_length(static_cast<unsigned>(std::min<uint64_t>(length, inside)));
  trans.set_address(address - target.base);
  const unsigned transferred = (*target.forward)->transport_dbg(trans);
  trans.set_address(address);
  trans.set_data_length(length);
  return transferred;
}

bool Router::get_direct_mem_ptr(int /*master*/, tlm::tlm_generic_payload& trans,
                                tlm::tlm_dmi& dmi) {
  const uint64_t address = trans.get_address();
  const std::optional<size_t> slot = decode(address, 1);
  if (!slot) {
    dmi.set_start_address(address);
    dmi.set_end_address(address);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  const Target& target = targets_[*slot];
  trans.set_address(address - target.base);
  const bool granted = initiator_socket[static_cast<int>(*slot)]->get_direct_mem_ptr(trans, dmi);
  trans.set_address(address);
  // The target speaks in local offsets; masters need global addresses within the mapping.
  const uint64_t last = target.size - 1;
  dmi.set_start_address(target.base + std::min<uint64_t>(dmi.get_start_address(), last));
  dmi.set_end_address(target.base + std::min<uint64_t>(dmi.get_end_address(), last));
  return granted;
}

void Router::invalidate_direct_mem_ptr(int target_slot, sc_dt::uint64 start, sc_dt::uint64 end) {
  const Target& target = targets_[static_cast<size_t>(target_slot)];
  const uint64_t last = target.size - 1;
  if (start > last) return;
  const uint64_t global_start = target.base + start;
  const uint64_t global_end = target.base + std::min<uint64_t>(end, last);
  for (unsigned master = 0; master < target_socket.size(); ++master) {
    target_socket[static_cast<int>(master)]->invalidate_direct_mem_ptr(global_start, global_end);
  }
}

void Router::print_map(std::ostream& out) const {
  out << "Memory map:\n";
  for (const Window& window : by_base_) {
    const Target& target = targets_[window.slot];
    out << fmt::format("  {:#010x} - {:#010x}  {:<10} {}\n", target.base,
                       target.base + target.size - 1, target.name, human_size(target.size));
  }
}

}  // namespace ssdvp
