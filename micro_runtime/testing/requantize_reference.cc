// RequantizeInt8Reference (test_helpers.h): the kernel tests' reference requantization, in a file of its
// own so binaries that do not use it link nothing of it.
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/testing/test_helpers.h"

int8_t RequantizeInt8Reference(int32_t acc, double real_multiplier, int32_t output_zero_point) {
  int32_t multiplier = 0;
  int shift = 0;
  micro_runtime::QuantizeMultiplier(real_multiplier, &multiplier, &shift);
  const int32_t v = micro_runtime::MultiplyByQuantizedMultiplier(acc, multiplier, shift) + output_zero_point;
  return static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
}
