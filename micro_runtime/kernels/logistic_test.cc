// LOGISTIC kernel tests. Float expectations are numpy's 1 / (1 + exp(-x)) in
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
  return RunUnaryKernel(Register_LOGISTIC(), input, output);
}

// int16 (zero points 0, output scale 2^-15): TFLM's outputs (tflite-micro Python
// package, one-op models) for kernel_cases' 14 inputs and its sums over all
// 65,536 inputs, one case per path of TFLM's input rescale. Hand checks:
// sigmoid(0) = 16384, and sigmoid(1.0) * 32768 = 23955.9 -> 23956
// at input 4096 of scale 2^-12.
const kernel_cases::SigmoidInt16Case kInt16Cases[] = {
    // 2^-12: TFLM's exact rescale (x 3)
    {0.000244140625f,
     {11, 247, 8812, 14394, 16382, 16384, 16386, 16538, 18374, 23954, 23956, 31234, 32521, 32757},
     1073725451,
     16690632529482},
    // 2^-11: not LOGISTIC's power of two, a 15-bit multiplier and shift
    {0.00048828125f,
     {1, 2, 3906, 12462, 16380, 16384, 16388, 16692, 20306, 28860, 28862, 32689, 32766, 32767},
     1073725441,
     17365071757540},
    // a scale that is no power of two
    {0.0003f,
     {2, 81, 7419, 13945, 16381, 16384, 16387, 16573, 18823, 25347, 25349, 31980, 32687, 32766},
     1073725443,
     16993162573872},
    // 2^-12 * 1.0004: within TFLM's 1e-3 log2 tolerance, so rescaled as 2^-12
    {0.00024423827f,
     {11, 247, 8812, 14394, 16382, 16384, 16386, 16538, 18374, 23954, 23956, 31234, 32521, 32757},
     1073725451,
     16690632529482},
};

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(Float) {
  const int32_t shape[] = {2, 1, 11};
  float input[] = {-10, -3, -1, -0.5f, -0.1f, 0, 0.1f, 0.5f, 1, 3, 10};
  const float expected[] = {4.53978687e-05f, 0.0474258732f, 0.268941421f, 0.377540669f,
                            0.475020812f,    0.5f,          0.524979188f, 0.622459331f,
                            0.731058579f,    0.952574127f,  0.999954602f};
  kernel_cases::ExpectUnaryFloats(Register_LOGISTIC(), shape, input, expected, 1e-6f);
}

TF_LITE_MICRO_TEST(FloatExtremesSaturate) {
  const int32_t shape[] = {1, 2};
  float input[] = {-200.0f, 200.0f};
  float output[2] = {0.5f, 0.5f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, output[0], 1e-30f);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, output[1]);
}

TF_LITE_MICRO_TEST(Int8) {
  const int32_t shape[] = {2, 3, 4};
  int8_t input[] = {-128, -100, -60, -20, -5, 0, 3, 10, 25, 50, 80, 127};
  int8_t output[12] = {0};
  const int8_t expected[] = {-128, -128, -123, -81, -37, -19, -8, 19, 69, 112, 125, 127};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.06f, 5),
                                         CreateQuantizedTensor(output, dims, 1.0f / 256.0f, -128)));
  for (int i = 0; i < 12; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

TF_LITE_MICRO_TEST(Int8EveryInputValue) {
  // All 256 inputs (scale 0.05, zero point 10) against TFLM's outputs.
  static const int8_t expected[256] = {
    -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -127, -127,
    -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127, -127,
    -127, -127, -127, -127, -126, -126, -126, -126, -126, -126, -126, -126, -126, -126, -125, -125,
    -125, -125, -125, -125, -125, -124, -124, -124, -124, -124, -123, -123, -123, -123, -122, -122,
    -122, -122, -121, -121, -120, -120, -120, -119, -119, -118, -118, -117, -117, -116, -116, -115,
    -115, -114, -113, -113, -112, -111, -110, -109, -109, -108, -107, -106, -105, -104, -102, -101,
    -100, -99, -97, -96, -95, -93, -92, -90, -88, -87, -85, -83, -81, -79, -77, -75, -73, -71, -69,
    -66, -64, -62, -59, -57, -54, -51, -49, -46, -43, -40, -37, -34, -31, -28, -25, -22, -19, -16,
    -13, -10, -6, -3, 0, 3, 6, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 51, 54, 57,
    59, 62, 64, 66, 69, 71, 73, 75, 77, 79, 81, 83, 85, 87, 88, 90, 92, 93, 95, 96, 97, 99, 100,
    101, 102, 104, 105, 106, 107, 108, 109, 109, 110, 111, 112, 113, 113, 114, 115, 115, 116, 116,
    117, 117, 118, 118, 119, 119, 120, 120, 120, 121, 121, 122, 122, 122, 122, 123, 123, 123, 123,
    124, 124, 124, 124, 124, 125, 125, 125, 125, 125, 125, 125, 126, 126, 126, 126, 126, 126, 126,
    126, 126, 126, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127};
  kernel_cases::ExpectEveryInt8Input(Register_LOGISTIC(), 0.05f, 10, 1.0f / 256.0f, -128,
                                   expected);
}

TF_LITE_MICRO_TEST(Int8WrongOutputQuantizationFails) {
  const int32_t shape[] = {1, 2};
  int8_t input[2] = {0};
  int8_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.06f, 5),
                                            CreateQuantizedTensor(output, dims, 1.0f / 128.0f, 0)));
}

TF_LITE_MICRO_TEST(Int16PowerOfTwoScale) { kernel_cases::ExpectSigmoidInt16Case(Register_LOGISTIC(), kInt16Cases[0]); }
TF_LITE_MICRO_TEST(Int16ScaleTwoToMinus11) { kernel_cases::ExpectSigmoidInt16Case(Register_LOGISTIC(), kInt16Cases[1]); }
TF_LITE_MICRO_TEST(Int16OtherScale) { kernel_cases::ExpectSigmoidInt16Case(Register_LOGISTIC(), kInt16Cases[2]); }
TF_LITE_MICRO_TEST(Int16NearPowerOfTwoScale) { kernel_cases::ExpectSigmoidInt16Case(Register_LOGISTIC(), kInt16Cases[3]); }

TF_LITE_MICRO_TEST(Int16BadQuantizationFails) { kernel_cases::ExpectSigmoidInt16Refusals(Register_LOGISTIC()); }

TF_LITE_MICRO_TEST(UnsupportedTypeFails) {
  const int32_t shape[] = {1, 2};
  int32_t input[2] = {0};
  int32_t output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, dims), CreateTensor(output, dims)));
}

TF_LITE_MICRO_TESTS_END
