// RSQRT: y = 1 / sqrt(x). float32 (1 / sqrtf), and int8 with TFLite's
// integer scheme: the zero-point corrected input's inverse square root comes
// from gemmlowp-style fixed point (five Newton-Raphson steps in Q3.28,
// GetInvSqrtQuantizedMultiplierExp), is scaled up by 2^20 to an integer and
// rescaled by 1 / (sqrt(input_scale) * output_scale). A value at the zero
// point gives 127; one below it fails invoke, as in TFLM. Bit-exact.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {

constexpr const char* kOp = "RSQRT";
constexpr int kIntegerShift = 20;  // keeps the inverse square root an integer

struct RsqrtOpData {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int shift;
};

int32_t Mul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// 1 / sqrt(x) for x >= 2 as multiplier * 2^shift (multiplier Q0.31).
void InverseSqrt(int32_t x, int32_t* multiplier, int* shift) {
  // Normalize x by a power of four to [2^27, 2^29): then as Q3.28 (after
  // the halving below) it lies in [1/4, 1).
  const int pairs = (__builtin_clz(static_cast<uint32_t>(x)) - 1) / 2 - 1;
  int exponent = 11 - pairs;
  x = static_cast<int32_t>(static_cast<uint32_t>(x) << (2 * pairs));
  const int32_t half_input = RoundingDivideByPOT(x >> 1, 1);  // Q3.28
  constexpr int32_t kThreeHalves = (int32_t{1} << 28) + (int32_t{1} << 27);
  int32_t y = int32_t{1} << 28;  // 1.0 in Q3.28
  for (int i = 0; i < 5; ++i) {  // y = 3/2 y - x/2 y^3
    const int32_t y3 = micro_runtime::SaturatingShiftLeft(Mul(Mul(y, y), y), 6);  // Q9 -> Q3
    y = micro_runtime::SaturatingShiftLeft(WrappingAdd(Mul(kThreeHalves, y), -Mul(half_input, y3)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0.31
  y = Mul(y, kHalfSqrt2);
  if (exponent < 0) {
    y = static_cast<int32_t>(static_cast<uint32_t>(y) << -exponent);
    exponent = 0;
  }
  *multiplier = y;
  *shift = -exponent;
}

TfLiteStatus RsqrtPrepare(TfLiteContext* context, TfLiteNode* node) {
  using micro_runtime::kTypeFloat32;
  using micro_runtime::kTypeInt8;
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, micro_runtime::PrepareQuantizedUnary(kOp, context, node, kTypeFloat32 | kTypeInt8,
                                                                  "float32, int8", sizeof(RsqrtOpData), &op_data));
  if (op_data == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  RsqrtOpData* data = static_cast<RsqrtOpData*>(op_data);
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  const float denominator = sqrtf(input->params.scale) * output->params.scale;
  QuantizeMultiplier(1.0 / static_cast<double>(denominator), &data->multiplier, &data->shift);
  // The rescale shifts right by kIntegerShift - shift, at most 31 bits.
  if (data->shift - kIntegerShift < -31) {
    MicroPrintf("%s: output scale %f is too large for input scale %f", kOp,
                static_cast<double>(output->params.scale), static_cast<double>(input->params.scale));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus RsqrtInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (input->type == kTfLiteFloat32) {
    micro_runtime::MapElements<float>(input, output, [](float x) { return 1.0f / sqrtf(x); });
    return kTfLiteOk;
  }
  if (node->user_data == nullptr) return micro_runtime::ReportMissingOpData(kOp);
  const RsqrtOpData& d = *static_cast<const RsqrtOpData*>(node->user_data);
  const int32_t count = ElementCount(output->dims);
  for (int32_t i = 0; i < count; ++i) {
    const int32_t x = input->data.int8[i] - d.input_zero_point;
    if (x < 0) {
      MicroPrintf("%s: element %d is %d, below the input zero point %d: rsqrt of a negative value", kOp,
                  static_cast<int>(i), static_cast<int>(input->data.int8[i]), static_cast<int>(d.input_zero_point));
      return kTfLiteError;
    }
    if (x == 0) {  // the largest output stands for 1 / sqrt(0)
      output->data.int8[i] = 127;
      continue;
    }
    int32_t inverse = INT32_MAX;  // 1 / sqrt(1)
    int inverse_shift = 0;
    if (x > 1) InverseSqrt(x, &inverse, &inverse_shift);
    const int32_t scaled = MultiplyByQuantizedMultiplier(1, inverse, inverse_shift + kIntegerShift);
    const int32_t y = MultiplyByQuantizedMultiplier(scaled, d.multiplier, d.shift - kIntegerShift);
    output->data.int8[i] = micro_runtime::SaturateTo<int8_t>(y + d.output_zero_point);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_RSQRT() { return {nullptr, nullptr, RsqrtPrepare, RsqrtInvoke}; }
