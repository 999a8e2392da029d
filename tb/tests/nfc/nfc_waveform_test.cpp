// The waveform of a read/program mix on two dies of one channel: die activity overlaps, the
// channel's transfers never do, and every die, channel and queue signal is there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "interface/data_tag.h"
#include "tb/tests/nfc/nfc_bench.h"
#include "tb/tests/nfc/nfc_test_config.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp::test {
namespace {

constexpr auto io_list = NfcBench::io_list;

struct Change {
  uint64_t time_ps;
  std::string signal;
  std::string value;
};

// The dump's variables (full dotted names) and its value changes in file order.
struct Dump {
  std::map<std::string, std::string> names;  // code -> name
  std::vector<Change> changes;
};

Dump read_vcd(const std::string& path) {
  Dump dump;
  std::ifstream in(path);
  std::vector<std::string> scopes;
  uint64_t time = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "$scope") {
      std::string kind, name;
      words >> kind >> name;
      scopes.push_back(name);
    } else if (first == "$upscope") {
      scopes.pop_back();
    } else if (first == "$var") {
      std::string type, width, code, name;
      words >> type >> width >> code >> name;
      std::string full;
      for (const std::string& scope : scopes) full += scope + ".";
      dump.names[code] = full + name;
    } else if (!first.empty() && first[0] == '#') {
      time = std::stoull(first.substr(1));
    } else if (!first.empty() && (first[0] == 's' || first[0] == 'b')) {
      std::string code;
      words >> code;
      dump.changes.push_back({time, dump.names.at(code), first.substr(1)});
    }
  }
  return dump;
}

bool on_bus(const std::string& state) {
  return state == "cmd" || state == "transfer_in" || state == "transfer_out";
}

bool array_busy(const std::string& state) {
  return state == "read" || state == "program" || state == "erase";
}

TEST(NfcWaveform, DiesOverlapAndTheirChannelTransfersSerialise) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("nfc_wave_" + std::to_string(getpid()) + ".vcd"))
          .string();
  NandConfig nand = test_nand();
  nand.ways = 2;
  {
    WaveWriter waves(path);
    NfcBench bench("bench", nand, test_nfc(), kSramLatencyPs, &waves);
    bench.spawn([&] {
      bench.start();
      std::vector<nfc_io_t> io(4);
      for (uint32_t i = 0; i < 4; ++i) {
        const data_tag_t tag{i, 1};
        bench.write_mem(bench.slot(i), &tag, sizeof(tag));
        io[i].buffer = bench.slot(i);
      }
      bench.write_mem(io_list(0), io.data(), sizeof(nfc_io_t) * 4);
      std::vector<nfc_desc_t> mix;
      for (uint32_t way = 0; way < 2; ++way) {
        for (uint32_t block = 0; block < 3; ++block) {
          mix.push_back(descriptor(NFC_OP_PROGRAM, 0, bench.ppn(0, way, 0, 0, block, 0), 1,
                                   io_list(0)));
          mix.push_back(descriptor(NFC_OP_READ, 0, bench.ppn(0, way, 0, 0, block, way + 1), 1,
                                   io_list(0)));
        }
      }
      bench.submit(mix);
      EXPECT_EQ(bench.collect(mix.size()).size(), mix.size());
    });
    sc_core::sc_start();
    EXPECT_TRUE(bench.errors.empty());
    waves.close();
  }

  const Dump dump = read_vcd(path);
  std::filesystem::remove(path);
  std::map<std::string, bool> declared;
  for (const auto& [code, name] : dump.names) declared[name] = true;
  for (const char* name : {"bench.nfc.outstanding", "bench.nfc.ch0.bus", "bench.nfc.ch0.w0d0.state",
                           "bench.nfc.ch0.w0d0.queue_depth", "bench.nfc.ch0.w1d0.state",
                           "bench.nfc.ch0.w1d0.queue_depth"}) {
    EXPECT_TRUE(declared[name]) << name;
  }

  // Replay the changes in time order, checking the state after each time step.
  std::map<std::string, std::string> state;
  uint64_t overlaps = 0;
  uint64_t transfers = 0;
  size_t i = 0;
  while (i < dump.changes.size()) {
    const uint64_t time = dump.changes[i].time_ps;
    for (; i < dump.changes.size() && dump.changes[i].time_ps == time; ++i) {
      state[dump.changes[i].signal] = dump.changes[i].value;
    }
    const std::string& die0 = state["bench.nfc.ch0.w0d0.state"];
    const std::string& die1 = state["bench.nfc.ch0.w1d0.state"];
    EXPECT_FALSE(on_bus(die0) && on_bus(die1)) << "both dies on the bus at " << time << " ps";
    if (on_bus(die0) || on_bus(die1)) {
      EXPECT_NE(state["bench.nfc.ch0.bus"], "idle") << time;
      ++transfers;
    }
    if (array_busy(die0) && array_busy(die1)) ++overlaps;
  }
  EXPECT_GT(overlaps, 0u) << "the dies never worked at the same time";
  EXPECT_GT(transfers, 0u);
}

}  // namespace
}  // namespace ssdvp::test
