#include "tlm/system/fst_format.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "fstapi.h"

namespace ssdvp {

namespace {

// Timestamps are picoseconds, as in the VCD.
constexpr int kTimescalePs = -12;

class FstFormat : public WaveFormat {
 public:
  explicit FstFormat(const std::string& path) {
    // Opening first tells a bad path apart: fstapi reports no reason.
    if (FILE* probe = std::fopen(path.c_str(), "wb")) {
      std::fclose(probe);
    } else {
      throw std::runtime_error(
          fmt::format("{}: cannot open for writing: {}", path, std::strerror(errno)));
    }
    context_ = fstWriterCreate(path.c_str(), 1);
    if (context_ == nullptr) {
      throw std::runtime_error(fmt::format("{}: cannot create the FST file", path));
    }
    fstWriterSetTimescale(context_, kTimescalePs);
    fstWriterSetVersion(context_, "ssdvp WaveWriter");
  }

  ~FstFormat() override {
    if (context_ != nullptr) fstWriterClose(context_);
  }

  void begin(const std::vector<WaveSignalInfo>& signals, uint64_t start_ps) override {
    signals_ = signals;
    handles_.resize(signals.size());
    visit_wave_scopes(
        signals,
        {[&](const std::string& name) {
           fstWriterSetScope(context_, FST_ST_VCD_MODULE, name.c_str(), nullptr);
         },
         [&](uint32_t id) {
           const WaveSignalInfo& signal = signals[id];
           handles_[id] = fstWriterCreateVar(
               context_, signal.is_state ? FST_VT_GEN_STRING : FST_VT_VCD_WIRE, FST_VD_IMPLICIT,
               signal.is_state ? 0 : signal.width, signal.name.c_str(), 0);
         },
         [&] { fstWriterSetUpscope(context_); }});
    time(start_ps);
  }
  void end_initial_values() override {}
  void time(uint64_t time_ps) override {
    fstWriterEmitTimeChange(context_, time_ps);
    last_time_ps_ = time_ps;
  }
  void value(uint32_t signal, uint64_t value) override {
    fstWriterEmitValueChange64(context_, handles_[signal], signals_[signal].width, value);
  }
  void state(uint32_t signal, const std::string& text) override {
    fstWriterEmitVariableLengthValueChange(context_, handles_[signal], text.data(),
                                           static_cast<uint32_t>(text.size()));
  }
  // fstapi writes a block of changes when its buffer fills: flushing more often only costs
  // compression.
  void flush() override {}
  void finish(uint64_t end_ps) override {
    if (end_ps > last_time_ps_) time(end_ps);
    fstWriterClose(context_);
    context_ = nullptr;
  }

 private:
  void* context_ = nullptr;
  std::vector<WaveSignalInfo> signals_;
  std::vector<fstHandle> handles_;
  uint64_t last_time_ps_ = 0;
};

}  // namespace

bool is_fst_path(const std::string& path) {
  constexpr const char kExtension[] = ".fst";
  const size_t length = sizeof(kExtension) - 1;
  return path.size() > length && path.compare(path.size() - length, length, kExtension) == 0;
}

std::unique_ptr<WaveFormat> make_fst_format(const std::string& path) {
  return std::make_unique<FstFormat>(path);
}

}  // namespace ssdvp
