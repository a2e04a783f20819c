// FULLY_CONNECTED kernel tests. Cases and expected outputs come from
// testdata/fully_connected_cases.h (TFLM's reference interpreter on the same
// single-op models, see micro_runtime/testing/gen_kernel_cases.py); the
// hello_world-sized check at the end is hand-computed.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/testdata/fully_connected_cases.h"
#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_cases.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

using namespace fully_connected_cases;  // NOLINT
using namespace kernel_cases;           // NOLINT

template <class C>
void RunFloat(BiasForm no_bias_form = BiasForm::kMinusOne) {
  const TfLiteFullyConnectedParams params = {C::activation, false, kTfLiteFloat32};
  RunFloatFilterCase<C>(Register_FULLY_CONNECTED(), &params, no_bias_form);
}

template <class C>
void RunInt8(bool constant_weights = true, BiasForm no_bias_form = BiasForm::kMinusOne,
             TfLiteRegistration registration = Register_FULLY_CONNECTED()) {
  const TfLiteFullyConnectedParams params = {C::activation, false, kTfLiteFloat32};
  RunInt8FilterCase<C>(registration, &params, 0, constant_weights, no_bias_form);
}

// Prepare of a float32 FC [1,2] x [1,2] through `registration`.
TfLiteStatus PrepareFloat(TfLiteRegistration registration) {
  static float input[2];
  static float filter[2];
  static float unused[2];
  static float out[1];
  const int32_t dims[] = {2, 1, 2};
  const int32_t o_dims[] = {2, 1, 1};
  TfLiteTensor tensors[4] = {CreateTensor(input, IntArrayFromInts(dims)),
                             CreateTensor(filter, IntArrayFromInts(dims), true),
                             CreateTensor(unused, IntArrayFromInts(dims)),
                             CreateTensor(out, IntArrayFromInts(o_dims))};
  TfLiteFullyConnectedParams params = {kTfLiteActNone, false, kTfLiteFloat32};
  KernelRunner runner(registration, tensors, 4, FilterOpInputs(BiasForm::kAbsent), FilterOpOutputs(), &params);
  return runner.InitAndPrepare();
}

template <class C>
void RunInt16() {
  const TfLiteFullyConnectedParams params = {C::activation, false, kTfLiteFloat32};
  RunInt16FilterCase<C>(Register_FULLY_CONNECTED(), &params, 0, BiasForm::kMinusOne);
}

// FC [1,2] x [1,2] weights {127, 127}, input zero point -128 (|input + offset| up to 255):
// the dot product reaches 255 * 254 = 64,770; with the bias the accumulator must stay in int32.
TfLiteStatus PrepareWithBias(int32_t bias_value, bool bias_constant, bool invoke) {
  static int8_t input[] = {127, 127};
  static int8_t filter[] = {127, 127};
  static int32_t bias[1];
  static int8_t out[1];
  bias[0] = bias_value;
  const int32_t in_dims[] = {2, 1, 2};
  const int32_t f_dims[] = {2, 1, 2};
  const int32_t b_dims[] = {1, 1};
  const int32_t o_dims[] = {2, 1, 1};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 1.0f, -128),
      CreateQuantizedTensor(filter, IntArrayFromInts(f_dims), 1.0f, 0, true),
      CreateTensor(bias, IntArrayFromInts(b_dims), bias_constant),
      CreateQuantizedTensor(out, IntArrayFromInts(o_dims), 1e9f, 0),
  };
  TfLiteFullyConnectedParams params = {kTfLiteActNone, false, kTfLiteFloat32};
  KernelRunner runner(Register_FULLY_CONNECTED(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  const TfLiteStatus prepared = runner.InitAndPrepare();
  if (prepared != kTfLiteOk || !invoke) return prepared;
  return runner.Invoke();
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(FloatWithBiasRelu) { RunFloat<FcFloatRelu>(); }
TF_LITE_MICRO_TEST(FloatNoBiasMinusOne) { RunFloat<FcFloatNoBiasKeepDims>(BiasForm::kMinusOne); }
TF_LITE_MICRO_TEST(FloatNoBiasTwoInputs) { RunFloat<FcFloatNoBiasKeepDims>(BiasForm::kAbsent); }
TF_LITE_MICRO_TEST(Int8PerTensor) { RunInt8<FcInt8>(); }
TF_LITE_MICRO_TEST(Int8NonConstantWeights) { RunInt8<FcInt8>(false); }
// The int8-only registration (no float32/int16 eval linked) computes the same
// and refuses other input types in prepare.
TF_LITE_MICRO_TEST(Int8OnlyRegistration) {
  RunInt8<FcInt8>(true, BiasForm::kMinusOne, Register_FULLY_CONNECTED_INT8());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareFloat(Register_FULLY_CONNECTED()));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareFloat(Register_FULLY_CONNECTED_INT8()));
}
TF_LITE_MICRO_TEST(Int8Relu6NoBias) { RunInt8<FcInt8Relu6NoBias>(); }
TF_LITE_MICRO_TEST(Int16Int64Bias) { RunInt16<FcInt16Int64Bias>(); }
TF_LITE_MICRO_TEST(Int16PerChannelInt32Bias) { RunInt16<FcInt16PerChannelInt32Bias>(); }
TF_LITE_MICRO_TEST(Int16NoBias) { RunInt16<FcInt16NoBias>(); }
TF_LITE_MICRO_TEST(Int8Relu6NoBiasTwoInputs) { RunInt8<FcInt8Relu6NoBias>(true, BiasForm::kAbsent); }
TF_LITE_MICRO_TEST(Int8KeepDimsRelu) { RunInt8<FcInt8KeepDims>(); }

TF_LITE_MICRO_TEST(Int8PerChannelHandComputed) {
  // 2 units with different filter scales; input scale 0.5 zp 1, output scale 1 zp 0.
  // unit 0: ((3-1)*2 + (5-1)*-1) * 0.5*0.5 + bias 4*0.25 = (4-4)*0.25 + 1 = 1
  // unit 1: ((3-1)*1 + (5-1)*3) * 0.5*2.0 + bias -2*1.0 = 14 - 2 = 12
  int8_t input[] = {3, 5};
  int8_t filter[] = {2, -1, 1, 3};
  int32_t bias[] = {4, -2};
  int8_t out[2] = {0, 0};
  float scales[] = {2, 0.5f, 2.0f};
  const int32_t in_dims[] = {2, 1, 2};
  const int32_t f_dims[] = {2, 2, 2};
  const int32_t b_dims[] = {1, 2};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(input, IntArrayFromInts(in_dims), 0.5f, 1),
      CreatePerChannelQuantizedTensor(filter, IntArrayFromInts(f_dims), FloatArrayFromFloats(scales), 0),
      CreateTensor(bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(out, IntArrayFromInts(in_dims), 1.0f, 0),
  };
  TfLiteFullyConnectedParams params = {kTfLiteActNone, false, kTfLiteFloat32};
  KernelRunner runner(Register_FULLY_CONNECTED(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_EQ(1, static_cast<int>(out[0]));
  TF_LITE_MICRO_EXPECT_EQ(12, static_cast<int>(out[1]));
}

TF_LITE_MICRO_TEST(AccumulatorThatCanLeaveInt32IsRefusedAtPrepare) {
  constexpr int32_t kDot = 255 * 254;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareWithBias(INT32_MAX - kDot, true, false));       // fits exactly
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareWithBias(INT32_MAX - kDot + 1, true, false));  // one more
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareWithBias(INT32_MIN + kDot - 1, true, false));  // negative too
}

TF_LITE_MICRO_TEST(NonConstantBiasIsCheckedAtEveryInvoke) {
  constexpr int32_t kDot = 255 * 254;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareWithBias(INT32_MAX, false, false));  // values unknown yet
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareWithBias(INT32_MAX - kDot, false, true));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareWithBias(INT32_MAX - kDot + 1, false, true));
}

TF_LITE_MICRO_TEST(FloatSingleInputLikeHelloWorld) {
  // [1,1] -> 3 units: y = relu(x * w + b), hand-computed.
  float x[] = {2.0f};
  float w[] = {0.5f, -1.0f, 3.0f};
  float b[] = {0.25f, 1.0f, -7.0f};
  float y[3];
  const int32_t x_dims[] = {2, 1, 1};
  const int32_t w_dims[] = {2, 3, 1};
  const int32_t b_dims[] = {1, 3};
  const int32_t y_dims[] = {2, 1, 3};
  TfLiteTensor tensors[4] = {CreateTensor(x, IntArrayFromInts(x_dims)),
                             CreateTensor(w, IntArrayFromInts(w_dims), true),
                             CreateTensor(b, IntArrayFromInts(b_dims), true),
                             CreateTensor(y, IntArrayFromInts(y_dims))};
  TfLiteFullyConnectedParams params = {kTfLiteActRelu, false, kTfLiteFloat32};
  KernelRunner runner(Register_FULLY_CONNECTED(), tensors, 4, FilterOpInputs(BiasForm::kPresent),
                      FilterOpOutputs(), &params);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
  TF_LITE_MICRO_EXPECT_NEAR(1.25f, y[0], 1e-6f);
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, y[1], 1e-6f);  // -1 clamped by RELU
  TF_LITE_MICRO_EXPECT_NEAR(0.0f, y[2], 1e-6f);  // -1 clamped by RELU
}

TF_LITE_MICRO_TEST(RejectsBadTypesAndShapes) {
  int16_t input16[4] = {0, 0, 0, 0};
  float input_f[4] = {0, 0, 0, 0};
  int8_t filter8[8] = {0};
  float filter_f[8] = {0};
  float out_f[2];
  const int32_t in_dims[] = {2, 1, 4};
  const int32_t f_dims[] = {2, 2, 4};
  const int32_t bad_f_dims[] = {2, 2, 3};
  const int32_t out_dims[] = {2, 1, 2};
  TfLiteFullyConnectedParams params = {kTfLiteActNone, false, kTfLiteFloat32};
  const int32_t outputs[] = {1, 2};
  const int32_t inputs[] = {2, 0, 1};
  {
    TfLiteTensor t[3] = {CreateTensor(input16, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out_f, IntArrayFromInts(out_dims))};
    t[2].type = kTfLiteInt16;
    KernelRunner runner(Register_FULLY_CONNECTED(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // int16 unsupported
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input_f, IntArrayFromInts(in_dims)),
                         CreateTensor(filter8, IntArrayFromInts(f_dims), true),
                         CreateTensor(out_f, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_FULLY_CONNECTED(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // float input, int8 filter
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input_f, IntArrayFromInts(in_dims)),
                         CreateTensor(filter_f, IntArrayFromInts(bad_f_dims), true),
                         CreateTensor(out_f, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_FULLY_CONNECTED(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), &params);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // 4 inputs vs filter width 3
  }
  {
    TfLiteTensor t[3] = {CreateTensor(input_f, IntArrayFromInts(in_dims)),
                         CreateTensor(filter_f, IntArrayFromInts(f_dims), true),
                         CreateTensor(out_f, IntArrayFromInts(out_dims))};
    KernelRunner runner(Register_FULLY_CONNECTED(), t, 3, IntArrayFromInts(inputs),
                        IntArrayFromInts(outputs), nullptr);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());  // no options
  }
}

TF_LITE_MICRO_TESTS_END
