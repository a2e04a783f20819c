// LOG: y = ln(x), float32 (libm logf: -inf at 0, NaN below 0). TFLM has no quantized LOG.
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {
constexpr char kName[] = "LOG";
}  // namespace

TfLiteRegistration Register_LOG() { return micro_runtime::FloatUnaryRegistration<kName, logf>(); }
