// A workload phase from a fio job file (the phase key `fio`): the common subset of fio's options
// translated into the streams and limits of the phase, so an architect reuses the job files
// they already have. Every job of the file runs concurrently, as in fio: each clone of a job
// (numjobs) is a stream with the job's iodepth as its queue depth. README, "fio job files",
// says how each option maps and which fio semantics the host model has no equivalent for.
#pragma once

#include <string>

#include "tlm/host/workload.h"

namespace ssdvp {

// Replaces the streams and the limits (requests, bytes, duration, capacity_multiple) of `phase`
// with those of the job file at `path`. Throws ScenarioError "path:line: option: problem;
// allowed ..." for an unknown option (listing the supported ones), a bad value (with the allowed
// values) or jobs that cannot share one phase.
void apply_fio_job_file(const std::string& path, host::PhaseConfig& phase);

// The same for the text of a job file; `source` names it in errors.
void apply_fio_jobs(const std::string& text, const std::string& source, host::PhaseConfig& phase);

}  // namespace ssdvp
