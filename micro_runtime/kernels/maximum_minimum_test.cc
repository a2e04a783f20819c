// MAXIMUM / MINIMUM kernel tests. Expectations are the element-wise max/min
// of the stored values (TFLite compares the raw values; quantized tensors
// share one quantization), written out by hand.
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kShapeA[] = {3, 2, 1, 3};
const int32_t kShapeB[] = {3, 1, 2, 1};
const int32_t kShapeOut[] = {3, 2, 2, 3};

template <typename T>
TfLiteTensor Quantized(T* data, const int32_t* shape, float scale, int zero_point) {
  TfLiteTensor t = CreateTensor(data, IntArrayFromInts(shape));
  t.params.scale = scale;
  t.params.zero_point = zero_point;
  return t;
}

// [2,1,3] against [1,2,1] -> [2,2,3], for either op and any type.
template <typename T>
void CheckBroadcast(const TfLiteRegistration& reg, const T* a_values, const T* b_values, const T* expected,
                    float scale) {
  T a[6];
  T b[2];
  T out[12] = {0};
  for (int i = 0; i < 6; ++i) a[i] = a_values[i];
  for (int i = 0; i < 2; ++i) b[i] = b_values[i];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, RunBinaryKernel(reg, Quantized(a, kShapeA, scale, 0), Quantized(b, kShapeB, scale, 0),
                                                     Quantized(out, kShapeOut, scale, 0), nullptr));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatBroadcast) {
  const float a[] = {1.5f, -2, 7, 0, 3, -8};
  const float b[] = {0.5f, 4};
  const float max[] = {1.5f, 0.5f, 7, 4, 4, 7, 0.5f, 3, 0.5f, 4, 4, 4};
  const float min[] = {0.5f, -2, 0.5f, 1.5f, -2, 4, 0, 0.5f, -8, 0, 3, -8};
  CheckBroadcast(Register_MAXIMUM(), a, b, max, 0.0f);
  CheckBroadcast(Register_MINIMUM(), a, b, min, 0.0f);
}

TF_LITE_MICRO_TEST(Int8Broadcast) {
  const int8_t a[] = {-128, 5, 127, 0, -3, 60};
  const int8_t b[] = {-4, 100};
  const int8_t max[] = {-4, 5, 127, 100, 100, 127, 0, -3, 60, 100, 100, 100};
  const int8_t min[] = {-128, -4, -4, -128, 5, 100, -4, -4, -4, 0, -3, 60};
  CheckBroadcast(Register_MAXIMUM(), a, b, max, 0.1f);
  CheckBroadcast(Register_MINIMUM(), a, b, min, 0.1f);
}

TF_LITE_MICRO_TEST(Int16Broadcast) {
  const int16_t a[] = {-32768, 500, 32767, 0, -3, 600};
  const int16_t b[] = {-4, 1000};
  const int16_t max[] = {-4, 500, 32767, 1000, 1000, 32767, 0, -3, 600, 1000, 1000, 1000};
  const int16_t min[] = {-32768, -4, -4, -32768, 500, 1000, -4, -4, -4, 0, -3, 600};
  CheckBroadcast(Register_MAXIMUM(), a, b, max, 0.001f);
  CheckBroadcast(Register_MINIMUM(), a, b, min, 0.001f);
}

TF_LITE_MICRO_TEST(DifferentQuantizationFailsInPrepare) {
  const int32_t shape[] = {1, 2};
  int8_t a[2] = {0};
  int8_t b[2] = {0};
  int8_t out[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_MAXIMUM(), Quantized(a, shape, 0.1f, 0),
                                                        Quantized(b, shape, 0.2f, 0), Quantized(out, shape, 0.1f, 0),
                                                        nullptr));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_MINIMUM(), Quantized(a, shape, 0.1f, 0),
                                                        Quantized(b, shape, 0.1f, 0), Quantized(out, shape, 0.1f, 3),
                                                        nullptr));
  int32_t i[2] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, RunBinaryKernel(Register_MINIMUM(), CreateTensor(i, IntArrayFromInts(shape)),
                                                        CreateTensor(i, IntArrayFromInts(shape)),
                                                        CreateTensor(i, IntArrayFromInts(shape)), nullptr));
}

TF_LITE_MICRO_TESTS_END
