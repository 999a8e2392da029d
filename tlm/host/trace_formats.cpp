#include "tlm/host/trace_formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

namespace ssdvp::host {

namespace {

using Fields = std::vector<std::string_view>;

constexpr uint64_t kBlockBytes = 512;  // sectors and blocks of every format here
constexpr uint64_t kPsPerNs = 1000;
constexpr uint64_t kPsPerFiletimeTick = 100'000;  // 100 ns
constexpr uint64_t kPsPerSecond = 1'000'000'000'000;

[[noreturn]] void fail(const std::string& reason) { throw TraceLineError(reason); }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_blank(std::string_view line) { return std::all_of(line.begin(), line.end(), is_space); }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

Fields split_whitespace(std::string_view line) {
  Fields fields;
  size_t pos = 0;
  while (pos < line.size()) {
    while (pos < line.size() && is_space(line[pos])) ++pos;
    const size_t start = pos;
    while (pos < line.size() && !is_space(line[pos])) ++pos;
    if (pos > start) fields.push_back(line.substr(start, pos - start));
  }
  return fields;
}

Fields split_commas(std::string_view line) {
  Fields fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma == std::string_view::npos ? comma
                                                                             : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

void expect_fields(const Fields& fields, size_t count, bool at_least, const char* layout) {
  if (fields.size() == count || (at_least && fields.size() > count)) return;
  fail(fmt::format("expected {}{} fields ({}), got {}", at_least ? "at least " : "", count, layout,
                   fields.size()));
}

uint64_t parse_unsigned(std::string_view text, const char* field) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), is_digit)) {
    fail(fmt::format("{} '{}' is not a non-negative integer", field, text));
  }
  uint64_t value = 0;
  for (const char c : text) {
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      fail(fmt::format("{} '{}' is out of range", field, text));
    }
    value = value * 10 + digit;
  }
  return value;
}

uint32_t parse_u32(std::string_view text, const char* field, uint32_t max) {
  const uint64_t value = parse_unsigned(text, field);
  if (value > max) fail(fmt::format("{} '{}' is out of range (at most {})", field, text, max));
  return static_cast<uint32_t>(value);
}

// A non-negative decimal time in units of `ps_per_unit` picoseconds, kept exactly to the
// picosecond (digits below a picosecond are dropped).
unsigned __int128 parse_time(std::string_view text, uint64_t ps_per_unit, const char* field) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  const auto all_digits = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), is_digit);
  };
  if (whole.empty() || !all_digits(whole) || !all_digits(fraction) ||
      (dot != std::string_view::npos && fraction.empty())) {
    fail(fmt::format("{} '{}' is not a non-negative number", field, text));
  }
  // 24 digits of whole units keep the product with ps_per_unit far inside 128 bits.
  constexpr size_t kMaxWholeDigits = 24;
  const std::string_view significant = whole.substr(std::min(whole.find_first_not_of('0'),
                                                             whole.size()));
  if (significant.size() > kMaxWholeDigits) fail(fmt::format("{} '{}' is out of range", field, text));
  unsigned __int128 units = 0;
  for (const char c : significant) units = units * 10 + static_cast<unsigned>(c - '0');
  // 18 fraction digits are below a picosecond for every unit used here (at most a second).
  constexpr size_t kMaxFractionDigits = 18;
  unsigned __int128 fraction_value = 0;
  unsigned __int128 fraction_scale = 1;
  for (size_t i = 0; i < fraction.size() && i < kMaxFractionDigits; ++i) {
    fraction_value = fraction_value * 10 + static_cast<unsigned>(fraction[i] - '0');
    fraction_scale *= 10;
  }
  return units * ps_per_unit + fraction_value * ps_per_unit / fraction_scale;
}

uint64_t blocks_to_bytes(uint64_t blocks, const char* field) {
  if (blocks > std::numeric_limits<uint64_t>::max() / kBlockBytes) {
    fail(fmt::format("{} {} is out of range", field, blocks));
  }
  return blocks * kBlockBytes;
}

// "8,0" or (FIU) separate major and minor fields, as one device number.
uint32_t major_minor(std::string_view major, std::string_view minor) {
  return device_number(parse_u32(major, "major", kDeviceMaxMajor),
                       parse_u32(minor, "minor", kDeviceMaxMinor));
}

bool is_major_minor(std::string_view text) {
  const size_t comma = text.find(',');
  return comma != std::string_view::npos && comma > 0 && comma + 1 < text.size() &&
         std::all_of(text.begin(), text.begin() + comma, is_digit) &&
         std::all_of(text.begin() + comma + 1, text.end(), is_digit);
}

HostOp read_or_write(std::string_view text, std::string_view read, std::string_view write,
                     const char* field) {
  if (equals_ignoring_case(text, read)) return HostOp::kRead;
  if (equals_ignoring_case(text, write)) return HostOp::kWrite;
  fail(fmt::format("unknown op: {} '{}' is not {} or {}", field, text, read, write));
}

class DiskSimParser : public TraceLineParser {
 public:
  bool parse(std::string_view line, TraceRecord& record) override {
    if (is_blank(line)) return false;
    const Fields f = split_whitespace(line);
    expect_fields(f, 5, false, "arrival_ns device start_sector size_sectors type");
    record.time_ps = parse_time(f[0], kPsPerNs, "arrival_ns");
    record.device = parse_u32(f[1], "device", std::numeric_limits<uint32_t>::max());
    record.start_byte = blocks_to_bytes(parse_unsigned(f[2], "start_sector"), "start_sector");
    record.byte_count = blocks_to_bytes(parse_unsigned(f[3], "size_sectors"), "size_sectors");
    if (f[4] == "1") {
      record.op = HostOp::kRead;
    } else if (f[4] == "0") {
      record.op = HostOp::kWrite;
    } else {
      fail(fmt::format("unknown op: type '{}' is not 1 (read) or 0 (write)", f[4]));
    }
    return true;
  }
};

class MsrParser : public TraceLineParser {
 public:
  bool parse(std::string_view line, TraceRecord& record) override {
    if (is_blank(line)) return false;
    const Fields f = split_commas(line);
    if (equals_ignoring_case(f[0], "Timestamp")) return false;  // the header line
    expect_fields(f, 7, false, "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime");
    record.time_ps = parse_time(f[0], kPsPerFiletimeTick, "Timestamp");
    record.device = parse_u32(f[2], "DiskNumber", std::numeric_limits<uint32_t>::max());
    record.op = read_or_write(f[3], "Read", "Write", "Type");
    record.start_byte = parse_unsigned(f[4], "Offset");
    record.byte_count = parse_unsigned(f[5], "Size");
    return true;
  }
};

class SpcParser : public TraceLineParser {
 public:
  bool parse(std::string_view line, TraceRecord& record) override {
    if (is_blank(line)) return false;
    const Fields f = split_commas(line);
    expect_fields(f, 5, true, "ASU,LBA,Size,Opcode,Timestamp");
    record.device = parse_u32(f[0], "ASU", std::numeric_limits<uint32_t>::max());
    record.start_byte = blocks_to_bytes(parse_unsigned(f[1], "LBA"), "LBA");
    record.byte_count = parse_unsigned(f[2], "Size");
    record.op = read_or_write(f[3], "r", "w", "Opcode");
    record.time_ps = parse_time(f[4], kPsPerSecond, "Timestamp");
    return true;
  }
};

class BlkparseParser : public TraceLineParser {
 public:
  bool parse(std::string_view line, TraceRecord& record) override {
    const Fields f = split_whitespace(line);
    // Summary lines and anything else that is not an event of a maj,min device.
    if (f.size() < 6 || !is_major_minor(f[0])) return false;
    const std::string_view action = f[5];
    if (action != "Q" && action != "D") return false;
    if (request_action_ == '\0') request_action_ = action.front();
    if (action.front() != request_action_) return false;

    constexpr const char* kLayout = "maj,min cpu seq seconds pid action RWBS sector + count";
    if (f.size() < 7) fail(fmt::format("expected an RWBS field ({})", kLayout));
    const size_t comma = f[0].find(',');
    record.device = major_minor(f[0].substr(0, comma), f[0].substr(comma + 1));
    record.time_ps = parse_time(f[3], kPsPerSecond, "time");

    std::string_view rwbs = f[6];
    const bool pre_flush = !rwbs.empty() && rwbs.front() == 'F';
    if (pre_flush) rwbs.remove_prefix(1);
    const char data = rwbs.empty() ? '\0' : rwbs.front();
    switch (data) {
      case 'R': record.op = HostOp::kRead; break;
      case 'W': record.op = HostOp::kWrite; break;
      case 'D': record.op = HostOp::kTrim; break;
      case 'N':
        if (!pre_flush) return false;  // no data and no flush: a pass-through command
        record.op = HostOp::kFlush;
        record.start_byte = 0;
        record.byte_count = 0;
        return true;
      default:
        fail(fmt::format("unknown op: RWBS '{}' has none of R, W, D, N after an optional F",
                         f[6]));
    }
    if (f.size() < 10 || f[8] != "+") {
      fail(fmt::format("expected 'sector + count' after the RWBS field ({})", kLayout));
    }
    record.start_byte = blocks_to_bytes(parse_unsigned(f[7], "sector"), "sector");
    record.byte_count = blocks_to_bytes(parse_unsigned(f[9], "count"), "count");
    record.fua = data == 'W' && rwbs.find('F') != std::string_view::npos;  // the pre-flush F is gone
    return true;
  }

 private:
  char request_action_ = '\0';  // 'Q' or 'D' once the first of them is seen
};

class FiuParser : public TraceLineParser {
 public:
  bool parse(std::string_view line, TraceRecord& record) override {
    if (is_blank(line)) return false;
    const Fields f = split_whitespace(line);
    expect_fields(f, 9, true, "ts_ns pid process lba size_blocks R|W major minor md5");
    // The process name may hold spaces: the six fields after it are counted from the end.
    const size_t lba = f.size() - 6;
    record.time_ps = parse_time(f[0], kPsPerNs, "ts_ns");
    parse_unsigned(f[1], "pid");
    record.start_byte = blocks_to_bytes(parse_unsigned(f[lba], "lba"), "lba");
    record.byte_count = blocks_to_bytes(parse_unsigned(f[lba + 1], "size_blocks"), "size_blocks");
    record.op = read_or_write(f[lba + 2], "R", "W", "op");
    record.device = major_minor(f[lba + 3], f[lba + 4]);
    return true;
  }
};

}  // namespace

std::optional<TraceFormat> trace_format_from_name(const std::string& name) {
  const std::vector<std::string>& names = trace_format_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) return std::nullopt;
  return static_cast<TraceFormat>(found - names.begin());
}

std::unique_ptr<TraceLineParser> make_trace_line_parser(TraceFormat format) {
  switch (format) {
    case TraceFormat::kDiskSim: return std::make_unique<DiskSimParser>();
    case TraceFormat::kMsr: return std::make_unique<MsrParser>();
    case TraceFormat::kSpc: return std::make_unique<SpcParser>();
    case TraceFormat::kBlkparse: return std::make_unique<BlkparseParser>();
    case TraceFormat::kFiu: return std::make_unique<FiuParser>();
  }
  return nullptr;
}

}  // namespace ssdvp::host
