// EXP kernel tests: float32 values against their exact results (libm expf);
// int8 and mismatched shapes fail in prepare (TFLM has no quantized EXP).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatAndRefusals) {
  float input[] = {-2.0f, 0.0f, 0.5f, 1.0f, 4.0f};
  const float expected[] = {0.13533528f, 1.0f, 1.64872127f, 2.71828183f, 54.5981500f};
  kernel_cases::ExpectFloatOnlyUnary(Register_EXP(), input, expected);
}

TF_LITE_MICRO_TESTS_END
