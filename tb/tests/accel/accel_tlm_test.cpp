// The accelerator's TLM target (tlm/accel/accel.h) on a router with SRAM: the annotated delay of
// a job equals the RTL's cycles at the accelerator clock, the interrupt line changes at the time
// of the cycle that changed it, the search reads the range array from SRAM through the router,
// debug reads have no side effects, the RTL dump is in simulated time, and the area estimate.
#include "tlm/accel/accel.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "interface/accel_regs.h"
#include "interface/memory_map.h"
#include "tb/tests/accel/pipeline_schedule.h"
#include "tb/tests/rqrmi/range_arrays.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"
#include "tlm/system/sim_time.h"

namespace ssdvp::test {
namespace {

constexpr uint64_t kSramBytes = 1 << 20;
constexpr uint32_t kRangeArray = MM_SRAM_BASE + 0x1000;

// The CPU's side: 32-bit bus accesses with an annotated delay, and debug accesses.
class Initiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket") {}

  uint32_t access(tlm::tlm_command command, uint64_t address, uint32_t value,
                  sc_core::sc_time& delay) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(trans, delay);
    EXPECT_TRUE(trans.is_response_ok()) << "access at " << std::hex << address;
    return value;
  }
  uint32_t read(uint32_t offset, sc_core::sc_time& delay) {
    return access(tlm::TLM_READ_COMMAND, MM_ACCEL_BASE + offset, 0, delay);
  }
  void write(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
    access(tlm::TLM_WRITE_COMMAND, MM_ACCEL_BASE + offset, value, delay);
  }
  unsigned debug(tlm::tlm_command command, uint64_t address, void* data, unsigned length) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(static_cast<unsigned char*>(data));
    trans.set_data_length(length);
    return socket->transport_dbg(trans);
  }
};

// The figures of the build's area model at its default node.
const AreaModel& default_area_model() {
  static const AreaModel model = load_area_model(area_model_path(), AreaConfig().node);
  return model;
}

AccelConfig accel_config(uint64_t clock_hz) {
  AccelConfig config;
  config.present = true;
  config.clock_hz = clock_hz;
  return config;
}

class AccelTlmTest : public ::testing::Test {
 protected:
  explicit AccelTlmTest(AccelConfig config = accel_config(500'000'000))
      : router_((use_picosecond_resolution(), "router")),
        sram_("sram", kSramBytes, sc_core::sc_time(3, sc_core::SC_NS),
              sc_core::sc_time(3, sc_core::SC_NS), true),
        accel_(std::make_unique<Accel>("accel", config, default_area_model(), nullptr)),
        cpu_("cpu") {
    router_.map("sram", MM_SRAM_BASE, kSramBytes, sram_.socket);
    router_.map("accel", MM_ACCEL_BASE, MM_PERIPH_WINDOW, accel_->socket);
    cpu_.socket.bind(router_.target_socket);
    accel_->dma_socket.bind(router_.target_socket);
    accel_->connect_interrupt([this](bool level) {
      irq_changes_.emplace_back(to_ps(sc_core::sc_time_stamp()), level);
    });
  }

  void load_model(const rqrmi_model_t* model, sc_core::sc_time& delay) {
    cpu_.write(ACCEL_RANGE_COUNT, model->range_count, delay);
    cpu_.write(ACCEL_STAGE_COUNT, model->stage_count, delay);
    for (uint32_t s = 0; s < RQRMI_MAX_STAGES; ++s) {
      cpu_.write(ACCEL_STAGE_WIDTH(s), model->stage_width[s], delay);
    }
    cpu_.write(ACCEL_WMEM_ADDR, 0, delay);
    const auto* words = reinterpret_cast<const uint32_t*>(model->submodel);
    for (uint32_t w = 0; w < rqrmi_submodel_count(model) * RQRMI_SUBMODEL_WORDS; ++w) {
      cpu_.write(ACCEL_WMEM_DATA, words[w], delay);
    }
    cpu_.write(ACCEL_RANGE_BASE, kRangeArray, delay);
  }

  void store_ranges(const std::vector<rqrmi_range_t>& ranges) {
    const unsigned bytes = static_cast<unsigned>(ranges.size() * sizeof(rqrmi_range_t));
    ASSERT_EQ(cpu_.debug(tlm::TLM_WRITE_COMMAND, kRangeArray,
                         const_cast<rqrmi_range_t*>(ranges.data()), bytes),
              bytes);
  }

  void simulate(std::function<void()> body) {
    sc_core::sc_spawn(std::move(body), "test_thread");
    sc_core::sc_start();
  }

  Router router_;
  Memory sram_;
  std::unique_ptr<Accel> accel_;
  Initiator cpu_;
  std::vector<std::pair<uint64_t, bool>> irq_changes_;
};

TEST_F(AccelTlmTest, AJobTakesTheRtlCyclesAtTheAcceleratorClock) {
  const auto ranges = uniform_ranges(3000, 1, 0, 100, 100);
  const TrainedModel trained(ranges, train_config({4}, 1024));
  simulate([&] {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    load_model(trained.model(), delay);
    // Header (6 writes), weight address, 5 records of 20 words, range base: a 2 ns cycle each.
    EXPECT_EQ(delay, sc_core::sc_time(2 * (6 + 1 + 5 * 20 + 1), sc_core::SC_NS));
    for (uint32_t k = 0; k < 13; ++k) cpu_.write(ACCEL_KEY, ranges[k * 200].lo, delay);
    const uint32_t busy_before = cpu_.read(ACCEL_BUSY_CYCLES, delay);
    const sc_core::sc_time start = delay;
    cpu_.write(ACCEL_START, 1, delay);
    const uint64_t cycles = 1 + expected_job_cycles(13, 2);
    EXPECT_EQ(to_ps(delay - start), cycles * 2000);
    sc_core::sc_time after = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu_.read(ACCEL_BUSY_CYCLES, after) - busy_before, cycles - 1);
    for (uint32_t k = 0; k < 13; ++k) {
      EXPECT_EQ(cpu_.read(ACCEL_RESULT, delay),
                rqrmi_predict(trained.model(), ranges[k * 200].lo).index);
    }
  });
}

// 300 MHz: a period of 3333.3 ps, so cycle times are rounded; a job's length is still exact.
class AccelTlmOddClockTest : public AccelTlmTest {
 protected:
  AccelTlmOddClockTest() : AccelTlmTest(accel_config(300'000'000)) {}
};

TEST_F(AccelTlmOddClockTest, DelaysFollowTheClockInWholeCycles) {
  const auto ranges = uniform_ranges(3000, 1, 0, 100, 100);
  const TrainedModel trained(ranges, train_config({4, 4}, 1024));
  simulate([&] {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    load_model(trained.model(), delay);
    for (uint32_t k = 0; k < 7; ++k) cpu_.write(ACCEL_KEY, ranges[k].lo, delay);
    wait(sc_core::sc_time(1, sc_core::SC_US) - sc_core::sc_time_stamp());
    delay = sc_core::SC_ZERO_TIME;
    cpu_.write(ACCEL_START, 1, delay);
    const Clock clock(300'000'000, "test");
    EXPECT_EQ(to_ps(delay), clock.cycles_to_ps(1 + expected_job_cycles(7, 3)));
  });
}

TEST_F(AccelTlmTest, TheInterruptRisesWhenTheJobEndsAndFallsWhenAcknowledged) {
  const auto ranges = uniform_ranges(3000, 1, 0, 100, 100);
  const TrainedModel trained(ranges, train_config({4}, 1024));
  uint64_t job_end = 0;
  uint64_t acknowledged = 0;
  simulate([&] {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    load_model(trained.model(), delay);
    cpu_.write(ACCEL_CTRL, ACCEL_CTRL_IRQ_ENABLE, delay);
    cpu_.write(ACCEL_KEY, ranges[5].hi, delay);
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    cpu_.write(ACCEL_START, 1, delay);
    job_end = to_ps(sc_core::sc_time_stamp() + delay);
    wait(delay + sc_core::sc_time(100, sc_core::SC_NS));
    delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(cpu_.read(ACCEL_IRQ, delay), ACCEL_IRQ_DONE);
    cpu_.write(ACCEL_IRQ, ACCEL_IRQ_DONE, delay);
    acknowledged = to_ps(sc_core::sc_time_stamp() + delay);
    wait(delay);
  });
  ASSERT_EQ(irq_changes_.size(), 2u);
  EXPECT_EQ(irq_changes_[0], std::make_pair(job_end, true));
  EXPECT_EQ(irq_changes_[1], std::make_pair(acknowledged, false));
}

TEST_F(AccelTlmTest, TheSearchReadsTheRangeArrayFromSramThroughTheRouter) {
  const auto ranges = clustered_ranges(4000, 3, 16, 10000);
  const TrainedModel trained(ranges, train_config({4}, 4096));
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < ranges.size(); i += 131) {
    keys.insert(keys.end(), {ranges[i].lo, ranges[i].hi, ranges[i].hi + 1});
  }
  simulate([&] {
    store_ranges(ranges);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    load_model(trained.model(), delay);
    cpu_.write(ACCEL_CTRL, ACCEL_CTRL_SEARCH, delay);
    for (size_t first = 0; first < keys.size(); first += 16) {
      const size_t end = std::min(keys.size(), first + 16);
      for (size_t k = first; k < end; ++k) cpu_.write(ACCEL_KEY, keys[k], delay);
      cpu_.write(ACCEL_START, 1, delay);
      for (size_t k = first; k < end; ++k) {
        EXPECT_EQ(cpu_.read(ACCEL_RESULT, delay), brute_force_lookup(ranges, keys[k]))
            << "key " << keys[k];
      }
    }
    EXPECT_EQ(cpu_.read(ACCEL_ERRORS, delay), 0u);
  });
  nlohmann::json report;
  accel_->report(report);
  const uint64_t reads = report["memory_reads"];
  EXPECT_GT(reads, keys.size());
  EXPECT_EQ(router_.targets().at(0).transactions, reads);  // the SRAM's
}

TEST_F(AccelTlmTest, DebugReadsPeekWithoutPopping) {
  const auto ranges = uniform_ranges(3000, 1, 0, 100, 100);
  const TrainedModel trained(ranges, train_config({4}, 1024));
  simulate([&] {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    load_model(trained.model(), delay);
    cpu_.write(ACCEL_KEY, ranges[9].lo, delay);
    cpu_.write(ACCEL_START, 1, delay);
    uint32_t peeked = 0;
    EXPECT_EQ(cpu_.debug(tlm::TLM_READ_COMMAND, MM_ACCEL_BASE + ACCEL_RESULT, &peeked, 4), 4u);
    EXPECT_EQ(peeked, rqrmi_predict(trained.model(), ranges[9].lo).index);
    EXPECT_EQ(cpu_.read(ACCEL_RESULT_LEVEL, delay), 1u);
    EXPECT_EQ(cpu_.read(ACCEL_RESULT, delay), peeked);
    EXPECT_EQ(cpu_.read(ACCEL_RESULT_LEVEL, delay), 0u);
    uint32_t value = 1;
    EXPECT_EQ(cpu_.debug(tlm::TLM_WRITE_COMMAND, MM_ACCEL_BASE + ACCEL_START, &value, 4), 0u);
  });
}

class AccelTlmDumpTest : public AccelTlmTest {
 protected:
  static AccelConfig with_dump() {
    AccelConfig config = accel_config(500'000'000);
    config.rtl_vcd = (std::filesystem::temp_directory_path() /
                      ("accel_rtl_" + std::to_string(::getpid()) + ".vcd")).string();
    return config;
  }
  AccelTlmDumpTest() : AccelTlmTest(with_dump()), path_(with_dump().rtl_vcd) {}
  ~AccelTlmDumpTest() override { std::filesystem::remove(path_); }
  std::string path_;
};

TEST_F(AccelTlmDumpTest, TheRtlDumpIsInSimulatedTime) {
  simulate([&] {
    wait(sc_core::sc_time(5, sc_core::SC_US));
    sc_core::sc_time delay(40, sc_core::SC_NS);
    cpu_.write(ACCEL_KEY, 1234, delay);
  });
  accel_.reset();  // closes the dump
  std::ifstream in(path_);
  ASSERT_TRUE(in) << path_;
  std::vector<uint64_t> times;
  bool has_key_fifo = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '#') times.push_back(std::stoull(line.substr(1)));
    has_key_fifo = has_key_fifo || line.find("key_level") != std::string::npos;
  }
  EXPECT_TRUE(has_key_fifo);
  // The write's cycle starts at 5.04 us; its rising edge is half a 2 ns period later.
  ASSERT_GE(times.size(), 2u);
  EXPECT_EQ(times[times.size() - 2], 5'040'000u);
  EXPECT_EQ(times.back(), 5'041'000u);
}

TEST(AccelTlm, SizesOutOfRangeNameTheirKey) {
  use_picosecond_resolution();
  AccelConfig config = accel_config(500'000'000);
  config.submodel_capacity = 0;
  try {
    Accel accel("accel", config, default_area_model(), nullptr);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("accel.submodels"), std::string::npos) << error.what();
  }
}

// ---- Area -----------------------------------------------------------------------------------

class AccelAreaTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              (name + std::to_string(::getpid()))).string();
    std::ofstream(path) << text;
    paths_.push_back(path);
    return path;
  }
  ~AccelAreaTest() override {
    for (const auto& path : paths_) std::filesystem::remove(path);
  }
  std::vector<std::string> paths_;
};

// Stated figures, not the file's: 0.5 um2 a gate, 0.1 um2 a bit, every macro 50 % bit cells.
AreaModel stated_model() {
  AreaModel model;
  model.path = "stated.yaml";
  model.node = "7nm";
  model.nand2_um2 = 0.5;
  model.sram_bit_um2 = 0.1;
  model.rom_bit_um2 = 0.05;
  model.cell_gate_equivalents = {{"$_NAND_", 1.0}, {"$_DFF_P_", 5.0}};
  model.macro_efficiency = {{1024, 0.5}};
  return model;
}

TEST_F(AccelAreaTest, PricesGatesAndMemoryBits) {
  const std::string cells = write("cells", R"({"modules": {"\\rqrmi_accel": {"num_cells_by_type":
      {"$_NAND_": 1000, "$_DFF_P_": 200, "$mem_v2": 3}}}})");
  const AccelArea area = estimate_accel_area(cells, stated_model(), 10000);
  EXPECT_EQ(area.node, "7nm");
  EXPECT_DOUBLE_EQ(area.logic_gate_equivalents, 1000 + 200 * 5.0);
  EXPECT_DOUBLE_EQ(area.logic_mm2, 2000 * 0.5e-6);
  EXPECT_DOUBLE_EQ(area.memory_mm2, 10000 * 0.1 / 0.5 * 1e-6);
  EXPECT_DOUBLE_EQ(area.total_mm2, area.logic_mm2 + area.memory_mm2);
  EXPECT_EQ(area.cells.count("$mem_v2"), 0u);
}

TEST_F(AccelAreaTest, MemoryBitsFollowTheConfiguredSizes) {
  AccelConfig config;
  config.submodel_capacity = 10;
  config.key_fifo_depth = 4;
  config.result_fifo_depth = 8;
  EXPECT_EQ(accel_memory_bits(config), 10u * 80 * 8 + 4u * 32 + 8u * (64 + 88));
}

TEST_F(AccelAreaTest, ProblemsNameTheFile) {
  const std::string unknown = write("cells", R"({"modules": {"\\rqrmi_accel":
      {"num_cells_by_type": {"$_XOR_": 1}}}})");
  const auto message = [&](const std::string& cells) {
    try {
      estimate_accel_area(cells, stated_model(), 1);
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(unknown).find("$_XOR_"), std::string::npos);
  EXPECT_NE(message(unknown).find("stated.yaml"), std::string::npos);
  EXPECT_NE(message("/nonexistent.json").find("/nonexistent.json"), std::string::npos);
}

TEST(AccelAreaBuild, TheBuildsSynthesisIsPriced) {
  const AccelArea area = estimate_accel_area(SSDVP_RQRMI_CELLS, default_area_model(), 1);
  EXPECT_GT(area.logic_gate_equivalents, 10000);  // eight multipliers at least
  EXPECT_GT(area.cells.at("$_DFF_P_"), 0u);
}

}  // namespace
}  // namespace ssdvp::test
