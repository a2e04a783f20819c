// AVERAGE_POOL_2D int8 fast form: none in portable C++ (pooling.cc's loop
// serves every core); arm_dsp/pooling_int8.cc replaces this file under the
// arm_dsp tag.
#include "micro_runtime/kernels/pooling_int8.h"

namespace micro_runtime {

bool AveragePoolInt8(const WindowGeometry&, const int8_t*, int8_t*, int32_t, int32_t) { return false; }

}  // namespace micro_runtime
