// RSQRT: y = 1 / sqrt(x). float32 (1 / sqrtf), and int8 with TFLite's
// integer scheme: the zero-point corrected input's inverse square root comes
// from gemmlowp-style fixed point (five Newton-Raphson steps in Q3.28,
// GetInvSqrtQuantizedMultiplierExp, InverseSqrtMultiplier), is scaled up by 2^20 to an integer and
// rescaled by 1 / (sqrt(input_scale) * output_scale). A value at the zero
// point gives 127; one below it fails invoke, as in TFLM. Bit-exact.
#include <math.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "RSQRT";
constexpr int kIntegerShift = 20;  // keeps the inverse square root an integer

struct RsqrtOpData {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int shift;
};

TfLiteStatus RsqrtPrepare(TfLiteContext* context, TfLiteNode* node) {
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(kOp, context, node, kTypeFloat32 | kTypeInt8,
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
    MapElements<float>(input, output, [](float x) { return 1.0f / sqrtf(x); });
    return kTfLiteOk;
  }
  if (node->user_data == nullptr) return ReportMissingOpData(kOp);
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
    int32_t inverse;
    int inverse_shift;
    InverseSqrtMultiplier(x, &inverse, &inverse_shift);
    const int32_t scaled = MultiplyByQuantizedMultiplier(1, inverse, inverse_shift + kIntegerShift);
    const int32_t y = MultiplyByQuantizedMultiplier(scaled, d.multiplier, d.shift - kIntegerShift);
    output->data.int8[i] = SaturateTo<int8_t>(y + d.output_zero_point);
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_RSQRT() { return {nullptr, nullptr, RsqrtPrepare, RsqrtInvoke}; }

}  // namespace micro_runtime
