// Waveform output (VCD) for loosely-timed models. Models record value changes with their own
// (possibly decoupled, slightly out-of-order) timestamps; the writer orders them before writing,
// keeps only the requested time window, and emits a value-change dump GTKWave opens.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ssdvp {

class WaveWriter {
 public:
  using SignalId = uint32_t;

  // Writes to `path`; only changes in [window_start_ps, window_end_ps) are written, plus each
  // signal's value at window start. window_end_ps = 0 means no end.
  WaveWriter(const std::string& path, uint64_t window_start_ps = 0, uint64_t window_end_ps = 0);
  ~WaveWriter();  // flushes and closes
  WaveWriter(const WaveWriter&) = delete;
  WaveWriter& operator=(const WaveWriter&) = delete;

  // Declares a signal in a dot-separated scope ("soc.cpu.hart0") before the first change.
  // width 1..64 bits; `initial` is its value at time 0.
  SignalId add_signal(const std::string& scope, const std::string& name, unsigned width,
                      uint64_t initial = 0);
  // Declares a signal whose values are shown as text in GTKWave (a VCD string variable), for
  // states such as "idle"/"read"/"program".
  SignalId add_state_signal(const std::string& scope, const std::string& name,
                            const std::string& initial);

  void set(SignalId id, uint64_t value, uint64_t time_ps);
  // Adds `delta` to an integer signal at `time_ps`. For counts that several decoupled initiators
  // update: their calls arrive out of time order, so the sum is formed after ordering by time.
  void add(SignalId id, uint64_t delta, uint64_t time_ps);
  void set_state(SignalId id, const std::string& value, uint64_t time_ps);

  // Changes older than `time_ps` will not arrive any more (all models have synchronised past
  // it): they may be written out, bounding memory use.
  void flush_before(uint64_t time_ps);
  // Writes everything still buffered and closes the file; later calls to set are ignored.
  void close();

  const std::string& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ssdvp
