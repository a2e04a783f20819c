// CONV_2D kernel tests. Cases and expected outputs come from
// testdata/conv_cases.h (TFLM's reference interpreter on the same single-op
// models, see micro_runtime/testing/gen_kernel_cases.py). Each int8 case also
// runs with non-constant weights (a filter computed by an earlier op), which
// the kernels must treat like constant ones.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/conv_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace conv_cases;    // NOLINT
using namespace kernel_cases;  // NOLINT

template <class C>
TfLiteConvParams Params() {
  TfLiteConvParams p;
  p.padding = C::padding;
  p.stride_width = C::stride_w;
  p.stride_height = C::stride_h;
  p.activation = C::activation;
  p.dilation_width_factor = C::dilation_w;
  p.dilation_height_factor = C::dilation_h;
  return p;
}

template <class C>
void RunFloat(bool two_inputs = false) {
  const TfLiteConvParams params = Params<C>();
  RunFloatFilterCase<C>(Register_CONV_2D(), &params, two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

template <class C>
void RunInt8(bool constant_weights, bool two_inputs = false) {
  const TfLiteConvParams params = Params<C>();
  RunInt8FilterCase<C>(Register_CONV_2D(), &params, C::filter_quantized_dimension, constant_weights,
                       two_inputs ? BiasForm::kAbsent : BiasForm::kMinusOne);
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatSame) { RunFloat<ConvFloatSame>(); }
TF_LITE_MICRO_TEST(FloatValidStride2Relu) { RunFloat<ConvFloatValidStride2Relu>(); }
TF_LITE_MICRO_TEST(FloatDilationNoBias) { RunFloat<ConvFloatDilationNoBias>(); }
TF_LITE_MICRO_TEST(FloatDilationNoBiasTwoInputs) { RunFloat<ConvFloatDilationNoBias>(true); }
TF_LITE_MICRO_TEST(Int8PerChannelSame) { RunInt8<ConvInt8PerChannelSame>(true); }
TF_LITE_MICRO_TEST(Int8PerChannelSameNonConstant) { RunInt8<ConvInt8PerChannelSame>(false); }
TF_LITE_MICRO_TEST(Int8Stride2Relu6) { RunInt8<ConvInt8Stride2Relu6>(true); }
TF_LITE_MICRO_TEST(Int8Stride2Relu6NonConstant) { RunInt8<ConvInt8Stride2Relu6>(false); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBias) { RunInt8<ConvInt8DilationValidNoBias>(true); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBiasNonConstant) { RunInt8<ConvInt8DilationValidNoBias>(false); }
TF_LITE_MICRO_TEST(Int8DilationValidNoBiasTwoInputs) { RunInt8<ConvInt8DilationValidNoBias>(true, true); }
TF_LITE_MICRO_TEST(Int8PerTensor) { RunInt8<ConvInt8PerTensor>(true); }
TF_LITE_MICRO_TEST(Int8PerTensorNonConstant) { RunInt8<ConvInt8PerTensor>(false); }
TF_LITE_MICRO_TEST(Int8DilationWidth) { RunInt8<ConvInt8DilationW>(true); }
TF_LITE_MICRO_TEST(Int8DilationWidthNonConstant) { RunInt8<ConvInt8DilationW>(false); }

TF_LITE_MICRO_TEST(FloatHandComputed1x1) {
  // 1x1 convolution on a 1x1x2x2 input: out[x][oc] = sum_ic in[x][ic] * f[oc][ic] + b[oc].
  float input[] = {1.0f, 2.0f, -3.0f, 0.5f};
  float filter[] = {1.0f, 1.0f, 2.0f, -1.0f};
  float bias[] = {0.5f, -0.5f};
  float out[4];
  const int32_t in_dims[] = {4, 1, 1, 2, 2};
  const int32_t f_dims[] = {4, 2, 1, 1, 2};
  const int32_t b_dims[] = {1, 2};
  TfLiteTensor t[4] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                       CreateTensor(filter, IntArrayFromInts(f_dims), true),
                       CreateTensor(bias, IntArrayFromInts(b_dims), true),
                       CreateTensor(out, IntArrayFromInts(in_dims))};
  TfLiteConvParams params = {kTfLitePaddingValid, 1, 1, kTfLiteActNone, 1, 1};
  KernelRunner runner(Register_CONV_2D(), t, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_NEAR(3.5f, out[0], 1e-6f);   // 1 + 2 + 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-0.5f, out[1], 1e-6f);  // 2 - 2 - 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-2.0f, out[2], 1e-6f);  // -3 + 0.5 + 0.5
  TF_LITE_MICRO_EXPECT_NEAR(-7.0f, out[3], 1e-6f);  // -6 - 0.5 - 0.5
}

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  float input[8] = {0};
  float filter[16] = {0};
  int8_t input8[8] = {0};
  int8_t filter8[16] = {0};
  float out[8];
  int8_t out8[8];
  const int32_t in_dims[] = {4, 1, 2, 2, 2};
  const int32_t f_dims[] = {4, 2, 1, 1, 2};
  const int32_t grouped_f_dims[] = {4, 2, 1, 1, 1};
  const int32_t out_dims[] = {4, 1, 2, 2, 2};
  const int32_t inputs[] = {2, 0, 1};
  const int32_t outputs[] = {1, 2};
  TfLiteConvParams params = {kTfLitePaddingSame, 1, 1, kTfLiteActNone, 1, 1};
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(grouped_f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // channel mismatch
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // float input, int8 filter
  }
  {
    // int8 tensors without quantization parameters (scale 0).
    TfLiteTensor t[3] = {CreateTensor(input8, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out8, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {
    TfLiteConvParams zero_stride = {kTfLitePaddingSame, 0, 1, kTfLiteActNone, 1, 1};
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &zero_stride);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input, IntArrayFromInts(in_dims)),
                         CreateTensor(filter, IntArrayFromInts(f_dims), true),
                         CreateTensor(out, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_CONV_2D(), t, 3, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());  // the valid baseline
  }
}

TF_LITE_MICRO_TESTS_END
