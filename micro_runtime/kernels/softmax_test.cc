// SOFTMAX kernel tests. Float expectations come from numpy
// (exp(beta*(x-max)) / sum); int8 expectations from the TFLM reference
// interpreter (tflite-micro Python package) running a one-op SOFTMAX model,
// cross-checked with LiteRT (identical); int16 ones from TFLM's interpreter
// too (testdata/softmax_int16_cases.h, micro_runtime/testing/gen_softmax_cases.py).
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/softmax_int16_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

const int32_t kIn[] = {1, 0};
const int32_t kOut[] = {1, 1};

// Runs SOFTMAX on input/output tensors; returns prepare's or invoke's status.
TfLiteStatus Run(TfLiteTensor input, TfLiteTensor output, float beta) {
  TfLiteTensor tensors[] = {input, output};
  const TfLiteSoftmaxParams params = {beta};
  KernelRunner runner(Register_SOFTMAX(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut),
                      &params);
  TF_LITE_ENSURE_OK(runner.context(), runner.InitAndPrepare());
  return runner.Invoke();
}

// Runs an int8 softmax with output scale 1/256, zero point -128 and checks
// every output exactly.
void CheckInt8(const int32_t* shape, int8_t* input, float scale, int zero_point, float beta,
               const int8_t* expected) {
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  const int32_t count = ElementCount(dims);
  int8_t output[16] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          Run(CreateQuantizedTensor(input, dims, scale, zero_point),
                              CreateQuantizedTensor(output, dims, 1.0f / 256.0f, -128), beta));
  for (int32_t i = 0; i < count; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
}

// int16 tensors of the largest case (the knot sweeps).
constexpr int32_t kInt16Max = 2 * softmax_int16_cases::kSweepRows;
int16_t g_input16[kInt16Max];
int16_t g_output16[kInt16Max];

// Runs an int16 softmax (output scale 1/32768, zero point 0) of the case C on g_input16 and checks every
// output exactly; in place when `in_place` (the planner may share the buffer).
template <typename C>
void CheckInt16Case(bool in_place = false) {
  static_assert(C::size <= kInt16Max, "test buffers too small");
  const TfLiteIntArray* dims = IntArrayFromInts(C::dims);
  int16_t* output = in_place ? g_input16 : g_output16;
  if (!in_place) {
    for (int32_t i = 0; i < C::size; ++i) output[i] = 12345;
  }
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(g_input16, dims, C::input_scale, 0),
                                         CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0), C::beta));
  int mismatches = 0;
  for (int32_t i = 0; i < C::size; ++i) {
    if (output[i] != C::expected[i] && ++mismatches <= 4) {
      MicroPrintf("element %d: got %d, TFLM %d", static_cast<int>(i), output[i], C::expected[i]);
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
}

// CheckInt16Case on the case's stored input.
template <typename C>
void CheckInt16(bool in_place = false) {
  for (int32_t i = 0; i < C::size; ++i) g_input16[i] = C::input[i];
  CheckInt16Case<C>(in_place);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatRowsAreIndependentAndShiftInvariant) {
  const int32_t shape[] = {2, 2, 4};
  float input[] = {1, 2, 3, 4, -1, 0, 1, 2};
  float output[8] = {0};
  const float expected[] = {0.032058603f, 0.087144319f, 0.236882818f, 0.64391426f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims), 1.0f));
  for (int i = 0; i < 8; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i % 4], output[i], 1e-6f);
}

TF_LITE_MICRO_TEST(FloatBeta) {
  const int32_t shape[] = {2, 1, 3};
  float input[] = {0, 2, -2};
  float output[3] = {0};
  const float expected[] = {0.244728471f, 0.665240956f, 0.090030573f};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims), 0.5f));
  for (int i = 0; i < 3; ++i) TF_LITE_MICRO_EXPECT_NEAR(expected[i], output[i], 1e-6f);
}

TF_LITE_MICRO_TEST(FloatLargeInputsDoNotOverflow) {
  // exp(1000) overflows float; subtracting the row max first keeps it exact.
  const int32_t shape[] = {1, 2};
  float input[] = {1000.0f, 1000.0f};
  float output[2] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims), 1.0f));
  TF_LITE_MICRO_EXPECT_NEAR(0.5f, output[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.5f, output[1], 1e-6f);
}

TF_LITE_MICRO_TEST(FloatInPlace) {
  // The planner may give input and output one buffer.
  const int32_t shape[] = {1, 4};
  float data[] = {4, 3, 2, 1};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(data, dims), CreateTensor(data, dims), 1.0f));
  TF_LITE_MICRO_EXPECT_NEAR(0.64391426f, data[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.032058603f, data[3], 1e-6f);
}

TF_LITE_MICRO_TEST(Int8) {
  const int32_t shape[] = {2, 1, 8};
  int8_t input[] = {-128, -50, 0, 3, 7, 100, 127, -5};
  const int8_t expected[] = {-128, -128, -128, -128, -127, -76, 74, -128};
  CheckInt8(shape, input, 0.05f, 3, 1.0f, expected);
}

TF_LITE_MICRO_TEST(Int8BetaTwoRows) {
  const int32_t shape[] = {2, 2, 5};
  int8_t input[] = {-20, 5, 30, 31, -128, 127, 126, 0, -60, 100};
  const int8_t expected[] = {-113, -89, -29, -25, -128, -18, -22, -127, -128, -88};
  CheckInt8(shape, input, 0.125f, -2, 0.3f, expected);
}

TF_LITE_MICRO_TEST(Int8AllEqualSplitsEvenly) {
  const int32_t shape[] = {1, 4};
  int8_t input[] = {9, 9, 9, 9};
  const int8_t expected[] = {-64, -64, -64, -64};  // 0.25 * 256 - 128
  CheckInt8(shape, input, 0.1f, 0, 1.0f, expected);
}

TF_LITE_MICRO_TEST(Int8MicroSpeechLogits) {
  // The logits (tensor add_1, scale 0.09173192, zero point 14) of the three
  // micro_speech reference cases, taken from LiteRT; expected = the model's
  // outputs in micro_speech_quantized cases.json.
  const int32_t shape[] = {2, 1, 4};
  int8_t logits[3][4] = {{-128, 73, 75, 75}, {-128, 79, 121, 93}, {-128, 103, 92, 116}};
  const int8_t expected[3][4] = {{-128, -53, -38, -38}, {-128, -123, 105, -110}, {-128, -73, -108, 53}};
  for (int c = 0; c < 3; ++c) CheckInt8(shape, logits[c], 0.09173192f, 14, 1.0f, expected[c]);
}

TF_LITE_MICRO_TEST(Int8ToInt16) {
  // int16 output (scale 1/65536, zero point -32768), as in TFLM's keyword model. Expected: TFLM's reference
  // interpreter (and LiteRT, identical) on a one-op model; five equal inputs give 0.2 each: 13107 - 32768.
  const int32_t shape[] = {2, 1, 5};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int8_t input[] = {-10, 0, 20, 60, 127};
  int16_t output[5] = {0};
  const int16_t expected[] = {-32701, -32658, -32470, -30563, 30088};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.05f, 3),
                                         CreateQuantizedTensor(output, dims, 1.0f / 65536.0f, -32768), 1.0f));
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], output[i]);
  int8_t equal[] = {7, 7, 7, 7, 7};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(equal, dims, 0.05f, 3),
                                         CreateQuantizedTensor(output, dims, 1.0f / 65536.0f, -32768), 1.0f));
  for (int i = 0; i < 5; ++i) TF_LITE_MICRO_EXPECT_EQ(-19661, output[i]);
  // The int16 output's quantization is fixed too.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(equal, dims, 0.05f, 3),
                                            CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0), 1.0f));
}

TF_LITE_MICRO_TEST(Int16KnotSweep) {
  // Rows {32767, -32768 + 128 j} at scale 10/65535: the second element's distance lands on every knot of the
  // exp table (gen_softmax_cases.py's sweep_input).
  using C = softmax_int16_cases::Int16KnotSweep;
  for (int32_t j = 0; j < softmax_int16_cases::kSweepRows; ++j) {
    g_input16[2 * j] = 32767;
    g_input16[2 * j + 1] = static_cast<int16_t>(-32768 + 128 * j);
  }
  CheckInt16Case<C>();
}

TF_LITE_MICRO_TEST(Int16SumSweep) { CheckInt16<softmax_int16_cases::Int16SumSweep>(); }

TF_LITE_MICRO_TEST(Int16Rows) { CheckInt16<softmax_int16_cases::Int16Rows>(); }

TF_LITE_MICRO_TEST(Int16LongRow) { CheckInt16<softmax_int16_cases::Int16LongRow>(); }

TF_LITE_MICRO_TEST(Int16LeftShift) { CheckInt16<softmax_int16_cases::Int16LeftShift>(); }

TF_LITE_MICRO_TEST(Int16BetaZeroIsUniform) { CheckInt16<softmax_int16_cases::Int16BetaZero>(); }

TF_LITE_MICRO_TEST(Int16InPlace) { CheckInt16<softmax_int16_cases::Int16Rows>(true); }

TF_LITE_MICRO_TEST(Int16WrongQuantizationOrTypeFails) {
  const int32_t shape[] = {1, 4};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int16_t input[4] = {0};
  int16_t output[4] = {0};
  int8_t output8[4] = {0};
  // Output scale 1/32768 within 0.1% (TFLM's tolerance), zero points 0.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                         CreateQuantizedTensor(output, dims, 1.0009f / 32768.0f, 0), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                            CreateQuantizedTensor(output, dims, 1.0011f / 32768.0f, 0), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                            CreateQuantizedTensor(output, dims, 1.0f / 65536.0f, -32768), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.001f, 3),
                                            CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                            CreateQuantizedTensor(output8, dims, 1.0f / 256.0f, -128), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.001f, 0),
                                            CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0), -1.0f));
  // The int8-only registration refuses int16 by name.
  TfLiteTensor tensors[] = {CreateQuantizedTensor(input, dims, 0.001f, 0),
                            CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0)};
  const TfLiteSoftmaxParams params = {1.0f};
  KernelRunner runner(Register_SOFTMAX_INT8(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
}

TF_LITE_MICRO_TEST(Int16LargeInputScaleSaturatesDistances) {
  // beta * input scale 8: distances are scaled by 2^16 * 0.8 before the table, so a distance of 32768 or more
  // overflows TFLM's int32 left shift (undefined; a wrap made the far element look close). Its exact scaled
  // distance is far below -10, where the exp table holds its first knot, exp(-10): one step of the output,
  // as for every distance past -10; the two maxima share the rest.
  const int32_t shape[] = {1, 3};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  int16_t input[] = {32767, -32768, 32767};
  int16_t output[3] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(input, dims, 8.0f, 0),
                                         CreateQuantizedTensor(output, dims, 1.0f / 32768.0f, 0), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(1, output[1]);
  TF_LITE_MICRO_EXPECT_EQ(output[0], output[2]);
  TF_LITE_MICRO_EXPECT_NEAR(16384, output[0], 2);  // two equal maxima share the row
}

TF_LITE_MICRO_TEST(Int16RowTooLongForTheSumFails) {
  // 65,539 values of up to 32767 overflow the int32 sum; the check comes before any data is read.
  const int32_t shape[] = {2, 1, 65539};
  const int32_t fits[] = {2, 1, 65538};
  int16_t data[1] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(data, IntArrayFromInts(shape), 0.001f, 0),
                                            CreateQuantizedTensor(data, IntArrayFromInts(shape), 1.0f / 32768.0f, 0),
                                            1.0f));
  TfLiteTensor tensors[] = {CreateQuantizedTensor(data, IntArrayFromInts(fits), 0.001f, 0),
                            CreateQuantizedTensor(data, IntArrayFromInts(fits), 1.0f / 32768.0f, 0)};
  const TfLiteSoftmaxParams params = {1.0f};
  KernelRunner runner(Register_SOFTMAX(), tensors, 2, IntArrayFromInts(kIn), IntArrayFromInts(kOut), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
}

TF_LITE_MICRO_TEST(Int8WrongOutputQuantizationFails) {
  const int32_t shape[] = {1, 4};
  int8_t input[4] = {0};
  int8_t output[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.1f, 0),
                                            CreateQuantizedTensor(output, dims, 1.0f / 128.0f, 0), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(input, dims, 0.1f, 0),
                                            CreateQuantizedTensor(output, dims, 1.0f / 256.0f, 0), 1.0f));
}

TF_LITE_MICRO_TEST(ZeroBetaIsUniform) {
  const int32_t shape[] = {1, 4};
  float input[] = {-5, 0, 1, 30};
  float output[4] = {0};
  int8_t q_in[] = {-128, 0, 5, 127};
  int8_t q_out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateTensor(input, dims), CreateTensor(output, dims), 0.0f));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_NEAR(0.25f, output[i], 1e-6f);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, Run(CreateQuantizedTensor(q_in, dims, 0.1f, 0),
                                         CreateQuantizedTensor(q_out, dims, 1.0f / 256.0f, -128), 0.0f));
  for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(-64, q_out[i]);
}

TF_LITE_MICRO_TEST(NegativeBetaOrZeroScaleFails) {
  const int32_t shape[] = {1, 4};
  float input[4] = {0};
  float output[4] = {0};
  int8_t q_in[4] = {0};
  int8_t q_out[4] = {0};
  const TfLiteIntArray* dims = IntArrayFromInts(shape);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, dims), CreateTensor(output, dims), -1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateQuantizedTensor(q_in, dims, 0.0f, 0),
                                            CreateQuantizedTensor(q_out, dims, 1.0f / 256.0f, -128), 1.0f));
}

TF_LITE_MICRO_TEST(UnsupportedTypeAndShapeMismatchFail) {
  const int32_t shape[] = {1, 4};
  const int32_t other_shape[] = {1, 3};
  int32_t ints[4] = {0};
  int32_t int_out[4] = {0};
  float input[4] = {0};
  float output[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(ints, IntArrayFromInts(shape)),
                                            CreateTensor(int_out, IntArrayFromInts(shape)), 1.0f));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, IntArrayFromInts(shape)),
                                            CreateTensor(output, IntArrayFromInts(other_shape)), 1.0f));
  int8_t q_out[4] = {0};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, Run(CreateTensor(input, IntArrayFromInts(shape)),
                                            CreateQuantizedTensor(q_out, IntArrayFromInts(shape),
                                                                  1.0f / 256.0f, -128),
                                            1.0f));
}

TF_LITE_MICRO_TESTS_END
