#include "tlm/host/integrity_oracle.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace ssdvp::host {

IntegrityOracle::Entry& IntegrityOracle::submit(uint32_t lpn) {
  Entry& entry = entries_[lpn];
  if (entry.assigned != entry.committed) {
    throw std::logic_error(fmt::format(
        "integrity oracle: LPN {} has an operation in flight; the host model must hold the next "
        "one back",
        lpn));
  }
  entry.assigned += 1;
  entry.recovering = false;
  return entry;
}

void IntegrityOracle::guarantee(Entry& entry, uint32_t operation) {
  if (operation > entry.guaranteed) entry.guaranteed = operation;
}

uint32_t IntegrityOracle::begin_write(uint32_t lpn) { return submit(lpn).assigned; }

void IntegrityOracle::begin_trim(uint32_t lpn) {
  Entry& entry = submit(lpn);
  entry.last_trim = entry.assigned;
}

void IntegrityOracle::complete(uint32_t lpn, bool fua) {
  const auto found = entries_.find(lpn);
  if (found == entries_.end() || found->second.assigned == found->second.committed) {
    throw std::logic_error(
        fmt::format("integrity oracle: LPN {} completed with no operation in flight", lpn));
  }
  Entry& entry = found->second;
  entry.committed = entry.assigned;
  if (power_loss_protection_ || fua) {
    guarantee(entry, entry.committed);
  } else if (!entry.awaits_flush) {
    entry.awaits_flush = true;
    awaiting_flush_.push_back(lpn);
  }
}

uint64_t IntegrityOracle::begin_flush() {
  Flush flush{next_flush_id_++, {}};
  flush.covered.reserve(awaiting_flush_.size());
  for (const uint32_t lpn : awaiting_flush_) {
    Entry& entry = entries_.at(lpn);
    entry.awaits_flush = false;
    flush.covered.push_back({lpn, entry.committed});
  }
  awaiting_flush_.clear();
  flushes_.push_back(std::move(flush));
  return flushes_.back().id;
}

void IntegrityOracle::complete_flush(uint64_t id) {
  const auto found = std::find_if(flushes_.begin(), flushes_.end(),
                                  [id](const Flush& flush) { return flush.id == id; });
  if (found == flushes_.end()) {
    throw std::logic_error(
        fmt::format("integrity oracle: flush {} completed but is not in flight", id));
  }
  // A flush covers what was completed before its submission, so also what every flush
  // submitted before it covers.
  for (auto flush = flushes_.begin(); flush != std::next(found); ++flush) {
    for (const Covered& covered : flush->covered) {
      guarantee(entries_.at(covered.lpn), covered.operation);
    }
  }
  flushes_.erase(flushes_.begin(), std::next(found));
}

void IntegrityOracle::power_lost() {
  ++power_losses_;
  awaiting_flush_.clear();
  flushes_.clear();
  for (auto& [lpn, entry] : entries_) {
    entry.committed = entry.assigned;
    entry.awaits_flush = false;
    entry.recovering = true;
  }
}

std::vector<uint32_t> IntegrityOracle::guaranteed_lpns() const {
  std::vector<uint32_t> lpns;
  for (const auto& [lpn, entry] : entries_) {
    if (entry.guaranteed != 0) lpns.push_back(lpn);
  }
  std::sort(lpns.begin(), lpns.end());
  return lpns;
}

uint32_t IntegrityOracle::guaranteed(uint32_t lpn) const {
  const auto found = entries_.find(lpn);
  return found == entries_.end() ? 0 : found->second.guaranteed;
}

bool IntegrityOracle::in_flight(uint32_t lpn) const {
  const auto found = entries_.find(lpn);
  return found != entries_.end() && found->second.assigned != found->second.committed;
}

uint32_t IntegrityOracle::read_snapshot(uint32_t lpn) const {
  const auto found = entries_.find(lpn);
  if (found == entries_.end()) return 0;
  return found->second.recovering ? found->second.guaranteed : found->second.committed;
}

std::optional<std::string> IntegrityOracle::check(uint32_t lpn, uint32_t snapshot,
                                                  const data_tag_t& tag) {
  ++pages_checked_;
  const auto found = entries_.find(lpn);
  const Entry entry = found == entries_.end() ? Entry{} : found->second;
  // Operations snapshot..assigned may all show; trims among them show as zeroes.
  const uint32_t first = snapshot;
  const uint32_t last = entry.assigned;
  const bool zero_acceptable = first == 0 || (entry.last_trim != 0 && entry.last_trim >= first);
  const auto is_version = [&](uint32_t number) { return number != 0 && number != entry.last_trim; };

  if (tag.version == DATA_TAG_VERSION_NONE) {
    if (zero_acceptable && (tag.lpn == 0 || tag.lpn == lpn)) return std::nullopt;
  } else if (tag.lpn == lpn && tag.version >= first && tag.version <= last &&
             is_version(tag.version)) {
    return std::nullopt;
  }

  std::string expected;
  if (first == last) {
    expected = is_version(first)
                   ? fmt::format("version {}", first)
                   : fmt::format("version 0 ({})", first == 0 ? "never written" : "trimmed");
  } else {
    expected = fmt::format("a version from {} to {}{} ({})", is_version(first) ? first : first + 1,
                           last, zero_acceptable ? " or 0" : "",
                           entry.recovering ? "writes submitted before the power loss may have "
                                              "reached the media"
                                            : "writes of the LPN overlapped the read");
  }
  std::string found_text;
  if (tag.lpn == DATA_TAG_ERASED_WORD && tag.version == DATA_TAG_ERASED_WORD) {
    found_text = "the erased pattern";
  } else if (tag.lpn != lpn && !(tag.version == DATA_TAG_VERSION_NONE && tag.lpn == 0)) {
    found_text = fmt::format("the data of LPN {} version {}", tag.lpn, tag.version);
  } else {
    found_text = fmt::format("version {}", tag.version);
  }
  if (entry.recovering) {
    expected += entry.guaranteed == 0
                    ? std::string(" after a power loss, nothing of it guaranteed")
                    : fmt::format(" after a power loss, operation {} guaranteed", entry.guaranteed);
  }
  return fmt::format("integrity check failed: LPN {}: expected {}, found {}", lpn, expected,
                     found_text);
}

}  // namespace ssdvp::host
