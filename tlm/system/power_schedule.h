// When the power is cut in a run (host.power_loss.*): at given simulated times, when the host
// has completed given numbers of commands (counted over the run), and at `random` times drawn
// from the run's seed, uniformly in [random_start, random_end). Every cut is a supply failure;
// the SoC (soc.h) cuts the power at once, or after the firmware's hold-up budget (ftl.plp), and
// brings it back host.power_loss.off_time later.
#pragma once

#include <cstdint>
#include <vector>

#include "tlm/system/soc_config.h"

namespace ssdvp {

class PowerSchedule {
 public:
  // Throws std::runtime_error naming the host.power_loss key, the entry and the allowed form.
  PowerSchedule(const PowerLossConfig& config, uint64_t seed);

  bool empty() const { return times_ps_.empty() && command_counts_.empty(); }
  // Supply failures by time and by completed host commands, each ascending.
  const std::vector<uint64_t>& times_ps() const { return times_ps_; }
  const std::vector<uint64_t>& command_counts() const { return command_counts_; }

 private:
  std::vector<uint64_t> times_ps_;
  std::vector<uint64_t> command_counts_;
};

}  // namespace ssdvp
