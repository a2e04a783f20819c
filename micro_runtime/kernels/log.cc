// LOG: y = ln(x), float32 (libm logf: -inf at 0, NaN below 0). TFLM has no quantized LOG.
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

constexpr char kName[] = "LOG";  // internal linkage (const)

TfLiteRegistration Register_LOG() { return FloatUnaryRegistration<kName, logf>(); }

}  // namespace micro_runtime
