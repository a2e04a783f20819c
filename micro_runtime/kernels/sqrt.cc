// SQRT: y = sqrt(x), float32 (IEEE sqrtf: exactly rounded, NaN below 0). TFLM has no quantized SQRT.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {
constexpr char kName[] = "SQRT";
}  // namespace

TfLiteRegistration Register_SQRT() { return micro_runtime::FloatUnaryRegistration<kName, sqrtf>(); }
