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


// ---- Random int8 layers against the definition ----
//
// Shapes for the arm_dsp kernel's paths: four units per group (the rest one
// at a time), input depths in blocks of 4 (passes of 8 blocks, single blocks,
// and n % 4 inputs of their own), the requantization in the group kernel
// (per-tensor filter, right shift in [1, 22], a bias, n % 4 == 0) or after it,
// and depths beyond its unpacked-input buffer (640).
struct FcShape {
  int batches;
  int n;      // input size
  int units;
  int in_zp;  // -128 and 127: the int8 extremes of the input offset
  int out_zp;
  int bias_mode;  // 0: small; 1: |acc| reaching 2^30; 2: reaching INT32_MAX; 3: no bias
  int scales;     // 0: per tensor, right shift; 1: per channel; 2: per tensor, left shift; 3: per tensor, right
                  // shift beyond 22
  TfLiteFusedActivation activation;
};

constexpr int kFcMaxIn = 2100;      // batches * n
constexpr int kFcMaxFilter = 5120;  // units * n
constexpr int kFcMaxUnits = 64;
int8_t g_fc_in[kFcMaxIn];
int8_t g_fc_filter[kFcMaxFilter];
int32_t g_fc_bias[kFcMaxUnits];
int8_t g_fc_out[3 * kFcMaxUnits];
float g_fc_scales[kFcMaxUnits + 1];
TestRandom g_fc_random(1234u);

// Filter scale of unit c (dyadic, so every rounding of the multiplier agrees).
float FcFilterScale(const FcShape& s, int c) {
  switch (s.scales) {
    case 1:
      return 0.0078125f * static_cast<float>(1 + c % 5) + 0.001953125f * static_cast<float>(c % 3);
    case 2:
      return 2.0f;
    case 3:
      return 1.0f / 16777216.0f;  // 2^-24: right shift 24
    default:
      return 0.01171875f;  // 3 / 256
  }
}

// Mismatches of the int8 FULLY_CONNECTED against the definition; -1 when it fails.
int FcMismatches(const FcShape& s) {
  const int n = s.n, units = s.units;
  const float in_scale = 0.75f;
  const float out_scale = s.scales == 3 ? 1.0f : 0.5f;
  for (int i = 0; i < s.batches * n; ++i) g_fc_in[i] = static_cast<int8_t>(g_fc_random.Next(-128, 127));
  for (int i = 0; i < units * n; ++i) g_fc_filter[i] = static_cast<int8_t>(g_fc_random.Next(-128, 127));
  const int32_t reach = n * 255 * 128;
  for (int c = 0; c < units; ++c) {
    const int32_t small = g_fc_random.Next(-5000, 5000);
    const int32_t magnitude = small < 0 ? -small : small;
    int32_t b = small;
    if (s.bias_mode == 1) b = (int32_t{1} << 30) + small;  // sums on both sides of 2^30
    if (s.bias_mode == 2) b = INT32_MAX - reach - magnitude;
    g_fc_bias[c] = c % 2 == 0 ? b : -b;
  }
  const bool per_channel = s.scales == 1;
  g_fc_scales[0] = static_cast<float>(units);
  for (int c = 0; c < units; ++c) g_fc_scales[c + 1] = FcFilterScale(s, c);
  const int32_t in_dims[] = {2, s.batches, n};
  const int32_t f_dims[] = {2, units, n};
  const int32_t b_dims[] = {1, units};
  const int32_t out_dims[] = {2, s.batches, units};
  float tensor_scale[] = {1, FcFilterScale(s, 0)};
  TfLiteTensor tensors[4] = {
      CreateQuantizedTensor(g_fc_in, IntArrayFromInts(in_dims), in_scale, s.in_zp),
      CreatePerChannelQuantizedTensor(g_fc_filter, IntArrayFromInts(f_dims),
                                      FloatArrayFromFloats(per_channel ? g_fc_scales : tensor_scale), 0, true),
      CreateTensor(g_fc_bias, IntArrayFromInts(b_dims), true),
      CreateQuantizedTensor(g_fc_out, IntArrayFromInts(out_dims), out_scale, s.out_zp),
  };
  const TfLiteFullyConnectedParams params = {s.activation, false, kTfLiteFloat32};
  const bool has_bias = s.bias_mode != 3;
  KernelRunner runner(Register_FULLY_CONNECTED(), tensors, 4,
                      FilterOpInputs(has_bias ? BiasForm::kPresent : BiasForm::kMinusOne), FilterOpOutputs(),
                      &params);
  if (runner.InitAndPrepare() != kTfLiteOk || runner.Invoke() != kTfLiteOk) return -1;
  int32_t act_min = -128, act_max = 127;
  if (s.activation == kTfLiteActRelu) act_min = s.out_zp;
  if (s.activation == kTfLiteActRelu6) {
    act_min = s.out_zp;
    act_max = s.out_zp + 12 < 127 ? s.out_zp + 12 : 127;  // 6 / out_scale 0.5
  }
  int mismatches = 0;
  for (int b = 0; b < s.batches; ++b) {
    for (int c = 0; c < units; ++c) {
      int32_t acc = has_bias ? g_fc_bias[c] : 0;
      for (int i = 0; i < n; ++i) acc += (g_fc_in[b * n + i] - s.in_zp) * g_fc_filter[c * n + i];
      const double multiplier = static_cast<double>(in_scale) *
                                static_cast<double>(FcFilterScale(s, per_channel ? c : 0)) /
                                static_cast<double>(out_scale);
      int32_t expected = RequantizeInt8Reference(acc, multiplier, s.out_zp);
      expected = expected < act_min ? act_min : (expected > act_max ? act_max : expected);
      if (g_fc_out[b * units + c] != expected) ++mismatches;
    }
  }
  return mismatches;
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

// The shapes of FcShape's comment; each expects no mismatch with the definition.
TF_LITE_MICRO_TEST(Int8DeepPerTensorGroupRequantization) {
  // 160 blocks (20 passes of 8), 2 groups, input offset 128 (zero point -128).
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 640, 8, -128, -128, 0, 0, kTfLiteActRelu}));
}
TF_LITE_MICRO_TEST(Int8PassesAndSingleBlocks) {
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 100, 12, 127, 3, 0, 0, kTfLiteActNone}));   // 3 passes + 1
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 36, 8, -128, 0, 0, 0, kTfLiteActRelu6}));   // 1 pass + 1
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 8, 20, 5, -7, 0, 0, kTfLiteActNone}));      // 2 single blocks
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 60, 4, 127, 127, 0, 0, kTfLiteActNone}));   // 1 pass + 7
}
TF_LITE_MICRO_TEST(Int8LargeBiases) {
  // Sums beyond 2^30 (no SMMULR form) and up to the int32 limit, both offsets.
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 64, 8, -128, 0, 1, 0, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 64, 8, 127, 0, 1, 0, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 40, 8, -128, -1, 2, 0, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 42, 10, 127, 2, 2, 0, kTfLiteActNone}));    // n % 4, units % 4
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 48, 8, -128, 0, 1, 1, kTfLiteActNone}));    // per channel
}
TF_LITE_MICRO_TEST(Int8OddDepthsAndUnits) {
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 37, 10, -128, 0, 0, 0, kTfLiteActNone}));   // n % 4 == 1, 2 units alone
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 6, 7, 127, -3, 0, 0, kTfLiteActRelu}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 3, 5, 9, 1, 0, 0, kTfLiteActNone}));        // no whole block
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 1, 9, -128, 0, 0, 0, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 17, 3, -128, 0, 3, 0, kTfLiteActNone}));    // fewer units than a group
}
TF_LITE_MICRO_TEST(Int8PerChannelAndNoBias) {
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 64, 40, -128, 4, 0, 1, kTfLiteActNone}));   // two chunks of units
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 48, 12, 127, 0, 3, 0, kTfLiteActRelu}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 45, 13, -128, -9, 3, 1, kTfLiteActNone}));
}
TF_LITE_MICRO_TEST(Int8ShiftsOffTheFastPath) {
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 16, 8, -128, 0, 0, 2, kTfLiteActNone}));    // left shift
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 32, 8, 127, 0, 2, 3, kTfLiteActNone}));     // right shift 23+
}
TF_LITE_MICRO_TEST(Int8BatchesAndBeyondTheBuffer) {
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({3, 20, 8, -128, 0, 0, 0, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({3, 23, 6, 127, 0, 0, 1, kTfLiteActNone}));
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 700, 6, -128, 0, 0, 0, kTfLiteActNone}));  // > 640 inputs
  TF_LITE_MICRO_EXPECT_EQ(0, FcMismatches({1, 2100, 2, 127, 0, 2, 0, kTfLiteActNone}));
}

TF_LITE_MICRO_TESTS_END
