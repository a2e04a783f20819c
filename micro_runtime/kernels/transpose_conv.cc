// TRANSPOSE_CONV: the transpose (gradient) of CONV_2D. Every input pixel
// spreads input * filter over a filter-sized window of the output, placed at
// (y * stride - pad, x * stride - pad):
//   output[b, oy, ox, oc] = act(bias[oc] + sum of input[b, iy, ix, ic] * filter[oc, fy, fx, ic]
//                           over iy * stride_h + fy = oy + pad_h, ix * stride_w + fx = ox + pad_w)
//   inputs: 0 output_shape (int32 [4]: the output's shape), 1 filter [OC, FH, FW, IC],
//           2 input [N, H, W, IC], 3 bias [OC] (optional: absent, or index -1)
//   output  [N, OH, OW, OC]
// The padding is CONV_2D's for a convolution from the output's size down to
// the input's (TFLM's ComputePaddingHeightWidth on the output height and
// width). float32; int8 with per-channel or per-tensor filter scales and an
// int32 bias; int16 activations with int8 weights (16x8) and an int64 bias.
// Prepare is CONV_2D's (conv.h: the requantization and its checks), and so is
// the op data (ConvOpData: the geometry with in_* the input's size).
//
// TFLM scatters every input pixel into an accumulator array the size of the
// output (int32, or int64 for 16x8) and requantizes it afterwards. This
// kernel gathers instead: each output value sums the input pixels whose
// window covers it, the same products added in the same order (input row,
// column, then channel), so float32 results are bit-identical and the
// integer sums equal (in 32 or 64 bits, modulo 2^n, as TFLM's on every target
// it runs on) with no accumulator array in the arena.
#include "micro_runtime/builtin_options.h"
#include "micro_runtime/kernels/conv.h"
#include "micro_runtime/kernels/conv_common.h"
#include "micro_runtime/kernels/filter_op_util.h"
#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/kernels/padding.h"
#include "micro_runtime/kernels/quantization_util.h"

namespace micro_runtime {

namespace {

constexpr const char* kOp = "TRANSPOSE_CONV";
constexpr int kOutputShape = 0;
constexpr int kFilter = 1;
constexpr int kInput = 2;
constexpr int kBias = 3;

using OpData = ConvOpData;

void* Init(TfLiteContext* context, const char*, size_t) {
  return context->AllocatePersistentBuffer(context, sizeof(OpData));
}

const TfLiteTensor* OptionalBias(TfLiteContext* context, const TfLiteNode* node) {
  return NumInputs(node) == 4 ? GetInput(context, node, kBias) : nullptr;  // nullptr for index -1
}

// The output_shape input must name the output tensor's shape (TFLM ignores
// it and uses the output tensor; a different one means a broken model).
TfLiteStatus CheckOutputShapeValues(const TfLiteTensor* shape, const TfLiteTensor* output) {
  const int32_t* v = shape->data.i32;
  for (int i = 0; i < 4; ++i) {
    if (v[i] != SizeOfDimension(output, i)) {
      MicroPrintf("%s: output_shape input is [%d, %d, %d, %d] but the output tensor is [%d, %d, %d, %d]", kOp,
                  static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]), static_cast<int>(v[3]),
                  static_cast<int>(SizeOfDimension(output, 0)), static_cast<int>(SizeOfDimension(output, 1)),
                  static_cast<int>(SizeOfDimension(output, 2)), static_cast<int>(SizeOfDimension(output, 3)));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, CheckOpDataAndOptions(kOp, node));
  OpData* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  if (NumInputs(node) < 3 || NumInputs(node) > 4 || NumOutputs(node) != 1) {
    MicroPrintf("%s: expects 3-4 inputs (output_shape, filter, input, optional bias) and 1 output, got %d and %d",
                kOp, NumInputs(node), NumOutputs(node));
    return kTfLiteError;
  }
  const TfLiteTensor* shape = GetInput(context, node, kOutputShape);
  const TfLiteTensor* filter = GetInput(context, node, kFilter);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* bias = OptionalBias(context, node);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (shape == nullptr || filter == nullptr || input == nullptr || output == nullptr) {
    MicroPrintf("%s: output_shape, filter, input and output are required", kOp);
    return kTfLiteError;
  }
  if (NumDimensions(input) != 4 || NumDimensions(filter) != 4 || NumDimensions(output) != 4) {
    MicroPrintf("%s: input, filter and output must be 4-D (NHWC / OHWI), got ranks %d, %d, %d", kOp,
                NumDimensions(input), NumDimensions(filter), NumDimensions(output));
    return kTfLiteError;
  }
  if (shape->type != kTfLiteInt32 || NumDimensions(shape) != 1 || SizeOfDimension(shape, 0) != 4) {
    MicroPrintf("%s: output_shape must be an int32 vector of 4 values, got %s with %d elements", kOp,
                TfLiteTypeName(shape->type), static_cast<int>(ElementCount(shape->dims)));
    return kTfLiteError;
  }
  // A constant output_shape is checked now; one computed by the graph (or a
  // model input, as in TFLM's SEANet models) at every Invoke.
  if (shape->is_constant) TF_LITE_ENSURE_OK(context, CheckOutputShapeValues(shape, output));
  if (params->stride_height <= 0 || params->stride_width <= 0) {
    MicroPrintf("%s: strides (%d, %d) must be >= 1", kOp, static_cast<int>(params->stride_height),
                static_cast<int>(params->stride_width));
    return kTfLiteError;
  }
  WindowGeometry& g = data->g;
  g.batches = SizeOfDimension(input, 0);
  g.in_h = SizeOfDimension(input, 1);
  g.in_w = SizeOfDimension(input, 2);
  g.in_ch = SizeOfDimension(input, 3);
  g.out_h = SizeOfDimension(output, 1);
  g.out_w = SizeOfDimension(output, 2);
  g.out_ch = SizeOfDimension(filter, 0);
  g.filter_h = SizeOfDimension(filter, 1);
  g.filter_w = SizeOfDimension(filter, 2);
  g.stride_h = params->stride_height;
  g.stride_w = params->stride_width;
  g.dilation_h = 1;
  g.dilation_w = 1;
  if (SizeOfDimension(filter, 3) != g.in_ch || SizeOfDimension(output, 0) != g.batches ||
      SizeOfDimension(output, 3) != g.out_ch) {
    MicroPrintf("%s: filter [%d, %d, %d, %d] does not fit input channels %d and output [%d, x, x, %d] with %d "
                "batches",
                kOp, static_cast<int>(g.out_ch), static_cast<int>(g.filter_h), static_cast<int>(g.filter_w),
                static_cast<int>(SizeOfDimension(filter, 3)), static_cast<int>(g.in_ch),
                static_cast<int>(SizeOfDimension(output, 0)), static_cast<int>(SizeOfDimension(output, 3)),
                static_cast<int>(g.batches));
    return kTfLiteError;
  }
  // The padding of a convolution from the output's size to the input's.
  int unused_h = 0;
  int unused_w = 0;
  const PaddingValues pad = ComputePaddingHeightWidth(g.stride_h, g.stride_w, 1, 1, g.out_h, g.out_w, g.filter_h,
                                                      g.filter_w, params->padding, &unused_h, &unused_w);
  g.pad_h = pad.height;
  g.pad_w = pad.width;
  // 16x8: an int64 bias. TFLM reads any other 16x8 bias as int64 (an int32
  // one past its end); it converts an int16 one, which no converter writes.
  if (input->type == kTfLiteInt16 && bias != nullptr && bias->type != kTfLiteInt64) {
    MicroPrintf("%s: bias of a 16x8 (int16 activation) op must be int64, got %s", kOp, TfLiteTypeName(bias->type));
    return kTfLiteError;
  }
  return PrepareConvQuantization(kOp, context, input, filter, bias, output, params->activation, g.out_ch, &data->q);
}

// Input rows (or columns) whose filter window covers output row o: with
// t = o + pad, those i in [0, in_size) with f = t - i * stride in [0, filter),
// as [*lo, *hi).
inline void CoveringInputs(int32_t t, int32_t stride, int32_t filter, int32_t in_size, int32_t* lo, int32_t* hi) {
  *lo = t < filter ? 0 : (t - filter + stride) / stride;
  const int32_t last = t / stride + 1;
  *hi = last < in_size ? last : in_size;
}

// Calls f(out_index, b, y0, y1, ty, x0, x1, tx) for every output pixel in
// NHWC order: out_index is its first element, b its batch, [y0, y1) x
// [x0, x1) the input pixels whose windows cover it and ty, tx its padded
// coordinates.
template <typename F>
inline void ForEachTransposeOutput(const WindowGeometry& g, F f) {
  int32_t out_index = 0;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      const int32_t ty = oy + g.pad_h;
      int32_t y0 = 0;
      int32_t y1 = 0;
      CoveringInputs(ty, g.stride_h, g.filter_h, g.in_h, &y0, &y1);
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const int32_t tx = ox + g.pad_w;
        int32_t x0 = 0;
        int32_t x1 = 0;
        CoveringInputs(tx, g.stride_w, g.filter_w, g.in_w, &x0, &x1);
        f(out_index, b, y0, y1, ty, x0, x1, tx);
        out_index += g.out_ch;
      }
    }
  }
}

// The products of one output channel (filter_oc: its filter) at one output
// pixel, in TFLM's order (input row, column, channel): add(acc, in, f, n)
// adds the n channel products of one input pixel and filter tap.
template <typename In, typename W, typename Acc, typename Add>
inline Acc SumWindow(const WindowGeometry& g, const In* input, const W* filter_oc, int32_t b, int32_t y0, int32_t y1,
                     int32_t ty, int32_t x0, int32_t x1, int32_t tx, Acc acc, Add add) {
  for (int32_t iy = y0; iy < y1; ++iy) {
    const int32_t fy = ty - iy * g.stride_h;
    for (int32_t ix = x0; ix < x1; ++ix) {
      const int32_t fx = tx - ix * g.stride_w;
      const In* in = input + ((b * g.in_h + iy) * g.in_w + ix) * g.in_ch;
      const W* f = filter_oc + (fy * g.filter_w + fx) * g.in_ch;
      acc = add(acc, in, f, g.in_ch);
    }
  }
  return acc;
}

TfLiteStatus EvalFloat(const WindowGeometry& g, TfLiteFusedActivation activation, const float* input,
                       const float* filter, const float* bias, float* output) {
  float act_min = 0.0f;
  float act_max = 0.0f;
  CalculateActivationRange(activation, &act_min, &act_max);
  const int32_t f_channel_stride = g.filter_h * g.filter_w * g.in_ch;
  ForEachTransposeOutput(g, [&](int32_t out_index, int32_t b, int32_t y0, int32_t y1, int32_t ty, int32_t x0,
                                int32_t x1, int32_t tx) {
    for (int32_t oc = 0; oc < g.out_ch; ++oc) {
      // One product at a time from 0, then the bias: TFLM's additions.
      float acc = SumWindow(g, input, filter + oc * f_channel_stride, b, y0, y1, ty, x0, x1, tx, 0.0f,
                            [](float sum, const float* in, const float* f, int32_t n) {
                              for (int32_t i = 0; i < n; ++i) sum += in[i] * f[i];
                              return sum;
                            });
      if (bias != nullptr) acc += bias[oc];
      output[out_index + oc] = ClampFloat(acc, act_min, act_max);
    }
  });
  return kTfLiteOk;
}

TfLiteStatus EvalInt8(const OpData& data, const int8_t* input, const int8_t* filter, const int32_t* bias,
                      int8_t* output) {
  const WindowGeometry& g = data.g;
  const int32_t offset = data.q.input_offset;
  const int32_t f_channel_stride = g.filter_h * g.filter_w * g.in_ch;
  const Int8Requantizer requantize(data.q);
  ForEachTransposeOutput(g, [&](int32_t out_index, int32_t b, int32_t y0, int32_t y1, int32_t ty, int32_t x0,
                                int32_t x1, int32_t tx) {
    for (int32_t oc = 0; oc < g.out_ch; ++oc) {
      // Wrapping: the reference's int32 sum modulo 2^32 (prepare bounds it).
      const uint32_t acc = SumWindow(
          g, input, filter + oc * f_channel_stride, b, y0, y1, ty, x0, x1, tx, uint32_t{0},
          [offset](uint32_t sum, const int8_t* in, const int8_t* f, int32_t n) {
            for (int32_t i = 0; i < n; ++i) sum += static_cast<uint32_t>((in[i] + offset) * f[i]);
            return sum;
          });
      output[out_index + oc] =
          requantize(WrappingAdd(static_cast<int32_t>(acc), bias != nullptr ? bias[oc] : 0), static_cast<int>(oc));
    }
  });
  return kTfLiteOk;
}

TfLiteStatus EvalInt16(const OpData& data, const Int16FilterEval& e, const int16_t* input, const int8_t* filter,
                       int16_t* output) {
  const WindowGeometry& g = data.g;
  const int32_t f_channel_stride = g.filter_h * g.filter_w * g.in_ch;
  ForEachTransposeOutput(g, [&](int32_t out_index, int32_t b, int32_t y0, int32_t y1, int32_t ty, int32_t x0,
                                int32_t x1, int32_t tx) {
    for (int32_t oc = 0; oc < g.out_ch; ++oc) {
      // 64-bit (wrapping) like TFLM's int64 accumulator; |input * filter| <= 2^22,
      // so 256 products fit an int32 partial sum.
      const uint64_t sum = SumWindow(
          g, input, filter + oc * f_channel_stride, b, y0, y1, ty, x0, x1, tx, uint64_t{0},
          [](uint64_t total, const int16_t* in, const int8_t* f, int32_t n) {
            for (int32_t i0 = 0; i0 < n; i0 += 256) {
              const int32_t i1 = n - i0 < 256 ? n : i0 + 256;
              int32_t part = 0;
              for (int32_t i = i0; i < i1; ++i) part += in[i] * f[i];
              total += static_cast<uint64_t>(static_cast<int64_t>(part));
            }
            return total;
          });
      output[out_index + oc] = RequantizeInt16(data.q, e, sum, static_cast<int>(oc));
    }
  });
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const OpData* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  const TfLiteTensor* shape = GetInput(context, node, kOutputShape);
  const TfLiteTensor* filter = GetInput(context, node, kFilter);
  const TfLiteTensor* input = GetInput(context, node, kInput);
  const TfLiteTensor* bias = OptionalBias(context, node);
  TfLiteTensor* output = GetOutput(context, node, 0);
  if (!shape->is_constant) TF_LITE_ENSURE_OK(context, CheckOutputShapeValues(shape, output));
  switch (input->type) {
    case kTfLiteFloat32:
      return EvalFloat(data->g, params->activation, input->data.f, filter->data.f,
                       bias != nullptr ? bias->data.f : nullptr, output->data.f);
    case kTfLiteInt8:
      TF_LITE_ENSURE_OK(context, CheckVariableBiasRange(kOp, input, filter, bias, data->g.out_ch, 0));
      return EvalInt8(*data, input->data.int8, filter->data.int8, bias != nullptr ? bias->data.i32 : nullptr,
                      output->data.int8);
    case kTfLiteInt16: {
      Int16FilterEval e;
      TF_LITE_ENSURE_OK(context, PrepareInt16FilterEval(bias, output, params->activation, &e));
      return EvalInt16(*data, e, input->data.i16, filter->data.int8, output->data.i16);
    }
    default:
      MicroPrintf("%s: input type %s not supported (use float32, int8 or int16)", kOp, TfLiteTypeName(input->type));
      return kTfLiteError;
  }
}

}  // namespace

TfLiteRegistration Register_TRANSPOSE_CONV() { return {Init, nullptr, Prepare, Eval}; }

}  // namespace micro_runtime
