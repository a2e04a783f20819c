#include "micro_runtime/kernels/kernel_util.h"
#include "micro_runtime/kernels/quantization_util.h"
#include "micro_runtime/kernels/resize.h"

namespace micro_runtime {

ResizeShape ResizeShapeOf(const TfLiteTensor* input, const TfLiteTensor* output) {
  const int32_t* in = input->dims->data;
  return {in[0], in[1], in[2], in[3], output->dims->data[1], output->dims->data[2]};
}

TfLiteStatus PrepareResize(const char* op, TfLiteContext* context, TfLiteNode* node, unsigned types,
                           const char* supported) {
  TF_LITE_ENSURE_OK(context, CheckNodeIo(op, context, node, 2, 2, 1));
  const TfLiteTensor* input = GetInput(context, node, 0);
  const TfLiteTensor* size = GetInput(context, node, 1);
  const TfLiteTensor* output = GetOutput(context, node, 0);
  if (!InTypeSet(input->type, types)) return ReportUnsupportedType(op, input->type, supported);
  TF_LITE_ENSURE_OK(context, CheckSameType(op, input, output));
  char shape[48];
  FormatDims(input->dims->data, input->dims->size, shape, sizeof(shape));
  if (input->dims->size != 4) {
    MicroPrintf("%s: input shape %s is not 4-D (batches, height, width, channels)", op, shape);
    return kTfLiteError;
  }
  for (int d = 0; d < 4; ++d) {
    const int32_t limit = d == 1 || d == 2 ? kMaxResizeSize : INT32_MAX;
    if (input->dims->data[d] < 1 || input->dims->data[d] > limit) {
      MicroPrintf("%s: input shape %s: dimension %d must be in [1, %d]", op, shape, d, static_cast<int>(limit));
      return kTfLiteError;
    }
  }
  if (size->dims->size != 1) {
    MicroPrintf("%s: size must be a vector [height, width], it has %d dimensions", op,
                static_cast<int>(size->dims->size));
    return kTfLiteError;
  }
  const int32_t* hw = ConstantInt32Data(op, "size", size, 2);
  if (hw == nullptr) return kTfLiteError;
  for (int i = 0; i < 2; ++i) {
    if (hw[i] < 1 || hw[i] > kMaxResizeSize) {
      MicroPrintf("%s: size %s %d is outside [1, %d]", op, i == 0 ? "height" : "width", static_cast<int>(hw[i]),
                  static_cast<int>(kMaxResizeSize));
      return kTfLiteError;
    }
  }
  const int32_t expected[4] = {input->dims->data[0], hw[0], hw[1], input->dims->data[3]};
  TF_LITE_ENSURE_OK(context, CheckOutputShape(op, output, expected, 4));
  return CheckSameQuantization(op, input, output);
}

float ResizeScale(int32_t in_size, int32_t out_size, bool align_corners) {
  if (align_corners && out_size > 1) return static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  return static_cast<float>(in_size) / static_cast<float>(out_size);
}

int32_t NearestSource(int32_t value, float scale, int32_t in_size, bool align_corners, bool half_pixel_centers) {
  const float offset = half_pixel_centers ? 0.5f : 0.0f;
  const float position = (static_cast<float>(value) + offset) * scale;
  // position >= 0 and below 2^17 (kMaxResizeSize): truncation is the floor.
  const int32_t index = align_corners ? RoundToInt32(position) : static_cast<int32_t>(position);
  return index < in_size - 1 ? index : in_size - 1;
}

float BilinearSource(int32_t value, float scale, bool half_pixel_centers, int32_t in_size, int32_t* lower,
                     int32_t* upper) {
  const float position = half_pixel_centers ? (static_cast<float>(value) + 0.5f) * scale - 0.5f
                                            : static_cast<float>(value) * scale;
  // position >= -0.5 and below 2^17: floor and ceiling from the truncation.
  int32_t floor = static_cast<int32_t>(position);
  int32_t ceiling = floor;
  if (static_cast<float>(floor) > position) --floor;
  if (static_cast<float>(ceiling) < position) ++ceiling;
  *lower = floor > 0 ? floor : 0;
  *upper = ceiling < in_size - 1 ? ceiling : in_size - 1;
  return position;
}

int32_t BilinearScale10(int32_t in_size, int32_t out_size, bool align_corners) {
  // Sizes up to 2^16: 1024 * in_size + out_size fits int32.
  if (align_corners && out_size > 1) return ((in_size - 1) * 1024 + (out_size - 1) / 2) / (out_size - 1);
  return (in_size * 1024 + out_size / 2) / out_size;
}

int32_t BilinearSource10(int32_t value, int32_t scale10, bool half_pixel_centers, int32_t in_size, int32_t* lower,
                         int32_t* upper) {
  // value * scale10 is below 1024 * in_size + out_size (the rounding of the scale), far inside int32.
  const int32_t position = half_pixel_centers ? value * scale10 + scale10 / 2 - 512 : value * scale10;
  // Division truncates toward zero: a position in [-512, 0) has lower = upper = 0.
  const int32_t floor = position / 1024;
  const int32_t ceiling = (position + 1023) / 1024;
  *lower = floor > 0 ? floor : 0;
  *upper = ceiling < in_size - 1 ? ceiling : in_size - 1;
  return position;
}

}  // namespace micro_runtime
