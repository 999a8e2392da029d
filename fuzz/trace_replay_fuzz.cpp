#include "fuzz/trace_replay_fuzz.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

#include "tlm/host/trace_replay.h"

namespace ssdvp::fuzz {

namespace {

// A finding: libFuzzer saves the input that led here.
[[noreturn]] void violated(const std::string& rule) {
  std::fprintf(stderr, "trace replay: %s\n", rule.c_str());
  std::abort();
}

// TraceReplay reads a file: one per process, rewritten for every input and removed at exit. On
// tmpfs when there is one: rewriting a file on disk costs more than parsing it.
struct TraceFile {
  explicit TraceFile(const char* format) {
    const std::filesystem::path shm = "/dev/shm";
    const std::filesystem::path directory =
        std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
    path = (directory / ("ssdvp-fuzz-" + std::to_string(getpid()) + "." + format)).string();
  }
  ~TraceFile() { std::filesystem::remove(path); }
  std::string path;
};

}  // namespace

void replay_trace(const char* format, const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  host::StreamConfig stream;
  stream.trace_format = format;
  stream.follow_timestamps = input.ConsumeBool();
  stream.fold_out_of_range = input.ConsumeBool();
  stream.time_scale = input.ConsumeBool() ? 1.0 : input.ConsumeFloatingPointInRange(1e-6, 1e6);
  if (input.ConsumeBool()) stream.devices = {input.ConsumeIntegral<uint32_t>()};
  const uint32_t sector_bytes = input.ConsumeBool() ? 512 : 4096;
  const uint64_t device_sectors = input.ConsumeIntegralInRange<uint64_t>(1, uint64_t{1} << 40);

  static const TraceFile trace_file(format);
  const std::string& path = trace_file.path;
  stream.trace_path = path;
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    const std::string text = input.ConsumeRemainingBytesAsString();
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
  }

  try {
    host::TraceReplay replay(stream, device_sectors, sector_bytes);
    uint64_t previous_arrival_ps = 0;
    while (const std::optional<host::HostRequest> request = replay.next()) {
      if (request->first_sector > device_sectors ||
          request->sector_count > device_sectors - request->first_sector) {
        violated("a request beyond the device");
      }
      if (request->op != host::HostOp::kFlush && request->sector_count == 0) {
        violated("an empty request");
      }
      // Trace times may not go back, and scaling keeps their order.
      if (request->arrival_ps < previous_arrival_ps) violated("an arrival before the previous one");
      previous_arrival_ps = request->arrival_ps;
    }
  } catch (const std::runtime_error& error) {
    if (std::string(error.what()).find(path) == std::string::npos) {
      violated(std::string("an error that does not name the file: ") + error.what());
    }
  }
}

}  // namespace ssdvp::fuzz
