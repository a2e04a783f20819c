// LOG kernel tests: float32 values against their exact results (libm logf);
// int8 and mismatched shapes fail in prepare (TFLM has no quantized LOG).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatAndRefusals) {
  float input[] = {0.01f, 0.5f, 1.0f, 2.71828183f, 1000.0f};
  const float expected[] = {-4.60517019f, -0.69314718f, 0.0f, 1.0f, 6.90775528f};
  kernel_cases::ExpectFloatOnlyUnary(Register_LOG(), input, expected);
}

TF_LITE_MICRO_TESTS_END
