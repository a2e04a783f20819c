// MicroSnprintf: every conversion the library and the test framework use,
// with flags, width, precision and truncation.
#include "micro_runtime/micro_log.h"

#include <stdarg.h>
#include <stdint.h>

#include "micro_runtime/micro_test.h"

namespace {

char g_buffer[64];

// Same as MicroSnprintf but without the printf format attribute, so the
// tests can pass what the compiler would reject (null %s, stray '%').
int Format(char* buffer, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = MicroVsnprintf(buffer, size, format, args);
  va_end(args);
  return n;
}

bool Same(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// Formats into g_buffer and compares with `expected`; on a mismatch the
// failure line shows both strings.
#define EXPECT_FORMAT(expected, ...)                                                   \
  do {                                                                                 \
    Format(g_buffer, sizeof(g_buffer), __VA_ARGS__);                                   \
    if (!Same(expected, g_buffer)) {                                                   \
      MicroPrintf("format mismatch: expected '%s', got '%s'", expected, g_buffer);     \
      TF_LITE_MICRO_FAIL("MicroSnprintf output");                                      \
    }                                                                                  \
  } while (false)

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Integers) {
  EXPECT_FORMAT("0", "%d", 0);
  EXPECT_FORMAT("-42", "%d", -42);
  EXPECT_FORMAT("17", "%i", 17);
  EXPECT_FORMAT("2147483647", "%d", static_cast<int>(INT32_MAX));
  EXPECT_FORMAT("-2147483648", "%d", static_cast<int>(INT32_MIN));
  EXPECT_FORMAT("4000000000", "%u", 4000000000u);
  EXPECT_FORMAT("beef", "%x", 0xbeefu);
  EXPECT_FORMAT("BEEF", "%X", 0xbeefu);
  EXPECT_FORMAT("ffffffff", "%x", 0xffffffffu);
  EXPECT_FORMAT("12 34", "%d %d", 12, 34);
}

TF_LITE_MICRO_TEST(WidthFlagsAndPrecision) {
  EXPECT_FORMAT("   42", "%5d", 42);
  EXPECT_FORMAT("42   |", "%-5d|", 42);
  EXPECT_FORMAT("00042", "%05d", 42);
  EXPECT_FORMAT("-0042", "%05d", -42);
  EXPECT_FORMAT("00001234", "%08x", 0x1234u);
  EXPECT_FORMAT("007", "%.3d", 7);
  EXPECT_FORMAT("123456", "%3d", 123456);  // width never truncates
}

TF_LITE_MICRO_TEST(StringsAndChars) {
  EXPECT_FORMAT("abc", "%s", "abc");
  EXPECT_FORMAT("ab", "%.2s", "abcdef");
  EXPECT_FORMAT("  ab", "%4s", "ab");
  EXPECT_FORMAT("ab  |", "%-4s|", "ab");
  EXPECT_FORMAT("(null)", "%s", static_cast<const char*>(nullptr));
  EXPECT_FORMAT("Z", "%c", 'Z');
  EXPECT_FORMAT("100%", "%d%%", 100);
  EXPECT_FORMAT("", "%s", "");
}

TF_LITE_MICRO_TEST(Floats) {
  EXPECT_FORMAT("0.500000", "%f", 0.5);
  EXPECT_FORMAT("-2.250000", "%f", -2.25);
  EXPECT_FORMAT("3.14", "%.2f", 3.14159);
  EXPECT_FORMAT("3", "%.0f", 2.5);
  EXPECT_FORMAT("10.0", "%.1f", 9.96);  // rounding carries into the integer part
  EXPECT_FORMAT("0.000", "%.3f", 0.0001);
  EXPECT_FORMAT("  1.5", "%5.1f", 1.5);
  EXPECT_FORMAT("nan", "%f", __builtin_nan(""));
  EXPECT_FORMAT("-0.125", "%.3f", -0.125);
}

TF_LITE_MICRO_TEST(Pointers) {
  EXPECT_FORMAT("0x00000000", "%p", static_cast<void*>(nullptr));
  EXPECT_FORMAT("0x00001000", "%p", reinterpret_cast<void*>(static_cast<uintptr_t>(0x1000)));
}

TF_LITE_MICRO_TEST(TruncationKeepsTheTerminator) {
  char small[4] = {'x', 'x', 'x', 'x'};
  TF_LITE_MICRO_EXPECT_EQ(3, MicroSnprintf(small, sizeof(small), "abcdef"));
  TF_LITE_MICRO_EXPECT_EQ('c', small[2]);
  TF_LITE_MICRO_EXPECT_EQ('\0', small[3]);
  TF_LITE_MICRO_EXPECT_EQ(2, MicroSnprintf(small, sizeof(small), "%d", 42));
  TF_LITE_MICRO_EXPECT_EQ('\0', small[2]);
  char untouched = 'u';
  TF_LITE_MICRO_EXPECT_EQ(0, MicroSnprintf(&untouched, 0, "abc"));
  TF_LITE_MICRO_EXPECT_EQ('u', untouched);
  char one = 'o';
  TF_LITE_MICRO_EXPECT_EQ(0, MicroSnprintf(&one, 1, "abc"));
  TF_LITE_MICRO_EXPECT_EQ('\0', one);
}

TF_LITE_MICRO_TEST(UnknownConversionsArePrintedLiterally) {
  EXPECT_FORMAT("%q", "%q");
  EXPECT_FORMAT("end", "end%");
}

TF_LITE_MICRO_TESTS_END
