// A tiny unit-test framework for code that runs on microcontrollers: no
// heap, no stdio, no exceptions. Everything goes through MicroPrintf, and the
// output is the record protocol the harness reads (docs/log_protocol.md,
// harness/formats/micro_test.py). Every framework record is one line
//
//   ~~~MT <seq> <mac> <text>
//
// where <seq> counts the binary's records from 0, <mac> is 8 hex digits of
// RecordMac(run token, seq, text) and <text> is one of
//
//   START micro_test 2
//   BEGIN <name>
//   FAIL <expression> failed at <file>:<line> (<a> vs <b>)
//   END <name> PASSED|FAILED
//   SUMMARY <passed>/<total> tests passed
//   DONE PASSED|FAILED
//
// The run token is a fresh random key the harness hands to each run before
// the first record (MicroRunToken: the environment on the host, a RAM block
// written by the emulator or debugger on boards). A line a test prints, even a
// copy of a record, cannot carry a valid <mac> for this run, so it stays
// application output; a missing or repeated <seq> shows lost or replayed
// records. Without a token (a transport that cannot deliver one) the key is 0
// and the harness reports the records as unauthenticated.
//
// The binary also declares itself: the ELF section ".micro_test.framework"
// holds "micro_test 2" (the START record prints the same string), and
// every TF_LITE_MICRO_TEST puts its name into the ELF section
// ".micro_test.cases" (the very string the records print, so no extra flash),
// which the harness reads as the compiled case list: a case the preprocessor
// removed is no case.
//
// Usage:
//   TF_LITE_MICRO_TESTS_BEGIN
//   TF_LITE_MICRO_TEST(MyCase) { TF_LITE_MICRO_EXPECT_EQ(1, f()); }
//   TF_LITE_MICRO_TESTS_END
//
// TESTS_BEGIN opens main(); each TF_LITE_MICRO_TEST is a block inside it (so
// tests run in source order and a test binary with no test reports 0/0,
// which the harness treats as a failure). TESTS_END prints the summary and
// calls MicroExit(status).
#ifndef MICRO_RUNTIME_MICRO_TEST_H_
#define MICRO_RUNTIME_MICRO_TEST_H_

#include <stdarg.h>
#include <stdint.h>

#include "micro_runtime/micro_log.h"
#include "micro_runtime/platform.h"

// Markers around each case's body for the harness's instruction counter
// (harness/runners/insn_count.py): under QEMU a TCG plugin counts the
// instructions executed from the start marker to the stop marker. On a board
// they are a call and a return each. Defined by TF_LITE_MICRO_TESTS_BEGIN;
// never inlined, merged or removed (noipa: no inlining, no identical-code
// folding of the two, no "pure" call elimination), so the plugin finds both.
#if defined(__GNUC__) && !defined(__clang__)
#define MICRO_TEST_MARKER_ __attribute__((noipa, used))
#else
#define MICRO_TEST_MARKER_ __attribute__((noinline, used))
#endif
extern "C" void micro_test_case_start(void);
extern "C" void micro_test_case_stop(void);

namespace micro_test {

// State of the running test binary; defined by TF_LITE_MICRO_TESTS_BEGIN.
struct State {
  int tests_passed;
  int tests_failed;
  bool current_failed;
  uint32_t sequence;  // the next record's <seq>
  uint32_t key[2];    // the run token (0, 0 without one)
  bool keyed;         // key[] was taken from the platform (at the first record)
};
extern State state;

// The record authenticator (harness/formats/micro_test.py: record_mac): the
// sequence number and the text mixed under the two key words. A 32-bit value
// no printed line can predict without the run's key.
inline uint32_t MixBits(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

inline uint32_t RecordMac(const uint32_t key[2], uint32_t sequence, const char* text) {
  uint32_t h = MixBits(key[0] ^ (sequence * 0x9E3779B1u));
  for (; *text != '\0'; ++text) {
    h = (h ^ static_cast<uint8_t>(*text)) * 0x01000193u;
  }
  return MixBits(h ^ key[1]);
}

// Longest record text; longer texts (a long expression) are cut, and the
// authenticator covers exactly what is printed.
constexpr int kRecordText = 160;
// Room for "~~~MT <seq> <mac> " in front of the text: 6 + 10 + 1 + 8 + 1.
constexpr int kRecordHead = 26;

// Prints one record "~~~MT <seq> <mac> <text>": the text is formatted once,
// into the line buffer after room for the head, which is then written in
// front of it backwards; one DebugLog call, so nothing can come in between.
inline void Record(const char* format, ...) __attribute__((format(printf, 1, 2)));
inline void Record(const char* format, ...) {
  if (!state.keyed) {
    // The first record takes the run token, even one printed before main (a check in a static
    // constructor): it is signed like every other and the harness sees it came before START.
    state.keyed = true;
    if (MicroRunToken(state.key) == 0) {
      state.key[0] = 0;
      state.key[1] = 0;
    }
  }
  char line[kRecordHead + kRecordText + 1];
  char* const text = line + kRecordHead;
  va_list args;
  va_start(args, format);
  const int length = MicroVsnprintf(text, kRecordText, format, args);
  va_end(args);
  const uint32_t sequence = state.sequence++;
  uint32_t mac = RecordMac(state.key, sequence, text);
  text[length] = '\n';
  text[length + 1] = '\0';
  char* head = text;
  *--head = ' ';
  for (int digit = 0; digit < 8; ++digit, mac >>= 4) *--head = "0123456789abcdef"[mac & 15u];
  *--head = ' ';
  uint32_t rest = sequence;
  do {
    *--head = static_cast<char>('0' + rest % 10u);
    rest /= 10u;
  } while (rest != 0);
  for (const char* prefix = " TM~~~"; *prefix != '\0'; ++prefix) *--head = *prefix;
  DebugLog(head);
}

// The first record of main: names the framework, so the harness knows the
// binary's records from the start.
inline void Start(const char* framework) { Record("START %s", framework); }

// Value printers used in failure messages, one per family of types so that
// `(a vs b)` shows real values without pulling in a general formatter.
inline void FormatValue(char* out, int size, long long v) {
  MicroSnprintf(out, static_cast<size_t>(size), "%d", static_cast<int>(v));
}
inline void FormatValue(char* out, int size, unsigned long long v) {
  MicroSnprintf(out, static_cast<size_t>(size), "%u", static_cast<unsigned>(v));
}
inline void FormatValue(char* out, int size, double v) {
  MicroSnprintf(out, static_cast<size_t>(size), "%f", v);
}
inline void FormatValue(char* out, int size, const void* v) {
  MicroSnprintf(out, static_cast<size_t>(size), "%p", v);
}
inline void FormatValue(char* out, int size, bool v) {
  MicroSnprintf(out, static_cast<size_t>(size), "%s", v ? "true" : "false");
}

template <typename T>
struct ValueKind {
  static void Format(char* out, int size, T v) {
    if (static_cast<T>(-1) < static_cast<T>(0)) {
      FormatValue(out, size, static_cast<long long>(v));
    } else {
      FormatValue(out, size, static_cast<unsigned long long>(v));
    }
  }
};
template <>
struct ValueKind<float> {
  static void Format(char* out, int size, float v) { FormatValue(out, size, static_cast<double>(v)); }
};
template <>
struct ValueKind<double> {
  static void Format(char* out, int size, double v) { FormatValue(out, size, v); }
};
template <>
struct ValueKind<bool> {
  static void Format(char* out, int size, bool v) { FormatValue(out, size, v); }
};
template <typename T>
struct ValueKind<T*> {
  static void Format(char* out, int size, T* v) { FormatValue(out, size, static_cast<const void*>(v)); }
};

template <typename A, typename B>
inline void ReportComparisonFailure(const char* expression, const char* file, int line,
                                    A a, B b) {
  char a_text[32];
  char b_text[32];
  ValueKind<A>::Format(a_text, sizeof(a_text), a);
  ValueKind<B>::Format(b_text, sizeof(b_text), b);
  Record("FAIL %s failed at %s:%d (%s vs %s)", expression, file, line, a_text, b_text);
  state.current_failed = true;
}

inline void ReportFailure(const char* expression, const char* file, int line) {
  Record("FAIL %s failed at %s:%d", expression, file, line);
  state.current_failed = true;
}

inline void BeginTest(const char* name) {
  Record("BEGIN %s", name);
  state.current_failed = false;
  micro_test_case_start();
}

// Counts the test that just ran (no output).
inline void CountTest() {
  if (state.current_failed) {
    ++state.tests_failed;
  } else {
    ++state.tests_passed;
  }
}

inline void FinishTest(const char* name) {
  micro_test_case_stop();
  CountTest();
  Record("END %s %s", name, state.current_failed ? "FAILED" : "PASSED");
}

inline int Summarize() {
  const int total = state.tests_passed + state.tests_failed;
  Record("SUMMARY %d/%d tests passed", state.tests_passed, total);
  if (state.tests_failed == 0) {
    Record("DONE PASSED");
    return 0;
  }
  Record("DONE FAILED");
  return 1;
}

}  // namespace micro_test

#define TF_LITE_MICRO_TESTS_BEGIN                  \
  namespace micro_test {                           \
  State state = {0, 0, false, 0, {0, 0}, false};   \
  }                                                \
  extern "C" MICRO_TEST_MARKER_ void micro_test_case_start(void) { __asm__ volatile("" ::: "memory"); } \
  extern "C" MICRO_TEST_MARKER_ void micro_test_case_stop(void) { __asm__ volatile("" ::: "memory"); }  \
  int main(int argc, char** argv) {                \
    (void)argc;                                    \
    (void)argv;                                    \
    MicroPlatformInit();                           \
    static const char micro_test_framework[]       \
        __attribute__((section(".micro_test.framework"), used)) = "micro_test 2"; \
    micro_test::Start(micro_test_framework);

#define MICRO_TEST_CONCAT_(a, b) a##b
#define MICRO_TEST_CONCAT(a, b) MICRO_TEST_CONCAT_(a, b)
// The case's name, once, in the ELF section the harness reads as the compiled
// case list (a static object: the optimizer never duplicates it, and code that
// the preprocessor or the compiler removed leaves no name behind).
#define MICRO_TEST_NAME_ MICRO_TEST_CONCAT(micro_test_case_name_, __LINE__)

// Each test is a run-once loop so `break`-free early exits are not needed and
// the body reads like a function.
#define TF_LITE_MICRO_TEST(name)                                                    \
  static const char MICRO_TEST_NAME_[] __attribute__((section(".micro_test.cases"), \
                                                      used)) = #name;               \
  micro_test::BeginTest(MICRO_TEST_NAME_);                                          \
  for (int micro_test_once_##name = 0; micro_test_once_##name < 1;                  \
       ++micro_test_once_##name, micro_test::FinishTest(MICRO_TEST_NAME_))

#define TF_LITE_MICRO_TESTS_END                    \
  MicroExit(micro_test::Summarize());              \
  }

#define TF_LITE_MICRO_EXPECT(x)                                    \
  do {                                                             \
    if (!(x)) micro_test::ReportFailure(#x, __FILE__, __LINE__);   \
  } while (false)

#define TF_LITE_MICRO_EXPECT_TRUE(x)                                         \
  do {                                                                       \
    if (!(x)) micro_test::ReportFailure(#x " was not true", __FILE__, __LINE__); \
  } while (false)

#define TF_LITE_MICRO_EXPECT_FALSE(x)                                         \
  do {                                                                        \
    if (x) micro_test::ReportFailure(#x " was not false", __FILE__, __LINE__); \
  } while (false)

#define TF_LITE_MICRO_FAIL(msg)                                     \
  do {                                                              \
    micro_test::ReportFailure("FAIL: " msg, __FILE__, __LINE__);   \
  } while (false)

// Each operand is evaluated exactly once.
#define TF_LITE_MICRO_COMPARE_(x, y, op)                                        \
  do {                                                                          \
    auto vx_ = (x);                                                             \
    auto vy_ = (y);                                                             \
    if (!(vx_ op vy_)) {                                                        \
      micro_test::ReportComparisonFailure(#x " " #op " " #y, __FILE__, __LINE__, \
                                          vx_, vy_);                            \
    }                                                                           \
  } while (false)

#define TF_LITE_MICRO_EXPECT_EQ(x, y) TF_LITE_MICRO_COMPARE_(x, y, ==)
#define TF_LITE_MICRO_EXPECT_NE(x, y) TF_LITE_MICRO_COMPARE_(x, y, !=)
#define TF_LITE_MICRO_EXPECT_GT(x, y) TF_LITE_MICRO_COMPARE_(x, y, >)
#define TF_LITE_MICRO_EXPECT_LT(x, y) TF_LITE_MICRO_COMPARE_(x, y, <)
#define TF_LITE_MICRO_EXPECT_GE(x, y) TF_LITE_MICRO_COMPARE_(x, y, >=)
#define TF_LITE_MICRO_EXPECT_LE(x, y) TF_LITE_MICRO_COMPARE_(x, y, <=)

// |x - y| <= tolerance, reported with both values.
#define TF_LITE_MICRO_EXPECT_NEAR(x, y, tolerance)                               \
  do {                                                                           \
    auto vx_ = (x);                                                              \
    auto vy_ = (y);                                                              \
    auto delta_ = (vx_ > vy_) ? (vx_ - vy_) : (vy_ - vx_);                       \
    if (!(delta_ <= (tolerance))) {                                              \
      micro_test::ReportComparisonFailure(#x " near " #y, __FILE__, __LINE__, vx_, \
                                          vy_);                                  \
    }                                                                            \
  } while (false)

#endif  // MICRO_RUNTIME_MICRO_TEST_H_
