// SQRT kernel tests: float32 values against their exact results (IEEE sqrtf: exactly rounded);
// int8 and mismatched shapes fail in prepare (TFLM has no quantized SQRT).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatAndRefusals) {
  float input[] = {0.0f, 0.25f, 2.0f, 9.0f, 1e6f};
  const float expected[] = {0.0f, 0.5f, 1.41421356f, 3.0f, 1000.0f};
  kernel_cases::ExpectFloatOnlyUnary(Register_SQRT(), input, expected);
}

TF_LITE_MICRO_TESTS_END
