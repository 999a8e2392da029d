// A hart's cycles by job kind (interface/job_kinds.h): what the mjobkind CSR charged them to
// (cpu::Core::job_kind_cycles), reported by name.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "interface/job_kinds.h"

namespace ssdvp {

static_assert(JOB_KIND_COUNT <= JOB_KIND_LIMIT, "the CSR holds every kind");
static_assert(JOB_KIND_IDLE == JOB_KIND_IDLE_VALUE, "crt0.S's idle kind");

// Cycles per CSR value: the named kinds first.
using JobKindCycles = std::array<uint64_t, JOB_KIND_LIMIT>;

#define SSDVP_JOB_KIND_NAME_(enumerator, name) name,
inline constexpr std::array<const char*, JOB_KIND_COUNT> kJobKindNames = {
    JOB_KIND_LIST(SSDVP_JOB_KIND_NAME_)};
#undef SSDVP_JOB_KIND_NAME_

// {name: cycles} for every named kind, and "kind<N>" for each other value the firmware charged
// cycles to: they sum to the hart's cycles. `begin` is subtracted (a span's).
inline nlohmann::json job_cycles_json(const JobKindCycles& end, const JobKindCycles& begin = {}) {
  nlohmann::json out = nlohmann::json::object();
  for (uint32_t kind = 0; kind < JOB_KIND_LIMIT; ++kind) {
    const uint64_t cycles = end[kind] - begin[kind];
    if (kind < JOB_KIND_COUNT) {
      out[kJobKindNames[kind]] = cycles;
    } else if (cycles != 0) {
      out["kind" + std::to_string(kind)] = cycles;
    }
  }
  return out;
}

}  // namespace ssdvp
