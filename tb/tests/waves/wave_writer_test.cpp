// WaveWriter: the VCD it writes is parsed back by a small reader here and checked for
// declarations, value formats, ordering, windowing, dropped duplicates and bounded buffering.
#include "tlm/system/wave_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp {
namespace {

struct Variable {
  std::string type;
  unsigned width = 0;
  std::string code;
};

struct ValueChange {
  uint64_t time;
  std::string signal;  // full dotted name
  std::string value;   // as written: "1", "b101", "srunning"
  bool operator==(const ValueChange& other) const {
    return time == other.time && signal == other.signal && value == other.value;
  }
};

std::ostream& operator<<(std::ostream& out, const ValueChange& change) {
  return out << "{" << change.time << ", " << change.signal << ", " << change.value << "}";
}

// What a VCD file says, read token by token the way a viewer would.
struct Vcd {
  std::string timescale;
  std::map<std::string, Variable> variables;  // by full dotted name
  std::vector<std::string> scope_lines;       // "$scope module X" in file order, as "X"
  uint64_t dump_time = 0;
  std::map<std::string, std::string> initial;  // $dumpvars values by signal
  std::vector<ValueChange> changes;             // after $dumpvars
  std::vector<uint64_t> timestamps;             // every #time in order
  bool has_dumpvars = false;
};

Vcd read_vcd(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  Vcd vcd;
  std::map<std::string, std::string> name_of_code;
  std::vector<std::string> scopes;
  std::string token;
  auto expect_end = [&] {
    std::string end;
    in >> end;
    EXPECT_EQ(end, "$end");
  };
  bool in_header = true;
  bool in_dumpvars = false;
  uint64_t time = 0;
  while (in >> token) {
    if (in_header) {
      if (token == "$timescale") {
        in >> vcd.timescale;
        expect_end();
      } else if (token == "$version") {
        while (in >> token && token != "$end") {
        }
      } else if (token == "$scope") {
        std::string kind, name;
        in >> kind >> name;
        EXPECT_EQ(kind, "module");
        scopes.push_back(name);
        vcd.scope_lines.push_back(name);
        expect_end();
      } else if (token == "$upscope") {
        EXPECT_FALSE(scopes.empty());
        if (!scopes.empty()) scopes.pop_back();
        expect_end();
      } else if (token == "$var") {
        Variable variable;
        std::string name;
        in >> variable.type >> variable.width >> variable.code >> name;
        expect_end();
        std::string full;
        for (const std::string& scope : scopes) full += scope + ".";
        full += name;
        EXPECT_EQ(vcd.variables.count(full), 0u) << full << " declared twice";
        EXPECT_EQ(name_of_code.count(variable.code), 0u) << "code reused: " << variable.code;
        name_of_code[variable.code] = full;
        vcd.variables[full] = variable;
      } else if (token == "$enddefinitions") {
        expect_end();
        EXPECT_TRUE(scopes.empty()) << "unbalanced $scope";
        in_header = false;
      } else {
        ADD_FAILURE() << "unexpected header token " << token;
      }
      continue;
    }
    if (token[0] == '#') {
      time = std::stoull(token.substr(1));
      vcd.timestamps.push_back(time);
      continue;
    }
    if (token == "$dumpvars") {
      EXPECT_FALSE(vcd.has_dumpvars);
      vcd.has_dumpvars = true;
      in_dumpvars = true;
      vcd.dump_time = time;
      continue;
    }
    if (token == "$end") {
      EXPECT_TRUE(in_dumpvars);
      in_dumpvars = false;
      continue;
    }
    std::string value, code;
    if (token[0] == 'b' || token[0] == 's') {
      value = token;
      in >> code;
    } else {
      value = token.substr(0, 1);
      code = token.substr(1);
    }
    EXPECT_EQ(name_of_code.count(code), 1u) << "unknown code " << code;
    const std::string& signal = name_of_code[code];
    if (in_dumpvars) {
      vcd.initial[signal] = value;
    } else {
      EXPECT_TRUE(vcd.has_dumpvars) << "value change before $dumpvars";
      vcd.changes.push_back({time, signal, value});
    }
  }
  EXPECT_FALSE(in_header) << "no $enddefinitions";
  return vcd;
}

class WaveWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ssdvp_wave_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

template <typename Function>
std::string error_of(Function&& function) {
  try {
    function();
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST_F(WaveWriterTest, DeclaresNestedScopesAndVariableKinds) {
  const std::string path = file("declare.vcd");
  {
    WaveWriter writer(path);
    writer.add_state_signal("soc.cpu.hart0", "state", "running");
    writer.add_signal("soc.cpu.hart0", "bus_transactions", 32);
    writer.add_signal("soc.bus", "transactions_rom", 32, 5);
    writer.add_signal("soc.cpu.hart1", "irq", 1, 1);
    writer.add_signal("soc.cpu.hart0", "wide", 64);
    EXPECT_EQ(writer.path(), path);
  }
  const Vcd vcd = read_vcd(path);
  EXPECT_EQ(vcd.timescale, "1ps");
  ASSERT_EQ(vcd.variables.size(), 5u);
  const std::map<std::string, std::pair<std::string, unsigned>> expected = {
      {"soc.cpu.hart0.state", {"string", 1}},
      {"soc.cpu.hart0.bus_transactions", {"wire", 32}},
      {"soc.bus.transactions_rom", {"wire", 32}},
      {"soc.cpu.hart1.irq", {"wire", 1}},
      {"soc.cpu.hart0.wide", {"wire", 64}},
  };
  for (const auto& [name, kind] : expected) {
    SCOPED_TRACE(name);
    ASSERT_EQ(vcd.variables.count(name), 1u);
    EXPECT_EQ(vcd.variables.at(name).type, kind.first);
    EXPECT_EQ(vcd.variables.at(name).width, kind.second);
  }
  // One scope per distinct path component, however many signals share it.
  EXPECT_EQ(vcd.scope_lines,
            (std::vector<std::string>{"soc", "cpu", "hart0", "hart1", "bus"}));
  // Initial values: strings, vectors in binary, scalars as a bare digit.
  EXPECT_TRUE(vcd.has_dumpvars);
  EXPECT_EQ(vcd.dump_time, 0u);
  EXPECT_EQ(vcd.initial.at("soc.cpu.hart0.state"), "srunning");
  EXPECT_EQ(vcd.initial.at("soc.cpu.hart0.bus_transactions"), "b0");
  EXPECT_EQ(vcd.initial.at("soc.bus.transactions_rom"), "b101");
  EXPECT_EQ(vcd.initial.at("soc.cpu.hart1.irq"), "1");
  EXPECT_TRUE(vcd.changes.empty());
}

TEST_F(WaveWriterTest, WritesOutOfOrderChangesInTimeOrder) {
  const std::string path = file("order.vcd");
  {
    WaveWriter writer(path);
    const auto count = writer.add_signal("soc.bus", "count", 16);
    const auto state = writer.add_state_signal("soc.cpu.hart0", "state", "running");
    const auto wide = writer.add_signal("soc.x", "wide", 64);
    writer.set(count, 3, 300);
    writer.set(count, 1, 100);
    writer.set_state(state, "sleeping", 200);
    writer.set(count, 2, 200);
    writer.set(wide, UINT64_MAX, 250);
    writer.set_state(state, "in_trap", 150);
  }
  const Vcd vcd = read_vcd(path);
  const std::vector<ValueChange> expected = {
      {100, "soc.bus.count", "b1"},
      {150, "soc.cpu.hart0.state", "sin_trap"},
      // Same time: in arrival order.
      {200, "soc.cpu.hart0.state", "ssleeping"},
      {200, "soc.bus.count", "b10"},
      {250, "soc.x.wide", "b" + std::string(64, '1')},
      {300, "soc.bus.count", "b11"},
  };
  EXPECT_EQ(vcd.changes, expected);
  EXPECT_EQ(vcd.timestamps, (std::vector<uint64_t>{0, 100, 150, 200, 250, 300}));
}

// Two decoupled initiators count into one signal: the one running ahead in local time reports
// first, yet the dumped count must rise monotonically in time order.
TEST_F(WaveWriterTest, SumsIncrementsInTimeOrderNotArrivalOrder) {
  const std::string path = file("count.vcd");
  {
    WaveWriter writer(path);
    const auto count = writer.add_signal("soc.bus", "count", 8, 5);
    writer.add(count, 1, 800);  // initiator A, ahead in local time
    writer.add(count, 1, 900);
    writer.flush_before(500);   // only the past may be written: nothing yet
    writer.add(count, 2, 600);  // initiator B, behind
    writer.set(count, 20, 850); // an absolute value in between resets the running sum
    writer.flush_before(1000);
    writer.add(count, 1, 1000);
  }
  const Vcd vcd = read_vcd(path);
  const std::vector<ValueChange> expected = {
      {600, "soc.bus.count", "b111"},    // 5 + 2
      {800, "soc.bus.count", "b1000"},   // + 1
      {850, "soc.bus.count", "b10100"},  // set to 20
      {900, "soc.bus.count", "b10101"},  // + 1
      {1000, "soc.bus.count", "b10110"}, // + 1 after a flush
  };
  EXPECT_EQ(vcd.changes, expected);
}

TEST_F(WaveWriterTest, CountingBeyondTheWidthIsAnError) {
  WaveWriter writer(file("overflow.vcd"));
  const auto count = writer.add_signal("soc.bus", "count", 2, 3);
  writer.add(count, 1, 10);
  const std::string error = error_of([&] { writer.flush_before(20); });
  EXPECT_NE(error.find("soc.bus.count"), std::string::npos) << error;
  EXPECT_NE(error.find("0..3"), std::string::npos) << error;
}

TEST_F(WaveWriterTest, DropsChangesThatDoNotChangeTheValue) {
  const std::string path = file("dedup.vcd");
  {
    WaveWriter writer(path);
    const auto busy = writer.add_signal("soc.nfc.ch0", "busy", 1);
    const auto state = writer.add_state_signal("soc.nfc.ch0", "die0", "idle");
    writer.set(busy, 0, 10);          // already 0
    writer.set_state(state, "idle", 20);  // already idle
    writer.set(busy, 1, 30);
    writer.set(busy, 1, 40);          // repeated
    writer.set(busy, 0, 50);          // 0 then back to 1 within one time step: no change
    writer.set(busy, 1, 50);
    writer.set_state(state, "read", 60);
    writer.set_state(state, "read", 70);
  }
  const Vcd vcd = read_vcd(path);
  const std::vector<ValueChange> expected = {
      {30, "soc.nfc.ch0.busy", "1"},
      {60, "soc.nfc.ch0.die0", "sread"},
  };
  EXPECT_EQ(vcd.changes, expected);
  // No timestamp without a change under it.
  EXPECT_EQ(vcd.timestamps, (std::vector<uint64_t>{0, 30, 60}));
}

TEST_F(WaveWriterTest, KeepsOnlyTheWindowAndStartsWithTheValuesAtItsStart) {
  const std::string path = file("window.vcd");
  {
    WaveWriter writer(path, 1000, 2000);
    const auto depth = writer.add_signal("soc.hic", "queue_depth", 8, 1);
    const auto state = writer.add_state_signal("soc.cpu.hart0", "state", "running");
    const auto other = writer.add_signal("soc.hic", "other", 8, 4);
    writer.set(depth, 9, 800);  // before the window, out of order: the later one wins
    writer.set(depth, 7, 500);
    writer.set_state(state, "sleeping", 1000);  // at the start: part of the starting values
    writer.set(depth, 3, 1500);
    writer.set(other, 5, 1999);
    writer.set(depth, 4, 2000);  // at or after the end: dropped
    writer.set(other, 6, 2500);
    writer.flush_before(3000);
  }
  const Vcd vcd = read_vcd(path);
  EXPECT_EQ(vcd.dump_time, 1000u);
  EXPECT_EQ(vcd.initial.at("soc.hic.queue_depth"), "b1001");
  EXPECT_EQ(vcd.initial.at("soc.cpu.hart0.state"), "ssleeping");
  EXPECT_EQ(vcd.initial.at("soc.hic.other"), "b100");
  const std::vector<ValueChange> expected = {
      {1500, "soc.hic.queue_depth", "b11"},
      {1999, "soc.hic.other", "b101"},
  };
  EXPECT_EQ(vcd.changes, expected);
  // The dump ends at the window end, which the models passed, so the last values have a length.
  EXPECT_EQ(vcd.timestamps, (std::vector<uint64_t>{1000, 1500, 1999, 2000}));
}

TEST_F(WaveWriterTest, EndsAtTheLastFlushWhenThereIsNoWindowEnd) {
  const std::string path = file("end.vcd");
  {
    WaveWriter writer(path);
    const auto busy = writer.add_signal("soc.accel", "busy", 1);
    writer.set(busy, 1, 100);
    writer.flush_before(700);
  }
  const Vcd vcd = read_vcd(path);
  EXPECT_EQ(vcd.timestamps, (std::vector<uint64_t>{0, 100, 700}));
}

TEST_F(WaveWriterTest, FlushWritesOnlyOlderChangesAndKeepsTheRestBuffered) {
  const std::string path = file("flush.vcd");
  WaveWriter writer(path);
  const auto a = writer.add_signal("soc.a", "value", 8);
  const auto b = writer.add_signal("soc.b", "value", 8);
  writer.set(a, 1, 100);
  writer.set(a, 3, 400);
  writer.set(b, 2, 250);
  writer.flush_before(300);

  // The file holds exactly the changes before 300 while the writer is still open.
  std::vector<ValueChange> expected = {{100, "soc.a.value", "b1"}, {250, "soc.b.value", "b10"}};
  EXPECT_EQ(read_vcd(path).changes, expected);

  // A change at the last written time is still accepted; one older than it is not.
  writer.set(a, 2, 250);
  writer.set(b, 4, 300);
  const std::string error = error_of([&] { writer.set(b, 5, 249); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("249 ps"), std::string::npos) << error;
  writer.flush_before(301);
  expected.push_back({250, "soc.a.value", "b10"});
  expected.push_back({300, "soc.b.value", "b100"});
  EXPECT_EQ(read_vcd(path).changes, expected);

  writer.close();
  expected.push_back({400, "soc.a.value", "b11"});
  const Vcd vcd = read_vcd(path);
  EXPECT_EQ(vcd.changes, expected);
  // The late change at 250 was appended under the existing timestamp, not a repeated one.
  EXPECT_EQ(vcd.timestamps, (std::vector<uint64_t>{0, 100, 250, 300, 400}));

  writer.set(a, 7, 500);  // ignored after close
  writer.flush_before(600);
  EXPECT_EQ(read_vcd(path).changes, expected);
}

TEST_F(WaveWriterTest, FlushBeforeTheWindowStartOnlyUpdatesStartingValues) {
  const std::string path = file("prewindow.vcd");
  WaveWriter writer(path, 1000);
  const auto value = writer.add_signal("soc.a", "value", 8);
  writer.set(value, 1, 100);
  writer.flush_before(500);
  writer.set(value, 2, 600);
  writer.flush_before(900);
  // The changes before 900 went into the starting values: an older one can no longer be placed.
  EXPECT_NE(error_of([&] { writer.set(value, 9, 400); }).find("400 ps"), std::string::npos);
  writer.set(value, 3, 1200);
  writer.close();
  const Vcd vcd = read_vcd(path);
  EXPECT_EQ(vcd.initial.at("soc.a.value"), "b10");
  EXPECT_EQ(vcd.changes, (std::vector<ValueChange>{{1200, "soc.a.value", "b11"}}));
}

TEST_F(WaveWriterTest, RejectsBadDeclarationsAndValuesNamingThem) {
  const std::string path = file("errors.vcd");
  WaveWriter writer(path);
  EXPECT_NE(error_of([&] { writer.add_signal("soc.a", "zero", 0); }).find("allowed: 1..64"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_signal("soc.a", "wide", 65); }).find("soc.a.wide"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_signal("soc.a", "small", 4, 16); }).find("allowed: 0..15"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_signal("soc..a", "x", 1); }).find("soc..a"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_signal("", "x", 1); }).find("scope"), std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_signal("soc", "has space", 1); }).find("has space"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.add_state_signal("soc", "state", ""); }).find("soc.state"),
            std::string::npos);

  const auto count = writer.add_signal("soc.a", "count", 4);
  const auto state = writer.add_state_signal("soc.a", "state", "idle");
  EXPECT_NE(error_of([&] { writer.add_signal("soc.a", "count", 4); }).find("declared twice"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.set(count, 16, 10); }).find("soc.a.count"), std::string::npos);
  EXPECT_NE(error_of([&] { writer.set(state, 1, 10); }).find("set_state"), std::string::npos);
  EXPECT_NE(error_of([&] { writer.set_state(count, "x", 10); }).find("soc.a.count"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.set_state(state, "two words", 10); }).find("two words"),
            std::string::npos);
  EXPECT_NE(error_of([&] { writer.set(99, 1, 10); }).find("signal id 99"), std::string::npos);

  writer.set(count, 1, 10);
  EXPECT_NE(error_of([&] { writer.add_signal("soc.a", "late", 1); }).find("soc.a.late"),
            std::string::npos);
}

TEST_F(WaveWriterTest, RejectsAnEmptyWindowAndAnUnwritablePath) {
  EXPECT_NE(error_of([&] { WaveWriter writer(file("w.vcd"), 2000, 1000); }).find("window"),
            std::string::npos);
  const std::string unwritable = file("no_such_dir/w.vcd");
  EXPECT_EQ(error_of([&] { WaveWriter writer(unwritable); }).rfind(unwritable, 0), 0u);
}

}  // namespace
}  // namespace ssdvp
