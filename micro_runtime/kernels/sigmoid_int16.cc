// TFLM's int16 sigmoid/tanh interpolation and the int16 LOGISTIC/TANH
// kernels built on it (sigmoid_int16.h).
#include "micro_runtime/kernels/sigmoid_int16.h"

#include <math.h>

#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {
namespace {

// The knots are TFLM's table: not all of them the exactly rounded
// sigmoid(i / 24) * 65536 (44 are one above it), and bit-exact outputs need
// the same knots.
constexpr uint16_t kSigmoidKnots[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

// The rescale of an int16 input to 1 / 12288: (q * multiplier + round) >> shift.
struct Int16SigmoidOpData {
  int32_t multiplier;
  int32_t shift;
};

}  // namespace

int32_t SigmoidInt16(int32_t x) {
  const uint32_t a = static_cast<uint32_t>(x < 0 ? -x : x);
  const uint32_t index = a >> 9;
  uint32_t r = 0x7FFFu << 10;  // saturated
  if (index < 255) {
    const uint32_t lo = kSigmoidKnots[index];
    r = (lo << 9) + (a & 0x1FFu) * (kSigmoidKnots[index + 1] - lo);
  }
  // sigmoid(-x) = 1 - sigmoid(x), in 0.25 fixed point before the final shift.
  r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return static_cast<int32_t>(r >> 10);
}

int32_t TanhInt16(int32_t x) {
  const uint32_t a = static_cast<uint32_t>(x < 0 ? -x : x);
  const uint32_t index = a >> 8;
  int32_t r = 0xFFFF << 8;  // saturated
  if (index < 255) {
    const uint32_t lo = kSigmoidKnots[index];
    r = static_cast<int32_t>((lo << 8) + (a & 0xFFu) * (kSigmoidKnots[index + 1] - lo));
  }
  // 2 sigmoid - 1, negated for x < 0 (tanh is odd), rounded by the shift.
  r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return r >> 8;
}

bool NearPowerOfTwo(float x, int* log2) {
  if (!(x > 0.0f) || !(x <= 3.4028235e38f)) return false;
  int exponent = 0;
  const float mantissa = frexpf(x, &exponent);  // x = mantissa * 2^exponent, mantissa in [0.5, 1)
  // |log2(mantissa) + 1| < 1e-3 or |log2(mantissa)| < 1e-3.
  if (mantissa < 0.5003467f) {
    *log2 = exponent - 1;
    return true;
  }
  if (mantissa > 0.9993071f) {
    *log2 = exponent;
    return true;
  }
  return false;
}

namespace {

TfLiteStatus PrepareInt16(const char* op, bool tanh, TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "input", input));
  TF_LITE_ENSURE_OK(context, CheckQuantized(op, "output", output));
  int output_log2 = 0;
  if (!NearPowerOfTwo(output->params.scale, &output_log2) || output_log2 != -15) {
    MicroPrintf("%s: int16 output needs scale 2^-15 (1/32768) and zero point 0, got scale %.9f", op,
                static_cast<double>(output->params.scale));
    return kTfLiteError;
  }
  if (node->user_data == nullptr) node->user_data = AllocateOpData(op, context, sizeof(Int16SigmoidOpData));
  if (node->user_data == nullptr) return kTfLiteError;
  Int16SigmoidOpData* data = static_cast<Int16SigmoidOpData*>(node->user_data);
  const float scale = input->params.scale;
  int input_log2 = 0;
  const bool power_of_two = NearPowerOfTwo(scale, &input_log2);
  const int pot_shift = 12 + input_log2;  // 2^-12 * 3 is 1 / 12288
  if (power_of_two && (pot_shift == 0 || (tanh && pot_shift == 1))) {
    data->multiplier = 3 << pot_shift;
    data->shift = 0;
    return kTfLiteOk;
  }
  double multiplier = static_cast<double>(scale) * 4096.0 * 3.0;
  int32_t shift = 0;
  while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
    ++shift;
    multiplier *= 2.0;
  }
  if (!(multiplier <= 32767.0) || static_cast<int32_t>(multiplier) == 0) {
    MicroPrintf("%s: int16 input scale %.9f outside TFLM's range (~4e-14 to ~2.67)", op, static_cast<double>(scale));
    return kTfLiteError;
  }
  data->multiplier = static_cast<int32_t>(multiplier);  // truncated, as TFLM
  data->shift = shift;
  return kTfLiteOk;
}

TfLiteStatus EvalInt16(const char* op, bool tanh, TfLiteContext* context, TfLiteNode* node) {
  if (node->user_data == nullptr) return ReportMissingOpData(op);
  const Int16SigmoidOpData& d = *static_cast<const Int16SigmoidOpData*>(node->user_data);
  const TfLiteTensor* input = GetInput(context, node, 0);
  TfLiteTensor* output = GetOutput(context, node, 0);
  const int32_t round = d.shift > 0 ? int32_t{1} << (d.shift - 1) : 0;
  const int32_t count = ElementCount(output->dims);
  int32_t (*const f)(int32_t) = tanh ? TanhInt16 : SigmoidInt16;
  // |q * multiplier| <= 2^30 and round <= 2^30: no int32 overflow.
  for (int32_t i = 0; i < count; ++i) {
    output->data.i16[i] = static_cast<int16_t>(f((input->data.i16[i] * d.multiplier + round) >> d.shift));
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus PrepareSigmoidOp(const char* op, bool tanh, float (*f)(float), int int8_scale_denominator,
                              int32_t int8_zero_point, TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, PrepareUnary(op, context, node, kTypeFloat32 | kTypeInt8 | kTypeInt16,
                                          "float32, int8, int16"));
  if (GetInput(context, node, 0)->type == kTfLiteInt16) return PrepareInt16(op, tanh, context, node);
  return PrepareInt8TableOp(op, context, node, f, int8_scale_denominator, int8_zero_point);
}

TfLiteStatus EvalSigmoidOp(const char* op, bool tanh, float (*f)(float), TfLiteContext* context, TfLiteNode* node) {
  if (GetInput(context, node, 0)->type == kTfLiteInt16) return EvalInt16(op, tanh, context, node);
  return EvalInt8TableOp(op, context, node, f);
}

}  // namespace micro_runtime
