// Value syntax of the parameter kinds: units, exact fractions, canonical forms, ranges.
#include <gtest/gtest.h>

#include <string>

#include "tb/scenario/parameters.h"

namespace ssdvp {
namespace {

const Parameter& param(const std::string& key) {
  const Parameter* p = find_parameter(key);
  if (p == nullptr) throw std::runtime_error("test uses an unknown parameter " + key);
  return *p;
}

uint64_t parse_number(const std::string& key, const std::string& text) {
  return std::get<uint64_t>(param(key).parse(text, "test"));
}

// The message of the ScenarioError parsing `text` throws, or "" when it parses.
std::string parse_error(const std::string& key, const std::string& text) {
  try {
    param(key).parse(text, "here");
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "";
}

TEST(ParameterValues, SizesTakeBytesBinaryAndSiUnits) {
  EXPECT_EQ(parse_number("sram.size", "16384"), 16384u);
  EXPECT_EQ(parse_number("sram.size", "65536B"), 65536u);
  EXPECT_EQ(parse_number("sram.size", "256KiB"), 256u * 1024);
  EXPECT_EQ(parse_number("sram.size", "1MiB"), 1048576u);
  EXPECT_EQ(parse_number("sram.size", "1.5MiB"), 1572864u);
  EXPECT_EQ(parse_number("sram.size", "100KB"), 100000u);
  EXPECT_EQ(parse_number("sram.size", "2MB"), 2000000u);
  EXPECT_EQ(parse_number("dram.size", "1GiB"), 1073741824u);
  EXPECT_EQ(parse_number("dram.size", "1GB"), 1000000000u);
  EXPECT_EQ(parse_number("sram.size", "64 KiB"), 65536u);
}

TEST(ParameterValues, TimesNeedAUnitAndAcceptExactFractions) {
  EXPECT_EQ(parse_number("cpu.quantum", "1us"), 1000000u);
  EXPECT_EQ(parse_number("cpu.quantum", "1.5us"), 1500000u);
  EXPECT_EQ(parse_number("cpu.quantum", "0.25ms"), 250000000u);
  EXPECT_EQ(parse_number("cpu.quantum", "2500ps"), 2500u);
  EXPECT_EQ(parse_number("sim.max_time", "2s"), 2000000000000u);
  EXPECT_EQ(parse_number("sim.max_time", "1.000000000001s"), 1000000000001u);
  EXPECT_EQ(parse_number("sim.max_time", "0"), 0u);  // a bare zero needs no unit

  const std::string not_whole = parse_error("cpu.quantum", "1.0000001ns");
  EXPECT_NE(not_whole.find("not a whole number of picoseconds"), std::string::npos) << not_whole;
  EXPECT_NE(not_whole.find("cpu.quantum"), std::string::npos) << not_whole;
  EXPECT_NE(parse_error("cpu.quantum", "1.5ps").find("not a whole number"), std::string::npos);

  const std::string missing = parse_error("cpu.quantum", "100");
  EXPECT_NE(missing.find("needs a unit (ps, ns, us, ms, s)"), std::string::npos) << missing;
  EXPECT_NE(missing.find("allowed 1ns..10ms"), std::string::npos) << missing;
}

TEST(ParameterValues, FrequenciesTakeHertzUnits) {
  EXPECT_EQ(parse_number("cpu.clock", "800MHz"), 800000000u);
  EXPECT_EQ(parse_number("cpu.clock", "1.2GHz"), 1200000000u);
  EXPECT_EQ(parse_number("cpu.clock", "2500kHz"), 2500000u);
  EXPECT_EQ(parse_number("cpu.timebase", "32768Hz"), 32768u);
  const std::string missing = parse_error("cpu.clock", "800000000");
  EXPECT_NE(missing.find("needs a unit (Hz, kHz, MHz, GHz)"), std::string::npos) << missing;
  const std::string unknown = parse_error("cpu.clock", "800mhz");
  EXPECT_NE(unknown.find("unknown unit 'mhz'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("Hz, kHz, MHz, GHz"), std::string::npos) << unknown;
}

TEST(ParameterValues, CountsArePlainNonNegativeIntegers) {
  EXPECT_EQ(parse_number("cpu.cost.misaligned", "34"), 34u);
  EXPECT_EQ(parse_number("cpu.cost.misaligned", "0"), 0u);
  for (const char* bad : {"-1", "1.5", "3cycles", "0x10", "", "ten"}) {
    const std::string error = parse_error("cpu.cost.misaligned", bad);
    EXPECT_NE(error.find("not a non-negative integer"), std::string::npos) << bad << ": " << error;
    EXPECT_NE(error.find("allowed 0..1000"), std::string::npos) << error;
  }
  EXPECT_EQ(parse_number("sim.max_instructions", "18446744073709551615"), UINT64_MAX);
  EXPECT_NE(parse_error("sim.max_instructions", "18446744073709551616").find("out of range"),
            std::string::npos);
}

TEST(ParameterValues, BooleansAndEnumsAcceptOnlyTheirNames) {
  EXPECT_TRUE(std::get<bool>(param("output.profile").parse("true", "t")));
  EXPECT_FALSE(std::get<bool>(param("output.profile").parse("false", "t")));
  EXPECT_NE(parse_error("output.profile", "yes").find("allowed true, false"), std::string::npos);
  EXPECT_EQ(parse_number("firmware.scheme", "ideal"), 0u);
  EXPECT_EQ(parse_number("firmware.scheme", "rqftl"), 6u);
  const std::string error = parse_error("firmware.scheme", "DFTL");
  EXPECT_NE(error.find("ideal, dftl, tpftl, sftl, leaftl, learnedftl, rqftl"), std::string::npos)
      << error;
}

TEST(ParameterValues, RangesAndMultiplesAreEnforcedInTheKeysUnits) {
  const std::string high = parse_error("cpu.clock", "5GHz");
  EXPECT_NE(high.find("'5GHz' is out of range; allowed 1MHz..4GHz"), std::string::npos) << high;
  EXPECT_EQ(parse_number("cpu.clock", "4GHz"), 4000000000u);
  EXPECT_NE(parse_error("cpu.clock", "999999Hz").find("out of range"), std::string::npos);

  EXPECT_EQ(parse_number("dram.size", "0"), 0u);
  const std::string dram = parse_error("dram.size", "512KiB");
  EXPECT_NE(dram.find("allowed 0B or 1MiB..2GiB"), std::string::npos) << dram;

  EXPECT_EQ(parse_number("cpu.stack_per_hart", "1040"), 1040u);
  const std::string stack = parse_error("cpu.stack_per_hart", "1032");
  EXPECT_NE(stack.find("not a multiple of 16B"), std::string::npos) << stack;
  EXPECT_NE(stack.find("1KiB..1MiB"), std::string::npos) << stack;

  EXPECT_NE(parse_error("sim.max_time", "99999999999999999999999s").find("out of range"),
            std::string::npos);
  EXPECT_NE(parse_error("sim.max_time", "18446744073709551616ps").find("out of range"),
            std::string::npos);
}

TEST(ParameterValues, CanonicalFormIsTheLargestExactUnit) {
  const Parameter& size = param("sram.size");
  EXPECT_EQ(size.format(uint64_t{1048576}), "1MiB");
  EXPECT_EQ(size.format(uint64_t{1572864}), "1536KiB");
  EXPECT_EQ(size.format(uint64_t{1000000}), "1MB");
  EXPECT_EQ(size.format(uint64_t{1000}), "1KB");
  EXPECT_EQ(size.format(uint64_t{1001}), "1001B");
  EXPECT_EQ(size.format(uint64_t{0}), "0B");
  const Parameter& time = param("sim.max_time");
  EXPECT_EQ(time.format(uint64_t{1500000}), "1500ns");
  EXPECT_EQ(time.format(uint64_t{500000000000}), "500ms");
  EXPECT_EQ(time.format(uint64_t{3000000000000}), "3s");
  EXPECT_EQ(time.format(uint64_t{7}), "7ps");
  EXPECT_EQ(time.format(uint64_t{0}), "0s");
  const Parameter& clock = param("cpu.clock");
  EXPECT_EQ(clock.format(uint64_t{1500000000}), "1500MHz");
  EXPECT_EQ(clock.format(uint64_t{2000000000}), "2GHz");
}

TEST(ParameterValues, EveryLimitAndDefaultSurvivesFormatAndParse) {
  const Scenario defaults;
  for (const Parameter& p : parameters()) {
    const ParamValue default_value = p.read(defaults);
    EXPECT_EQ(p.parse(p.format(default_value), "t"), default_value) << p.key;
    if (p.kind == ParamKind::kSize || p.kind == ParamKind::kTime ||
        p.kind == ParamKind::kFrequency || p.kind == ParamKind::kCount) {
      EXPECT_EQ(p.parse(p.format(p.min), "t"), ParamValue{p.min}) << p.key;
      EXPECT_EQ(p.parse(p.format(p.max), "t"), ParamValue{p.max}) << p.key;
    }
  }
}

}  // namespace
}  // namespace ssdvp
