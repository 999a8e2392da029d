#define SC_INCLUDE_DYNAMIC_PROCESSES

#include "tb/tests/nfc/nfc_bench.h"

#include <gtest/gtest.h>

#include "interface/nfc_regs.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {

NfcBench::NfcBench(sc_core::sc_module_name name, const NandConfig& nand,
                   const NfcConfig& nfc_config, uint64_t sram_latency_ps, WaveWriter* waves,
                   uint64_t seed)
    : sc_core::sc_module((use_picosecond_resolution(), name)),
      socket("socket"),
      router("router"),
      sram("sram", kSramBytes, from_ps(sram_latency_ps), from_ps(sram_latency_ps), true),
      nfc("nfc", nand, nfc_config, seed, waves) {
  router.map("sram", MM_SRAM_BASE, kSramBytes, sram.socket);
  router.map("nfc", MM_NFC_BASE, MM_PERIPH_WINDOW, nfc.socket);
  socket.bind(router.target_socket);
  nfc.dma_socket.bind(router.target_socket);
  nfc.on_interrupt([this](bool level) {
    if (!level) return;
    ++interrupts_;
    interrupt_.notify();
  });
  nfc.on_error([this](const std::string& message) {
    errors.push_back(message);
    interrupt_.notify();  // a driver waiting for completions sees the error
  });
}

void NfcBench::spawn(std::function<void()> body) {
  sc_core::sc_spawn(std::move(body), (std::string(basename()) + "_driver").c_str());
}

uint32_t NfcBench::read_reg(uint32_t offset) {
  uint32_t value = 0;
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(MM_NFC_BASE + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans, delay);
  EXPECT_TRUE(trans.is_response_ok()) << "register read at " << offset;
  return value;
}

void NfcBench::write_reg(uint32_t offset, uint32_t value) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(MM_NFC_BASE + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans, delay);
  EXPECT_TRUE(trans.is_response_ok()) << "register write at " << offset;
}

void NfcBench::write_mem(uint32_t address, const void* data, uint32_t length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
  trans.set_data_length(length);
  ASSERT_EQ(router.debug_transport(trans), length) << "memory write at " << address;
}

void NfcBench::read_mem(uint32_t address, void* data, uint32_t length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  ASSERT_EQ(router.debug_transport(trans), length) << "memory read at " << address;
}

void NfcBench::start(uint32_t sq_entries, uint32_t cq_entries) {
  sq_entries_ = sq_entries;
  cq_entries_ = cq_entries;
  write_reg(NFC_SQ_BASE, kSqBase);
  write_reg(NFC_SQ_ENTRIES, sq_entries);
  write_reg(NFC_CQ_BASE, kCqBase);
  write_reg(NFC_CQ_ENTRIES, cq_entries);
  write_reg(NFC_IRQ_ENABLE, NFC_IRQ_COMPLETION);
  write_reg(NFC_ENABLE, 1);
  sq_tail_ = 0;
  cq_head_ = 0;
}

void NfcBench::submit(const std::vector<nfc_desc_t>& descriptors) {
  for (const nfc_desc_t& desc : descriptors) {
    write_mem(kSqBase + sq_tail_ * NFC_DESC_BYTES, &desc, sizeof(desc));
    sq_tail_ = (sq_tail_ + 1) % sq_entries_;
  }
  write_reg(NFC_SQ_TAIL, sq_tail_);
}

std::vector<NfcBench::Seen> NfcBench::collect(size_t count) {
  std::vector<Seen> seen;
  while (seen.size() < count && errors.empty()) {
    write_reg(NFC_IRQ_STATUS, NFC_IRQ_COMPLETION);
    const uint32_t tail = read_reg(NFC_CQ_TAIL);
    if (tail == cq_head_) {
      sc_core::wait(interrupt_);
      continue;
    }
    while (cq_head_ != tail) {
      Seen entry{read_object<nfc_completion_t>(kCqBase + cq_head_ * NFC_COMPLETION_BYTES),
                 to_ps(sc_core::sc_time_stamp())};
      seen.push_back(entry);
      cq_head_ = (cq_head_ + 1) % cq_entries_;
    }
    write_reg(NFC_CQ_HEAD, cq_head_);
  }
  return seen;
}

nfc_desc_t descriptor(uint8_t op, uint32_t id, uint32_t ppn, uint8_t planes, uint32_t io_list) {
  nfc_desc_t desc{};
  desc.op = op;
  desc.plane_count = planes;
  desc.id = id;
  desc.ppn = ppn;
  desc.io_list = io_list;
  return desc;
}

}  // namespace ssdvp::test
