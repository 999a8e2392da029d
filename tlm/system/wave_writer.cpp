#include "tlm/system/wave_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

// The VCD format (VcdFormat below), checked against GTKWave 3.3.118:
// - timescale 1 ps; each dotted scope component is a nested `$scope module`;
// - integer signals are `wire`s: 1 bit as a scalar (`1!`), wider as a vector (`b1010 "`)
//   declared without a range; GTKWave lists it as "<scope>.<name>[msb:0]" all the same;
// - state signals are VCD `string` variables (`$var string 1 # state $end`, changes `sidle #`),
//   an extension GTKWave shows as text;
// - the dump starts at the window start with `$dumpvars` holding every signal's value there, and
//   ends with a bare timestamp at the last time the models are known to have reached (the last
//   flush_before limit, capped at the window end) so the final values show with their duration.
// The header is written lazily, so signals may be declared until the first change is recorded.

namespace ssdvp {

namespace {

struct Signal : WaveSignalInfo {
  uint64_t value = 0;  // value last applied (for state signals: an index into the state names)
  uint64_t ordered_value = 0;  // value after the last change put in time order (sums increments)
  // Collapsing the changes of one time step: the step's final value, and whether it has one.
  uint64_t step_value = 0;
  bool in_step = false;
};

struct Change {
  uint64_t time_ps;
  WaveWriter::SignalId signal;
  uint64_t value;          // the new value, or the delta of an increment
  bool is_increment;
};

// Names become VCD identifiers and GTKWave save-file paths: keep them to characters both accept.
bool is_identifier(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// State values are written unquoted after `s`: any printable character but space.
bool is_state_text(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c <= '~'; });
}

// Identifiers in base 94 over the printable characters '!'..'~', as VCD writers conventionally do.
std::string identifier_code(uint32_t index) {
  std::string code;
  do {
    code.push_back(static_cast<char>('!' + index % 94));
    index /= 94;
  } while (index != 0);
  return code;
}

// A value-change dump as text.
class VcdFormat : public WaveFormat {
 public:
  explicit VcdFormat(const std::string& path) : path_(path) {
    out_.open(path, std::ios::out | std::ios::trunc);
    if (!out_) {
      throw std::runtime_error(
          fmt::format("{}: cannot open for writing: {}", path, std::strerror(errno)));
    }
  }

  void begin(const std::vector<WaveSignalInfo>& signals, uint64_t start_ps) override {
    signals_ = signals;
    out_ << "$version ssdvp WaveWriter $end\n$timescale 1ps $end\n";
    write_declarations();
    out_ << "$enddefinitions $end\n";
    out_ << fmt::format("#{}\n$dumpvars\n", start_ps);
    last_time_ps_ = start_ps;
  }
  void end_initial_values() override { out_ << "$end\n"; }
  void time(uint64_t time_ps) override {
    out_ << fmt::format("#{}\n", time_ps);
    last_time_ps_ = time_ps;
  }
  void value(uint32_t signal, uint64_t value) override {
    if (signals_[signal].width == 1) {
      out_ << fmt::format("{}{}\n", value, identifier_code(signal));
    } else {
      out_ << fmt::format("b{:b} {}\n", value, identifier_code(signal));
    }
  }
  void state(uint32_t signal, const std::string& text) override {
    out_ << fmt::format("s{} {}\n", text, identifier_code(signal));
  }
  void flush() override {
    out_.flush();
    check();
  }
  void finish(uint64_t end_ps) override {
    if (end_ps > last_time_ps_) out_ << fmt::format("#{}\n", end_ps);
    out_.close();
    check();
  }

 private:
  void write_declarations() {
    visit_wave_scopes(
        signals_,
        {[&](const std::string& name) { out_ << fmt::format("$scope module {} $end\n", name); },
         [&](uint32_t id) {
           const WaveSignalInfo& signal = signals_[id];
           out_ << fmt::format("$var {} {} {} {} $end\n", signal.is_state ? "string" : "wire",
                               signal.width, identifier_code(id), signal.name);
         },
         [&] { out_ << "$upscope $end\n"; }});
  }

  void check() const {
    if (!out_) throw std::runtime_error(fmt::format("{}: writing the waveform failed", path_));
  }

  std::string path_;
  std::ofstream out_;
  std::vector<WaveSignalInfo> signals_;
  uint64_t last_time_ps_ = 0;
};

void check_window(const std::string& path, uint64_t window_start_ps, uint64_t window_end_ps) {
  if (window_end_ps != 0 && window_end_ps <= window_start_ps) {
    throw std::runtime_error(fmt::format(
        "{}: wave window end {} ps is not after its start {} ps (0 means no end)", path,
        window_end_ps, window_start_ps));
  }
}

struct ScopeNode {
  std::string name;
  std::vector<ScopeNode> children;
  std::vector<uint32_t> signals;
};

void visit_scope(const ScopeNode& scope, const WaveScopeVisitor& visitor) {
  for (uint32_t id : scope.signals) visitor.signal(id);
  for (const ScopeNode& child : scope.children) {
    visitor.enter(child.name);
    visit_scope(child, visitor);
    visitor.leave();
  }
}

// The window is checked before the file is opened, which truncates it.
std::unique_ptr<WaveFormat> open_vcd(const std::string& path, uint64_t window_start_ps,
                                     uint64_t window_end_ps) {
  check_window(path, window_start_ps, window_end_ps);
  return std::make_unique<VcdFormat>(path);
}

}  // namespace

void visit_wave_scopes(const std::vector<WaveSignalInfo>& signals,
                       const WaveScopeVisitor& visitor) {
  ScopeNode root;
  for (uint32_t id = 0; id < signals.size(); ++id) {
    ScopeNode* scope = &root;
    const std::string& path = signals[id].scope;
    for (size_t begin = 0; begin != std::string::npos;) {
      const size_t dot = path.find('.', begin);
      const std::string component = path.substr(begin, dot - begin);
      auto child = std::find_if(scope->children.begin(), scope->children.end(),
                                [&](const ScopeNode& s) { return s.name == component; });
      if (child == scope->children.end()) {
        scope->children.push_back({component, {}, {}});
        child = scope->children.end() - 1;
      }
      scope = &*child;
      begin = dot == std::string::npos ? dot : dot + 1;
    }
    scope->signals.push_back(id);
  }
  visit_scope(root, visitor);
}

struct WaveWriter::Impl {
  std::string path;
  uint64_t window_start_ps;
  uint64_t window_end_ps;  // 0 = no end
  std::unique_ptr<WaveFormat> format;

  std::vector<Signal> signals;
  std::vector<std::string> state_names;
  std::unordered_map<std::string, uint64_t> state_index;

  std::vector<Change> pending;  // recorded, not yet written; in arrival order
  bool change_recorded = false;  // declarations are closed from the first change on
  bool dump_started = false;     // header and $dumpvars written
  // The last timestamp written or, before the dump starts, applied to the starting values.
  uint64_t written_time_ps = 0;
  uint64_t reached_ps = 0;       // greatest flush_before limit
  uint64_t end_ps = 0;           // where close() ended the dump
  bool closed = false;

  const Signal& signal(SignalId id) const {
    if (id >= signals.size()) {
      throw std::runtime_error(fmt::format("{}: unknown wave signal id {} ({} signals declared)",
                                           path, id, signals.size()));
    }
    return signals[id];
  }

  SignalId declare(const std::string& scope, const std::string& name, unsigned width,
                   bool is_state, uint64_t initial) {
    if (change_recorded) {
      throw std::runtime_error(fmt::format(
          "{}: wave signal {}.{} declared after the first value change; declare every signal "
          "before recording changes",
          path, scope, name));
    }
    size_t begin = 0;
    do {
      const size_t dot = scope.find('.', begin);
      const std::string component = scope.substr(begin, dot - begin);
      if (!is_identifier(component)) {
        throw std::runtime_error(fmt::format(
            "{}: wave scope \"{}\" has an empty or invalid component \"{}\" (allowed: "
            "dot-separated names of letters, digits and '_')",
            path, scope, component));
      }
      begin = dot == std::string::npos ? dot : dot + 1;
    } while (begin != std::string::npos);
    if (!is_identifier(name)) {
      throw std::runtime_error(fmt::format(
          "{}: wave signal name \"{}\" in scope {} is invalid (allowed: letters, digits and '_')",
          path, name, scope));
    }
    for (const Signal& existing : signals) {
      if (existing.scope == scope && existing.name == name) {
        throw std::runtime_error(
            fmt::format("{}: wave signal {}.{} is declared twice", path, scope, name));
      }
    }
    Signal signal;
    signal.scope = scope;
    signal.name = name;
    signal.width = width;
    signal.is_state = is_state;
    signal.value = initial;
    signal.ordered_value = initial;
    signals.push_back(std::move(signal));
    return static_cast<SignalId>(signals.size() - 1);
  }

  uint64_t intern_state(const std::string& full_name, const std::string& text) {
    if (!is_state_text(text)) {
      throw std::runtime_error(fmt::format(
          "{}: state \"{}\" of wave signal {} is invalid (allowed: printable characters, no "
          "spaces, not empty)",
          path, text, full_name));
    }
    auto [it, inserted] = state_index.try_emplace(text, state_names.size());
    if (inserted) state_names.push_back(text);
    return it->second;
  }

  void check_fits(const std::string& full_name, unsigned width, uint64_t value) const {
    if (width < 64 && value >> width != 0) {
      throw std::runtime_error(fmt::format(
          "{}: value {} does not fit in the {} bits of wave signal {} (allowed: 0..{})", path,
          value, width, full_name, (uint64_t{1} << width) - 1));
    }
  }

  void record(SignalId id, uint64_t value, uint64_t time_ps, bool is_increment = false) {
    change_recorded = true;
    if (window_end_ps != 0 && time_ps >= window_end_ps) return;
    if (time_ps < written_time_ps) {
      throw std::runtime_error(fmt::format(
          "{}: change of wave signal {} at {} ps arrived after the dump reached {} ps; changes "
          "may come out of order only until flush_before() passes them",
          path, signals[id].full_name(), time_ps, written_time_ps));
    }
    pending.push_back({time_ps, id, value, is_increment});
  }

  void emit(SignalId id) {
    const Signal& signal = signals[id];
    if (signal.is_state) {
      format->state(id, state_names[signal.value]);
    } else {
      format->value(id, signal.value);
    }
  }

  void start_dump() {
    format->begin(std::vector<WaveSignalInfo>(signals.begin(), signals.end()), window_start_ps);
    for (SignalId id = 0; id < signals.size(); ++id) emit(id);
    format->end_initial_values();
    dump_started = true;
    written_time_ps = window_start_ps;
  }

  // Writes one time step: each signal's last value in the step, if it differs from its current.
  void write_step(uint64_t time_ps, std::vector<Change>::const_iterator begin,
                  std::vector<Change>::const_iterator end) {
    std::vector<SignalId> touched;
    for (auto it = begin; it != end; ++it) {
      Signal& signal = signals[it->signal];
      if (!signal.in_step) touched.push_back(it->signal);
      signal.in_step = true;
      signal.step_value = it->value;
    }
    bool stamped = time_ps == written_time_ps;
    for (SignalId id : touched) {
      Signal& signal = signals[id];
      signal.in_step = false;
      if (signal.step_value == signal.value) continue;
      signal.value = signal.step_value;
      if (!stamped) {
        format->time(time_ps);
        stamped = true;
        written_time_ps = time_ps;
      }
      emit(id);
    }
  }

  // Writes the pending changes older than `limit_ps` (all of them without a limit) in time order,
  // arrival order within a time. Changes up to the window start only set the starting values.
  void write_pending(std::optional<uint64_t> limit_ps) {
    auto ready_end = pending.end();
    if (limit_ps) {
      ready_end = std::stable_partition(pending.begin(), pending.end(),
                                        [&](const Change& c) { return c.time_ps < *limit_ps; });
    }
    std::stable_sort(pending.begin(), ready_end,
                     [](const Change& a, const Change& b) { return a.time_ps < b.time_ps; });
    for (auto change = pending.begin(); change != ready_end; ++change) {
      Signal& signal = signals[change->signal];
      if (change->is_increment) {
        change->value += signal.ordered_value;
        check_fits(signal.full_name(), signal.width, change->value);
        change->is_increment = false;
      }
      signal.ordered_value = change->value;
    }
    auto it = pending.begin();
    if (!dump_started) {
      for (; it != ready_end && it->time_ps <= window_start_ps; ++it) {
        signals[it->signal].value = it->value;
        written_time_ps = it->time_ps;
      }
      // The starting values are final once every change up to the window start has arrived.
      if (change_recorded && (!limit_ps || *limit_ps > window_start_ps)) start_dump();
    }
    while (it != ready_end) {
      const uint64_t step_time = it->time_ps;
      auto step_end = std::find_if(it, ready_end,
                                   [&](const Change& c) { return c.time_ps != step_time; });
      write_step(step_time, it, step_end);
      it = step_end;
    }
    pending.erase(pending.begin(), ready_end);
  }
};

WaveWriter::WaveWriter(const std::string& path, uint64_t window_start_ps, uint64_t window_end_ps)
    : WaveWriter(open_vcd(path, window_start_ps, window_end_ps), path, window_start_ps,
                 window_end_ps) {}

WaveWriter::WaveWriter(std::unique_ptr<WaveFormat> format, const std::string& path,
                       uint64_t window_start_ps, uint64_t window_end_ps)
    : impl_(std::make_unique<Impl>()) {
  check_window(path, window_start_ps, window_end_ps);
  impl_->path = path;
  impl_->window_start_ps = window_start_ps;
  impl_->window_end_ps = window_end_ps;
  impl_->format = std::move(format);
}

WaveWriter::~WaveWriter() {
  try {
    close();
  } catch (const std::exception& error) {
    // A destructor must not throw; the lost waveform is reported instead.
    std::fprintf(stderr, "%s\n", error.what());
  }
}

WaveWriter::SignalId WaveWriter::add_signal(const std::string& scope, const std::string& name,
                                            unsigned width, uint64_t initial) {
  if (width < 1 || width > 64) {
    throw std::runtime_error(fmt::format("{}: wave signal {}.{} has width {} (allowed: 1..64)",
                                         impl_->path, scope, name, width));
  }
  impl_->check_fits(scope + "." + name, width, initial);
  return impl_->declare(scope, name, width, false, initial);
}

WaveWriter::SignalId WaveWriter::add_state_signal(const std::string& scope,
                                                  const std::string& name,
                                                  const std::string& initial) {
  const uint64_t initial_index = impl_->intern_state(scope + "." + name, initial);
  return impl_->declare(scope, name, 1, true, initial_index);
}

void WaveWriter::set(SignalId id, uint64_t value, uint64_t time_ps) {
  const Signal& signal = impl_->signal(id);
  if (signal.is_state) {
    throw std::runtime_error(fmt::format(
        "{}: wave signal {} holds states; set it with set_state", impl_->path, signal.full_name()));
  }
  impl_->check_fits(signal.full_name(), signal.width, value);
  if (impl_->closed) return;
  impl_->record(id, value, time_ps);
}

void WaveWriter::add(SignalId id, uint64_t delta, uint64_t time_ps) {
  const Signal& signal = impl_->signal(id);
  if (signal.is_state) {
    throw std::runtime_error(fmt::format("{}: wave signal {} holds states; it cannot count",
                                         impl_->path, signal.full_name()));
  }
  if (impl_->closed) return;
  impl_->record(id, delta, time_ps, true);
}

void WaveWriter::set_state(SignalId id, const std::string& value, uint64_t time_ps) {
  const Signal& signal = impl_->signal(id);
  if (!signal.is_state) {
    throw std::runtime_error(fmt::format("{}: wave signal {} holds integers; set it with set",
                                         impl_->path, signal.full_name()));
  }
  const uint64_t index = impl_->intern_state(signal.full_name(), value);
  if (impl_->closed) return;
  impl_->record(id, index, time_ps);
}

void WaveWriter::flush_before(uint64_t time_ps) {
  if (impl_->closed) return;
  impl_->reached_ps = std::max(impl_->reached_ps, time_ps);
  impl_->write_pending(time_ps);
  impl_->format->flush();
}

void WaveWriter::close() {
  if (impl_->closed) return;
  impl_->closed = true;
  impl_->write_pending(std::nullopt);
  if (!impl_->dump_started) impl_->start_dump();  // no change was recorded
  uint64_t end_ps = impl_->reached_ps;
  if (impl_->window_end_ps != 0) end_ps = std::min(end_ps, impl_->window_end_ps);
  impl_->end_ps = std::max(end_ps, impl_->written_time_ps);
  impl_->format->finish(impl_->end_ps);
}

const std::string& WaveWriter::path() const { return impl_->path; }

std::vector<WaveSignalInfo> WaveWriter::signals() const {
  return std::vector<WaveSignalInfo>(impl_->signals.begin(), impl_->signals.end());
}

uint64_t WaveWriter::start_ps() const { return impl_->window_start_ps; }

uint64_t WaveWriter::end_ps() const { return impl_->end_ps; }

}  // namespace ssdvp
