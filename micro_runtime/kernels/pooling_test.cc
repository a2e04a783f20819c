// AVERAGE_POOL_2D / MAX_POOL_2D kernel tests. Cases and expected outputs come
// from testdata/pooling_cases.h (TFLM's reference interpreter on the same
// single-op models, see micro_runtime/testing/gen_kernel_cases.py); the
// rounding test at the end is hand-computed.
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

template <class C>
void RunInt8(const TfLiteRegistration& reg) {
  TfLiteTensor tensors[2] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale,
                            C::input_zero_point),
      CreateQuantizedTensor(g_int8_out, IntArrayFromInts(C::output_dims), C::output_scale,
                            C::output_zero_point)};
  TfLitePoolParams params = Params<C>();
  for (int i = 0; i < C::output_size; ++i) g_int8_out[i] = 0x55;
  KernelRunner runner(reg, tensors, 2, IntArrayFromInts(kInputs), IntArrayFromInts(kOutputs), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectIntsNear(C::expected, g_int8_out, C::output_size);
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
