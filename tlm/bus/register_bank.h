// Register decoding for peripheral models: each register is declared once (offset, name, reset
// value, access, optional callbacks) and the bank turns 32-bit aligned bus accesses into reads
// and writes of those registers.
//
// Responses: misaligned accesses or sizes other than 4 bytes, byte enables, and streaming ->
// TLM_GENERIC_ERROR_RESPONSE; an offset with no register -> TLM_ADDRESS_ERROR_RESPONSE; a write to
// a read-only or a read of a write-only register -> TLM_COMMAND_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace ssdvp {

class RegisterBank {
 public:
  enum class Access { kReadOnly, kWriteOnly, kReadWrite };

  // Callbacks receive the transaction's annotated delay: the access happens at
  // sc_time_stamp() + delay, and a callback may add to it (e.g. a register that starts a job).
  // A read callback returns the value read (it is also stored); a write callback runs after the
  // written value has been stored, and may overwrite it with set().
  using ReadCallback = std::function<uint32_t(sc_core::sc_time& delay)>;
  using WriteCallback = std::function<void(uint32_t value, sc_core::sc_time& delay)>;

  // `owner` names the peripheral in error messages.
  explicit RegisterBank(std::string owner);
  // A copy would index the original's registers.
  RegisterBank(const RegisterBank&) = delete;
  RegisterBank& operator=(const RegisterBank&) = delete;
  RegisterBank(RegisterBank&&) = default;
  RegisterBank& operator=(RegisterBank&&) = default;

  // Throws std::runtime_error for a misaligned or already declared offset.
  void add(uint32_t offset, std::string name, uint32_t reset_value, Access access,
           ReadCallback on_read = {}, WriteCallback on_write = {});

  // Bus access: decodes, runs callbacks, sets the response status.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // Debug access: reads and writes stored values without callbacks or access checks, so a
  // debugger never claims an interrupt or prints to the console. Returns bytes transferred.
  unsigned transport_dbg(tlm::tlm_generic_payload& trans);

  // Stored values, for the owning model (throw std::runtime_error for an undeclared offset).
  uint32_t get(uint32_t offset) const;
  void set(uint32_t offset, uint32_t value);
  // Every register back to its reset value.
  void reset();

 private:
  struct Register {
    std::string name;
    uint32_t reset_value;
    Access access;
    ReadCallback on_read;
    WriteCallback on_write;
    uint32_t value;
  };

  Register& lookup(uint32_t offset);
  const Register& lookup(uint32_t offset) const;
  // The register at a bus offset, or nullptr.
  Register* find(uint64_t offset) const {
    const uint64_t word = offset / 4;
    return offset % 4 == 0 && word < by_word_.size() ? by_word_[word] : nullptr;
  }

  std::string owner_;
  std::map<uint32_t, Register> registers_;
  // The registers by offset / 4 (nullptr where none is): every bus access looks one up, and a
  // map search costs a pointer chase per level.
  std::vector<Register*> by_word_;
};

}  // namespace ssdvp
