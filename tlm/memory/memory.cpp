#include "tlm/memory/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "tlm/system/random.h"

namespace ssdvp {

Memory::Memory(sc_core::sc_module_name name, uint64_t size_bytes,
               const sc_core::sc_time& read_latency, const sc_core::sc_time& write_latency,
               bool bus_writable)
    : sc_core::sc_module(name),
      socket("socket"),
      size_(size_bytes),
      read_latency_(read_latency),
      write_latency_(write_latency),
      bus_writable_(bus_writable) {
  if (size_ == 0) {
    throw std::runtime_error(fmt::format("memory {}: size must be at least 1 byte", this->name()));
  }
  // MAP_NORESERVE: no swap is committed up front; pages appear zero-filled when first touched.
  void* mapping = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) {
    throw std::runtime_error(fmt::format("memory {}: cannot reserve {} bytes of host memory: {}",
                                         this->name(), size_, std::strerror(errno)));
  }
  storage_ = static_cast<uint8_t*>(mapping);
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
}

Memory::~Memory() { munmap(storage_, size_); }

uint64_t Memory::resident_bytes() const {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((size_ + page - 1) / page);
  if (mincore(storage_, size_, resident.data()) != 0) {
    throw std::runtime_error(
        fmt::format("memory {}: mincore failed: {}", name(), std::strerror(errno)));
  }
  uint64_t pages = 0;
  for (unsigned char flags : resident) pages += flags & 1u;
  return pages * page;
}

void Memory::lose_contents(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t offset = 0; offset < size_; offset += sizeof(uint64_t)) {
    const uint64_t word = splitmix64(state);
    std::memcpy(storage_ + offset, &word, std::min<uint64_t>(sizeof(word), size_ - offset));
  }
}

void Memory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  if (address >= size_ || size_ - address < length) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() < length) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND:
      std::memcpy(trans.get_data_ptr(), storage_ + address, length);
      delay += read_latency_;
      ++bus_reads_;
      break;
    case tlm::TLM_WRITE_COMMAND:
      if (!bus_writable_) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
      }
      std::memcpy(storage_ + address, trans.get_data_ptr(), length);
      delay += write_latency_;
      ++bus_writes_;
      break;
    case tlm::TLM_IGNORE_COMMAND:
      break;
  }
  trans.set_dmi_allowed(true);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  if (address >= size_) return 0;
  const unsigned length =
      static_cast<unsigned>(std::min<uint64_t>(trans.get_data_length(), size_ - address));
  if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), storage_ + address, length);
  } else if (trans.is_write()) {
    std::memcpy(storage_ + address, trans.get_data_ptr(), length);
  } else {
    return 0;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

const uint8_t* Memory::host_bytes(uint64_t offset, size_t length) const {
  if (offset >= size_ || size_ - offset < length) return nullptr;
  return storage_ + offset;
}

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  if (trans.get_address() >= size_) {
    // No grant: tell the initiator that the whole address space beyond us is not ours to give.
    dmi.set_start_address(size_);
    dmi.set_end_address(~sc_dt::uint64{0});
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  dmi.set_dmi_ptr(storage_);
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.set_read_latency(read_latency_);
  dmi.set_write_latency(write_latency_);
  dmi.set_granted_access(bus_writable_ ? tlm::tlm_dmi::DMI_ACCESS_READ_WRITE
                                       : tlm::tlm_dmi::DMI_ACCESS_READ);
  return true;
}

}  // namespace ssdvp
