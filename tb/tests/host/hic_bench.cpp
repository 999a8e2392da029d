// sc_spawn needs the dynamic-process part of SystemC.
#define SC_INCLUDE_DYNAMIC_PROCESSES

#include "tb/tests/host/hic_bench.h"

#include <gtest/gtest.h>

#include "interface/hic_regs.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {

data_tag_t RecordingHost::write_data(uint32_t host_tag, uint32_t lpn) {
  return data_tag_t{lpn, 100 + host_tag};
}

void RecordingHost::read_data(uint32_t host_tag, uint32_t lpn, const data_tag_t& tag) {
  reads.push_back({host_tag, lpn, tag, to_ps(sc_core::sc_time_stamp())});
}

void RecordingHost::completed(uint32_t host_tag, uint8_t status) {
  completions.push_back({host_tag, status, to_ps(sc_core::sc_time_stamp())});
}

HostConfig bench_host_config() {
  HostConfig config;
  config.capacity_bytes = 64 << 20;
  config.sector_bytes = 512;
  config.page_bytes = 4096;
  config.max_commands = 16;
  config.link.type = static_cast<uint32_t>(HostLinkType::kPcie);
  config.link.pcie_gen = 3;
  config.link.lanes = 1;
  config.link.latency_ps = 100'000;
  config.stats_interval_ps = 10'000'000;
  return config;
}

HicBench::HicBench(sc_core::sc_module_name name, const HostConfig& config,
                   uint64_t sram_latency_ps, bool attach_recorder)
    : sc_core::sc_module((use_picosecond_resolution(), name)),
      socket("socket"),
      router("router"),
      sram("sram", kSramBytes, from_ps(sram_latency_ps), from_ps(sram_latency_ps), true),
      hic("hic", config, nullptr) {
  router.map("sram", MM_SRAM_BASE, kSramBytes, sram.socket);
  router.map("hic", MM_HIC_BASE, MM_PERIPH_WINDOW, hic.socket);
  socket.bind(router.target_socket);
  hic.dma.bind(router.target_socket);
  hic.on_error([this](const std::string& message) { errors.push_back(message); });
  hic.connect_interrupt([this](bool level) {
    interrupts.emplace_back(level, to_ps(sc_core::sc_time_stamp()));
    interrupt_level_ = level;
    if (level) interrupt_event_.notify(sc_core::SC_ZERO_TIME);
  });
  if (attach_recorder) hic.attach_host(recorder);
}

void HicBench::spawn(std::function<void()> body) { sc_core::sc_spawn(std::move(body), "firmware"); }

uint32_t HicBench::read_reg(uint32_t offset) {
  tlm::tlm_generic_payload trans;
  uint32_t value = 0;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(MM_HIC_BASE + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  socket->b_transport(trans, delay);
  EXPECT_TRUE(trans.is_response_ok()) << "HIC register read at " << offset;
  wait(delay);
  return value;
}

void HicBench::write_reg(uint32_t offset, uint32_t value) {
  tlm::tlm_generic_payload trans;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(MM_HIC_BASE + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  socket->b_transport(trans, delay);
  EXPECT_TRUE(trans.is_response_ok()) << "HIC register write at " << offset;
  wait(delay);
}

void HicBench::write_mem(uint32_t address, const void* data, uint32_t length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
  trans.set_data_length(length);
  ASSERT_EQ(router.debug_transport(trans), length);
}

void HicBench::read_mem(uint32_t address, void* data, uint32_t length) {
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(static_cast<unsigned char*>(data));
  trans.set_data_length(length);
  ASSERT_EQ(router.debug_transport(trans), length);
}

void HicBench::start_rings(uint32_t event_entries, uint32_t request_entries) {
  event_entries_ = event_entries;
  event_head_ = 0;
  request_entries_ = request_entries;
  request_tail_ = 0;
  write_reg(HIC_EVQ_BASE, kEventRing);
  write_reg(HIC_EVQ_ENTRIES, event_entries);
  write_reg(HIC_RQ_BASE, kRequestRing);
  write_reg(HIC_RQ_ENTRIES, request_entries);
  write_reg(HIC_IRQ_ENABLE, HIC_IRQ_EVENT);
  write_reg(HIC_ENABLE, 1);
}

std::vector<hic_event_t> HicBench::take_events() {
  std::vector<hic_event_t> events;
  const uint32_t tail = read_reg(HIC_EVQ_TAIL);
  while (event_head_ != tail) {
    hic_event_t event{};
    read_mem(kEventRing + event_head_ * HIC_EVENT_BYTES, &event, sizeof event);
    events.push_back(event);
    event_head_ = (event_head_ + 1) % event_entries_;
  }
  write_reg(HIC_EVQ_HEAD, event_head_);
  return events;
}

void HicBench::post_request(const hic_request_t& request) {
  write_mem(kRequestRing + request_tail_ * HIC_REQUEST_BYTES, &request, sizeof request);
  request_tail_ = (request_tail_ + 1) % request_entries_;
  write_reg(HIC_RQ_TAIL, request_tail_);
}

void HicBench::wait_interrupt() {
  if (!interrupt_level_) wait(interrupt_event_);
}

}  // namespace ssdvp::test
