// Runs the micro_speech keyword model: a 49x40 int8 spectrogram (1960
// features) in, int8 scores for silence / unknown / "yes" / "no" out. Only
// the four ops the model uses are linked in.
#ifndef MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_SPEECH_CLASSIFIER_H_
#define MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_SPEECH_CLASSIFIER_H_

#include <stddef.h>
#include <stdint.h>

#include "micro_runtime/micro_interpreter.h"
#include "micro_runtime/micro_op_resolver.h"

constexpr int kCategoryCount = 4;
constexpr int kFeatureCount = 1960;
extern const char* const kCategoryLabels[kCategoryCount];

class SpeechClassifier {
 public:
  // `arena` must stay valid as long as the classifier.
  SpeechClassifier(const unsigned char* model, size_t model_size, uint8_t* arena, size_t arena_size);

  // Registers the model's ops and allocates tensors; logs why and returns
  // kTfLiteError when the model does not have the expected int8 shapes.
  TfLiteStatus Init();

  // scores[i] = int8 score of kCategoryLabels[i] for one spectrogram.
  TfLiteStatus Classify(const int8_t* features, int feature_count, int8_t scores[kCategoryCount]);

  MicroInterpreter& interpreter() { return interpreter_; }

 private:
  MicroMutableOpResolver<4> resolver_;  // constructed before interpreter_, which keeps a reference
  MicroInterpreter interpreter_;
  bool ready_ = false;
};

#endif  // MICRO_RUNTIME_EXAMPLES_MICRO_SPEECH_SPEECH_CLASSIFIER_H_
