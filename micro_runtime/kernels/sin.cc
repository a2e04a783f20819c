// SIN: y = sin(x), float32 (libm sinf).
#include <math.h>

#include "micro_runtime/kernels/elementwise_util.h"
#include "micro_runtime/kernels/micro_ops.h"

namespace {
constexpr char kName[] = "SIN";
}  // namespace

TfLiteRegistration Register_SIN() { return micro_runtime::FloatUnaryRegistration<kName, sinf>(); }
