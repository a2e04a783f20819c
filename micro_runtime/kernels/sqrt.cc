// SQRT: y = sqrt(x), float32 (IEEE sqrtf: exactly rounded, NaN below 0). TFLM has no quantized SQRT.
#include <math.h>

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/unary_util.h"

namespace micro_runtime {

constexpr char kName[] = "SQRT";  // internal linkage (const)

TfLiteRegistration Register_SQRT() { return FloatUnaryRegistration<kName, sqrtf>(); }

}  // namespace micro_runtime
