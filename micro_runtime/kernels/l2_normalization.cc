// L2_NORMALIZATION: each vector along the last dimension divided by its L2
// norm (1 to 6 dimensions; TFLM stops at 4). float32 like TFLite: the sum of
// squares in order, sqrtf, at least 1e-6 (TFLite's fixed epsilon), then one
// division per element. int8 (version 2) with TFLite's integer scheme: the
// zero-point corrected squares summed in int32, their inverse square root as
// a fixed-point multiplier (GetInvSqrtQuantizedMultiplierExp: a zero sum acts
// as 1), each corrected input times it into the fixed output quantization
// (scale 1/128, zero point 0), saturated. No fused activation. Vectors long
// enough to overflow the int32 sum (TFLM: undefined) are refused in prepare.
// Bit-exact.
#include <math.h>

#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "L2_NORMALIZATION";
constexpr int kOutputShift = 7;  // the int8 output scale is 2^-7

TfLiteStatus L2NormalizationPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context,
                    PrepareUnary(kOp, context, node, kTypeFloat32 | kTypeInt8, "float32, int8"));
  const auto* params = static_cast<const TfLiteL2NormParams*>(node->builtin_data);
  if (params != nullptr && params->activation != kTfLiteActNone) {
    MicroPrintf("%s: fused activation %d is not supported (TFLite takes none)", kOp,
                static_cast<int>(params->activation));
    return kTfLiteError;
  }
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckRank(kOp, "input", input, kMaxShapeDims));
  const int rank = input->dims->size;
  if (rank < 1) {
    MicroPrintf("%s: the input is a scalar; it needs a dimension to normalize along", kOp);
    return kTfLiteError;
  }
  if (input->type == kTfLiteFloat32) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, CheckInt8FixedOutput(kOp, input, output, 128, 0));
  // Every square is at most (128 + |zero point|)^2; the depth of them must fit the int32 sum.
  const int32_t zero_point = input->params.zero_point;
  const int64_t largest =
      zero_point >= 0 ? 128 + static_cast<int64_t>(zero_point) : 127 - static_cast<int64_t>(zero_point);
  const int32_t depth = input->dims->data[rank - 1];
  if (largest * largest * depth > INT32_MAX) {
    MicroPrintf("%s: %d elements per vector with input zero point %d can overflow the int32 sum of squares; at "
                "most %d are supported",
                kOp, static_cast<int>(depth), static_cast<int>(zero_point),
                static_cast<int>(INT32_MAX / (largest * largest)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus L2NormalizationInvoke(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t depth = input->dims->data[input->dims->size - 1];
  const int32_t count = ElementCount(input->dims);
  if (input->type == kTfLiteFloat32) {
    const float* in = input->data.f;
    float* out = output->data.f;
    for (int32_t start = 0; start < count; start += depth) {
      float sum = 0.0f;
      for (int32_t c = 0; c < depth; ++c) sum += in[start + c] * in[start + c];
      float norm = sqrtf(sum);
      if (norm < 1e-6f) norm = 1e-6f;  // TFLite's epsilon (std::max keeps a NaN norm)
      for (int32_t c = 0; c < depth; ++c) out[start + c] = in[start + c] / norm;
    }
    return kTfLiteOk;
  }
  const int8_t* in = input->data.int8;
  int8_t* out = output->data.int8;
  const int32_t zero_point = input->params.zero_point;
  for (int32_t start = 0; start < count; start += depth) {
    int32_t sum = 0;  // prepare bounded it
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t x = in[start + c] - zero_point;
      sum += x * x;
    }
    int32_t multiplier;
    int shift;
    InverseSqrtMultiplier(sum, &multiplier, &shift);
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t x = in[start + c] - zero_point;
      out[start + c] =
          SaturateTo<int8_t>(MultiplyByQuantizedMultiplier(x, multiplier, shift + kOutputShift));
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteRegistration Register_L2_NORMALIZATION() {
  return {nullptr, nullptr, L2NormalizationPrepare, L2NormalizationInvoke};
}

}  // namespace micro_runtime
