// The instruction-set model: random instruction words and register states on a small memory.
// The input's leading bytes are the program at address 0 (also the trap vector: mtvec resets to
// 0); its last bytes give the registers, the instruction costs, the pending interrupts, whether
// memory is served through direct regions or the slow bus path, and whether the instruction
// trace (and with it the disassembler) is on. Whatever the words, the hart must run until its
// cycle budget, a WFI or a trap loop ends the batch, without crashing, hanging or making a bus
// access the bus interface forbids (TestBus throws on a misaligned or oddly sized one).
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  TestBus bus;
  bus.ram_direct = input.ConsumeBool();
  bus.sram_direct = input.ConsumeBool();
  const bool trace = input.ConsumeBool();
  const uint8_t pending = input.ConsumeIntegral<uint8_t>();

  ssdvp::cpu::InstructionCosts costs;
  for (uint32_t* cost : {&costs.alu, &costs.branch_taken, &costs.branch_not_taken, &costs.jump,
                         &costs.load, &costs.store, &costs.mul, &costs.div, &costs.csr,
                         &costs.atomic, &costs.fence, &costs.misaligned, &costs.trap, &costs.fpu,
                         &costs.fdiv, &costs.fsqrt, &costs.fma}) {
    *cost = input.ConsumeIntegralInRange<uint32_t>(kMinCost, kMaxCost);
  }
  ssdvp::cpu::Reservations reservations;
  ssdvp::cpu::Core core(0, bus, reservations, costs);
  core.reset(TestBus::kRamBase);
  for (unsigned index = 1; index < 32; ++index) {
    core.set_reg(index, input.ConsumeIntegral<uint32_t>());
  }
  for (unsigned index = 0; index < 32; ++index) {
    core.set_freg(index, input.ConsumeIntegral<uint32_t>());
  }
  for (unsigned bit = 0; bit < 3; ++bit) {
    core.set_interrupt_pending(kInterruptBits[bit], (pending >> bit) & 1);
  }
  bus.load(TestBus::kRamBase, input.ConsumeBytes<uint8_t>(kMaxProgramBytes));
  core.flush_decode_cache();

  // A stream without a buffer: the trace lines are formatted and dropped.
  std::ostream discard(nullptr);
  if (trace) core.set_instruction_trace(&discard);
  core.run(kCycleBudget);
  return 0;
}
