// EXP: y = exp(x), float32 (libm expf). TFLM has no quantized EXP.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {
constexpr char kName[] = "EXP";
}  // namespace

TfLiteRegistration Register_EXP() { return micro_runtime::FloatUnaryRegistration<kName, expf>(); }
