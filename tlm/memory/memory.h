// A byte-addressed memory target: the model of the ROM, the SRAM and the DRAM.
//
// Host storage is one reservation of the whole size that the OS backs page by page on first
// touch, so a 1 GiB DRAM costs nothing until the firmware uses it, and DMI hands out a single
// contiguous pointer. Every access costs a fixed read or write latency.
#pragma once

#include <cstddef>
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace ssdvp {

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;

  // bus_writable = false makes a ROM: bus writes fail with TLM_COMMAND_ERROR_RESPONSE, debug
  // writes (program loading) still work. Throws std::runtime_error if size is 0 or the host
  // cannot reserve it.
  Memory(sc_core::sc_module_name name, uint64_t size_bytes, const sc_core::sc_time& read_latency,
         const sc_core::sc_time& write_latency, bool bus_writable);
  ~Memory() override;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  uint64_t size() const { return size_; }
  bool bus_writable() const { return bus_writable_; }
  const sc_core::sc_time& read_latency() const { return read_latency_; }
  const sc_core::sc_time& write_latency() const { return write_latency_; }

  // A power loss: every byte takes a pseudo-random pattern drawn from `seed`, so firmware that
  // relies on RAM surviving, or reading zero, after a power loss finds garbage, the same in
  // every run. The whole memory is written: its host pages become resident (a large DRAM costs
  // its size in host memory from the first cut on). Direct-memory pointers stay valid.
  void lose_contents(uint64_t seed);

  // Host bytes the OS has actually allocated for this memory (pages touched so far).
  uint64_t resident_bytes() const;
  uint64_t bus_reads() const { return bus_reads_; }
  uint64_t bus_writes() const { return bus_writes_; }
  // The host bytes a debug read of `length` bytes at `offset` returns, for readers without a
  // payload; they stay where they are for the memory's lifetime. nullptr when they do not all lie
  // inside.
  const uint8_t* host_bytes(uint64_t offset, size_t length) const;

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

  uint64_t size_;
  sc_core::sc_time read_latency_;
  sc_core::sc_time write_latency_;
  bool bus_writable_;
  uint8_t* storage_ = nullptr;
  uint64_t bus_reads_ = 0;
  uint64_t bus_writes_ = 0;
};

}  // namespace ssdvp
