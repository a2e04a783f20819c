// AVERAGE_POOL_2D / MAX_POOL_2D kernel tests. Cases and expected outputs come
// from testdata/pooling_cases.h (TFLM's reference interpreter on the same
// single-op models, see micro_runtime/testing/gen_kernel_cases.py), int8 and
// int16; the rounding and int16 extreme tests are hand-computed.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/pooling_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace pooling_cases;  // NOLINT

constexpr int kMaxOutput = 32;
float g_float_out[kMaxOutput];
int8_t g_int8_out[kMaxOutput];
int16_t g_int16_out[kMaxOutput];

template <typename T>
T* Mut(const T* p) {
  return const_cast<T*>(p);  // kernels only read inputs; tensors take non-const pointers
}

const int32_t kInputs[] = {1, 0};
const int32_t kOutputs[] = {1, 1};

template <class C>
TfLitePoolParams Params() {
  TfLitePoolParams p;
  p.padding = C::padding;
  p.stride_width = C::stride_w;
  p.stride_height = C::stride_h;
  p.filter_width = C::filter_w;
  p.filter_height = C::filter_h;
  p.activation = C::activation;
  return p;
}

template <class C>
void RunFloat(const TfLiteRegistration& reg) {
  TfLiteTensor tensors[2] = {CreateTensor(Mut(C::input), IntArrayFromInts(C::input_dims)),
                             CreateTensor(g_float_out, IntArrayFromInts(C::output_dims))};
  TfLitePoolParams params = Params<C>();
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectFloatsNear(C::expected, g_float_out, C::output_size);
}

// int8 and int16 cases (T is the case's type; `out` a buffer of that type).
template <class C, typename T>
void RunQuantized(const TfLiteRegistration& reg, T* out) {
  TfLiteTensor tensors[2] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale,
                            C::input_zero_point),
      CreateQuantizedTensor(out, IntArrayFromInts(C::output_dims), C::output_scale, C::output_zero_point)};
  TfLitePoolParams params = Params<C>();
  for (int i = 0; i < C::output_size; ++i) out[i] = 0x55;
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectIntsNear(C::expected, out, C::output_size);
}

template <class C>
void RunInt8(const TfLiteRegistration& reg) {
  RunQuantized<C>(reg, g_int8_out);
}

template <class C>
void RunInt16(const TfLiteRegistration& reg) {
  RunQuantized<C>(reg, g_int16_out);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(AverageFloatSame) { RunFloat<AvgFloatSame>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageFloatValidRelu6) { RunFloat<AvgFloatValidRelu6>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxFloatSameRelu) { RunFloat<MaxFloatSameRelu>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt8Same) { RunInt8<AvgInt8Same>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt8ValidRelu) { RunInt8<AvgInt8ValidRelu>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt8Same) { RunInt8<MaxInt8Same>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt8ValidRelu6) { RunInt8<MaxInt8ValidRelu6>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt16Same) { RunInt16<AvgInt16Same>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(AverageInt16ValidRelu6) { RunInt16<AvgInt16ValidRelu6>(Register_AVERAGE_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt16SameRelu) { RunInt16<MaxInt16SameRelu>(Register_MAX_POOL_2D()); }
TF_LITE_MICRO_TEST(MaxInt16ValidRelu6) { RunInt16<MaxInt16ValidRelu6>(Register_MAX_POOL_2D()); }

TF_LITE_MICRO_TEST(Int16ExtremesRoundHalfAwayFromZero) {
  // 1x2 windows per channel at the int16 extremes: 32767 + 32767 -> 32767,
  // -32768 - 32767 = -65535 / 2 = -32767.5 -> -32768, -32768 + 32767 = -1 / 2
  // -> -1, 1 + 0 -> 1 (0.5 away from zero); the maxima 32767, -32767, 32767, 1.
  int16_t input[] = {32767, -32768, -32768, 1, 32767, -32767, 32767, 0};
  int16_t out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 4};
  const int32_t out_dims[] = {4, 1, 1, 1, 4};
  TfLitePoolParams params = {kTfLitePaddingValid, 1, 1, 2, 1, kTfLiteActNone};
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
  {
    KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
    const int16_t expected[] = {32767, -32768, -1, 1};
    for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
  }
  {
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
    const int16_t expected[] = {32767, -32767, 32767, 1};
    for (int i = 0; i < 4; ++i) TF_LITE_MICRO_EXPECT_EQ(expected[i], out[i]);
  }
}

TF_LITE_MICRO_TEST(Int16RefusalsAndTheSumLimit) {
  int16_t data[4] = {0};
  const int32_t in_dims[] = {4, 1, 2, 2, 1};
  const int32_t out_dims[] = {4, 1, 1, 1, 1};
  TfLitePoolParams params = {kTfLitePaddingValid, 2, 2, 2, 2, kTfLiteActNone};
  {  // int16 needs zero point 0
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(in_dims), 0.5f, 3),
                         CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.5f, 3)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {  // and the input's scale
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.25f, 0)};
    KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  // A 256x256 window sums 65,536 int16 taps, past the int32 sum (prepare
  // reads no data, so the tensors' shapes alone are enough): refused for
  // AVERAGE_POOL_2D, fine for MAX_POOL_2D; 256x255 taps fit.
  const int32_t big_dims[] = {4, 1, 256, 256, 1};
  for (int width = 255; width <= 256; ++width) {
    TfLitePoolParams window = {kTfLitePaddingValid, 1, 1, width, 256, kTfLiteActNone};
    const int32_t big_out_dims[] = {4, 1, 1, 257 - width, 1};
    TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(big_dims), 0.5f, 0),
                         CreateQuantizedTensor(data, IntArrayFromInts(big_out_dims), 0.5f, 0)};
    KernelRunner average(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs),
                         &window);
    TF_LITE_MICRO_EXPECT_EQ(width == 256 ? kTfLiteError : kTfLiteOk, average.InitAndPrepare());
  }
  TfLitePoolParams whole = {kTfLitePaddingValid, 1, 1, 256, 256, kTfLiteActNone};
  TfLiteTensor t[2] = {CreateQuantizedTensor(data, IntArrayFromInts(big_dims), 0.5f, 0),
                       CreateQuantizedTensor(data, IntArrayFromInts(out_dims), 0.5f, 0)};
  KernelRunner max(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &whole);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, max.InitAndPrepare());
}

TF_LITE_MICRO_TEST(AverageInt8RoundsHalfAwayFromZero) {
  // One 1x2 window per channel: sums 3, -3, 1, -1 over 2 taps.
  // 1.5 -> 2, -1.5 -> -2, 0.5 -> 1, -0.5 -> -1.
  int8_t input[] = {1, -1, 0, 0, 2, -2, 1, -1};
  int8_t out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 4};
  const int32_t out_dims[] = {4, 1, 1, 1, 4};
  TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                       CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
  TfLitePoolParams params = {kTfLitePaddingValid, 1, 1, 2, 1, kTfLiteActNone};
  KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                      IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(out[0]));
  TF_LITE_MICRO_EXPECT_EQ(-2, static_cast<int>(out[1]));
  TF_LITE_MICRO_EXPECT_EQ(1, static_cast<int>(out[2]));
  TF_LITE_MICRO_EXPECT_EQ(-1, static_cast<int>(out[3]));
}

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  int8_t input[8] = {0};
  int8_t out[4];
  int32_t input32[8] = {0};
  int32_t out32[4];
  const int32_t in_dims[] = {4, 1, 2, 2, 2};
  const int32_t out_dims[] = {4, 1, 1, 1, 2};
  const int32_t bad_out_dims[] = {4, 1, 1, 2, 2};
  TfLitePoolParams params = {kTfLitePaddingValid, 2, 2, 2, 2, kTfLiteActNone};
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.25f, 0)};
    KernelRunner runner(Register_AVERAGE_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // requantizing is not pooling
  }
  {
    TfLiteTensor t[2] = {CreateTensor(input32, IntArrayFromInts(in_dims)),
                         CreateTensor(out32, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // int32 unsupported
  }
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(bad_out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // wrong output width
  }
  {
    TfLitePoolParams no_filter = {kTfLitePaddingValid, 1, 1, 0, 2, kTfLiteActNone};
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &no_filter);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // zero filter width
  }
  {
    TfLiteTensor t[2] = {CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 0),
                         CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.5f, 0)};
    KernelRunner runner(Register_MAX_POOL_2D(), t, 2, IntArrayFromInts(kInputs),
                        IntArrayFromInts(kOutputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());  // the valid baseline
  }
}

TF_LITE_MICRO_TESTS_END
