// The scenario loader and its parameter registry: YAML text and --set overrides. The input is
// the YAML file, then each override after a NUL byte. Anything wrong must end in a
// ScenarioError that names where the value came from (the file or the override).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tb/scenario/scenario.h"

namespace {

constexpr const char* kSource = "fuzz.yaml";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t file_end = input.find('\0');
  const std::string yaml = input.substr(0, file_end);
  std::vector<std::string> overrides;
  for (size_t start = file_end; start != std::string::npos;) {
    const size_t end = input.find('\0', start + 1);
    overrides.push_back(input.substr(start + 1, end == std::string::npos ? end : end - start - 1));
    start = end;
  }
  try {
    ssdvp::load_scenarios(yaml, kSource, overrides);
  } catch (const ssdvp::ScenarioError& error) {
    const std::string message = error.what();
    if (message.find(kSource) == std::string::npos && message.find("--set ") == std::string::npos) {
      std::fprintf(stderr, "scenario error naming neither the file nor an override: %s\n",
                   message.c_str());
      std::abort();
    }
  }
  return 0;
}
