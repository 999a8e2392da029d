// Workload streams: the generator or the trace replay a stream describes, and the helpers the
// host model and the scenario loader share.
#include "tlm/host/workload.h"

#include <fmt/format.h>

#include "tlm/host/synthetic_generator.h"
#include "tlm/system/random.h"
#include "tlm/host/trace_replay.h"

namespace ssdvp::host {

std::unique_ptr<RequestSource> make_request_source(const StreamConfig& stream,
                                                   uint64_t device_sectors, uint32_t sector_bytes,
                                                   uint64_t seed) {
  if (!stream.trace_path.empty()) {
    return std::make_unique<TraceReplay>(stream, device_sectors, sector_bytes);
  }
  return std::make_unique<SyntheticGenerator>(stream, device_sectors, sector_bytes, seed);
}

std::string stream_error_prefix(const StreamConfig& stream) {
  return stream.name.empty() ? "" : fmt::format("stream '{}': ", stream.name);
}

uint64_t stream_seed(uint64_t run_seed, size_t phase_index, size_t stream_index) {
  // A chain of splitmix64 rounds: neighbouring indices give unrelated seeds.
  uint64_t state = run_seed;
  state = splitmix64(state) ^ (phase_index + 1) * 0xd1b54a32d192ed03ULL;
  state = splitmix64(state) ^ (stream_index + 1) * 0xabc98388fb8fac03ULL;
  return splitmix64(state);
}

}  // namespace ssdvp::host
