// The blkparse's text output trace parser, through TraceReplay (fuzz/trace_replay_fuzz.h).
#include <cstddef>
#include <cstdint>

#include "fuzz/trace_replay_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ssdvp::fuzz::replay_trace("blkparse", data, size);
  return 0;
}
