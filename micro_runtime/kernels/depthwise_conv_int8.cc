// DEPTHWISE_CONV_2D int8 accumulators, portable C++ (any core); the loop is
// depthwise_conv.h's. Cores with the DSP extension use
// arm_dsp/depthwise_conv_int8.cc instead (board tag arm_dsp).
#include "micro_runtime/kernels/depthwise_conv.h"

namespace micro_runtime {

namespace {

using depthwise::Window;

// Output channels [0, 4) of a block that shares one input channel
// (depth_multiplier > 1): acc[j] += (in + offset) * filter[j]. Four at a time
// so that the accumulators, both pointers and the steps stay in registers on
// a Cortex-M3 (eight spill).
inline void AccumulateShared4(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  const int f_step = w.f_step_x;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = w.nx; x > 0; --x) {
      const int32_t v = *in + offset;
      a0 += v * f[0];
      a1 += v * f[1];
      a2 += v * f[2];
      a3 += v * f[3];
      in += w.in_step_x;
      f += f_step;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

template <int N>
inline void AccumulateShared(const Window& w, int32_t offset, int32_t* acc) {
  static_assert(N % 4 == 0, "blocks of four channels");
  Window half = w;
  for (int j = 0; j < N; j += 4, ++half.filter) {
    AccumulateShared4(half, offset, acc + j);
    half.filter += 3;
  }
}

}  // namespace

int DepthwiseInt8LayerClass(const DepthwiseOpData&, const int32_t*) { return -1; }

TfLiteStatus DepthwiseEvalInt8(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                               const int32_t* bias, int8_t* output) {
  return depthwise::EvalInt8Blocks(d, input, filter, bias, output, depthwise::AccumulateOwnPortable<depthwise::kLanes>,
                                   AccumulateShared<depthwise::kLanes>);
}

}  // namespace micro_runtime
