#include "tb/tests/cpu/test_bus.h"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp::cpu::test {

TestBus::TestBus() : ram_(kRamSize, 0), sram_(kSramSize, 0), mmio_(kMmioSize, 0) {}

uint8_t* TestBus::storage(uint32_t addr, uint32_t len) {
  return const_cast<uint8_t*>(static_cast<const TestBus*>(this)->storage(addr, len));
}

const uint8_t* TestBus::storage(uint32_t addr, uint32_t len) const {
  if (addr - kRamBase < kRamSize && kRamSize - (addr - kRamBase) >= len) {
    return ram_.data() + (addr - kRamBase);
  }
  if (addr - kSramBase < kSramSize && kSramSize - (addr - kSramBase) >= len) {
    return sram_.data() + (addr - kSramBase);
  }
  if (addr - kMmioBase < kMmioSize && kMmioSize - (addr - kMmioBase) >= len) {
    return mmio_.data() + (addr - kMmioBase);
  }
  return nullptr;
}

bool TestBus::read(uint32_t addr, void* data, uint32_t len, uint64_t& extra_cycles) {
  if (len != 1 && len != 2 && len != 4) throw std::runtime_error(fmt::format("bad length {}", len));
  if (addr % len != 0) throw std::runtime_error(fmt::format("misaligned bus read {:#x}", addr));
  const uint8_t* bytes = storage(addr, len);
  if (bytes == nullptr) return false;
  std::memcpy(data, bytes, len);
  uint32_t value = 0;
  std::memcpy(&value, bytes, len);
  accesses.push_back(Access{false, addr, len, value});
  extra_cycles = addr >= kMmioBase ? mmio_cycles
                 : addr >= kSramBase ? sram_read_cycles
                                     : ram_read_cycles;
  return true;
}

bool TestBus::write(uint32_t addr, const void* data, uint32_t len, uint64_t& extra_cycles) {
  if (len != 1 && len != 2 && len != 4) throw std::runtime_error(fmt::format("bad length {}", len));
  if (addr % len != 0) throw std::runtime_error(fmt::format("misaligned bus write {:#x}", addr));
  uint8_t* bytes = storage(addr, len);
  if (bytes == nullptr) return false;
  std::memcpy(bytes, data, len);
  uint32_t value = 0;
  std::memcpy(&value, data, len);
  accesses.push_back(Access{true, addr, len, value});
  extra_cycles = addr >= kMmioBase ? mmio_cycles
                 : addr >= kSramBase ? sram_write_cycles
                                     : ram_write_cycles;
  if (addr == kTriggerAddress && on_trigger) on_trigger(value);
  return true;
}

DirectRegion TestBus::direct_region(uint32_t addr) {
  ++direct_region_requests;
  DirectRegion region;
  if (ram_direct && addr - kRamBase < kRamSize) {
    region.base = kRamBase;
    region.size = kRamSize;
    region.host = ram_.data();
    region.read_cycles = ram_read_cycles;
    region.write_cycles = ram_write_cycles;
    region.readable = region.writable = region.executable = true;
  } else if (sram_direct && addr - kSramBase < kSramSize) {
    region.base = kSramBase;
    region.size = kSramSize;
    region.host = sram_.data();
    region.read_cycles = sram_read_cycles;
    region.write_cycles = sram_write_cycles;
    region.readable = region.writable = true;
  } else if (report_refused_range && addr - kSramBase < kSramSize) {
    region.base = kSramBase;
    region.size = kSramSize;
  }
  return region;
}

void TestBus::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (bytes.empty()) return;  // memcpy may not be given the null data() of an empty vector
  uint8_t* target = storage(addr, static_cast<uint32_t>(bytes.size()));
  if (target == nullptr) throw std::runtime_error(fmt::format("no test memory at {:#x}", addr));
  std::memcpy(target, bytes.data(), bytes.size());
}

uint32_t TestBus::peek32(uint32_t addr) const {
  const uint8_t* bytes = storage(addr, 4);
  if (bytes == nullptr) throw std::runtime_error(fmt::format("no test memory at {:#x}", addr));
  uint32_t value = 0;
  std::memcpy(&value, bytes, 4);
  return value;
}

void TestBus::poke32(uint32_t addr, uint32_t value) {
  uint8_t* bytes = storage(addr, 4);
  if (bytes == nullptr) throw std::runtime_error(fmt::format("no test memory at {:#x}", addr));
  std::memcpy(bytes, &value, 4);
}

}  // namespace ssdvp::cpu::test
