// A tiny unit-test framework for code that runs on microcontrollers: no
// heap, no stdio, no exceptions. Everything goes through MicroPrintf, and the
// output is the line protocol the harness parses (docs/log_protocol.md,
// harness/formats/micro_test.py). Every protocol line starts with "~~~MT ",
// which no application log uses, so nothing a test prints can be taken for
// the framework's own lines:
//
//   ~~~MT BEGIN <name>
//   ~~~MT FAIL <expression> failed at <file>:<line> (<a> vs <b>)
//   ~~~MT END <name> PASSED|FAILED
//   ~~~MT SUMMARY <passed>/<total> tests passed
//   ~~~MT DONE PASSED|FAILED
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

#include <stdint.h>

#include "micro_runtime/micro_log.h"
#include "micro_runtime/platform.h"

namespace micro_test {

// State of the running test binary; defined by TF_LITE_MICRO_TESTS_BEGIN.
struct State {
  int tests_passed;
  int tests_failed;
  bool current_failed;
};
extern State state;

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
  MicroPrintf("~~~MT FAIL %s failed at %s:%d (%s vs %s)", expression, file, line, a_text,
              b_text);
  state.current_failed = true;
}

inline void ReportFailure(const char* expression, const char* file, int line) {
  MicroPrintf("~~~MT FAIL %s failed at %s:%d", expression, file, line);
  state.current_failed = true;
}

inline void BeginTest(const char* name) {
  MicroPrintf("~~~MT BEGIN %s", name);
  state.current_failed = false;
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
  CountTest();
  MicroPrintf("~~~MT END %s %s", name, state.current_failed ? "FAILED" : "PASSED");
}

inline int Summarize() {
  const int total = state.tests_passed + state.tests_failed;
  MicroPrintf("~~~MT SUMMARY %d/%d tests passed", state.tests_passed, total);
  if (state.tests_failed == 0) {
    MicroPrintf("~~~MT DONE PASSED");
    return 0;
  }
  MicroPrintf("~~~MT DONE FAILED");
  return 1;
}

}  // namespace micro_test

#define TF_LITE_MICRO_TESTS_BEGIN                  \
  namespace micro_test {                           \
  State state = {0, 0, false};                     \
  }                                                \
  int main(int argc, char** argv) {                \
    (void)argc;                                    \
    (void)argv;                                    \
    MicroPlatformInit();

// Each test is a run-once loop so `break`-free early exits are not needed and
// the body reads like a function.
#define TF_LITE_MICRO_TEST(name)                                              \
  micro_test::BeginTest(#name);                                               \
  for (int micro_test_once_##name = 0; micro_test_once_##name < 1;            \
       ++micro_test_once_##name, micro_test::FinishTest(#name))

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
