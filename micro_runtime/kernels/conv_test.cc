// CONV_2D kernel tests. Cases and expected outputs come from
// testdata/conv_cases.h (TFLM's reference interpreter on the same single-op
// models, see micro_runtime/testing/gen_kernel_cases.py). Each int8 case also
// runs with non-constant weights, which disables the folded-bias fast path,
// so both int8 paths are checked against TFLM.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/conv_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_compare.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace conv_cases;  // NOLINT

constexpr int kMaxOutput = 80;
float g_float_out[kMaxOutput];
int8_t g_int8_out[kMaxOutput];

struct ScaleStorage {
  int32_t size;
  float data[8];
};
ScaleStorage g_scales;

template <typename T>
T* Mut(const T* p) {
  return const_cast<T*>(p);  // kernels only read inputs; tensors take non-const pointers
}

const int32_t kInputsWithBias[] = {3, 0, 1, 2};
const int32_t kInputsMinusOne[] = {3, 0, 1, -1};
const int32_t kInputsTwo[] = {2, 0, 1};
const int32_t kOutputList[] = {1, 3};

const TfLiteIntArray* InputList(bool has_bias, bool two_inputs) {
  if (has_bias) return IntArrayFromInts(kInputsWithBias);
  return IntArrayFromInts(two_inputs ? kInputsTwo : kInputsMinusOne);
}

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
  TfLiteTensor tensors[4] = {
      CreateTensor(Mut(C::input), IntArrayFromInts(C::input_dims)),
      CreateTensor(Mut(C::filter), IntArrayFromInts(C::filter_dims), true),
      CreateTensor(Mut(C::bias), IntArrayFromInts(C::bias_dims), true),
      CreateTensor(g_float_out, IntArrayFromInts(C::output_dims)),
  };
  TfLiteConvParams params = Params<C>();
  KernelRunner runner(Register_CONV_2D(), tensors, 4, InputList(C::has_bias, two_inputs),
                      IntArrayFromInts(kOutputList), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectFloatsNear(C::expected, g_float_out, C::output_size);
}

template <class C>
void RunInt8(bool constant_weights, bool two_inputs = false) {
  g_scales.size = C::filter_scale_count;
  for (int i = 0; i < C::filter_scale_count; ++i) g_scales.data[i] = C::filter_scales[i];
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(Mut(C::input), IntArrayFromInts(C::input_dims), C::input_scale,
                            C::input_zero_point),
      CreatePerChannelQuantizedTensor(Mut(C::filter), IntArrayFromInts(C::filter_dims),
                                      reinterpret_cast<const TfLiteFloatArray*>(&g_scales),
                                      C::filter_quantized_dimension, constant_weights),
      CreateTensor(Mut(C::bias), IntArrayFromInts(C::bias_dims), constant_weights),
      CreateQuantizedTensor(g_int8_out, IntArrayFromInts(C::output_dims), C::output_scale,
                            C::output_zero_point),
  };
  if (C::filter_scale_count == 1) tensors[1].params.scales = nullptr;  // per-tensor as in a model
  TfLiteConvParams params = Params<C>();
  for (int i = 0; i < C::output_size; ++i) g_int8_out[i] = 0x55;
  KernelRunner runner(Register_CONV_2D(), tensors, 4, InputList(C::has_bias, two_inputs),
                      IntArrayFromInts(kOutputList), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  ExpectIntsNear(C::expected, g_int8_out, C::output_size);
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
  KernelRunner runner(Register_CONV_2D(), t, 4, IntArrayFromInts(kInputsWithBias),
                      IntArrayFromInts(kOutputList), &params);
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
