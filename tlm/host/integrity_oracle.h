// The data-integrity oracle: remembers what the host wrote to every LPN and checks each page it
// reads back (the data tag the HIC took from the controller's buffer slot).
//
// Versions. The operations on one LPN (writes and trims) take consecutive sequence numbers
// 1, 2, ...; a write's version is its number, a trim makes the LPN read as zeroes (version
// DATA_TAG_VERSION_NONE), as does an LPN never written. The host model never has two writes or
// trims of one LPN in flight (it holds the later one back, like fio's serialize_overlap), so the
// operations on an LPN form one sequence and complete in it.
//
// The rule for a read: a page may hold what the LPN held at any moment between the read's
// submission and the arrival of its data at the host, namely the content of the last operation
// completed when the read was submitted, or of any operation submitted since and before the data
// arrived. A write in flight therefore makes both the old and the new version acceptable.
// Zeroes read back as version 0 with LPN field 0 (or the LPN itself); anything else must carry
// the LPN read and an acceptable version.
//
// Memory: one entry per LPN ever written or trimmed; nothing for LPNs never touched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "interface/data_tag.h"

namespace ssdvp::host {

class IntegrityOracle {
 public:
  // A write of `lpn` was submitted: returns the version its data carries.
  uint32_t begin_write(uint32_t lpn);
  // A trim of `lpn` was submitted.
  void begin_trim(uint32_t lpn);
  // The write or trim of `lpn` in flight completed (its completion reached the host). Throws
  // std::logic_error when none is in flight.
  void complete(uint32_t lpn);
  // True while a write or trim of `lpn` is in flight.
  bool in_flight(uint32_t lpn) const;

  // At a read's submission: what the check of its data needs to know about `lpn`.
  uint32_t read_snapshot(uint32_t lpn) const;
  // The data of `lpn` arrived with `tag`; `snapshot` is read_snapshot(lpn) at the read's
  // submission. Returns nothing when the tag is acceptable, else the reason naming the LPN, the
  // expected and the found versions.
  std::optional<std::string> check(uint32_t lpn, uint32_t snapshot, const data_tag_t& tag);

  uint64_t pages_checked() const { return pages_checked_; }
  uint64_t lpns_tracked() const { return entries_.size(); }

 private:
  struct Entry {
    uint32_t assigned = 0;   // number of the last operation submitted
    uint32_t committed = 0;  // number of the last operation completed
    uint32_t last_trim = 0;  // number of the last trim submitted (0: none)
  };

  Entry& submit(uint32_t lpn);

  std::unordered_map<uint32_t, Entry> entries_;
  uint64_t pages_checked_ = 0;
};

}  // namespace ssdvp::host
