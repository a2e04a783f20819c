// Element-wise comparisons of kernel outputs against expected arrays, for
// tests built with micro_test.h. Header-only so the testing library itself
// does not depend on a test main. Each mismatch is reported with its index.
#ifndef MICRO_RUNTIME_TESTING_TEST_COMPARE_H_
#define MICRO_RUNTIME_TESTING_TEST_COMPARE_H_

#include <stdint.h>

#include "micro_runtime/micro_test.h"

// |actual - expected| <= abs_tol + rel_tol * |expected| for every element.
inline void ExpectFloatsNear(const float* expected, const float* actual, int count,
                             float rel_tol = 1e-5f, float abs_tol = 1e-6f) {
  int reported = 0;
  for (int i = 0; i < count; ++i) {
    const float e = expected[i];
    const float a = actual[i];
    const float diff = a > e ? a - e : e - a;
    const float mag = e < 0 ? -e : e;
    if (!(diff <= abs_tol + rel_tol * mag)) {
      if (reported++ < 8) MicroPrintf("  element %d: got %f, expected %f", i, static_cast<double>(a),
                                      static_cast<double>(e));
      micro_test::ReportComparisonFailure("output near expected", __FILE__, __LINE__, a, e);
    }
  }
}

// |actual - expected| <= tolerance for every element of an integer array.
template <typename T>
inline void ExpectIntsNear(const T* expected, const T* actual, int count, int tolerance = 0) {
  int reported = 0;
  for (int i = 0; i < count; ++i) {
    const int e = static_cast<int>(expected[i]);
    const int a = static_cast<int>(actual[i]);
    const int diff = a > e ? a - e : e - a;
    if (diff > tolerance) {
      if (reported++ < 8) MicroPrintf("  element %d: got %d, expected %d", i, a, e);
      micro_test::ReportComparisonFailure("output equals expected", __FILE__, __LINE__, a, e);
    }
  }
}

#endif  // MICRO_RUNTIME_TESTING_TEST_COMPARE_H_
