// What every trace harness checks: the fuzz input, less the bytes the stream options are drawn
// from, is a trace file replayed by TraceReplay in one format. A bad line must end in a
// std::runtime_error naming the file; every request it yields must lie on the device, and with
// follow_timestamps arrive in order.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ssdvp::fuzz {

void replay_trace(const char* format, const uint8_t* data, size_t size);

}  // namespace ssdvp::fuzz
