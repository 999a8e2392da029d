// The instruction-set model: random instruction words and register states on a small memory.
// The input's leading bytes are the program at address 0 (also the trap vector: mtvec resets to
// 0); its last bytes give the registers, the instruction costs, the pending interrupts, whether
// memory is served through direct regions or the slow bus path, and whether the instruction
// trace (and with it the disassembler) is on. Whatever the words, the hart must run until its
// cycle budget, a WFI or a trap loop ends the batch, without crashing, hanging or making a bus
// access the bus interface forbids (TestBus throws on a misaligned or oddly sized one). It runs
// twice, on the translating back end and on the interpreter, which must agree on the end state.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "tb/tests/cpu/test_bus.h"
#include "tlm/cpu/rv_core.h"
#include "tlm/cpu/rv_reservations.h"

namespace {

using ssdvp::cpu::test::TestBus;

constexpr uint64_t kCycleBudget = 5'000;
constexpr size_t kMaxProgramBytes = 4096;
// Core refuses a zero cost but for the misaligned one (a batch of zero-cycle instructions never
// ends), so costs are drawn from 1.
constexpr uint32_t kMinCost = 1;
constexpr uint32_t kMaxCost = 3;
constexpr uint32_t kInterruptBits[] = {ssdvp::cpu::kMsip, ssdvp::cpu::kMtip, ssdvp::cpu::kMeip};

struct Hart {
  Hart(bool ram_direct, bool sram_direct, const ssdvp::cpu::InstructionCosts& costs,
       bool translate)
      : core(0, bus, reservations, costs) {
    bus.ram_direct = ram_direct;
    bus.sram_direct = sram_direct;
    core.set_translation(translate);
  }
  TestBus bus;
  ssdvp::cpu::Reservations reservations;
  ssdvp::cpu::Core core;
  ssdvp::cpu::StopReason stop = ssdvp::cpu::StopReason::kBudget;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const bool ram_direct = input.ConsumeBool();
  const bool sram_direct = input.ConsumeBool();
  const bool trace = input.ConsumeBool();
  const uint8_t pending = input.ConsumeIntegral<uint8_t>();

  ssdvp::cpu::InstructionCosts costs;
  for (uint32_t* cost : {&costs.alu, &costs.branch_taken, &costs.branch_not_taken, &costs.jump,
                         &costs.load, &costs.store, &costs.mul, &costs.div, &costs.csr,
                         &costs.atomic, &costs.fence, &costs.misaligned, &costs.trap, &costs.fpu,
                         &costs.fdiv, &costs.fsqrt, &costs.fma}) {
    *cost = input.ConsumeIntegralInRange<uint32_t>(kMinCost, kMaxCost);
  }
  std::vector<uint32_t> x(32), f(32);
  for (unsigned index = 1; index < 32; ++index) x[index] = input.ConsumeIntegral<uint32_t>();
  for (unsigned index = 0; index < 32; ++index) f[index] = input.ConsumeIntegral<uint32_t>();
  const std::vector<uint8_t> program = input.ConsumeBytes<uint8_t>(kMaxProgramBytes);

  // The same hart twice: on the default back end (the translator where the host has one) and
  // on the interpreter alone. Both must end the batch in the same state.
  Hart hart(ram_direct, sram_direct, costs, true);
  Hart reference(ram_direct, sram_direct, costs, false);
  // A stream without a buffer: the trace lines are formatted and dropped.
  std::ostream discard(nullptr);
  for (Hart* h : {&hart, &reference}) {
    h->core.reset(TestBus::kRamBase);
    for (unsigned index = 1; index < 32; ++index) h->core.set_reg(index, x[index]);
    for (unsigned index = 0; index < 32; ++index) h->core.set_freg(index, f[index]);
    for (unsigned bit = 0; bit < 3; ++bit) {
      h->core.set_interrupt_pending(kInterruptBits[bit], (pending >> bit) & 1);
    }
    h->bus.load(TestBus::kRamBase, program);
    h->core.flush_decode_cache();
    if (trace) h->core.set_instruction_trace(&discard);
    h->stop = h->core.run(kCycleBudget);
  }
  if (hart.stop != reference.stop || hart.core.pc() != reference.core.pc() ||
      hart.core.cycles() != reference.core.cycles() ||
      hart.core.instret() != reference.core.instret() ||
      hart.core.loads() != reference.core.loads() || hart.core.stores() != reference.core.stores() ||
      hart.bus.accesses.size() != reference.bus.accesses.size()) {
    __builtin_trap();
  }
  for (unsigned index = 0; index < 32; ++index) {
    if (hart.core.reg(index) != reference.core.reg(index)) __builtin_trap();
    if (hart.core.freg(index) != reference.core.freg(index)) __builtin_trap();
  }
  for (uint32_t offset = 0; offset < kMaxProgramBytes; offset += 4) {
    if (hart.bus.peek32(TestBus::kRamBase + offset) !=
        reference.bus.peek32(TestBus::kRamBase + offset)) {
      __builtin_trap();
    }
  }
  return 0;
}
