// TANH kernel tests. Float expectations are numpy's tanh(x) in
// double precision; int8 expectations come from the TFLM reference
// interpreter (tflite-micro Python package) on a one-op model (LiteRT
// agrees); int16 ones from TFLM too (kInt16Cases).
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output) {
  return RunUnaryKernel(Register_TANH(), input, output);
}

// int16 (zero points 0, output scale 2^-15): TFLM's outputs (tflite-micro Python
// package, one-op models) for kernel_cases' 14 inputs and its sums over all
// 65,536 inputs, one case per path of TFLM's input rescale. Hand checks:
// tanh(0) = 0, tanh(1.0) * 32768 = 24956.1 -> 24956 at input 4096
// of scale 2^-12, and tanh is odd.
const kernel_cases::SigmoidInt16Case kInt16Cases[] = {
    // 2^-12: TFLM's exact rescale (x 3)
    {0.000244140625f,
     {-32767, -32764, -24956, -7845, -8, 0, 8, 616, 7845, 24953, 24956, 32611, 32764, 32767},
     -32767,
     34731757748022},
    // 2^-11: TANH's other power of two (x 6)
    {0.00048828125f,
     {-32767, -32767, -31589, -14838, -16, 0, 16, 1232, 14838, 31588, 31589, 32767, 32767, 32767},
     -32767,
     35070413692314},
    // a scale that is no power of two: a 15-bit multiplier and shift
    {0.0003f,
     {-32767, -32767, -27598, -9545, -11, 0, 11, 758, 9545, 27595, 27598, 32729, 32767, 32767},
     -32764,
     34884235627626},
    // 2^-11 * 0.9996: within TFLM's 1e-3 log2 tolerance, so rescaled as 2^-11
    {0.00048808593f,
     {-32767, -32767, -31589, -14838, -16, 0, 16, 1232, 14838, 31588, 31589, 32767, 32767, 32767},
     -32767,
     35070413692314},
};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {2, 1, 11};
  float input[] = {-10, -3, -1, -0.5f, -0.1f, 0, 0.1f, 0.5f, 1, 3, 10};
  const float expected[] = {-0.999999996f, -0.995054754f, -0.761594156f, -0.462117157f,
                            -0.0996679961f, 0.0f,         0.0996679961f, 0.462117157f,
                            0.761594156f,   0.995054754f, 0.999999996f};
  kernel_cases::ExpectUnaryFloats(Register_TANH(), shape, input, expected, 1e-6f);
}

TF_LITE_MICRO_TEST(FloatExtremesSaturate) {
  const int32_t shape[] = {1, 2};
  float input[] = {-200.0f, 200.0f};
  float output[2] = {0.5f, 0.5f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  TF_LITE_MICRO_EXPECT_EQ(-1.0f, output[0]);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, output[1]);
}

TF_LITE_MICRO_TEST(Int8) {
  const int32_t shape[] = {2, 3, 4};
  int8_t input[] = {-128, -100, -60, -20, -5, 0, 3, 10, 25, 50, 80, 127};
  int8_t output[12] = {0};
  const int8_t expected[] = {-128, -127, -118, -48, 8, 26, 37, 60, 95, 120, 127, 127};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.03f, -7),
                                         CreateQuantizedTensor(output, dims, 1.0f / 128.0f, 0)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8EveryInputValue) {
  // All 256 inputs (scale 0.02, zero point -5) against TFLM's outputs.
  static const int8_t expected[256] = {
    -126, -126, -126, -126, -126, -126, -126, -126, -125, -125, -125, -125, -125, -125, -125, -125,
    -125, -124, -124, -124, -124, -124, -124, -123, -123, -123, -123, -123, -122, -122, -122, -122,
    -121, -121, -121, -121, -120, -120, -120, -119, -119, -119, -118, -118, -118, -117, -117, -116,
    -116, -115, -115, -114, -114, -113, -113, -112, -112, -111, -110, -110, -109, -108, -107, -107,
    -106, -105, -104, -103, -102, -102, -101, -100, -99, -97, -96, -95, -94, -93, -92, -90, -89,
    -88, -86, -85, -84, -82, -81, -79, -77, -76, -74, -72, -71, -69, -67, -65, -63, -61, -59, -57,
    -55, -53, -51, -49, -46, -44, -42, -40, -37, -35, -33, -30, -28, -25, -23, -20, -18, -15, -13,
    -10, -8, -5, -3, 0, 3, 5, 8, 10, 13, 15, 18, 20, 23, 25, 28, 30, 33, 35, 37, 40, 42, 44, 46, 49,
    51, 53, 55, 57, 59, 61, 63, 65, 67, 69, 71, 72, 74, 76, 77, 79, 81, 82, 84, 85, 86, 88, 89, 90,
    92, 93, 94, 95, 96, 97, 99, 100, 101, 102, 102, 103, 104, 105, 106, 107, 107, 108, 109, 110,
    110, 111, 112, 112, 113, 113, 114, 114, 115, 115, 116, 116, 117, 117, 118, 118, 118, 119, 119,
    119, 120, 120, 120, 121, 121, 121, 121, 122, 122, 122, 122, 123, 123, 123, 123, 123, 124, 124,
    124, 124, 124, 124, 125, 125, 125, 125, 125, 125, 125, 125, 125, 126, 126, 126, 126, 126, 126,
    126, 126, 126, 126, 126, 126, 126, 127, 127, 127, 127};
  kernel_cases::ExpectEveryInt8Input(Register_TANH(), 0.02f, -5, 1.0f / 128.0f, 0,
                                   expected);
}

TF_LITE_MICRO_TEST(Int8WrongOutputQuantizationFails) {
  const int32_t shape[] = {1, 2};
  int8_t input[2] = {0};
  int8_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.06f, 5),
                                            CreateQuantizedTensor(output, dims, 1.0f / 256.0f, -128)));
}

TF_LITE_MICRO_TEST(Int16PowerOfTwoScale) { kernel_cases::ExpectSigmoidInt16Case(Register_TANH(), kInt16Cases[0]); }
TF_LITE_MICRO_TEST(Int16ScaleTwoToMinus11) { kernel_cases::ExpectSigmoidInt16Case(Register_TANH(), kInt16Cases[1]); }
TF_LITE_MICRO_TEST(Int16OtherScale) { kernel_cases::ExpectSigmoidInt16Case(Register_TANH(), kInt16Cases[2]); }
TF_LITE_MICRO_TEST(Int16NearPowerOfTwoScale) { kernel_cases::ExpectSigmoidInt16Case(Register_TANH(), kInt16Cases[3]); }

TF_LITE_MICRO_TEST(Int16BadQuantizationFails) { kernel_cases::ExpectSigmoidInt16Refusals(Register_TANH()); }

TF_LITE_MICRO_TEST(UnsupportedTypeFails) {
  const int32_t shape[] = {1, 2};
  int32_t input[2] = {0};
  int32_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
}

TF_LITE_MICRO_TESTS_END
