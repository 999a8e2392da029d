// Running ssdsim from a test: the executable of this build, in a child process.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ssdvp::test {

struct SsdsimRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `ssdsim ARGUMENTS` through the shell and waits for it.
SsdsimRun run_ssdsim(const std::string& arguments);

// A fresh, empty scratch directory, unique to this test process. It is removed when the process
// ends with every test passed (unless SSDVP_KEEP_TEST_OUTPUT is set).
std::string temp_dir(const std::string& name);

nlohmann::json read_json(const std::string& path);
std::string read_text(const std::string& path);

}  // namespace ssdvp::test
