#include "tlm/host/integrity_oracle.h"

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
  return entry;
}

uint32_t IntegrityOracle::begin_write(uint32_t lpn) { return submit(lpn).assigned; }

void IntegrityOracle::begin_trim(uint32_t lpn) {
  Entry& entry = submit(lpn);
  entry.last_trim = entry.assigned;
}

void IntegrityOracle::complete(uint32_t lpn) {
  const auto found = entries_.find(lpn);
  if (found == entries_.end() || found->second.assigned == found->second.committed) {
    throw std::logic_error(
        fmt::format("integrity oracle: LPN {} completed with no operation in flight", lpn));
  }
  found->second.committed = found->second.assigned;
}

bool IntegrityOracle::in_flight(uint32_t lpn) const {
  const auto found = entries_.find(lpn);
  return found != entries_.end() && found->second.assigned != found->second.committed;
}

uint32_t IntegrityOracle::read_snapshot(uint32_t lpn) const {
  const auto found = entries_.find(lpn);
  return found == entries_.end() ? 0 : found->second.committed;
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
    expected = fmt::format("a version from {} to {}{} (writes of the LPN overlapped the read)",
                           is_version(first) ? first : first + 1, last,
                           zero_acceptable ? " or 0" : "");
  }
  std::string found_text;
  if (tag.lpn == DATA_TAG_ERASED_WORD && tag.version == DATA_TAG_ERASED_WORD) {
    found_text = "the erased pattern";
  } else if (tag.lpn != lpn && !(tag.version == DATA_TAG_VERSION_NONE && tag.lpn == 0)) {
    found_text = fmt::format("the data of LPN {} version {}", tag.lpn, tag.version);
  } else {
    found_text = fmt::format("version {}", tag.version);
  }
  return fmt::format("integrity check failed: LPN {}: expected {}, found {}", lpn, expected,
                     found_text);
}

}  // namespace ssdvp::host
