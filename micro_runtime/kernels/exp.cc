// EXP: y = exp(x), float32 (libm expf). TFLM has no quantized EXP.
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

constexpr char kName[] = "EXP";  // internal linkage (const)

TfLiteRegistration Register_EXP() { return FloatUnaryRegistration<kName, expf>(); }

}  // namespace micro_runtime
