// What the flash controller, its dies and its channels did over time: the statistics of
// stats.json ("nand" and "nfc") and the waveform signals of --vcd, fed from the same state
// changes. Times are picoseconds of simulated time; every change is recorded at the time it
// happens, so time-weighted figures need no sampling process.
//
// Die states: idle; wait (its operation waits for the channel bus, or for write data from
// memory); cmd (command and address cycles on the bus); transfer_in (program data on the bus);
// read, program, erase (the array is busy: tR, tPROG, tBERS); transfer_out (read data on the
// bus). Channel bus states: idle, cmd, data_in, data_out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nand_model/geometry.h"
#include "tlm/system/wave_writer.h"

namespace ssdvp {

enum class DieState : uint8_t {
  kIdle, kWait, kCommand, kTransferIn, kRead, kProgram, kErase, kTransferOut
};
enum class BusState : uint8_t { kIdle, kCommand, kDataIn, kDataOut };
enum class NfcOpKind : uint8_t { kRead, kProgram, kErase };

class NfcMonitor {
 public:
  // Declares the waveform signals under `scope` when `waves` is not null:
  // <scope>.outstanding, <scope>.ch<c>.bus, <scope>.ch<c>.w<w>d<d>.state and .queue_depth.
  NfcMonitor(const nand::Geometry& geometry, uint64_t queue_sample_ps, WaveWriter* waves,
             const std::string& scope);

  void die_state(uint32_t die, DieState state, uint64_t now_ps);
  void die_queue_depth(uint32_t die, uint32_t depth, uint64_t now_ps);
  void bus_state(uint32_t channel, BusState state, uint64_t bytes, uint64_t now_ps);
  void outstanding(uint32_t count, uint64_t now_ps);
  void descriptor_fetched() { ++descriptors_; }
  void dma_transfer(uint64_t bytes, uint64_t busy_ps);
  // A completion became visible. `page_type` matters for reads only.
  void completed(NfcOpKind kind, uint32_t planes, uint32_t page_type, uint32_t pages,
                 uint16_t status, uint64_t latency_ps);

  // Back to the state at construction: every die and channel idle since time 0, every figure
  // zero. The waveform signals (declared once) record the idle state at now_ps.
  void reset(uint64_t now_ps);

  // Figures as of end_ps (at least the last recorded change). `nand` gets the dies, channels,
  // operations and statuses; `nfc` the controller's queue, DMA and completion figures.
  void report(nlohmann::json& nand, nlohmann::json& nfc, uint64_t end_ps) const;

 private:
  struct Latency {
    uint64_t count = 0;
    uint64_t sum_ps = 0;
    uint64_t min_ps = UINT64_MAX;
    uint64_t max_ps = 0;
    void add(uint64_t ps);
    nlohmann::json to_json() const;
  };
  // A value held over time: its integral gives the time-weighted mean.
  struct Level {
    uint64_t value = 0;
    uint64_t since_ps = 0;
    uint64_t max = 0;
    long double area = 0;  // value x ps
    void set(uint64_t new_value, uint64_t now_ps);
    double mean(uint64_t end_ps) const;
  };
  struct DieRecord {
    DieState state = DieState::kIdle;
    uint64_t since_ps = 0;
    uint64_t state_ps[8] = {};
    Level depth;
    WaveWriter::SignalId state_signal = 0;
    WaveWriter::SignalId depth_signal = 0;
  };
  struct ChannelRecord {
    BusState state = BusState::kIdle;
    uint64_t since_ps = 0;
    uint64_t state_ps[4] = {};
    uint64_t bytes = 0;
    WaveWriter::SignalId signal = 0;
  };
  struct OpRecord {
    Latency latency;
    uint64_t multi_plane = 0;
    uint64_t pages = 0;
  };

  // Adds the whole intervals of the sampled series that end by now_ps, the value having been
  // `value` since cursor_ps; keeps the current interval's start and partial area.
  static void extend_samples(uint64_t value, uint64_t cursor_ps, uint64_t now_ps,
                             uint64_t interval_ps, uint64_t& start_ps, long double& area,
                             std::vector<double>& samples);

  const nand::Geometry& geometry_;
  WaveWriter* waves_;
  std::vector<DieRecord> dies_;
  std::vector<ChannelRecord> channels_;
  OpRecord ops_[3];
  Latency reads_by_page_type_[NAND_MAX_BITS_PER_CELL];
  uint64_t statuses_[5] = {};
  Level outstanding_;
  WaveWriter::SignalId outstanding_signal_ = 0;
  uint64_t descriptors_ = 0;
  uint64_t dma_transfers_ = 0;
  uint64_t dma_bytes_ = 0;
  uint64_t dma_busy_ps_ = 0;
  // Mean outstanding operations per interval of queue_sample_ps.
  uint64_t sample_ps_;
  uint64_t sample_start_ps_ = 0;
  long double sample_area_ = 0;
  std::vector<double> samples_;
};

}  // namespace ssdvp
