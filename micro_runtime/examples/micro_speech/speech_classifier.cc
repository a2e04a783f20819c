#include "micro_runtime/examples/micro_speech/speech_classifier.h"

#include "micro_runtime/kernels/micro_ops.h"
#include "micro_runtime/micro_log.h"

const char* const kCategoryLabels[kCategoryCount] = {"silence", "unknown", "yes", "no"};

SpeechClassifier::SpeechClassifier(const unsigned char* model, size_t model_size, uint8_t* arena,
                                   size_t arena_size)
    : interpreter_(model, model_size, resolver_, arena, arena_size) {}

TfLiteStatus SpeechClassifier::Init() {
  using Op = tflite::BuiltinOperator;
  // The versions the converter wrote for this int8 model.
  TF_LITE_ENSURE_OK(nullptr, resolver_.AddBuiltin(Op::DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D_INT8(), 1, 3));
  TF_LITE_ENSURE_OK(nullptr, resolver_.AddBuiltin(Op::FULLY_CONNECTED, Register_FULLY_CONNECTED_INT8(), 1, 4));
  TF_LITE_ENSURE_OK(nullptr, resolver_.AddBuiltin(Op::RESHAPE, Register_RESHAPE(), 1, 1));
  TF_LITE_ENSURE_OK(nullptr, resolver_.AddBuiltin(Op::SOFTMAX, Register_SOFTMAX_INT8(), 1, 2));
  TF_LITE_ENSURE_OK(nullptr, interpreter_.AllocateTensors());
  const TfLiteTensor* in = interpreter_.input(0);
  const TfLiteTensor* out = interpreter_.output(0);
  if (in == nullptr || out == nullptr || in->type != kTfLiteInt8 || out->type != kTfLiteInt8 ||
      ElementCount(in->dims) != kFeatureCount || ElementCount(out->dims) != kCategoryCount) {
    MicroPrintf("SpeechClassifier: expected an int8 model with %d features in and %d scores out", kFeatureCount,
                kCategoryCount);
    return kTfLiteError;
  }
  ready_ = true;
  return kTfLiteOk;
}

TfLiteStatus SpeechClassifier::Classify(const int8_t* features, int feature_count, int8_t scores[kCategoryCount]) {
  if (!ready_) {
    MicroPrintf("SpeechClassifier: call Init() first");
    return kTfLiteError;
  }
  if (feature_count != kFeatureCount) {
    MicroPrintf("SpeechClassifier: got %d features, the model takes %d", feature_count, kFeatureCount);
    return kTfLiteError;
  }
  int8_t* in = interpreter_.input(0)->data.int8;
  for (int i = 0; i < kFeatureCount; ++i) in[i] = features[i];
  TF_LITE_ENSURE_OK(nullptr, interpreter_.Invoke());
  const int8_t* out = interpreter_.output(0)->data.int8;
  for (int i = 0; i < kCategoryCount; ++i) scores[i] = out[i];
  return kTfLiteOk;
}
