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
// Durability (NVMe's, issue 25). An operation is guaranteed, i.e. must survive a power loss:
// - with power-loss protection, as soon as it completed;
// - without, once a flush completed that was submitted after the operation completed (a flush
//   covers the commands completed before its submission; a flush submitted earlier does not
//   cover it, even if it completes later), or, for a FUA write, as soon as it completed.
// The guaranteed operation of an LPN is the newest guaranteed one; it never goes back.
//
// Power loss (power_lost()): every write or trim in flight ends without completion (it may or
// may not have reached the media) and flushes in flight cover nothing. From then on, until the
// LPN's next write or trim is submitted, a read of it is checked by the recovery rule: with g
// the LPN's guaranteed operation (0: none) and a its last operation submitted (completed or
// not), the page may hold the content of g or of any operation after it up to a:
// - a version v with g <= v <= a (a write submitted after g that never completed included);
// - zeroes when g = 0 (nothing guaranteed: the LPN may read as never written), or when g is a
//   trim, or when a trim was submitted after g (it may have reached the media);
// - never an older version than g, nor one above a (the LPN never held it).
// This is the read rule with g in place of the last completed operation: a read's snapshot is
// g while the LPN recovers. Several cuts work alike: the guaranteed operations carry over, and
// an LPN not written since the previous cut keeps its range. Only the last trim is remembered,
// so a read returning the number of an older trim as a version is not caught (no write carries
// such a version).
//
// Memory: one entry per LPN ever written or trimmed; nothing for LPNs never touched. Without
// protection, the LPNs whose last completion awaits a flush are listed too (once each), and
// each flush in flight holds the list it covers.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interface/data_tag.h"

namespace ssdvp::host {

class IntegrityOracle {
 public:
  // `power_loss_protection`: every completed operation is guaranteed at once (ftl.plp > 0).
  explicit IntegrityOracle(bool power_loss_protection = false)
      : power_loss_protection_(power_loss_protection) {}

  // A write of `lpn` was submitted: returns the version its data carries.
  uint32_t begin_write(uint32_t lpn);
  // A trim of `lpn` was submitted.
  void begin_trim(uint32_t lpn);
  // The write or trim of `lpn` in flight completed (its completion reached the host); `fua`: a
  // write with force unit access, guaranteed now. Throws std::logic_error when none is in
  // flight.
  void complete(uint32_t lpn, bool fua = false);
  // True while a write or trim of `lpn` is in flight.
  bool in_flight(uint32_t lpn) const;

  // A flush was submitted: it covers every operation completed until now. Returns its id.
  uint64_t begin_flush();
  // Flush `id` completed: what it covers (and what every flush submitted before it covers) is
  // guaranteed. Throws std::logic_error for an id not in flight.
  void complete_flush(uint64_t id);

  // The power was cut: see the header comment.
  void power_lost();

  // At a read's submission: what the check of its data needs to know about `lpn`.
  uint32_t read_snapshot(uint32_t lpn) const;
  // The data of `lpn` arrived with `tag`; `snapshot` is read_snapshot(lpn) at the read's
  // submission. Returns nothing when the tag is acceptable, else the reason naming the LPN, the
  // expected and the found versions.
  std::optional<std::string> check(uint32_t lpn, uint32_t snapshot, const data_tag_t& tag);

  // The LPNs with a guaranteed operation (a write or a trim), in increasing order: what a
  // verification after a power loss reads back.
  std::vector<uint32_t> guaranteed_lpns() const;
  // The guaranteed operation of `lpn` (0: none).
  uint32_t guaranteed(uint32_t lpn) const;

  uint64_t pages_checked() const { return pages_checked_; }
  uint64_t lpns_tracked() const { return entries_.size(); }
  uint64_t power_losses() const { return power_losses_; }

 private:
  struct Entry {
    uint32_t assigned = 0;    // number of the last operation submitted
    uint32_t committed = 0;   // number of the last operation completed (or ended by a cut)
    uint32_t last_trim = 0;   // number of the last trim submitted (0: none)
    uint32_t guaranteed = 0;  // number of the newest guaranteed operation (0: none)
    bool awaits_flush = false;  // listed in awaiting_flush_
    bool recovering = false;    // cut since its last submission: reads follow the recovery rule
  };
  // An LPN and the operation a flush will guarantee.
  struct Covered {
    uint32_t lpn;
    uint32_t operation;
  };
  struct Flush {
    uint64_t id;
    std::vector<Covered> covered;
  };

  Entry& submit(uint32_t lpn);
  void guarantee(Entry& entry, uint32_t operation);

  bool power_loss_protection_;
  std::unordered_map<uint32_t, Entry> entries_;
  // LPNs whose last completed operation is not guaranteed and no flush in flight covers.
  std::vector<uint32_t> awaiting_flush_;
  std::deque<Flush> flushes_;  // in flight, in submission order
  uint64_t next_flush_id_ = 0;
  uint64_t pages_checked_ = 0;
  uint64_t power_losses_ = 0;
};

}  // namespace ssdvp::host
