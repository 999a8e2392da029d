#include "tlm/bus/register_bank.h"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp {

RegisterBank::RegisterBank(std::string owner) : owner_(std::move(owner)) {}

void RegisterBank::add(uint32_t offset, std::string name, uint32_t reset_value, Access access,
                       ReadCallback on_read, WriteCallback on_write) {
  if (offset % 4 != 0) {
    throw std::runtime_error(fmt::format("{}: register '{}' at offset {:#x} is not 32-bit aligned",
                                         owner_, name, offset));
  }
  auto existing = registers_.find(offset);
  if (existing != registers_.end()) {
    throw std::runtime_error(fmt::format("{}: register '{}' at offset {:#x} is already declared as '{}'",
                                         owner_, name, offset, existing->second.name));
  }
  auto added = registers_.emplace(offset, Register{std::move(name), reset_value, access,
                                                   std::move(on_read), std::move(on_write),
                                                   reset_value});
  if (by_word_.size() <= offset / 4) by_word_.resize(offset / 4 + 1, nullptr);
  by_word_[offset / 4] = &added.first->second;  // map nodes never move
}

RegisterBank::Register& RegisterBank::lookup(uint32_t offset) {
  return const_cast<Register&>(static_cast<const RegisterBank&>(*this).lookup(offset));
}

const RegisterBank::Register& RegisterBank::lookup(uint32_t offset) const {
  const Register* found = find(offset);
  if (found == nullptr) {
    throw std::runtime_error(fmt::format("{}: no register at offset {:#x}", owner_, offset));
  }
  return *found;
}

uint32_t RegisterBank::get(uint32_t offset) const { return lookup(offset).value; }

void RegisterBank::set(uint32_t offset, uint32_t value) { lookup(offset).value = value; }

void RegisterBank::reset() {
  for (auto& [offset, reg] : registers_) reg.value = reg.reset_value;
}

void RegisterBank::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  if (trans.get_data_length() != 4 || address % 4 != 0 || trans.get_byte_enable_ptr() != nullptr ||
      trans.get_streaming_width() < 4) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  Register* found = find(address);
  if (found == nullptr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  Register& reg = *found;
  if (trans.is_read()) {
    if (reg.access == Access::kWriteOnly) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    if (reg.on_read) reg.value = reg.on_read(delay);
    std::memcpy(trans.get_data_ptr(), &reg.value, 4);
  } else if (trans.is_write()) {
    if (reg.access == Access::kReadOnly) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    uint32_t value;
    std::memcpy(&value, trans.get_data_ptr(), 4);
    reg.value = value;
    if (reg.on_write) reg.on_write(value, delay);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned RegisterBank::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  if (trans.get_data_length() != 4) return 0;
  Register* found = find(address);
  if (found == nullptr) return 0;
  if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), &found->value, 4);
  } else if (trans.is_write()) {
    std::memcpy(&found->value, trans.get_data_ptr(), 4);
  } else {
    return 0;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return 4;
}

}  // namespace ssdvp
