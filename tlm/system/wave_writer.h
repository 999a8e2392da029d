// Waveform output for loosely-timed models. Models record value changes with their own (possibly
// decoupled, slightly out-of-order) timestamps; the writer orders them before writing, keeps only
// the requested time window, and emits a value-change dump GTKWave opens (VCD, or FST through
// another WaveFormat).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ssdvp {

// A declared signal, as a dump format and a GTKWave save file name it.
struct WaveSignalInfo {
  std::string scope;  // dotted: "soc.nfc.ch0"
  std::string name;
  unsigned width = 1;
  bool is_state = false;  // values are text ("idle", "read")

  std::string full_name() const { return scope + "." + name; }
};

// Walks `signals` as nested scopes, one per dotted component, for the formats that declare them
// so: in each scope its own signals first, then its child scopes in order of first appearance.
struct WaveScopeVisitor {
  std::function<void(const std::string& name)> enter;
  std::function<void(uint32_t signal)> signal;
  std::function<void()> leave;
};
void visit_wave_scopes(const std::vector<WaveSignalInfo>& signals, const WaveScopeVisitor& visitor);

// The file format a WaveWriter writes its ordered changes in: VCD (the default) or FST
// (tlm/system/fst_format.h). Signals are numbered in declaration order.
class WaveFormat {
 public:
  virtual ~WaveFormat() = default;
  // The header, then the values at the dump's start time: value()/state() calls for every
  // signal follow, ended by end_initial_values().
  virtual void begin(const std::vector<WaveSignalInfo>& signals, uint64_t start_ps) = 0;
  virtual void end_initial_values() = 0;
  // The values that follow change at `time_ps` (later than any before).
  virtual void time(uint64_t time_ps) = 0;
  virtual void value(uint32_t signal, uint64_t value) = 0;
  virtual void state(uint32_t signal, const std::string& text) = 0;
  // Writes what is buffered; throws naming the file when writing failed.
  virtual void flush() = 0;
  // Ends the dump at `end_ps` (the last time written when not later) and closes the file.
  virtual void finish(uint64_t end_ps) = 0;
};

class WaveWriter {
 public:
  using SignalId = uint32_t;

  // Writes a VCD to `path`; only changes in [window_start_ps, window_end_ps) are written, plus
  // each signal's value at window start. window_end_ps = 0 means no end.
  WaveWriter(const std::string& path, uint64_t window_start_ps = 0, uint64_t window_end_ps = 0);
  // The same in another format, which has opened `path`.
  WaveWriter(std::unique_ptr<WaveFormat> format, const std::string& path,
             uint64_t window_start_ps = 0, uint64_t window_end_ps = 0);
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
  // Every signal declared, in declaration order.
  std::vector<WaveSignalInfo> signals() const;
  // The time the dump starts and, after close(), the time it ends (the models' last time
  // reached, within the window).
  uint64_t start_ps() const;
  uint64_t end_ps() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ssdvp
