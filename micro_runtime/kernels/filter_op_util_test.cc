// The filter ops' shared prepare checks and requantization.
#include "micro_runtime/kernels/filter_op_util.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

using namespace micro_runtime;

TF_LITE_MICRO_TESTS_BEGIN

// Int8Requantizer's fast path (right shift folded with the zero point,
// saturating add) gives RequantizeToInt8's outputs, including accumulators
// near the int32 limits, ties, every fast shift and activation ranges.
TF_LITE_MICRO_TEST(Int8RequantizerFastPathMatchesReference) {
  int32_t multipliers[kMaxFastRightShift];
  int8_t shifts[kMaxFastRightShift];
  uint32_t seed = 12345u;
  for (int c = 0; c < kMaxFastRightShift; ++c) {
    seed = seed * 1664525u + 1013904223u;
    multipliers[c] = static_cast<int32_t>((1u << 30) | (seed >> 2));
    shifts[c] = static_cast<int8_t>(-(c + 1));
  }
  const int32_t zero_points[] = {-128, -5, 0, 17, 127};
  const int32_t ranges[][2] = {{-128, 127}, {0, 127}, {-128, -100}, {3, 60}};
  const int32_t specials[] = {0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1,
                              1 << 20, -(1 << 20), 12345678, -12345678};
  int mismatches = 0;
  for (int32_t zp : zero_points) {
    for (const auto& range : ranges) {
      Int8ChannelQuant q{};
      q.output_offset = static_cast<int16_t>(zp);
      q.act_min = static_cast<int8_t>(range[0]);
      q.act_max = static_cast<int8_t>(range[1]);
      q.multipliers = multipliers;
      q.shifts = shifts;
      q.flags = Int8ChannelQuant::kPerChannel | Int8ChannelQuant::kFastRequantize;
      const Int8Requantizer requantize(q);
      for (int c = 0; c < kMaxFastRightShift; ++c) {
        for (int i = 0; i < 400; ++i) {
          int32_t acc;
          if (i < 11) {
            acc = specials[i];
          } else if (i < 40) {
            // Ties and near-ties of the final rounding: x = k * 2^r + 2^(r-1) +- 1.
            acc = static_cast<int32_t>((i - 25) * (int32_t{1} << (c + 1)) + (i % 3) - 1);
          } else {
            seed = seed * 1664525u + 1013904223u;
            acc = static_cast<int32_t>(seed) >> (i % 12);
          }
          if (requantize(acc, c) != RequantizeToInt8(q, acc, c)) ++mismatches;
        }
      }
    }
  }
  TF_LITE_MICRO_EXPECT_EQ(0, mismatches);
}

TF_LITE_MICRO_TEST(FilterOpTypesAndHybridModels) {
  const int32_t dims[] = {2, 2, 3};
  const int32_t bias_dims[] = {1, 2};
  float f_in[6];
  float f_filter[6];
  float f_bias[2];
  int8_t q_filter[6];
  int8_t q_in[6];
  TfLiteTensor input = CreateTensor(f_in, IntArrayFromInts(dims));
  TfLiteTensor filter = CreateTensor(f_filter, IntArrayFromInts(dims));
  TfLiteTensor bias = CreateTensor(f_bias, IntArrayFromInts(bias_dims));
  TfLiteTensor output = CreateTensor(f_in, IntArrayFromInts(dims));
  TfLiteTensor hybrid = CreateTensor(q_filter, IntArrayFromInts(dims));
  TfLiteTensor q_input = CreateTensor(q_in, IntArrayFromInts(dims));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckFilterOpTypes("TEST", &input, &filter, &bias, &output, 2, "unit"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckFilterOpTypes("TEST", &input, &filter, &bias, &output, 3, "unit"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckFilterOpTypes("TEST", &input, &hybrid, &bias, &output, 2, "unit"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckNotHybrid("TEST", "filter", &hybrid));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, EnsureType("TEST", "input", &input, kTfLiteFloat32));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, EnsureType("TEST", "input", &q_input, kTfLiteFloat32));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckNotHybrid("TEST", "filter", &filter));
  // int8 input with a float output, or a float filter: refused.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckFilterOpTypes("TEST", &q_input, &hybrid, nullptr, &output, 2, "unit"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckFilterOpTypes("TEST", &q_input, &filter, nullptr, &q_input, 2, "unit"));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckFilterOpTypes("TEST", &q_input, &hybrid, nullptr, &q_input, 2, "unit"));
}

// Per-tensor filter: input 0.5 x filter 0.25 / output 0.125 = 1.0, so the
// requantized value is the accumulator plus the output zero point, clamped.
TF_LITE_MICRO_TEST(Int8ChannelQuantPerTensor) {
  const int32_t dims[] = {2, 2, 2};
  int8_t in[4];
  int8_t w[4] = {1, -2, 3, -4};
  int8_t out[4];
  TfLiteTensor input = CreateQuantizedTensor(in, IntArrayFromInts(dims), 0.5f, 3);
  TfLiteTensor filter = CreateQuantizedTensor(w, IntArrayFromInts(dims), 0.25f, 0);
  filter.is_constant = true;
  TfLiteTensor output = CreateQuantizedTensor(out, IntArrayFromInts(dims), 0.125f, -1);
  const int32_t list[] = {1, 0};
  const TfLiteRegistration reg = {nullptr, nullptr, nullptr, nullptr};
  TfLiteTensor tensors[] = {input};
  KernelRunner runner(reg, tensors, 1, IntArrayFromInts(list), IntArrayFromInts(list), nullptr);
  Int8ChannelQuant q{};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, nullptr,
                                                             &output, kTfLiteActRelu, 2, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_FALSE(q.per_channel());
  TF_LITE_MICRO_EXPECT_EQ(-3, static_cast<int>(q.input_offset));
  TF_LITE_MICRO_EXPECT_EQ(-1, static_cast<int>(q.act_min));  // RELU: the zero point
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(9), RequantizeToInt8(q, 10, 0));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-1), RequantizeToInt8(q, -10, 1));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), RequantizeToInt8(q, 1000, 1));
  const Int8Requantizer requantize(q);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(9), requantize(10, 0));
  // A nonzero filter zero point is refused.
  filter.params.zero_point = 1;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, nullptr,
                                                                &output, kTfLiteActNone, 2, 0, 0u, &q));
}

// The accumulator check: |bias| + 128 * sum|w| must stay within int32.
TF_LITE_MICRO_TEST(AccumulatorRangeRefusesOverflow) {
  const int32_t dims[] = {2, 1, 2};
  const int32_t bias_dims[] = {1, 1};
  int8_t in[2];
  int8_t w[2] = {127, -127};
  int32_t b[1] = {INT32_MAX - 100};
  TfLiteTensor input = CreateQuantizedTensor(in, IntArrayFromInts(dims), 0.5f, 0);
  TfLiteTensor filter = CreateQuantizedTensor(w, IntArrayFromInts(dims), 0.25f, 0);
  filter.is_constant = true;
  TfLiteTensor bias = CreateTensor(b, IntArrayFromInts(bias_dims), true);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckAccumulatorRange("TEST", &input, &filter, &bias, 1, 0, false));
  b[0] = 1000;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckAccumulatorRange("TEST", &input, &filter, &bias, 1, 0, false));
  // A variable bias is checked at invoke with its values.
  bias.is_constant = false;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CheckVariableBiasRange("TEST", &input, &filter, &bias, 1, 0));
  b[0] = INT32_MAX - 100;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CheckVariableBiasRange("TEST", &input, &filter, &bias, 1, 0));
}

// 16x8: an int64 bias accumulates in 64 bits (MultiplyByQuantizedMultiplierInt64),
// an int32 one in 32 bits, then the int16 activation clamp.
TF_LITE_MICRO_TEST(RequantizeInt16ByBiasType) {
  const int32_t dims[] = {1, 2};
  int16_t out[2];
  int64_t b64[2] = {100, -100};
  int32_t b32[2] = {100, -100};
  TfLiteTensor output = CreateQuantizedTensor(out, IntArrayFromInts(dims), 1.0f, 0);
  TfLiteTensor bias64 = CreateTensor(b64, IntArrayFromInts(dims));
  TfLiteTensor bias32 = CreateTensor(b32, IntArrayFromInts(dims));
  Int8ChannelQuant q{};
  q.multiplier = 1 << 30;  // 0.5
  q.shift = 0;
  Int16FilterEval e;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt16FilterEval(&bias64, &output, kTfLiteActNone, &e));
  TF_LITE_MICRO_EXPECT_FALSE(e.int32_accumulator);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(150), RequantizeInt16(q, e, 200, 0));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(32767), RequantizeInt16(q, e, uint64_t{1} << 20, 0));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt16FilterEval(&bias32, &output, kTfLiteActRelu, &e));
  TF_LITE_MICRO_EXPECT_TRUE(e.int32_accumulator);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(0), RequantizeInt16(q, e, static_cast<uint64_t>(-200), 1));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int16_t>(50), RequantizeInt16(q, e, 200, 1));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt16FilterEval(nullptr, &output, kTfLiteActNone, &e, kTfLiteInt32));
  TF_LITE_MICRO_EXPECT_TRUE(e.int32_accumulator);
}

#if MICRO_RUNTIME_CONSTANT_CHANNELS
// DSP cores: prepare marks the channels whose accumulators reach 2^30 yet whose
// output is one value for any input, and gives the exact reach of the others.
// Input zero point -128: an input minus it lies in [0, 255]; every channel's
// weights {100, -50, 20, 0} reach bias - 12750 up to bias + 30600.
TF_LITE_MICRO_TEST(ConstantChannelsAndExactReach) {
  const int32_t in_dims[] = {2, 1, 4};
  const int32_t f_dims[] = {2, 5, 4};
  const int32_t b_dims[] = {1, 5};
  const int32_t out_dims[] = {2, 1, 5};
  int8_t in[4];
  int8_t w[20];
  for (int c = 0; c < 5; ++c) {
    w[4 * c] = 100;
    w[4 * c + 1] = -50;
    w[4 * c + 2] = 20;
    w[4 * c + 3] = 0;
  }
  int8_t out[5];
  const int32_t big = (int32_t{1} << 30) + 128;
  // 0: +2^30 at a ratio of 6e-10 (zp + 0.64: zp + 1 throughout); 1: its negative (zp - 1); 2: a ratio
  // that puts zp + 2.5 inside the range (depends on the input); 3: ordinary; 4: +2^30 - 12750 whose
  // range just reaches 2^30 and rounds to zp + 1 at both ends (a ratio of 1e-9: 1.0737 + 0.00003).
  int32_t b[5] = {big, -big, big, 1000, (int32_t{1} << 30) - 12750};
  // Filter scales: ratio * 8 (input 0.05, output 0.4); g[0] is the count.
  float scales[6] = {5.0f, 8 * 6e-10f, 8 * 6e-10f, 8 * 2.5f / 1073741952.0f, 8 * 0.01f, 8 * 1e-9f};
  TfLiteTensor input = CreateQuantizedTensor(in, IntArrayFromInts(in_dims), 0.05f, -128);
  TfLiteTensor filter = CreatePerChannelQuantizedTensor(w, IntArrayFromInts(f_dims), FloatArrayFromFloats(scales), 0);
  filter.is_constant = true;
  TfLiteTensor bias = CreateTensor(b, IntArrayFromInts(b_dims), true);
  TfLiteTensor output = CreateQuantizedTensor(out, IntArrayFromInts(out_dims), 0.4f, 5);
  const int32_t list[] = {1, 0};
  const TfLiteRegistration reg = {nullptr, nullptr, nullptr, nullptr};
  TfLiteTensor tensors[] = {input};
  KernelRunner runner(reg, tensors, 1, IntArrayFromInts(list), IntArrayFromInts(list), nullptr);
  Int8ChannelQuant q{};
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, &bias,
                                                             &output, kTfLiteActNone, 5, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_TRUE(q.constant(0));
  TF_LITE_MICRO_EXPECT_EQ(6, static_cast<int>(q.constant_value(0)));
  TF_LITE_MICRO_EXPECT_TRUE(q.constant(1));
  TF_LITE_MICRO_EXPECT_EQ(4, static_cast<int>(q.constant_value(1)));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(2));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(3));
  TF_LITE_MICRO_EXPECT_TRUE(q.constant(4));
  TF_LITE_MICRO_EXPECT_EQ(6, static_cast<int>(q.constant_value(4)));
  // Each constant value is the reference requantization at both ends of its channel's range.
  const int constant_channels[] = {0, 1, 4};
  for (int c : constant_channels) {
    TF_LITE_MICRO_EXPECT_EQ(q.constant_value(c), RequantizeToInt8(q, b[c] - 12750, c));
    TF_LITE_MICRO_EXPECT_EQ(q.constant_value(c), RequantizeToInt8(q, b[c] + 30600, c));
  }
  TF_LITE_MICRO_EXPECT_EQ(big + 30600, q.reach());  // channel 2's: the constant ones left out
  // Channel 4 a little further up: its range straddles zp + 1.5 (1.0737 * 1.397 = 1.5): no longer constant.
  b[4] = 1500000000;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, &bias,
                                                             &output, kTfLiteActNone, 5, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(4));
  TF_LITE_MICRO_EXPECT_EQ(1500000000 + 30600, q.reach());
  // No constant channel, and the kernels' own bound (largest |bias| + 4 taps * 255 * 128) below 2^30: no
  // facts kept (nothing to gain, no persistent bytes).
  const int32_t small_biases[5] = {1000, -1000, 5, 0, 77};
  for (int c = 0; c < 5; ++c) b[c] = small_biases[c];
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, &bias,
                                                             &output, kTfLiteActNone, 5, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(0));
  TF_LITE_MICRO_EXPECT_EQ(-1, q.reach());
  // A bias whose own bound passes 2^30 (2^30 - 100000 + 130,560) but whose exact range does not
  // (2^30 - 100000 + 30600): the facts keep the exact reach, without a table.
  b[3] = (int32_t{1} << 30) - 100000;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, &bias,
                                                             &output, kTfLiteActNone, 5, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(3));
  TF_LITE_MICRO_EXPECT_EQ((int32_t{1} << 30) - 100000 + 30600, q.reach());
  // Weights not constant: nothing known.
  filter.is_constant = false;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, PrepareInt8ChannelQuant("TEST", runner.context(), &input, &filter, &bias,
                                                             &output, kTfLiteActNone, 5, 0, 0u, &q));
  TF_LITE_MICRO_EXPECT_FALSE(q.constant(0));
  TF_LITE_MICRO_EXPECT_EQ(-1, q.reach());
}
#endif

TF_LITE_MICRO_TESTS_END
