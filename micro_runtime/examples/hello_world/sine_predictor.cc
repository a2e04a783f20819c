#include "micro_runtime/examples/hello_world/sine_predictor.h"

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_log.h"

SinePredictor::SinePredictor(const unsigned char* model, size_t model_size, uint8_t* arena, size_t arena_size)
    : interpreter_(model, model_size, resolver_, arena, arena_size) {}

TfLiteStatus SinePredictor::Init() {
  // Versions 1 (float) to 4 (int8) of FULLY_CONNECTED; nothing else is linked in.
  if (resolver_.AddBuiltin(tflite::BuiltinOperator::FULLY_CONNECTED, Register_FULLY_CONNECTED(), 1, 4) !=
      kTfLiteOk) {
    return kTfLiteError;
  }
  if (interpreter_.AllocateTensors() != kTfLiteOk) return kTfLiteError;
  const TfLiteTensor* in = interpreter_.input(0);
  const TfLiteTensor* out = interpreter_.output(0);
  if (in == nullptr || out == nullptr || ElementCount(in->dims) != 1 || ElementCount(out->dims) != 1 ||
      in->type != out->type || (in->type != kTfLiteFloat32 && in->type != kTfLiteInt8)) {
    MicroPrintf("SinePredictor: expected a float32 or int8 model with one [1,1] input and output");
    return kTfLiteError;
  }
  ready_ = true;
  return kTfLiteOk;
}

TfLiteStatus SinePredictor::Predict(float x, float* y) {
  if (!ready_) {
    MicroPrintf("SinePredictor: call Init() first");
    return kTfLiteError;
  }
  TfLiteTensor* in = interpreter_.input(0);
  if (in->type == kTfLiteInt8) {
    const float scaled = x / in->params.scale;
    // Round half away from zero without pulling in libm.
    long q = static_cast<long>(scaled >= 0.0f ? scaled + 0.5f : scaled - 0.5f) + in->params.zero_point;
    if (q < -128) q = -128;
    if (q > 127) q = 127;
    in->data.int8[0] = static_cast<int8_t>(q);
  } else {
    in->data.f[0] = x;
  }
  TF_LITE_ENSURE_OK(nullptr, interpreter_.Invoke());
  const TfLiteTensor* out = interpreter_.output(0);
  if (out->type == kTfLiteInt8) {
    *y = static_cast<float>(out->data.int8[0] - out->params.zero_point) * out->params.scale;
  } else {
    *y = out->data.f[0];
  }
  return kTfLiteOk;
}
