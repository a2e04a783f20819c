// AVERAGE_POOL_2D's int8 average where the core has a fast form
// (arm_dsp/pooling_int8.cc: four channels per word); the portable
// pooling_int8.cc has none, and pooling.cc's EvalPool loop does the work.
#ifndef MICRO_RUNTIME_KERNELS_POOLING_INT8_H_
#define MICRO_RUNTIME_KERNELS_POOLING_INT8_H_

#include <stdint.h>

#include "micro_runtime/kernels/padding.h"

namespace micro_runtime {

// The average of every int8 window of `g` (windows clipped to the input,
// rounded half away from zero), clamped to [act_min, act_max], into
// `output`; false (nothing written) when this core or layer has no fast form.
bool AveragePoolInt8(const WindowGeometry& g, const int8_t* input, int8_t* output, int32_t act_min,
                     int32_t act_max);

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_POOLING_INT8_H_
