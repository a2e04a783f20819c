// Expected fixed-point values come from a Python big-integer transcription of
// TFLite's QuantizeMultiplier / MultiplyByQuantizedMultiplier formulas (run
// once, values pasted); the padding cases are hand-computed.
#include "micro_runtime/kernels/kernel_util.h"

#include "micro_runtime/micro_test.h"
#include "micro_runtime/testing/kernel_runner.h"
#include "micro_runtime/testing/test_helpers.h"

namespace {

void ExpectMultiplier(double real, int32_t expected_q, int expected_shift) {
  int32_t q = -1;
  int shift = -100;
  QuantizeMultiplier(real, &q, &shift);
  TF_LITE_MICRO_EXPECT_EQ(expected_q, q);
  TF_LITE_MICRO_EXPECT_EQ(expected_shift, shift);
}

int32_t Requantize(int32_t x, double real) {
  int32_t q = 0;
  int shift = 0;
  QuantizeMultiplier(real, &q, &shift);
  return MultiplyByQuantizedMultiplier(x, q, shift);
}

// Records calls so the runner's call order and memory handling are checked.
int g_init_calls = 0;
int g_free_calls = 0;
void* ProbeInit(TfLiteContext* context, const char*, size_t length) {
  ++g_init_calls;
  int32_t* data = static_cast<int32_t*>(context->AllocatePersistentBuffer(context, sizeof(int32_t)));
  if (data != nullptr) *data = static_cast<int32_t>(length);
  return data;
}
void ProbeFree(TfLiteContext*, void*) { ++g_free_calls; }
TfLiteStatus ProbePrepare(TfLiteContext* context, TfLiteNode* node) {
  int index = -1;
  TF_LITE_ENSURE_OK(context, context->RequestScratchBufferInArena(context, 100, &index));
  TF_LITE_ENSURE_EQ(context, index, 0);
  return node->user_data != nullptr ? kTfLiteOk : kTfLiteError;
}
TfLiteStatus ProbeInvoke(TfLiteContext* context, TfLiteNode* node) {
  int32_t* scratch = static_cast<int32_t*>(context->GetScratchBuffer(context, 0));
  TF_LITE_ENSURE(context, scratch != nullptr);
  TF_LITE_ENSURE(context, context->GetScratchBuffer(context, 1) == nullptr);
  TfLiteTensor* in = GetInput(context, node, 0);
  TfLiteTensor* out = GetOutput(context, node, 0);
  out->data.i32[0] = in->data.i32[0] + *static_cast<int32_t*>(node->user_data);
  return kTfLiteOk;
}

void* GreedyInit(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, KERNEL_RUNNER_ARENA_SIZE + 1);
}
TfLiteStatus GreedyPrepare(TfLiteContext*, TfLiteNode* node) {
  return node->user_data != nullptr ? kTfLiteOk : kTfLiteError;
}

}  // namespace

TF_LITE_MICRO_TESTS_BEGIN

TF_LITE_MICRO_TEST(QuantizeMultiplierMatchesTflite) {
  ExpectMultiplier(0.0, 0, 0);
  ExpectMultiplier(0.5, 1073741824, 0);
  ExpectMultiplier(1.0, 1073741824, 1);
  ExpectMultiplier(0.75, 1610612736, 0);
  ExpectMultiplier(0.1, 1717986918, -3);
  ExpectMultiplier(0.0003, 1319413953, -11);
  ExpectMultiplier(3.5, 1879048192, 2);
  // Mantissa rounds up to 2^31: carried into the exponent.
  ExpectMultiplier(1.0 - 1.0 / 1099511627776.0, 1073741824, 1);
  // Too small for a Q31 multiplier: flushed to zero.
  ExpectMultiplier(1.0 / 1099511627776.0, 0, 0);
}

TF_LITE_MICRO_TEST(MultiplyByQuantizedMultiplierRounding) {
  TF_LITE_MICRO_EXPECT_EQ(100, Requantize(1000, 0.1));
  TF_LITE_MICRO_EXPECT_EQ(-100, Requantize(-1000, 0.1));
  // TFLite rounds twice (high mul, then shift): 5 * 0.25 -> 2.5 -> 3 -> 2.
  TF_LITE_MICRO_EXPECT_EQ(2, Requantize(5, 0.25));
  TF_LITE_MICRO_EXPECT_EQ(-1, Requantize(-5, 0.25));
  TF_LITE_MICRO_EXPECT_EQ(37, Requantize(123456, 0.0003));
  TF_LITE_MICRO_EXPECT_EQ(-24, Requantize(-7, 3.5));
  TF_LITE_MICRO_EXPECT_EQ(123, Requantize(100000, 0.00123));
  TF_LITE_MICRO_EXPECT_EQ(-123, Requantize(-100000, 0.00123));
  TF_LITE_MICRO_EXPECT_EQ(INT32_MAX, SaturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN));
  TF_LITE_MICRO_EXPECT_EQ(-3, RoundingDivideByPOT(-5, 1));  // ties away from zero
  TF_LITE_MICRO_EXPECT_EQ(3, RoundingDivideByPOT(5, 1));
  TF_LITE_MICRO_EXPECT_EQ(-3, RoundingDivideByPOT(-11, 2));
}

TF_LITE_MICRO_TEST(ActivationRanges) {
  float lo = 0.0f;
  float hi = 0.0f;
  CalculateActivationRange(kTfLiteActRelu6, &lo, &hi);
  TF_LITE_MICRO_EXPECT_EQ(0.0f, lo);
  TF_LITE_MICRO_EXPECT_EQ(6.0f, hi);
  CalculateActivationRange(kTfLiteActReluN1To1, &lo, &hi);
  TF_LITE_MICRO_EXPECT_EQ(-1.0f, lo);
  TF_LITE_MICRO_EXPECT_EQ(1.0f, hi);

  const int32_t dims[] = {1, 1};
  int8_t storage[1];
  TfLiteTensor out = CreateQuantizedTensor(storage, IntArrayFromInts(dims), 0.05f, -10);
  int32_t qlo = 0;
  int32_t qhi = 0;
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActNone, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-128, qlo);
  TF_LITE_MICRO_EXPECT_EQ(127, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActRelu, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-10, qlo);
  TF_LITE_MICRO_EXPECT_EQ(127, qhi);
  // 6 / 0.05 = 120 -> 110 after the zero point.
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, CalculateActivationRangeQuantized(kTfLiteActRelu6, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-10, qlo);
  TF_LITE_MICRO_EXPECT_EQ(110, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk,
                          CalculateActivationRangeQuantized(kTfLiteActReluN1To1, &out, &qlo, &qhi));
  TF_LITE_MICRO_EXPECT_EQ(-30, qlo);
  TF_LITE_MICRO_EXPECT_EQ(10, qhi);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CalculateActivationRangeQuantized(kTfLiteActTanh, &out, &qlo, &qhi));
  float fstorage[1];
  TfLiteTensor fout = CreateTensor(fstorage, IntArrayFromInts(dims));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, CalculateActivationRangeQuantized(kTfLiteActNone, &fout, &qlo, &qhi));
}

TF_LITE_MICRO_TEST(OutputSizeAndPadding) {
  // SAME: ceil(in / stride); VALID: ceil((in - eff + 1) / stride).
  TF_LITE_MICRO_EXPECT_EQ(25, ComputeOutSize(kTfLitePaddingSame, 49, 10, 2));
  TF_LITE_MICRO_EXPECT_EQ(20, ComputeOutSize(kTfLitePaddingSame, 40, 8, 2));
  TF_LITE_MICRO_EXPECT_EQ(3, ComputeOutSize(kTfLitePaddingValid, 5, 3, 1));
  TF_LITE_MICRO_EXPECT_EQ(2, ComputeOutSize(kTfLitePaddingValid, 5, 2, 2));
  TF_LITE_MICRO_EXPECT_EQ(1, ComputeOutSize(kTfLitePaddingValid, 5, 3, 1, 2));  // eff 5
  TF_LITE_MICRO_EXPECT_EQ(0, ComputeOutSize(kTfLitePaddingValid, 2, 3, 1));
  int offset = -1;
  // micro_speech height: (25-1)*2 + 10 - 49 = 9 -> 4 before, 5 after.
  TF_LITE_MICRO_EXPECT_EQ(4, ComputePadding(2, 1, 49, 10, 25, &offset));
  TF_LITE_MICRO_EXPECT_EQ(1, offset);
  // width: (20-1)*2 + 8 - 40 = 6 -> 3.
  TF_LITE_MICRO_EXPECT_EQ(3, ComputePadding(2, 1, 40, 8, 20, &offset));
  TF_LITE_MICRO_EXPECT_EQ(0, offset);
  TF_LITE_MICRO_EXPECT_EQ(0, ComputePadding(1, 1, 5, 3, 3, &offset));
  int oh = 0;
  int ow = 0;
  // 4x4 input, 3x3 filter dilated by 2 (eff 5), SAME stride 1: total pad 4 -> 2.
  PaddingValues p = ComputePaddingHeightWidth(1, 1, 2, 2, 4, 4, 3, 3, kTfLitePaddingSame, &oh, &ow);
  TF_LITE_MICRO_EXPECT_EQ(4, oh);
  TF_LITE_MICRO_EXPECT_EQ(4, ow);
  TF_LITE_MICRO_EXPECT_EQ(2, p.height);
  TF_LITE_MICRO_EXPECT_EQ(2, p.width);
}

TF_LITE_MICRO_TEST(ShapesAndTypes) {
  const int32_t a_dims[] = {2, 2, 3};
  const int32_t b_dims[] = {2, 2, 3};
  const int32_t c_dims[] = {2, 3, 2};
  float a[6];
  float b[6];
  int8_t c[6];
  TfLiteTensor ta = CreateTensor(a, IntArrayFromInts(a_dims));
  TfLiteTensor tb = CreateTensor(b, IntArrayFromInts(b_dims));
  TfLiteTensor tc = CreateTensor(c, IntArrayFromInts(c_dims));
  TF_LITE_MICRO_EXPECT_TRUE(HaveSameShapes(&ta, &tb));
  TF_LITE_MICRO_EXPECT_FALSE(HaveSameShapes(&ta, &tc));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(24), ta.bytes);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(6), tc.bytes);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, EnsureType("TEST", "input", &ta, kTfLiteFloat32));
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, EnsureType("TEST", "input", &tc, kTfLiteFloat32));
}

TF_LITE_MICRO_TEST(TestHelpersQuantize) {
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-5), Quantize(0.25f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), Quantize(100.0f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-128), Quantize(-100.0f, 0.05f, -10));
  TF_LITE_MICRO_EXPECT_NEAR(0.25f, Dequantize(-5, 0.05f, -10), 1e-6f);
  const int32_t dims[] = {2, 2, 2};
  const float values[] = {1.0f, -0.5f, 0.25f, -2.0f};
  int8_t q[4];
  float scales[3];
  TfLiteTensor t = CreatePerChannelQuantizedTensor(values, q, IntArrayFromInts(dims), scales, 0);
  TF_LITE_MICRO_EXPECT_EQ(2, static_cast<int>(t.params.scales->size));
  TF_LITE_MICRO_EXPECT_NEAR(1.0f / 127.0f, t.params.scales->data[0], 1e-9f);
  TF_LITE_MICRO_EXPECT_NEAR(2.0f / 127.0f, t.params.scales->data[1], 1e-9f);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(127), q[0]);
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-64), q[1]);  // -63.5 rounds away from zero
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(16), q[2]);   // 15.875
  TF_LITE_MICRO_EXPECT_EQ(static_cast<int8_t>(-127), q[3]);
}

TF_LITE_MICRO_TEST(KernelRunnerDrivesAllFourCalls) {
  g_init_calls = 0;
  g_free_calls = 0;
  const int32_t dims[] = {1, 1};
  int32_t in_data[] = {40};
  int32_t out_data[] = {0};
  TfLiteTensor tensors[] = {CreateTensor(in_data, IntArrayFromInts(dims)),
                            CreateTensor(out_data, IntArrayFromInts(dims))};
  const int32_t inputs[] = {1, 0};
  const int32_t outputs[] = {1, 1};
  const TfLiteRegistration reg = {ProbeInit, ProbeFree, ProbePrepare, ProbeInvoke};
  const char custom[] = "ab";
  {
    KernelRunner runner(reg, tensors, 2, IntArrayFromInts(inputs), IntArrayFromInts(outputs),
                        nullptr, custom, 2);
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.Invoke());  // not prepared yet
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.InitAndPrepare());
    TF_LITE_MICRO_EXPECT_EQ(kTfLiteOk, runner.Invoke());
    TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(16 + 112), runner.arena_used());
  }
  TF_LITE_MICRO_EXPECT_EQ(42, static_cast<int>(out_data[0]));
  TF_LITE_MICRO_EXPECT_EQ(1, g_init_calls);
  TF_LITE_MICRO_EXPECT_EQ(1, g_free_calls);
}

TF_LITE_MICRO_TEST(KernelRunnerReportsArenaExhaustion) {
  const int32_t dims[] = {1, 1};
  int32_t data[] = {0};
  TfLiteTensor tensors[] = {CreateTensor(data, IntArrayFromInts(dims))};
  const int32_t list[] = {1, 0};
  const TfLiteRegistration reg = {GreedyInit, nullptr, GreedyPrepare, nullptr};
  KernelRunner runner(reg, tensors, 1, IntArrayFromInts(list), IntArrayFromInts(list), nullptr);
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.InitAndPrepare());
  TF_LITE_MICRO_EXPECT_EQ(static_cast<size_t>(0), runner.arena_used());
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteError, runner.Invoke());
}

TF_LITE_MICRO_TEST(BiasHelpersUseInputTimesWeightScale) {
  const int32_t dims[] = {1, 2};
  const float values[] = {1.0f, -0.3f};
  int32_t q[2];
  TfLiteTensor t = CreateQuantizedBiasTensor(values, q, IntArrayFromInts(dims), 0.5f, 0.01f);
  TF_LITE_MICRO_EXPECT_EQ(200, static_cast<int>(q[0]));   // 1 / 0.005
  TF_LITE_MICRO_EXPECT_EQ(-60, static_cast<int>(q[1]));   // -0.3 / 0.005
  TF_LITE_MICRO_EXPECT_EQ(kTfLiteInt32, t.type);
  float scales[] = {2, 0.01f, 0.1f};
  const TfLiteFloatArray* weight_scales = FloatArrayFromFloats(scales);
  CreatePerChannelQuantizedBiasTensor(values, q, IntArrayFromInts(dims), 0.5f, weight_scales);
  TF_LITE_MICRO_EXPECT_EQ(200, static_cast<int>(q[0]));  // 1 / (0.5 * 0.01)
  TF_LITE_MICRO_EXPECT_EQ(-6, static_cast<int>(q[1]));   // -0.3 / (0.5 * 0.1)
}

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

TF_LITE_MICRO_TESTS_END
