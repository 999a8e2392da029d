#include "tb/tests/support/ssdsim_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace ssdvp::test {
namespace {

// Scratch directories of this process. Each run of ssdsim leaves its stats.json and time
// series (tens of MiB for a long scenario); kept, every `make test` would fill the disk. They
// stay when a test failed, for its outputs to be read, or when SSDVP_KEEP_TEST_OUTPUT is set.
class ScratchDirectories {
 public:
  ~ScratchDirectories() {
    if (std::getenv("SSDVP_KEEP_TEST_OUTPUT") != nullptr) return;
    if (testing::UnitTest::GetInstance()->Failed()) return;
    for (const auto& path : paths_) {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  }
  void add(const std::filesystem::path& path) { paths_.push_back(path); }

 private:
  std::vector<std::filesystem::path> paths_;
};

}  // namespace

SsdsimRun run_ssdsim(const std::string& arguments) {
  const std::string command = std::string(SSDVP_SSDSIM) + " " + arguments + " 2>&1";
  SsdsimRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string temp_dir(const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ssdvp_test_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  static ScratchDirectories scratch;
  scratch.add(path);
  return path.string();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(in);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace ssdvp::test
