// ABS: y = |x|. float32, and int8/int16 like TFLite: |q - input_zero_point|,
// rescaled by input_scale / output_scale (computed in float) when the scales
// differ, plus the output zero point, saturated. int16 needs zero points 0.
#include <math.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "ABS";

struct AbsOpData {
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;
  int shift;
  bool rescale;
};

TfLiteStatus AbsPrepare(TfLiteContext* context, TfLiteNode* node) {
  void* op_data = nullptr;
  TF_LITE_ENSURE_OK(context, PrepareQuantizedUnary(kOp, context, node,
                                                                  kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                                                  "float32, int8, int16", sizeof(AbsOpData),
                                                                  &op_data));
  if (op_data == nullptr) return kTfLiteOk;  // float32
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  AbsOpData* data = static_cast<AbsOpData*>(op_data);
  data->input_zero_point = input->params.zero_point;
  data->output_zero_point = output->params.zero_point;
  data->rescale = input->params.scale != output->params.scale;
  QuantizeMultiplier(static_cast<double>(input->params.scale / output->params.scale), &data->multiplier,
                     &data->shift);
  return kTfLiteOk;
}

TfLiteStatus AbsInvoke(TfLiteContext* context, TfLiteNode* node) {
  return EvalQuantizedUnary<AbsOpData, true>(
      kOp, context, node, fabsf, [](const AbsOpData& d, int32_t q) {
        const int32_t x = q - d.input_zero_point;
        const int32_t magnitude = x < 0 ? -x : x;
        return (d.rescale ? MultiplyByQuantizedMultiplier(magnitude, d.multiplier, d.shift) : magnitude) +
               d.output_zero_point;
      });
}

}  // namespace

TfLiteRegistration Register_ABS() { return {nullptr, nullptr, AbsPrepare, AbsInvoke}; }

}  // namespace micro_runtime
