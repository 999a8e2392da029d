// fw_snprintf (firmware/lib/format.c) against the host's snprintf, which is the reference for
// every conversion the firmware supports.
#include <gtest/gtest.h>

#include <cinttypes>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "firmware/lib/format.h"

namespace {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"

// Formats with both implementations into roomy buffers and compares text and return value.
template <typename... Args>
void ExpectSameAsHost(const char* format, Args... args) {
  char expected[512];
  char actual[512];
  std::memset(actual, 'X', sizeof actual);
  int expected_length = std::snprintf(expected, sizeof expected, format, args...);
  int actual_length = fw_snprintf(actual, sizeof actual, format, args...);
  EXPECT_EQ(actual_length, expected_length) << "format \"" << format << "\"";
  EXPECT_STREQ(actual, expected) << "format \"" << format << "\"";
}

std::string FwFormat(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  fw_vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

#pragma GCC diagnostic pop

TEST(FwSnprintf, PlainTextAndPercent) {
  ExpectSameAsHost("");
  ExpectSameAsHost("hello, world");
  ExpectSameAsHost("100%% sure");
  ExpectSameAsHost("%%%%");
}

TEST(FwSnprintf, SignedIntegers) {
  for (int value : {0, 1, -1, 42, -42, 1000000, INT_MAX, INT_MIN}) {
    ExpectSameAsHost("%d", value);
    ExpectSameAsHost("%i", value);
  }
}

TEST(FwSnprintf, UnsignedIntegers) {
  for (unsigned value : {0u, 1u, 7u, 8u, 255u, 0xdeadbeefu, UINT_MAX}) {
    ExpectSameAsHost("%u", value);
    ExpectSameAsHost("%x", value);
    ExpectSameAsHost("%X", value);
    ExpectSameAsHost("%o", value);
  }
}

// Every combination of flags, width and precision on every integer conversion.
TEST(FwSnprintf, FlagWidthPrecisionCombinations) {
  const std::vector<std::string> flag_sets = {"",   "-",  "0",  "+",   " ",  "#",
                                              "-+", "0#", "+ ", "-#0", "0+", "- "};
  const std::vector<std::string> widths = {"", "1", "6", "12"};
  const std::vector<std::string> precisions = {"", ".", ".0", ".1", ".5", ".11"};
  const std::vector<int> values = {0, 1, -1, 42, -42, INT_MAX, INT_MIN, 0x1234abcd};
  for (const std::string& flags : flag_sets) {
    for (const std::string& width : widths) {
      for (const std::string& precision : precisions) {
        for (char conversion : std::string("diuxXo")) {
          std::string format = "[%" + flags + width + precision + conversion + "]";
          for (int value : values) {
            ExpectSameAsHost(format.c_str(), value);
          }
        }
      }
    }
  }
}

TEST(FwSnprintf, ZeroWithZeroPrecisionPrintsNoDigits) {
  ExpectSameAsHost("[%.0d]", 0);
  ExpectSameAsHost("[%5.0d]", 0);
  ExpectSameAsHost("[%.0x]", 0u);
  ExpectSameAsHost("[%#.0x]", 0u);
  ExpectSameAsHost("[%#.0o]", 0u);
  ExpectSameAsHost("[%+.0d]", 0);
  EXPECT_EQ(FwFormat("[%.0d]", 0), "[]");
  EXPECT_EQ(FwFormat("[%#.0o]", 0u), "[0]");
}

TEST(FwSnprintf, LengthModifiers) {
  ExpectSameAsHost("%ld %ld %lu", LONG_MIN, LONG_MAX, ULONG_MAX);
  ExpectSameAsHost("%lld %lld %llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
  ExpectSameAsHost("%llx %llX %llo", 0x0123456789abcdefULL, ULLONG_MAX, ULLONG_MAX);
  ExpectSameAsHost("%+20lld|%-20lld|", LLONG_MIN, -1LL);
  ExpectSameAsHost("%zu %zx %zd", SIZE_MAX, static_cast<size_t>(0xabcdef),
                   static_cast<ptrdiff_t>(-5));
  ExpectSameAsHost("%jd %ju", INTMAX_MIN, UINTMAX_MAX);
  ExpectSameAsHost("%td", static_cast<ptrdiff_t>(-123456789));
  // h and hh convert the promoted argument back to the narrow type.
  ExpectSameAsHost("%hd %hd %hu %hx", 98304, -1, 70000, 0x12345);
  ExpectSameAsHost("%hhd %hhu %hhx %hhd", 200, 300, 0x1ff, -129);
}

TEST(FwSnprintf, Characters) {
  ExpectSameAsHost("%c", 'A');
  ExpectSameAsHost("[%3c][%-3c]", 'x', 'y');
  ExpectSameAsHost("%c%c%c", 'a', 'b', 'c');
}

TEST(FwSnprintf, Strings) {
  ExpectSameAsHost("%s", "hello");
  ExpectSameAsHost("[%10s][%-10s]", "right", "left");
  ExpectSameAsHost("[%.2s][%10.3s][%-6.1s]", "abcdef", "abcdef", "abcdef");
  ExpectSameAsHost("[%s][%.0s][%5s]", "", "gone", "");
  ExpectSameAsHost("[%3s]", "longer than width");
}

TEST(FwSnprintf, StarWidthAndPrecision) {
  ExpectSameAsHost("[%*d]", 6, 42);
  ExpectSameAsHost("[%-*d]", 6, 42);
  ExpectSameAsHost("[%*d]", -6, 42);  // a negative width means left-justified
  ExpectSameAsHost("[%.*d]", 4, 7);
  ExpectSameAsHost("[%.*s]", -1, "abc");  // a negative precision means none
  ExpectSameAsHost("[%*.*s]", 8, 2, "abcdef");
}

TEST(FwSnprintf, Pointers) {
  int object = 0;
  ExpectSameAsHost("%p", static_cast<void*>(&object));
  ExpectSameAsHost("[%20p]", static_cast<void*>(&object));
  // The one documented difference: glibc prints "(nil)".
  EXPECT_EQ(FwFormat("%p", static_cast<void*>(nullptr)), "0x0");
  EXPECT_EQ(FwFormat("%p", reinterpret_cast<void*>(0x1000abcdu)), "0x1000abcd");
}

TEST(FwSnprintf, MixedConversions) {
  ExpectSameAsHost("hart %u online: %s @ %d MHz, %#010x, %c%%", 3u, "ok", 800, 0xbeefu, '!');
  ExpectSameAsHost("%d%d%d%s%x", 1, -2, 3, "-", 0xffu);
}

TEST(FwSnprintf, UnknownConversionIsCopiedAsWritten) {
  const char* unknown = "a%qb";
  EXPECT_EQ(FwFormat(unknown), "a%qb");
  const char* unknown_with_spec = "[%-08.3k]";
  EXPECT_EQ(FwFormat(unknown_with_spec), "[%-08.3k]");
  const char* trailing = "abc%";
  EXPECT_EQ(FwFormat(trailing), "abc%");
  const char* trailing_spec = "abc%-5l";
  EXPECT_EQ(FwFormat(trailing_spec), "abc%-5l");
}

TEST(FwSnprintf, TruncationReturnsFullLength) {
  char buffer[16];
  std::memset(buffer, 'X', sizeof buffer);
  EXPECT_EQ(fw_snprintf(buffer, 5, "%d", 123456), 6);
  EXPECT_STREQ(buffer, "1234");
  EXPECT_EQ(buffer[5], 'X') << "wrote past the given size";

  std::memset(buffer, 'X', sizeof buffer);
  EXPECT_EQ(fw_snprintf(buffer, 1, "abc"), 3);
  EXPECT_EQ(buffer[0], '\0');
  EXPECT_EQ(buffer[1], 'X');

  EXPECT_EQ(fw_snprintf(nullptr, 0, "%s=%d", "key", -17), 7);

  std::memset(buffer, 'X', sizeof buffer);
  EXPECT_EQ(fw_snprintf(buffer, 6, "%s", "exact"), 5);
  EXPECT_STREQ(buffer, "exact");
}

TEST(FwSnprintf, WidthLargerThanBuffer) {
  char actual[8];
  char expected[8];
  int actual_length = fw_snprintf(actual, sizeof actual, "%20d", 5);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"  // the truncation is what is tested
  int expected_length = std::snprintf(expected, sizeof expected, "%20d", 5);
#pragma GCC diagnostic pop
  EXPECT_EQ(actual_length, 20);
  EXPECT_EQ(actual_length, expected_length);
  EXPECT_STREQ(actual, "       ");
  EXPECT_STREQ(actual, expected);
}

// fw_format delivers every character, in order, to the sink and counts them.
TEST(FwFormat, SinkReceivesEveryCharacter) {
  std::string received;
  auto sink = [](void* context, char c) { static_cast<std::string*>(context)->push_back(c); };
  int count = fw_format(sink, &received, "%s-%04d-%x", "id", 42, 0xabcu);
  EXPECT_EQ(received, "id-0042-abc");
  EXPECT_EQ(count, 11);
}

}  // namespace
