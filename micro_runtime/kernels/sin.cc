// SIN: y = sin(x), float32 (libm sinf).
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

constexpr char kName[] = "SIN";  // internal linkage (const)

TfLiteRegistration Register_SIN() { return FloatUnaryRegistration<kName, sinf>(); }

}  // namespace micro_runtime
