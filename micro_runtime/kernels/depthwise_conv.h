// DEPTHWISE_CONV_2D's op data and the int8 eval's channel-block loop, shared
// by depthwise_conv.cc (init, prepare, float eval) and the int8 accumulators:
// depthwise_conv_int8.cc (portable) or a tag-specialized replacement
// (arm_dsp/depthwise_conv_int8.cc), the way TFLM shares prepare between its
// reference and CMSIS-NN kernels.
//
// Speed: for each output pixel the valid filter rows/columns are computed
// once (no per-tap bounds test), and a block of kDepthwiseLanes output
// channels is accumulated together in registers so the innermost loop is a
// contiguous multiply-add over channels. With depth_multiplier > 1 one input
// value feeds a run of M adjacent filter values (micro_speech: 1 x 8).
#ifndef MICRO_RUNTIME_KERNELS_DEPTHWISE_CONV_H_
#define MICRO_RUNTIME_KERNELS_DEPTHWISE_CONV_H_

#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

struct DepthwiseOpData {
  WindowGeometry g;
#if MICRO_RUNTIME_LAYER_CLASS
  int16_t mult;        // depth multiplier (prepare refuses one beyond int16)
  int8_t int8_class;   // DepthwiseInt8LayerClass's, from prepare; -1: the int8 eval finds what it needs per Invoke
#else
  int32_t mult;
#endif
  Int8ChannelQuant q;  // int8, and the multipliers and shifts of int16 (16x8)
};

// The int8 eval's class of the layer (a kernel's own figure of which path and requantization it takes, which
// depends only on the prepared op data and the bias), made once in prepare when the bias is constant or absent;
// -1 where the eval has none to cache.
int DepthwiseInt8LayerClass(const DepthwiseOpData& d, const int32_t* bias);

// The 16x8 eval (int16 input and output, int8 filter, int64 bias):
// depthwise_conv_int16.cc on every core (no tag replaces it).
TfLiteStatus DepthwiseEvalInt16(const DepthwiseOpData& d, const Int16FilterEval& e, const int16_t* input,
                                const int8_t* filter, int16_t* output);

TfLiteStatus DepthwiseEvalInt8(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                               const int32_t* bias, int8_t* output);

namespace depthwise {

constexpr int kLanes = 8;

// The valid taps of one output pixel: `ny` x `nx` taps starting at `in` /
// `filter`, with the byte steps between taps along y and x.
struct Window {
  const int8_t* in;
  const int8_t* filter;
  int ny, nx;
  int in_step_y, in_step_x;
  int f_step_y, f_step_x;
};

// Leftover channels (fewer than a full block), one at a time.
inline void AccumulateRest(const Window& w, int32_t offset, bool shared, int n, int32_t* acc) {
  for (int j = 0; j < n; ++j) {
    int32_t a = acc[j];
    const int8_t* in_row = w.in + (shared ? 0 : j);
    const int8_t* f_row = w.filter + j;
    for (int y = 0; y < w.ny; ++y) {
      for (int x = 0; x < w.nx; ++x) a += (in_row[x * w.in_step_x] + offset) * f_row[x * w.f_step_x];
      in_row += w.in_step_y;
      f_row += w.f_step_y;
    }
    acc[j] = a;
  }
}

// N output channels, each reading its own input channel (multiplier 1), in
// portable C++: the portable kernel's and the Cortex-M3 kernel's loop (the
// DSP kernel has its own).
template <int N>
inline void AccumulateOwnPortable(const Window& w, int32_t offset, int32_t* acc) {
  int32_t a[N];
  for (int j = 0; j < N; ++j) a[j] = acc[j];
  const int8_t* in_row = w.in;
  const int8_t* f_row = w.filter;
  for (int y = 0; y < w.ny; ++y) {
    const int8_t* in = in_row;
    const int8_t* f = f_row;
    for (int x = 0; x < w.nx; ++x) {
#pragma GCC unroll 16
      for (int j = 0; j < N; ++j) a[j] += (in[j] + offset) * f[j];
      in += w.in_step_x;
      f += w.f_step_x;
    }
    in_row += w.in_step_y;
    f_row += w.f_step_y;
  }
  for (int j = 0; j < N; ++j) acc[j] = a[j];
}

// The int8 eval: for every output pixel and block of kLanes channels,
// own(w, offset, acc) (multiplier 1: each channel its own input channel) or
// shared(w, offset, acc) (multiplier > 1: the block shares one input value)
// accumulates (in + offset) * filter over the window; then the bias (wrapping:
// a corrupt model bias must not overflow) and requantization.
template <typename Own, typename Shared>
TfLiteStatus EvalInt8Blocks(const DepthwiseOpData& d, const int8_t* input, const int8_t* filter,
                            const int32_t* bias, int8_t* output, Own own, Shared shared) {
  const WindowGeometry& g = d.g;
  const int in_ch = g.in_ch;
  const int out_ch = g.out_ch;
  const int mult = d.mult;
  const int32_t input_offset = d.q.input_offset;
  const int f_row_stride = g.filter_w * out_ch;
  Window w;
  w.in_step_y = g.dilation_h * g.in_w * in_ch;
  w.in_step_x = g.dilation_w * in_ch;
  w.f_step_y = f_row_stride;
  w.f_step_x = out_ch;
  int32_t acc[kLanes];
  const Int8Requantizer requantize(d.q);
  // Channel blocks: [c0, c0 + n) of the output, all within one input channel when mult > 1.
  const int groups = mult == 1 ? 1 : in_ch;
  const int span = mult == 1 ? out_ch : mult;
  ForEachOutputPixel(g, [&](const WindowPos& p) {
    w.ny = p.ny;
    w.nx = p.nx;
    const int8_t* in_px = input + p.in_offset;
    const int8_t* f_px = filter + p.fy0 * f_row_stride + p.fx0 * out_ch;
    for (int gr = 0; gr < groups; ++gr) {
      for (int m0 = 0; m0 < span; m0 += kLanes) {
        const int n = span - m0 < kLanes ? span - m0 : kLanes;
        const int c0 = gr * mult + m0;
        for (int j = 0; j < n; ++j) acc[j] = 0;
        w.filter = f_px + c0;
        w.in = mult == 1 ? in_px + c0 : in_px + gr;
        if (n < kLanes) {
          AccumulateRest(w, input_offset, mult != 1, n, acc);
        } else if (mult == 1) {
          own(w, input_offset, acc);
        } else {
          shared(w, input_offset, acc);
        }
        for (int j = 0; j < n; ++j) {
          if (bias != nullptr) acc[j] = WrappingAdd(acc[j], bias[c0 + j]);
          output[c0 + j] = requantize(acc[j], c0 + j);
        }
      }
    }
    output += out_ch;
  });
  return kTfLiteOk;
}

}  // namespace depthwise

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_DEPTHWISE_CONV_H_
