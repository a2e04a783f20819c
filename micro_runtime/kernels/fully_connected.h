// FULLY_CONNECTED's op data and the int8 eval's loop, shared by
// fully_connected.cc (init, prepare, float eval) and the int8 dot products:
// fully_connected_int8.cc (portable) or a tag-specialized replacement
// (arm_dsp/fully_connected_int8.cc), like CONV_2D's conv.h.
#ifndef MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_
#define MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_

#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

// The op data is the int8 quantization only (20 bytes on 32-bit targets):
// the shapes are read from the tensors at eval, like TFLM does.
struct FullyConnectedOpData {
  Int8ChannelQuant q;  // int8 and int16 (16x8); one channel per unit
};

// The input viewed as [batches, input_size], input_size = filter dim 1.
struct FullyConnectedShape {
  int32_t batches;
  int32_t input_size;
  int32_t units;
};

// From the tensors; prepare has checked that the input's elements are a
// multiple of the filter's input size and that the output matches.
inline FullyConnectedShape FullyConnectedShapeOf(const TfLiteTensor* input, const TfLiteTensor* filter) {
  FullyConnectedShape s;
  s.units = SizeOfDimension(filter, 0);
  s.input_size = SizeOfDimension(filter, 1);
  s.batches = ElementCount(input->dims) / s.input_size;
  return s;
}

// output[b, u] = requantized sum_i (input[b, i] + input offset) * filter[u, i] + bias[u];
// quantization from prepare.
TfLiteStatus FullyConnectedEvalInt8(const Int8ChannelQuant& q, const FullyConnectedShape& shape,
                                    const int8_t* input, const int8_t* filter, const int32_t* bias,
                                    int8_t* output);

// The 16x8 eval (int16 input and output, int8 filter): fully_connected_int16.cc
// on every core (no tag replaces it).
TfLiteStatus FullyConnectedEvalInt16(const Int8ChannelQuant& q, const Int16FilterEval& e,
                                     const FullyConnectedShape& s, const int16_t* input,
                                     const int8_t* filter, int16_t* output);

namespace fully_connected {

// acc[k] += sum((in[i] + offset) * w[k * n + i]) for i < n, k < 4, each input
// byte loaded once for the four rows. Unsigned (wrapping) arithmetic: the sums
// equal the reference's int32 sums modulo 2^32 in any order.
inline void FourRowsPortable(const int8_t* in, const int8_t* w, int32_t n, int32_t offset, int32_t* acc) {
  const int8_t* w0 = w;
  const int8_t* w1 = w0 + n;
  const int8_t* w2 = w1 + n;
  const int8_t* w3 = w2 + n;
  uint32_t d0 = static_cast<uint32_t>(acc[0]), d1 = static_cast<uint32_t>(acc[1]);
  uint32_t d2 = static_cast<uint32_t>(acc[2]), d3 = static_cast<uint32_t>(acc[3]);
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t x = static_cast<uint32_t>(in[i] + offset);
    d0 += x * static_cast<uint32_t>(w0[i]);
    d1 += x * static_cast<uint32_t>(w1[i]);
    d2 += x * static_cast<uint32_t>(w2[i]);
    d3 += x * static_cast<uint32_t>(w3[i]);
  }
  acc[0] = static_cast<int32_t>(d0);
  acc[1] = static_cast<int32_t>(d1);
  acc[2] = static_cast<int32_t>(d2);
  acc[3] = static_cast<int32_t>(d3);
}

// The int8 eval: units four at a time through four(in, w, n, offset, acc)
// (acc[k] += the sum above for rows w + k * n, acc[k] starting at the bias:
// all sums wrap, so a corrupt model bias cannot overflow), the remaining
// units one at a time here; then requantization.
template <typename Four>
TfLiteStatus EvalInt8Rows(const Int8ChannelQuant& q, const FullyConnectedShape& s, const int8_t* in,
                          const int8_t* filter, const int32_t* b, int8_t* out, Four four) {
  const int32_t n = s.input_size;
  const int32_t units = s.units;
  const int32_t offset = q.input_offset;
  const Int8Requantizer requantize(q);
  for (int32_t batch = 0; batch < s.batches; ++batch) {
    const int8_t* w = filter;
    int32_t u = 0;
    for (; u + 4 <= units; u += 4) {
      int32_t acc[4] = {0, 0, 0, 0};
      if (b != nullptr) {
        for (int k = 0; k < 4; ++k) acc[k] = b[u + k];
      }
      four(in, w, n, offset, acc);
      for (int k = 0; k < 4; ++k) out[u + k] = requantize(acc[k], u + k);
      w += 4 * n;
    }
    for (; u < units; ++u) {
      uint32_t dot = 0;
      for (int32_t i = 0; i < n; ++i) dot += static_cast<uint32_t>(in[i] + offset) * static_cast<uint32_t>(w[i]);
      w += n;
      out[u] = requantize(WrappingAdd(static_cast<int32_t>(dot), b != nullptr ? b[u] : 0), u);
    }
    in += n;
    out += units;
  }
  return kTfLiteOk;
}

}  // namespace fully_connected

}  // namespace micro_runtime

#endif  // MICRO_RUNTIME_KERNELS_FULLY_CONNECTED_H_
